/**
 * The acceptance test of the Binance-compatible API: ccxt, the most widely used
 * open-source multi-exchange client library (from the npm registry), drives a real server
 * listening on a port with the simulated feed, configured with nothing but Bourse's base URL (the
 * host of its Binance URLs replaced) and an API key made through the API, its default options
 * otherwise. It reads markets, tickers, candles, the order book and balances, places a limit order,
 * sees it open, cancels it, places a market order and reads its fill and fee; the same with a
 * demo key in the demo book, whose balances stay apart. Keys that must be refused are each tried
 * on a fresh ccxt instance: ccxt reports -2015 as a temporary ban (DDoSProtection) once the same
 * instance has succeeded with a private call.
 */
import type net from 'node:net';
import ccxt from 'ccxt';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { verifyLedger } from '../src/ledger/verify';
import { systemClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import {
  call,
  createTestDatabase,
  deposit,
  onPostgres,
  registerTestApp,
  registerUser,
  testConfig,
  type TestDatabase,
} from './helpers';

let database: TestDatabase;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({
    config: testConfig({
      MARKET_FEED: 'simulated',
      MARKET_SEED: 'binance-ccxt',
      MARKET_TICK_MS: '250',
      TWO_FACTOR_KEY: 'e5'.repeat(32),
    }),
    db: database.db,
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    catalogue: ['BTCUSDT', 'ETHUSDT', 'AAPL'].map((code) =>
      DEFAULT_CATALOGUE.find((product) => product.code === code)!,
    ),
    history: { days: 3, minuteDays: 0 },
  });
  registerTestApp(app, database.db, systemClock);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as net.AddressInfo;
  base = `http://127.0.0.1:${port}/binance`;
  // The feed's first ticks: orders at market need a price.
  const engine = app.services.marketEngine!;
  while (!engine.tickerInfo(engine.product(2, 'BTCUSDT')!))
    await new Promise((resolve) => setTimeout(resolve, 50));
});

afterAll(async () => {
  await app?.close();
  if (database) {
    expect((await verifyLedger(database.db)).problems).toEqual([]);
    await database.dispose();
  }
});

interface Key {
  id: number;
  apiKey: string;
  secret: string;
}

