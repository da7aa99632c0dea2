/** SQL of spot and coin-to-coin orders (spot_order) and the holdings they fill (holding). */
import { SPOT_ORDER_STATUS, type PageQuery, type TickEvidence } from '@bourse/shared';
import { unnestParams } from '../../db/columns';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import { pageOfTable, tickParams, type Book } from './repo';

export interface SpotOrderRow {
  id: number;
  order_no: string;
  user_id: number;
  book: Book;
  position_type: number;
  product_id: number;
  currency_id: number;
  direction: number;
  order_type: number;
  limit_price: string | null;
  quantity: string;
  hold_id: number | null;
  status: number;
  fill_price: string | null;
  fill_tick_price: string | null;
  fill_time: number | null;
  fill_source: string | null;
  fill_sequence: number | null;
  amount: string | null;
  fee: string;
  realized_pnl: string | null;
  request_id: string;
  request_hash: string;
  created_at: Date;
  filled_at: Date | null;
  cancelled_at: Date | null;
}

export interface HoldingRow {
  user_id: number;
  book: Book;
  product_id: number;
  position_type: number;
  quantity: string;
  frozen_quantity: string;
  cost: string;
  /** Allocated new shares not sellable while now < `locked_until` (migration 0040). */
  locked_quantity: string;
  locked_until: Date | null;
  updated_at: Date;
}

/** A holding's key: its user, book, position type and product. */
export interface HoldingKey {
  userId: number;
  book: Book;
  positionType: number;
  productId: number;
}

// ------------------------------------------------------------ orders

export function listOpenSpotOrders(q: Queryable) {
  return allRows<SpotOrderRow>(
    q,
    `SELECT * FROM spot_order WHERE status = ${SPOT_ORDER_STATUS.open}`,
  );
}

export interface SpotOrderFilter {
  userId: number;
  book: Book;
  positionType: number;
  /** Null for any. */
  status: number | null;
  /** Null for any. */
  direction: number | null;
  /** Null for any. */
  productIds: number[] | null;
}

export function pageSpotOrders(q: Queryable, filter: SpotOrderFilter, page: PageQuery) {
  const params = [
    filter.userId,
    filter.book,
    filter.positionType,
    filter.status,
    filter.direction,
    filter.productIds,
  ];
  const where = `WHERE user_id = $1 AND book = $2 AND position_type = $3
      AND ($4::int IS NULL OR status = $4) AND ($5::int IS NULL OR direction = $5)
      AND ($6::int[] IS NULL OR product_id = ANY($6::int[]))`;
  return pageOfTable<SpotOrderRow>(q, 'spot_order', where, params, page);
}

export function findSpotOrder(q: Queryable, id: number) {
  return firstRow<SpotOrderRow>(q, 'SELECT * FROM spot_order WHERE id = $1', [id]);
}

export function findUserSpotOrder(
  q: Queryable,
  id: number,
  userId: number,
  book: Book,
  positionType: number,
) {
  return firstRow<SpotOrderRow>(
    q,
    `SELECT * FROM spot_order WHERE id = $1 AND user_id = $2 AND book = $3 AND position_type = $4`,
    [id, userId, book, positionType],
  );
}

/** Sells' results and the fees of every order of the user filled since `since` (null: none). */
export function spotRealizedSince(q: Queryable, userId: number, book: Book, since: Date) {
  return firstRow<{ results: string | null; fees: string | null }>(
    q,
    `SELECT sum(realized_pnl) FILTER (WHERE direction = 2) AS results, sum(fee) AS fees
       FROM spot_order WHERE user_id = $1 AND book = $2 AND status = ${SPOT_ORDER_STATUS.filled} AND filled_at >= $3`,
    [userId, book, since],
  );
}

export interface NewSpotOrder {
  id: number;
  orderNo: string;
  userId: number;
  book: Book;
  positionType: number;
  productId: number;
  currencyId: number;
  direction: number;
  orderType: number;
  limitPrice: string | null;
  quantity: string;
  holdId: number | null;
  status: number;
  /** The fill's tick (null while the order rests): its price is also the fill price. */
  fill: TickEvidence | null;
  amount: string | null;
  fee: string;
  realizedPnl: string | null;
  requestId: string;
  requestHash: string;
  createdAt: Date;
  filledAt: Date | null;
}

