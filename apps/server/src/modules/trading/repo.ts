/**
 * SQL the trading books share (a product's halt, users' orders by id or request id, pages of
 * orders, cancels) and the tick log the trigger engine reads. Each book's own SQL is in
 * repo-contracts.ts, repo-fast-trade.ts and repo-spot.ts; the operators' settings in
 * repo-settings.ts.
 */
import { CONTRACT_STATUS, SPOT_ORDER_STATUS, type PageQuery } from '@bourse/shared';
import type { Queryable } from '../../db/database';
import { pageOf } from '../../db/page';

/** A ledger book (ledger.Book: repos do not import the ledger). */
export type Book = 'live' | 'demo';

/** The tables of users' orders: each row has its user, request id and hash, product, currency. */
export type OrderTable = 'fast_trade_order' | 'spot_order' | 'contract_position';

/** The tables of orders that can rest, and so be cancelled. */
export type RestingTable = 'spot_order' | 'contract_position';

export async function findProductState(
  q: Queryable,
  productId: number,
): Promise<{ is_lock: number; is_visible: number } | undefined> {
  const { rows } = await q.query<{ is_lock: number; is_visible: number }>(
    'SELECT is_lock, is_visible FROM product WHERE id = $1',
    [productId],
  );
  return rows[0];
}

export async function findOrderByRequestId<T>(
  q: Queryable,
  table: OrderTable,
  userId: number,
  requestId: string,
): Promise<T | undefined> {
  const { rows } = await q.query<T>(
    `SELECT * FROM ${table} WHERE user_id = $1 AND request_id = $2`,
    [userId, requestId],
  );
  return rows[0];
}

/** The user's order with this id (any book). */
export async function findOwnedOrder<T>(
  q: Queryable,
  table: OrderTable,
  id: number,
  userId: number,
): Promise<T | undefined> {
  const { rows } = await q.query<T>(`SELECT * FROM ${table} WHERE id = $1 AND user_id = $2`, [
    id,
    userId,
  ]);
  return rows[0];
}

/**
 * A page of the rows of `table` matching `where` (with `params`), newest first, and how many match
 * in all. For the books' repos, which build `where`.
 */
export function pageOfTable<T>(
  q: Queryable,
  table: OrderTable,
  where: string,
  params: unknown[],
  page: PageQuery,
): Promise<{ rows: T[]; total: number }> {
  return pageOf<T>(
    q,
    {
      rows: `SELECT * FROM ${table} ${where} ORDER BY id DESC`,
      count: `SELECT count(*)::int AS total FROM ${table} ${where}`,
      params,
    },
    page,
  );
}

export async function lockOrder<T>(
  q: Queryable,
  table: RestingTable,
  id: number,
): Promise<T | undefined> {
  const { rows } = await q.query<T>(`SELECT * FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
  return rows[0];
}

/** What a cancel sets: the cancelled status and its time (`$2`). */
const CANCELLED: Record<RestingTable, string> = {
  contract_position: `status = ${CONTRACT_STATUS.cancelled}, closed_at = $2`,
  // Nothing was charged: the fee it would have paid is no longer due.
  spot_order: `status = ${SPOT_ORDER_STATUS.cancelled}, fee = 0, cancelled_at = $2`,
};

/** Gives an order the cancelled status; returns the row as it now is. */
export async function markCancelled<T>(
  q: Queryable,
  table: RestingTable,
  id: number,
  now: Date,
): Promise<T> {
  const { rows } = await q.query<T>(
    `UPDATE ${table} SET ${CANCELLED[table]} WHERE id = $1 RETURNING *`,
    [id, now],
  );
  return rows[0]!;
}

// ------------------------------------------------------------ tick log (trigger engine)

/** A logged tick as read from market_tick (`TICK_COLUMNS`). */
export interface TickRow {
  tick_time: number;
  sequence: number;
  price: string;
  source: string;
}
const TICK_COLUMNS = 'tick_time, sequence, price::text AS price, source';

/** Ticks read at a time by `ticksAfter`: fewer means there are no more. */
export const TICK_PAGE = 5000;

/**
 * The product's first logged tick after `since` and before (`before.time`, `before.sequence`)
 * whose price is at or below `price` (`atOrBelow`), else at or above it.
 */
export async function firstTickReaching(
  q: Queryable,
  productId: number,
  since: number,
  before: { time: number; sequence: number },
  price: string,
  atOrBelow: boolean,
): Promise<TickRow | undefined> {
  const { rows } = await q.query<TickRow>(
    `SELECT ${TICK_COLUMNS} FROM market_tick
         WHERE product_id = $1 AND tick_time > $2
           AND (tick_time < $3 OR (tick_time = $3 AND sequence < $4))
           AND CASE WHEN $6 THEN price <= $5 ELSE price >= $5 END
         ORDER BY tick_time, sequence LIMIT 1`,
    [productId, since, before.time, before.sequence, price, atOrBelow],
  );
  return rows[0];
}

/** The product's logged ticks after (`time`, `sequence`), oldest first, `TICK_PAGE` at most. */
export async function ticksAfter(
  q: Queryable,
  productId: number,
  time: number,
  sequence: number,
): Promise<TickRow[]> {
  const { rows } = await q.query<TickRow>(
    `SELECT ${TICK_COLUMNS} FROM market_tick
         WHERE product_id = $1 AND (tick_time > $2 OR (tick_time = $2 AND sequence > $3))
         ORDER BY tick_time, sequence LIMIT ${TICK_PAGE}`,
    [productId, time, sequence],
  );
  return rows;
}
