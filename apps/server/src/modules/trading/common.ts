/** What every kind of order needs: its product, the trade currency, fees and the current tick. */
import { normalize, type TickEvidence, type PageQuery } from '@bourse/shared';
import type { Queryable } from '../../db/database';
import { AppError } from '../../lib/errors';
import type { MarketEngine } from '../../market/engine';
import type { ProductRow } from '../../market/repo';
import type { Currency, SettingsService } from '../settings';

/** Tells a user's open connections (private /ws topics). */
export type Notify = (
  userId: number,
  topic: 'orders' | 'positions' | 'balances',
  data: unknown,
) => void;

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
    const { rows } = await db.query<{ is_lock: number; is_visible: number }>(
      'SELECT is_lock, is_visible FROM product WHERE id = $1',
      [product.id],
    );
    if (rows[0]?.is_visible !== 1) throw new AppError('hint_productUnknown', 404);
    if (rows[0].is_lock === 1) throw new AppError('hint_productHalted', 422);
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

/** A page of a user's orders (newest first) and how many there are in all. */
export async function pagedRows<T>(
  db: Queryable,
  table: string,
  where: string,
  params: unknown[],
  page: PageQuery,
): Promise<{ rows: T[]; total: number }> {
  const next = params.length + 1;
  const [{ rows }, { rows: count }] = await Promise.all([
    db.query<T>(
      `SELECT * FROM ${table} ${where} ORDER BY id DESC LIMIT $${next} OFFSET $${next + 1}`,
      [...params, page.pageSize, (page.pageNum - 1) * page.pageSize],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${table} ${where}`, params),
  ]);
  return { rows, total: count[0]?.total ?? 0 };
}

/** The platform currencies by id. */
export async function currencyMap(settings: SettingsService): Promise<Map<number, Currency>> {
  return new Map((await settings.currencies()).map((currency) => [currency.id, currency]));
}

/**
 * A user's earlier order with this request id, or null; the same id with another request is
 * refused (`hint_requestIdReused`).
 */
export async function rowByRequestId<T extends { request_hash: string }>(
  db: Queryable,
  table: string,
  userId: number,
  requestId: string,
  hash: string,
): Promise<T | null> {
  const { rows } = await db.query<T>(
    `SELECT * FROM ${table} WHERE user_id = $1 AND request_id = $2`,
    [userId, requestId],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.request_hash !== hash) throw new AppError('hint_requestIdReused', 409);
  return row;
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
