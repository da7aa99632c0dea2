/**
 * A product listed while the market runs (a new share or coin, issue 24): the market engine takes
 * the product row the listing inserts, prices it from its reference price (the offer price) with
 * no history before the listing, and the feed prices it from then on, simulated and labelled so
 * like every simulated product; a restart keeps it. With a real feed only a code the feed knows
 * can be listed, and the listed coin is fed from it. In a cluster every instance learns of it.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LANGUAGE_KEYS,
  normalize,
  PRODUCT_TYPE,
  toScale,
  type Candle,
  type ProductType,
} from '@bourse/shared';
import { buildApp } from '../src/app';
import type { Database } from '../src/db/database';
import { ManualClock, systemClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import type { MarketEngine } from '../src/market/engine';
import { candleStart } from '../src/market/price-store';
import { fromMinor, shock, step, toMinor, type SimulatedParams } from '../src/market/simulated';
import type { CatalogueProduct, SessionKind } from '../src/market/types';
import {
  advanceMarket,
  call,
  createTestApp,
  createTestDatabase,
  testConfig,
  type TestApp,
  type TestDatabase,
} from './helpers';
import {
  startBinanceProtocolServer,
  type BinanceProtocolServer,
} from './support/binance-protocol-server';
import { REDIS_URL, redisAvailable } from './support/redis';

function pick(code: string): CatalogueProduct {
  const product = DEFAULT_CATALOGUE.find((p) => p.code === code);
  if (!product) throw new Error(`${code} is not in the default catalogue`);
  return product;
}

const AAPL = pick('AAPL');
const BTC = pick('BTCUSDT');
const TICK_MS = 1000;
const SEED = 'listing';
/** Wednesday 2026-11-18, 10:00 in New York: every session is open. */
const NOW = Date.parse('2026-11-18T15:00:00Z');
/** Saturday 2026-11-21, noon in New York: the stock market is closed. */
const SATURDAY = Date.parse('2026-11-21T17:00:00Z');

interface Listing {
  productType: ProductType;
  code: string;
  referencePrice: string;
  priceScale: number;
  lotSize: string;
  session: SessionKind;
}

const NOVA: Listing = {
  productType: PRODUCT_TYPE.crypto,
  code: 'NOVAUSDT',
  referencePrice: '12.5',
  priceScale: 4,
  lotSize: '0.01',
  session: 'crypto',
};

const ORBT: Listing = {
  productType: PRODUCT_TYPE.usStock,
  code: 'ORBT',
  referencePrice: '18.25',
  priceScale: 2,
  lotSize: '1',
  session: 'usStock',
};

/** A coin, for the cluster (whose catalogue is crypto, always open). */
const ORBT_CRYPTO: Listing = { ...NOVA, code: 'ORBTUSDT', referencePrice: '3.2' };

const VOLATILITY = '0.8';

/** The product row a listing inserts (the columns of market/repo.ts insertCatalogue): spot only. */
async function insertListed(db: Database, listing: Listing): Promise<number> {
  const names = Object.fromEntries(LANGUAGE_KEYS.map((language) => [language, `${listing.code}`]));
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO product (product_type, product_code, product_name_lang, product_desc,
       position_types, sort, standard, price_scale, leverages, session, source_symbol,
       reference_price, volatility, daily_volume, recommended)
     VALUES ($1, $2, $3::jsonb, '', '{2}', 100, $4, $5, '{1}', $6, $2, $7, $8, '1000000', 0)
     RETURNING id`,
    [
      listing.productType,
      listing.code,
      JSON.stringify(names),
      listing.lotSize,
      listing.priceScale,
      listing.session,
      listing.referencePrice,
      VOLATILITY,
    ],
  );
  return rows[0]!.id;
}

/** The first price of the simulated walk after `start`, at the instant `time` (simulated.ts). */
function firstWalkPrice(listing: Listing, start: string, time: number): string {
  const params: SimulatedParams = {
    productType: listing.productType,
    productCode: listing.code,
    priceScale: listing.priceScale,
    referencePrice: listing.referencePrice,
    volatility: Number(VOLATILITY),
    dailyVolume: '1000000',
    session: listing.session,
  };
  const reference = toMinor(listing.referencePrice, listing.priceScale);
  const floor = reference / 100n > 1n ? reference / 100n : 1n;
  const minor = step(
    params,
    toMinor(start, listing.priceScale),
    TICK_MS / 1000,
    shock(SEED, listing.code, time),
    floor,
  );
  return fromMinor(minor, listing.priceScale);
}

const LIST_URL: Record<number, string> = {
  [PRODUCT_TYPE.usStock]: '/api/stockProduct/list',
  [PRODUCT_TYPE.crypto]: '/api/cryptocurrencyProduct/list',
};

async function listed(app: FastifyInstance, listing: Listing) {
  const { body } = await call(app, 'GET', LIST_URL[listing.productType]!, {
    query: { pageSize: '100' },
  });
  return body.rows!.find((row) => row.productCode === listing.code);
}

async function candles(app: FastifyInstance, listing: Listing, interval: string) {
  const answer = await call(app, 'GET', '/api/kline/list', {
    query: {
      productType: String(listing.productType),
      productCode: listing.code,
      interval,
      limit: '1000',
    },
  });
  expect(answer.status).toBe(200);
  return answer.body.data as Candle[];
}

async function storedCandles(db: Database, productId: number): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    'SELECT count(*)::text AS count FROM market_candle WHERE product_id = $1',
    [productId],
  );
  return Number(rows[0]!.count);
}

async function oldestCandle(
  db: Database,
  productId: number,
  interval: string,
): Promise<number | undefined> {
  const { rows } = await db.query<{ open_time: string | null }>(
    `SELECT (extract(epoch FROM min(open_time)) * 1000)::bigint::text AS open_time
     FROM market_candle WHERE product_id = $1 AND resolution = $2`,
    [productId, interval],
  );
  return rows[0]!.open_time === null ? undefined : Number(rows[0]!.open_time);
}

function waitFor(condition: () => boolean, label: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${label}`));
      setTimeout(check, 20);
    };
    check();
  });
}

