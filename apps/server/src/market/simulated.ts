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
import type {
  Candle,
  CatalogueProduct,
  FeedHandlers,
  FeedProduct,
  FeedProvider,
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

export interface History {
  minute: Candle[];
  daily: Candle[];
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

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

/**
 * History so charts are full from the first minute: minute candles for the last `minuteDays`
 * days (only while the session is open), daily candles for `days` days before that (walked
 * backwards from the first minute's open) plus the days the minutes cover. Deterministic.
 */
export function generateHistory(
  params: SimulatedParams,
  seed: string,
  now: number,
  { days = 366, minuteDays = 2 } = {},
): History {
  const floor = floorOf(params);
  // Sessions close at night and at weekends: reach further back so there are about `minuteDays`
  // days of trading in the minutes.
  const reach =
    params.session === 'crypto'
      ? minuteDays
      : params.session === 'usStock'
        ? minuteDays * 3.5
        : minuteDays * 2;
  const minuteStart = Math.floor(now / MINUTE_MS) * MINUTE_MS - Math.ceil(reach * DAY_MS);

  // Minutes, forward from the reference price.
  const minute: Candle[] = [];
  let price = toMinor(params.referencePrice, params.priceScale);
  const startPrice = price;
  for (let time = minuteStart; time < Math.floor(now / MINUTE_MS) * MINUTE_MS; time += MINUTE_MS) {
    if (!isSessionOpen(params.session, time)) continue;
    const points = [price];
    for (let part = 1; part <= 4; part++) {
      price = step(params, price, 15, shock(seed, params.productCode, time, `m${part}`), floor);
      points.push(price);
    }
    const volume = volumeFor(params, 60, shock(seed, params.productCode, time, 'v'));
    minute.push(candleFrom(params, time, points, volume));
  }

  // The days the minutes cover, aggregated from them.
  const covered = new Map<number, Candle[]>();
  for (const candle of minute) {
    const day = Math.floor(candle.openTime / DAY_MS) * DAY_MS;
    covered.set(day, [...(covered.get(day) ?? []), candle]);
  }
  const recentDays = [...covered.entries()].map(([day, candles]) =>
    aggregate(params.priceScale, day, candles),
  );

  // Older days, backwards from the first minute's open: from the day before the first minute's
  // (not the window's first day, which may have closed before the window opened and would be lost).
  const firstDay = Math.floor((minute[0]?.openTime ?? minuteStart) / DAY_MS) * DAY_MS;
  const older: Candle[] = [];
  let close = startPrice;
  for (let day = firstDay - DAY_MS; day >= firstDay - days * DAY_MS; day -= DAY_MS) {
    if (params.session === 'usStock' && !isSessionOpen('usStock', day + 15 * 3600_000)) continue;
    if (params.session !== 'crypto' && params.session !== 'usStock') {
      // forex and futures: no Saturday candle
      if (new Date(day).getUTCDay() === 6) continue;
    }
    const points = [close];
    let walk = close;
    for (let part = 1; part <= 4; part++) {
      walk = step(params, walk, 21_600, shock(seed, params.productCode, day, `d${part}`), floor);
      points.push(walk);
    }
    // Walking back: this day's close is the next day's open; its open is the walk's end.
    points.reverse();
    const volume = volumeFor(params, 86_400, shock(seed, params.productCode, day, 'dv'));
    older.push(candleFrom(params, day, points, volume));
    close = walk;
  }
  older.reverse();
  return { minute, daily: [...older, ...recentDays] };
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
  private slotMs = 1000;
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
    const slots =
      this.options.spreadTicks === false
        ? 1
        : Math.max(1, Math.min(known.length, Math.floor(interval / SLOT_MS)));
    this.slotMs = interval / slots;
    const now = this.options.clock.now().getTime();
    const intervalStart = Math.floor(now / interval) * interval;
    this.fed = known.map((product, index) => {
      const key = productKey(product.productType, product.productCode);
      const params = this.params.get(key)!;
      const start = this.options.startPrices?.get(key) ?? params.referencePrice;
      this.prices.set(key, toMinor(start, params.priceScale));
      this.sequences.set(key, 0);
      const offset = Math.floor((index % slots) * this.slotMs);
      const first = intervalStart + offset;
      return {
        key,
        params,
        floor: floorOf(params),
        offset,
        next: first > now ? first : first + interval,
      };
    });
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
