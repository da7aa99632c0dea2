/**
 * The market calls: product lists by type, search, favourites, recommended products, k-lines and
 * exchange rates, all priced from the market engine (never from anything an operator typed).
 */
import {
  div,
  isPositive,
  normalize,
  type DecimalString,
  type KlineQuery,
  type LanguageKey,
  type OrderBook,
  type OrderBookQuery,
  type Product,
  type ProductListQuery,
  type ProductType,
  type ProductOptionBody,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { AppError } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import type { MarketEngine } from '../../market/engine';
import * as repo from '../../market/repo';
import type { Candle } from '../../market/types';
import type { RateSource } from '../assets';
import type { SettingsService } from '../settings';

/** A product as the lists answer it (the table's `product`). */
export type ProductView = Product;

export class QuotesService implements RateSource {
  constructor(
    private readonly db: Database,
    private readonly engine: MarketEngine,
    private readonly settings: SettingsService,
  ) {}

  private view(row: repo.ProductRow, lang: LanguageKey, favourites: Set<number>): ProductView {
    return {
      id: row.id,
      productId: row.id,
      productName: pickLanguage(row.product_name_lang, lang),
      productNameLang: row.product_name_lang,
      productCode: row.product_code,
      productDesc: row.product_desc,
      productImg: row.product_img,
      productType: row.product_type as ProductType,
      PositionType: row.position_types,
      isVisible: row.is_visible,
      sort: row.sort,
      isLock: row.is_lock,
      isShow: row.is_show,
      isSelfSell: row.is_self_sell,
      isOption: favourites.has(row.id) ? 1 : 0,
      standard: normalize(row.standard),
      priceScale: row.price_scale,
      leverages: row.leverages,
      maintenanceRate: normalize(row.maintenance_rate),
      marketOpen: this.engine.isOpen(row),
      source: this.engine.sourceOf(row),
      simulated: this.engine.isSimulated(row),
      tickerInfo: this.engine.tickerInfo(row) ?? null,
    };
  }

  private async favourites(actor: Actor | null): Promise<Set<number>> {
    return actor ? repo.favouriteProductIds(this.db, actor.userId) : new Set();
  }

  private static matches(row: repo.ProductRow, keyWords: string | undefined): boolean {
    if (!keyWords) return true;
    const needle = keyWords.toLocaleLowerCase();
    if (row.product_code.toLowerCase().includes(needle)) return true;
    return Object.values(row.product_name_lang).some((name) =>
      name.toLocaleLowerCase().includes(needle),
    );
  }

  private page(
    rows: repo.ProductRow[],
    query: ProductListQuery,
    lang: LanguageKey,
    favourites: Set<number>,
  ): { rows: ProductView[]; total: number } {
    const matching = rows.filter(
      (row) =>
        row.is_visible === 1 && row.is_show === 1 && QuotesService.matches(row, query.keyWords),
    );
    const start = (query.pageNum - 1) * query.pageSize;
    return {
      rows: matching
        .slice(start, start + query.pageSize)
        .map((row) => this.view(row, lang, favourites)),
      total: matching.length,
    };
  }

  async listByType(
    productType: number,
    query: ProductListQuery,
    lang: LanguageKey,
    actor: Actor | null,
  ) {
    const rows = this.engine.allProducts().filter((row) => row.product_type === productType);
    return this.page(rows, query, lang, await this.favourites(actor));
  }

  async recommended(query: ProductListQuery, lang: LanguageKey, actor: Actor | null) {
    const rows = this.engine
      .allProducts()
      .filter((row) => row.recommended === 1)
      .sort((a, b) => a.sort - b.sort || a.product_type - b.product_type);
    return this.page(rows, query, lang, await this.favourites(actor));
  }

  /** The user's favourites, in the order they were added. */
  async favouriteList(query: ProductListQuery, lang: LanguageKey, actor: Actor) {
    const favourites = await this.favourites(actor);
    const rows = [...favourites].flatMap((id) => {
      const row = this.engine.productById(id);
      return row ? [row] : [];
    });
    return this.page(rows, query, lang, favourites);
  }

  private resolve(body: ProductOptionBody): repo.ProductRow {
    const row = this.engine.product(body.productType, body.productCode.toUpperCase());
    if (
      !row ||
      row.is_visible !== 1 ||
      (body.productId !== undefined && body.productId !== row.id)
    ) {
      throw new AppError('hint_productUnknown', 404);
    }
    return row;
  }

  /** True when it became a favourite, false when it was one already. */
  async addOption(actor: Actor, body: ProductOptionBody): Promise<boolean> {
    const row = this.resolve(body);
    if ((await repo.countFavourites(this.db, actor.userId)) >= MAX_FAVOURITES) {
      throw new AppError('hint_tooManyFavourites', 422, [MAX_FAVOURITES]);
    }
    return repo.addFavourite(this.db, actor.userId, row.id);
  }

  async delOption(actor: Actor, body: ProductOptionBody): Promise<boolean> {
    return repo.removeFavourite(this.db, actor.userId, this.resolve(body).id);
  }

  /** Candles newest first; without `endTime` the still-growing candle is the first one. */
  async kline(query: KlineQuery): Promise<Candle[]> {
    const row = this.engine.product(query.productType, query.productCode.toUpperCase());
    if (!row || row.is_visible !== 1) throw new AppError('hint_productUnknown', 404);
    const endTime = query.endTime ?? Number.MAX_SAFE_INTEGER;
    const stored = await repo.candles(
      this.db,
      row.id,
      query.interval,
      Math.min(endTime, 8_640_000_000_000),
      query.limit,
    );
    if (query.endTime !== undefined) return stored;
    const current = this.engine.currentCandle(row, query.interval);
    if (!current) return stored;
    if (stored[0]?.openTime === current.openTime) return [current, ...stored.slice(1)];
    if (!stored[0] || stored[0].openTime < current.openTime) {
      return [current, ...stored].slice(0, query.limit);
    }
    return stored;
  }

  /** The product's order book from its feed (a simulated one for the simulated feed). */
  async orderBook(query: OrderBookQuery): Promise<OrderBook> {
    const row = this.engine.product(query.productType, query.productCode.toUpperCase());
    if (!row || row.is_visible !== 1) throw new AppError('hint_productUnknown', 404);
    return this.engine.orderBook(row, query.levels);
  }

  private currencyNames = new Map<number, string>();

  /** Learns the platform currencies' names (their markets are `<NAME>USDT`). */
  async loadCurrencies(): Promise<void> {
    const currencies = await this.settings.currencies();
    this.currencyNames = new Map(
      currencies.map((currency) => [currency.id, currency.currencyName]),
    );
  }

  private lastPrice(productType: number, code: string): DecimalString | null {
    const row = this.engine.product(productType, code);
    const price = row ? (this.engine.tickerInfo(row)?.nowPrice ?? null) : null;
    return price && isPositive(price) ? price : null;
  }

  /**
   * Units of USDT per unit of a currency, from its `<NAME>USDT` market, or for the dollar from
   * USDCUSDT (USDC is redeemable one for one in dollars; no market trades USD against USDT
   * directly). Null when the market has no price: never an assumed one.
   */
  private usdtPrice(currencyId: number): DecimalString | null {
    const name = this.currencyNames.get(currencyId);
    if (!name) return null;
    if (name === 'USDT') return '1';
    return this.lastPrice(2, `${USD_PROXY[name] ?? name}USDT`);
  }

  /** RateSource: a rate only where the market has a price, never an invented one. */
  rate(fromCurrencyId: number, toCurrencyId: number): DecimalString | null {
    if (fromCurrencyId === toCurrencyId) return '1';
    const from = this.usdtPrice(fromCurrencyId);
    const to = this.usdtPrice(toCurrencyId);
    if (!from || !to || to === '0') return null;
    return div(from, to, 18);
  }

  /** Every platform currency with its price in USDT (null when the market has none). */
  async exchangeInfo(): Promise<
    { currencyId: number; currencyName: string; rateToUsdt: DecimalString | null }[]
  > {
    await this.loadCurrencies();
    return [...this.currencyNames].map(([currencyId, currencyName]) => ({
      currencyId,
      currencyName,
      rateToUsdt: this.usdtPrice(currencyId),
    }));
  }
}

export const MAX_FAVOURITES = 200;

/**
 * Currencies without a USDT market of their own, priced by one that stands for them. (Crossing
 * EURUSDT with the EURUSD forex pair was tried: two separately fed prices drift apart, which put
 * the dollar percents away from USDT.)
 */
const USD_PROXY: Record<string, string> = { USD: 'USDC' };
