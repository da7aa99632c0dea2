/**
 * The `binance` feed provider: real crypto prices from Binance's public market-data protocol.
 *
 * - One combined-stream WebSocket (`<wsUrl>/stream`), subscribed with SUBSCRIBE method messages
 *   (at most 200 streams per message, paced under Binance's 5 messages per second, at most 1024
 *   streams per connection).
 * - `<symbol>@aggTrade` payloads become ticks (sequence = aggregate trade id, which Binance
 *   numbers consecutively per symbol, so a jump means trades were missed and a repeat is dropped;
 *   the market engine then numbers the tick in its own sequence, unique for the life of the
 *   database, which is what evidence shows).
 * - `<symbol>@kline_<interval>` payloads with `x = true` become candles.
 * - On start the latest price of every symbol is read from REST (`/api/v3/ticker/price`), so
 *   prices exist before the first trade arrives.
 * - The socket is replaced, with exponential backoff and jitter, when it closes, fails or stays
 *   silent for `staleAfterMs`; every product then gets a gap (consumers re-sync from REST).
 *
 * Prices never pass through a JS number: they stay decimal strings, checked and normalised with
 * @bourse/shared, rounded to the product's price scale.
 */
import WebSocket from 'ws';
import {
  isDecimalString,
  isPositive,
  normalize,
  toScale,
  type DecimalString,
} from '@bourse/shared';
import type {
  BookSides,
  Candle,
  CandleInterval,
  FeedHandlers,
  FeedProduct,
  FeedProvider,
  ListingStart,
  Tick,
} from '../types';
import { candleStart } from '../price-store';
import { CANDLE_INTERVALS } from '../types';

/** The pino-like logger the provider writes to. */
export interface FeedLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface BinanceFeedOptions {
  /** Base of the WebSocket endpoint; the provider connects to `${wsUrl}/stream`. */
  wsUrl?: string;
  /** Base of the REST API. */
  restUrl?: string;
  logger?: FeedLogger;
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /** No message (data, acknowledgement or ping) for this long: the socket is replaced. */
  staleAfterMs?: number;
  /** Kline streams to subscribe for every product. */
  intervals?: CandleInterval[];
}

export interface FetchKlinesOptions {
  startTime?: number;
  endTime?: number;
  /** 1 to 1000 (Binance's maximum); 500 when absent. Larger values are clamped. */
  limit?: number;
  /** Round prices to this many decimals (normalised only when absent). */
  priceScale?: number;
  signal?: AbortSignal;
  /** Per-request timeout, 10 s by default. */
  timeoutMs?: number;
}

export const DEFAULT_WS_URL = 'wss://stream.binance.com:9443';
export const DEFAULT_REST_URL = 'https://api.binance.com';
/** Binance's limit of streams on one connection. */
export const MAX_STREAMS = 1024;
/** Streams per SUBSCRIBE message. */
export const STREAMS_PER_MESSAGE = 200;
/** Messages larger than this are dropped unread. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Frames larger than this close the connection (ws refuses to buffer them). */
const MAX_FRAME_BYTES = 2 * MAX_MESSAGE_BYTES;
/** Binance allows 5 incoming messages per second per connection; stay under it. */
const SUBSCRIBE_SPACING_MS = 250;
/** Binance's klines endpoint returns at most this many rows. */
export const MAX_KLINES = 1000;
const DEFAULT_KLINES = 500;
const SYMBOLS_PER_TICKER_REQUEST = 100;
const REST_TIMEOUT_MS = 10_000;
const MAX_REST_BYTES = 4 * 1024 * 1024;
const CLOSE_WAIT_MS = 1000;
/** How often the list of Binance's symbols (for `knows`) is read again. */
const SYMBOLS_REFRESH_MS = 30 * 60_000;
/** An unknown symbol asked about reads the list again, at most this often (a new coin). */
const SYMBOLS_RETRY_MS = 60_000;
/** Binance lists about 3,000 symbols; a longer list is not believed. */
const MAX_SYMBOLS = 20_000;
const SYMBOL_PATTERN = /^[A-Za-z0-9]{1,32}$/;

const silentLogger: FeedLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

