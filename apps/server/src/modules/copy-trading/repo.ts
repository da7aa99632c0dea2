/** SQL of copy trading (migration 0042): traders, relations, the task queue, settlements. */
import { CONTRACT_STATUS, type PageQuery } from '@bourse/shared';
import { unnestParams } from '../../db/columns';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';

export type Book = 'live' | 'demo';

// ---------------------------------------------------------------- settings

export async function readSettings(q: Queryable): Promise<Record<string, unknown> | undefined> {
  const row = await firstRow<{ value: Record<string, unknown> }>(
    q,
    `SELECT value FROM site_setting WHERE key = 'copyTrade'`,
  );
  return row?.value;
}

export async function saveSettings(q: Queryable, value: unknown, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO site_setting (key, value, updated_at) VALUES ('copyTrade', $1, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [JSON.stringify(value), at],
  );
}

// ---------------------------------------------------------------- traders

export interface TraderRow {
  user_id: number;
  status: number;
  title: Record<string, string>;
  description: Record<string, string>;
  profit_share_rate: string;
  min_copy_amount: string;
  max_copy_amount: string | null;
  max_followers: number;
  max_followers_cap: number | null;
  approved_at: Date;
  suspended_reason: string | null;
  suspended_at: Date | null;
  stats: unknown;
  stats_at: Date | null;
  updated_at: Date;
  nick_name: string;
  avatar: string | null;
  user_account: string;
  /** Active relations now, relations ever. */
  followers: number;
  followers_total: number;
}

const TRADER_SELECT = `SELECT c.*, u.nick_name, u.avatar, u.user_account,
    (SELECT count(*)::int FROM copy_relation r WHERE r.trader_id = c.user_id AND r.status = 1) AS followers,
    (SELECT count(DISTINCT r.follower_id)::int FROM copy_relation r WHERE r.trader_id = c.user_id) AS followers_total
  FROM copy_trader c JOIN app_user u ON u.id = c.user_id`;

export function findTrader(q: Queryable, userId: number) {
  return firstRow<TraderRow>(q, `${TRADER_SELECT} WHERE c.user_id = $1`, [userId]);
}

/** A trader's row locked until the transaction ends (follows of the trader wait for each other). */
export function lockTrader(q: Queryable, userId: number) {
  return firstRow<{ user_id: number; status: number }>(
    q,
    'SELECT user_id, status FROM copy_trader WHERE user_id = $1 FOR UPDATE',
    [userId],
  );
}

/** Every trader's id (active or suspended): whose contract steps may fan out. */
export async function traderIds(q: Queryable): Promise<number[]> {
  const rows = await allRows<{ user_id: number }>(q, 'SELECT user_id FROM copy_trader');
  return rows.map((row) => row.user_id);
}

/** Sort keys of the trader list: a window's statistic, or the followers now. */
const SORTS: Record<string, string> = {
  roi: `(c.stats #>> ARRAY['windows', $1, 'roi'])::numeric DESC NULLS LAST`,
  pnl: `(c.stats #>> ARRAY['windows', $1, 'pnl'])::numeric DESC NULLS LAST`,
  drawdown: `(c.stats #>> ARRAY['windows', $1, 'maxDrawdown'])::numeric ASC NULLS LAST`,
  followers: 'followers DESC',
};

/** Active traders (and the suspended ones `viewerId` follows), by a statistic of a period. */
export function pageTraders(
  q: Queryable,
  filter: { sort: string; period: string; viewerId: number | null },
  page: PageQuery,
) {
  const where = `WHERE c.status = 1 OR EXISTS (SELECT 1 FROM copy_relation r
      WHERE r.trader_id = c.user_id AND r.follower_id = $2 AND r.status = 1)`;
  return pageOf<TraderRow>(
    q,
    {
      rows: `SELECT * FROM (${TRADER_SELECT} ${where}) c ORDER BY ${SORTS[filter.sort] ?? SORTS.roi}, c.user_id`,
      count: `SELECT count(*)::int AS total FROM copy_trader c WHERE ($1::text IS NOT NULL) AND (${where.slice(6)})`,
      params: [filter.period, filter.viewerId ?? 0],
    },
    page,
  );
}

export function pageConsoleTraders(
  q: Queryable,
  filter: { status?: number; userId?: number | null },
  page: PageQuery,
) {
  const where = `WHERE ($1::int IS NULL OR c.status = $1) AND ($2::bigint IS NULL OR c.user_id = $2)`;
  return pageOf<TraderRow>(
    q,
    {
      rows: `${TRADER_SELECT} ${where} ORDER BY c.approved_at DESC, c.user_id DESC`,
      count: `SELECT count(*)::int AS total FROM copy_trader c ${where}`,
      params: [filter.status ?? null, filter.userId ?? null],
    },
    page,
  );
}

export function insertTrader(q: Queryable, userId: number, at: Date) {
  return q.query(
    `INSERT INTO copy_trader (user_id, approved_at, updated_at) VALUES ($1, $2, $2)
     ON CONFLICT (user_id) DO NOTHING`,
    [userId, at],
  );
}

export function updateProfile(
  q: Queryable,
  userId: number,
  profile: {
    title: Record<string, string>;
    description: Record<string, string>;
    profitShareRate: string;
    minCopyAmount: string;
    maxCopyAmount: string | null;
    maxFollowers: number;
  },
  at: Date,
) {
  return q.query(
    `UPDATE copy_trader SET title = $2, description = $3, profit_share_rate = $4,
       min_copy_amount = $5, max_copy_amount = $6, max_followers = $7, updated_at = $8
     WHERE user_id = $1`,
    [
      userId,
      JSON.stringify(profile.title),
      JSON.stringify(profile.description),
      profile.profitShareRate,
      profile.minCopyAmount,
      profile.maxCopyAmount,
      profile.maxFollowers,
      at,
    ],
  );
}

