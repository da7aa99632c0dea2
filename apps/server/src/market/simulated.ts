/**
 * The simulated feed, the embedded default (PRODUCT section 4). Prices walk at random with each
 * product's volatility, but the randomness is a hash of (seed, product, time): the same seed and
 * starting price give the same prices at the same instants, on any machine and after a restart.
 * Prices are whole multiples of the product's price step (bigint arithmetic); the JS numbers here
 * are only the model's random shocks, never a price shown to anyone.
 * Outside a product's session no tick is produced: its quote freezes.
 */
import type { DecimalString } from '@bourse/shared';
import type { Clock } from '../lib/clock';
import { isSessionOpen } from './sessions';
import { candleStart } from './price-store';
import type {
  BookSides,
  Candle,
  CandleInterval,
  CatalogueProduct,
  FeedHandlers,
  FeedProduct,
  FeedProvider,
  ListingStart,
  SessionKind,
} from './types';

export interface SimulatedParams {
  productType: number;
  productCode: string;
  priceScale: number;
  referencePrice: DecimalString;
  volatility: number;
  dailyVolume: DecimalString;
  session: SessionKind;
}

export function simulatedParams(product: CatalogueProduct): SimulatedParams {
  return {
    productType: product.productType,
    productCode: product.code,
    priceScale: product.priceScale,
    referencePrice: product.referencePrice,
    volatility: product.volatility,
    dailyVolume: product.dailyVolume,
    session: product.session,
  };
}

// ------------------------------------------------------------------ exact price arithmetic

/** "123.45" at scale 2 -> 12345n (extra decimals are cut). */
export function toMinor(value: DecimalString, scale: number): bigint {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const digits = `${whole}${fraction.padEnd(scale, '0').slice(0, scale)}`;
  const minor = BigInt(digits === '' ? '0' : digits);
  return negative ? -minor : minor;
}

