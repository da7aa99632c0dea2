/**
 * Tick sequence numbers identify a product's tick for the life of the database (PRODUCT 1.2: the
 * evidence of a fill, settlement or liquidation is its tick's price, time, source and sequence):
 * every run of the feed numbers its ticks above every earlier run's, after a restart, after the
 * tick log lost its rows, and when another instance takes the feed's lease over; fills and
 * settlements before and after show distinct (source, sequence) pairs, the numbers market_tick
 * keeps and the ticker sends.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalize, type TickEvidence } from '@bourse/shared';
import { buildApp } from '../src/app';
import { loadMigrations, migrate } from '../src/db/migrate';
import { ManualClock, systemClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import type { TickEvent } from '../src/market/engine';
import { EPOCH_SPAN, TickSequencer, takeEpoch } from '../src/market/tick-sequence';
import type { Tick } from '../src/market/types';
import { settledFastTrade } from './support/fast-trade';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import {
  advanceMarket,
  call,
  createTestApp,
  createTestDatabase,
  deposit,
  onPostgres,
  registerUser,
  testConfig,
  type TestApp,
  type TestDatabase,
} from './helpers';
import { REDIS_URL, redisAvailable } from './support/redis';

const NOW = Date.parse('2026-11-18T15:00:00Z');
const CODES = ['BTCUSDT', 'ETHUSDT'] as const;
const catalogue = DEFAULT_CATALOGUE.filter((product) =>
  (CODES as readonly string[]).includes(product.code),
);

let requestCount = 0;
const requestId = () => `seq-${Date.now()}-${++requestCount}`;

/** Sequences per product code. */
type ByProduct = Map<string, number[]>;

function byProduct(ticks: readonly { productCode: string; sequence: number }[]): ByProduct {
  const map: ByProduct = new Map();
  for (const tick of ticks)
    map.set(tick.productCode, [...(map.get(tick.productCode) ?? []), tick.sequence]);
  return map;
}

/** Every later sequence of each product is above every earlier one, and each run counts by one. */
function expectAbove(earlier: ByProduct, later: ByProduct): void {
  for (const code of CODES) {
    const before = earlier.get(code) ?? [];
    const after = later.get(code) ?? [];
    expect(before.length, `${code} before`).toBeGreaterThan(0);
    expect(after.length, `${code} after`).toBeGreaterThan(0);
    expect(Math.min(...after), code).toBeGreaterThan(Math.max(...before));
    for (const run of [before, after]) {
      for (let i = 1; i < run.length; i++) expect(run[i], code).toBe(run[i - 1]! + 1);
    }
    for (const sequence of [...before, ...after]) expect(Number.isSafeInteger(sequence)).toBe(true);
  }
}

/** Ticks of market_tick by product code. */
async function loggedTicks(database: TestDatabase) {
  const { rows } = await database.db.query<{
    product_code: string;
    tick_time: number;
    sequence: number;
    price: string;
    source: string;
  }>(
    `SELECT p.product_code, t.tick_time, t.sequence, t.price::text AS price, t.source
     FROM market_tick t JOIN product p ON p.id = t.product_id ORDER BY t.tick_time, t.sequence`,
  );
  return rows.map((row) => ({
    productCode: row.product_code,
    time: row.tick_time,
    sequence: row.sequence,
    price: row.price,
    source: row.source,
  }));
}