export function setFollowersCap(q: Queryable, userId: number, cap: number | null, at: Date) {
  return q.query(
    'UPDATE copy_trader SET max_followers_cap = $2, updated_at = $3 WHERE user_id = $1',
    [userId, cap, at],
  );
}

export function setTraderStatus(
  q: Queryable,
  userId: number,
  status: number,
  reason: string | null,
  at: Date,
) {
  return q.query(
    `UPDATE copy_trader SET status = $2::smallint, suspended_reason = $3,
       suspended_at = CASE WHEN $2::smallint = 2 THEN $4::timestamptz END, updated_at = $4
     WHERE user_id = $1`,
    [userId, status, reason, at],
  );
}

/** Active followers of a trader (to tell them), at most `limit`. */
export async function activeFollowerIds(q: Queryable, traderId: number, limit: number) {
  const rows = await allRows<{ follower_id: number; id: number }>(
    q,
    `SELECT follower_id, id FROM copy_relation WHERE trader_id = $1 AND status = 1 ORDER BY id LIMIT $2`,
    [traderId, limit],
  );
  return rows;
}

// ---------------------------------------------------------------- statistics

export interface TradeRow {
  position_id: number;
  opened_at: Date;
  closed_at: Date;
  pnl: string;
  margin: string;
  equity_before: string;
}

/**
 * Traders whose statistics are due (a close since), at most `limit`, their marks taken: a close
 * while they are computed marks them again.
 */
export async function claimStatsDue(q: Queryable, limit: number): Promise<number[]> {
  const rows = await allRows<{ user_id: number }>(
    q,
    `UPDATE copy_trader SET stats_due = false WHERE user_id IN (
       SELECT user_id FROM copy_trader WHERE stats_due ORDER BY user_id LIMIT $1)
     RETURNING user_id`,
    [limit],
  );
  return rows.map((row) => row.user_id);
}

/** A trader's closed trades, oldest first, the latest `limit` of them. */
export function traderTrades(q: Queryable, traderId: number, limit: number) {
  return allRows<TradeRow>(
    q,
    `SELECT * FROM (SELECT position_id, opened_at, closed_at, pnl::text, margin::text, equity_before::text
       FROM copy_trader_trade WHERE trader_id = $1 ORDER BY closed_at DESC, position_id DESC LIMIT $2) t
     ORDER BY closed_at, position_id`,
    [traderId, limit],
  );
}

/** Stores computed statistics. */
export function saveStats(q: Queryable, traderId: number, stats: unknown, at: Date) {
  return q.query('UPDATE copy_trader SET stats = $2, stats_at = $3 WHERE user_id = $1', [
    traderId,
    JSON.stringify(stats),
    at,
  ]);
}

/** The hook's marks: a trader's statistics are due after a close. */
export function markStatsDue(q: Queryable, traderIds: number[]) {
  return q.query(
    'UPDATE copy_trader SET stats_due = true WHERE user_id = ANY($1::bigint[]) AND NOT stats_due',
    [traderIds],
  );
}

/** The available and margin balances of users in a book and currency (their equity). */
export async function equities(
  q: Queryable,
  userIds: number[],
  book: Book,
  currencyId: number,
): Promise<Map<number, string>> {
  const rows = await allRows<{ owner_id: number; equity: string }>(
    q,
    `SELECT owner_id, sum(balance)::text AS equity FROM ledger_account
     WHERE book = $1 AND owner_type = 'user' AND owner_id = ANY($2::bigint[]) AND currency_id = $3
       AND kind IN ('available', 'margin')
     GROUP BY owner_id`,
    [book, userIds, currencyId],
  );
  return new Map(rows.map((row) => [row.owner_id, row.equity]));
}

export interface TradeInsert {
  position_id: number;
  trader_id: number;
  opened_at: Date;
  closed_at: Date;
  pnl: string;
  margin: string;
  equity_before: string;
}

export function insertTrades(q: Queryable, trades: TradeInsert[]) {
  return q.query(
    `INSERT INTO copy_trader_trade (position_id, trader_id, opened_at, closed_at, pnl, margin, equity_before)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::timestamptz[],
       $5::numeric[], $6::numeric[], $7::numeric[])
     ON CONFLICT (position_id) DO NOTHING`,
    unnestParams(trades, [
      'position_id',
      'trader_id',
      'opened_at',
      'closed_at',
      'pnl',
      'margin',
      'equity_before',
    ]),
  );
}

/**
 * A new trader's closed live contracts before the approval, with the equity just before each
 * close read from the ledger: the margin account's balance before the close entry (its posting's
 * balance less its amount) and the available account's last balance before that entry. The close
 * entry is the one the close wrote: referenced by the position (one close) or by its exit tick (a
 * batch of closes). The latest `limit` closes.
 */
