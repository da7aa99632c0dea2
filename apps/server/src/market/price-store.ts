/**
 * The last price of every product and what the spec calls `tickerInfo`: now price, change against
 * the previous day's close, the current day's and minute's open/high/low/close/volume/average, the
 * previous day's, and the day's traded amount. Every tick updates it; it also keeps the current
 * candle of every interval, which the k-line stream sends as it grows.
 */
import {
  add,
  div,
  gt,
  isZero,
  lt,
  mul,
  normalize,
  sub,
  toScale,
  type DecimalString,
  type TickerInfo,
} from '@bourse/shared';
import type { Candle, CandleInterval, Tick } from './types';

export interface DayStats {
  open: DecimalString;
  close: DecimalString;
  max: DecimalString;
  min: DecimalString;
  volume: DecimalString;
  /** Traded value (quantity × price). */
  amount: DecimalString;
}

export type { TickerInfo } from '@bourse/shared';

const INTERVAL_MS: Record<Exclude<CandleInterval, '1w' | '1M'>, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

/** Start of the candle of `interval` holding `time` (UTC; weeks start on Monday). */
export function candleStart(interval: CandleInterval, time: number): number {
  if (interval === '1w') {
    const day = Math.floor(time / 86_400_000) * 86_400_000;
    const weekday = (new Date(day).getUTCDay() + 6) % 7;
    return day - weekday * 86_400_000;
  }
  if (interval === '1M') {
    const date = new Date(time);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  return Math.floor(time / INTERVAL_MS[interval]) * INTERVAL_MS[interval];
}

/** A candle with one more trade in it (or a new candle when the trade opens the next one). */
export function withTrade(
  candle: Candle | undefined,
  openTime: number,
  price: DecimalString,
  volume: DecimalString,
): Candle {
  const amount = mul(volume, price);
  if (!candle || candle.openTime !== openTime) {
    return { openTime, open: price, high: price, low: price, close: price, volume, amount };
  }
  return {
    openTime,
    open: candle.open,
    high: gt(price, candle.high) ? price : candle.high,
    low: lt(price, candle.low) ? price : candle.low,
    close: price,
    volume: add(candle.volume, volume),
    amount: add(candle.amount, amount),
  };
}

function average(stats: Pick<DayStats, 'volume' | 'amount' | 'close'>, scale: number): string {
  return isZero(stats.volume) ? stats.close : toScale(div(stats.amount, stats.volume, 18), scale);
}

export interface ProductState {
  priceScale: number;
  last?: Tick;
  /** Current candle per interval. */
  candles: Partial<Record<CandleInterval, Candle>>;
  /** The previous day's candle. */
  previousDay?: Candle;
  /** tickerInfo as of the last tick, computed once for every reader. */
  ticker?: TickerInfo;
}

export class PriceStore {
  private readonly states = new Map<string, ProductState>();

  register(key: string, priceScale: number): ProductState {
    let state = this.states.get(key);
    if (!state) {
      state = { priceScale, candles: {} };
      this.states.set(key, state);
    }
    return state;
  }

  state(key: string): ProductState | undefined {
    return this.states.get(key);
  }

  /** Restores what the database kept: the current candles and the previous day. */
  restore(
    key: string,
    restored: {
      candles: Partial<Record<CandleInterval, Candle>>;
      previousDay?: Candle;
      last?: Tick;
    },
  ): void {
    const state = this.states.get(key);
    if (!state) return;
    state.candles = { ...restored.candles };
    state.previousDay = restored.previousDay;
    state.last = restored.last;
    state.ticker = undefined;
  }

  /** Applies a tick; returns the candles it changed, by interval. */
  apply(key: string, tick: Tick): Partial<Record<CandleInterval, Candle>> | undefined {
    const state = this.states.get(key);
    if (!state) return undefined;
    const price = normalize(tick.price);
    const dayStart = candleStart('1d', tick.time);
    const currentDay = state.candles['1d'];
    if (currentDay && currentDay.openTime < dayStart) state.previousDay = currentDay;
    state.last = { ...tick, price };
    state.ticker = undefined;
    const changed: Partial<Record<CandleInterval, Candle>> = {};
    for (const interval of ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const) {
      const candle = withTrade(
        state.candles[interval],
        candleStart(interval, tick.time),
        price,
        tick.volume,
      );
      state.candles[interval] = candle;
      changed[interval] = candle;
    }
    return changed;
  }

  tickerInfo(key: string): TickerInfo | undefined {
    const state = this.states.get(key);
    if (!state?.last) return undefined;
    state.ticker ??= this.computeTicker(state, state.last);
    return state.ticker;
  }

  private computeTicker(state: ProductState, last: Tick): TickerInfo {
    const scale = state.priceScale;
    const day = state.candles['1d'];
    const minute = state.candles['1m'];
    const previous = state.previousDay;
    const nowPrice = toScale(last.price, scale);
    const base = previous?.close ?? day?.open ?? nowPrice;
    const changePrice = toScale(sub(nowPrice, base), scale);
    const changeRate = isZero(base) ? '0.00' : toScale(mul(div(changePrice, base, 18), '100'), 2);
    const stats = (candle: Candle | undefined) => ({
      open: toScale(candle?.open ?? nowPrice, scale),
      close: toScale(candle?.close ?? nowPrice, scale),
      max: toScale(candle?.high ?? nowPrice, scale),
      min: toScale(candle?.low ?? nowPrice, scale),
      volume: normalize(candle?.volume ?? '0'),
      average: candle ? average(candle, scale) : nowPrice,
    });
    const d = stats(day);
    const m = stats(minute);
    const p = stats(previous);
    return {
      nowPrice,
      changeRate,
      changePrice,
      dayOpen: d.open,
      dayClose: d.close,
      dayMax: d.max,
      dayMin: d.min,
      dayVolume: d.volume,
      dayAverage: d.average,
      minuteOpen: m.open,
      minuteClose: m.close,
      minuteMax: m.max,
      minuteMin: m.min,
      minuteVolume: m.volume,
      minuteAverage: m.average,
      prevDayOpen: p.open,
      prevDayClose: p.close,
      prevDayMax: p.max,
      prevDayMin: p.min,
      prevDayVolume: p.volume,
      prevDayAverage: p.average,
      tradeAmount: toScale(day?.amount ?? '0', scale),
      time: last.time,
      source: last.source,
      sequence: last.sequence,
    };
  }
}