describe('a product listed while the simulated feed runs', () => {
  let database: TestDatabase;
  let t: TestApp;
  let engine: MarketEngine;
  let novaId: number;
  let listedAt: number;
  let firstPrice: string;

  const start = (clock: ManualClock) =>
    createTestApp({
      database,
      env: { MARKET_FEED: 'simulated', MARKET_TICK_MS: String(TICK_MS), MARKET_SEED: SEED },
      clock,
      catalogue: [AAPL, BTC],
      history: { candles: 60 },
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await start(new ManualClock(new Date(NOW)));
    engine = t.app.services.marketEngine!;
  });

  afterAll(async () => {
    await t?.close();
    await database?.dispose();
  });

  it('is priced at its reference price from the listing, with no candle before it', async () => {
    novaId = await insertListed(t.db, NOVA);
    // Inserted, not listed yet: the market does not show it.
    expect(engine.product(NOVA.productType, NOVA.code)).toBeUndefined();
    expect(await listed(t.app, NOVA)).toBeUndefined();

    listedAt = t.clock.now().getTime();
    await engine.listProduct(novaId);
    const row = engine.productById(novaId)!;
    expect(row.product_code).toBe(NOVA.code);
    expect(engine.tickerInfo(row)).toMatchObject({
      nowPrice: '12.5000',
      changePrice: '0.0000',
      changeRate: '0.00',
      source: 'listing',
    });
    const shown = await listed(t.app, NOVA);
    expect(shown).toMatchObject({
      productId: novaId,
      PositionType: [2],
      simulated: true,
      source: 'simulated',
      marketOpen: true,
    });
    expect(shown.tickerInfo.nowPrice).toBe('12.5000');
    // No invented history: not one candle of any interval.
    for (const interval of ['1m', '1h', '1d', '1M']) {
      expect(await candles(t.app, NOVA, interval), interval).toEqual([]);
    }
    expect(await storedCandles(t.db, novaId)).toBe(0);
    // The simulated feed makes up a price for any code.
    expect(engine.feedKnows(PRODUCT_TYPE.crypto, 'ANYTHINGUSDT')).toBe(true);
    expect(engine.feedKnows(PRODUCT_TYPE.usStock, 'ANY')).toBe(true);
  });

  it('gets ticks from the feed, walking from the reference price, as other products do', async () => {
    const { time, events } = await advanceMarket(t, TICK_MS, TICK_MS);
    const ticks = events.filter((event) => event.product.id === novaId).map((event) => event.tick);
    expect(ticks).toHaveLength(1);
    const tick = ticks[0]!;
    expect(tick.time).toBe(time);
    expect(tick.source).toBe('simulated');
    // Its walk starts at the reference price: the first step from 12.5 at that instant.
    firstPrice = firstWalkPrice(NOVA, NOVA.referencePrice, time);
    expect(tick.price).toBe(firstPrice);
    // The other products tick as before.
    expect(events.some((event) => event.product.product_code === 'BTCUSDT')).toBe(true);

    const shown = await listed(t.app, NOVA);
    expect(shown.tickerInfo).toMatchObject({
      nowPrice: toScale(firstPrice, NOVA.priceScale),
      source: 'simulated',
    });
    expect(shown.simulated).toBe(true);
    // Its first candles are the feed's: opening at the first tick's minute, at its price.
    for (const interval of ['1m', '1h', '1d']) {
      const series = await candles(t.app, NOVA, interval);
      expect(series, interval).toHaveLength(1);
      expect(series[0]).toMatchObject({
        openTime: candleStart(interval as '1m', time),
        open: normalize(firstPrice),
        close: normalize(firstPrice),
      });
    }
    // Its order book is the simulated one around that price, labelled so.
    const book = await call(t.app, 'GET', '/api/kline/orderBook', {
      query: { productType: '2', productCode: NOVA.code, levels: '5' },
    });
    expect(book.status).toBe(200);
    expect(book.body.data).toMatchObject({ simulated: true, source: 'simulated' });
    expect(book.body.data.bids.length).toBeGreaterThan(0);

    await advanceMarket(t, 5 * TICK_MS, TICK_MS);
    await engine.flush();
    expect(await storedCandles(t.db, novaId)).toBeGreaterThan(0);
    // Stored as they grew, none before the listing.
    for (const interval of ['1m', '1h', '1d'] as const) {
      const oldest = await oldestCandle(t.db, novaId, interval);
      expect(oldest, interval).toBe(candleStart(interval, time));
      expect(oldest, interval).toBeGreaterThanOrEqual(candleStart(interval, listedAt));
    }
  });

  it('lists a product once however often it is asked', async () => {
    const before = engine.tickerInfo(engine.productById(novaId)!);
    await engine.listProduct(novaId);
    expect(engine.tickerInfo(engine.productById(novaId)!)).toEqual(before);
    const { events } = await advanceMarket(t, TICK_MS, TICK_MS);
    // One tick per interval, not two walks.
    expect(events.filter((event) => event.product.id === novaId)).toHaveLength(1);
    await expect(engine.listProduct(999_999)).rejects.toThrow(/no product 999999/);
  });

  it('lists a US stock the same way: it ticks in its session, from its reference price', async () => {
    const orbtId = await insertListed(t.db, ORBT);
    await engine.listProduct(orbtId);
    const shown = await listed(t.app, ORBT);
    expect(shown).toMatchObject({ simulated: true, source: 'simulated' });
    expect(shown.tickerInfo.nowPrice).toBe('18.25');
    // The clock stands on a Wednesday session: the stock ticks too.
    const { events } = await advanceMarket(t, TICK_MS, TICK_MS);
    const tick = events.find((event) => event.product.id === orbtId)?.tick;
    expect(tick?.price).toBe(firstWalkPrice(ORBT, ORBT.referencePrice, tick!.time));
  });

  it('keeps the listed products after a restart, continuing from their last price', async () => {
    await engine.flush();
    const lastNova = engine.tickerInfo(engine.productById(novaId)!)!.nowPrice;
    const novaCandles = await storedCandles(t.db, novaId);
    const clock = t.clock;
    await t.close();

    t = await start(clock);
    engine = t.app.services.marketEngine!;
    // The catalogue given does not name it: it is in the database, and history is not made up.
    expect(await storedCandles(t.db, novaId)).toBe(novaCandles);
    const shown = await listed(t.app, NOVA);
    expect(shown).toMatchObject({ productId: novaId, simulated: true, source: 'simulated' });
    expect(shown.tickerInfo.nowPrice).toBe(lastNova);
    const { time, events } = await advanceMarket(t, TICK_MS, TICK_MS);
    const tick = events.find((event) => event.product.id === novaId)!.tick;
    expect(tick.price).toBe(firstWalkPrice(NOVA, lastNova, time));
  });
});

