/** Schemas of the market calls: product lists, favourites and k-lines. */
import { z } from 'zod';
import { PRODUCT_TYPES } from '../constants';
import { codeField, intField, optionalInt, optionalText, pageQuery, text } from './common';

/** Candle intervals of k-lines and their topics (`1m` a minute, `1M` a month). */
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** A candle on the wire: prices and amounts are decimal strings. */
export interface Candle {
  /** Start of the candle, milliseconds since the epoch (UTC boundaries; weeks start on Monday). */
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  /** Quantity traded in the candle. */
  volume: string;
  /** Value traded in the candle (quantity × price, summed). */
  amount: string;
}

/** Product lists: paging and an optional keyword (code or name in any language). */
export const productListQuery = pageQuery.extend({
  keyWords: optionalText(64),
});
export type ProductListQuery = z.infer<typeof productListQuery>;

export const productCode = text(16).refine((value) => /^[A-Za-z0-9.]{1,16}$/.test(value), {
  error: 'hint_paramInvalid',
});

/** addOption / delOption: the product by type and code (its id may come along). */
export const productOptionBody = z.object({
  productType: codeField(PRODUCT_TYPES),
  productCode,
  productId: optionalInt(1),
});
export type ProductOptionBody = z.infer<typeof productOptionBody>;

export const KLINE_MAX_LIMIT = 1000;

export const klineQuery = z.object({
  productType: codeField(PRODUCT_TYPES),
  productCode,
  interval: z.enum(CANDLE_INTERVALS, { error: 'hint_paramInvalid' }),
  limit: z.preprocess(
    (value) => (value === '' || value === undefined ? 300 : value),
    intField(1, KLINE_MAX_LIMIT),
  ),
  /** Only candles opening before this instant (milliseconds): paging back in time. */
  endTime: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(0).max(8_640_000_000_000).optional(),
  ),
});
export type KlineQuery = z.infer<typeof klineQuery>;

/** What the spec calls `tickerInfo`: a product's live figures, all decimal strings. */
export interface TickerInfo {
  nowPrice: string;
  /** Change against the previous day's close, in percent ("1.25" is +1.25 %). */
  changeRate: string;
  changePrice: string;
  dayOpen: string;
  dayClose: string;
  dayMax: string;
  dayMin: string;
  dayVolume: string;
  dayAverage: string;
  minuteOpen: string;
  minuteClose: string;
  minuteMax: string;
  minuteMin: string;
  minuteVolume: string;
  minuteAverage: string;
  prevDayOpen: string;
  prevDayClose: string;
  prevDayMax: string;
  prevDayMin: string;
  prevDayVolume: string;
  prevDayAverage: string;
  /** Value traded today. */
  tradeAmount: string;
  /** The tick behind the price: its time, source and sequence (the evidence of PRODUCT 1.2). */
  time: number;
  source: string;
  sequence: number;
}