type Status = Parameters<NonNullable<FeedHandlers['onStatus']>>[0];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInterval(value: string): value is CandleInterval {
  return (CANDLE_INTERVALS as readonly string[]).includes(value);
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A positive decimal string from the source, rounded to `scale` when given and normalised
 * ("64000.01000000" at scale 2 is "64000.01"); undefined when malformed or not positive.
 */
function price(value: unknown, scale?: number): DecimalString | undefined {
  if (!isDecimalString(value)) return undefined;
  const result =
    scale === undefined ? normalize(value) : normalize(toScale(value, scale, 'halfUp'));
  return isPositive(result) ? result : undefined;
}

function isScale(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 18;
}

function quantity(value: unknown): DecimalString | undefined {
  return isDecimalString(value) ? normalize(value) : undefined;
}

/** The candle of a Binance kline (stream `k` object or REST row), or undefined when malformed. */
function candleOf(
  fields: {
    openTime: unknown;
    open: unknown;
    high: unknown;
    low: unknown;
    close: unknown;
    volume: unknown;
    quoteVolume: unknown;
  },
  scale?: number,
): Candle | undefined {
  if (!isTime(fields.openTime) || (scale !== undefined && !isScale(scale))) return undefined;
  const open = price(fields.open, scale);
  const high = price(fields.high, scale);
  const low = price(fields.low, scale);
  const close = price(fields.close, scale);
  const volume = quantity(fields.volume);
  const amount = quantity(fields.quoteVolume);
  if (!open || !high || !low || !close || !volume || !amount) return undefined;
  return { openTime: fields.openTime, open, high, low, close, volume, amount };
}

function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}

class BinanceHttpError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`Binance answered HTTP ${status}: ${body.slice(0, 200)}`);
    this.name = 'BinanceHttpError';
  }
}

/** GETs JSON, reading at most `MAX_REST_BYTES` of the body, within a timeout. */
async function getJson(
  url: string,
  signal?: AbortSignal,
  timeoutMs = REST_TIMEOUT_MS,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_REST_BYTES) {
        await reader.cancel().catch(() => undefined);
        throw new Error(`Binance response larger than ${MAX_REST_BYTES} bytes: ${url}`);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!response.ok) throw new BinanceHttpError(response.status, text);
  return JSON.parse(text) as unknown;
}

/**
 * Historical candles from `GET /api/v3/klines`, oldest first, to backfill history. Rows are
 * `[openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, ...]`; a malformed
 * row rejects the whole answer rather than leave a silent hole in the history.
 */
export async function fetchKlines(
  restUrl: string,
  symbol: string,
  interval: CandleInterval,
  options: FetchKlinesOptions = {},
): Promise<Candle[]> {
  if (!SYMBOL_PATTERN.test(symbol)) throw new TypeError(`Invalid Binance symbol: ${symbol}`);
  if (!isInterval(interval)) throw new TypeError(`Invalid candle interval: ${String(interval)}`);
  if (options.priceScale !== undefined && !isScale(options.priceScale))
    throw new TypeError(`Invalid price scale: ${options.priceScale}`);
  const limit = Math.max(1, Math.min(MAX_KLINES, Math.floor(options.limit ?? DEFAULT_KLINES)));
  const query = new URLSearchParams({
    symbol: symbol.toUpperCase(),
    interval,
    limit: String(limit),
  });
  if (options.startTime !== undefined) query.set('startTime', String(options.startTime));
  if (options.endTime !== undefined) query.set('endTime', String(options.endTime));
  const body = await getJson(
    `${trimBase(restUrl)}/api/v3/klines?${query.toString()}`,
    options.signal,
    options.timeoutMs,
  );
  if (!Array.isArray(body)) throw new Error('Binance klines: the answer is not an array');
  return body.map((row: unknown, index) => {
    const candle = Array.isArray(row)
      ? candleOf(
          {
            openTime: row[0],
            open: row[1],
            high: row[2],
            low: row[3],
            close: row[4],
            volume: row[5],
            quoteVolume: row[7],
          },
          options.priceScale,
        )
      : undefined;
    if (!candle) throw new Error(`Binance klines: malformed row ${index}`);
    return candle;
  });
}

/**
 * The order book from `GET /api/v3/depth` (`bids` and `asks` as `[price, quantity]` strings, best
 * first), cut to `levels` a side, prices at the product's scale.
 */
