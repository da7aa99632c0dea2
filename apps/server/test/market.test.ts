/**
 * Market data (PRODUCT section 4): the simulated feed, trading sessions, the candles of the price
 * store, and the market calls through app.inject() on a small catalogue with a fixed clock.
 *
 * Nothing here waits on real time to make prices: the feed ticks only when its clock moves, so a
 * test moves the manual clock and waits (with a timeout) for the ticks that became due.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  add,
  gt,
  gte,
  isDecimalString,
  LANGUAGE_KEYS,
  lt,
  lte,
  mul,
  normalize,
  PRODUCT_TYPE,
  scaleOf,
  sub,
  toScale,
  type DecimalString,
  type ProductType,
} from '@bourse/shared';
import { ManualClock } from '../src/lib/clock';
import { translate } from '../src/lib/i18n';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import type { TickEvent } from '../src/market/engine';
import { candleStart, PriceStore } from '../src/market/price-store';
import { positionTypesOf } from '../src/market/repo';
import { isSessionOpen } from '../src/market/sessions';
import {
  generateHistory,
  productKey,
  SimulatedFeed,
  simulatedParams,
  type History,
} from '../src/market/simulated';
import {
  CANDLE_INTERVALS,
  type Candle,
  type CandleInterval,
  type CatalogueProduct,
  type FeedProduct,
  type SessionKind,
  type Tick,
} from '../src/market/types';
import {
  advanceMarket,
  call,
  createTestApp,
  registerUser,
  type Envelope,
  type TestApp,
} from './helpers';

// ------------------------------------------------------------------------------------ fixtures

function pick(productType: ProductType, code: string): CatalogueProduct {
  const product = DEFAULT_CATALOGUE.find((p) => p.productType === productType && p.code === code);
  if (!product) throw new Error(`${code} is not in the default catalogue`);
  return product;
}

const AAPL = pick(PRODUCT_TYPE.usStock, 'AAPL');
/** Not on the recommended list. */
const MSFT = pick(PRODUCT_TYPE.usStock, 'MSFT');
const BTC = pick(PRODUCT_TYPE.crypto, 'BTCUSDT');
const ETH = pick(PRODUCT_TYPE.crypto, 'ETHUSDT');
const GOLD = pick(PRODUCT_TYPE.futures, 'GC');
const EURUSD = pick(PRODUCT_TYPE.forex, 'EURUSD');
/** Price the euro, and USDC with the dollar, in USDT. */
const EURUSDT = pick(PRODUCT_TYPE.crypto, 'EURUSDT');
const USDCUSDT = pick(PRODUCT_TYPE.crypto, 'USDCUSDT');
const CATALOGUE = [AAPL, MSFT, BTC, ETH, GOLD, EURUSD];

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

/** Wednesday 2026-11-18, 10:00 in New York (EST, UTC-5): every session is open. */
const NOW = at('2026-11-18T15:00:00Z');

const feedProduct = (product: CatalogueProduct): FeedProduct => ({
  productType: product.productType,
  productCode: product.code,
  sourceSymbol: product.sourceSymbol ?? product.code,
  priceScale: product.priceScale,
});

/**
 * Runs a simulated feed on a manual clock: after each clock move its timer fires (fake timers)
 * and produces the ticks that became due.
 */
async function runFeed(options: {
  seed: string;
  start: number;
  products: CatalogueProduct[];
  /** Clock moves, in milliseconds. */
  moves: number[];
  interval?: number;
  startPrices?: Map<string, DecimalString>;
  spread?: boolean;
}): Promise<Tick[]> {
  const interval = options.interval ?? 1000;
  const clock = new ManualClock(new Date(options.start));
  const feed = new SimulatedFeed({
    seed: options.seed,
    clock,
    params: options.products.map(simulatedParams),
    startPrices: options.startPrices,
    tickIntervalMs: interval,
    spreadTicks: options.spread ?? false,
  });
  const ticks: Tick[] = [];
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  try {
    await feed.start(options.products.map(feedProduct), { onTick: (tick) => ticks.push(tick) });
    for (const move of options.moves) {
      clock.advance(move);
      vi.advanceTimersByTime(interval);
    }
    await feed.stop();
  } finally {
    vi.useRealTimers();
  }
  return ticks;
}

const ticksOf = (ticks: Tick[], code: string) => ticks.filter((tick) => tick.productCode === code);

/** The straightforward aggregation a candle must equal: computed here, not by the code under test. */
function aggregateTicks(openTime: number, ticks: readonly Tick[]): Candle {
  let high = ticks[0]!.price;
  let low = ticks[0]!.price;
  let volume = '0';
  let amount = '0';
  for (const tick of ticks) {
    if (gt(tick.price, high)) high = tick.price;
    if (lt(tick.price, low)) low = tick.price;
    volume = add(volume, tick.volume);
    amount = add(amount, mul(tick.volume, tick.price));
  }
  return normalized({
    openTime,
    open: ticks[0]!.price,
    high,
    low,
    close: ticks[ticks.length - 1]!.price,
    volume,
    amount,
  });
}

/** Candles aggregated the same way (first open, max high, min low, last close, sums). */
function aggregateCandles(openTime: number, candles: readonly Candle[]): Candle {
  const ordered = [...candles].sort((a, b) => a.openTime - b.openTime);
  let high = ordered[0]!.high;
  let low = ordered[0]!.low;
  let volume = '0';
  let amount = '0';
  for (const candle of ordered) {
    if (gt(candle.high, high)) high = candle.high;
    if (lt(candle.low, low)) low = candle.low;
    volume = add(volume, candle.volume);
    amount = add(amount, candle.amount);
  }
  return normalized({
    openTime,
    open: ordered[0]!.open,
    high,
    low,
    close: ordered[ordered.length - 1]!.close,
    volume,
    amount,
  });
}