describe('a listed product never traded before a restart', () => {
  it('stays at its reference price with no candle made up', async () => {
    const database = await createTestDatabase();
    const clock = new ManualClock(new Date(SATURDAY));
    const options = {
      database,
      env: { MARKET_FEED: 'simulated', MARKET_TICK_MS: String(TICK_MS), MARKET_SEED: SEED },
      clock,
      catalogue: [AAPL],
      history: { candles: 30 },
    };
    let t = await createTestApp(options);
    try {
      const id = await insertListed(t.db, ORBT);
      await t.app.services.marketEngine!.listProduct(id);
      expect((await listed(t.app, ORBT)).marketOpen).toBe(false);
      await t.close();
      t = await createTestApp(options);
      const shown = await listed(t.app, ORBT);
      expect(shown.tickerInfo).toMatchObject({ nowPrice: '18.25', source: 'listing' });
      expect(await storedCandles(t.db, id)).toBe(0);
      expect(await candles(t.app, ORBT, '1d')).toEqual([]);
    } finally {
      await t.close();
      await database.dispose();
    }
  });
});

describe('a coin listed with the Binance feed', () => {
  let binance: BinanceProtocolServer;
  let t: TestApp;

  beforeAll(async () => {
    binance = await startBinanceProtocolServer();
    binance.setTickerPrices({ BTCUSDT: '64000.01', NOVAUSDT: '12.6123' });
    t = await createTestApp({
      env: {
        MARKET_FEED: 'binance',
        MARKET_TICK_MS: String(TICK_MS),
        MARKET_SEED: SEED,
        BINANCE_WS_URL: binance.wsUrl,
        BINANCE_REST_URL: binance.restUrl,
      },
      clock: new ManualClock(new Date(NOW)),
      catalogue: [AAPL, BTC],
      history: { candles: 30 },
    });
  });

  afterAll(async () => {
    await t?.close();
    await binance?.close();
  });

  it('knows the codes Binance lists, and any stock code (simulated)', async () => {
    const engine = t.app.services.marketEngine!;
    await waitFor(
      () => engine.feedKnows(PRODUCT_TYPE.crypto, 'NOVAUSDT'),
      'the list of Binance symbols',
    );
    expect(engine.feedKnows(PRODUCT_TYPE.crypto, 'BTCUSDT')).toBe(true);
    expect(engine.feedKnows(PRODUCT_TYPE.crypto, 'NOPEUSDT')).toBe(false);
    expect(engine.feedKnows(PRODUCT_TYPE.usStock, 'ORBT')).toBe(true);
    // The list came from one request for every symbol.
    expect(binance.restRequests()).toContain('/api/v3/ticker/price');
  });

  it('feeds the listed coin from Binance, labelled as real', async () => {
    const engine = t.app.services.marketEngine!;
    const id = await insertListed(t.db, NOVA);
    await engine.listProduct(id);
    const row = engine.productById(id)!;
    expect(engine.isSimulated(row)).toBe(false);
    expect(engine.sourceOf(row)).toBe('binance');
    await waitFor(
      () => binance.subscriptions().includes('novausdt@aggTrade'),
      'the subscription of the coin',
    );
    // Binance's latest price at once, then its trades.
    await waitFor(
      () => engine.tickerInfo(row)?.source === 'binance',
      "the coin's latest price from Binance",
    );
    expect(engine.tickerInfo(row)!.nowPrice).toBe('12.6123');
    binance.publishTrade('NOVAUSDT', { id: 1, price: '12.6200', qty: '10', time: NOW + 5000 });
    await waitFor(() => engine.tickerInfo(row)?.nowPrice === '12.6200', 'the coin’s trade');
    const shown = await listed(t.app, NOVA);
    expect(shown).toMatchObject({ simulated: false, source: 'binance' });
  });
});

