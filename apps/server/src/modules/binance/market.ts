/**
 * Bourse's market in Binance's shapes: the symbols (exchangeInfo), order book depth, recent
 * trades, candles and the tickers, all read from the market engine and the quotes service.
 *
 * - Symbols are products' codes. Coin-to-coin pairs (a crypto product whose coin is a wallet
 *   currency, quoted in the trade currency) trade: status TRADING (HALT while an operator halts
 *   it), LIMIT and MARKET orders, and filters from the product's settings: the tick size from its
 *   price decimals, the lot size from its lot, the minimum notional the smallest amount of the
 *   trade currency. Every other product (US stocks, futures, forex, crypto without a wallet coin)
 *   is market data only: status BREAK, no order types, so clients mark it inactive and refuse
 *   orders before sending them. Each symbol says whether its feed is simulated (`simulated`).
 * - Bourse is the counterparty of every coin-to-coin order and fills both sides at the feed's
 *   price: the tickers' bid and ask are that price. Depth is the feed's order book (made up
 *   around the price for a simulated feed), at most 20 levels a side.
 * - Recent trades are the feed's ticks (each a price, a quantity and a time, numbered by the
 *   tick's sequence), the last 500 of each product kept in memory from the time this instance
 *   started: a tape, not Bourse's fills.
 * - The 24-hour ticker is the current UTC day's figures (Bourse's day statistics), not a rolling
 *   24 hours.
 */
import {
  CANDLE_INTERVALS,
  PRODUCT_TYPE,
  POSITION_TYPE,
  lt,
  mul,
  normalize,
  toScale,
  type CandleInterval,
  type TickerInfo,
} from '@bourse/shared';
import type { Clock } from '../../lib/clock';
import type { MarketEngine } from '../../market/engine';
import type { ProductRow } from '../../market/repo';
import type { QuotesService } from '../quotes';
import type { Currency, SettingsService } from '../settings';
import { refusals } from './errors';
import type { Params } from './params';

/** Products' types in the order a symbol is looked for (a code of two types: the first). */
const TYPE_ORDER = [
  PRODUCT_TYPE.crypto,
  PRODUCT_TYPE.usStock,
  PRODUCT_TYPE.futures,
  PRODUCT_TYPE.forex,
] as const;
const TYPE_NAMES: Record<number, string> = {
  [PRODUCT_TYPE.usStock]: 'usStock',
  [PRODUCT_TYPE.crypto]: 'crypto',
  [PRODUCT_TYPE.futures]: 'futures',
  [PRODUCT_TYPE.forex]: 'forex',
};
/** The largest value Bourse stores (20 integer digits): the filters' maximum. */
const MAX_VALUE = '99999999999999999999';
/** Ticks kept per product for the trades calls. */
const TAPE_LENGTH = 500;
/** Depth levels a side Bourse's books give. */
const MAX_DEPTH = 20;
const DAY_MS = 86_400_000;
const INTERVAL_MS: Record<CandleInterval, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': DAY_MS,
  '1w': 7 * DAY_MS,
  // The longest month, for spans; a month's candle closes at the next month's start.
  '1M': 31 * DAY_MS,
};

/** A product as a Binance symbol. */
export interface SymbolInfo {
  symbol: string;
  product: ProductRow;
  base: string;
  quote: string;
  /** A coin-to-coin pair: its coin is this wallet currency. */
  coin?: Currency;
  /** The trade currency, for coin-to-coin pairs. */
  quoteCurrency?: Currency;
}

/** One tick on the tape. */
interface TapeEntry {
  id: number;
  price: string;
  quantity: string;
  time: number;
  buyerMaker: boolean;
}

/** A decimal with at least 8 decimals, as Binance writes amounts. */
export function fixed(value: string): string {
  const text = normalize(value);
  const point = text.indexOf('.');
  return point >= 0 && text.length - point - 1 > 8 ? text : toScale(text, 8);
}

function tickSize(scale: number): string {
  return scale === 0 ? '1' : `0.${'0'.repeat(scale - 1)}1`;
}

/** The open time of the candle after the one opening at `openTime`. */
function nextOpen(interval: CandleInterval, openTime: number): number {
  if (interval !== '1M') return openTime + INTERVAL_MS[interval];
  const date = new Date(openTime);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** Reads `symbols=["A","B"]`: -1100 when it is not a JSON list of symbols. */
function symbolList(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > 1000 ||
    !value.every((item) => typeof item === 'string' && /^[A-Za-z0-9._-]{1,20}$/.test(item))
  )
    throw refusals.illegalCharacters(
      'symbols',
      '^\\[("[A-Z0-9-_.]{1,20}"(,"[A-Z0-9-_.]{1,20}"){0,}){0,1}\\]$',
    );
  return value as string[];
}

