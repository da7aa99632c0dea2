/**
 * The binance feed provider against a local server speaking Binance's public market-data protocol
 * (no internet here). Waits are on conditions with short polling, never on long fixed sleeps.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { PRODUCT_TYPE } from '@bourse/shared';
import {
  BinanceFeed,
  binanceHistory,
  pageKlinesBack,
  fetchKlines,
  type BinanceFeedOptions,
  type FeedLogger,
} from '../src/market/providers/binance';
import { candleStart } from '../src/market/price-store';
import {
  CANDLE_INTERVALS,
  type Candle,
  type CandleInterval,
  type FeedProduct,
  type Tick,
} from '../src/market/types';
import {
  startBinanceProtocolServer,
  type BinanceProtocolServer,
  type BinanceProtocolServerOptions,
} from './support/binance-protocol-server';

// The provider's logger type accepts a real pino logger.
const _pinoFits: FeedLogger = pino({ enabled: false });

const BTC: FeedProduct = {
  productType: PRODUCT_TYPE.crypto,
  productCode: 'BTCUSDT',
  sourceSymbol: 'BTCUSDT',
  priceScale: 2,
};
const ETH: FeedProduct = {
  productType: PRODUCT_TYPE.crypto,
  productCode: 'ETHUSDT',
  sourceSymbol: 'ETHUSDT',
  priceScale: 2,
};

interface LogEntry {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg?: string;
}

interface Recorder {
  ticks: Tick[];
  candles: { product: FeedProduct; interval: CandleInterval; candle: Candle }[];
  gaps: { product: FeedProduct; detail: string }[];
  statuses: { status: string; detail?: string }[];
  logs: LogEntry[];
}

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(options: BinanceProtocolServerOptions = {}): Promise<BinanceProtocolServer> {
  const created = await startBinanceProtocolServer(options);
  created.setTickerPrices({ BTCUSDT: '64000.01000000', ETHUSDT: '3000.50000000' });
  cleanups.push(() => created.close());
  return created;
}

/** Starts a feed on `srv` with quick timings; returns it with everything it reported. */
async function feed(
  srv: BinanceProtocolServer,
  options: BinanceFeedOptions = {},
  products: readonly FeedProduct[] = [BTC, ETH],
): Promise<{ feed: BinanceFeed; rec: Recorder }> {
  const rec: Recorder = { ticks: [], candles: [], gaps: [], statuses: [], logs: [] };
  const log =
    (level: LogEntry['level']) =>
    (obj: object, msg?: string): void => {
      rec.logs.push({ level, obj, msg });
    };
  const created = new BinanceFeed({
    wsUrl: srv.wsUrl,
    restUrl: srv.restUrl,
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
    staleAfterMs: 10_000,
    ...options,
  });
  cleanups.push(() => created.stop());
  await created.start(products, {
    onTick: (tick) => rec.ticks.push(tick),
    onCandle: (product, interval, candle) => rec.candles.push({ product, interval, candle }),
    onGap: (product, detail) => rec.gaps.push({ product, detail }),
    onStatus: (status, detail) => rec.statuses.push({ status, detail }),
  });
  return { feed: created, rec };
}

