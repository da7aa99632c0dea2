/**
 * SQL of the console's dashboard: counts and sums read from the tables that hold the facts (users
 * and sessions, deposits and withdrawals, each kind's orders, open positions, the market lease).
 * Nothing here writes. Times are bounded by [from, to) of the server's clock, as the rows were
 * stamped with it; trading figures are of the live book.
 */
import {
  CONTRACT_STATUS,
  FAST_TRADE_STATUS,
  POSITION_TYPE,
  RECHARGE_STATUS,
  SPOT_ORDER_STATUS,
  WITHDRAW_STATUS,
} from '@bourse/shared';
import type { Queryable } from '../../db/database';

export interface UserCountsRow {
  total: number;
  new_today: number;
  signed_in_today: number;
}

export async function userCounts(q: Queryable, from: Date, to: Date): Promise<UserCountsRow> {
  const { rows } = await q.query<UserCountsRow>(
    `SELECT (SELECT count(*)::int FROM app_user) AS total,
            (SELECT count(*)::int FROM app_user WHERE created_at >= $1 AND created_at < $2) AS new_today,
            (SELECT count(DISTINCT user_id)::int FROM user_session
              WHERE created_at >= $1 AND created_at < $2) AS signed_in_today`,
    [from, to],
  );
  return rows[0]!;
}

export interface LeaseRow {
  name: string;
  holder: string;
  expires_at: Date;
  expired: boolean;
}

/** The market lease (migration 0006), judged by the database's clock as it is taken with it. */
export async function marketLease(q: Queryable, name: string): Promise<LeaseRow | undefined> {
  const { rows } = await q.query<LeaseRow>(
    `SELECT name, holder, expires_at, expires_at < now() AS expired FROM market_lease WHERE name = $1`,
    [name],
  );
  return rows[0];
}

export interface CurrencyMoneyRow {
  currency_id: number;
  currency_name: string;
  scale: number;
  deposits_pending: number;
  deposits_pending_amount: string;
  deposits_approved: number;
  deposits_approved_amount: string;
  withdrawals_pending: number;
  withdrawals_pending_amount: string;
  withdrawals_paid: number;
  withdrawals_paid_amount: string;
  withdrawals_paid_fee: string;
}

/**
 * Per currency: deposits and withdrawals under review, and those approved (paid) in [from, to).
 * Currencies with a channel are listed even when every figure is zero.
 */
export async function moneyByCurrency(
  q: Queryable,
  from: Date,
  to: Date,
): Promise<CurrencyMoneyRow[]> {
  const { rows } = await q.query<CurrencyMoneyRow>(
    `WITH r AS (
       SELECT currency_id,
              count(*) FILTER (WHERE status = ${RECHARGE_STATUS.reviewing})::int AS pending,
              coalesce(sum(amount) FILTER (WHERE status = ${RECHARGE_STATUS.reviewing}), 0) AS pending_amount,
              count(*) FILTER (WHERE status = ${RECHARGE_STATUS.approved})::int AS approved,
              coalesce(sum(amount) FILTER (WHERE status = ${RECHARGE_STATUS.approved}), 0) AS approved_amount
       FROM user_recharge
       WHERE status = ${RECHARGE_STATUS.reviewing}
          OR (status = ${RECHARGE_STATUS.approved} AND reviewed_at >= $1 AND reviewed_at < $2)
       GROUP BY currency_id
     ), w AS (
       SELECT currency_id,
              count(*) FILTER (WHERE status = ${WITHDRAW_STATUS.reviewing})::int AS pending,
              coalesce(sum(amount) FILTER (WHERE status = ${WITHDRAW_STATUS.reviewing}), 0) AS pending_amount,
              count(*) FILTER (WHERE status = ${WITHDRAW_STATUS.paid})::int AS paid,
              coalesce(sum(amount) FILTER (WHERE status = ${WITHDRAW_STATUS.paid}), 0) AS paid_amount,
              coalesce(sum(fee) FILTER (WHERE status = ${WITHDRAW_STATUS.paid}), 0) AS paid_fee
       FROM user_withdraw
       WHERE status = ${WITHDRAW_STATUS.reviewing}
          OR (status = ${WITHDRAW_STATUS.paid} AND closed_at >= $1 AND closed_at < $2)
       GROUP BY currency_id
     )
     SELECT c.id AS currency_id, c.currency_name, c.scale,
            coalesce(r.pending, 0) AS deposits_pending,
            coalesce(r.pending_amount, 0) AS deposits_pending_amount,
            coalesce(r.approved, 0) AS deposits_approved,
            coalesce(r.approved_amount, 0) AS deposits_approved_amount,
            coalesce(w.pending, 0) AS withdrawals_pending,
            coalesce(w.pending_amount, 0) AS withdrawals_pending_amount,
            coalesce(w.paid, 0) AS withdrawals_paid,
            coalesce(w.paid_amount, 0) AS withdrawals_paid_amount,
            coalesce(w.paid_fee, 0) AS withdrawals_paid_fee
     FROM platform_currency c
     LEFT JOIN r ON r.currency_id = c.id
     LEFT JOIN w ON w.currency_id = c.id
     WHERE r.currency_id IS NOT NULL OR w.currency_id IS NOT NULL
        OR EXISTS (SELECT 1 FROM recharge_channel ch WHERE ch.currency_id = c.id)
        OR EXISTS (SELECT 1 FROM withdraw_channel ch WHERE ch.currency_id = c.id)
     ORDER BY c.sort, c.id`,
    [from, to],
  );
  return rows;
}