const redis = await redisAvailable('the cluster listing test is');

describe.runIf(redis)('a product listed through one instance of a cluster', () => {
  const apps: FastifyInstance[] = [];
  let database: TestDatabase;

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await database?.dispose();
  });

  it('is fed by the instance running the feed and priced on every instance', async () => {
    database = await createTestDatabase();
    const prefix = `bourse-listing-${randomBytes(4).toString('hex')}`;
    for (let index = 0; index < 2; index++) {
      apps.push(
        await buildApp({
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
          catalogue: [BTC],
          history: { candles: 30 },
        }),
      );
    }
    const engines = apps.map((app) => app.services.marketEngine!);
    await waitFor(() => engines.some((engine) => engine.leader), 'a feed leader');
    const leader = engines.find((engine) => engine.leader)!;
    const follower = engines.find((engine) => !engine.leader)!;
    // One listed through the instance that does not run the feed, one through the one that does.
    for (const [listing, through] of [
      [NOVA, follower],
      [ORBT_CRYPTO, leader],
    ] as const) {
      const id = await insertListed(database.db, listing);
      await through.listProduct(id);
      for (const engine of [leader, follower]) {
        await waitFor(() => {
          const row = engine.productById(id);
          return row !== undefined && engine.tickerInfo(row)?.source === 'simulated';
        }, `ticks of ${listing.code}`);
        expect(engine.isSimulated(engine.productById(id)!)).toBe(true);
      }
    }
  });
});
