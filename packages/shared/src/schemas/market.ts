/** Schemas of the market calls: product lists, favourites and k-lines. */
import { z } from 'zod';
import { PRODUCT_TYPES } from '../constants';
import { codeField, intField, optionalInt, optionalText, pageQuery, text } from './common';

export const CANDLE_INTERVAL_VALUES = [
  '1m',
  '5m',
  '15m',
  '30m',
  '1h',
  '4h',
  '1d',
  '1w',
  '1M',
] as const;

/** Product lists: paging and an optional keyword (code or name in any language). */
export const productListQuery = pageQuery.extend({
  keyWords: optionalText(64),
});
export type ProductListQuery = z.infer<typeof productListQuery>;

const productCode = text(16).refine((value) => /^[A-Za-z0-9.]{1,16}$/.test(value), {
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
  interval: z.enum(CANDLE_INTERVAL_VALUES, { error: 'hint_paramInvalid' }),
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