describe(`tick sequences on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('numbers a restarted feed above the last run, and fills and settlements show distinct ticks', async () => {
    const clock = new ManualClock(new Date(NOW));
    let t: TestApp;
    let feed: ScriptedFeed;
    const tickAt = (code: string, price: string): Tick => {
      clock.advance(1000);
      return feed.tick(code, price, clock.now().getTime());
    };

    /** A spot buy, a contract open or close and a fast trade settled, with their evidence. */
    async function trade(position: number | undefined) {
      const evidence: { what: string; tick: TickEvidence }[] = [];
      tickAt('ETHUSDT', '3000.00');
      tickAt('BTCUSDT', '100000.00');
      const spot = await call(t.app, 'POST', '/api/spotTradeOrder/addSpotTradeOrder', {
        token: user.token,
        json: {
          productType: 2,
          productCode: 'BTCUSDT',
          orderType: 1,
          quantity: '0.0010',
          requestId: requestId(),
        },
      });
      expect(spot.status, JSON.stringify(spot.body)).toBe(200);
      evidence.push({ what: 'spot fill', tick: spot.body.data.fill });
      tickAt('BTCUSDT', '100100.00');
      if (position === undefined) {
        const opened = await call(t.app, 'POST', '/api/contractPosition/open', {
          token: user.token,
          json: {
            productType: 2,
            productCode: 'BTCUSDT',
            orderDirection: 1,
            leverage: 10,
            quantity: '0.01',
            requestId: requestId(),
          },
        });
        expect(opened.status, JSON.stringify(opened.body)).toBe(200);
        evidence.push({ what: 'contract entry', tick: opened.body.data.entry });
        position = opened.body.data.id as number;
      } else {
        const closed = await call(t.app, 'POST', '/api/contractPosition/close', {
          token: user.token,
          json: { id: position, requestId: requestId() },
        });
        expect(closed.status, JSON.stringify(closed.body)).toBe(200);
        evidence.push({ what: 'contract exit', tick: closed.body.data.exit });
      }
      const options = await call(t.app, 'GET', '/api/fastTradeOrderOptions/list', {
        query: { productType: '2', productCode: 'BTCUSDT' },
      });
      const minute = (options.body.data as { id: number; durationSeconds: number }[]).find(
        (option) => option.durationSeconds === 60,
      )!;
      tickAt('BTCUSDT', '100200.00');
      const placed = await call(t.app, 'POST', '/api/fastTradeOrder/addFastTradeOrder', {
        token: user.token,
        json: {
          productType: 2,
          productCode: 'BTCUSDT',
          optionId: minute.id,
          orderDirection: 1,
          amount: '10',
          requestId: requestId(),
        },
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      evidence.push({ what: 'fast entry', tick: placed.body.data.entry });
      clock.advance(59_000);
      tickAt('BTCUSDT', '100300.00');
      const settled = await settledFastTrade(t.app, user.token, placed.body.data.id);
      evidence.push({ what: 'fast settlement', tick: settled.exit });
      tickAt('ETHUSDT', '3001.00');
      return { evidence, position };
    }

    // The first run.
    ({ t, feed } = await scriptedApp(database, clock, CODES, 'sequence'));
    const firstEvents: TickEvent[] = [];
    t.app.services.marketEngine!.onTickEvent((event) => firstEvents.push(event));
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, '100000');
    await call(t.app, 'POST', '/api/fastTradeOrder/acceptRisk', { token: user.token });
    const first = await trade(undefined);
    const lastBefore = firstEvents.filter((event) => event.tick.productCode === 'BTCUSDT').at(-1)!;
    await t.close();
    const loggedBefore = await loggedTicks(database);

    // The second run: a new feed, whose own numbering starts at 1 again.
    clock.advance(10_000);
    ({ t, feed } = await scriptedApp(database, clock, CODES, 'sequence'));
    try {
      const secondEvents: TickEvent[] = [];
      t.app.services.marketEngine!.onTickEvent((event) => secondEvents.push(event));
      // Before the new run's first tick, the price is the last logged tick, with its evidence.
      const quote = await call(t.app, 'GET', '/api/cryptocurrencyProduct/list');
      const btc = quote.body.rows!.find((row) => row.productCode === 'BTCUSDT');
      expect(btc.tickerInfo).toMatchObject({
        time: lastBefore.tick.time,
        source: 'scripted',
        sequence: lastBefore.tick.sequence,
      });
      const second = await trade(first.position);

      // The ticks the engine handled, and those the tick log kept, run above the first run's.
      const seen = (events: TickEvent[]) => byProduct(events.map((event) => event.tick));
      expectAbove(seen(firstEvents), seen(secondEvents));
      // The ticker sends the number the tick carries.
      const ticker = await call(t.app, 'GET', '/api/cryptocurrencyProduct/list');
      const lastEth = secondEvents.filter((event) => event.tick.productCode === 'ETHUSDT').at(-1)!;
      expect(
        ticker.body.rows!.find((row) => row.productCode === 'ETHUSDT').tickerInfo.sequence,
      ).toBe(lastEth.tick.sequence);
      await t.close();
      const logged = await loggedTicks(database);
      const loggedAfter = logged.slice(loggedBefore.length);
      expect(logged.slice(0, loggedBefore.length)).toEqual(loggedBefore);
      expectAbove(byProduct(loggedBefore), byProduct(loggedAfter));
      // (product, source, sequence) names one tick in the whole log.
      const names = logged.map((tick) => `${tick.productCode}:${tick.source}:${tick.sequence}`);
      expect(new Set(names).size).toBe(names.length);

      // Every piece of evidence is a logged tick as the log keeps it, and no two fills or
      // settlements of different ticks share a (source, sequence).
      const evidence = [...first.evidence, ...second.evidence];
      for (const { what, tick } of evidence) {
        expect(Number.isSafeInteger(tick.sequence), what).toBe(true);
        const match = logged.find(
          (row) =>
            row.productCode === 'BTCUSDT' &&
            row.source === tick.source &&
            row.sequence === tick.sequence,
        );
        expect(match, `${what} ${JSON.stringify(tick)}`).toBeDefined();
        expect(match!.time, what).toBe(tick.time);
        expect(normalize(match!.price), what).toBe(normalize(tick.price));
      }
      const pairs = (list: typeof evidence) =>
        new Set(list.map(({ tick }) => `${tick.source}:${tick.sequence}`));
      const before = pairs(first.evidence);
      const after = pairs(second.evidence);
      expect(before.size).toBe(first.evidence.length);
      expect(after.size).toBe(second.evidence.length);
      expect([...after].filter((pair) => before.has(pair))).toEqual([]);
      const highestBefore = Math.max(...first.evidence.map(({ tick }) => tick.sequence));
      for (const { what, tick } of second.evidence)
        expect(tick.sequence, what).toBeGreaterThan(highestBefore);
    } finally {
      await t.close();
    }
  });

  it('numbers above ticks the tick log no longer has (pruned, or never written)', async () => {
    const clock = new ManualClock(new Date(NOW + 3_600_000));
    const start = () =>
      createTestApp({
        database,
        clock,
        env: { MARKET_FEED: 'simulated', MARKET_TICK_MS: '100', MARKET_SEED: 'sequence' },
        catalogue,
        history: { days: 2, minuteDays: 0 },
      });
    let t = await start();
    const before = (await advanceMarket(t, 500, 100)).events;
    await t.close();
    // As if retention had pruned every row, or the feed had died before writing them.
    await database.db.query('DELETE FROM market_tick');
    t = await start();
    try {
      const after = (await advanceMarket(t, 500, 100)).events;
      expectAbove(
        byProduct(before.map((event) => event.tick)),
        byProduct(after.map((event) => event.tick)),
      );
    } finally {
      await t.close();
    }
  });

  it('gives every run its own epoch, also when runs start together', async () => {
    const taken = await takeEpoch(database.db);
    const epochs = await Promise.all(Array.from({ length: 20 }, () => takeEpoch(database.db)));
    expect(new Set(epochs).size).toBe(20);
    expect(Math.min(...epochs)).toBeGreaterThan(taken);
    for (const epoch of epochs) expect(Number.isSafeInteger((epoch + 1) * EPOCH_SPAN)).toBe(true);
  });
});

describe('migration 0017 on a database that has ticks', () => {
  it('starts above every number written before: from 10^12, or above a larger logged one', async () => {
    for (const [logged, first] of [
      // A Binance aggregate trade id.
      [3_500_000_000, 1000],
      [5_000_000_000_123, 5001],
    ] as const) {
      const database = await createTestDatabase(false);
      try {
        const all = await loadMigrations();
        await migrate(
          database.db,
          all.filter((migration) => migration.version <= 16),
        );
        await database.db.query(
          `INSERT INTO product (product_type, product_code, product_name_lang, position_types,
             standard, price_scale, leverages, session, source_symbol, reference_price, volatility,
             daily_volume)
           VALUES (2, 'BTCUSDT', '{"en":"Bitcoin"}', '{0,1,2,3}', 0.0001, 2, '{1,10}', 'crypto',
             'BTCUSDT', 100000, 0.5, 1)`,
        );
        await database.db.query(
          `INSERT INTO market_tick (product_id, tick_time, sequence, price, source)
           SELECT id, $1, $2, 64000, 'binance' FROM product`,
          [NOW, logged],
        );
        await migrate(database.db, all);
        expect(await takeEpoch(database.db)).toBe(first);
        expect(await takeEpoch(database.db)).toBe(first + 1);
      } finally {
        await database.dispose();
      }
    }
  });
});

describe('a run that uses up its epoch', () => {
  it('moves every product to the next epoch, and drops ticks rather than number them twice', async () => {
    let resolve: (epoch: number) => void = () => undefined;
    let requests = 0;
    const sequencer = new TickSequencer({
      epoch: 5,
      span: 10,
      renew: () => {
        requests += 1;
        return new Promise<number>((done) => (resolve = done));
      },
    });
    const a: (number | undefined)[] = [];
    const b: (number | undefined)[] = [];
    b.push(sequencer.next('b'));
    for (let i = 0; i < 11; i++) a.push(sequencer.next('a'));
    // 51…59, then nothing until the next epoch arrives; one request however many ticks.
    expect(a).toEqual([51, 52, 53, 54, 55, 56, 57, 58, 59, undefined, undefined]);
    expect(requests).toBe(1);
    resolve(6);
    await Promise.resolve();
    a.push(sequencer.next('a'));
    b.push(sequencer.next('b'));
    expect(a.slice(-1)).toEqual([61]);
    expect(b).toEqual([51, 61]);
  });
});

// ---------------------------------------------------------------- two instances, one feed lease

const redis = await redisAvailable('the lease case is');

describe.runIf(redis)('when another instance takes the feed over', () => {
  let database: TestDatabase;
  const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
  const prefix = `bourse-seq-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await database?.dispose();
  });

  const startInstance = async () => {
    const app = await buildApp({
      config: testConfig({
        MARKET_FEED: 'simulated',
        MARKET_TICK_MS: '100',
        MARKET_LEASE_MS: '600',
        REDIS_URL,
        REDIS_PREFIX: prefix,
      }),
      db: database.db,
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      catalogue,
      history: { days: 2, minuteDays: 0 },
    });
    apps.push(app);
    return app;
  };

  /** Waits until `list` holds `count` more ticks of every product. */
  async function ticksOf(list: Tick[], count: number): Promise<void> {
    const from = list.length;
    await expect
      .poll(
        () =>
          CODES.every(
            (code) => list.slice(from).filter((tick) => tick.productCode === code).length >= count,
          ),
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);
  }

  it("numbers the new leader's ticks above every tick the old one published", async () => {
    const one = await startInstance();
    const two = await startInstance();
    const leader = one.services.marketEngine!.leader ? one : two;
    const follower = leader === one ? two : one;
    expect(follower.services.marketEngine!.leader).toBe(false);
    // The follower hears every tick the leader publishes, logged or not.
    const before: Tick[] = [];
    const after: Tick[] = [];
    let heard = before;
    follower.services.marketEngine!.onTickEvent((event) => heard.push(event.tick));
    await ticksOf(before, 5);
    await leader.close();
    apps.splice(apps.indexOf(leader), 1);
    heard = after;
    // What the old leader logged is gone too: the new one must not rely on it.
    await database.db.query('DELETE FROM market_tick');
    await expect
      .poll(() => follower.services.marketEngine!.leader, { timeout: 5000, interval: 50 })
      .toBe(true);
    await ticksOf(after, 5);
    expectAbove(byProduct(before), byProduct(after));
  });
});