export function backfillTrades(q: Queryable, userId: number, currencyId: number, limit: number) {
  return q.query(
    `WITH acc AS (
       SELECT (SELECT id FROM ledger_account WHERE book = 'live' AND owner_type = 'user'
                 AND owner_id = $1 AND currency_id = $2 AND kind = 'available') AS available,
              (SELECT id FROM ledger_account WHERE book = 'live' AND owner_type = 'user'
                 AND owner_id = $1 AND currency_id = $2 AND kind = 'margin') AS margin),
     closes AS (
       SELECT e.ref_type, e.ref_id,
              mp.balance_after - mp.amount + coalesce((SELECT ap.balance_after FROM ledger_posting ap
                WHERE ap.account_id = acc.available AND ap.entry_id < e.id
                ORDER BY ap.entry_id DESC LIMIT 1), 0) AS equity_before
       FROM acc JOIN ledger_posting mp ON mp.account_id = acc.margin AND mp.amount < 0
       JOIN ledger_entry e ON e.id = mp.entry_id
       WHERE e.entry_type IN ('trade:contract_close', 'trade:contract_liquidation')),
     positions AS (
       SELECT * FROM contract_position WHERE user_id = $1 AND book = 'live'
         AND status = ${CONTRACT_STATUS.closed} AND currency_id = $2
       ORDER BY closed_at DESC, id DESC LIMIT $3)
     INSERT INTO copy_trader_trade (position_id, trader_id, opened_at, closed_at, pnl, margin, equity_before)
     SELECT p.id, p.user_id, p.opened_at, p.closed_at, p.realized_pnl - p.close_fee - p.open_fee,
            p.margin, coalesce(c1.equity_before, c2.equity_before)
     FROM positions p
     LEFT JOIN closes c1 ON c1.ref_type = 'contract' AND c1.ref_id = p.id::text
     LEFT JOIN closes c2 ON c2.ref_type = 'tick'
       AND c2.ref_id = p.product_id || ':' || p.exit_time || ':' || p.exit_sequence
     WHERE coalesce(c1.equity_before, c2.equity_before) IS NOT NULL
     ON CONFLICT (position_id) DO NOTHING`,
    [userId, currencyId, limit],
  );
}

/** Closed live contract positions of a user (the track record to apply). */
export async function closedTrades(q: Queryable, userId: number): Promise<number> {
  const row = await oneRow<{ count: number }>(
    q,
    `SELECT count(*)::int AS count FROM contract_position
     WHERE user_id = $1 AND book = 'live' AND status = ${CONTRACT_STATUS.closed}`,
    [userId],
  );
  return row.count;
}

// ---------------------------------------------------------------- applications

export interface ApplicationRow {
  id: number;
  user_id: number;
  status: number;
  closed_trades: number;
  reason: string | null;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  request_id: string;
  created_at: Date;
  user_account: string;
  nick_name: string;
  auth_level: number;
  reviewer: string | null;
  closed_trades_now: number;
}

const APPLICATION_SELECT = `SELECT a.*, u.user_account, u.nick_name, u.auth_level, o.username AS reviewer,
    (SELECT count(*)::int FROM contract_position p WHERE p.user_id = a.user_id AND p.book = 'live'
       AND p.status = ${CONTRACT_STATUS.closed}) AS closed_trades_now
  FROM copy_trader_application a JOIN app_user u ON u.id = a.user_id
  LEFT JOIN operator o ON o.id = a.reviewed_by`;

export function latestApplication(q: Queryable, userId: number) {
  return firstRow<ApplicationRow>(
    q,
    `${APPLICATION_SELECT} WHERE a.user_id = $1 ORDER BY a.id DESC LIMIT 1`,
    [userId],
  );
}

export function applicationByRequest(q: Queryable, userId: number, requestId: string) {
  return firstRow<ApplicationRow>(
    q,
    `${APPLICATION_SELECT} WHERE a.user_id = $1 AND a.request_id = $2`,
    [userId, requestId],
  );
}

export function findApplication(q: Queryable, id: number, lock = false) {
  return firstRow<ApplicationRow>(
    q,
    lock
      ? `SELECT a.*, '' AS user_account, '' AS nick_name, 0 AS auth_level, NULL AS reviewer, 0 AS closed_trades_now
         FROM copy_trader_application a WHERE a.id = $1 FOR UPDATE`
      : `${APPLICATION_SELECT} WHERE a.id = $1`,
    [id],
  );
}

export function insertApplication(
  q: Queryable,
  userId: number,
  closedTradesNow: number,
  requestId: string,
  at: Date,
) {
  return oneRow<{ id: number }>(
    q,
    `INSERT INTO copy_trader_application (user_id, closed_trades, request_id, created_at)
     VALUES ($1, $2, $3, $4) RETURNING id`,
    [userId, closedTradesNow, requestId, at],
  );
}

export function reviewApplication(
  q: Queryable,
  id: number,
  status: number,
  reason: string | null,
  operatorId: number,
  at: Date,
) {
  return q.query(
    `UPDATE copy_trader_application SET status = $2, reason = $3, reviewed_by = $4, reviewed_at = $5
     WHERE id = $1 AND status = 0`,
    [id, status, reason, operatorId, at],
  );
}

export function pageApplications(
  q: Queryable,
  filter: { status?: number; userId?: number | null },
  page: PageQuery,
) {
  const where = `WHERE ($1::int IS NULL OR a.status = $1) AND ($2::bigint IS NULL OR a.user_id = $2)`;
  return pageOf<ApplicationRow>(
    q,
    {
      rows: `${APPLICATION_SELECT} ${where} ORDER BY (a.status = 0) DESC, a.id DESC`,
      count: `SELECT count(*)::int AS total FROM copy_trader_application a ${where}`,
      params: [filter.status ?? null, filter.userId ?? null],
    },
    page,
  );
}

/** A user by account (email, phone or account text) or id; null when none. */
export async function findUserId(q: Queryable, account: string): Promise<number | null> {
  const id = /^\d{1,15}$/.test(account) ? Number(account) : null;
  const row = await firstRow<{ id: number }>(
    q,
    `SELECT id FROM app_user WHERE user_account = $1 OR email = lower($1) OR phone = $1
       OR ($2::bigint IS NOT NULL AND id = $2) ORDER BY id LIMIT 1`,
    [account, id],
  );
  return row?.id ?? null;
}

