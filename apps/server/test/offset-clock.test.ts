/**
 * The test clock of browser tests (CLOCK_OFFSET_FILE): the system time plus the milliseconds
 * written in a file, read again when the file changes, and refused in production.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { OFFSET_CHECK_MS, OffsetFileClock, serverClock, systemClock } from '../src/lib/clock';
import { buildApp } from '../src/app';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import type { Tick } from '../src/market/types';
import { createTestDatabase, testConfig } from './helpers';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bourse-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const freshFile = () => path.join(dir, `offset-${++files}`);

/** Replaces the file whole, as the clock asks writers to (a temporary file renamed over it). */
function writeOffset(file: string, text: string): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** Waits past the clock's look interval, so its next now() looks at the file again. */
const nextLook = () => new Promise((resolve) => setTimeout(resolve, OFFSET_CHECK_MS + 5));

/** The clock's offset now: its time minus the system's, both read around it. */
function offsetOf(clock: OffsetFileClock): { low: number; high: number } {
  const before = Date.now();
  const time = clock.now().getTime();
  const after = Date.now();
  return { low: time - after, high: time - before };
}

function expectOffset(clock: OffsetFileClock, offsetMs: number): void {
  const { low, high } = offsetOf(clock);
  expect(low).toBeLessThanOrEqual(offsetMs);
  expect(high).toBeGreaterThanOrEqual(offsetMs);
}

describe('OffsetFileClock', () => {
  it('is the system time when the file is missing or empty', () => {
    const file = freshFile();
    expectOffset(new OffsetFileClock(file), 0);
    writeOffset(file, '');
    expectOffset(new OffsetFileClock(file), 0);
    writeOffset(file, '  \n');
    expectOffset(new OffsetFileClock(file), 0);
  });

  it('adds the whole number of milliseconds in the file, and follows the file as it changes', async () => {
    const file = freshFile();
    const day = 86_400_000;
    writeOffset(file, `${3 * day}\n`);
    const clock = new OffsetFileClock(file);
    expectOffset(clock, 3 * day);

    writeOffset(file, String(10 * day + 1234));
    await nextLook();
    expectOffset(clock, 10 * day + 1234);

    writeOffset(file, '-60000');
    await nextLook();
    expectOffset(clock, -60_000);

    rmSync(file);
    await nextLook();
    expectOffset(clock, 0);

    writeOffset(file, '+5000');
    await nextLook();
    expectOffset(clock, 5000);
  });

  it('keeps the last offset when the file holds something else, and says so', async () => {
    const file = freshFile();
    writeOffset(file, '7000');
    const problems: string[] = [];
    const clock = new OffsetFileClock(file, (message) => problems.push(message));
    for (const text of ['12.5', 'ten days', '1e9', '99999999999999999']) {
      writeOffset(file, text);
      await nextLook();
      expectOffset(clock, 7000);
    }
    expect(problems).toHaveLength(4);
    expect(problems[0]).toContain('whole number of milliseconds');
    expect(problems[0]).toContain(file);
  });

  it('refuses a file that does not hold a whole number from the start', () => {
    const file = freshFile();
    writeOffset(file, 'soon');
    expect(() => new OffsetFileClock(file)).toThrow(/whole number of milliseconds/);
  });

  it('is the system clock without a file', () => {
    expect(serverClock(undefined)).toBe(systemClock);
    expect(serverClock(freshFile())).toBeInstanceOf(OffsetFileClock);
  });
});

describe('CLOCK_OFFSET_FILE', () => {
  it('is refused when NODE_ENV is production, with what to do', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', CLOCK_OFFSET_FILE: '/tmp/offset' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', CLOCK_OFFSET_FILE: '/tmp/offset' })).toThrow(
      /CLOCK_OFFSET_FILE.*NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: 'production' }).CLOCK_OFFSET_FILE).toBeUndefined();
    expect(
      loadConfig({ NODE_ENV: 'test', CLOCK_OFFSET_FILE: '/tmp/offset' }).CLOCK_OFFSET_FILE,
    ).toBe('/tmp/offset');
    // A relative path is where the command was typed (as DATA_DIR).
    expect(
      loadConfig({ NODE_ENV: 'test', CLOCK_OFFSET_FILE: 'offset.txt', INIT_CWD: '/srv/bourse' })
        .CLOCK_OFFSET_FILE,
    ).toBe('/srv/bourse/offset.txt');
  });

  it("moves the server's time: its feed stamps ticks with the moved time", async () => {
    const file = freshFile();
    const offsetMs = 5 * 86_400_000;
    writeOffset(file, String(offsetMs));
    const database = await createTestDatabase();
    // No clock given: the app makes its own, the one CLOCK_OFFSET_FILE asks for.
    const app = await buildApp({
      config: testConfig({
        CLOCK_OFFSET_FILE: file,
        MARKET_FEED: 'simulated',
        MARKET_TICK_MS: '100',
      }),
      db: database.db,
      logger: false,
      catalogue: DEFAULT_CATALOGUE.filter((product) => product.code === 'BTCUSDT'),
      history: { candles: 30 },
    });
    try {
      const before = Date.now();
      const tick = await new Promise<Tick>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no tick within 10 s')), 10_000);
        const off = app.services.marketEngine!.onTickEvent((event) => {
          off();
          clearTimeout(timer);
          resolve(event.tick);
        });
      });
      const after = Date.now();
      // Stamped at its slot's instant: after a busy pause the feed catches up at most a minute.
      expect(tick.time).toBeGreaterThanOrEqual(before + offsetMs - 60_000);
      expect(tick.time).toBeLessThanOrEqual(after + offsetMs);
    } finally {
      await app.close();
      await database.dispose();
    }
  });
});