export interface BinanceMarketDeps {
  engine: MarketEngine;
  quotes: QuotesService;
  settings: SettingsService;
  clock: Clock;
}

export class BinanceMarket {
  private readonly tape = new Map<number, TapeEntry[]>();

  constructor(private readonly deps: BinanceMarketDeps) {
    deps.engine.onTickEvent(({ product, tick }) => {
      let entries = this.tape.get(product.id);
      if (!entries) {
        entries = [];
        this.tape.set(product.id, entries);
      }
      const previous = entries.at(-1);
      entries.push({
        id: tick.sequence,
        price: tick.price,
        quantity: tick.volume,
        time: tick.time,
        // A tick below the last is a sale into the bid (the buyer made the market).
        buyerMaker: previous !== undefined && lt(tick.price, previous.price),
      });
      if (entries.length > TAPE_LENGTH) entries.splice(0, entries.length - TAPE_LENGTH);
    });
  }

  // ------------------------------------------------------------ symbols

  async tradeCurrency(): Promise<Currency | undefined> {
    const { settings } = this.deps;
    return settings.currency((await settings.otherValue()).default_trade_currency_id);
  }

  /** A product as a symbol, with its coin when it trades coin to coin. */
  private describe(
    product: ProductRow,
    trade: Currency | undefined,
    coins: Map<string, Currency>,
  ): SymbolInfo {
    const code = product.product_code;
    if (product.product_type === PRODUCT_TYPE.crypto && trade) {
      const quote = trade.currencyName;
      if (code.length > quote.length && code.endsWith(quote)) {
        const base = code.slice(0, -quote.length);
        const coin = coins.get(base);
        const coinToCoin = product.position_types.includes(POSITION_TYPE.coinToCoin);
        return coin && coinToCoin
          ? { symbol: code, product, base, quote, coin, quoteCurrency: trade }
          : { symbol: code, product, base, quote };
      }
    }
    if (product.product_type === PRODUCT_TYPE.forex && /^[A-Z]{6}$/.test(code))
      return { symbol: code, product, base: code.slice(0, 3), quote: code.slice(3) };
    return { symbol: code, product, base: code, quote: 'USD' };
  }

  private async context(): Promise<{ trade: Currency | undefined; coins: Map<string, Currency> }> {
    const [trade, currencies] = await Promise.all([
      this.tradeCurrency(),
      this.deps.settings.currencies(),
    ]);
    return {
      trade,
      coins: new Map(currencies.map((currency) => [currency.currencyName, currency])),
    };
  }

  /**
   * The symbol of a code: the product of the first type that has it. `visibleOnly` (market
   * data, buying) leaves out products an operator hid; a sell may name one (what a user holds
   * stays sellable). -1121 when there is none.
   */
  async symbol(code: string, visibleOnly = true): Promise<SymbolInfo> {
    const upper = code.toUpperCase();
    for (const type of TYPE_ORDER) {
      const product = this.deps.engine.product(type, upper);
      if (!product || (visibleOnly && product.is_visible !== 1)) continue;
      const { trade, coins } = await this.context();
      return this.describe(product, trade, coins);
    }
    throw refusals.symbol();
  }

  /** The symbol of a product by id (hidden ones too: orders on them are still read). */
  async symbolOf(productId: number): Promise<SymbolInfo> {
    const product = this.deps.engine.productById(productId);
    if (!product) throw new Error(`binance: unknown product ${productId}`);
    const { trade, coins } = await this.context();
    return this.describe(product, trade, coins);
  }

  /** Every visible product as a symbol, each code and each base/quote pair once. */
  async symbols(): Promise<SymbolInfo[]> {
    const { trade, coins } = await this.context();
    const ids = new Set<string>();
    const pairs = new Set<string>();
    const list: SymbolInfo[] = [];
    for (const type of TYPE_ORDER) {
      const products = this.deps.engine
        .allProducts()
        .filter((product) => product.product_type === type && product.is_visible === 1)
        .sort((a, b) => a.sort - b.sort || a.id - b.id);
      for (const product of products) {
        const info = this.describe(product, trade, coins);
        const pair = `${info.base}/${info.quote}`;
        if (ids.has(info.symbol) || pairs.has(pair)) continue;
        ids.add(info.symbol);
        pairs.add(pair);
        list.push(info);
      }
    }
    return list;
  }

  /** The symbols a call names (`symbol`, or `symbols` as a JSON list), or all of them. */
  async named(params: Params): Promise<{ list: SymbolInfo[]; all: boolean }> {
    const one = params.optional('symbol');
    const many = params.optional('symbols');
    if (one !== undefined && many !== undefined) throw refusals.badCombination();
    if (one !== undefined) return { list: [await this.symbol(one)], all: false };
    if (many !== undefined) {
      const list: SymbolInfo[] = [];
      for (const code of new Set(symbolList(many).map((item) => item.toUpperCase())))
        list.push(await this.symbol(code));
      return { list, all: false };
    }
    return { list: await this.symbols(), all: true };
  }

