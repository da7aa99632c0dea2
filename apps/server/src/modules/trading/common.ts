/** What every kind of order needs: its product, the trade currency, fees and the current tick. */
import type { NoticeWriter } from '../messages';
import { normalize, toScale, type LanguageKey, type TickEvidence } from '@bourse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import type { MarketEngine } from '../../market/engine';
import type { ProductRow } from '../../market/repo';
import { currencyIn, type Currency, type SettingsService } from '../settings';
import {
  findOrderByRequestId,
  findOwnedOrder,
  findProductState,
  lockOrder,
  markCancelled,
  type OrderTable,
  type RestingTable,
} from './repo';
import type { TriggerEngine } from './triggers';

/** Tells a user's open connections (private /ws topics). */
export type Notify = (
  userId: number,
  topic: 'orders' | 'positions' | 'balances',
  data: unknown,
) => void;

/** What the order books (contracts, spot and coin-to-coin; fast trades without triggers) run on. */
export interface TradingDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  market: MarketEngine;
  triggers: TriggerEngine;
  logger: FastifyBaseLogger;
  notify?: Notify;
  /** Notifications of the users' own events (fills, closes, settlements). */
  notices?: NoticeWriter;
  /** Copy trading's hooks into contract opens, closes and TP/SL changes (absent: none). */
  copyHooks?: CopyHooks;
}

/** What copy trading sees of a contract position in its hooks. */
export interface CopyHookRow {
  id: number;
  user_id: number;
  book: 'live' | 'demo';
  product_id: number;
  currency_id: number;
  status: number;
  margin: string;
  open_fee: string;
  close_fee: string | null;
  realized_pnl: string | null;
  take_profit: string | null;
  stop_loss: string | null;
  tpsl_at: number | null;
  opened_at: Date | null;
  closed_at: Date | null;
  quantity: string;
  /** A closed part split off this position by a partial close (its position stays open). */
  parent_id: number | null;
}

/**
 * Copy trading's hooks (issue 25), called INSIDE the transactions that open, close and change
 * contract positions, so that a trader's step and the queued steps of the followers commit
 * together. Trading never imports copy trading: app.ts hands these in. The hooks only write rows
 * (queued tasks, realized results of copies, the trader's closed trades); the copies themselves
 * are placed later, through this same service, by copy trading's worker.
 */
export interface CopyHooks {
  /**
   * Whether a user's contract steps may fan out (a lead trader): opens of such users go through a
   * transaction of their own (with `opened`) instead of the group commit of everyone's opens.
   */
  leads(userId: number): boolean;
  /** Positions just opened (at market, or a resting entry filled). */
  opened(tx: Queryable, rows: readonly CopyHookRow[]): Promise<void>;
  /**
   * Positions just closed (by their owner, take-profit, stop-loss, liquidation, a demo reset), and
   * parts just closed off open positions (`parent_id`: a partial close; the position, still open,
   * already holds only the rest).
   */
  closed(tx: Queryable, rows: readonly CopyHookRow[]): Promise<void>;
  /** An open position's take-profit or stop-loss just changed. */
  tpSlChanged(tx: Queryable, row: CopyHookRow): Promise<void>;
}

/** The default trade currency (USDT) in which every trade but coin-to-coin settles. */
export async function tradeCurrency(settings: SettingsService): Promise<Currency> {
  const id = (await settings.otherValue()).default_trade_currency_id;
  const currency = await settings.currency(id);
  if (!currency) throw new AppError('hint_currencyUnknown', 404);
  return currency;
}

/** The fee rate of orderFeeSetting for a product type, position type and direction (0 if none). */
export async function feeRate(
  settings: SettingsService,
  productType: number,
  positionType: number,
  direction: number,
): Promise<string> {
  const fees = await settings.fees();
  const row = fees.find(
    (fee) =>
      fee.product_type === productType &&
      fee.position_type === positionType &&
      fee.ex_type === direction,
  );
  return row ? normalize(row.fee_rate) : '0';
}

