/**
 * What Binance's order reads ask of a user's coin-to-coin orders (spot_order, position type 3)
 * that the trading service's paged list does not give: an order by its id or client order id
 * (Bourse's request id), the open ones of every pair, orders and fills after an id or within a
 * time range, oldest first. Read only: orders are placed and cancelled through the trading
 * service, never written here. Every read is bounded by its limit.
 */
import { POSITION_TYPE, SPOT_ORDER_STATUS } from '@bourse/shared';
import { allRows, firstRow, type Queryable } from '../../db/database';

export interface BinanceOrderRow {
  id: number;
  book: 'live' | 'demo';
  position_type: number;
  product_id: number;
  direction: number;
  order_type: number;
  limit_price: string | null;
  quantity: string;
  status: number;
  fill_price: string | null;
  amount: string | null;
  fee: string;
  request_id: string;
  created_at: Date;
  filled_at: Date | null;
  cancelled_at: Date | null;
}

/** Whose orders: a user's, in one book. */
export interface Owner {
  userId: number;
  book: 'live' | 'demo';
}

const COLUMNS = `id, book, position_type, product_id, direction, order_type, limit_price, quantity,
  status, fill_price, amount, fee, request_id, created_at, filled_at, cancelled_at`;
const OWN = `user_id = $1 AND book = $2 AND position_type = ${POSITION_TYPE.coinToCoin}`;

/** The user's order under a request id, in any book or kind (request ids are unique per user). */
export function findByRequestId(q: Queryable, userId: number, requestId: string) {
  return firstRow<BinanceOrderRow>(
    q,
    `SELECT ${COLUMNS} FROM spot_order WHERE user_id = $1 AND request_id = $2`,
    [userId, requestId],
  );
}

/** The user's coin-to-coin order of this book by id or by request id. */
export function findOrder(q: Queryable, owner: Owner, by: { id: number } | { requestId: string }) {
  const [column, value] = 'id' in by ? ['id', by.id] : ['request_id', by.requestId];
  return firstRow<BinanceOrderRow>(
    q,
    `SELECT ${COLUMNS} FROM spot_order WHERE ${OWN} AND ${column} = $3`,
    [owner.userId, owner.book, value],
  );
}

/** Resting orders, of one product or all (null), oldest first. */
export function openOrders(q: Queryable, owner: Owner, productId: number | null, limit: number) {
  return allRows<BinanceOrderRow>(
    q,
    `SELECT ${COLUMNS} FROM spot_order
      WHERE ${OWN} AND status = ${SPOT_ORDER_STATUS.open}
        AND ($3::int IS NULL OR product_id = $3)
      ORDER BY id LIMIT $4`,
    [owner.userId, owner.book, productId, limit],
  );
}

export interface OrderFilter {
  /** Orders from this id on, oldest first; otherwise the newest `limit`. */
  fromId?: number;
  /** Placed at or after / at or before (milliseconds). */
  startTime?: number;
  endTime?: number;
}

/** Orders of one product, oldest first: from an id or a time on, else the newest `limit`. */
export function orders(
  q: Queryable,
  owner: Owner,
  productId: number,
  filter: OrderFilter,
  limit: number,
): Promise<BinanceOrderRow[]> {
  return page(q, owner, productId, { ...filter, filled: false }, limit);
}

/**
 * Filled orders of one product (each fills once, whole: one trade per order), oldest first: of
 * one order, from a trade id or a time on, else the newest `limit`.
 */
export function fills(
  q: Queryable,
  owner: Owner,
  productId: number,
  filter: OrderFilter & { orderId?: number },
  limit: number,
): Promise<BinanceOrderRow[]> {
  return page(q, owner, productId, { ...filter, filled: true }, limit);
}

/** Orders (by the time placed) or fills (filled orders, by the time filled) of one product. */
async function page(
  q: Queryable,
  owner: Owner,
  productId: number,
  filter: OrderFilter & { orderId?: number; filled: boolean },
  limit: number,
): Promise<BinanceOrderRow[]> {
  const forward = filter.fromId !== undefined || filter.startTime !== undefined;
  const time = filter.filled ? 'filled_at' : 'created_at';
  const rows = await allRows<BinanceOrderRow>(
    q,
    `SELECT ${COLUMNS} FROM spot_order
      WHERE ${OWN} AND product_id = $3
        AND ($4::boolean IS FALSE OR status = ${SPOT_ORDER_STATUS.filled})
        AND ($5::bigint IS NULL OR id = $5)
        AND ($6::bigint IS NULL OR id >= $6)
        AND ($7::timestamptz IS NULL OR ${time} >= $7)
        AND ($8::timestamptz IS NULL OR ${time} <= $8)
      ORDER BY id ${forward ? 'ASC' : 'DESC'} LIMIT $9`,
    [
      owner.userId,
      owner.book,
      productId,
      filter.filled,
      filter.orderId ?? null,
      filter.fromId ?? null,
      dateOrNull(filter.startTime),
      dateOrNull(filter.endTime),
      limit,
    ],
  );
  return forward ? rows : rows.reverse();
}

function dateOrNull(time: number | undefined): Date | null {
  return time === undefined ? null : new Date(time);
}
