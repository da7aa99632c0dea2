/**
 * Issue 17: on a fresh database every interval answers at least 300 candles (the default depth),
 * the chart pages back further with endTime, and the order book of a simulated product is a
 * labelled, read-only book around the feed's price.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gt, lt, PRODUCT_TYPE, type Candle, type ProductType } from '@bourse/shared';
import { ManualClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import { candleStart } from '../src/market/price-store';
import { CANDLE_INTERVALS } from '../src/market/types';
import { call, createTestApp, type TestApp } from './helpers';

// Wednesday 2026-11-18 15:00 UTC: every session is open.
const NOW = Date.UTC(2026, 10, 18, 15);
const PRODUCTS: [ProductType, string][] = [
  [PRODUCT_TYPE.crypto, 'BTCUSDT'],
  [PRODUCT_TYPE.usStock, 'AAPL'],
  [PRODUCT_TYPE.forex, 'EURUSD'],
  [PRODUCT_TYPE.futures, 'GC'],
];

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { MARKET_FEED: 'simulated', MARKET_TICK_MS: '1000', MARKET_SEED: 'charts' },
    clock: new ManualClock(new Date(NOW)),
    // The default history: what a fresh installation gets.
    catalogue: DEFAULT_CATALOGUE.filter((product) =>
      PRODUCTS.some(([type, code]) => product.productType === type && product.code === code),
    ),
  });
});

afterAll(async () => {
  await t?.close();
});

async function kline(query: Record<string, string>): Promise<Candle[]> {
  const { status, body } = await call(t.app, 'GET', '/api/kline/list', { query });
  expect(status, JSON.stringify(query)).toBe(200);
  return body.data as Candle[];
}

describe('history on a fresh database', () => {
  it('answers 300 candles at every interval of every market', async () => {
    for (const [productType, productCode] of PRODUCTS) {
      for (const interval of CANDLE_INTERVALS) {
        const candles = await kline({ productType: String(productType), productCode, interval });
        const label = `${productCode} ${interval}`;
        expect(candles, label).toHaveLength(300);
        // Newest first, aligned, the newest the one holding now.
        expect(candles[0]!.openTime, label).toBe(candleStart(interval, NOW - 60_000));
        for (let index = 1; index < candles.length; index++) {
          expect(candles[index]!.openTime, label).toBeLessThan(candles[index - 1]!.openTime);
          expect(candleStart(interval, candles[index]!.openTime), label).toBe(
            candles[index]!.openTime,
          );
        }
      }
    }
  });

  it('pages back with endTime beyond the first 300, without overlap', async () => {
    for (const interval of ['1h', '4h', '1d'] as const) {
      const first = await kline({ productType: '2', productCode: 'BTCUSDT', interval });
      const oldest = first.at(-1)!.openTime;
      const older = await kline({
        productType: '2',
        productCode: 'BTCUSDT',
        interval,
        endTime: String(oldest),
      });
      expect(older.length, interval).toBeGreaterThanOrEqual(90);
      expect(older[0]!.openTime, interval).toBe(candleStart(interval, oldest - 1));
      expect(older.every((candle) => candle.openTime < oldest)).toBe(true);
      // One walk: the page before ends where the first page starts.
      expect(older[0]!.close, interval).toBe(first.at(-1)!.open);
    }
  });

  it('4h candles are made of their hours', async () => {
    const hours = await kline({
      productType: '2',
      productCode: 'BTCUSDT',
      interval: '1h',
      limit: '48',
    });
    const fours = await kline({
      productType: '2',
      productCode: 'BTCUSDT',
      interval: '4h',
      limit: '6',
    });
    for (const four of fours.slice(1)) {
      const inside = hours
        .filter(
          (hour) => hour.openTime >= four.openTime && hour.openTime < four.openTime + 14_400_000,
        )
        .reverse();
      expect(inside).toHaveLength(4);
      const highest = inside.reduce((max, hour) => (gt(hour.high, max) ? hour.high : max), '0');
      const lowest = inside.reduce(
        (min, hour) => (lt(hour.low, min) ? hour.low : min),
        inside[0]!.low,
      );
      expect(four.high).toBe(highest);
      expect(four.low).toBe(lowest);
      expect(four.open).toBe(inside[0]!.open);
      expect(four.close).toBe(inside.at(-1)!.close);
    }
  });
});

describe('order book', () => {
  it('is a simulated book around the price, best first, labelled simulated', async () => {
    const { status, body } = await call(t.app, 'GET', '/api/kline/orderBook', {
      query: { productType: '2', productCode: 'btcusdt' },
    });
    expect(status).toBe(200);
    const book = body.data as {
      simulated: boolean;
      source: string;
      bids: { price: string; amount: string }[];
      asks: { price: string; amount: string }[];
    };
    expect(book).toMatchObject({ simulated: true, source: 'simulated' });
    expect(book.bids).toHaveLength(10);
    expect(book.asks).toHaveLength(10);
    const products = (await call(t.app, 'GET', '/api/cryptocurrencyProduct/list')).body.rows!;
    const price = products.find((row) => row.productCode === 'BTCUSDT').tickerInfo.nowPrice;
    expect(lt(book.bids[0]!.price, price)).toBe(true);
    expect(gt(book.asks[0]!.price, price)).toBe(true);
    for (let index = 1; index < 10; index++) {
      expect(lt(book.bids[index]!.price, book.bids[index - 1]!.price)).toBe(true);
      expect(gt(book.asks[index]!.price, book.asks[index - 1]!.price)).toBe(true);
    }
    for (const level of [...book.bids, ...book.asks]) {
      expect(level.price).toMatch(/^\d+\.\d{2}$/);
      expect(gt(level.amount, '0')).toBe(true);
    }
  });

  it('refuses bad input with translated keys', async () => {
    const cases: [Record<string, string>, number, string][] = [
      [{ productType: '2', productCode: 'BTCUSDT', levels: '0' }, 400, 'hint_paramOutOfRange'],
      [{ productType: '2', productCode: 'BTCUSDT', levels: '21' }, 400, 'hint_paramOutOfRange'],
      [{ productType: '2', productCode: 'NOPEUSDT' }, 404, 'hint_productUnknown'],
      [{ productType: '9', productCode: 'BTCUSDT' }, 400, 'hint_paramInvalid'],
    ];
    for (const [query, status, msg] of cases) {
      const answer = await call(t.app, 'GET', '/api/kline/orderBook', {
        query,
        headers: { languageid: '2' },
      });
      expect(answer.status, JSON.stringify(query)).toBe(status);
      expect(answer.body.msg).toBe(msg);
      expect(answer.body.text).toBeTruthy();
    }
  });
});