export async function insertSpotOrder(q: Queryable, order: NewSpotOrder): Promise<SpotOrderRow> {
  const { fill } = order;
  return oneRow<SpotOrderRow>(
    q,
    `INSERT INTO spot_order (id, order_no, user_id, book, position_type, product_id, currency_id,
           direction, order_type, limit_price, quantity, hold_id, status, fill_price, fill_time,
           fill_source, fill_sequence, amount, fee, realized_pnl, request_id, request_hash, created_at,
           filled_at, fill_tick_price)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
           $20, $21, $22, $23, $24, $14)
         RETURNING *`,
    [
      order.id,
      order.orderNo,
      order.userId,
      order.book,
      order.positionType,
      order.productId,
      order.currencyId,
      order.direction,
      order.orderType,
      order.limitPrice,
      order.quantity,
      order.holdId,
      order.status,
      fill ? fill.price : null,
      fill ? fill.time : null,
      fill ? fill.source : null,
      fill ? fill.sequence : null,
      order.amount,
      order.fee,
      order.realizedPnl,
      order.requestId,
      order.requestHash,
      order.createdAt,
      order.filledAt,
    ],
  );
}

export interface SpotFill {
  id: number;
  amount: string;
  fee: string;
  realized: string | null;
}

/** Fills resting orders at their limits with the tick as evidence; returns the rows filled. */
export function fillSpotOrders(q: Queryable, fills: SpotFill[], tick: TickEvidence, now: Date) {
  return allRows<SpotOrderRow>(
    q,
    `UPDATE spot_order o SET status = ${SPOT_ORDER_STATUS.filled}, fill_price = o.limit_price, fill_time = $6,
           fill_source = $7, fill_sequence = $8, amount = d.amount, fee = d.fee,
           realized_pnl = d.realized, filled_at = $9, fill_tick_price = $5
         FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[])
           AS d (id, amount, fee, realized)
         WHERE o.id = d.id RETURNING o.*`,
    [...unnestParams(fills, ['id', 'amount', 'fee', 'realized']), ...tickParams(tick), now],
  );
}

// ------------------------------------------------------------ holdings

/** A user's holdings with a quantity, of one position type or (null) all. */
export function listHoldings(
  q: Queryable,
  userId: number,
  book: Book,
  positionType: number | null,
) {
  return allRows<HoldingRow>(
    q,
    `SELECT * FROM holding WHERE user_id = $1 AND book = $2 AND quantity > 0
         AND ($3::int IS NULL OR position_type = $3)
       ORDER BY position_type, product_id`,
    [userId, book, positionType],
  );
}

export function lockHolding(q: Queryable, key: HoldingKey) {
  return firstRow<HoldingRow>(
    q,
    `SELECT * FROM holding WHERE user_id = $1 AND book = $2 AND position_type = $3 AND product_id = $4
       FOR UPDATE`,
    [key.userId, key.book, key.positionType, key.productId],
  );
}

/**
 * The holdings of `keys` locked in key order, with an empty one (nothing held, no cost) made first
 * for each key that has none.
 */
export async function lockHoldings(
  q: Queryable,
  keys: HoldingKey[],
  now: Date,
): Promise<HoldingRow[]> {
  const columns = unnestParams(keys, ['userId', 'book', 'positionType', 'productId']);
  await q.query(
    `INSERT INTO holding (user_id, book, position_type, product_id, quantity, frozen_quantity, cost, updated_at)
       SELECT d.user_id, d.book, d.position_type, d.product_id, 0, 0, 0, $5
       FROM unnest($1::bigint[], $2::text[], $3::smallint[], $4::int[])
         AS d (user_id, book, position_type, product_id)
       ORDER BY 1, 2, 3, 4
       ON CONFLICT (user_id, book, position_type, product_id) DO NOTHING`,
    [...columns, now],
  );
  return allRows<HoldingRow>(
    q,
    `SELECT h.* FROM holding h
       JOIN unnest($1::bigint[], $2::text[], $3::smallint[], $4::int[])
         AS d (user_id, book, position_type, product_id)
         ON h.user_id = d.user_id AND h.book = d.book AND h.position_type = d.position_type
        AND h.product_id = d.product_id
       ORDER BY h.user_id, h.book, h.position_type, h.product_id
       FOR UPDATE OF h`,
    columns,
  );
}