export async function fetchDepth(
  restUrl: string,
  symbol: string,
  levels: number,
  priceScale: number,
): Promise<BookSides> {
  if (!SYMBOL_PATTERN.test(symbol)) throw new TypeError(`Invalid Binance symbol: ${symbol}`);
  // Binance's accepted limits: 5, 10, 20, 50, 100…
  const limit = [5, 10, 20, 50, 100].find((candidate) => candidate >= levels) ?? 100;
  const body = await getJson(
    `${trimBase(restUrl)}/api/v3/depth?symbol=${symbol.toUpperCase()}&limit=${limit}`,
  );
  const side = (rows: unknown) => {
    if (!Array.isArray(rows)) throw new Error('Binance depth: a side is not an array');
    return rows.slice(0, levels).map((row: unknown) => {
      const [price, amount] = Array.isArray(row) ? row : [];
      if (!isDecimalString(price) || !isDecimalString(amount))
        throw new Error('Binance depth: malformed level');
      return { price: toScale(price, priceScale), amount: normalize(amount) };
    });
  };
  if (!isRecord(body)) throw new Error('Binance depth: the answer is not an object');
  return { bids: side(body.bids), asks: side(body.asks), time: Date.now() };
}

/** The real crypto feed. One instance serves one start/stop cycle. */
export class BinanceFeed implements FeedProvider {
  readonly name = 'binance';
  readonly simulated = false;

  private readonly wsUrl: string;
  private readonly restUrl: string;
  private readonly logger: FeedLogger;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly staleAfterMs: number;
  private readonly intervals: CandleInterval[];

  private handlers: FeedHandlers | undefined;
  private products: FeedProduct[] = [];
  /** Lower-case source symbol → the products fed from it. */
  private bySymbol = new Map<string, FeedProduct[]>();
  private streams: string[] = [];

  private started = false;
  private stopped = false;
  private socket: WebSocket | undefined;
  /** Connections opened so far; every one after the first follows a lost connection. */
  private attempts = 0;
  /** Consecutive failures, for the backoff; reset when a connection goes live. */
  private failures = 0;
  private live = false;
  private lastActivity = 0;
  private nextRequestId = 1;
  private pendingAcks = new Set<number>();
  private unsentChunks: string[][] = [];
  private reconnectTimer: NodeJS.Timeout | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private subscribeTimer: NodeJS.Timeout | undefined;
  private readonly restAbort = new AbortController();
  /** Resolves `start()` once the first connection is live, has failed, or the feed stopped. */
  private settleFirstAttempt: (() => void) | undefined;

  /** Per lower-case symbol: the last aggregate trade id seen. */
  private lastTradeId = new Map<string, number>();
  /** Symbols whose next id jump is already covered by a reconnect gap. */
  private gapReported = new Set<string>();
  /** Per `symbol@interval`: open time of the last closed candle delivered. */
  private lastCandleOpen = new Map<string, number>();

  /** Upper-case symbols Binance lists, as last read (`knows`); undefined before the first read. */
  private listed: Set<string> | undefined;
  private symbolsTimer: NodeJS.Timeout | undefined;
  private symbolsReadAt = 0;
  private readingSymbols: Promise<void> | undefined;

  constructor(options: BinanceFeedOptions = {}) {
    this.wsUrl = trimBase(options.wsUrl ?? DEFAULT_WS_URL);
    this.restUrl = trimBase(options.restUrl ?? DEFAULT_REST_URL);
    this.logger = options.logger ?? silentLogger;
    this.initialDelayMs = Math.max(1, options.reconnect?.initialDelayMs ?? 1000);
    this.maxDelayMs = Math.max(this.initialDelayMs, options.reconnect?.maxDelayMs ?? 30_000);
    this.staleAfterMs = Math.max(1, options.staleAfterMs ?? 30_000);
    const intervals = options.intervals ?? ['1m'];
    for (const interval of intervals) {
      if (!isInterval(interval))
        throw new TypeError(`Invalid candle interval: ${String(interval)}`);
    }
    this.intervals = [...new Set(intervals)];
  }