// ---------------------------------------------------------------- relations

export interface RelationRow {
  id: number;
  follower_id: number;
  trader_id: number;
  book: Book;
  currency_id: number;
  mode: number;
  amount: string | null;
  ratio: string | null;
  max_open: number;
  tp_rate: string | null;
  sl_rate: string | null;
  budget: string;
  profit_share_rate: string;
  status: number;
  cum_pnl: string;
  hwm: string;
  owed: string;
  paid: string;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
  end_mode: number | null;
}

/** A relation with what the views show beside it (the trader, the copies' figures). */
export interface RelationView extends RelationRow {
  trader_name: string;
  trader_avatar: string | null;
  trader_title: Record<string, string>;
  trader_status: number;
  follower_account: string;
  follower_name: string;
  realized: string;
  margin_in_use: string;
  open_copies: number;
}

/** A copy's rows: its position, and the parts partial closes split off it. */
const COPY_ROWS = `(p.id = t.follower_position_id OR p.parent_id = t.follower_position_id)`;

/**
 * The realized net result of a relation's closed copies (after the open and close fees): the
 * cumulative P&L the settlement uses, always read from the positions themselves.
 */
const REALIZED = `(SELECT coalesce(sum(p.realized_pnl - p.close_fee - p.open_fee), 0)::text
    FROM copy_task t JOIN contract_position p ON ${COPY_ROWS}
    WHERE t.relation_id = r.id AND t.kind = 'open' AND p.status = ${CONTRACT_STATUS.closed})`;
const OPEN_COPIES = `FROM copy_task t JOIN contract_position p ON p.id = t.follower_position_id
    WHERE t.relation_id = r.id AND t.kind = 'open' AND p.status = ${CONTRACT_STATUS.open}`;

const RELATION_SELECT = `SELECT r.*, tu.nick_name AS trader_name, tu.avatar AS trader_avatar,
    c.title AS trader_title, c.status AS trader_status,
    fu.user_account AS follower_account, fu.nick_name AS follower_name,
    ${REALIZED} AS realized,
    (SELECT coalesce(sum(p.margin), 0)::text ${OPEN_COPIES}) AS margin_in_use,
    (SELECT count(*)::int ${OPEN_COPIES}) AS open_copies
  FROM copy_relation r JOIN copy_trader c ON c.user_id = r.trader_id
  JOIN app_user tu ON tu.id = r.trader_id JOIN app_user fu ON fu.id = r.follower_id`;

export function findRelationView(q: Queryable, id: number) {
  return firstRow<RelationView>(q, `${RELATION_SELECT} WHERE r.id = $1`, [id]);
}

export function lockRelation(q: Queryable, id: number) {
  return firstRow<RelationRow>(q, 'SELECT * FROM copy_relation WHERE id = $1 FOR UPDATE', [id]);
}

/** The realized result of a relation's closed copies. */
export async function realizedOf(q: Queryable, relationId: number): Promise<string> {
  const row = await oneRow<{ realized: string }>(
    q,
    `SELECT ${REALIZED} AS realized FROM copy_relation r WHERE r.id = $1`,
    [relationId],
  );
  return row.realized;
}

export function activeRelation(q: Queryable, followerId: number, traderId: number, book: Book) {
  return firstRow<RelationRow>(
    q,
    'SELECT * FROM copy_relation WHERE follower_id = $1 AND trader_id = $2 AND book = $3 AND status = 1',
    [followerId, traderId, book],
  );
}

export async function activeFollowerCount(q: Queryable, traderId: number): Promise<number> {
  const row = await oneRow<{ count: number }>(
    q,
    'SELECT count(*)::int AS count FROM copy_relation WHERE trader_id = $1 AND status = 1',
    [traderId],
  );
  return row.count;
}

export interface RelationSettings {
  mode: number;
  amount: string | null;
  ratio: string | null;
  maxOpen: number;
  tpRate: string | null;
  slRate: string | null;
  budget: string;
}

export function insertRelation(
  q: Queryable,
  row: {
    followerId: number;
    traderId: number;
    book: Book;
    currencyId: number;
    profitShareRate: string;
    settings: RelationSettings;
  },
  at: Date,
) {
  const s = row.settings;
  return oneRow<{ id: number }>(
    q,
    `INSERT INTO copy_relation (follower_id, trader_id, book, currency_id, mode, amount, ratio, max_open,
       tp_rate, sl_rate, budget, profit_share_rate, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id`,
    [
      row.followerId,
      row.traderId,
      row.book,
      row.currencyId,
      s.mode,
      s.amount,
      s.ratio,
      s.maxOpen,
      s.tpRate,
      s.slRate,
      s.budget,
      row.profitShareRate,
      at,
    ],
  );
}

export function updateRelationSettings(q: Queryable, id: number, s: RelationSettings, at: Date) {
  return q.query(
    `UPDATE copy_relation SET mode = $2, amount = $3, ratio = $4, max_open = $5, tp_rate = $6,
       sl_rate = $7, budget = $8, updated_at = $9 WHERE id = $1`,
    [id, s.mode, s.amount, s.ratio, s.maxOpen, s.tpRate, s.slRate, s.budget, at],
  );
}

export function endRelation(q: Queryable, id: number, endMode: number, at: Date) {
  return q.query(
    `UPDATE copy_relation SET status = 2, end_mode = $2, ended_at = $3, updated_at = $3
     WHERE id = $1 AND status = 1`,
    [id, endMode, at],
  );
}