  /** How many symbols `symbols` names, for the weight (0: none given). */
  static countNamed(params: Params): number {
    if (params.has('symbol')) return 1;
    if (!params.has('symbols')) return 0;
    try {
      return symbolList(params.optional('symbols') ?? '[]').length;
    } catch {
      return 1;
    }
  }

  private symbolView(info: SymbolInfo) {
    const { product } = info;
    const tradable = info.coin !== undefined && info.quoteCurrency !== undefined;
    const tick = tickSize(product.price_scale);
    const lot = normalize(product.standard);
    const filters: Record<string, unknown>[] = [
      { filterType: 'PRICE_FILTER', minPrice: tick, maxPrice: MAX_VALUE, tickSize: tick },
      { filterType: 'LOT_SIZE', minQty: lot, maxQty: MAX_VALUE, stepSize: lot },
    ];
    if (tradable)
      filters.push({
        filterType: 'NOTIONAL',
        // The smallest amount of the trade currency: an order worth less rounds to nothing.
        minNotional: tickSize(info.quoteCurrency!.scale),
        applyMinToMarket: true,
        maxNotional: MAX_VALUE,
        applyMaxToMarket: false,
        avgPriceMins: 0,
      });
    return {
      symbol: info.symbol,
      status: tradable ? (product.is_lock === 1 ? 'HALT' : 'TRADING') : 'BREAK',
      baseAsset: info.base,
      baseAssetPrecision: info.coin?.scale ?? 8,
      quoteAsset: info.quote,
      quotePrecision: info.quoteCurrency?.scale ?? product.price_scale,
      quoteAssetPrecision: info.quoteCurrency?.scale ?? product.price_scale,
      baseCommissionPrecision: info.coin?.scale ?? 8,
      quoteCommissionPrecision: info.quoteCurrency?.scale ?? product.price_scale,
      orderTypes: tradable ? ['LIMIT', 'MARKET'] : [],
      icebergAllowed: false,
      ocoAllowed: false,
      otoAllowed: false,
      quoteOrderQtyMarketAllowed: tradable,
      allowTrailingStop: false,
      cancelReplaceAllowed: false,
      isSpotTradingAllowed: tradable,
      isMarginTradingAllowed: false,
      filters,
      permissions: [],
      permissionSets: tradable ? [['SPOT']] : [],
      defaultSelfTradePreventionMode: 'NONE',
      allowedSelfTradePreventionModes: ['NONE'],
      // Bourse's own: the product's market and whether its prices are made up.
      productType: TYPE_NAMES[product.product_type] ?? 'unknown',
      simulated: this.deps.engine.isSimulated(product),
    };
  }

  async exchangeInfo(params: Params) {
    params.ignore('permissions', 'showPermissionSets', 'symbolStatus');
    const { list } = await this.named(params);
    return {
      timezone: 'UTC',
      serverTime: this.deps.clock.now().getTime(),
      rateLimits: [] as unknown[],
      exchangeFilters: [] as unknown[],
      symbols: list.map((info) => this.symbolView(info)),
    };
  }

  // ------------------------------------------------------------ depth and trades

  async depth(info: SymbolInfo, limit: number) {
    const { product } = info;
    const book = await this.deps.quotes.orderBook({
      productType: product.product_type as never,
      productCode: product.product_code,
      levels: Math.min(limit, MAX_DEPTH),
    });
    const side = (levels: { price: string; amount: string }[]) =>
      levels.map((level) => [level.price, fixed(level.amount)]);
    return {
      lastUpdateId: this.deps.engine.tickerInfo(product)?.sequence ?? 0,
      bids: side(book.bids),
      asks: side(book.asks),
      simulated: book.simulated,
    };
  }

  /** The tape of a product, oldest first. */
  private entries(info: SymbolInfo): TapeEntry[] {
    return this.tape.get(info.product.id) ?? [];
  }

  trades(info: SymbolInfo, limit: number) {
    const scale = info.product.price_scale;
    return this.entries(info)
      .slice(-limit)
      .map((entry) => ({
        id: entry.id,
        price: toScale(entry.price, scale),
        qty: fixed(entry.quantity),
        quoteQty: fixed(mul(entry.price, entry.quantity)),
        time: entry.time,
        isBuyerMaker: entry.buyerMaker,
        isBestMatch: true,
      }));
  }