  /**
   * Reads the latest prices, then connects. Resolves once the first connection is live (or has
   * failed and a retry is scheduled: the feed keeps trying in the background).
   */
  async start(products: readonly FeedProduct[], handlers: FeedHandlers): Promise<void> {
    if (this.started) throw new Error('BinanceFeed: already started');
    this.started = true;
    for (const product of products) {
      if (!SYMBOL_PATTERN.test(product.sourceSymbol))
        throw new TypeError(`Invalid Binance symbol: ${product.sourceSymbol}`);
      if (!isScale(product.priceScale))
        throw new TypeError(`Invalid price scale of ${product.productCode}: ${product.priceScale}`);
      const key = product.sourceSymbol.toLowerCase();
      const list = this.bySymbol.get(key) ?? [];
      list.push(product);
      this.bySymbol.set(key, list);
    }
    for (const symbol of this.bySymbol.keys()) {
      this.streams.push(`${symbol}@aggTrade`);
      // Intervals keep their case: `1M` (month) is not `1m` (minute).
      for (const interval of this.intervals) this.streams.push(`${symbol}@kline_${interval}`);
    }
    if (this.streams.length > MAX_STREAMS)
      throw new RangeError(
        `BinanceFeed: ${this.streams.length} streams, Binance allows ${MAX_STREAMS} per connection`,
      );
    this.products = [...products];
    this.handlers = handlers;
    if (this.products.length === 0) {
      this.logger.info({ feed: this.name }, 'binance feed: no products, nothing to stream');
      return;
    }
    this.status('connecting');
    await this.seedPrices();
    if (this.stopped) return;
    const firstAttempt = new Promise<void>((resolve) => (this.settleFirstAttempt = resolve));
    this.connect();
    await firstAttempt;
  }

  /**
   * Whether Binance lists the product's symbol (as last read by `watchSymbols`): only such a code
   * can be listed as a new coin on this feed. An unknown one has the list read again (at most once
   * a minute), so a coin Binance listed since is known when asked again.
   */
  knows(product: FeedProduct): boolean {
    const symbol = product.sourceSymbol.toUpperCase();
    if (this.listed?.has(symbol)) return true;
    if (this.symbolsTimer && Date.now() - this.symbolsReadAt >= SYMBOLS_RETRY_MS)
      void this.readSymbols();
    return false;
  }

  /** Reads the symbols Binance lists now and every 30 minutes, until stopped. */
  watchSymbols(): void {
    if (this.symbolsTimer || this.stopped) return;
    this.symbolsTimer = setInterval(() => void this.readSymbols(), SYMBOLS_REFRESH_MS);
    this.symbolsTimer.unref();
    void this.readSymbols();
  }

  /** Every symbol from `GET /api/v3/ticker/price` without a symbol (weight 4, ~150 kB). */
  private readSymbols(): Promise<void> {
    this.readingSymbols ??= (async () => {
      this.symbolsReadAt = Date.now();
      try {
        const body = await getJson(`${this.restUrl}/api/v3/ticker/price`, this.restAbort.signal);
        if (!Array.isArray(body) || body.length > MAX_SYMBOLS)
          throw new Error('the ticker answer is not a list of symbols');
        const symbols = new Set<string>();
        for (const entry of body) {
          if (
            isRecord(entry) &&
            typeof entry.symbol === 'string' &&
            SYMBOL_PATTERN.test(entry.symbol)
          )
            symbols.add(entry.symbol.toUpperCase());
        }
        this.listed = symbols;
      } catch (error) {
        if (!this.stopped)
          this.logger.warn(
            { feed: this.name, err: errorText(error) },
            'binance feed: could not read the list of symbols',
          );
      } finally {
        this.readingSymbols = undefined;
      }
    })();
    return this.readingSymbols;
  }

  /**
   * A coin listed while the feed runs: its trades and candles are subscribed on the open
   * connection (or with every stream at the next one) and its latest price read at once. False
   * when its streams would pass Binance's limit per connection.
   */
  addProduct(product: FeedProduct, _listing: ListingStart): boolean {
    if (!this.started || this.stopped) return false;
    if (!SYMBOL_PATTERN.test(product.sourceSymbol) || !isScale(product.priceScale)) return false;
    const symbol = product.sourceSymbol.toLowerCase();
    const list = this.bySymbol.get(symbol) ?? [];
    const same = (other: FeedProduct) =>
      other.productType === product.productType && other.productCode === product.productCode;
    if (list.some(same)) return true;
    const streams =
      list.length > 0
        ? []
        : [
            `${symbol}@aggTrade`,
            ...this.intervals.map((interval) => `${symbol}@kline_${interval}`),
          ];
    if (this.streams.length + streams.length > MAX_STREAMS) {
      this.logger.warn(
        { feed: this.name, symbol, streams: this.streams.length },
        'binance feed: no room for another symbol on the connection',
      );
      return false;
    }
    list.push(product);
    this.bySymbol.set(symbol, list);
    this.products.push(product);
    this.streams.push(...streams);
    if (streams.length > 0) {
      if (this.socket?.readyState === WebSocket.OPEN) {
        this.unsentChunks.push(streams);
        this.subscribeTimer ??= setTimeout(() => this.sendNextChunk(), SUBSCRIBE_SPACING_MS);
      } else if (!this.socket && !this.reconnectTimer) {
        // Started without a product: not connected yet.
        this.status('connecting');
        this.connect();
      }
      // A connection being opened subscribes every stream, this one's too.
    }
    void this.getTicker(`symbol=${encodeURIComponent(product.sourceSymbol.toUpperCase())}`).then(
      (body) => this.seedFrom([body]),
      (error: unknown) => {
        if (!this.stopped)
          this.logger.warn(
            { feed: this.name, symbol, err: errorText(error) },
            'binance feed: could not read the latest price',
          );
      },
    );
    return true;
  }