export function pageRelations(
  q: Queryable,
  filter: {
    followerId?: number | null;
    traderId?: number | null;
    status?: number;
    book?: Book | null;
  },
  page: PageQuery,
) {
  const where = `WHERE ($1::bigint IS NULL OR r.follower_id = $1) AND ($2::bigint IS NULL OR r.trader_id = $2)
      AND ($3::int IS NULL OR r.status = $3) AND ($4::text IS NULL OR r.book = $4)`;
  return pageOf<RelationView>(
    q,
    {
      rows: `${RELATION_SELECT} ${where} ORDER BY r.status, r.id DESC`,
      count: `SELECT count(*)::int AS total FROM copy_relation r ${where}`,
      params: [
        filter.followerId ?? null,
        filter.traderId ?? null,
        filter.status ?? null,
        filter.book ?? null,
      ],
    },
    page,
  );
}

/** A trader's relations for the dashboard: active first, then the latest ended. */
export function traderRelations(q: Queryable, traderId: number, limit: number) {
  return allRows<RelationView>(
    q,
    `${RELATION_SELECT} WHERE r.trader_id = $1 ORDER BY r.status, r.id DESC LIMIT $2`,
    [traderId, limit],
  );
}

/** Followers' total realized result and the budgets of active live relations of a trader. */
export function traderTotals(q: Queryable, traderId: number) {
  return oneRow<{ followers_pnl: string; assets: string; share_paid: string }>(
    q,
    `SELECT coalesce((SELECT sum(p.realized_pnl - p.close_fee - p.open_fee) FROM copy_relation r
              JOIN copy_task t ON t.relation_id = r.id AND t.kind = 'open'
              JOIN contract_position p ON ${COPY_ROWS} AND p.status = ${CONTRACT_STATUS.closed}
              WHERE r.trader_id = $1 AND r.book = 'live'), 0)::text AS followers_pnl,
            coalesce((SELECT sum(budget) FROM copy_relation
              WHERE trader_id = $1 AND status = 1 AND book = 'live'), 0)::text AS assets,
            coalesce((SELECT sum(paid) FROM copy_relation WHERE trader_id = $1 AND book = 'live'), 0)::text AS share_paid`,
    [traderId],
  );
}

export function requestOf(q: Queryable, userId: number, requestId: string) {
  return firstRow<{ request_hash: string; action: string; relation_id: number }>(
    q,
    'SELECT request_hash, action, relation_id FROM copy_request WHERE user_id = $1 AND request_id = $2',
    [userId, requestId],
  );
}