/**
 * What an order does to the user's exposure: `open` buys or opens (something new), `exit` sells
 * or closes what the user holds. A halt or a hidden product stops `open` only: it never locks what
 * a user holds (PRODUCT section 1, rule 8), so selling stays possible at the feed's price.
 */
export type OrderIntent = 'open' | 'exit';

/**
 * A product that can be traded with the position type: visible for a buy or an open, known (even
 * hidden) for a sell of what the user holds.
 */
export function tradableProduct(
  market: MarketEngine,
  productType: number,
  productCode: string,
  positionType: number,
  intent: OrderIntent = 'open',
): ProductRow {
  const product = market.product(productType, productCode);
  if (!product || (intent === 'open' && product.is_visible !== 1))
    throw new AppError('hint_productUnknown', 404);
  if (!product.position_types.includes(positionType))
    throw new AppError('hint_positionTypeUnavailable', 422);
  return product;
}

/**
 * Refuses orders outside the product's trading session, and new buying or opening on a hidden or
 * halted product (read from the database, so a halt made through another instance counts at
 * once). A sell (`exit`) goes through a halt or a hide: only the session stops it.
 */
export async function requireTradable(
  db: Queryable,
  market: MarketEngine,
  product: ProductRow,
  now: number,
  intent: OrderIntent = 'open',
): Promise<void> {
  if (intent === 'open') {
    const state = await findProductState(db, product.id);
    if (state?.is_visible !== 1) throw new AppError('hint_productUnknown', 404);
    if (state.is_lock === 1) throw new AppError('hint_productHalted', 422);
  }
  if (!market.isOpen(product, now)) throw new AppError('hint_marketClosed', 422);
}

/** Whether new buying or opening waits on the product: it is halted or hidden. */
export function stopsOpening(product: Pick<ProductRow, 'is_lock' | 'is_visible'>): boolean {
  return product.is_lock === 1 || product.is_visible !== 1;
}

/** The product's current tick: the price an order at market gets, with its evidence. */
export function currentTick(market: MarketEngine, product: ProductRow): TickEvidence {
  const ticker = market.tickerInfo(product);
  if (!ticker) throw new AppError('hint_marketClosed', 422);
  return {
    price: normalize(ticker.nowPrice),
    time: ticker.time,
    source: ticker.source,
    sequence: ticker.sequence,
  };
}

/**
 * Evidence columns of a row (`<prefix>_price`, `_time`, `_source`, `_sequence`, the price from
 * `priceColumn` when given), or null.
 */
export function evidenceOf(
  row: Record<string, unknown>,
  prefix: string,
  priceScale: number,
  toScale: (value: string, scale: number) => string,
  priceColumn = `${prefix}_price`,
): TickEvidence | null {
  const price = row[priceColumn];
  if (price === null || price === undefined) return null;
  return {
    price: toScale(String(price), priceScale),
    time: Number(row[`${prefix}_time`]),
    source: String(row[`${prefix}_source`]),
    sequence: Number(row[`${prefix}_sequence`]),
  };
}

/** What a user's order is shown with (`OrderViews`). */
export interface OrderContext {
  /** Undefined when the product is no longer known. */
  product: ProductRow | undefined;
  currency: Currency;
  /** Decimals of the currency's amounts. */
  scale: number;
  /** Decimals of the product's prices. */
  priceScale: number;
  /** The product's type, code and name in the user's language (`productLabel`). */
  label: ReturnType<typeof productLabel>;
  /** A price at the product's scale; null stays null. */
  price: (value: string | null) => string | null;
}

function orderContext(
  market: MarketEngine,
  currencies: Map<number, Currency>,
  row: { product_id: number; currency_id: number },
  lang: LanguageKey,
): OrderContext {
  const product = market.productById(row.product_id);
  const currency = currencyIn(currencies, row.currency_id);
  const priceScale = product?.price_scale ?? 8;
  return {
    product,
    currency,
    scale: currency.scale,
    priceScale,
    label: productLabel(product, lang),
    price: (value) => (value === null ? null : toScale(value, priceScale)),
  };
}