  /** The product's book from Binance's REST depth (read only). */
  orderBook(product: FeedProduct, levels: number): Promise<BookSides> {
    return fetchDepth(this.restUrl, product.sourceSymbol, levels, product.priceScale);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.restAbort.abort();
    clearInterval(this.symbolsTimer);
    this.clearConnectionTimers();
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (socket) await closeSocket(socket);
    this.settle();
    if (this.started && this.products.length > 0) this.status('stopped');
  }

  // --- REST seed -------------------------------------------------------------------------------

  /**
   * One tick per product from `GET /api/v3/ticker/price`, 100 symbols a request. Binance refuses
   * a whole request for one unknown symbol (HTTP 400, code -1121), so such a chunk is asked again
   * symbol by symbol; a network failure or timeout ends the seeding (streaming starts anyway).
   */
  private async seedPrices(): Promise<void> {
    const symbols = [...this.bySymbol.values()].map((list) => list[0]!.sourceSymbol.toUpperCase());
    for (let i = 0; i < symbols.length && !this.stopped; i += SYMBOLS_PER_TICKER_REQUEST) {
      const chunk = symbols.slice(i, i + SYMBOLS_PER_TICKER_REQUEST);
      try {
        this.seedFrom(await this.getTicker(`symbols=${encodeURIComponent(JSON.stringify(chunk))}`));
      } catch (error) {
        if (this.stopped) return;
        if (!(error instanceof BinanceHttpError && error.status === 400 && chunk.length > 1)) {
          this.logger.warn(
            { feed: this.name, symbols: chunk, err: errorText(error) },
            'binance feed: could not read the latest prices',
          );
          if (error instanceof BinanceHttpError) continue;
          return; // unreachable: the next chunks would wait for the same timeout
        }
        const unknown: string[] = [];
        for (const symbol of chunk) {
          if (this.stopped) return;
          try {
            this.seedFrom([await this.getTicker(`symbol=${encodeURIComponent(symbol)}`)]);
          } catch (single) {
            if (this.stopped) return;
            if (!(single instanceof BinanceHttpError)) {
              this.logger.warn(
                { feed: this.name, symbol, err: errorText(single) },
                'binance feed: could not read the latest prices',
              );
              return;
            }
            unknown.push(symbol);
          }
        }
        this.logger.warn(
          { feed: this.name, symbols: unknown },
          'binance feed: no latest price for these symbols',
        );
      }
    }
  }

  private getTicker(query: string): Promise<unknown> {
    return getJson(`${this.restUrl}/api/v3/ticker/price?${query}`, this.restAbort.signal);
  }

  private seedFrom(body: unknown): void {
    if (!Array.isArray(body)) {
      this.logger.warn({ feed: this.name }, 'binance feed: ticker answer is not an array');
      return;
    }
    const now = Date.now();
    for (const entry of body) {
      if (this.stopped) return;
      if (!isRecord(entry) || typeof entry.symbol !== 'string') continue;
      for (const product of this.bySymbol.get(entry.symbol.toLowerCase()) ?? []) {
        const value = price(entry.price, product.priceScale);
        if (value === undefined) {
          this.logger.warn({ feed: this.name, entry }, 'binance feed: malformed ticker price');
          continue;
        }
        this.emitTick({
          productType: product.productType,
          productCode: product.productCode,
          price: value,
          volume: '0',
          time: now,
          source: this.name,
          sequence: 0,
        });
      }
    }
  }

  // --- Connection ------------------------------------------------------------------------------

