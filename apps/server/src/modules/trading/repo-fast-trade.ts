/** SQL of fast trades: their orders, the options users choose from, and the risk acceptance. */
import { FAST_TRADE_STATUS, type PageQuery, type TickEvidence } from '@bourse/shared';
import { unnestParams } from '../../db/columns';
import { allRows, firstRow, type Queryable } from '../../db/database';
import { pageOfTable, tickParams, type Book } from './repo';

/** A row of fast_trade_option. */
export interface OptionRow {
  id: number;
  product_type: number;
  product_code: string | null;
  duration_seconds: number;
  payout_rate: string;
  loss_rate: string;
  min_stake: string;
  max_stake: string;
  is_enabled: number;
  sort: number;
}

export interface FastTradeOrderRow {
  id: number;
  order_no: string;
  user_id: number;
  book: Book;
  product_id: number;
  direction: number;
  currency_id: number;
  stake: string;
  fee: string;
  duration_seconds: number;
  payout_rate: string;
  loss_rate: string;
  hold_id: number;
  entry_price: string;
  entry_time: number;
  entry_source: string;
  entry_sequence: number;
  expires_at: number;
  status: number;
  exit_price: string | null;
  exit_time: number | null;
  exit_source: string | null;
  exit_sequence: number | null;
  result: string | null;
  settled_at: Date | null;
  request_hash: string;
  created_at: Date;
}

/** What the start and the sweep read of an open order. */
export interface OpenFastTradeRow {
  id: number;
  user_id: number;
  product_id: number;
  expires_at: number;
}

export function listOpenFastTrades(q: Queryable) {
  return allRows<OpenFastTradeRow>(
    q,
    `SELECT id, user_id, product_id, expires_at FROM fast_trade_order WHERE status = ${FAST_TRADE_STATUS.open}`,
  );
}

/** Open orders that expired at or before `due` (ms), soonest first, 1000 at most. */
export function listOverdueFastTrades(q: Queryable, due: number) {
  return allRows<OpenFastTradeRow>(
    q,
    `SELECT id, user_id, product_id, expires_at FROM fast_trade_order
         WHERE status = ${FAST_TRADE_STATUS.open} AND expires_at <= $1 ORDER BY expires_at LIMIT 1000`,
    [due],
  );
}

/** The orders among `ids` still open, locked in id order. */
export function lockOpenFastTrades(q: Queryable, ids: number[]) {
  return allRows<FastTradeOrderRow>(
    q,
    `SELECT * FROM fast_trade_order WHERE id = ANY($1::bigint[]) AND status = ${FAST_TRADE_STATUS.open}
           ORDER BY id FOR UPDATE`,
    [ids],
  );
}

/** Each order's outcome (won, lost or tie) and result, decided by the tick (its evidence). */
export async function settleFastTrades(
  q: Queryable,
  outcomes: { id: number; status: number; result: string }[],
  tick: TickEvidence,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE fast_trade_order o SET status = d.status, exit_price = $3, exit_time = $4, exit_source = $5,
             exit_sequence = $6, result = d.result, settled_at = $7
           FROM unnest($1::bigint[], $2::smallint[], $8::numeric[]) AS d (id, status, result)
           WHERE o.id = d.id`,
    [
      ...unnestParams(outcomes, ['id', 'status']),
      ...tickParams(tick),
      now,
      outcomes.map((outcome) => outcome.result),
    ],
  );
}

/** Results of a user's orders settled since `since` and fees of those placed since (null: none). */
export function fastTradeRealizedSince(q: Queryable, userId: number, book: Book, since: Date) {
  return firstRow<{ results: string | null; fees: string | null }>(
    q,
    `SELECT (SELECT sum(result) FROM fast_trade_order
                WHERE user_id = $1 AND book = $2 AND status <> ${FAST_TRADE_STATUS.open} AND settled_at >= $3) AS results,
              (SELECT sum(fee) FROM fast_trade_order
                WHERE user_id = $1 AND book = $2 AND created_at >= $3) AS fees`,
    [userId, book, since],
  );
}

export interface NewFastTradeOrder {
  id: number;
  orderNo: string;
  userId: number;
  book: Book;
  productId: number;
  optionId: number;
  direction: number;
  currencyId: number;
  stake: string;
  fee: string;
  durationSeconds: number;
  payoutRate: string;
  lossRate: string;
  holdId: number;
  entryPrice: string;
  entryTime: number;
  entrySource: string;
  entrySequence: number;
  expiresAt: number;
  requestId: string;
  requestHash: string;
  createdAt: Date;
}

export async function insertFastTradeOrder(q: Queryable, order: NewFastTradeOrder): Promise<void> {
  await q.query(
    `INSERT INTO fast_trade_order (id, order_no, user_id, book, product_id, option_id, direction, currency_id,
           stake, fee, duration_seconds, payout_rate, loss_rate, hold_id, entry_price, entry_time, entry_source,
           entry_sequence, expires_at, request_id, request_hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
    [
      order.id,
      order.orderNo,
      order.userId,
      order.book,
      order.productId,
      order.optionId,
      order.direction,
      order.currencyId,
      order.stake,
      order.fee,
      order.durationSeconds,
      order.payoutRate,
      order.lossRate,
      order.holdId,
      order.entryPrice,
      order.entryTime,
      order.entrySource,
      order.entrySequence,
      order.expiresAt,
      order.requestId,
      order.requestHash,
      order.createdAt,
    ],
  );
}

export function pageFastTradeOrders(
  q: Queryable,
  filter: { userId: number; book: Book; status: number | null },
  page: PageQuery,
): Promise<{ rows: FastTradeOrderRow[]; total: number }> {
  const params = [filter.userId, filter.book, filter.status];
  const where = 'WHERE user_id = $1 AND book = $2 AND ($3::int IS NULL OR status = $3)';
  return pageOfTable<FastTradeOrderRow>(q, 'fast_trade_order', where, params, page);
}

// ------------------------------------------------------------ options and risk

/** The enabled options of the product's type: the product's own and those of no product. */
export function listEnabledOptions(q: Queryable, productType: number, productCode: string) {
  return allRows<OptionRow>(
    q,
    `SELECT * FROM fast_trade_option
       WHERE is_enabled = 1 AND product_type = $1 AND (product_code = $2 OR product_code IS NULL)
       ORDER BY sort, duration_seconds, id`,
    [productType, productCode],
  );
}

export async function hasAcceptedFastTradeRisk(q: Queryable, userId: number): Promise<boolean> {
  const { rows } = await q.query(
    "SELECT 1 FROM risk_acceptance WHERE user_id = $1 AND kind = 'fastTrade'",
    [userId],
  );
  return rows.length > 0;
}

/** Records the user's acceptance of the fast-trade risk disclosure (the first one stays). */
export async function acceptFastTradeRisk(q: Queryable, userId: number, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO risk_acceptance (user_id, kind, accepted_at) VALUES ($1, 'fastTrade', $2)
       ON CONFLICT DO NOTHING`,
    [userId, now],
  );
}