export interface TradingDayRow {
  position_type: number;
  currency_id: number;
  currency_name: string;
  scale: number;
  day: string;
  trades: number;
  volume: string;
  fees: string;
}

/**
 * Live-book trading per kind, currency and UTC day in [from, to): fast trades by their stake when
 * placed; contracts by their notional when opened (quantity × entry price, the open fee) and when
 * closed (quantity × exit price, the close fee); spot and coin-to-coin orders by the amount filled.
 */
export async function tradingByDay(q: Queryable, from: Date, to: Date): Promise<TradingDayRow[]> {
  const { rows } = await q.query<TradingDayRow>(
    `WITH events AS (
       SELECT ${POSITION_TYPE.fast} AS position_type, currency_id, created_at AS at, stake AS volume, fee,
              1 AS trades
       FROM fast_trade_order WHERE book = 'live' AND created_at >= $1 AND created_at < $2
       UNION ALL
       -- A part split off by a partial close opened with its position: volume and fee, no trade.
       SELECT ${POSITION_TYPE.contract}, currency_id, opened_at, quantity * entry_price, open_fee,
              CASE WHEN parent_id IS NULL THEN 1 ELSE 0 END
       FROM contract_position WHERE book = 'live' AND opened_at >= $1 AND opened_at < $2
       UNION ALL
       SELECT ${POSITION_TYPE.contract}, currency_id, closed_at, quantity * exit_price, coalesce(close_fee, 0), 1
       FROM contract_position
       WHERE book = 'live' AND status = ${CONTRACT_STATUS.closed} AND closed_at >= $1 AND closed_at < $2
       UNION ALL
       SELECT position_type, currency_id, filled_at, amount, fee, 1
       FROM spot_order
       WHERE book = 'live' AND status = ${SPOT_ORDER_STATUS.filled} AND filled_at >= $1 AND filled_at < $2
     )
     SELECT e.position_type, e.currency_id, c.currency_name, c.scale,
            to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
            sum(e.trades)::int AS trades, sum(e.volume) AS volume, sum(e.fee) AS fees
     FROM events e JOIN platform_currency c ON c.id = e.currency_id
     GROUP BY e.position_type, e.currency_id, c.currency_name, c.scale, day
     ORDER BY e.position_type, e.currency_id, day`,
    [from, to],
  );
  return rows;
}

export interface OpenInterestRow {
  product_type: number;
  product_code: string;
  currency_name: string;
  scale: number;
  positions: number;
  long_quantity: string;
  short_quantity: string;
  long_notional: string;
  short_notional: string;
  margin: string;
}

/** Open live contract positions per product, the largest notional first (at most `limit`). */
export async function openInterest(q: Queryable, limit: number): Promise<OpenInterestRow[]> {
  const { rows } = await q.query<OpenInterestRow>(
    `SELECT p.product_type, p.product_code, c.currency_name, c.scale,
            count(*)::int AS positions,
            coalesce(sum(cp.quantity) FILTER (WHERE cp.direction = 1), 0) AS long_quantity,
            coalesce(sum(cp.quantity) FILTER (WHERE cp.direction = 2), 0) AS short_quantity,
            coalesce(sum(cp.quantity * cp.entry_price) FILTER (WHERE cp.direction = 1), 0) AS long_notional,
            coalesce(sum(cp.quantity * cp.entry_price) FILTER (WHERE cp.direction = 2), 0) AS short_notional,
            sum(cp.margin) AS margin
     FROM contract_position cp
     JOIN product p ON p.id = cp.product_id
     JOIN platform_currency c ON c.id = cp.currency_id
     WHERE cp.status = ${CONTRACT_STATUS.open} AND cp.book = 'live'
     GROUP BY p.product_type, p.product_code, c.currency_name, c.scale
     ORDER BY sum(cp.quantity * cp.entry_price) DESC, p.product_type, p.product_code
     LIMIT $1`,
    [limit],
  );
  return rows;
}

export interface OpenFastTradesRow {
  currency_name: string;
  scale: number;
  orders: number;
  stake: string;
}

/** Live fast trades not yet settled, per currency. */
export async function openFastTrades(q: Queryable): Promise<OpenFastTradesRow[]> {
  const { rows } = await q.query<OpenFastTradesRow>(
    `SELECT c.currency_name, c.scale, count(*)::int AS orders, sum(o.stake) AS stake
     FROM fast_trade_order o JOIN platform_currency c ON c.id = o.currency_id
     WHERE o.status = ${FAST_TRADE_STATUS.open} AND o.book = 'live'
     GROUP BY c.currency_name, c.scale, c.sort, c.id
     ORDER BY c.sort, c.id`,
  );
  return rows;
}