  private connect(): void {
    if (this.stopped) return;
    this.attempts += 1;
    this.live = false;
    this.pendingAcks.clear();
    this.unsentChunks = [];
    const url = `${this.wsUrl}/stream`;
    let socket: WebSocket;
    try {
      socket = new WebSocket(url, {
        maxPayload: MAX_FRAME_BYTES,
        handshakeTimeout: Math.min(this.staleAfterMs, 10_000),
        perMessageDeflate: false,
        // autoPong stays on (the default): Binance pings every 20 s and drops silent clients.
      });
    } catch (error) {
      this.lose(`cannot connect to ${url}: ${errorText(error)}`);
      return;
    }
    this.socket = socket;
    this.touch();
    this.armStaleTimer();
    socket.on('open', () => {
      if (socket !== this.socket) return;
      this.touch();
      this.unsentChunks = [];
      for (let i = 0; i < this.streams.length; i += STREAMS_PER_MESSAGE)
        this.unsentChunks.push(this.streams.slice(i, i + STREAMS_PER_MESSAGE));
      this.sendNextChunk();
    });
    socket.on('message', (data, isBinary) => {
      if (socket !== this.socket) return;
      this.touch();
      this.onMessage(data, isBinary);
    });
    socket.on('ping', () => {
      if (socket === this.socket) this.touch();
    });
    socket.on('error', (error) => {
      if (socket !== this.socket) return;
      this.logger.warn({ feed: this.name, err: errorText(error) }, 'binance feed: socket error');
      // ws emits 'close' after an error; lose() below covers the rare case it would not.
      this.lose(`socket error: ${errorText(error)}`);
    });
    socket.on('close', (code, reason) => {
      if (socket !== this.socket) return;
      this.lose(`closed (${code}${reason.length ? ` ${reason.toString('utf8')}` : ''})`);
    });
  }