/** A product as orders and holdings name it; blank when the product is no longer known. */
export function productLabel(product: ProductRow | undefined, lang: LanguageKey) {
  return {
    productType: product?.product_type ?? 0,
    productCode: product?.product_code ?? '',
    productName: product ? pickLanguage(product.product_name_lang, lang) : '',
  };
}

/** The platform currencies by id. */
/**
 * A user's earlier order with this request id, or null; the same id with another request is
 * refused (`hint_requestIdReused`).
 */
async function rowByRequestId<T extends { request_hash: string }>(
  db: Queryable,
  table: OrderTable,
  userId: number,
  requestId: string,
  hash: string,
): Promise<T | null> {
  const row = await findOrderByRequestId<T>(db, table, userId, requestId);
  if (!row) return null;
  if (row.request_hash !== hash) throw new AppError('hint_requestIdReused', 409);
  return row;
}

/**
 * How an order book shows its rows (of `table`) to their users through `view`: one row, a user's
 * order by request id, or a page of their orders, each with its product and currency.
 */
export class OrderViews<
  Row extends { request_hash: string; product_id: number; currency_id: number },
  View,
> {
  constructor(
    private readonly deps: Pick<TradingDeps, 'db' | 'settings' | 'market'>,
    private readonly table: OrderTable,
    private readonly view: (row: Row, context: OrderContext) => View,
  ) {}

  currencies(): Promise<Map<number, Currency>> {
    return this.deps.settings.currencyMap();
  }

  /** A row with the currencies read already (`currencies`). */
  show(row: Row, currencies: Map<number, Currency>, lang: LanguageKey): View {
    return this.view(row, orderContext(this.deps.market, currencies, row, lang));
  }

  async one(row: Row, lang: LanguageKey): Promise<View> {
    return this.show(row, await this.currencies(), lang);
  }

  /** The user's order with this id (any book), or null. */
  async ownedById(userId: number, id: number, lang: LanguageKey): Promise<View | null> {
    const row = await findOwnedOrder<Row>(this.deps.db, this.table, id, userId);
    return row ? this.one(row, lang) : null;
  }

  /** The user's earlier order under this request id, or null (see `rowByRequestId`). */
  async byRequestId(
    userId: number,
    requestId: string,
    hash: string,
    lang: LanguageKey,
  ): Promise<View | null> {
    const row = await rowByRequestId<Row>(this.deps.db, this.table, userId, requestId, hash);
    return row ? this.one(row, lang) : null;
  }

  /** A page of a user's orders as the book's repo reads it (`found`), and how many match in all. */
  async page(
    found: Promise<{ rows: Row[]; total: number }>,
    lang: LanguageKey,
  ): Promise<{ rows: View[]; total: number }> {
    const [{ rows, total }, currencies] = await Promise.all([found, this.currencies()]);
    return { rows: rows.map((row) => this.show(row, currencies, lang)), total };
  }
}

/**
 * Cancels a resting order in one transaction, its row locked: one already cancelled answers as it
 * is (changed false: nothing to do), one no longer resting is refused. `release` gives back what
 * the order froze; the row then takes the cancelled status as of `now` (repo's `markCancelled`).
 */
export function cancelResting<T extends { status: number }>(
  db: Database,
  order: { table: RestingTable; id: number; resting: number; cancelled: number; now: Date },
  release: (tx: Queryable, row: T) => Promise<void>,
): Promise<{ row: T; changed: boolean }> {
  return db.transaction(async (tx) => {
    const row = (await lockOrder<T>(tx, order.table, order.id))!;
    if (row.status === order.cancelled) return { row, changed: false };
    if (row.status !== order.resting) throw new AppError('hint_orderNotResting', 409);
    await release(tx, row);
    return { row: await markCancelled<T>(tx, order.table, order.id, order.now), changed: true };
  });
}

/** Items grouped by a key, in first-seen order (one journal entry per book and currency). */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()];
}