/** 12345n at scale 2 -> "123.45". */
export function fromMinor(minor: bigint, scale: number): DecimalString {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const text =
    scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

// ------------------------------------------------------------------ deterministic randomness

/** 32-bit FNV-1a of a string, then mixed (murmur3 finalizer). */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A standard normal shock that depends only on its inputs (Box–Muller over two hashes). */
export function shock(seed: string, code: string, instant: number, salt = ''): number {
  const u1 = (hash32(`${seed}|${code}|${instant}|a${salt}`) + 1) / 4294967297;
  const u2 = hash32(`${seed}|${code}|${instant}|b${salt}`) / 4294967296;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

const SECONDS_PER_YEAR = 365 * 24 * 3600;

/**
 * One step of the walk: the next price in minor units after `seconds` of trading. It never goes
 * below one price step, nor below a hundredth of the reference price (a toy market must not
 * collapse to zero).
 */
export function step(
  params: SimulatedParams,
  priceMinor: bigint,
  seconds: number,
  z: number,
  floorMinor: bigint,
): bigint {
  const sigma = params.volatility * Math.sqrt(seconds / SECONDS_PER_YEAR);
  const move = BigInt(Math.round(Number(priceMinor) * sigma * z));
  const next = priceMinor + move;
  return next < floorMinor ? floorMinor : next;
}

function floorOf(params: SimulatedParams): bigint {
  const floor = toMinor(params.referencePrice, params.priceScale) / 100n;
  return floor > 1n ? floor : 1n;
}

/** A random traded quantity for `seconds` of trading, at 4 decimals. */
function volumeFor(params: SimulatedParams, seconds: number, z: number): DecimalString {
  const perSecond = toMinor(params.dailyVolume, 4) / 86400n;
  const factor = BigInt(Math.max(0, Math.round(1000 * Math.exp(0.5 * z))));
  // Counted in milliseconds: a tick interval under a second (MARKET_TICK_MS=100) is 0.1 s, which
  // BigInt() refuses. Whole seconds give the same quantities as before.
  const millis = BigInt(Math.round(seconds * 1000));
  return fromMinor((perSecond * millis * factor) / 1_000_000n, 4);
}

// ------------------------------------------------------------------ history

/** Stored candles of every interval, oldest first. */
export type History = Partial<Record<CandleInterval, Candle[]>>;

/** Candles of every interval a fresh product gets (the charts ask for 300 at a time). */
export const HISTORY_DEPTH = 400;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Intervals from the finest up: each is made of the one before it (1w and 1M of days). */
const CHAIN: readonly CandleInterval[] = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'];

/** Approximate length of a candle (exact below a week). */
const LENGTH_MS: Record<CandleInterval, number> = {
  '1m': MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': DAY_MS,
  '1w': 7 * DAY_MS,
  '1M': 30 * DAY_MS,
};

/** The start of the candle of `interval` before the one starting at `openTime`. */
function previousStart(interval: CandleInterval, openTime: number): number {
  if (interval === '1M') {
    const date = new Date(openTime);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1);
  }
  return openTime - LENGTH_MS[interval];
}

/** Whether a candle of `interval` starting at `openTime` has any trading in it. */
function trades(session: SessionKind, interval: CandleInterval, openTime: number): boolean {
  if (interval === '1w' || interval === '1M') return true;
  if (interval === '1d') {
    if (session === 'usStock') return isSessionOpen('usStock', openTime + 15 * 3600_000);
    // forex and futures: no Saturday candle
    if (session !== 'crypto') return new Date(openTime).getUTCDay() !== 6;
    return true;
  }
  const length = LENGTH_MS[interval];
  const spacing = Math.max(MINUTE_MS, length / 16);
  for (let time = openTime; time < openTime + length; time += spacing) {
    if (isSessionOpen(session, time)) return true;
  }
  return false;
}

function candleFrom(
  params: SimulatedParams,
  openTime: number,
  points: bigint[],
  volume: DecimalString,
): Candle {
  const scale = params.priceScale;
  let high = points[0]!;
  let low = points[0]!;
  for (const point of points) {
    if (point > high) high = point;
    if (point < low) low = point;
  }
  const close = points[points.length - 1]!;
  const volumeMinor = toMinor(volume, 4);
  return {
    openTime,
    open: fromMinor(points[0]!, scale),
    high: fromMinor(high, scale),
    low: fromMinor(low, scale),
    close: fromMinor(close, scale),
    volume,
    amount: fromMinor((volumeMinor * close) / 10_000n, scale),
  };
}

/** Candles of a coarser interval made of finer ones (oldest first), by the bucket they fall in. */
function aggregateInto(
  scale: number,
  interval: CandleInterval,
  finer: readonly Candle[],
): Candle[] {
  const buckets = new Map<number, Candle[]>();
  for (const candle of finer) {
    const start = candleStart(interval, candle.openTime);
    const bucket = buckets.get(start);
    if (bucket) bucket.push(candle);
    else buckets.set(start, [candle]);
  }
  return [...buckets].map(([start, candles]) => aggregate(scale, start, candles));
}

/**
 * History so charts are full from the first minute: at least `depth` candles of every interval.
 * The minutes walk forward from the reference price up to now (only while the session is open),
 * so the live feed continues from the last minute's close. Each coarser interval is the
 * aggregation of the finer one where that reaches (a 4h candle's high is the highest of its
 * hours), then walks backwards from the oldest open until it has `depth` candles: from one
 * interval to the next only a few hundred candles are made, not a year of minutes. Deterministic.
 */
export function generateHistory(
  params: SimulatedParams,
  seed: string,
  now: number,
  { depth = HISTORY_DEPTH }: { depth?: number } = {},
): History {
  const floor = floorOf(params);
  const scale = params.priceScale;

  // The newest `depth` open minutes before the current one, forward from the reference price.
  const currentMinute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const times: number[] = [];
  for (
    let time = currentMinute - MINUTE_MS;
    times.length < depth && time > currentMinute - 30 * DAY_MS;
    time -= MINUTE_MS
  ) {
    if (isSessionOpen(params.session, time)) times.push(time);
  }
  times.reverse();
  const minute: Candle[] = [];
  let price = toMinor(params.referencePrice, params.priceScale);
  for (const time of times) {
    const points = [price];
    for (let part = 1; part <= 4; part++) {
      price = step(params, price, 15, shock(seed, params.productCode, time, `m${part}`), floor);
      points.push(price);
    }
    const volume = volumeFor(params, 60, shock(seed, params.productCode, time, 'v'));
    minute.push(candleFrom(params, time, points, volume));
  }

  const history: History = { '1m': minute };
  const extend = (interval: CandleInterval, finer: readonly Candle[]): Candle[] => {
    const made = aggregateInto(scale, interval, finer);
    const older: Candle[] = [];
    let close = toMinor(made[0]?.open ?? params.referencePrice, scale);
    const length = LENGTH_MS[interval];
    let start = previousStart(interval, candleStart(interval, made[0]?.openTime ?? now));
    // A bounded search: a session is never closed for more than a few days in a row.
    for (let tries = 0; made.length + older.length < depth && tries < depth * 8; tries++) {
      if (trades(params.session, interval, start)) {
        const points = [close];
        let walk = close;
        for (let part = 1; part <= 4; part++) {
          const z = shock(seed, params.productCode, start, `${interval}${part}`);
          walk = step(params, walk, length / 4000, z, floor);
          points.push(walk);
        }
        // Walking back: this candle's close is the next one's open; its open is the walk's end.
        points.reverse();
        const volume = volumeFor(
          params,
          length / 1000,
          shock(seed, params.productCode, start, `${interval}v`),
        );
        older.push(candleFrom(params, start, points, volume));
        close = walk;
      }
      start = previousStart(interval, start);
    }
    return [...older.reverse(), ...made];
  };
  for (let index = 1; index < CHAIN.length; index++) {
    history[CHAIN[index]!] = extend(CHAIN[index]!, history[CHAIN[index - 1]!]!);
  }
  history['1w'] = extend('1w', history['1d']!);
  history['1M'] = extend('1M', history['1d']!);
  return history;
}

/** Several candles as one (the first open, the highest high, the lowest low, the last close). */
export function aggregate(scale: number, openTime: number, candles: readonly Candle[]): Candle {
  let high = toMinor(candles[0]!.high, scale);
  let low = toMinor(candles[0]!.low, scale);
  let volume = 0n;
  let amount = 0n;
  for (const candle of candles) {
    const candleHigh = toMinor(candle.high, scale);
    const candleLow = toMinor(candle.low, scale);
    if (candleHigh > high) high = candleHigh;
    if (candleLow < low) low = candleLow;
    volume += toMinor(candle.volume, 8);
    amount += toMinor(candle.amount, 8);
  }
  return {
    openTime,
    open: candles[0]!.open,
    high: fromMinor(high, scale),
    low: fromMinor(low, scale),
    close: candles[candles.length - 1]!.close,
    volume: trimZeros(fromMinor(volume, 8)),
    amount: trimZeros(fromMinor(amount, 8)),
  };
}

function trimZeros(value: DecimalString): DecimalString {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

// ------------------------------------------------------------------ simulated order book

/**
 * A made-up order book around the feed's price, for the simulated feed only (and labelled so):
 * `levels` a side, one price step of about 0.02 % apart (at least the product's smallest step),
 * amounts drawn from the seed, the product and the second, so it changes as the market moves but
 * never depends on anything an operator does. The best bid is below the price, the best ask above.
 */
export function simulatedBook(
  params: SimulatedParams,
  seed: string,
  price: DecimalString,
  time: number,
  levels: number,
): BookSides {
  const scale = params.priceScale;
  const mid = toMinor(price, scale);
  const step = mid / 5000n > 1n ? mid / 5000n : 1n;
  const second = Math.floor(time / 1000);
  const perLevel = toMinor(params.dailyVolume, 4) / 2000n;
  const side = (sign: 1n | -1n, salt: string) =>
    Array.from({ length: levels }, (_, index) => {
      const z = shock(seed, params.productCode, second, `${salt}${index}`);
      const factor = BigInt(Math.max(50, Math.round(1000 * Math.exp(0.6 * z) * (1 + index / 4))));
      const amount = (perLevel * factor) / 1000n;
      return {
        price: fromMinor(mid + sign * step * BigInt(index + 1), scale),
        amount: trimZeros(fromMinor(amount > 0n ? amount : 1n, 4)),
      };
    }).filter((level) => toMinor(level.price, scale) > 0n);
  return { bids: side(-1n, 'b'), asks: side(1n, 'a'), time };
}

// ------------------------------------------------------------------ the live feed

export interface SimulatedFeedOptions {
  seed: string;
  clock: Clock;
  params: readonly SimulatedParams[];
  /** Where each product's walk continues from (its last stored price); else its reference. */
  startPrices?: ReadonlyMap<string, DecimalString>;
  tickIntervalMs?: number;
  /** Spread the products' ticks over the interval (default) or tick all at its start. */
  spreadTicks?: boolean;
}

export const productKey = (productType: number, productCode: string) =>
  `${productType}:${productCode}`;

interface FedProduct {
  key: string;
  params: SimulatedParams;
  floor: bigint;
  /** Where in each interval this product ticks (milliseconds after the interval starts). */
  offset: number;
  /** The instant of its next tick. */
  next: number;
}

/** Products tick in slots spread over the interval (at most one slot per 10 ms). */
const SLOT_MS = 10;

export class SimulatedFeed implements FeedProvider {
  readonly name = 'simulated';
  readonly simulated = true;
  private timer: NodeJS.Timeout | undefined;
  private readonly prices = new Map<string, bigint>();
  private readonly sequences = new Map<string, number>();
  private readonly params = new Map<string, SimulatedParams>();
  private fed: FedProduct[] = [];
  private interval = 1000;
  private slots = 1;
  private slotMs = 1000;
  private started = false;
  private stopped = false;

  constructor(private readonly options: SimulatedFeedOptions) {
    for (const params of options.params) {
      this.params.set(productKey(params.productType, params.productCode), params);
    }
  }

  /**
   * Every product ticks once per interval, but not all at the same instant: like a real market,
   * their ticks are spread over the interval in slots, each product always in the same one. So no
   * instant carries every product's tick at once (which would delay the last of them).
   */
  async start(products: readonly FeedProduct[], handlers: FeedHandlers): Promise<void> {
    const interval = (this.interval = this.options.tickIntervalMs ?? 1000);
    const known = products.filter((product) =>
      this.params.has(productKey(product.productType, product.productCode)),
    );
    const slots = (this.slots =
      this.options.spreadTicks === false
        ? 1
        : Math.max(1, Math.min(known.length, Math.floor(interval / SLOT_MS))));
    this.slotMs = interval / slots;
    const now = this.options.clock.now().getTime();
    this.fed = [];
    for (const product of known) {
      const key = productKey(product.productType, product.productCode);
      const params = this.params.get(key)!;
      this.fed.push(this.fedProduct(key, params, this.options.startPrices?.get(key), now));
    }
    this.started = true;
    handlers.onStatus?.('live');
    // Each run is timed to a slot boundary, and a tick is stamped with its slot's instant: a tick's
    // time is when it left (what the fan-out benchmark measures against).
    const run = () => {
      if (this.stopped) return;
      this.tick(handlers);
      this.schedule(run);
    };
    this.schedule(run);
  }

  /** A product's place in the walk: its price from `start` (else its reference), its slot. */
  private fedProduct(
    key: string,
    params: SimulatedParams,
    start: DecimalString | undefined,
    now: number,
  ): FedProduct {
    this.prices.set(key, toMinor(start ?? params.referencePrice, params.priceScale));
    this.sequences.set(key, 0);
    const offset = Math.floor((this.fed.length % this.slots) * this.slotMs);
    const first = Math.floor(now / this.interval) * this.interval + offset;
    return {
      key,
      params,
      floor: floorOf(params),
      offset,
      next: first > now ? first : first + this.interval,
    };
  }

  /**
   * A product listed while the feed runs (a new share or coin): its walk starts at the start
   * price (its offer price), its first tick at its slot's next instant, with no history before
   * that. Before the feed starts, it is fed from the start when it is among the products.
   */
  addProduct(product: FeedProduct, listing: ListingStart): boolean {
    if (this.stopped) return false;
    const key = productKey(product.productType, product.productCode);
    if (this.fed.some((fed) => fed.key === key)) return true;
    this.params.set(key, listing.params);
    if (!this.started) return true;
    const now = this.options.clock.now().getTime();
    this.fed.push(this.fedProduct(key, listing.params, listing.startPrice, now));
    return true;
  }

  private schedule(run: () => void): void {
    const now = this.options.clock.now().getTime();
    const wait = Math.max(1, Math.ceil(this.slotMs - (now % this.slotMs)));
    this.timer = setTimeout(run, wait);
    this.timer.unref();
  }

  /** Produces the ticks due up to now (one per product per interval while its session is open). */
  tick(handlers: FeedHandlers): void {
    const now = this.options.clock.now().getTime();
    const interval = this.interval;
    const due: { time: number; product: FedProduct }[] = [];
    for (const product of this.fed) {
      const { params } = product;
      // After a pause (a stopped clock, a busy machine) at most one minute is caught up;
      // consumers hear of the ticks that were skipped.
      const oldest = now - 60_000;
      if (product.next < oldest) {
        const skipped = Math.ceil((oldest - product.next) / interval);
        product.next += skipped * interval;
        handlers.onGap?.(
          {
            productType: params.productType as FeedProduct['productType'],
            productCode: params.productCode,
            sourceSymbol: params.productCode,
            priceScale: params.priceScale,
          },
          `skipped ${skipped} ticks after a pause`,
        );
      }
      for (; product.next <= now; product.next += interval)
        due.push({ time: product.next, product });
    }
    // In time order across products, as they would have happened.
    due.sort((a, b) => a.time - b.time);
    for (const { time, product } of due) {
      const { key, params, floor } = product;
      if (!isSessionOpen(params.session, time)) continue;
      const z = shock(this.options.seed, params.productCode, time);
      const price = step(params, this.prices.get(key)!, interval / 1000, z, floor);
      this.prices.set(key, price);
      const sequence = (this.sequences.get(key) ?? 0) + 1;
      this.sequences.set(key, sequence);
      handlers.onTick({
        productType: params.productType as FeedProduct['productType'],
        productCode: params.productCode,
        price: fromMinor(price, params.priceScale),
        volume: volumeFor(params, interval / 1000, shock(this.options.seed, key, time, 'v')),
        time,
        source: this.name,
        sequence,
      });
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.stopped = true;
  }
}