  /** Drops the current socket and schedules the next attempt. */
  private lose(reason: string): void {
    const socket = this.socket;
    this.socket = undefined;
    this.live = false;
    this.clearConnectionTimers();
    if (socket) {
      socket.removeAllListeners('message');
      socket.on('error', () => undefined);
      socket.terminate();
    }
    if (this.stopped || this.reconnectTimer) return;
    const delay = this.backoff();
    this.failures += 1;
    this.logger.warn(
      { feed: this.name, reason, delayMs: delay, failures: this.failures },
      'binance feed: connection lost, reconnecting',
    );
    this.status('reconnecting', `${reason}; retry in ${delay} ms`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect();
    }, delay);
    this.settle();
  }

  /** Exponential backoff with "equal jitter": between half and all of the exponential step. */
  private backoff(): number {
    const step = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** Math.min(this.failures, 30));
    return Math.round(step / 2 + (Math.random() * step) / 2);
  }

  private sendNextChunk(): void {
    this.subscribeTimer = undefined;
    const socket = this.socket;
    const params = this.unsentChunks.shift();
    if (!socket || !params || socket.readyState !== WebSocket.OPEN) return;
    const id = this.nextRequestId++;
    this.pendingAcks.add(id);
    socket.send(JSON.stringify({ method: 'SUBSCRIBE', params, id }), (error) => {
      if (error && socket === this.socket) this.lose(`cannot subscribe: ${errorText(error)}`);
    });
    if (this.unsentChunks.length > 0)
      this.subscribeTimer = setTimeout(() => this.sendNextChunk(), SUBSCRIBE_SPACING_MS);
  }

  private touch(): void {
    this.lastActivity = Date.now();
  }

  /** Checks for silence without re-arming a timer on every message. */
  private armStaleTimer(delay = this.staleAfterMs): void {
    clearTimeout(this.staleTimer);
    this.staleTimer = setTimeout(() => {
      this.staleTimer = undefined;
      if (!this.socket || this.stopped) return;
      const silent = Date.now() - this.lastActivity;
      if (silent >= this.staleAfterMs) this.lose(`no message for ${silent} ms`);
      else this.armStaleTimer(this.staleAfterMs - silent);
    }, delay);
  }

  private clearConnectionTimers(): void {
    clearTimeout(this.staleTimer);
    clearTimeout(this.subscribeTimer);
    this.staleTimer = undefined;
    this.subscribeTimer = undefined;
    this.unsentChunks = [];
    this.pendingAcks.clear();
  }

  private goLive(): void {
    if (this.live) return;
    this.live = true;
    this.failures = 0;
    if (this.attempts > 1) {
      // Trades may have passed while we were away: consumers re-sync; the next id jump of each
      // symbol is part of this same gap, so it is not reported twice.
      for (const symbol of this.bySymbol.keys()) this.gapReported.add(symbol);
      for (const product of this.products)
        this.emitGap(product, 'reconnected: ticks may be missing');
    }
    this.logger.info(
      { feed: this.name, streams: this.streams.length, attempt: this.attempts },
      'binance feed: live',
    );
    this.status('live');
    this.settle();
  }

  private settle(): void {
    const resolve = this.settleFirstAttempt;
    this.settleFirstAttempt = undefined;
    resolve?.();
  }

  // --- Messages --------------------------------------------------------------------------------

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    const size = Array.isArray(data)
      ? data.reduce((total, part) => total + part.byteLength, 0)
      : data.byteLength;
    if (size > MAX_MESSAGE_BYTES) {
      this.logger.warn({ feed: this.name, bytes: size }, 'binance feed: oversized message dropped');
      return;
    }
    if (isBinary) {
      this.logger.warn({ feed: this.name }, 'binance feed: binary message dropped');
      return;
    }
    const buffer = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    let message: unknown;
    try {
      message = JSON.parse(buffer.toString('utf8'));
    } catch {
      this.logger.warn({ feed: this.name }, 'binance feed: message is not JSON');
      return;
    }
    if (!isRecord(message)) return;
    if (typeof message.stream === 'string' && 'data' in message) {
      this.onStreamPayload(message.stream, message.data);
    } else if (
      'id' in message &&
      ('result' in message || 'error' in message || 'code' in message)
    ) {
      this.onResponse(message);
    } else {
      this.logger.warn({ feed: this.name }, 'binance feed: unknown message');
    }
  }

  /** `{"result":null,"id":N}` acknowledges; `{"error":{code,msg},"id":N}` (or the older `{"code","msg","id"}`) refuses. */
  private onResponse(message: Record<string, unknown>): void {
    const id = message.id;
    if ('error' in message || 'code' in message) {
      const error = isRecord(message.error) ? message.error : message;
      this.logger.error(
        { feed: this.name, id, code: error.code, msg: error.msg },
        'binance feed: request refused',
      );
    } else if (message.result !== null) {
      this.logger.info({ feed: this.name, id, result: message.result }, 'binance feed: response');
    }
    if (typeof id !== 'number' || !this.pendingAcks.delete(id)) return;
    if (this.pendingAcks.size === 0 && this.unsentChunks.length === 0) this.goLive();
  }

  private onStreamPayload(stream: string, data: unknown): void {
    const at = stream.indexOf('@');
    const symbol = stream.slice(0, at);
    const kind = stream.slice(at + 1);
    const products = at > 0 ? this.bySymbol.get(symbol) : undefined;
    if (!products || !isRecord(data)) {
      this.logger.warn({ feed: this.name, stream }, 'binance feed: payload of an unknown stream');
      return;
    }
    // Data flowing before every acknowledgement is in still means the subscription works.
    if (!this.live) this.goLive();
    if (kind === 'aggTrade') this.onAggTrade(symbol, products, data);
    else if (kind.startsWith('kline_')) this.onKline(symbol, kind.slice(6), products, data);
  }

  private onAggTrade(
    symbol: string,
    products: readonly FeedProduct[],
    data: Record<string, unknown>,
  ): void {
    const id = data.a;
    const volume = quantity(data.q);
    if (
      data.e !== 'aggTrade' ||
      price(data.p) === undefined ||
      typeof id !== 'number' ||
      !Number.isSafeInteger(id) ||
      id < 0 ||
      !isTime(data.T) ||
      volume === undefined
    ) {
      this.logger.warn({ feed: this.name, symbol }, 'binance feed: malformed aggTrade dropped');
      return;
    }
    const last = this.lastTradeId.get(symbol);
    if (last !== undefined && id <= last) return; // a duplicate or a replay
    if (last !== undefined && id > last + 1) {
      const detail = `missed ${id - last - 1} trades`;
      if (this.gapReported.has(symbol))
        this.logger.info({ feed: this.name, symbol, detail }, 'binance feed: gap after reconnect');
      else for (const product of products) this.emitGap(product, detail);
    }
    this.gapReported.delete(symbol);
    this.lastTradeId.set(symbol, id);
    for (const product of products) {
      const value = price(data.p, product.priceScale);
      if (value === undefined) {
        this.logger.warn(
          { feed: this.name, symbol, price: data.p, priceScale: product.priceScale },
          'binance feed: price rounds to zero at the product scale, dropped',
        );
        continue;
      }
      this.emitTick({
        productType: product.productType,
        productCode: product.productCode,
        price: value,
        volume,
        time: data.T,
        source: this.name,
        sequence: id,
      });
    }
  }

  private onKline(
    symbol: string,
    interval: string,
    products: readonly FeedProduct[],
    data: Record<string, unknown>,
  ): void {
    const k = data.k;
    if (data.e !== 'kline' || !isRecord(k) || !isInterval(interval)) {
      this.logger.warn({ feed: this.name, symbol }, 'binance feed: malformed kline dropped');
      return;
    }
    if (k.x !== true) return; // still open: the candle is not final
    const key = `${symbol}@${interval}`;
    const last = this.lastCandleOpen.get(key);
    if (last !== undefined && isTime(k.t) && k.t <= last) return;
    for (const product of products) {
      const candle = candleOf(
        {
          openTime: k.t,
          open: k.o,
          high: k.h,
          low: k.l,
          close: k.c,
          volume: k.v,
          quoteVolume: k.q,
        },
        product.priceScale,
      );
      if (!candle) {
        this.logger.warn({ feed: this.name, symbol }, 'binance feed: malformed kline dropped');
        return;
      }
      this.lastCandleOpen.set(key, candle.openTime);
      this.call('onCandle', () => this.handlers?.onCandle?.(product, interval, candle));
    }
  }

  // --- Handlers --------------------------------------------------------------------------------

  private emitTick(tick: Tick): void {
    this.call('onTick', () => this.handlers?.onTick(tick));
  }

  private emitGap(product: FeedProduct, detail: string): void {
    this.call('onGap', () => this.handlers?.onGap?.(product, detail));
  }

  private status(status: Status, detail?: string): void {
    this.call('onStatus', () => this.handlers?.onStatus?.(status, detail));
  }

  /** A consumer's exception must not break the socket's event loop. */
  private call(handler: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.logger.error(
        { feed: this.name, handler, err: errorText(error) },
        'binance feed: handler threw',
      );
    }
  }
}