async function createKey(token: string, form: Record<string, string> = {}): Promise<Key> {
  const created = await call(app, 'POST', '/api/apiKey/create', {
    token,
    form: { label: 'ccxt', permissions: 'read,trade', ...form },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data as Key;
}

/**
 * ccxt's binance with Bourse's base URL and a key: every URL of the class keeps its path and
 * takes Bourse's address instead of Binance's host (docs/binance-api.md); nothing else is set.
 */
function client(key: Pick<Key, 'apiKey' | 'secret'>, options: Record<string, unknown> = {}) {
  const api = Object.fromEntries(
    Object.entries(new ccxt.binance().urls.api as Record<string, string>).map(([name, url]) => [
      name,
      url.replace(/^https:\/\/[^/]+/, base),
    ]),
  );
  return new ccxt.binance({ apiKey: key.apiKey, secret: key.secret, urls: { api }, options });
}

/** The app's own list of the user's coin-to-coin orders, for what ccxt reports. */
async function appOrders(token: string) {
  const list = await call(app, 'GET', '/api/bibiTradeOrder/list', { token });
  return list.body.rows as { id: number; fee: string; amount: string | null; status: number }[];
}

describe(`ccxt against the Binance-compatible API (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let user: Awaited<ReturnType<typeof registerUser>>;
  let key: Key;

  beforeAll(async () => {
    user = await registerUser(app);
    await deposit(database.db, user.userId, '10000');
    key = await createKey(user.token);
  });

  it('reads markets, tickers, candles, the book and balances', async () => {
    const exchange = client(key);
    const markets = await exchange.loadMarkets();
    expect(markets['BTC/USDT']).toMatchObject({
      id: 'BTCUSDT',
      base: 'BTC',
      quote: 'USDT',
      spot: true,
      active: true,
      precision: { amount: 0.0001, price: 0.01 },
      limits: { cost: { min: 0.0001 } },
    });
    // A stock's market data is there, not for trading.
    expect(markets['AAPL/USD']).toMatchObject({ id: 'AAPL', active: false });

    const ticker = await exchange.fetchTicker('BTC/USDT');
    expect(ticker.symbol).toBe('BTC/USDT');
    expect(ticker.last).toBeGreaterThan(0);
    expect(ticker.bid).toBe(ticker.last);
    const tickers = await exchange.fetchTickers(['BTC/USDT', 'ETH/USDT']);
    expect(Object.keys(tickers).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);

    const candles = await exchange.fetchOHLCV('BTC/USDT', '1h', undefined, 5);
    expect(candles).toHaveLength(5);
    for (let i = 1; i < candles.length; i++)
      expect(candles[i]![0]! - candles[i - 1]![0]!).toBe(3_600_000);
    const book = await exchange.fetchOrderBook('BTC/USDT', 5);
    expect(book.bids.length).toBeGreaterThan(0);
    expect(book.asks[0]![0]!).toBeGreaterThan(book.bids[0]![0]!);

    const balance = await exchange.fetchBalance();
    expect(balance.USDT).toMatchObject({ free: 10000, used: 0, total: 10000 });
    expect(balance.BTC).toMatchObject({ free: 0, total: 0 });
  });

  it('places a limit order, sees it open, cancels it; a market order fills with its fee', async () => {
    const exchange = client(key);
    const last = (await exchange.fetchTicker('BTC/USDT')).last!;
    // Far below the price: it rests.
    const limit = await exchange.createOrder(
      'BTC/USDT',
      'limit',
      'buy',
      0.01,
      Math.round(last / 2),
    );
    expect(limit).toMatchObject({
      status: 'open',
      type: 'limit',
      side: 'buy',
      amount: 0.01,
      filled: 0,
    });
    const open = await exchange.fetchOpenOrders('BTC/USDT');
    expect(open.map((order) => order.id)).toEqual([limit.id]);
    expect((await exchange.fetchBalance()).USDT!.used).toBeGreaterThan(0);
    // The app sees the same order.
    expect((await appOrders(user.token)).map((order) => String(order.id))).toContain(limit.id);
    const cancelled = await exchange.cancelOrder(limit.id!, 'BTC/USDT');
    expect(cancelled.status).toBe('canceled');
    expect(await exchange.fetchOpenOrders('BTC/USDT')).toEqual([]);
    expect((await exchange.fetchBalance()).USDT).toMatchObject({ free: 10000, used: 0 });

    const market = await exchange.createOrder('BTC/USDT', 'market', 'buy', 0.01);
    expect(market).toMatchObject({ status: 'closed', filled: 0.01, remaining: 0 });
    expect(market.fee).toMatchObject({ currency: 'USDT' });
    const stored = (await appOrders(user.token)).find((order) => String(order.id) === market.id)!;
    expect(market.fee!.cost).toBe(Number(stored.fee));
    expect(market.cost).toBe(Number(stored.amount));

    const fetched = await exchange.fetchOrder(market.id!, 'BTC/USDT');
    expect(fetched).toMatchObject({ id: market.id, status: 'closed', filled: 0.01 });
    const trades = await exchange.fetchMyTrades('BTC/USDT');
    const trade = trades.find((row) => row.order === market.id)!;
    expect(trade).toMatchObject({ side: 'buy', amount: 0.01, takerOrMaker: 'taker' });
    expect(trade.fee).toEqual({ currency: 'USDT', cost: Number(stored.fee), rate: undefined });
    expect((await exchange.fetchBalance()).BTC).toMatchObject({ free: 0.01 });

    const sold = await exchange.createOrder('BTC/USDT', 'market', 'sell', 0.01);
    expect(sold).toMatchObject({ status: 'closed', side: 'sell', filled: 0.01 });
    await expect(exchange.createOrder('BTC/USDT', 'market', 'buy', 100)).rejects.toBeInstanceOf(
      ccxt.InsufficientFunds,
    );
  });

  it('trades the demo book with a demo key, its balances apart from the live ones', async () => {
    await call(app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    const demoKey = await createKey(user.token, { label: 'ccxt demo' });
    await call(app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '0' },
    });
    const demo = client(demoKey);
    const live = client(key);
    const liveBefore = await live.fetchBalance();
    expect((await demo.fetchBalance()).USDT).toMatchObject({ free: 100000, used: 0 });

    const last = (await demo.fetchTicker('ETH/USDT')).last!;
    const limit = await demo.createOrder('ETH/USDT', 'limit', 'buy', 1, Math.round(last / 2));
    expect((await demo.fetchOpenOrders('ETH/USDT')).map((order) => order.id)).toEqual([limit.id]);
    expect(await live.fetchOpenOrders('ETH/USDT')).toEqual([]);
    expect((await demo.cancelOrder(limit.id!, 'ETH/USDT')).status).toBe('canceled');

    const market = await demo.createOrder('ETH/USDT', 'market', 'buy', 1);
    expect(market).toMatchObject({ status: 'closed', filled: 1 });
    expect(market.fee).toMatchObject({ currency: 'USDT' });
    const trades = await demo.fetchMyTrades('ETH/USDT');
    expect(trades.map((trade) => trade.order)).toEqual([market.id]);
    expect((await demo.fetchBalance()).ETH).toMatchObject({ free: 1 });
    // The live book did not move.
    const liveAfter = await live.fetchBalance();
    expect(liveAfter.ETH).toMatchObject({ free: 0 });
    expect(liveAfter.USDT).toEqual(liveBefore.USDT);
    expect(await live.fetchMyTrades('ETH/USDT')).toEqual([]);
  });

  it('is refused a wrong secret, a key without trade, a revoked key, an address off the list', async () => {
    const wrong = client({ apiKey: key.apiKey, secret: 'x'.repeat(64) });
    await expect(wrong.fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);

    const reader = await createKey(user.token, { label: 'reader', permissions: 'read' });
    await expect(
      client(reader).createOrder('BTC/USDT', 'market', 'buy', 0.01),
    ).rejects.toBeInstanceOf(ccxt.AuthenticationError);
    // Reading is what it may do.
    expect((await client(reader).fetchBalance()).USDT).toBeDefined();

    const revoked = await createKey(user.token, { label: 'revoked' });
    await call(app, 'POST', '/api/apiKey/revoke', {
      token: user.token,
      form: { id: String(revoked.id) },
    });
    await expect(client(revoked).fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);

    const fenced = await createKey(user.token, { label: 'fenced', ipList: '203.0.113.0/24' });
    await expect(client(fenced).fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);

    // A clock 20 s behind the server's: outside ccxt's receive window of 10 s.
    const late = client(key, { timeDifference: 20_000 });
    await expect(late.fetchBalance()).rejects.toBeInstanceOf(ccxt.InvalidNonce);
  });
});
