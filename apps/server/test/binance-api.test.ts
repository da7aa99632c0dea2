/**
 * The Binance-compatible API (issue 20) through app.inject, on PGlite and PostgreSQL: public
 * market data in Binance's shapes (exchange information with the coin-to-coin pairs tradable and
 * the other products as data only, depth, trades, candles, tickers), signed calls as Binance signs
 * them (HMAC-SHA256 of the raw query and body, computed here with node:crypto, not the server's
 * code): the account, orders placed, read, listed and cancelled through the trading service (the
 * app sees them), fills and fees, client order ids as request ids, IOC and FOK, refusals with
 * Binance's codes and texts; the signing edge cases (wrong signature, expired timestamp, reused
 * signature, key without trade permission, revoked key, address outside the allow-list) with the
 * precise reason in the key's usage log; a demo key on the demo book; the request weight; the
 * worked example of docs/binance-api.md, sent byte for byte.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/ledger/verify';
import { ManualClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import { secretSealer } from '../src/modules/two-factor';
import { call, createTestApp, deposit, onPostgres, registerUser, type TestApp } from './helpers';
import { ScriptedFeed } from './support/scripted-feed';

const KEY = 'd4'.repeat(32);
const NOW = Date.parse('2026-11-18T15:00:00Z');

let t: TestApp;
let feed: ScriptedFeed;

const CODES = ['BTCUSDT', 'ETHUSDT', 'AAPL', 'EURUSD'];

beforeAll(async () => {
  feed = new ScriptedFeed();
  t = await createTestApp({
    clock: new ManualClock(new Date(NOW)),
    env: { MARKET_FEED: 'simulated', MARKET_SEED: 'binance-api', TWO_FACTOR_KEY: KEY },
    catalogue: CODES.map((code) => DEFAULT_CATALOGUE.find((product) => product.code === code)!),
    history: { days: 2, minuteDays: 1 },
    feed: () => feed,
  });
  feed.tick('BTCUSDT', '100000.00', NOW);
  feed.tick('ETHUSDT', '3000.00', NOW);
  feed.tick('AAPL', '200.00', NOW, 1);
  feed.tick('EURUSD', '1.10000', NOW, 4);
});
afterEach(async () => {
  await t.app.services.triggers!.idle();
});
afterAll(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await t.close();
});

// ---------------------------------------------------------------- helpers

interface Key {
  id: number;
  apiKey: string;
  secret: string;
}

interface Answer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

async function createKey(token: string, form: Record<string, string> = {}): Promise<Key> {
  const created = await call(t.app, 'POST', '/api/apiKey/create', {
    token,
    form: { label: 'bot', permissions: 'read,trade', ...form },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data as Key;
}

async function publicCall(path: string, query: Record<string, string> = {}): Promise<Answer> {
  const text = new URLSearchParams(query).toString();
  const response = await t.app.inject({
    method: 'GET',
    url: `/binance${path}${text ? `?${text}` : ''}`,
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

interface SignedOptions {
  /** The timestamp sent (default: the app's clock, moved a millisecond on first). */
  timestamp?: number;
  recvWindow?: string;
  /** Overrides the signature sent. */
  signature?: string;
  ip?: string;
  /** Parameters sent in the query of a POST (the rest in its body), as Binance allows. */
  inQuery?: string[];
}

/**
 * A call signed as Binance's documentation says: `timestamp`, the parameters, `recvWindow`; the
 * lower-case hex HMAC-SHA256 of the query string followed by the body, appended as `signature`.
 */