/** Closes politely, and terminates if the peer does not answer in time. */
function closeSocket(socket: WebSocket): Promise<void> {
  socket.removeAllListeners('message');
  socket.on('error', () => undefined);
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.terminate();
      resolve();
    }, CLOSE_WAIT_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
    else socket.close(1000, 'stopped');
  });
}

/**
 * The newest `depth` candles opening before `before`, oldest first: pages of at most 1,000 rows
 * read backwards with `endTime` (Binance answers the candles opening at or before it, the newest
 * `limit` of them); each page ends just before the oldest open of the one after it, until there
 * are enough or Binance has no older ones (a short or empty page).
 */
export async function pageKlinesBack(
  fetchPage: (endTime: number, limit: number) => Promise<Candle[]>,
  before: number,
  depth: number,
): Promise<Candle[]> {
  const candles: Candle[] = [];
  let endTime = before - 1;
  while (candles.length < depth) {
    const limit = Math.min(MAX_KLINES, depth - candles.length);
    const batch = await fetchPage(endTime, limit);
    const older = batch.filter((candle) => candle.openTime <= endTime);
    candles.unshift(...older);
    if (older.length < limit) break;
    endTime = older[0]!.openTime - 1;
  }
  return candles;
}

/**
 * Real history for products fed by Binance: the newest `depth` candles of every interval (the
 * charts ask for 300), read backwards through `GET /api/v3/klines` with `endTime` and `limit`, so
 * charts are full from the first minute. A product whose history cannot be read gets an empty one
 * (its charts fill as candles close) rather than made-up history next to real prices.
 */
export async function binanceHistory(
  restUrl: string,
  products: readonly FeedProduct[],
  now: number,
  { depth = 400, logger = silentLogger }: { depth?: number; logger?: FeedLogger } = {},
): Promise<Map<string, Partial<Record<CandleInterval, Candle[]>>>> {
  const histories = new Map<string, Partial<Record<CandleInterval, Candle[]>>>();
  for (const product of products) {
    const symbol = product.sourceSymbol;
    const history: Partial<Record<CandleInterval, Candle[]>> = {};
    try {
      for (const interval of CANDLE_INTERVALS) {
        // The still-open candle grows from live trades instead.
        history[interval] = await pageKlinesBack(
          (endTime, limit) =>
            fetchKlines(restUrl, symbol, interval, {
              endTime,
              limit,
              priceScale: product.priceScale,
            }),
          candleStart(interval, now),
          depth,
        );
      }
      histories.set(`${product.productType}:${product.productCode}`, history);
    } catch (error) {
      logger.warn(
        { symbol, err: error },
        'Binance history unavailable; charts fill as candles close',
      );
      histories.set(`${product.productType}:${product.productCode}`, {});
    }
  }
  return histories;
}