  aggTrades(
    info: SymbolInfo,
    filter: { fromId?: number; startTime?: number; endTime?: number },
    limit: number,
  ) {
    const scale = info.product.price_scale;
    const selected = this.entries(info).filter(
      (entry) =>
        (filter.fromId === undefined || entry.id >= filter.fromId) &&
        (filter.startTime === undefined || entry.time >= filter.startTime) &&
        (filter.endTime === undefined || entry.time <= filter.endTime),
    );
    const forward = filter.fromId !== undefined || filter.startTime !== undefined;
    return (forward ? selected.slice(0, limit) : selected.slice(-limit)).map((entry) => ({
      a: entry.id,
      p: toScale(entry.price, scale),
      q: fixed(entry.quantity),
      f: entry.id,
      l: entry.id,
      T: entry.time,
      m: entry.buyerMaker,
      M: true,
    }));
  }

  // ------------------------------------------------------------ candles

  static interval(text: string): CandleInterval {
    if (!(CANDLE_INTERVALS as readonly string[]).includes(text)) throw refusals.interval();
    return text as CandleInterval;
  }

  /**
   * Candles oldest first: from `startTime` on (the first `limit`), else the last `limit` up to
   * `endTime` (or now, with the still-growing candle).
   */
  async klines(
    info: SymbolInfo,
    interval: CandleInterval,
    range: { startTime?: number; endTime?: number },
    limit: number,
  ) {
    const { startTime, endTime } = range;
    const now = this.deps.clock.now().getTime();
    // The service reads back in time from an exclusive end.
    let end = endTime === undefined ? undefined : endTime + 1;
    if (startTime !== undefined) {
      const reach = startTime + INTERVAL_MS[interval] * limit;
      if (end === undefined || reach < end)
        end = reach > now && endTime === undefined ? undefined : reach;
    }
    const candles = await this.deps.quotes.kline({
      productType: info.product.product_type as never,
      productCode: info.product.product_code,
      interval,
      limit: startTime === undefined ? limit : 1000,
      endTime: end,
    });
    const ascending = candles
      .slice()
      .reverse()
      .filter(
        (candle) =>
          (startTime === undefined || candle.openTime >= startTime) &&
          (endTime === undefined || candle.openTime <= endTime),
      );
    const chosen = startTime === undefined ? ascending.slice(-limit) : ascending.slice(0, limit);
    const price = (value: string) => toScale(value, info.product.price_scale);
    return chosen.map((candle) => [
      candle.openTime,
      price(candle.open),
      price(candle.high),
      price(candle.low),
      price(candle.close),
      fixed(candle.volume),
      nextOpen(interval, candle.openTime) - 1,
      fixed(candle.amount),
      0,
      '0.00000000',
      '0.00000000',
      '0',
    ]);
  }

  // ------------------------------------------------------------ tickers

  private ticker(info: SymbolInfo): TickerInfo | undefined {
    return this.deps.engine.tickerInfo(info.product);
  }

  ticker24h(info: SymbolInfo, mini: boolean) {
    const ticker = this.ticker(info);
    const scale = info.product.price_scale;
    const price = (value: string | undefined) => toScale(value ?? '0', scale);
    const closeTime = ticker?.time ?? 0;
    const common = {
      symbol: info.symbol,
      openPrice: price(ticker?.dayOpen),
      highPrice: price(ticker?.dayMax),
      lowPrice: price(ticker?.dayMin),
      lastPrice: price(ticker?.nowPrice),
      volume: fixed(ticker?.dayVolume ?? '0'),
      quoteVolume: fixed(ticker?.tradeAmount ?? '0'),
      openTime: Math.floor(closeTime / DAY_MS) * DAY_MS,
      closeTime,
      firstId: -1,
      lastId: -1,
      count: 0,
    };
    if (mini) return common;
    const { symbol, ...rest } = common;
    return {
      symbol,
      priceChange: price(ticker?.changePrice),
      priceChangePercent: toScale(ticker?.changeRate ?? '0', 3),
      weightedAvgPrice: price(ticker?.dayAverage),
      prevClosePrice: price(ticker?.prevDayClose),
      lastQty: fixed(this.entries(info).at(-1)?.quantity ?? '0'),
      bidPrice: price(ticker?.nowPrice),
      bidQty: '0.00000000',
      askPrice: price(ticker?.nowPrice),
      askQty: '0.00000000',
      ...rest,
    };
  }

  tickerPrice(info: SymbolInfo) {
    return {
      symbol: info.symbol,
      price: toScale(this.ticker(info)?.nowPrice ?? '0', info.product.price_scale),
    };
  }

  bookTicker(info: SymbolInfo) {
    const price = toScale(this.ticker(info)?.nowPrice ?? '0', info.product.price_scale);
    return {
      symbol: info.symbol,
      bidPrice: price,
      bidQty: '0.00000000',
      askPrice: price,
      askQty: '0.00000000',
    };
  }

  /** The price an order at market fills at now (the last tick), or undefined before any tick. */
  lastPrice(info: SymbolInfo): string | undefined {
    const price = this.ticker(info)?.nowPrice;
    return price === undefined ? undefined : normalize(price);
  }
}