async function waitFor(condition: () => boolean, label: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const streamTicks = (rec: Recorder, code = 'BTCUSDT') =>
  rec.ticks.filter((tick) => tick.productCode === code && tick.sequence > 0);
const statusNames = (rec: Recorder) => rec.statuses.map((entry) => entry.status);
const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

describe('binance feed', () => {
  it('turns the REST latest prices into ticks before streaming', async () => {
    const srv = await server();
    const { rec } = await feed(srv);
    expect(
      rec.ticks.map(({ productCode, price, volume, sequence, source }) => ({
        productCode,
        price,
        volume,
        sequence,
        source,
      })),
    ).toEqual([
      { productCode: 'BTCUSDT', price: '64000.01', volume: '0', sequence: 0, source: 'binance' },
      { productCode: 'ETHUSDT', price: '3000.5', volume: '0', sequence: 0, source: 'binance' },
    ]);
    expect(rec.ticks.every((tick) => tick.productType === PRODUCT_TYPE.crypto)).toBe(true);
    const [request] = srv.restRequests();
    expect(request).toBe(
      `/api/v3/ticker/price?symbols=${encodeURIComponent('["BTCUSDT","ETHUSDT"]')}`,
    );
    expect(statusNames(rec)).toEqual(['connecting', 'live']);
  });

  it('asks symbol by symbol when Binance refuses a request for an unknown symbol', async () => {
    const srv = await server();
    srv.setTickerPrices({ ETHUSDT: '3000' }); // BTCUSDT unknown: Binance refuses the whole request
    const { rec } = await feed(srv);
    expect(rec.ticks.map((tick) => [tick.productCode, tick.price])).toEqual([['ETHUSDT', '3000']]);
    expect(srv.restRequests()).toEqual([
      `/api/v3/ticker/price?symbols=${encodeURIComponent('["BTCUSDT","ETHUSDT"]')}`,
      '/api/v3/ticker/price?symbol=BTCUSDT',
      '/api/v3/ticker/price?symbol=ETHUSDT',
    ]);
    expect(rec.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        obj: expect.objectContaining({ symbols: ['BTCUSDT'] }),
      }),
    );
    expect(srv.publishTrade('BTCUSDT', { id: 1, price: '64000', qty: '1', time: T0 })).toBe(1);
    await waitFor(() => streamTicks(rec).length === 1, 'a streamed tick');
  });

  it('streams even when REST is unreachable', async () => {
    const srv = await server();
    const { rec } = await feed(srv, { restUrl: 'http://127.0.0.1:1' });
    expect(rec.ticks).toEqual([]);
    expect(statusNames(rec)).toEqual(['connecting', 'live']);
    srv.publishTrade('ETHUSDT', { id: 1, price: '3000', qty: '1', time: T0 });
    await waitFor(() => streamTicks(rec, 'ETHUSDT').length === 1, 'a streamed tick');
  });

  it('subscribes the combined streams with SUBSCRIBE messages', async () => {
    const srv = await server();
    await feed(srv, { intervals: ['1m', '1M'] });
    expect(srv.subscriptions()).toEqual([
      'btcusdt@aggTrade',
      'btcusdt@kline_1m',
      'btcusdt@kline_1M',
      'ethusdt@aggTrade',
      'ethusdt@kline_1m',
      'ethusdt@kline_1M',
    ]);
    const [message] = srv.methodMessages() as { method: string; params: string[]; id: number }[];
    expect(message!.method).toBe('SUBSCRIBE');
    expect(Number.isInteger(message!.id)).toBe(true);
    expect(srv.connectionCount()).toBe(1);
  });

  it('paces SUBSCRIBE messages under the rate limit, 200 streams each, up to 1024', async () => {
    const srv = await server();
    const many = Array.from({ length: 512 }, (_, i) => ({
      ...BTC,
      productCode: `C${i}USDT`,
      sourceSymbol: `C${i}USDT`,
    }));
    srv.setTickerPrices(Object.fromEntries(many.map((p) => [p.sourceSymbol, '1.5'])));
    const { rec } = await feed(srv, {}, many);
    expect(srv.subscriptions()).toHaveLength(1024);
    // Six messages: more than Binance's 5 per second if they were not spaced out.
    expect(srv.methodMessages()).toHaveLength(6);
    expect(srv.rateLimitDisconnects()).toBe(0);
    expect(srv.connectionCount()).toBe(1);
    expect(rec.ticks).toHaveLength(512);
    expect(srv.restRequests().filter((url) => url.startsWith('/api/v3/ticker/price'))).toHaveLength(
      6,
    );
  });

  it('refuses more than 1024 streams', async () => {
    const srv = await server();
    const many = Array.from({ length: 513 }, (_, i) => ({
      ...BTC,
      sourceSymbol: `C${i}USDT`,
    }));
    await expect(feed(srv, {}, many)).rejects.toThrow(/1026 streams/);
    expect(srv.connectionCount()).toBe(0);
  });

  it('turns aggTrades into ticks: sequence = trade id, prices normalised to the scale', async () => {
    const srv = await server();
    const { rec } = await feed(srv);
    srv.publishTrade('BTCUSDT', { id: 1000, price: '64001.50000000', qty: '0.01000000', time: T0 });
    srv.publishTrade('BTCUSDT', {
      id: 1001,
      price: '64001.12500000',
      qty: '2.00000000',
      time: T0 + 1,
    });
    srv.publishTrade('ETHUSDT', { id: 7, price: '3001.00000000', qty: '0.5', time: T0 + 2 });
    await waitFor(
      () => streamTicks(rec).length === 2 && streamTicks(rec, 'ETHUSDT').length === 1,
      'ticks',
    );
    expect(streamTicks(rec)).toEqual([
      {
        productType: PRODUCT_TYPE.crypto,
        productCode: 'BTCUSDT',
        price: '64001.5',
        volume: '0.01',
        time: T0,
        source: 'binance',
        sequence: 1000,
      },
      {
        productType: PRODUCT_TYPE.crypto,
        productCode: 'BTCUSDT',
        price: '64001.13',
        volume: '2',
        time: T0 + 1,
        source: 'binance',
        sequence: 1001,
      },
    ]);
    expect(streamTicks(rec, 'ETHUSDT')[0]).toMatchObject({ price: '3001', sequence: 7 });
    expect(rec.gaps).toEqual([]);
  });

  it('drops duplicate trades and reports skipped ids as a gap', async () => {
    const srv = await server();
    const { rec } = await feed(srv);
    srv.publishTrade('BTCUSDT', { id: 100, price: '64000', qty: '1', time: T0 });
    srv.publishTrade('BTCUSDT', { id: 100, price: '64000', qty: '1', time: T0 });
    srv.publishTrade('BTCUSDT', { id: 99, price: '63999', qty: '1', time: T0 });
    srv.publishTrade('BTCUSDT', { id: 101, price: '64001', qty: '1', time: T0 + 1 });
    await waitFor(() => streamTicks(rec).some((tick) => tick.sequence === 101), 'trade 101');
    expect(streamTicks(rec).map((tick) => tick.sequence)).toEqual([100, 101]);
    expect(rec.gaps).toEqual([]);

    srv.publishTrade('BTCUSDT', { id: 105, price: '64005', qty: '1', time: T0 + 2 });
    await waitFor(() => streamTicks(rec).some((tick) => tick.sequence === 105), 'trade 105');
    expect(rec.gaps).toEqual([{ product: BTC, detail: 'missed 3 trades' }]);
    expect(streamTicks(rec).map((tick) => tick.sequence)).toEqual([100, 101, 105]);
  });

  it('delivers closed klines to onCandle, not open ones', async () => {
    const srv = await server();
    const { rec } = await feed(srv, { intervals: ['1m', '1h'] });
    const kline = {
      openTime: T0,
      open: '64000.00000000',
      high: '64100.25500000',
      low: '63950.10000000',
      close: '64050.00000000',
      volume: '12.50000000',
      quoteVolume: '800625.12345678',
    };
    srv.publishKline('BTCUSDT', '1m', { ...kline, close: '64020.00000000', closed: false });
    srv.publishKline('BTCUSDT', '1m', { ...kline, closed: true });
    srv.publishKline('BTCUSDT', '1m', { ...kline, closed: true }); // a repeat is not a new candle
    srv.publishKline('ETHUSDT', '1h', { ...kline, openTime: T0 - 3_600_000, closed: true });
    await waitFor(() => rec.candles.length >= 2, 'closed candles');
    // Ordering on one socket: a trade sent after them arrives after them.
    srv.publishTrade('BTCUSDT', { id: 1, price: '1', qty: '1', time: T0 });
    await waitFor(() => streamTicks(rec).length === 1, 'the marker trade');
    expect(rec.candles).toEqual([
      {
        product: BTC,
        interval: '1m',
        candle: {
          openTime: T0,
          open: '64000',
          high: '64100.26',
          low: '63950.1',
          close: '64050',
          volume: '12.5',
          amount: '800625.12345678',
        },
      },
      {
        product: ETH,
        interval: '1h',
        candle: expect.objectContaining({ openTime: T0 - 3_600_000, amount: '800625.12345678' }),
      },
    ]);
  });

  it('reconnects after a dropped connection, resubscribes, reports gaps and keeps ticking', async () => {
    const srv = await server();
    const { rec } = await feed(srv, { intervals: ['1m', '1M'] });
    const before = srv.subscriptions();
    srv.publishTrade('BTCUSDT', { id: 10, price: '64000', qty: '1', time: T0 });
    await waitFor(() => streamTicks(rec).length === 1, 'first tick');

    srv.dropConnections();
    await waitFor(() => srv.connectionCount() === 2, 'a second connection');
    await waitFor(() => statusNames(rec).filter((s) => s === 'live').length === 2, 'live again');
    expect(srv.subscriptions()).toEqual(before);
    expect(srv.openConnections()).toBe(1);
    expect(statusNames(rec)).toEqual(['connecting', 'live', 'reconnecting', 'live']);
    expect(rec.gaps.map((gap) => gap.product.productCode).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);

    // Trades missed while away are part of the reconnect gap, not reported twice.
    srv.publishTrade('BTCUSDT', { id: 15, price: '64010', qty: '1', time: T0 + 5 });
    srv.publishTrade('BTCUSDT', { id: 15, price: '64010', qty: '1', time: T0 + 5 });
    srv.publishTrade('BTCUSDT', { id: 17, price: '64020', qty: '1', time: T0 + 6 });
    await waitFor(() => streamTicks(rec).length === 3, 'ticks after the reconnect');
    expect(streamTicks(rec).map((tick) => tick.sequence)).toEqual([10, 15, 17]);
    expect(rec.gaps.slice(2)).toEqual([{ product: BTC, detail: 'missed 1 trades' }]);
  });

  it('keeps retrying with backoff while the server is down', async () => {
    const srv = await server();
    const { rec } = await feed(srv);
    const { wsUrl } = srv;
    await srv.close();
    await waitFor(
      () => statusNames(rec).filter((s) => s === 'reconnecting').length >= 3,
      'several retries',
    );
    const delays = rec.statuses
      .filter((s) => s.status === 'reconnecting')
      .map((s) => Number(/retry in (\d+) ms/.exec(s.detail ?? '')?.[1]));
    expect(delays.every((delay) => delay >= 5 && delay <= 50)).toBe(true);
    expect(wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  });

  it('replaces a connection that stays silent for staleAfterMs', async () => {
    const srv = await server();
    const { rec } = await feed(srv, { staleAfterMs: 150 });
    await waitFor(() => srv.connectionCount() >= 2, 'a replacement connection');
    await waitFor(() => statusNames(rec).filter((s) => s === 'live').length >= 2, 'live again');
    const stale = rec.statuses.find((s) => s.status === 'reconnecting');
    expect(stale?.detail).toMatch(/no message for \d+ ms/);
    await waitFor(() => srv.openConnections() === 1, 'the stale socket closed');
    srv.publishTrade('BTCUSDT', { id: 1, price: '64000', qty: '1', time: T0 });
    await waitFor(() => streamTicks(rec).length === 1, 'a tick on the new connection');
  });

  it('answers server pings, which keep a quiet connection alive', async () => {
    // Pings every 50 ms against a 600 ms stale limit: four stale periods of
    // answered pings on one connection. The margin is wide so that a busy
    // machine's stalled event loop cannot pass for a silent server.
    const srv = await server({ pingIntervalMs: 50 });
    await feed(srv, { staleAfterMs: 600 });
    await waitFor(() => srv.pongCount() >= 48, 'pongs over several stale periods', 15_000);
    expect(srv.connectionCount()).toBe(1);
  });

  it('drops oversized messages, logs refusals and survives junk', async () => {
    const srv = await server();
    const { rec } = await feed(srv);
    srv.publishRaw(
      JSON.stringify({ stream: 'btcusdt@aggTrade', data: { pad: 'x'.repeat(1_100_000) } }),
    );
    srv.publishRaw('not json');
    srv.publishRaw(JSON.stringify({ error: { code: 2, msg: 'Invalid request' }, id: 99 }));
    srv.publishRaw(
      JSON.stringify({
        stream: 'btcusdt@aggTrade',
        data: { e: 'aggTrade', a: 1, p: '1e5', q: '1', T: T0 },
      }),
    );
    srv.publishTrade('BTCUSDT', { id: 2, price: '64000', qty: '1', time: T0 });
    await waitFor(() => streamTicks(rec).length === 1, 'the good trade');
    expect(streamTicks(rec)[0]!.sequence).toBe(2);
    expect(srv.connectionCount()).toBe(1);
    const messages = rec.logs.map((entry) => `${entry.level}: ${entry.msg}`);
    expect(messages).toContain('warn: binance feed: oversized message dropped');
    expect(messages).toContain('warn: binance feed: message is not JSON');
    expect(messages).toContain('error: binance feed: request refused');
    expect(messages).toContain('warn: binance feed: malformed aggTrade dropped');
  });

  it('survives a handler that throws', async () => {
    const srv = await server();
    const seen: number[] = [];
    const logs: string[] = [];
    const log = (_obj: object, msg?: string) => logs.push(msg ?? '');
    const created = new BinanceFeed({
      wsUrl: srv.wsUrl,
      restUrl: srv.restUrl,
      logger: { info: log, warn: log, error: log },
    });
    cleanups.push(() => created.stop());
    await created.start([BTC], {
      onTick: (tick) => {
        seen.push(tick.sequence);
        if (tick.sequence === 1) throw new Error('consumer bug');
      },
    });
    srv.publishTrade('BTCUSDT', { id: 1, price: '1', qty: '1', time: T0 });
    srv.publishTrade('BTCUSDT', { id: 2, price: '1', qty: '1', time: T0 });
    await waitFor(() => seen.includes(2), 'the next tick');
    expect(logs).toContain('binance feed: handler threw');
    expect(srv.connectionCount()).toBe(1);
  });

  it('stop() closes the socket and never reconnects', async () => {
    const srv = await server();
    const { feed: running, rec } = await feed(srv);
    await running.stop();
    expect(statusNames(rec).at(-1)).toBe('stopped');
    await waitFor(() => srv.openConnections() === 0, 'the socket closed');
    srv.publishTrade('BTCUSDT', { id: 1, price: '64000', qty: '1', time: T0 });
    // Several backoff periods (10–50 ms) pass: no new connection, no tick, no new status.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(srv.connectionCount()).toBe(1);
    expect(streamTicks(rec)).toEqual([]);
    expect(statusNames(rec)).toEqual(['connecting', 'live', 'stopped']);
    await running.stop(); // idempotent
    expect(statusNames(rec)).toEqual(['connecting', 'live', 'stopped']);
  });

  it('stop() during a pending reconnect cancels it', async () => {
    const srv = await server();
    const { feed: running, rec } = await feed(srv, {
      reconnect: { initialDelayMs: 100, maxDelayMs: 100 },
    });
    srv.dropConnections();
    await waitFor(() => statusNames(rec).includes('reconnecting'), 'the drop noticed');
    await running.stop();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(srv.connectionCount()).toBe(1);
    expect(statusNames(rec)).toEqual(['connecting', 'live', 'reconnecting', 'stopped']);
  });

  it('fetchKlines parses REST rows, clamps the limit and passes the time range', async () => {
    const srv = await server();
    srv.setKlines(
      'BTCUSDT',
      '1m',
      Array.from({ length: 5 }, (_, i) => ({
        openTime: T0 + i * 60_000,
        open: `6400${i}.10000000`,
        high: `6410${i}.00000000`,
        low: `6390${i}.00000000`,
        close: `6400${i}.50000000`,
        volume: '1.00000000',
        quoteVolume: `6400${i}.30000000`,
        trades: 10,
      })),
    );
    const all = await fetchKlines(srv.restUrl, 'BTCUSDT', '1m', { limit: 5000 });
    expect(all).toHaveLength(5);
    expect(all[0]).toEqual({
      openTime: T0,
      open: '64000.1',
      high: '64100',
      low: '63900',
      close: '64000.5',
      volume: '1',
      amount: '64000.3',
    });
    expect(srv.restRequests().at(-1)).toBe('/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=1000');

    const range = await fetchKlines(srv.restUrl, 'BTCUSDT', '1m', {
      startTime: T0 + 60_000,
      endTime: T0 + 180_000,
      limit: 2,
    });
    expect(range.map((candle) => candle.openTime)).toEqual([T0 + 60_000, T0 + 120_000]);

    const rounded = await fetchKlines(srv.restUrl, 'BTCUSDT', '1m', { limit: 1, priceScale: 0 });
    expect(rounded[0]).toMatchObject({ openTime: T0 + 240_000, open: '64004', close: '64005' });

    await expect(fetchKlines(srv.restUrl, 'NOPE', '1m')).rejects.toThrow(/HTTP 400/);
    await expect(fetchKlines(srv.restUrl, 'BTC/USDT', '1m')).rejects.toThrow(/Invalid/);
  });

  it('binanceHistory pages back with endTime and limit to the depth asked, at every interval', async () => {
    const srv = await server();
    const now = T0 + 30_000;
    const row = (openTime: number, price: string) => ({
      openTime,
      open: price,
      high: price,
      low: price,
      close: price,
      volume: '1.00000000',
      quoteVolume: price,
      trades: 1,
    });
    // Every interval has 3,000 candles up to the still-open one, except a short month history.
    for (const interval of CANDLE_INTERVALS) {
      const current = candleStart(interval, now);
      const times: number[] = [current];
      const count = interval === '1M' ? 80 : 3000;
      while (times.length < count) {
        const last = times[0]!;
        times.unshift(
          interval === '1M'
            ? Date.UTC(new Date(last).getUTCFullYear(), new Date(last).getUTCMonth() - 1, 1)
            : interval === '1w'
              ? last - 7 * 86_400_000
              : candleStart(interval, last - 1),
        );
      }
      srv.setKlines(
        'BTCUSDT',
        interval,
        times.map((time) => row(time, '64000.00000000')),
      );
    }
    const before = srv.restRequests().length;
    const histories = await binanceHistory(srv.restUrl, [BTC, ETH], now, { depth: 1500 });
    const btc = histories.get(`${BTC.productType}:${BTC.productCode}`)!;
    for (const interval of CANDLE_INTERVALS) {
      const candles = btc[interval]!;
      // The still-open candle is left to live trades; the 1,500 before it, in order, no gaps.
      expect(candles, interval).toHaveLength(interval === '1M' ? 79 : 1500);
      expect(candles.at(-1)!.openTime).toBe(candleStart(interval, candleStart(interval, now) - 1));
      for (let i = 1; i < candles.length; i++) {
        expect(candleStart(interval, candles[i]!.openTime - 1)).toBe(candles[i - 1]!.openTime);
      }
    }
    // Minutes: a page of 1,000 ending before the open minute, then one of 500 before that.
    const minuteNow = candleStart('1m', now);
    const minutePages = srv
      .restRequests()
      .slice(before)
      .filter((path) => path.includes('symbol=BTCUSDT&interval=1m&'));
    expect(minutePages).toEqual([
      `/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=1000&endTime=${minuteNow - 1}`,
      `/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=500&endTime=${minuteNow - 1000 * 60_000 - 1}`,
    ]);
    // ETH has no klines on this server: an empty history, not a made-up one.
    expect(histories.get(`${ETH.productType}:${ETH.productCode}`)).toEqual({});
  });

  it('pageKlinesBack stops at a short page and never repeats a candle', async () => {
    const all = Array.from({ length: 2500 }, (_, i) => ({
      openTime: i * 60_000,
      open: '1',
      high: '1',
      low: '1',
      close: '1',
      volume: '0',
      amount: '0',
    }));
    const asked: [number, number][] = [];
    const page = async (endTime: number, limit: number) => {
      asked.push([endTime, limit]);
      return all.filter((candle) => candle.openTime <= endTime).slice(-limit);
    };
    const got = await pageKlinesBack(page, 2500 * 60_000, 5000);
    expect(got.map((candle) => candle.openTime)).toEqual(all.map((candle) => candle.openTime));
    expect(asked).toEqual([
      [2500 * 60_000 - 1, 1000],
      [1500 * 60_000 - 1, 1000],
      [500 * 60_000 - 1, 1000],
    ]);
  });
});