/**
 * A buy's quantity and cost added to the holding (made when the user has none), or a sale's
 * taken out of it. Both take the key, the quantity, the cost and the time.
 */
const HOLDING_CHANGE = {
  add: `INSERT INTO holding (user_id, book, product_id, position_type, quantity, frozen_quantity, cost, updated_at)
       VALUES ($1, $2, $3, $4, $5, 0, $6, $7)
       ON CONFLICT (user_id, book, position_type, product_id) DO UPDATE
         SET quantity = holding.quantity + EXCLUDED.quantity, cost = holding.cost + EXCLUDED.cost,
             updated_at = EXCLUDED.updated_at`,
  take: `UPDATE holding SET quantity = quantity - $5, cost = cost - $6, updated_at = $7
       WHERE user_id = $1 AND book = $2 AND product_id = $3 AND position_type = $4`,
};

export async function changeHolding(
  q: Queryable,
  change: keyof typeof HOLDING_CHANGE,
  key: HoldingKey,
  amounts: { quantity: string; cost: string; now: Date },
): Promise<void> {
  await q.query(HOLDING_CHANGE[change], [
    key.userId,
    key.book,
    key.productId,
    key.positionType,
    amounts.quantity,
    amounts.cost,
    amounts.now,
  ]);
}

/**
 * Moves quantity into the frozen part of the holding (a resting sell), or back out of it with a
 * negative quantity (a cancelled sell).
 */
export async function shiftFrozenQuantity(
  q: Queryable,
  key: HoldingKey,
  quantity: string,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE holding SET frozen_quantity = frozen_quantity + $5, updated_at = $6
       WHERE user_id = $1 AND book = $2 AND position_type = $3 AND product_id = $4`,
    [key.userId, key.book, key.positionType, key.productId, quantity, now],
  );
}

/** Stores the holdings' new quantity, cost and frozen quantity. */
export async function writeHoldings(
  q: Queryable,
  holdings: HoldingRow[],
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE holding h SET quantity = d.quantity, cost = d.cost, frozen_quantity = d.frozen,
           updated_at = $8
         FROM unnest($1::bigint[], $2::text[], $3::smallint[], $4::int[], $5::numeric[],
                     $6::numeric[], $7::numeric[])
           AS d (user_id, book, position_type, product_id, quantity, cost, frozen)
         WHERE h.user_id = d.user_id AND h.book = d.book AND h.position_type = d.position_type
           AND h.product_id = d.product_id`,
    [
      ...unnestParams(holdings, [
        'user_id',
        'book',
        'position_type',
        'product_id',
        'quantity',
        'cost',
        'frozen_quantity',
      ]),
      now,
    ],
  );
}

/**
 * When the first of a user's coins frozen by a new listing's lock-up (modules/new-shares,
 * migration 0041) unlocks, or null when none is frozen.
 */
export async function coinLockedUntil(
  q: Queryable,
  book: string,
  userId: number,
  currencyId: number,
): Promise<Date | null> {
  const { rows } = await q.query<{ until: Date | null }>(
    `SELECT min(s.unlock_at) AS until
     FROM ledger_hold h JOIN new_share_subscription s ON s.lock_hold_id = h.id
     WHERE h.book = $1 AND h.user_id = $2 AND h.currency_id = $3 AND h.status = 'pending'
       AND h.hold_type = 'new_share_lockup'`,
    [book, userId, currencyId],
  );
  return rows[0]?.until ?? null;
}
