/**
 * The market-data contracts (PRODUCT section 4): what a product is, what a tick and a candle are,
 * and the interface every feed provider implements. Prices and amounts are decimal strings; no
 * price passes through a JS number on its way to a user.
 */
import type {
  Candle,
  CandleInterval,
  DecimalString,
  LanguageKey,
  ProductType,
} from '@bourse/shared';
import type { SimulatedParams } from './simulated';

/** When a product trades (PRODUCT section 4). */
export type SessionKind =
  /** 09:30–16:00 America/New_York, Monday to Friday. */
  | 'usStock'
  /** Closed from Friday 17:00 to Sunday 17:00 America/New_York. */
  | 'forex'
  /** As forex: closed from Friday 17:00 to Sunday 17:00 America/New_York. */
  | 'futures'
  /** Always open. */
  | 'crypto';

/** A product of the default catalogue, as seeded into the database. */
export interface CatalogueProduct {
  /** Unique within its product type: `AAPL`, `BTCUSDT`, `XAUUSD`, `EURUSD`. */
  code: string;
  productType: ProductType;
  /** Names in all 19 languages (proper names may stay in Latin letters where that is usual). */
  names: Record<LanguageKey, string>;
  /** A one-line description in English (shown under the name on the detail screen). */
  description: string;
  /** Decimals of the price (2 for most stocks, 5 for EURUSD, 3 for USDJPY…). */
  priceScale: number;
  /** Lot size (`standard` of the spec): the quantity step of an order, a decimal string. */
  lotSize: DecimalString;
  /** Leverage choices for contracts, ascending, e.g. [1, 2, 5, 10, 20]. */
  leverages: number[];
  /** A realistic reference price to start the simulated walk from, decimal string. */
  referencePrice: DecimalString;
  /** Annualised volatility of the simulated walk, e.g. 0.3 for 30 % (a model parameter, not money). */
  volatility: number;
  /** A realistic daily traded quantity (base units), decimal string, for simulated volumes. */
  dailyVolume: DecimalString;
  session: SessionKind;
  /** Order within its type's list (lower first). */
  sort: number;
  /** Shown on home's recommended list. */
  recommended: boolean;
  /** Exchange-style symbol of the data source when it differs from `code` (Binance: `BTCUSDT`). */
  sourceSymbol?: string;
}

/** One price observation from a feed: the evidence every fill and settlement records. */
export interface Tick {
  productType: ProductType;
  productCode: string;
  price: DecimalString;
  /** Quantity traded since the previous tick (0 when the source does not say). */
  volume: DecimalString;
  /** Milliseconds since the epoch, as the source stamped it. */
  time: number;
  /** `simulated`, `binance`… */
  source: string;
  /**
   * Identifies the tick of its product for the life of the database, with the source: the engine
   * numbers every tick the feed delivers (tick-sequence.ts), by one per product within a run of
   * the feed, and higher in every later run. What a provider puts here is replaced.
   */
  sequence: number;
}

export { CANDLE_INTERVALS, type Candle, type CandleInterval } from '@bourse/shared';

/** What a provider needs to know about each product it feeds. */
export interface FeedProduct {
  productType: ProductType;
  productCode: string;
  /** The provider's own symbol (`BTCUSDT`). */
  sourceSymbol: string;
  priceScale: number;
}

export interface FeedHandlers {
  onTick(tick: Tick): void;
  /** A closed candle the source published itself (Binance kline with x = true). */
  onCandle?(product: FeedProduct, interval: CandleInterval, candle: Candle): void;
  /** The provider lost ticks (sequence gap, reconnect); consumers re-sync from REST. */
  onGap?(product: FeedProduct, detail: string): void;
  onStatus?(status: 'connecting' | 'live' | 'reconnecting' | 'stopped', detail?: string): void;
}

/** A source of ticks. `simulated` is the embedded default; `binance` feeds real crypto. */
export interface FeedProvider {
  readonly name: string;
  /** True when prices are made up: every quote screen says so. */
  readonly simulated: boolean;
  start(products: readonly FeedProduct[], handlers: FeedHandlers): Promise<void>;
  stop(): Promise<void>;
  /** Per product, when a provider mixes sources (CompositeFeed); `simulated` otherwise. */
  isSimulated?(product: FeedProduct): boolean;
  /** Per product, the name of the source feeding it; `name` otherwise. */
  sourceOf?(product: FeedProduct): string;
  /** The product's order book from the source (read only), when the source publishes one. */
  orderBook?(product: FeedProduct, levels: number): Promise<BookSides | undefined>;
  /**
   * Whether the source can price this product's symbol: a real source, when it lists the symbol;
   * absent, what `simulated` says (a simulated feed makes up a price for any code).
   */
  knows?(product: FeedProduct): boolean;
  /** Starts learning which symbols the source lists (for `knows`), again now and then until stopped. */
  watchSymbols?(): void;
  /**
   * Starts feeding a product listed while the feed runs (a new share or coin) from now; a source
   * that makes prices up starts it at `listing.startPrice`. False when this provider cannot take it.
   */
  addProduct?(product: FeedProduct, listing: ListingStart): boolean;
}

/** How a product listed while the feed runs starts (what a simulated walk needs of it). */
export interface ListingStart {
  params: SimulatedParams;
  /** Its reference price (the offer price of a new share), or its last price after a restart. */
  startPrice: DecimalString;
}

/** Both sides of an order book, best price first; prices and amounts are decimal strings. */
export interface BookSides {
  bids: { price: DecimalString; amount: DecimalString }[];
  asks: { price: DecimalString; amount: DecimalString }[];
  time: number;
}
