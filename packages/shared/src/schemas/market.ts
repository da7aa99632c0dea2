/** Schemas of the market calls: product lists, favourites and k-lines. */
import { z } from 'zod';
import { PRODUCT_TYPES } from '../constants';
import { codeField, intField, optionalInt, optionalText, pageQuery, text } from './common';

/** Candle intervals of k-lines and their topics (`1m` a minute, `1M` a month). */
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** A candle on the wire: prices and amounts are decimal strings. */
export const candle = z.object({
  openTime: z
    .number()
    .int()
    .describe(
      'Start of the candle, milliseconds since the epoch (UTC boundaries; weeks start on Monday).',
    ),
  open: z.string(),
  high: z.string(),
  low: z.string(),
  close: z.string(),
  volume: z.string().describe('Quantity traded in the candle.'),
  amount: z.string().describe('Value traded in the candle (quantity × price, summed).'),
});
export type Candle = z.output<typeof candle>;

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
export const tickerInfo = z.object({
  nowPrice: z.string(),
  changeRate: z
    .string()
    .describe('Change against the previous day\'s close, in percent ("1.25" is +1.25 %).'),
  changePrice: z.string(),
  dayOpen: z.string(),
  dayClose: z.string(),
  dayMax: z.string(),
  dayMin: z.string(),
  dayVolume: z.string(),
  dayAverage: z.string(),
  minuteOpen: z.string(),
  minuteClose: z.string(),
  minuteMax: z.string(),
  minuteMin: z.string(),
  minuteVolume: z.string(),
  minuteAverage: z.string(),
  prevDayOpen: z.string(),
  prevDayClose: z.string(),
  prevDayMax: z.string(),
  prevDayMin: z.string(),
  prevDayVolume: z.string(),
  prevDayAverage: z.string(),
  tradeAmount: z.string().describe('Value traded today.'),
  time: z
    .number()
    .describe('When the tick behind the price was stamped (ms): the evidence of PRODUCT 1.2.'),
  source: z.string().describe('The feed of that tick.'),
  sequence: z.number().int().describe('The sequence of that tick in its feed.'),
});
export type TickerInfo = z.output<typeof tickerInfo>;

/** A product of the market lists, priced from the market engine. */
export const product = z.object({
  id: z.number().int(),
  productId: z.number().int().describe('The same as id.'),
  productName: z.string().describe("The name in the request's language."),
  productNameLang: z.record(z.string(), z.string()).describe('The name in every language.'),
  productCode: z.string(),
  productDesc: z.string(),
  productImg: z.string(),
  productType: z.literal(PRODUCT_TYPES).describe('1 US stock, 2 crypto, 3 futures, 4 forex.'),
  PositionType: z
    .array(z.number().int())
    .describe('Position types it allows: 0 fast, 1 contract, 2 spot, 3 coin-to-coin.'),
  isVisible: z.number().int(),
  sort: z.number().int(),
  isLock: z.number().int().describe('1 when halted: no buying or opening.'),
  isShow: z.number().int(),
  isSelfSell: z.number().int(),
  isOption: z.number().int().describe("1 when it is one of the signed-in user's favourites."),
  standard: z.string().describe('The lot: quantities are multiples of it.'),
  priceScale: z.number().int().describe('Decimals of its prices.'),
  leverages: z.array(z.number().int()).describe('Leverages a contract may take.'),
  maintenanceRate: z
    .string()
    .describe('Equity at or below entry notional × this liquidates a contract.'),
  marketOpen: z
    .boolean()
    .describe("Whether the product's session is open now (quotes move and orders are taken)."),
  source: z.string().describe('The feed behind the price.'),
  simulated: z.boolean().describe('True when the prices are made up (and labelled as such).'),
  tickerInfo: tickerInfo.nullable().describe('Null until the feed has priced it.'),
});
export type Product = z.output<typeof product>;

/** A platform currency and its price in USDT (null when the market has none). */
export const exchangeInfo = z.object({
  currencyId: z.number().int(),
  currencyName: z.string(),
  rateToUsdt: z
    .string()
    .nullable()
    .describe('Units of USDT per unit of the currency; null when the market has no price.'),
});
export type ExchangeInfo = z.output<typeof exchangeInfo>;

export const ORDER_BOOK_MAX_LEVELS = 20;

/** The order book of a product: the levels on each side nearest the price. */
export const orderBookQuery = z.object({
  productType: codeField(PRODUCT_TYPES),
  productCode,
  levels: z.preprocess(
    (value) => (value === '' || value === undefined ? 10 : value),
    intField(1, ORDER_BOOK_MAX_LEVELS),
  ),
});
export type OrderBookQuery = z.infer<typeof orderBookQuery>;

const bookLevel = z.object({
  price: z.string().describe('Price of the level, at the product’s price scale.'),
  amount: z.string().describe('Quantity resting at that price.'),
});

export const orderBook = z.object({
  simulated: z
    .boolean()
    .describe('True when the book is made up around the simulated feed’s price (labelled so).'),
  source: z.string().describe('The feed the book comes from: `simulated`, `binance`…'),
  time: z.number().int().describe('When the book was taken, milliseconds since the epoch.'),
  bids: z.array(bookLevel).describe('Buyers, best (highest) price first.'),
  asks: z.array(bookLevel).describe('Sellers, best (lowest) price first.'),
});
export type OrderBook = z.output<typeof orderBook>;
