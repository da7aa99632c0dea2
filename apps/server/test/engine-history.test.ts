/**
 * With a real feed, products it prices get the feed's own history instead of generated history;
 * the others (still simulated) get generated history.
 */
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import { MarketEngine } from '../src/market/engine';
import * as repo from '../src/market/repo';
import type { Candle } from '../src/market/types';
import { createTestDatabase, type TestDatabase } from './helpers';

const NOW = Date.UTC(2026, 10, 18, 15, 0, 0);
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.dispose());

it('stores the real feed history for the products it covers and generates the rest', async () => {
  const catalogue = DEFAULT_CATALOGUE.filter((product) =>
    ['BTCUSDT', 'AAPL'].includes(product.code),
  );
  const day: Candle = {
    openTime: Date.UTC(2026, 10, 17),
    open: '90000',
    high: '91000',
    low: '89000',
    close: '90500',
    volume: '10',
    amount: '905000',
  };
  const minute: Candle = {
    ...day,
    openTime: NOW - 60_000,
    open: '90500',
    high: '90600',
    low: '90400',
    close: '90550',
  };
  const asked: string[] = [];
  const engine = new MarketEngine({
    db: database.db,
    clock: new ManualClock(new Date(NOW)),
    logger: pino({ level: 'silent' }),
    catalogue,
    history: { days: 5, minuteDays: 1 },
    historySource: async (products) => {
      asked.push(...products.map((product) => product.productCode));
      return new Map([['2:BTCUSDT', { '1d': [day], '1m': [minute] }]]);
    },
  });
  await engine.prepare();
  expect(asked.sort()).toEqual(['AAPL', 'BTCUSDT']);
  const btc = engine.product(2, 'BTCUSDT')!;
  expect(await repo.candles(database.db, btc.id, '1d', NOW, 10)).toEqual([day]);
  expect(await repo.candles(database.db, btc.id, '1m', NOW, 10)).toEqual([minute]);
  expect(engine.tickerInfo(btc)?.nowPrice).toBe('90550.00');
  const aapl = engine.product(1, 'AAPL')!;
  expect((await repo.candles(database.db, aapl.id, '1d', NOW, 10)).length).toBeGreaterThan(1);
});