function normalized(candle: Candle): Candle {
  return {
    openTime: candle.openTime,
    open: normalize(candle.open),
    high: normalize(candle.high),
    low: normalize(candle.low),
    close: normalize(candle.close),
    volume: normalize(candle.volume),
    amount: normalize(candle.amount),
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

/** What is wrong with a candle: decimal strings, high >= open/close >= low, volume >= 0. */
function candleProblems(candle: Candle, label: string): string[] {
  const problems: string[] = [];
  for (const field of ['open', 'high', 'low', 'close', 'volume', 'amount'] as const) {
    if (!isDecimalString(candle[field])) problems.push(`${label} ${field} = ${candle[field]}`);
  }
  if (problems.length > 0) return problems;
  if (!gte(candle.high, candle.open) || !gte(candle.high, candle.close))
    problems.push(`${label} high ${candle.high} below open/close`);
  if (!lte(candle.low, candle.open) || !lte(candle.low, candle.close))
    problems.push(`${label} low ${candle.low} above open/close`);
  if (!gte(candle.volume, '0')) problems.push(`${label} volume ${candle.volume}`);
  return problems;
}

function expectWellFormed(candle: Candle, label: string): void {
  expect(candleProblems(candle, label)).toEqual([]);
}

// ------------------------------------------------------------------------------ the simulated feed

describe('the simulated feed', () => {
  const products = [BTC, ETH, AAPL, EURUSD, GOLD];

  it('gives the same ticks at the same instants for the same seed and start prices', async () => {
    const moves = [1000, 1000, 5000, 30_000, 500, 1500];
    const first = await runFeed({ seed: 'alpha', start: NOW, products, moves });
    const second = await runFeed({ seed: 'alpha', start: NOW, products, moves });
    expect(second).toEqual(first);
    // 39 instants, one tick per product at each (every session is open).
    expect(first).toHaveLength(39 * products.length);
    for (const product of products) {
      const own = ticksOf(first, product.code);
      expect(own.map((tick) => tick.time)).toEqual(
        Array.from({ length: 39 }, (_, i) => NOW + (i + 1) * 1000),
      );
      expect(own.map((tick) => tick.sequence)).toEqual(Array.from({ length: 39 }, (_, i) => i + 1));
      for (const tick of own) {
        expect(tick).toMatchObject({
          productType: product.productType,
          productCode: product.code,
          source: 'simulated',
        });
        expect(scaleOf(tick.price), `${product.code} ${tick.price}`).toBe(product.priceScale);
        expect(gt(tick.price, '0')).toBe(true);
        expect(isDecimalString(tick.volume)).toBe(true);
      }
      // The walk moves.
      expect(new Set(own.map((tick) => tick.price)).size).toBeGreaterThan(1);
    }
    // How the clock got there does not matter: one jump gives the same ticks as many steps.
    const jumped = await runFeed({ seed: 'alpha', start: NOW, products, moves: [39_000] });
    expect(jumped).toEqual(first);
  });

  it('spreads the products over each interval, each always in its own slot', async () => {
    const moves = Array.from({ length: 10 }, () => 1000);
    const first = await runFeed({ seed: 'alpha', start: NOW, products, moves, spread: true });
    const second = await runFeed({ seed: 'alpha', start: NOW, products, moves, spread: true });
    expect(second).toEqual(first);
    const offsets = products.map((product) => {
      const own = ticksOf(first, product.code);
      expect(own.length).toBeGreaterThanOrEqual(9);
      const slot = new Set(own.map((tick) => tick.time % 1000));
      expect(slot.size, `${product.code} keeps one slot`).toBe(1);
      // One tick per interval, a second apart.
      for (let index = 1; index < own.length; index++) {
        expect(own[index]!.time - own[index - 1]!.time).toBe(1000);
      }
      return [...slot][0]!;
    });
    expect(new Set(offsets).size).toBe(products.length);
    for (const offset of offsets) expect(offset).toBeLessThan(1000);
  });

  it('differs with another seed or other start prices', async () => {
    const moves = [20_000];
    const base = await runFeed({ seed: 'alpha', start: NOW, products: [BTC], moves });
    const otherSeed = await runFeed({ seed: 'beta', start: NOW, products: [BTC], moves });
    expect(otherSeed.map((tick) => tick.time)).toEqual(base.map((tick) => tick.time));
    expect(otherSeed.map((tick) => tick.price)).not.toEqual(base.map((tick) => tick.price));
    const otherStart = await runFeed({
      seed: 'alpha',
      start: NOW,
      products: [BTC],
      moves,
      startPrices: new Map([[productKey(BTC.productType, BTC.code), '90000.00']]),
    });
    expect(otherStart[0]!.price).not.toBe(base[0]!.price);
    expect(Number(otherStart[0]!.price)).toBeLessThan(100_000);
  });

  it('ticks faster than once a second (MARKET_TICK_MS below 1000)', async () => {
    const ticks = await runFeed({
      seed: 'alpha',
      start: NOW,
      products: [BTC, EURUSD],
      moves: [1000, 1000],
      interval: 100,
    });
    expect(ticksOf(ticks, 'BTCUSDT').map((tick) => tick.time)).toEqual(
      Array.from({ length: 20 }, (_, i) => NOW + (i + 1) * 100),
    );
    for (const tick of ticks) {
      expect(isDecimalString(tick.volume)).toBe(true);
      expect(scaleOf(tick.volume)).toBe(4);
    }
    expect(ticks.some((tick) => gt(tick.volume, '0'))).toBe(true);
  });

  it('produces no tick for a closed product: its quote freezes', async () => {
    // Saturday: only crypto trades.
    const saturday = await runFeed({
      seed: 'alpha',
      start: at('2026-11-21T15:00:00Z'),
      products,
      moves: [10_000],
    });
    expect(new Set(saturday.map((tick) => tick.productCode))).toEqual(
      new Set(['BTCUSDT', 'ETHUSDT']),
    );
    expect(saturday).toHaveLength(20);

    // Wednesday 15:59:50 New York: AAPL ticks until 15:59:59 and then stands still.
    const close = at('2026-11-18T20:59:50Z');
    const closing = await runFeed({
      seed: 'alpha',
      start: close,
      products: [AAPL, BTC],
      moves: Array<number>(20).fill(1000),
    });
    const apple = ticksOf(closing, 'AAPL');
    expect(apple.map((tick) => tick.time)).toEqual(
      Array.from({ length: 9 }, (_, i) => close + (i + 1) * 1000),
    );
    expect(ticksOf(closing, 'BTCUSDT')).toHaveLength(20);

    // Forex: Friday 16:59:59 New York is the last tick, Sunday 17:00:00 the first.
    const friday = await runFeed({
      seed: 'alpha',
      start: at('2026-11-20T21:59:55Z'),
      products: [EURUSD, GOLD],
      moves: [10_000],
    });
    for (const code of ['EURUSD', 'GC']) {
      expect(ticksOf(friday, code).at(-1)!.time).toBe(at('2026-11-20T21:59:59Z'));
      expect(ticksOf(friday, code)).toHaveLength(4);
    }
    const sunday = await runFeed({
      seed: 'alpha',
      start: at('2026-11-22T21:59:55Z'),
      products: [EURUSD],
      moves: [10_000],
    });
    expect(sunday[0]!.time).toBe(at('2026-11-22T22:00:00Z'));
    expect(sunday).toHaveLength(6);
  });
});

// ---------------------------------------------------------------------------------- history

describe('generated history', () => {
  const depth = 320;

  /** Whether a session trades at all on a UTC day (the rule of the daily history). */
  function tradesOn(session: SessionKind, day: number): boolean {
    const weekday = new Date(day).getUTCDay();
    if (session === 'usStock') return weekday !== 0 && weekday !== 6;
    if (session === 'forex' || session === 'futures') return weekday !== 6;
    return true;
  }

  /** The interval each one is made of where both reach (1w and 1M: days). */
  const FINER: Partial<Record<CandleInterval, CandleInterval>> = {
    '5m': '1m',
    '15m': '5m',
    '30m': '15m',
    '1h': '30m',
    '4h': '1h',
    '1d': '4h',
    '1w': '1d',
    '1M': '1d',
  };

  function check(product: CatalogueProduct, history: History, now: number) {
    const problems: string[] = [];
    const minute = history['1m']!;
    const lastMinute = Math.floor(now / MINUTE) * MINUTE - MINUTE;
    // Minutes: only while the session is open, every open minute up to the last one before now.
    let open = 0;
    for (let time = minute[0]!.openTime; time <= lastMinute; time += MINUTE) {
      if (isSessionOpen(product.session, time)) open += 1;
    }
    if (open !== minute.length) problems.push(`${minute.length} minutes where ${open} were open`);
    for (const candle of minute) {
      if (!isSessionOpen(product.session, candle.openTime))
        problems.push(`${product.code} minute ${new Date(candle.openTime).toISOString()} closed`);
    }
    const price = minute.at(-1)!.close;
    for (const interval of CANDLE_INTERVALS) {
      const candles = history[interval]!;
      // Enough for a chart at every interval, none in the future.
      if (candles.length < depth) problems.push(`${interval}: ${candles.length} candles`);
      // The newest candle of every interval closes where the minutes end: the live price.
      if (candles.at(-1)!.close !== price) problems.push(`${interval} ends off the last price`);
      if (candles.at(-1)!.openTime > candleStart(interval, lastMinute))
        problems.push(`${interval} after now`);
      for (const [index, candle] of candles.entries()) {
        const label = `${product.code} ${interval} ${new Date(candle.openTime).toISOString()}`;
        if (candleStart(interval, candle.openTime) !== candle.openTime)
          problems.push(`${label} not aligned`);
        const previous = candles[index - 1];
        if (previous && candle.openTime <= previous.openTime) problems.push(`${label} order`);
        // One walk: each candle opens at the previous close.
        if (previous && candle.open !== previous.close) problems.push(`${label} does not continue`);
        if (scaleOf(candle.close) !== product.priceScale) problems.push(`${label} scale`);
        if (interval === '1d' && !tradesOn(product.session, candle.openTime))
          problems.push(`${label} on a closed day`);
        problems.push(...candleProblems(candle, label));
      }
      // Where the finer interval covers a candle, the candle is made of it (a 4h candle's high is
      // the highest of its hours).
      const finer = FINER[interval];
      if (finer) {
        const parts = history[finer]!;
        const grouped = groupBy(parts, (candle) => candleStart(interval, candle.openTime));
        let compared = 0;
        for (const candle of candles) {
          if (candle.openTime < parts[0]!.openTime) continue;
          const inside = grouped.get(candle.openTime);
          if (!inside) {
            problems.push(`${interval} ${candle.openTime} has no ${finer} candles`);
            continue;
          }
          compared += 1;
          expect(normalized(candle), `${product.code} ${interval}`).toEqual(
            aggregateCandles(candle.openTime, inside),
          );
        }
        if (compared === 0) problems.push(`${interval}: nothing compared with ${finer}`);
      }
    }
    expect(problems).toEqual([]);
  }

  it('is deterministic, and another seed gives another history', () => {
    for (const product of [BTC, AAPL, EURUSD]) {
      const params = simulatedParams(product);
      const first = generateHistory(params, 'alpha', NOW, { depth });
      expect(generateHistory(params, 'alpha', NOW, { depth })).toEqual(first);
      const other = generateHistory(params, 'beta', NOW, { depth });
      for (const interval of ['1m', '1h', '1d'] as const) {
        expect(other[interval]!.map((c) => c.close)).not.toEqual(
          first[interval]!.map((c) => c.close),
        );
      }
    }
  });

  it('has the depth asked at every interval, each made of the finer one (midweek)', () => {
    for (const product of [BTC, AAPL, EURUSD, GOLD]) {
      check(product, generateHistory(simulatedParams(product), 'alpha', NOW, { depth }), NOW);
    }
  });

  it('skips the weekend for stocks and forex, not for crypto', () => {
    // Monday 2026-11-23 10:00 New York and Sunday noon.
    for (const now of [at('2026-11-23T15:00:00Z'), at('2026-11-22T17:00:00Z')]) {
      for (const product of [BTC, AAPL, EURUSD]) {
        const history = generateHistory(simulatedParams(product), 'alpha', now, { depth });
        check(product, history, now);
        const weekdays = new Set(history['1d']!.map((c) => new Date(c.openTime).getUTCDay()));
        expect(weekdays.has(6)).toBe(product.session === 'crypto');
        const hours = history['1h']!.filter((c) => !isSessionOpen(product.session, c.openTime));
        // An hour opening while closed holds the session's opening (09:30 in the 09:00 hour).
        for (const hour of hours) {
          expect(isSessionOpen(product.session, hour.openTime + 30 * MINUTE), product.code).toBe(
            true,
          );
        }
      }
    }
  });
});

// --------------------------------------------------------------------------------- sessions

describe('trading sessions (New York time)', () => {
  const cases: [string, string, Record<SessionKind, boolean>][] = [
    // Wednesday 2026-11-18, EST (UTC-5).
    [
      'Wednesday 09:29',
      '2026-11-18T14:29:00Z',
      { usStock: false, forex: true, futures: true, crypto: true },
    ],
    [
      'Wednesday 09:29:59',
      '2026-11-18T14:29:59Z',
      { usStock: false, forex: true, futures: true, crypto: true },
    ],
    [
      'Wednesday 09:30',
      '2026-11-18T14:30:00Z',
      { usStock: true, forex: true, futures: true, crypto: true },
    ],
    [
      'Wednesday 15:59',
      '2026-11-18T20:59:00Z',
      { usStock: true, forex: true, futures: true, crypto: true },
    ],
    [
      'Wednesday 16:00',
      '2026-11-18T21:00:00Z',
      { usStock: false, forex: true, futures: true, crypto: true },
    ],
    [
      'Saturday noon',
      '2026-11-21T17:00:00Z',
      { usStock: false, forex: false, futures: false, crypto: true },
    ],
    [
      'Friday 16:59',
      '2026-11-20T21:59:00Z',
      { usStock: false, forex: true, futures: true, crypto: true },
    ],
    [
      'Friday 17:00',
      '2026-11-20T22:00:00Z',
      { usStock: false, forex: false, futures: false, crypto: true },
    ],
    [
      'Sunday 16:59',
      '2026-11-22T21:59:00Z',
      { usStock: false, forex: false, futures: false, crypto: true },
    ],
    [
      'Sunday 17:00',
      '2026-11-22T22:00:00Z',
      { usStock: false, forex: true, futures: true, crypto: true },
    ],
    // Summer time (EDT, UTC-4): the same New York hours are an hour earlier in UTC.
    [
      'July Wednesday 09:29',
      '2026-07-15T13:29:00Z',
      { usStock: false, forex: true, futures: true, crypto: true },
    ],
    [
      'July Wednesday 09:30',
      '2026-07-15T13:30:00Z',
      { usStock: true, forex: true, futures: true, crypto: true },
    ],
    [
      'July Friday 17:00',
      '2026-07-17T21:00:00Z',
      { usStock: false, forex: false, futures: false, crypto: true },
    ],
  ];

  it.each(cases)('%s', (_label, iso, expected) => {
    const time = at(iso);
    const actual = Object.fromEntries(
      (Object.keys(expected) as SessionKind[]).map((session) => [
        session,
        isSessionOpen(session, time),
      ]),
    );
    expect(actual).toEqual(expected);
  });
});

// ------------------------------------------------------------------------------ candle roll-up

describe('candles of the price store', () => {
  it('puts every instant in the candle that starts at the interval boundary', () => {
    const time = at('2026-11-18T15:47:31.250Z'); // a Wednesday
    const expected: Record<CandleInterval, string> = {
      '1m': '2026-11-18T15:47:00Z',
      '5m': '2026-11-18T15:45:00Z',
      '15m': '2026-11-18T15:45:00Z',
      '30m': '2026-11-18T15:30:00Z',
      '1h': '2026-11-18T15:00:00Z',
      '4h': '2026-11-18T12:00:00Z',
      '1d': '2026-11-18T00:00:00Z',
      '1w': '2026-11-16T00:00:00Z', // the Monday
      '1M': '2026-11-01T00:00:00Z',
    };
    for (const interval of CANDLE_INTERVALS) {
      const start = candleStart(interval, time);
      expect(new Date(start).toISOString(), interval).toBe(
        new Date(expected[interval]).toISOString(),
      );
      // A boundary is its own start; the instant before it belongs to the previous candle.
      expect(candleStart(interval, start)).toBe(start);
      expect(candleStart(interval, start - 1)).toBeLessThan(start);
    }
    // Weeks start on Monday 00:00 UTC, also across a month's end.
    expect(candleStart('1w', at('2026-11-22T23:59:59.999Z'))).toBe(at('2026-11-16T00:00:00Z'));
    expect(candleStart('1w', at('2026-11-23T00:00:00Z'))).toBe(at('2026-11-23T00:00:00Z'));
    expect(candleStart('1w', at('2026-12-02T08:00:00Z'))).toBe(at('2026-11-30T00:00:00Z'));
    expect(candleStart('1w', at('2027-01-01T12:00:00Z'))).toBe(at('2026-12-28T00:00:00Z'));
    expect(new Date(candleStart('1w', at('2026-05-10T12:00:00Z'))).getUTCDay()).toBe(1);
    // Months by the calendar, leap days included.
    expect(candleStart('1M', at('2026-12-31T23:59:59.999Z'))).toBe(at('2026-12-01T00:00:00Z'));
    expect(candleStart('1M', at('2027-01-01T00:00:00Z'))).toBe(at('2027-01-01T00:00:00Z'));
    expect(candleStart('1M', at('2028-02-29T18:00:00Z'))).toBe(at('2028-02-01T00:00:00Z'));
    expect(candleStart('4h', at('2026-11-18T23:59:59Z'))).toBe(at('2026-11-18T20:00:00Z'));
  });

  it('rolls ticks up into candles equal to their plain aggregation', () => {
    // Saturday 20:00 to Tuesday 04:00 UTC: crosses days, a week (Monday 30th) and a month.
    let state = 0x2545f491;
    const random = () => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state / 2 ** 32;
    };
    const ticks: Tick[] = [];
    let time = at('2026-11-28T20:00:00Z');
    let cents = 10_000;
    for (let sequence = 1; time < at('2026-12-01T04:00:00Z'); sequence++) {
      cents = Math.max(1, cents + Math.round((random() - 0.5) * 200));
      // Decimal strings built from whole numbers: no price or volume passes through a float.
      const tenThousandths = Math.floor(random() * 50_000);
      const volume =
        random() < 0.1
          ? '0'
          : `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, '0')}`;
      ticks.push({
        productType: PRODUCT_TYPE.crypto,
        productCode: 'TESTUSDT',
        price: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
        volume,
        time,
        source: 'test',
        sequence,
      });
      time += 1000 + Math.floor(random() * 600_000);
    }
    expect(ticks.length).toBeGreaterThan(500);

    const store = new PriceStore();
    const key = productKey(PRODUCT_TYPE.crypto, 'TESTUSDT');
    store.register(key, 2);
    const seen = new Map<CandleInterval, Map<number, Candle>>(
      CANDLE_INTERVALS.map((interval) => [interval, new Map()]),
    );
    for (const tick of ticks) {
      const changed = store.apply(key, tick)!;
      for (const interval of CANDLE_INTERVALS) {
        const candle = changed[interval]!;
        expect(candle.openTime).toBe(candleStart(interval, tick.time));
        seen.get(interval)!.set(candle.openTime, candle);
      }
    }

    for (const interval of CANDLE_INTERVALS) {
      const groups = groupBy(ticks, (tick) => candleStart(interval, tick.time));
      const candles = seen.get(interval)!;
      expect([...candles.keys()], interval).toEqual([...groups.keys()]);
      for (const [openTime, group] of groups) {
        expect(normalized(candles.get(openTime)!), `${interval} ${openTime}`).toEqual(
          aggregateTicks(openTime, group),
        );
      }
    }
    expect(seen.get('1w')!.size).toBe(2);
    expect(seen.get('1M')!.size).toBe(2);
    expect(seen.get('1d')!.size).toBe(4);

    // The ticker: the last price, today's candle, and the change against yesterday's close.
    const days = [...groupBy(ticks, (tick) => candleStart('1d', tick.time)).entries()];
    const [todayStart, todayTicks] = days.at(-1)!;
    const [yesterdayStart, yesterdayTicks] = days.at(-2)!;
    const today = aggregateTicks(todayStart, todayTicks);
    const yesterday = aggregateTicks(yesterdayStart, yesterdayTicks);
    const last = ticks.at(-1)!;
    const minute = aggregateTicks(
      candleStart('1m', last.time),
      ticks.filter((tick) => candleStart('1m', tick.time) === candleStart('1m', last.time)),
    );
    const ticker = store.tickerInfo(key)!;
    expect(ticker).toMatchObject({
      nowPrice: toScale(last.price, 2),
      dayOpen: toScale(today.open, 2),
      dayMax: toScale(today.high, 2),
      dayMin: toScale(today.low, 2),
      dayClose: toScale(today.close, 2),
      dayVolume: today.volume,
      minuteOpen: toScale(minute.open, 2),
      minuteVolume: minute.volume,
      prevDayOpen: toScale(yesterday.open, 2),
      prevDayClose: toScale(yesterday.close, 2),
      prevDayMax: toScale(yesterday.high, 2),
      prevDayMin: toScale(yesterday.low, 2),
      prevDayVolume: yesterday.volume,
      changePrice: toScale(sub(last.price, yesterday.close), 2),
      tradeAmount: toScale(today.amount, 2),
      time: last.time,
      source: 'test',
      sequence: last.sequence,
    });
    expect(store.apply('2:NOPE', last)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------- the market API

const TICK_MS = 100;
let t: TestApp;

async function candleCounts(): Promise<{ candles: string; favourites: string }> {
  const { rows } = await t.db.query<{ candles: string; favourites: string }>(
    `SELECT (SELECT count(*) FROM market_candle)::text AS candles,
       (SELECT count(*) FROM user_product_option)::text AS favourites`,
  );
  return rows[0]!;
}

async function kline(query: Record<string, string>) {
  return call(t.app, 'GET', '/api/kline/list', { query });
}

/** Moves the clock and waits (5 s at most) until the feed produced the ticks that became due. */
async function advanceAndWait(ms: number): Promise<TickEvent[]> {
  return (await advanceMarket(t, ms, TICK_MS)).events;
}

const LIST_URLS: [string, ProductType][] = [
  ['/api/stockProduct/list', PRODUCT_TYPE.usStock],
  ['/api/cryptocurrencyProduct/list', PRODUCT_TYPE.crypto],
  ['/api/futuresProduct/list', PRODUCT_TYPE.futures],
  ['/api/forexProduct/list', PRODUCT_TYPE.forex],
];

const TICKER_PRICES = [
  'nowPrice',
  'changePrice',
  'dayOpen',
  'dayClose',
  'dayMax',
  'dayMin',
  'dayAverage',
  'minuteOpen',
  'minuteClose',
  'minuteMax',
  'minuteMin',
  'minuteAverage',
  'prevDayOpen',
  'prevDayClose',
  'prevDayMax',
  'prevDayMin',
  'prevDayAverage',
] as const;

describe('the market calls', () => {
  beforeAll(async () => {
    t = await createTestApp({
      env: { MARKET_FEED: 'simulated', MARKET_TICK_MS: String(TICK_MS), MARKET_SEED: 'tests' },
      clock: new ManualClock(new Date(NOW)),
      catalogue: CATALOGUE,
      history: { candles: 1100 },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lists every product type as { code, msg, rows, total } with the spec fields', async () => {
    for (const [url, productType] of LIST_URLS) {
      const { status, body } = await call(t.app, 'GET', url);
      expect(status, url).toBe(200);
      expect(Object.keys(body).sort()).toEqual(['code', 'msg', 'rows', 'total']);
      expect(body).toMatchObject({ code: 200, msg: 'hint_success' });
      const expected = CATALOGUE.filter((product) => product.productType === productType);
      expect(body.total).toBe(expected.length);
      expect(body.rows!.map((row) => row.productCode)).toEqual(expected.map((p) => p.code));
      for (const [index, row] of body.rows!.entries()) {
        const product = expected[index]!;
        expect(row).toMatchObject({
          productId: row.id,
          productName: product.names.en,
          productNameLang: product.names,
          productCode: product.code,
          productDesc: product.description,
          productImg: expect.any(String),
          productType,
          PositionType: positionTypesOf(productType),
          isVisible: 1,
          sort: product.sort,
          isLock: 0,
          isShow: 1,
          isSelfSell: 0,
          isOption: 0,
          standard: normalize(product.lotSize),
          priceScale: product.priceScale,
          leverages: product.leverages,
          marketOpen: true,
          source: 'simulated',
          simulated: true,
        });
        expect(Object.keys(row.productNameLang).sort()).toEqual([...LANGUAGE_KEYS].sort());
        const ticker = row.tickerInfo;
        for (const field of TICKER_PRICES) {
          expect(typeof ticker[field], `${product.code} ${field}`).toBe('string');
          expect(isDecimalString(ticker[field]), `${product.code} ${field}`).toBe(true);
          expect(scaleOf(ticker[field]), `${product.code} ${field}`).toBe(product.priceScale);
        }
        for (const field of ['changeRate', 'dayVolume', 'minuteVolume', 'prevDayVolume']) {
          expect(isDecimalString(ticker[field]), `${product.code} ${field}`).toBe(true);
        }
        expect(scaleOf(ticker.changeRate)).toBe(2);
        expect(isDecimalString(ticker.tradeAmount)).toBe(true);
        expect(gt(ticker.nowPrice, '0')).toBe(true);
        expect(gte(ticker.dayMax, ticker.dayMin)).toBe(true);
        // No tick yet: the price is the history's last close.
        expect(ticker).toMatchObject({ source: 'history', sequence: 0 });
      }
    }
  });

  it('names products in the language of the request', async () => {
    const { body } = await call(t.app, 'GET', '/api/cryptocurrencyProduct/list', {
      headers: { languageid: '1' },
    });
    expect(body.rows!.map((row) => row.productName)).toEqual(['比特币', '以太坊']);
  });

  it('pages the lists', async () => {
    const page = async (pageNum: string, pageSize: string) =>
      (
        await call(t.app, 'GET', '/api/stockProduct/list', {
          query: { pageNum, pageSize },
        })
      ).body;
    expect(await page('1', '1')).toMatchObject({ total: 2, rows: [{ productCode: 'AAPL' }] });
    expect(await page('2', '1')).toMatchObject({ total: 2, rows: [{ productCode: 'MSFT' }] });
    expect(await page('3', '1')).toMatchObject({ total: 2, rows: [] });
    expect((await page('1', '10')).rows).toHaveLength(2);
    const tooBig = await call(t.app, 'GET', '/api/stockProduct/list', {
      query: { pageSize: '1000' },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body).toMatchObject({ msg: 'hint_paramOutOfRange', params: ['pageSize'] });
  });

  it('searches by keyword: code or name in any language', async () => {
    const search = async (url: string, keyWords: string) =>
      (await call(t.app, 'GET', url, { query: { keyWords } })).body;
    const crypto = '/api/cryptocurrencyProduct/list';
    for (const keyWords of ['bitcoin', 'Bitcoin', 'btc', 'BTCUSDT', '比特币', '比特幣']) {
      const body = await search(crypto, keyWords);
      expect(body.total, keyWords).toBe(1);
      expect(
        body.rows!.map((row) => row.productCode),
        keyWords,
      ).toEqual(['BTCUSDT']);
    }
    expect((await search(crypto, 'usdt')).total).toBe(2);
    expect((await search(crypto, 'nothing like it')).total).toBe(0);
    expect(
      (await search('/api/stockProduct/list', '苹果')).rows!.map((r) => r.productCode),
    ).toEqual(['AAPL']);
    // A keyword searches within the list's own type only.
    expect((await search('/api/stockProduct/list', 'bitcoin')).total).toBe(0);
  });

  it('lists the recommended products for home', async () => {
    const { body } = await call(t.app, 'GET', '/api/homeRecommendProducts/list', {
      query: { pageSize: '100' },
    });
    expect(body).toMatchObject({ code: 200, msg: 'hint_success' });
    const expected = CATALOGUE.filter((product) => product.recommended)
      .sort((a, b) => a.sort - b.sort || a.productType - b.productType)
      .map((product) => product.code);
    expect(expected).not.toContain('MSFT');
    expect(body.rows!.map((row) => row.productCode)).toEqual(expected);
    expect(body.total).toBe(expected.length);
    for (const row of body.rows!) expect(isDecimalString(row.tickerInfo.nowPrice)).toBe(true);
  });

  describe('favourites', () => {
    it('need a session', async () => {
      const list = await call(t.app, 'GET', '/api/userProductOption/list');
      expect(list.status).toBe(401);
      expect(list.body).toMatchObject({ code: 401, msg: 'hint_unauthorized' });
      for (const action of ['addOption', 'delOption']) {
        const answer = await call(t.app, 'POST', `/api/userProductOption/${action}`, {
          json: { productType: 2, productCode: 'BTCUSDT' },
        });
        expect(answer.status).toBe(401);
        expect(answer.body.code).toBe(401);
      }
      const stranger = await call(t.app, 'GET', '/api/userProductOption/list', {
        token: 'not-a-session',
      });
      expect(stranger.status).toBe(401);
      expect((await candleCounts()).favourites).toBe('0');
    });

    it('are added, listed, marked, kept apart per user and removed', async () => {
      const alice = await registerUser(t.app);
      const bob = await registerUser(t.app);
      const listOf = async (token: string) =>
        (await call(t.app, 'GET', '/api/userProductOption/list', { token })).body;

      // JSON body, then a form body.
      const byJson = await call(t.app, 'POST', '/api/userProductOption/addOption', {
        token: alice.token,
        json: { productType: 2, productCode: 'BTCUSDT' },
      });
      expect(byJson.status).toBe(200);
      expect(byJson.body).toMatchObject({ code: 200, msg: 'hint_success' });
      const byForm = await call(t.app, 'POST', '/api/userProductOption/addOption', {
        token: alice.token,
        form: { productType: '1', productCode: 'aapl' },
      });
      expect(byForm.body).toMatchObject({ code: 200, msg: 'hint_success' });

      // Adding again changes nothing and says so.
      const again = await call(t.app, 'POST', '/api/userProductOption/addOption', {
        token: alice.token,
        form: { productType: '2', productCode: 'BTCUSDT' },
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ code: 200, msg: 'hint_48' });

      const mine = await listOf(alice.token);
      expect(mine).toMatchObject({ code: 200, msg: 'hint_success', total: 2 });
      expect(mine.rows!.map((row) => row.productCode)).toEqual(['BTCUSDT', 'AAPL']);
      for (const row of mine.rows!) {
        expect(row.isOption).toBe(1);
        expect(isDecimalString(row.tickerInfo.nowPrice)).toBe(true);
      }
      const cryptoFor = async (token?: string) =>
        Object.fromEntries(
          (await call(t.app, 'GET', '/api/cryptocurrencyProduct/list', { token })).body.rows!.map(
            (row) => [row.productCode, row.isOption],
          ),
        );
      expect(await cryptoFor(alice.token)).toEqual({ BTCUSDT: 1, ETHUSDT: 0 });
      expect(await cryptoFor(bob.token)).toEqual({ BTCUSDT: 0, ETHUSDT: 0 });
      expect(await cryptoFor()).toEqual({ BTCUSDT: 0, ETHUSDT: 0 });
      // An optional session that is not valid is as good as none.
      expect(await cryptoFor('not-a-session')).toEqual({ BTCUSDT: 0, ETHUSDT: 0 });
      const home = await call(t.app, 'GET', '/api/homeRecommendProducts/list', {
        token: alice.token,
        query: { pageSize: '100' },
      });
      expect(
        home.body.rows!.filter((row) => row.isOption === 1).map((row) => row.productCode),
      ).toEqual(['AAPL', 'BTCUSDT']);

      // Another user's favourites are not visible.
      expect(await listOf(bob.token)).toMatchObject({ total: 0, rows: [] });

      // Unknown products, and an id that is not the product's.
      const before = await candleCounts();
      const unknown = await call(t.app, 'POST', '/api/userProductOption/addOption', {
        token: alice.token,
        json: { productType: 2, productCode: 'NOPEUSDT' },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({
        code: 500,
        msg: 'hint_productUnknown',
        text: translate('en', 'hint_productUnknown'),
      });
      const wrongType = await call(t.app, 'POST', '/api/userProductOption/addOption', {
        token: alice.token,
        json: { productType: 1, productCode: 'BTCUSDT' },
      });
      expect(wrongType.status).toBe(404);
      const btcId = mine.rows!.find((row) => row.productCode === 'BTCUSDT').productId as number;
      const wrongId = await call(t.app, 'POST', '/api/userProductOption/addOption', {
        token: alice.token,
        json: { productType: 2, productCode: 'ETHUSDT', productId: btcId },
      });
      expect(wrongId.status).toBe(404);
      const badType = await call(t.app, 'POST', '/api/userProductOption/addOption', {
        token: alice.token,
        json: { productType: 9, productCode: 'BTCUSDT' },
      });
      expect(badType.status).toBe(400);
      expect(badType.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['productType'] });
      expect(await candleCounts()).toEqual(before);

      // Removing.
      const removed = await call(t.app, 'POST', '/api/userProductOption/delOption', {
        token: alice.token,
        json: { productType: 2, productCode: 'BTCUSDT' },
      });
      expect(removed.body).toMatchObject({ code: 200, msg: 'hint_success' });
      const removedAgain = await call(t.app, 'POST', '/api/userProductOption/delOption', {
        token: alice.token,
        form: { productType: '2', productCode: 'BTCUSDT' },
      });
      expect(removedAgain.body).toMatchObject({ code: 200, msg: 'hint_48' });
      const delUnknown = await call(t.app, 'POST', '/api/userProductOption/delOption', {
        token: alice.token,
        json: { productType: 2, productCode: 'NOPEUSDT' },
      });
      expect(delUnknown.status).toBe(404);
      expect(delUnknown.body.msg).toBe('hint_productUnknown');
      expect((await listOf(alice.token)).rows!.map((row) => row.productCode)).toEqual(['AAPL']);
      expect(await cryptoFor(alice.token)).toEqual({ BTCUSDT: 0, ETHUSDT: 0 });
    });
  });

  describe('k-lines', () => {
    it('answers every interval newest first, aligned, within the limit', async () => {
      for (const interval of CANDLE_INTERVALS) {
        const { status, body } = await kline({
          productType: '2',
          productCode: 'BTCUSDT',
          interval,
          limit: '5',
        });
        expect(status, interval).toBe(200);
        expect(body).toMatchObject({ code: 200, msg: 'hint_success' });
        const candles = body.data as Candle[];
        expect(candles.length, interval).toBeGreaterThan(0);
        expect(candles.length, interval).toBeLessThanOrEqual(5);
        // The newest is the current candle: the one holding the history's last minute.
        expect(candles[0]!.openTime, interval).toBe(candleStart(interval, NOW - MINUTE));
        for (const [index, candle] of candles.entries()) {
          expect(candleStart(interval, candle.openTime), `${interval} aligned`).toBe(
            candle.openTime,
          );
          if (index > 0) expect(candle.openTime).toBeLessThan(candles[index - 1]!.openTime);
          expectWellFormed(candle, `${interval} ${candle.openTime}`);
        }
        // Dense intervals are full.
        if (!['1w', '1M'].includes(interval)) expect(candles, interval).toHaveLength(5);
      }
    });

    it('answers 300 candles unless told otherwise', async () => {
      const { body } = await kline({ productType: '2', productCode: 'btcusdt', interval: '1m' });
      expect(body.data).toHaveLength(300);
      const all = await kline({
        productType: '2',
        productCode: 'BTCUSDT',
        interval: '1m',
        limit: '1000',
      });
      expect(all.body.data).toHaveLength(1000);
      expect(all.body.data.slice(0, 300)).toEqual(body.data);
    });

    it('pages back with endTime: strictly older candles, no overlap', async () => {
      for (const interval of CANDLE_INTERVALS) {
        const seen = new Set<number>();
        let endTime: number | undefined;
        let oldest = Number.POSITIVE_INFINITY;
        for (let page = 0; page < 4; page++) {
          const query: Record<string, string> = {
            productType: '2',
            productCode: 'BTCUSDT',
            interval,
            limit: '3',
          };
          if (endTime !== undefined) query.endTime = String(endTime);
          const candles = (await kline(query)).body.data as Candle[];
          expect(candles.length).toBeLessThanOrEqual(3);
          if (candles.length === 0) break;
          for (const candle of candles) {
            expect(candle.openTime, `${interval} page ${page}`).toBeLessThan(oldest);
            if (endTime !== undefined) expect(candle.openTime).toBeLessThan(endTime);
            expect(seen.has(candle.openTime)).toBe(false);
            seen.add(candle.openTime);
            expect(candleStart(interval, candle.openTime)).toBe(candle.openTime);
            expectWellFormed(candle, `${interval} ${candle.openTime}`);
          }
          oldest = candles.at(-1)!.openTime;
          endTime = oldest;
        }
        expect(seen.size, interval).toBeGreaterThanOrEqual(['1M'].includes(interval) ? 2 : 6);
      }
    });

    it('aggregates minutes and days into the longer intervals', async () => {
      const get = async (interval: CandleInterval, limit: number, endTime?: number) =>
        (
          await kline({
            productType: '2',
            productCode: 'BTCUSDT',
            interval,
            limit: String(limit),
            ...(endTime === undefined ? {} : { endTime: String(endTime) }),
          })
        ).body.data as Candle[];
      // 14:00–14:59: the hour and its sixty minutes.
      const hourStart = NOW - HOUR;
      const [hour] = await get('1h', 1, NOW);
      expect(hour!.openTime).toBe(hourStart);
      const minutes = await get('1m', 100, NOW);
      const inHour = minutes.filter((candle) => candle.openTime >= hourStart);
      expect(inHour).toHaveLength(60);
      expect(normalized(hour!)).toEqual(aggregateCandles(hourStart, inHour));
      for (const interval of ['5m', '15m', '30m', '4h'] as const) {
        const [candle] = await get(interval, 1, NOW);
        const start = candleStart(interval, NOW - MINUTE);
        expect(candle!.openTime, interval).toBe(start);
        const all = await get('1m', 1000, NOW);
        expect(normalized(candle!), interval).toEqual(
          aggregateCandles(
            start,
            all.filter((c) => c.openTime >= start),
          ),
        );
      }
      // This week (Monday 16th to Wednesday 18th) is its three days.
      const [week] = await get('1w', 1);
      const days = (await get('1d', 3)).filter((day) => day.openTime >= week!.openTime);
      expect(days).toHaveLength(3);
      expect(normalized(week!)).toEqual(aggregateCandles(week!.openTime, days));
    });

    it('has minutes of a stock only inside its session', async () => {
      const { body } = await kline({
        productType: '1',
        productCode: 'AAPL',
        interval: '1m',
        limit: '1000',
      });
      const candles = body.data as Candle[];
      // At least the trading day before now (Tuesday 09:30–16:00) and today's first half hour.
      expect(candles.length).toBeGreaterThanOrEqual(390 + 30);
      expect(candles[0]!.openTime).toBe(NOW - MINUTE);
      expect(candles.filter((c) => !isSessionOpen('usStock', c.openTime))).toEqual([]);
    });

    it('refuses bad input with translated keys and changes nothing', async () => {
      const before = await candleCounts();
      const base = { productType: '2', productCode: 'BTCUSDT', interval: '1m' };
      const cases: [Record<string, string>, number, string, unknown[]?][] = [
        [{ ...base, interval: 'x' }, 400, 'hint_paramInvalid', ['interval']],
        [{ ...base, interval: '' }, 400, 'hint_paramRequired', ['interval']],
        [{ ...base, limit: '0' }, 400, 'hint_paramOutOfRange', ['limit']],
        [{ ...base, limit: '5000' }, 400, 'hint_paramOutOfRange', ['limit']],
        [{ ...base, limit: 'ten' }, 400, 'hint_paramInvalid', ['limit']],
        [{ ...base, endTime: '-5' }, 400, 'hint_paramOutOfRange', ['endTime']],
        [{ ...base, productCode: 'NOPEUSDT' }, 404, 'hint_productUnknown'],
        [{ ...base, productType: '1' }, 404, 'hint_productUnknown'],
        [{ ...base, productCode: 'BTC/USDT' }, 400, 'hint_paramInvalid', ['productCode']],
        [{ ...base, productType: '9' }, 400, 'hint_paramInvalid', ['productType']],
      ];
      for (const [query, status, msg, params] of cases) {
        const label = JSON.stringify(query);
        for (const [languageid, lang] of [
          ['2', 'en'],
          ['1', 'zh'],
        ] as const) {
          const answer = await call(t.app, 'GET', '/api/kline/list', {
            query,
            headers: { languageid },
          });
          expect(answer.status, label).toBe(status);
          const expected: Partial<Envelope> = {
            code: 500,
            msg,
            text: translate(lang, msg, params ?? []),
          };
          if (params) expected.params = params;
          expect(answer.body, label).toMatchObject(expected);
          expect(answer.body.data, label).toBeUndefined();
        }
      }
      expect(await candleCounts()).toEqual(before);
    });
  });

  it('gives exchange rates from the markets, null without one', async () => {
    const { body } = await call(t.app, 'GET', '/api/currencyExchangeRate/getExchangeInfo');
    expect(body).toMatchObject({ code: 200, msg: 'hint_success' });
    const rates = Object.fromEntries(
      (body.data as { currencyName: string; rateToUsdt: string | null }[]).map((row) => [
        row.currencyName,
        row.rateToUsdt,
      ]),
    );
    const crypto = (await call(t.app, 'GET', '/api/cryptocurrencyProduct/list')).body.rows!;
    const price = (code: string) =>
      crypto.find((row) => row.productCode === code).tickerInfo.nowPrice;
    expect(rates).toEqual({
      USD: null,
      EUR: null,
      USDT: '1',
      BTC: price('BTCUSDT'),
      ETH: price('ETHUSDT'),
      USDC: null,
      BNB: null,
      SOL: null,
    });
  });

  it('keeps the candles the engine built from ticks, and prices everything from them', async () => {
    const candleAt = async (interval: CandleInterval, endTime: number) =>
      (
        (
          await kline({
            productType: '2',
            productCode: 'BTCUSDT',
            interval,
            limit: '1',
            endTime: String(endTime),
          })
        ).body.data as Candle[]
      )[0]!;
    const dayBefore = await candleAt('1d', NOW + DAY);
    expect(dayBefore.openTime).toBe(candleStart('1d', NOW));

    const events = await advanceAndWait(30_000);
    const btc = events.filter((event) => event.tick.productCode === 'BTCUSDT').map((e) => e.tick);
    // 15:00:00.1 to 15:00:30.0, every 100 ms, for every product (all sessions are open).
    expect(btc).toHaveLength(300);
    expect(events).toHaveLength(300 * CATALOGUE.length);
    expect(btc.map((tick) => tick.sequence)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));

    await t.app.services.marketEngine!.flush();
    // Read as stored (endTime leaves the engine's in-memory candle out).
    const minute = await candleAt('1m', NOW + MINUTE);
    expect(normalized(minute)).toEqual(aggregateTicks(NOW, btc));
    // The longer intervals read from the minutes: their bucket holds this one minute so far.
    for (const interval of ['5m', '15m', '30m', '1h'] as const) {
      expect(normalized(await candleAt(interval, NOW + HOUR)), interval).toEqual(
        normalized(minute),
      );
    }
    const dayAfter = await candleAt('1d', NOW + DAY);
    const ticksAggregate = aggregateTicks(dayBefore.openTime, btc);
    expect(normalized(dayAfter)).toEqual(
      aggregateCandles(dayBefore.openTime, [dayBefore, { ...ticksAggregate, openTime: NOW }]),
    );

    // Without endTime the newest candle is the engine's own, equal to the stored one now.
    const current = (
      await kline({ productType: '2', productCode: 'BTCUSDT', interval: '1m', limit: '2' })
    ).body.data as Candle[];
    expect(current[0]!.openTime).toBe(NOW);
    expect(normalized(current[0]!)).toEqual(normalized(minute));
    expect(current[1]!.openTime).toBe(NOW - MINUTE);

    // The lists and the exchange rates price from the last tick.
    const last = btc.at(-1)!;
    const row = (await call(t.app, 'GET', '/api/cryptocurrencyProduct/list')).body.rows!.find(
      (r) => r.productCode === 'BTCUSDT',
    );
    expect(row.tickerInfo).toMatchObject({
      nowPrice: toScale(last.price, 2),
      dayClose: toScale(last.price, 2),
      minuteOpen: toScale(btc[0]!.price, 2),
      time: last.time,
      source: 'simulated',
      sequence: 300,
    });
    const rates = (await call(t.app, 'GET', '/api/currencyExchangeRate/getExchangeInfo')).body
      .data as { currencyName: string; rateToUsdt: string | null }[];
    expect(rates.find((rate) => rate.currencyName === 'BTC')!.rateToUsdt).toBe(
      row.tickerInfo.nowPrice,
    );
  });
});

describe('exchange rates of the fiat currencies', () => {
  let fx: TestApp;
  beforeAll(async () => {
    fx = await createTestApp({
      env: { MARKET_FEED: 'simulated', MARKET_TICK_MS: String(TICK_MS), MARKET_SEED: 'tests' },
      clock: new ManualClock(new Date(NOW)),
      catalogue: [BTC, USDCUSDT, EURUSDT],
      history: { days: 2, minuteDays: 1 },
    });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('prices the euro by EURUSDT and the dollar by USDCUSDT, both feed prices', async () => {
    const rates = Object.fromEntries(
      (
        (await call(fx.app, 'GET', '/api/currencyExchangeRate/getExchangeInfo')).body.data as {
          currencyName: string;
          rateToUsdt: string | null;
        }[]
      ).map((row) => [row.currencyName, row.rateToUsdt]),
    );
    const crypto = (await call(fx.app, 'GET', '/api/cryptocurrencyProduct/list')).body.rows!;
    const price = (code: string) =>
      crypto.find((row) => row.productCode === code).tickerInfo.nowPrice as string;
    expect(rates).toMatchObject({
      EUR: price('EURUSDT'),
      USD: price('USDCUSDT'),
      USDC: price('USDCUSDT'),
      ETH: null,
    });
  });
});
