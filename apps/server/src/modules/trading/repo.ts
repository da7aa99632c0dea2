/**
 * SQL the trading books share (a product's halt, users' orders by id or request id, pages of
 * orders, cancels) and the tick log the trigger engine reads. Each book's own SQL is in
 * repo-contracts.ts, repo-fast-trade.ts and repo-spot.ts; the operators' settings in
 * repo-settings.ts.
 */
import {
  CONTRACT_STATUS,
  SPOT_ORDER_STATUS,
  type PageQuery,
  type TickEvidence,
} from '@bourse/shared';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';

/** A ledger book (ledger.Book: repos do not import the ledger). */
export type Book = 'live' | 'demo';

/** A tick's evidence as four statement parameters, in this order: price, time, source, sequence. */
export function tickParams(tick: TickEvidence): unknown[] {
  return [tick.price, tick.time, tick.source, tick.sequence];
}

/** The tables of users' orders: each row has its user, request id and hash, product, currency. */
export type OrderTable = 'fast_trade_order' | 'spot_order' | 'contract_position';

/** The tables of orders that can rest, and so be cancelled. */
export type RestingTable = 'spot_order' | 'contract_position';

export function findProductState(q: Queryable, productId: number) {
  return firstRow<{ is_lock: number; is_visible: number }>(
    q,
    'SELECT is_lock, is_visible FROM product WHERE id = $1',
    [productId],
  );
}

export function findOrderByRequestId<T>(
  q: Queryable,
  table: OrderTable,
  userId: number,
  requestId: string,
) {
  return firstRow<T>(q, `SELECT * FROM ${table} WHERE user_id = $1 AND request_id = $2`, [
    userId,
    requestId,
  ]);
}

/** The user's order with this id (any book). */
export function findOwnedOrder<T>(q: Queryable, table: OrderTable, id: number, userId: number) {
  return firstRow<T>(q, `SELECT * FROM ${table} WHERE id = $1 AND user_id = $2`, [id, userId]);
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

export function lockOrder<T>(q: Queryable, table: RestingTable, id: number) {
  return firstRow<T>(q, `SELECT * FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
}

/** The status of an order still open: resting, or a position not yet closed. */
const OPEN: Record<RestingTable, number> = {
  contract_position: CONTRACT_STATUS.open,
  spot_order: SPOT_ORDER_STATUS.open,
};

/** The orders among `ids` still open, locked in id order. */
export function lockOpenOrders<T>(q: Queryable, table: RestingTable, ids: number[]) {
  return allRows<T>(
    q,
    `SELECT * FROM ${table} WHERE id = ANY($1::bigint[]) AND status = ${OPEN[table]} ORDER BY id FOR UPDATE`,
    [ids],
  );
}

/** What a cancel sets: the cancelled status and its time (`$2`). */
const CANCELLED: Record<RestingTable, string> = {
  contract_position: `status = ${CONTRACT_STATUS.cancelled}, closed_at = $2`,
  // Nothing was charged: the fee it would have paid is no longer due.
  spot_order: `status = ${SPOT_ORDER_STATUS.cancelled}, fee = 0, cancelled_at = $2`,
};

/** Gives an order the cancelled status; returns the row as it now is. */
export function markCancelled<T>(q: Queryable, table: RestingTable, id: number, now: Date) {
  return oneRow<T>(q, `UPDATE ${table} SET ${CANCELLED[table]} WHERE id = $1 RETURNING *`, [
    id,
    now,
  ]);
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
export function firstTickReaching(
  q: Queryable,
  productId: number,
  since: number,
  before: { time: number; sequence: number },
  price: string,
  atOrBelow: boolean,
) {
  return firstRow<TickRow>(
    q,
    `SELECT ${TICK_COLUMNS} FROM market_tick
         WHERE product_id = $1 AND tick_time > $2
           AND (tick_time < $3 OR (tick_time = $3 AND sequence < $4))
           AND CASE WHEN $6 THEN price <= $5 ELSE price >= $5 END
         ORDER BY tick_time, sequence LIMIT 1`,
    [productId, since, before.time, before.sequence, price, atOrBelow],
  );
}

/** The product's logged ticks after (`time`, `sequence`), oldest first, `TICK_PAGE` at most. */
export function ticksAfter(q: Queryable, productId: number, time: number, sequence: number) {
  return allRows<TickRow>(
    q,
    `SELECT ${TICK_COLUMNS} FROM market_tick
         WHERE product_id = $1 AND (tick_time > $2 OR (tick_time = $2 AND sequence > $3))
         ORDER BY tick_time, sequence LIMIT ${TICK_PAGE}`,
    [productId, time, sequence],
  );
}