function prepare(
  key: Pick<Key, 'apiKey' | 'secret'>,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params: Record<string, string> = {},
  options: SignedOptions = {},
): { signature: string; send: () => Promise<Answer> } {
  if (options.timestamp === undefined) t.clock.advance(1);
  const all: [string, string][] = [
    ['timestamp', String(options.timestamp ?? t.clock.now().getTime())],
    ...Object.entries(params),
  ];
  if (options.recvWindow !== undefined) all.push(['recvWindow', options.recvWindow]);
  const inBody = method === 'POST';
  const queryPart = all.filter(([name]) => !inBody || options.inQuery?.includes(name));
  const bodyPart = inBody ? all.filter(([name]) => !options.inQuery?.includes(name)) : [];
  let query = new URLSearchParams(queryPart).toString();
  let body = new URLSearchParams(bodyPart).toString();
  const signature =
    options.signature ??
    createHmac('sha256', key.secret)
      .update(query + body)
      .digest('hex');
  if (inBody) body += `${body ? '&' : ''}signature=${signature}`;
  else query += `${query ? '&' : ''}signature=${signature}`;
  const send = async (): Promise<Answer> => {
    const response = await t.app.inject({
      method,
      url: `/binance${path}${query ? `?${query}` : ''}`,
      headers: {
        'X-MBX-APIKEY': key.apiKey,
        ...(inBody ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload: inBody ? body : undefined,
      remoteAddress: options.ip ?? '127.0.0.1',
    });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };
  return { signature, send };
}

function signed(
  key: Pick<Key, 'apiKey' | 'secret'>,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params: Record<string, string> = {},
  options: SignedOptions = {},
): Promise<Answer> {
  return prepare(key, method, path, params, options).send();
}

/** A call of `/api/v3/order` (place, read or cancel), on BTCUSDT unless the parameters name a pair. */
function orderCall(
  key: Pick<Key, 'apiKey' | 'secret'>,
  method: 'GET' | 'POST' | 'DELETE',
  params: Record<string, string>,
  options: SignedOptions = {},
): Promise<Answer> {
  return signed(key, method, '/api/v3/order', { symbol: 'BTCUSDT', ...params }, options);
}

let sequence = 0;
const clientId = () => `binance-test-${++sequence}-${Date.now()}`;

async function balanceOf(key: Key, asset: string): Promise<{ free: string; locked: string }> {
  const account = await signed(key, 'GET', '/api/v3/account');
  expect(account.status, JSON.stringify(account.body)).toBe(200);
  return account.body.balances.find((balance: { asset: string }) => balance.asset === asset);
}

/** The key's usage log, newest first. Entries are written just after their answers are sent. */
async function usage(token: string, keyId: number) {
  const result = await call(t.app, 'GET', '/api/apiKey/usage', {
    token,
    query: { pageSize: '100', keyId: String(keyId) },
  });
  expect(result.status).toBe(200);
  return result.body.rows as { method: string; path: string; status: number; msg: string }[];
}

/**
 * How long a poll of the usage log waits for an entry (written at most 50 ms after its answer; the
 * bound only keeps a test from hanging on a busy machine: nothing is timed).
 */
const PATIENCE = { timeout: 10_000 };

/** The newest entry of the key's usage log (poll it: entries follow their answers). */
async function lastUse(token: string, keyId: number) {
  return (await usage(token, keyId))[0];
}

// ---------------------------------------------------------------- public market data

describe(`the Binance-compatible API's market data (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('answers ping and time, with the weight used this minute', async () => {
    const ping = await publicCall('/api/v3/ping');
    expect(ping.status).toBe(200);
    expect(ping.body).toEqual({});
    const before = Number(ping.headers['x-mbx-used-weight-1m']);
    expect(before).toBeGreaterThanOrEqual(1);
    const time = await publicCall('/api/v3/time');
    expect(time.body).toEqual({ serverTime: t.clock.now().getTime() });
    expect(Number(time.headers['x-mbx-used-weight-1m'])).toBe(before + 1);
    expect(time.headers['x-mbx-used-weight']).toBe(time.headers['x-mbx-used-weight-1m']);
  });

  it('lists coin-to-coin pairs as tradable with their filters, other products as data only', async () => {
    const info = await publicCall('/api/v3/exchangeInfo');
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ timezone: 'UTC', serverTime: t.clock.now().getTime() });
    const symbols = new Map(
      (info.body.symbols as { symbol: string }[]).map((symbol) => [symbol.symbol, symbol]),
    );
    expect([...symbols.keys()]).toEqual(['BTCUSDT', 'ETHUSDT', 'AAPL', 'EURUSD']);
    expect(symbols.get('BTCUSDT')).toMatchObject({
      status: 'TRADING',
      baseAsset: 'BTC',
      baseAssetPrecision: 8,
      quoteAsset: 'USDT',
      quotePrecision: 4,
      orderTypes: ['LIMIT', 'MARKET'],
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      permissionSets: [['SPOT']],
      productType: 'crypto',
      simulated: true,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01', tickSize: '0.01' },
        { filterType: 'LOT_SIZE', minQty: '0.0001', stepSize: '0.0001' },
        // The smallest amount of USDT (4 decimals).
        { filterType: 'NOTIONAL', minNotional: '0.0001', applyMinToMarket: true },
      ],
    });
    // None of the keys that make ccxt take a symbol for a contract or an option.
    for (const symbol of symbols.values())
      for (const key of ['contractType', 'underlying', 'deliveryDate', 'tradability'])
        expect(symbol).not.toHaveProperty(key);
    expect(symbols.get('AAPL')).toMatchObject({
      status: 'BREAK',
      baseAsset: 'AAPL',
      quoteAsset: 'USD',
      orderTypes: [],
      isSpotTradingAllowed: false,
      productType: 'usStock',
      simulated: true,
      filters: [
        { filterType: 'PRICE_FILTER', tickSize: '0.01' },
        { filterType: 'LOT_SIZE', stepSize: '1' },
      ],
    });
    expect(symbols.get('EURUSD')).toMatchObject({
      status: 'BREAK',
      baseAsset: 'EUR',
      quoteAsset: 'USD',
      productType: 'forex',
    });
    expect(Number(info.headers['x-mbx-used-weight-1m'])).toBeGreaterThanOrEqual(20);

    const one = await publicCall('/api/v3/exchangeInfo', { symbol: 'ethusdt' });
    expect(one.body.symbols.map((symbol: { symbol: string }) => symbol.symbol)).toEqual([
      'ETHUSDT',
    ]);
    const some = await publicCall('/api/v3/exchangeInfo', { symbols: '["AAPL","BTCUSDT"]' });
    expect(some.body.symbols.map((symbol: { symbol: string }) => symbol.symbol)).toEqual([
      'AAPL',
      'BTCUSDT',
    ]);
    const unknown = await publicCall('/api/v3/exchangeInfo', { symbol: 'NOPE' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
  });

  it('answers depth, trades, candles and tickers of every product', async () => {
    const depth = await publicCall('/api/v3/depth', { symbol: 'BTCUSDT', limit: '5' });
    expect(depth.status).toBe(200);
    expect(depth.body.bids).toHaveLength(5);
    expect(depth.body.asks).toHaveLength(5);
    const [bidPrice, bidQty] = depth.body.bids[0] as [string, string];
    expect(bidPrice).toMatch(/^\d+\.\d{2}$/);
    expect(bidQty).toMatch(/^\d+\.\d{8,}$/);
    expect(Number(depth.body.asks[0][0])).toBeGreaterThan(Number(bidPrice));
    expect(depth.body.lastUpdateId).toBeGreaterThan(0);
    expect(depth.body.simulated).toBe(true);
    // A heavier book weighs more.
    const deep = await publicCall('/api/v3/depth', { symbol: 'AAPL', limit: '500' });
    expect(deep.status).toBe(200);
    expect(deep.body.bids.length).toBeLessThanOrEqual(20);

    feed.tick('ETHUSDT', '3001.50', NOW + 1000);
    feed.tick('ETHUSDT', '3000.25', NOW + 2000);
    const trades = await publicCall('/api/v3/trades', { symbol: 'ETHUSDT' });
    expect(trades.status).toBe(200);
    const lastTwo = (trades.body as { price: string; time: number; isBuyerMaker: boolean }[]).slice(
      -2,
    );
    expect(lastTwo).toMatchObject([
      { price: '3001.50', time: NOW + 1000, isBuyerMaker: false },
      { price: '3000.25', time: NOW + 2000, isBuyerMaker: true },
    ]);
    const agg = await publicCall('/api/v3/aggTrades', {
      symbol: 'ETHUSDT',
      startTime: String(NOW + 500),
      endTime: String(NOW + 2500),
    });
    expect(agg.body).toMatchObject([
      { p: '3001.50', T: NOW + 1000, m: false, M: true },
      { p: '3000.25', T: NOW + 2000, m: true, M: true },
    ]);
    expect(agg.body[0].a).toBe(agg.body[0].f);

    const candles = await publicCall('/api/v3/klines', {
      symbol: 'BTCUSDT',
      interval: '1m',
      limit: '3',
    });
    expect(candles.status).toBe(200);
    const rows = candles.body as unknown[][];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toHaveLength(12);
      expect(row[6]).toBe((row[0] as number) + 59_999);
      for (const index of [1, 2, 3, 4, 5, 7]) expect(typeof row[index]).toBe('string');
    }
    expect((rows[0]![0] as number) < (rows[2]![0] as number)).toBe(true);
    // The newest is the still-growing candle of the last tick.
    expect(rows[2]![0]).toBe(NOW);
    expect(rows[2]![4]).toBe('100000.00');
    const from = await publicCall('/api/v3/klines', {
      symbol: 'BTCUSDT',
      interval: '1h',
      startTime: String(NOW - 5 * 3_600_000),
      limit: '2',
    });
    expect((from.body as number[][]).map((row) => row[0])).toEqual([
      NOW - 5 * 3_600_000,
      NOW - 4 * 3_600_000,
    ]);
    const month = await publicCall('/api/v3/klines', {
      symbol: 'BTCUSDT',
      interval: '1M',
      limit: '1',
    });
    expect((month.body as number[][])[0]![6]).toBe(Date.parse('2026-12-01T00:00:00Z') - 1);
    const badInterval = await publicCall('/api/v3/klines', { symbol: 'BTCUSDT', interval: '3m' });
    expect(badInterval.status).toBe(400);
    expect(badInterval.body).toEqual({ code: -1120, msg: 'Invalid interval.' });
    const stock = await publicCall('/api/v3/klines', { symbol: 'AAPL', interval: '1d' });
    expect(stock.status).toBe(200);

    const ticker = await publicCall('/api/v3/ticker/24hr', { symbol: 'BTCUSDT' });
    expect(ticker.body).toMatchObject({
      symbol: 'BTCUSDT',
      lastPrice: '100000.00',
      // Bourse fills both sides at the feed's price.
      bidPrice: '100000.00',
      askPrice: '100000.00',
      closeTime: NOW,
    });
    expect(ticker.body).toHaveProperty('bidQty');
    // `time` would make ccxt take it for a contract's ticker, `baseVolume` for coin-M.
    expect(ticker.body).not.toHaveProperty('time');
    expect(ticker.body).not.toHaveProperty('baseVolume');
    const two = await publicCall('/api/v3/ticker/24hr', { symbols: '["BTCUSDT","EURUSD"]' });
    expect(
      (two.body as { symbol: string; lastPrice: string }[]).map((row) => row.lastPrice),
    ).toEqual(['100000.00', '1.10000']);
    const all = await publicCall('/api/v3/ticker/24hr', { type: 'MINI' });
    expect((all.body as { symbol: string }[]).map((row) => row.symbol)).toEqual(CODES);
    expect(all.body[0]).not.toHaveProperty('priceChange');
    const price = await publicCall('/api/v3/ticker/price', { symbol: 'AAPL' });
    expect(price.body).toEqual({ symbol: 'AAPL', price: '200.00' });
    const book = await publicCall('/api/v3/ticker/bookTicker');
    expect((book.body as { symbol: string }[]).map((row) => row.symbol)).toEqual(CODES);
  });

  it('refuses bad parameters with Binance codes, and unknown paths in its shape', async () => {
    expect((await publicCall('/api/v3/depth')).body).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.",
    });
    expect((await publicCall('/api/v3/depth', { symbol: 'BTCUSDT', limit: 'x' })).body).toEqual({
      code: -1100,
      msg: "Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,16}$'.",
    });
    expect((await publicCall('/api/v3/depth', { symbol: 'BTCUSDT', extra: '1' })).body).toEqual({
      code: -1104,
      msg: "Not all sent parameters were read; read '1' parameter(s) but was sent '2'.",
    });
    const duplicate = await t.app.inject({ url: '/binance/api/v3/depth?symbol=A&symbol=B' });
    expect(duplicate.json()).toEqual({
      code: -1101,
      msg: 'Duplicate values for a parameter detected.',
    });
    const missing = await t.app.inject({ url: '/binance/api/v3/nothing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: -1000, msg: 'Unknown endpoint.' });
  });
});

// ---------------------------------------------------------------- signed calls

describe('signed calls', () => {
  let trader: Awaited<ReturnType<typeof registerUser>>;
  let tradeKey: Key;
  let readKey: Key;

  beforeAll(async () => {
    trader = await registerUser(t.app);
    await deposit(t.db, trader.userId, '10000');
    tradeKey = await createKey(trader.token, { label: 'trader' });
    readKey = await createKey(trader.token, { label: 'reader', permissions: 'read' });
  });

  it("reads the account's coin balances and fee rates", async () => {
    const account = await signed(readKey, 'GET', '/api/v3/account');
    expect(account.status, JSON.stringify(account.body)).toBe(200);
    expect(account.body).toMatchObject({
      makerCommission: 10,
      takerCommission: 10,
      commissionRates: {
        maker: '0.00100000',
        taker: '0.00100000',
        buyer: '0.00000000',
        seller: '0.00000000',
      },
      // A read key cannot trade.
      canTrade: false,
      canWithdraw: false,
      accountType: 'SPOT',
      uid: trader.userId,
    });
    const balances = account.body.balances as { asset: string; free: string; locked: string }[];
    expect(balances).toContainEqual({
      asset: 'USDT',
      free: '10000.00000000',
      locked: '0.00000000',
    });
    expect(balances).toContainEqual({ asset: 'BTC', free: '0.00000000', locked: '0.00000000' });
    const nonZero = await signed(tradeKey, 'GET', '/api/v3/account', { omitZeroBalances: 'true' });
    expect(nonZero.body.canTrade).toBe(true);
    expect(nonZero.body.balances.map((balance: { asset: string }) => balance.asset)).toEqual([
      'USDT',
    ]);
  });

  it('places a limit order that rests, reads it, lists it, and cancels it', async () => {
    const id = clientId();
    const placed = await orderCall(tradeKey, 'POST', {
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.0100',
      price: '90000',
      newClientOrderId: id,
      newOrderRespType: 'FULL',
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body).toMatchObject({
      symbol: 'BTCUSDT',
      orderListId: -1,
      clientOrderId: id,
      transactTime: t.clock.now().getTime(),
      price: '90000.00000000',
      origQty: '0.01000000',
      executedQty: '0.00000000',
      cummulativeQuoteQty: '0.00000000',
      status: 'NEW',
      timeInForce: 'GTC',
      type: 'LIMIT',
      side: 'BUY',
      fills: [],
    });
    const orderId = placed.body.orderId as number;
    // An ordinary coin-to-coin order: the app lists it, and its funds are frozen (900 + 0.9 fee).
    const list = await call(t.app, 'GET', '/api/bibiTradeOrder/list', { token: trader.token });
    expect(list.body.rows!.map((row) => row.id)).toContain(orderId);
    expect(await balanceOf(tradeKey, 'USDT')).toEqual({
      asset: 'USDT',
      free: '9099.10000000',
      locked: '900.90000000',
    });

    const byId = await orderCall(readKey, 'GET', {
      orderId: String(orderId),
    });
    expect(byId.body).toMatchObject({
      orderId,
      clientOrderId: id,
      status: 'NEW',
      type: 'LIMIT',
      isWorking: true,
      stopPrice: '0.00000000',
    });
    expect(byId.body).not.toHaveProperty('code');
    const byClientId = await orderCall(readKey, 'GET', {
      origClientOrderId: id,
    });
    expect(byClientId.body.orderId).toBe(orderId);
    const open = await signed(readKey, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect(open.body.map((order: { orderId: number }) => order.orderId)).toContain(orderId);
    const openAll = await signed(readKey, 'GET', '/api/v3/openOrders');
    expect(openAll.body.map((order: { orderId: number }) => order.orderId)).toContain(orderId);
    // Another pair has none.
    expect(
      (await signed(readKey, 'GET', '/api/v3/openOrders', { symbol: 'ETHUSDT' })).body,
    ).toEqual([]);

    const cancelled = await orderCall(tradeKey, 'DELETE', {
      orderId: String(orderId),
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({
      symbol: 'BTCUSDT',
      orderId,
      origClientOrderId: id,
      status: 'CANCELED',
      executedQty: '0.00000000',
    });
    expect(cancelled.body.clientOrderId).not.toBe(id);
    expect(await balanceOf(tradeKey, 'USDT')).toMatchObject({
      free: '10000.00000000',
      locked: '0.00000000',
    });
    const again = await orderCall(tradeKey, 'DELETE', {
      orderId: String(orderId),
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    const unknown = await orderCall(readKey, 'GET', {
      orderId: '999999999',
    });
    expect(unknown.body).toEqual({ code: -2013, msg: 'Order does not exist.' });
    // The order belongs to BTCUSDT, not ETHUSDT.
    const otherPair = await orderCall(readKey, 'GET', {
      symbol: 'ETHUSDT',
      orderId: String(orderId),
    });
    expect(otherPair.body.code).toBe(-2013);
  });

  it('fills market orders with their fee, by quantity or by quote amount', async () => {
    const bought = await orderCall(tradeKey, 'POST', {
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.0200',
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    // 0.02 × 100,000 = 2,000 USDT, and 0.1 % of it as the fee, in USDT.
    expect(bought.body).toMatchObject({
      status: 'FILLED',
      type: 'MARKET',
      side: 'BUY',
      price: '0.00000000',
      origQty: '0.02000000',
      executedQty: '0.02000000',
      cummulativeQuoteQty: '2000.00000000',
      fills: [
        {
          price: '100000.00000000',
          qty: '0.02000000',
          commission: '2.00000000',
          commissionAsset: 'USDT',
          tradeId: bought.body.orderId,
        },
      ],
    });
    expect(bought.body.clientOrderId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await balanceOf(tradeKey, 'BTC')).toMatchObject({ free: '0.02000000' });
    expect(await balanceOf(tradeKey, 'USDT')).toMatchObject({ free: '7998.00000000' });

    // Sell 1,000 USDT worth: the whole lots it is worth at the price (0.0100 BTC).
    const sold = await orderCall(tradeKey, 'POST', {
      side: 'SELL',
      type: 'MARKET',
      quoteOrderQty: '1000.5',
      newOrderRespType: 'RESULT',
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    expect(sold.body).toMatchObject({
      status: 'FILLED',
      side: 'SELL',
      executedQty: '0.01000000',
      cummulativeQuoteQty: '1000.00000000',
      origQuoteOrderQty: '1000.50000000',
    });
    expect(sold.body).not.toHaveProperty('fills');

    const order = await orderCall(readKey, 'GET', {
      orderId: String(bought.body.orderId),
    });
    expect(order.body).toMatchObject({ status: 'FILLED', executedQty: '0.02000000' });
    const trades = await signed(readKey, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' });
    expect(trades.status).toBe(200);
    expect(trades.body.slice(-2)).toMatchObject([
      {
        id: bought.body.orderId,
        orderId: bought.body.orderId,
        price: '100000.00000000',
        qty: '0.02000000',
        quoteQty: '2000.00000000',
        commission: '2.00000000',
        commissionAsset: 'USDT',
        isBuyer: true,
        isMaker: false,
      },
      { orderId: sold.body.orderId, isBuyer: false, commission: '1.00000000' },
    ]);
    expect(trades.body[0]).not.toHaveProperty('isBuyerMaker');
    const ofOrder = await signed(readKey, 'GET', '/api/v3/myTrades', {
      symbol: 'BTCUSDT',
      orderId: String(sold.body.orderId),
    });
    expect(ofOrder.body.map((trade: { id: number }) => trade.id)).toEqual([sold.body.orderId]);
    const all = await signed(readKey, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT' });
    const statuses = (all.body as { orderId: number; status: string }[]).map((row) => row.status);
    expect(statuses.slice(-3)).toEqual(['CANCELED', 'FILLED', 'FILLED']);
    const fromId = await signed(readKey, 'GET', '/api/v3/allOrders', {
      symbol: 'BTCUSDT',
      orderId: String(sold.body.orderId),
    });
    expect(fromId.body.map((row: { orderId: number }) => row.orderId)).toEqual([sold.body.orderId]);
  });

  it('takes a client order id as the request id: the same order twice is placed once', async () => {
    const id = clientId();
    const order = {
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.100',
      price: '2500',
      newClientOrderId: id,
    };
    const first = await signed(tradeKey, 'POST', '/api/v3/order', order);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await signed(tradeKey, 'POST', '/api/v3/order', order);
    expect(second.status).toBe(200);
    expect(second.body.orderId).toBe(first.body.orderId);
    const open = await signed(readKey, 'GET', '/api/v3/openOrders', { symbol: 'ETHUSDT' });
    expect(open.body).toHaveLength(1);
    const other = await orderCall(tradeKey, 'POST', { ...order, quantity: '0.200' });
    expect(other.body).toEqual({ code: -2010, msg: 'Duplicate order sent.' });
    const cancelled = await orderCall(tradeKey, 'DELETE', {
      symbol: 'ETHUSDT',
      origClientOrderId: id,
    });
    expect(cancelled.body.status).toBe('CANCELED');
  });

  it('honours IOC and FOK: a limit fills in full at once, or expires', async () => {
    const before = await balanceOf(tradeKey, 'USDT');
    const expired = await orderCall(tradeKey, 'POST', {
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'IOC',
      quantity: '0.0100',
      price: '90000',
    });
    expect(expired.status, JSON.stringify(expired.body)).toBe(200);
    expect(expired.body).toMatchObject({
      status: 'EXPIRED',
      timeInForce: 'IOC',
      executedQty: '0.00000000',
      fills: [],
    });
    expect(await balanceOf(tradeKey, 'USDT')).toEqual(before);
    const open = await signed(readKey, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect(open.body).toEqual([]);
    // A limit the price has reached fills at once, at the price.
    const filled = await orderCall(tradeKey, 'POST', {
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'FOK',
      quantity: '0.0010',
      price: '110000',
    });
    expect(filled.body).toMatchObject({
      status: 'FILLED',
      timeInForce: 'FOK',
      price: '110000.00000000',
      cummulativeQuoteQty: '100.00000000',
      fills: [{ price: '100000.00000000', commission: '0.10000000' }],
    });
  });

  it("refuses orders in Binance's words", async () => {
    const order = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.0100',
      price: '90000',
    };
    const place = (params: Record<string, string>) =>
      signed(tradeKey, 'POST', '/api/v3/order', params);
    const refused = async (params: Record<string, string>) => {
      const answer = await place(params);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      return answer.body;
    };
    expect(await refused({ ...order, quantity: '10' })).toEqual({
      code: -2010,
      msg: 'Account has insufficient balance for requested action.',
    });
    expect(await refused({ ...order, side: 'SELL', price: '120000', quantity: '5' })).toEqual({
      code: -2010,
      msg: 'Account has insufficient balance for requested action.',
    });
    expect(await refused({ ...order, quantity: '0.00015' })).toEqual({
      code: -1013,
      msg: 'Filter failure: LOT_SIZE',
    });
    expect(await refused({ ...order, price: '90000.001' })).toEqual({
      code: -1013,
      msg: 'Filter failure: PRICE_FILTER',
    });
    expect(await refused({ ...order, quantity: '0' })).toEqual({
      code: -1013,
      msg: 'Filter failure: LOT_SIZE',
    });
    expect(await refused({ ...order, symbol: 'AAPL', quantity: '1', price: '100' })).toEqual({
      code: -2010,
      msg: 'This symbol is not permitted for this account.',
    });
    expect(await refused({ ...order, symbol: 'NOPE' })).toEqual({
      code: -1121,
      msg: 'Invalid symbol.',
    });
    const { timeInForce: _timeInForce, ...noTimeInForce } = order;
    expect(await refused(noTimeInForce)).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed.",
    });
    expect(await refused({ ...order, timeInForce: 'GTX' })).toEqual({
      code: -1115,
      msg: 'Invalid timeInForce.',
    });
    expect(await refused({ ...order, type: 'STOP_LOSS_LIMIT' })).toEqual({
      code: -1014,
      msg: 'Unsupported order combination.',
    });
    expect(await refused({ ...order, type: 'SOMETHING' })).toEqual({
      code: -1116,
      msg: 'Invalid orderType.',
    });
    expect(await refused({ ...order, side: 'LONG' })).toEqual({
      code: -1117,
      msg: 'Invalid side.',
    });
    expect(
      await refused({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1', price: '1' }),
    ).toEqual({ code: -1106, msg: "Parameter 'price' sent when not required." });
    expect(await refused({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET' })).toEqual({
      code: -1102,
      msg: "Param 'quantity' or 'quoteOrderQty' must be sent, but both were empty/null!",
    });
    expect(await refused({ ...order, stopPrice: '80000' })).toEqual({
      code: -1106,
      msg: "Parameter 'stopPrice' sent when not required.",
    });
    expect(await refused({ ...order, quantity: '-1' })).toEqual({
      code: -1100,
      msg: "Illegal characters found in parameter 'quantity'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.",
    });
    expect(await refused({ ...order, newClientOrderId: 'a:b' })).toEqual({
      code: -1100,
      msg: "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[a-zA-Z0-9-_]{8,36}$'.",
    });
    expect(await refused({ ...order, colour: 'blue' })).toMatchObject({ code: -1104 });
    // Nothing was placed by any of them.
    const open = await signed(readKey, 'GET', '/api/v3/openOrders');
    expect(open.body).toEqual([]);
  });

  it('verifies a signature over a query and a body together', async () => {
    const placed = await signed(
      tradeKey,
      'POST',
      '/api/v3/order',
      {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        quantity: '0.0010',
        price: '80000',
      },
      { inQuery: ['symbol', 'side', 'type', 'timeInForce'] },
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const cancelled = await orderCall(tradeKey, 'DELETE', {
      orderId: String(placed.body.orderId),
    });
    expect(cancelled.body.status).toBe('CANCELED');
  });
});

// ---------------------------------------------------------------- signing edge cases

describe('signing edge cases', () => {
  let user: Awaited<ReturnType<typeof registerUser>>;
  let key: Key;

  beforeAll(async () => {
    user = await registerUser(t.app);
    await deposit(t.db, user.userId, '1000');
    key = await createKey(user.token, { label: 'edges' });
  });

  const order = () => ({
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    quantity: '0.0010',
    price: '50000',
    newClientOrderId: clientId(),
  });

  it('refuses a wrong signature (-1022), and a changed parameter', async () => {
    const wrong = await signed(key, 'GET', '/api/v3/account', {}, { signature: 'ab'.repeat(32) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: -1022, msg: 'Signature for this request is not valid.' });
    const otherSecret = await signed(
      { apiKey: key.apiKey, secret: 'x'.repeat(64) },
      'GET',
      '/api/v3/account',
    );
    expect(otherSecret.body.code).toBe(-1022);
    // Signed for one order, sent with another price.
    const timestamp = t.clock.now().getTime();
    const good = prepare(key, 'POST', '/api/v3/order', order(), { timestamp });
    const changed = await signed(
      key,
      'POST',
      '/api/v3/order',
      { ...order(), price: '1' },
      { timestamp, signature: good.signature },
    );
    expect(changed.body.code).toBe(-1022);
    const missing = await t.app.inject({
      url: `/binance/api/v3/account?timestamp=${t.clock.now().getTime()}`,
      headers: { 'X-MBX-APIKEY': key.apiKey },
    });
    expect(missing.json()).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.",
    });
    await expect
      .poll(() => lastUse(user.token, key.id), PATIENCE)
      .toMatchObject({
        method: 'GET',
        path: '/binance/api/v3/account',
        status: 400,
        msg: 'hint_paramRequired',
      });
    const rows = await usage(user.token, key.id);
    expect(rows.map((row) => row.msg)).toContain('hint_apiKeySignature');
  });

  it('refuses an expired timestamp (-1021) and a receive window over 60 s (-1131)', async () => {
    const now = t.clock.now().getTime();
    const late = await signed(key, 'GET', '/api/v3/account', {}, { timestamp: now - 5001 });
    expect(late.status).toBe(400);
    expect(late.body).toEqual({
      code: -1021,
      msg: 'Timestamp for this request is outside of the recvWindow.',
    });
    const ahead = await signed(key, 'GET', '/api/v3/account', {}, { timestamp: now + 1001 });
    expect(ahead.body).toEqual({
      code: -1021,
      msg: "Timestamp for this request was 1000ms ahead of the server's time.",
    });
    // Within the default window, or a wider one the call names (ccxt sends 10,000).
    expect(
      (await signed(key, 'GET', '/api/v3/account', {}, { timestamp: now - 5000 })).status,
    ).toBe(200);
    const wide = await signed(
      key,
      'GET',
      '/api/v3/account',
      {},
      { timestamp: now - 30_000, recvWindow: '60000' },
    );
    expect(wide.status).toBe(200);
    const tooWide = await signed(key, 'GET', '/api/v3/account', {}, { recvWindow: '60001' });
    expect(tooWide.body).toEqual({ code: -1131, msg: 'recvWindow must be less than 60000' });
    await expect
      .poll(() => lastUse(user.token, key.id), PATIENCE)
      .toMatchObject({ msg: 'hint_apiKeyHeader' });
  });

  it('refuses a signature used again for an order; the same read twice is answered', async () => {
    const first = prepare(key, 'POST', '/api/v3/order', order());
    const answers = await Promise.all([first.send(), first.send(), first.send()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
    const refused = answers.filter((answer) => answer.status === 400);
    for (const answer of refused)
      expect(answer.body).toEqual({
        code: -1022,
        msg: 'Signature for this request was already used.',
      });
    const placed = answers.find((answer) => answer.status === 200)!;
    const open = await signed(key, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
    expect(open.body.map((row: { orderId: number }) => row.orderId)).toEqual([placed.body.orderId]);
    const cancel = prepare(key, 'DELETE', '/api/v3/order', {
      symbol: 'BTCUSDT',
      orderId: String(placed.body.orderId),
    });
    expect((await cancel.send()).status).toBe(200);
    expect((await cancel.send()).body.code).toBe(-1022);
    // Two identical reads in one millisecond (ccxt's concurrent fetchBalance) both pass.
    const read = prepare(key, 'GET', '/api/v3/account');
    const reads = await Promise.all([read.send(), read.send()]);
    expect(reads.map((answer) => answer.status)).toEqual([200, 200]);
    await expect
      .poll(async () => (await usage(user.token, key.id)).map((row) => row.msg), PATIENCE)
      .toContain('hint_apiKeySignatureReused');
  });

  it('refuses a key without the trade permission, revoked, or called from elsewhere (-2015)', async () => {
    const invalid = { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
    const reader = await createKey(user.token, { label: 'reader', permissions: 'read' });
    const noTrade = await signed(reader, 'POST', '/api/v3/order', order());
    expect(noTrade.status).toBe(401);
    expect(noTrade.body).toEqual(invalid);
    const noCancel = await orderCall(reader, 'DELETE', {
      orderId: '1',
    });
    expect(noCancel.body).toEqual(invalid);
    await expect
      .poll(() => lastUse(user.token, reader.id), PATIENCE)
      .toMatchObject({
        path: '/binance/api/v3/order',
        method: 'DELETE',
        status: 401,
        msg: 'hint_apiKeyPermission',
      });

    const fenced = await createKey(user.token, { label: 'fenced', ipList: '203.0.113.0/24' });
    const outside = await signed(fenced, 'GET', '/api/v3/account', {}, { ip: '198.51.100.9' });
    expect(outside.body).toEqual(invalid);
    await expect
      .poll(() => lastUse(user.token, fenced.id), PATIENCE)
      .toMatchObject({ msg: 'hint_apiKeyAddress' });
    const inside = await signed(fenced, 'GET', '/api/v3/account', {}, { ip: '203.0.113.9' });
    expect(inside.status).toBe(200);

    const revoked = await createKey(user.token, { label: 'revoked' });
    expect((await signed(revoked, 'GET', '/api/v3/account')).status).toBe(200);
    await call(t.app, 'POST', '/api/apiKey/revoke', {
      token: user.token,
      form: { id: String(revoked.id) },
    });
    const afterRevoke = await signed(revoked, 'GET', '/api/v3/account');
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body).toEqual(invalid);
    await expect
      .poll(() => lastUse(user.token, revoked.id), PATIENCE)
      .toMatchObject({ msg: 'hint_apiKeyRevoked' });

    const unknown = await signed(
      { apiKey: 'Z'.repeat(64), secret: key.secret },
      'GET',
      '/api/v3/account',
    );
    expect(unknown.body).toEqual(invalid);
    const malformed = await signed(
      { apiKey: 'not a key!', secret: key.secret },
      'GET',
      '/api/v3/account',
    );
    expect(malformed.body).toEqual({ code: -2014, msg: 'API-key format invalid.' });
    const none = await t.app.inject({ url: '/binance/api/v3/account' });
    expect(none.json()).toEqual({ code: -2014, msg: 'API-key format invalid.' });
  });
});

// ---------------------------------------------------------------- the demo book

describe('a demo key', () => {
  it('trades in the demo book, whose balances are apart from the live ones', async () => {
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, '500');
    await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    const demo = await createKey(user.token, { label: 'demo' });
    await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '0' },
    });
    const live = await createKey(user.token, { label: 'live' });

    expect(await balanceOf(demo, 'USDT')).toMatchObject({ free: '100000.00000000' });
    expect(await balanceOf(live, 'USDT')).toMatchObject({ free: '500.00000000' });
    const bought = await orderCall(demo, 'POST', {
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.1000',
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(await balanceOf(demo, 'BTC')).toMatchObject({ free: '0.10000000' });
    expect(await balanceOf(live, 'BTC')).toMatchObject({ free: '0.00000000' });
    expect(await balanceOf(live, 'USDT')).toMatchObject({ free: '500.00000000' });
    // The live key sees none of the demo book's orders, even by id.
    const seen = await orderCall(live, 'GET', {
      orderId: String(bought.body.orderId),
    });
    expect(seen.body.code).toBe(-2013);
    expect((await signed(live, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT' })).body).toEqual(
      [],
    );
  });
});

// ---------------------------------------------------------------- weight

describe('the request weight', () => {
  it('refuses a client past its weight a minute with -1003 on HTTP 429', async () => {
    // A general budget of 4 calls a minute: a weight of 20 a minute, one exchangeInfo.
    const small = await createTestApp({
      env: { TWO_FACTOR_KEY: KEY, RATE_LIMIT_GLOBAL_PER_MINUTE: '4' },
    });
    try {
      const get = () => small.app.inject({ url: '/binance/api/v3/exchangeInfo' });
      const first = await get();
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-mbx-used-weight-1m']).toBe('20');
      const second = await get();
      expect(second.statusCode).toBe(429);
      expect(second.json()).toEqual({
        code: -1003,
        msg: 'Too much request weight used; current limit is 20 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.',
      });
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      // The next minute starts afresh.
      small.clock.advance(60_000);
      expect((await get()).statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });
});

// ---------------------------------------------------------------- the worked example

describe("docs/binance-api.md's signing example", () => {
  // Last in the file: it moves the clock an hour on, to the example's timestamp.
  it('is accepted by the server byte for byte', async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const docs = readFileSync(path.join(here, '../../../docs/binance-api.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## Signing'));
    const field = (name: string) => {
      const match = new RegExp(`^- ${name}: \`([^\`]*)\`$`, 'm').exec(section);
      expect(match, name).not.toBeNull();
      return match![1]!;
    };
    const secret = field('secret');
    const body = field('body signed');
    const signature = field('signature');
    expect(createHmac('sha256', secret).update(body).digest('hex')).toBe(signature);
    const sent = `${body}&signature=${signature}`;
    expect(section).toContain(`--data-raw '${sent}'`);

    // A key of a funded user whose secret is the example's (keys' secrets are made at random).
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, '1000');
    const key = await createKey(user.token, { label: 'example' });
    const sealed = await secretSealer(t.config).seal(
      secret,
      `api-key:${user.userId}:${key.apiKey}`,
    );
    await t.db.query('UPDATE api_key SET secret_sealed = $1 WHERE id = $2', [sealed, key.id]);
    const timestamp = Number(new URLSearchParams(body).get('timestamp'));
    expect(timestamp).toBeGreaterThan(t.clock.now().getTime());
    t.clock.set(new Date(timestamp));

    const response = await t.app.inject({
      method: 'POST',
      url: '/binance/api/v3/order',
      headers: {
        'X-MBX-APIKEY': key.apiKey,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: sent,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      symbol: 'BTCUSDT',
      clientOrderId: 'bot-20261118-0001',
      status: 'NEW',
      price: '90000.00000000',
      origQty: '0.01000000',
    });
  });
});