export function insertRequest(
  q: Queryable,
  row: { userId: number; requestId: string; hash: string; action: string; relationId: number },
  at: Date,
) {
  return q.query(
    `INSERT INTO copy_request (user_id, request_id, request_hash, action, relation_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [row.userId, row.requestId, row.hash, row.action, row.relationId, at],
  );
}

// ---------------------------------------------------------------- hooks: the queue

/** Open tasks of every active relation of the traders (active) of the positions given. */
export async function queueOpens(
  q: Queryable,
  positions: { id: number; user_id: number }[],
  at: Date,
): Promise<number> {
  const { rowCount } = await q.query(
    `INSERT INTO copy_task (relation_id, leader_position_id, kind, seq, next_at, created_at)
     SELECT r.id, p.id, 'open', 0, $3, $3
     FROM unnest($1::bigint[], $2::bigint[]) AS p (id, user_id)
     JOIN copy_trader c ON c.user_id = p.user_id AND c.status = 1
     JOIN copy_relation r ON r.trader_id = p.user_id AND r.status = 1
     ON CONFLICT DO NOTHING`,
    [positions.map((p) => p.id), positions.map((p) => p.user_id), at],
  );
  return rowCount;
}

/**
 * A step for each copy of the leader positions given, of relations still active: a close, or a
 * TP/SL change (seq: the change's time). Copies not yet opened get theirs too (the worker waits
 * for the open, or skips it when none was made).
 */
export async function queueFollowUps(
  q: Queryable,
  kind: 'close' | 'tpsl',
  leaders: { id: number; seq: number }[],
  at: Date,
): Promise<number> {
  const { rowCount } = await q.query(
    `INSERT INTO copy_task (relation_id, leader_position_id, kind, seq, next_at, created_at)
     SELECT t.relation_id, t.leader_position_id, $3, l.seq, $4, $4
     FROM unnest($1::bigint[], $2::bigint[]) AS l (id, seq)
     JOIN copy_task t ON t.leader_position_id = l.id AND t.kind = 'open' AND t.status IN (0, 1)
     JOIN copy_relation r ON r.id = t.relation_id AND r.status = 1
     ON CONFLICT DO NOTHING`,
    [leaders.map((l) => l.id), leaders.map((l) => l.seq), kind, at],
  );
  return rowCount;
}

/**
 * A close task for each copy of positions a lead trader partly closed: seq the part's id, and in
 * its params the part's quantity and the position's quantity before it (the position, locked by
 * the close, holds the rest now), so the worker closes the same fraction of each copy.
 */
export async function queuePartCloses(
  q: Queryable,
  parts: { id: number; part: number; quantity: string }[],
  at: Date,
): Promise<number> {
  const { rowCount } = await q.query(
    `INSERT INTO copy_task (relation_id, leader_position_id, kind, seq, params, next_at, created_at)
     SELECT t.relation_id, t.leader_position_id, 'close', l.part,
            jsonb_build_object('quantity', l.quantity::text, 'before', (l.quantity + p.quantity)::text),
            $4, $4
     FROM unnest($1::bigint[], $2::bigint[], $3::numeric[]) AS l (id, part, quantity)
     JOIN contract_position p ON p.id = l.id
     JOIN copy_task t ON t.leader_position_id = l.id AND t.kind = 'open' AND t.status IN (0, 1)
     JOIN copy_relation r ON r.id = t.relation_id AND r.status = 1
     ON CONFLICT DO NOTHING`,
    [parts.map((l) => l.id), parts.map((l) => l.part), parts.map((l) => l.quantity), at],
  );
  return rowCount;
}

// ---------------------------------------------------------------- the worker

export interface TaskRow {
  id: number;
  relation_id: number;
  leader_position_id: number;
  kind: 'open' | 'close' | 'tpsl';
  seq: number;
  status: number;
  attempts: number;
  next_at: Date;
  follower_position_id: number | null;
  reason: string | null;
  created_at: Date;
  /** A partial close's quantities (queuePartCloses); absent where not read. */
  params?: { quantity?: string; before?: string } | null;
}

export function dueTasks(q: Queryable, now: Date, limit: number) {
  return allRows<TaskRow>(
    q,
    `SELECT id, relation_id, leader_position_id, kind, seq, status, attempts, next_at,
            follower_position_id, reason, created_at, params
     FROM copy_task WHERE status = 0 AND next_at <= $1 ORDER BY next_at, id LIMIT $2`,
    [now, limit],
  );
}

export async function anyDue(q: Queryable, now: Date): Promise<boolean> {
  const row = await firstRow<{ one: number }>(
    q,
    'SELECT 1 AS one FROM copy_task WHERE status = 0 AND next_at <= $1 LIMIT 1',
    [now],
  );
  return row !== undefined;
}

export function relationsByIds(q: Queryable, ids: number[]) {
  return allRows<RelationRow & { trader_status: number; trader_name: string }>(
    q,
    `SELECT r.*, c.status AS trader_status, u.nick_name AS trader_name FROM copy_relation r
     JOIN copy_trader c ON c.user_id = r.trader_id JOIN app_user u ON u.id = r.trader_id
     WHERE r.id = ANY($1::bigint[])`,
    [ids],
  );
}

/** The open tasks (the copies) of (relation, leader position) pairs. */
export function openTasksOf(q: Queryable, pairs: { relation: number; leader: number }[]) {
  return allRows<TaskRow>(
    q,
    `SELECT t.id, t.relation_id, t.leader_position_id, t.kind, t.seq, t.status, t.attempts, t.next_at,
            t.follower_position_id, t.reason, t.created_at
     FROM unnest($1::bigint[], $2::bigint[]) AS k (relation_id, leader_id)
     JOIN copy_task t ON t.relation_id = k.relation_id AND t.leader_position_id = k.leader_id
       AND t.kind = 'open'`,
    [pairs.map((p) => p.relation), pairs.map((p) => p.leader)],
  );
}

/** Open copies of relations: how many and their margin. */
export function openCopiesOf(q: Queryable, relationIds: number[]) {
  return allRows<{ relation_id: number; count: number; margin: string }>(
    q,
    `SELECT t.relation_id, count(*)::int AS count, sum(p.margin)::text AS margin
     FROM copy_task t JOIN contract_position p ON p.id = t.follower_position_id
     WHERE t.relation_id = ANY($1::bigint[]) AND t.kind = 'open' AND p.status = ${CONTRACT_STATUS.open}
     GROUP BY t.relation_id`,
    [relationIds],
  );
}

/** Contract positions by id. */
export function positionsByIds(q: Queryable, ids: number[]) {
  return allRows<PositionRow>(q, 'SELECT * FROM contract_position WHERE id = ANY($1::bigint[])', [
    ids,
  ]);
}

/** What copy trading reads of a contract position. */
export interface PositionRow {
  id: number;
  user_id: number;
  book: Book;
  product_id: number;
  currency_id: number;
  direction: number;
  leverage: number;
  quantity: string;
  margin: string;
  open_fee: string;
  close_fee: string | null;
  realized_pnl: string | null;
  entry_price: string | null;
  exit_price: string | null;
  take_profit: string | null;
  stop_loss: string | null;
  status: number;
  close_reason: number | null;
  opened_at: Date | null;
  closed_at: Date | null;
}

/** Available balances of (user, book, currency) keys. */
export async function availableOf(
  q: Queryable,
  keys: { userId: number; book: Book; currencyId: number }[],
): Promise<Map<string, string>> {
  const rows = await allRows<{
    owner_id: number;
    book: Book;
    currency_id: number;
    balance: string;
  }>(
    q,
    `SELECT a.owner_id, a.book, a.currency_id, a.balance::text AS balance
     FROM unnest($1::bigint[], $2::text[], $3::int[]) AS k (user_id, book, currency_id)
     JOIN ledger_account a ON a.book = k.book AND a.owner_type = 'user' AND a.owner_id = k.user_id
       AND a.currency_id = k.currency_id AND a.kind = 'available'`,
    [keys.map((k) => k.userId), keys.map((k) => k.book), keys.map((k) => k.currencyId)],
  );
  return new Map(
    rows.map((row) => [`${row.owner_id}:${row.book}:${row.currency_id}`, row.balance]),
  );
}

/** Positions of users under request ids (copies a crash left unrecorded). */
export function positionsByRequest(q: Queryable, keys: { userId: number; requestId: string }[]) {
  return allRows<{ id: number; user_id: number; request_id: string }>(
    q,
    `SELECT c.id, c.user_id, c.request_id FROM unnest($1::bigint[], $2::text[]) AS k (user_id, request_id)
     JOIN contract_position c ON c.user_id = k.user_id AND c.request_id = k.request_id`,
    [keys.map((k) => k.userId), keys.map((k) => k.requestId)],
  );
}

export interface TaskOutcome {
  id: number;
  status: number;
  reason: string | null;
  followerPositionId: number | null;
  params: unknown;
  /** For a retry: when it runs again (status stays pending). */
  nextAt: Date | null;
}

/** Writes the outcome of tasks: done, failed, skipped, or pending again at a later time. */
export function finishTasks(q: Queryable, outcomes: TaskOutcome[], now: Date) {
  return q.query(
    `UPDATE copy_task t SET status = d.status, reason = d.reason,
       follower_position_id = coalesce(d.position_id, t.follower_position_id),
       params = coalesce(d.params, t.params), attempts = t.attempts + 1,
       next_at = coalesce(d.next_at, t.next_at),
       done_at = CASE WHEN d.status = 0 THEN NULL ELSE $7::timestamptz END
     FROM unnest($1::bigint[], $2::smallint[], $3::text[], $4::bigint[], $5::jsonb[], $6::timestamptz[])
       AS d (id, status, reason, position_id, params, next_at)
     WHERE t.id = d.id AND t.status = 0`,
    [
      outcomes.map((o) => o.id),
      outcomes.map((o) => o.status),
      outcomes.map((o) => o.reason),
      outcomes.map((o) => o.followerPositionId),
      outcomes.map((o) => (o.params === undefined ? null : JSON.stringify(o.params))),
      outcomes.map((o) => o.nextAt),
      now,
    ],
  );
}

/** Pending open tasks of a relation, skipped (it ended) or of a trader (suspended). */
export function skipPendingOpens(
  q: Queryable,
  filter: { relationId?: number; traderId?: number },
  reason: string,
  at: Date,
) {
  return q.query(
    `UPDATE copy_task t SET status = 3, reason = $3, done_at = $4
     FROM copy_relation r WHERE r.id = t.relation_id AND t.status = 0 AND t.kind = 'open'
       AND ($1::bigint IS NULL OR r.id = $1) AND ($2::bigint IS NULL OR r.trader_id = $2)`,
    [filter.relationId ?? null, filter.traderId ?? null, reason, at],
  );
}

/** A relation's open copies (their positions' ids and leader positions). */
export function openCopies(q: Queryable, relationId: number) {
  return allRows<{ position_id: number; leader_position_id: number }>(
    q,
    `SELECT p.id AS position_id, t.leader_position_id ${OPEN_COPIES.replace('r.id', '$1')}`,
    [relationId],
  );
}

// ---------------------------------------------------------------- copies

export interface CopyTaskView extends TaskRow {
  trader_id: number;
  trader_name: string;
  book: Book;
  leader: {
    id: number;
    product_id: number;
    direction: number;
    leverage: number;
    margin: string;
    entry_price: string | null;
    exit_price: string | null;
    status: number;
    opened_at: string | null;
    closed_at: string | null;
  };
}

export function pageCopies(
  q: Queryable,
  filter: { followerId: number; relationId?: number; book: Book },
  page: PageQuery,
) {
  const where = `WHERE r.follower_id = $1 AND r.book = $3 AND ($2::bigint IS NULL OR r.id = $2) AND t.kind = 'open'`;
  return pageOf<CopyTaskView>(
    q,
    {
      rows: `SELECT t.id, t.relation_id, t.leader_position_id, t.kind, t.seq, t.status, t.attempts,
               t.next_at, t.follower_position_id, t.reason, t.created_at, t.done_at,
               r.trader_id, u.nick_name AS trader_name, r.book,
               json_build_object('id', l.id, 'product_id', l.product_id, 'direction', l.direction,
                 'leverage', l.leverage, 'margin', l.margin::text, 'entry_price', l.entry_price::text,
                 'exit_price', l.exit_price::text, 'status', l.status, 'opened_at', l.opened_at,
                 'closed_at', l.closed_at) AS leader
             FROM copy_task t JOIN copy_relation r ON r.id = t.relation_id
             JOIN app_user u ON u.id = r.trader_id
             JOIN contract_position l ON l.id = t.leader_position_id
             ${where} ORDER BY t.id DESC`,
      count: `SELECT count(*)::int AS total FROM copy_task t JOIN copy_relation r ON r.id = t.relation_id ${where}`,
      params: [filter.followerId, filter.relationId ?? null, filter.book],
    },
    page,
  );
}

/** A trader's live contract positions: open ones opened before `openedBefore`, or closed ones. */
export function pageTraderPositions(
  q: Queryable,
  traderId: number,
  status: 'open' | 'closed',
  openedBefore: Date,
  page: PageQuery,
) {
  const where =
    status === 'open'
      ? `WHERE user_id = $1 AND book = 'live' AND status = ${CONTRACT_STATUS.open} AND opened_at <= $2`
      : `WHERE user_id = $1 AND book = 'live' AND status = ${CONTRACT_STATUS.closed} AND $2::timestamptz IS NOT NULL`;
  return pageOf<Record<string, unknown>>(
    q,
    {
      rows: `SELECT * FROM contract_position ${where} ORDER BY ${status === 'open' ? 'opened_at' : 'closed_at'} DESC, id DESC`,
      count: `SELECT count(*)::int AS total FROM contract_position ${where}`,
      params: [traderId, openedBefore],
    },
    page,
  );
}

// ---------------------------------------------------------------- settlements

export interface SettlementRow {
  id: number;
  relation_id: number;
  follower_id: number;
  trader_id: number;
  book: Book;
  currency_id: number;
  reason: number;
  day: string;
  cum_pnl: string;
  hwm_before: string;
  hwm_after: string;
  rate: string;
  share: string;
  owed_before: string;
  paid: string;
  owed_after: string;
  entry_id: number | null;
  created_at: Date;
  trader_name?: string;
  follower_account?: string;
}

/** Active relations after `after` (by id), at most `limit`: a day's settlements in batches. */
export async function activeRelationIds(q: Queryable, after: number, limit: number) {
  const rows = await allRows<{ id: number }>(
    q,
    'SELECT id FROM copy_relation WHERE status = 1 AND id > $1 ORDER BY id LIMIT $2',
    [after, limit],
  );
  return rows.map((row) => row.id);
}

export function settlementExists(q: Queryable, relationId: number, reason: number, day: string) {
  return firstRow<{ id: number }>(
    q,
    'SELECT id FROM copy_settlement WHERE relation_id = $1 AND reason = $2 AND day = $3',
    [relationId, reason, day],
  );
}

export function insertSettlement(
  q: Queryable,
  row: Omit<SettlementRow, 'id' | 'created_at'>,
  at: Date,
) {
  return oneRow<{ id: number }>(
    q,
    `INSERT INTO copy_settlement (relation_id, follower_id, trader_id, book, currency_id, reason, day,
       cum_pnl, hwm_before, hwm_after, rate, share, owed_before, paid, owed_after, entry_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id`,
    [
      row.relation_id,
      row.follower_id,
      row.trader_id,
      row.book,
      row.currency_id,
      row.reason,
      row.day,
      row.cum_pnl,
      row.hwm_before,
      row.hwm_after,
      row.rate,
      row.share,
      row.owed_before,
      row.paid,
      row.owed_after,
      row.entry_id,
      at,
    ],
  );
}

export function settleRelation(
  q: Queryable,
  id: number,
  values: { cumPnl: string; hwm: string; owed: string; paid: string },
  at: Date,
) {
  return q.query(
    `UPDATE copy_relation SET cum_pnl = $2, hwm = $3, owed = $4, paid = paid + $5, updated_at = $6
     WHERE id = $1`,
    [id, values.cumPnl, values.hwm, values.owed, values.paid, at],
  );
}

const SETTLEMENT_SELECT = `SELECT s.*, s.day::text AS day, tu.nick_name AS trader_name,
    fu.user_account AS follower_account
  FROM copy_settlement s JOIN app_user tu ON tu.id = s.trader_id JOIN app_user fu ON fu.id = s.follower_id`;

export function pageSettlements(
  q: Queryable,
  filter: { followerId: number; relationId?: number },
  page: PageQuery,
) {
  const where = `WHERE s.follower_id = $1 AND ($2::bigint IS NULL OR s.relation_id = $2)`;
  return pageOf<SettlementRow>(
    q,
    {
      rows: `${SETTLEMENT_SELECT} ${where} ORDER BY s.id DESC`,
      count: `SELECT count(*)::int AS total FROM copy_settlement s ${where}`,
      params: [filter.followerId, filter.relationId ?? null],
    },
    page,
  );
}

/** A trader's income per UTC day and book, the latest `days` days with a settlement. */
export function incomePerDay(q: Queryable, traderId: number, days: number) {
  return allRows<{ day: string; book: Book; share: string; paid: string; settlements: number }>(
    q,
    `SELECT day::text AS day, book, sum(share)::text AS share, sum(paid)::text AS paid,
            count(*)::int AS settlements
     FROM copy_settlement WHERE trader_id = $1 GROUP BY day, book ORDER BY day DESC, book LIMIT $2`,
    [traderId, days],
  );
}

export function pageReport(q: Queryable, book: Book, page: PageQuery) {
  return pageOf<{
    day: string;
    currency_id: number;
    settlements: number;
    share: string;
    paid: string;
    owed: string;
    relations: number;
  }>(
    q,
    {
      rows: `SELECT s.day::text AS day, s.currency_id, count(*)::int AS settlements,
               sum(s.share)::text AS share, sum(s.paid)::text AS paid, sum(s.owed_after)::text AS owed,
               (SELECT count(*)::int FROM copy_relation r WHERE r.book = $1
                  AND r.created_at < s.day + 1 AND (r.ended_at IS NULL OR r.ended_at >= s.day + 1)) AS relations
             FROM copy_settlement s WHERE s.book = $1 GROUP BY s.day, s.currency_id
             ORDER BY s.day DESC, s.currency_id`,
      count: `SELECT count(*)::int AS total FROM (SELECT 1 FROM copy_settlement WHERE book = $1
                GROUP BY day, currency_id) d`,
      params: [book],
    },
    page,
  );
}

// ---------------------------------------------------------------- small reads

/** The caller's active relations in a book with some traders. */
export function myRelations(q: Queryable, userId: number, book: Book, traderIds: number[]) {
  return allRows<{ trader_id: number; id: number }>(
    q,
    `SELECT trader_id, id FROM copy_relation WHERE follower_id = $1 AND book = $2 AND status = 1
       AND trader_id = ANY($3::bigint[])`,
    [userId, book, traderIds],
  );
}

export async function relationCurrency(q: Queryable, id: number): Promise<number | undefined> {
  const row = await firstRow<{ currency_id: number }>(
    q,
    'SELECT currency_id FROM copy_relation WHERE id = $1',
    [id],
  );
  return row?.currency_id;
}

export async function nickNames(q: Queryable, ids: number[]): Promise<Map<number, string>> {
  const rows = await allRows<{ id: number; nick_name: string }>(
    q,
    'SELECT id, nick_name FROM app_user WHERE id = ANY($1::bigint[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.nick_name]));
}
