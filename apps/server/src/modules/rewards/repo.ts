/** SQL of welfare campaigns, their tasks and completions, deposit reward tiers and their payouts. */
import type { PageQuery } from '@bourse/shared';
import type { Queryable } from '../../db/database';
import { pageOf } from '../../db/page';

// ---------------------------------------------------------------- campaigns and tasks

export interface CampaignRow {
  id: number;
  title: Record<string, string>;
  description: Record<string, string>;
  withdraw_condition: Record<string, string> | null;
  starts_at: Date;
  ends_at: Date;
  currency_id: number;
  budget: string;
  spent: string;
  ended_at: Date | null;
  end_reason: string | null;
  created_at: Date;
}

export interface TaskRow {
  id: number;
  campaign_id: number;
  kind: string;
  threshold: string;
  reward: string;
  sort: number;
}

export interface TaskStatsRow extends TaskRow {
  completions: number;
  paid_count: number;
}

const CAMPAIGN_COLUMNS = `id, title, description, withdraw_condition, starts_at, ends_at, currency_id,
  budget, spent, ended_at, end_reason, created_at`;

/** When a campaign stops: its stated end, or when it was ended. */
export const STOPS_AT = 'least(c.ends_at, coalesce(c.ended_at, c.ends_at))';

/**
 * Campaigns a user sees at `now`: not ended more than 30 days ago (the app shows recent ones as
 * ended), in their order of start.
 */
export async function listVisibleCampaigns(q: Queryable, now: Date): Promise<CampaignRow[]> {
  const { rows } = await q.query<CampaignRow>(
    `SELECT ${CAMPAIGN_COLUMNS} FROM reward_campaign c
     WHERE ${STOPS_AT} > $1::timestamptz - interval '30 days'
     ORDER BY (${STOPS_AT} <= $1) , c.starts_at, c.id
     LIMIT 50`,
    [now],
  );
  return rows;
}

/** Campaigns running at `now` (started, not stopped). */
export async function listRunningCampaigns(q: Queryable, now: Date): Promise<CampaignRow[]> {
  const { rows } = await q.query<CampaignRow>(
    `SELECT ${CAMPAIGN_COLUMNS} FROM reward_campaign c
     WHERE c.starts_at <= $1 AND ${STOPS_AT} > $1 ORDER BY c.id LIMIT 200`,
    [now],
  );
  return rows;
}

export async function findCampaign(
  q: Queryable,
  id: number,
  forUpdate = false,
): Promise<CampaignRow | undefined> {
  const { rows } = await q.query<CampaignRow>(
    `SELECT ${CAMPAIGN_COLUMNS} FROM reward_campaign c WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

export async function pageCampaigns(
  q: Queryable,
  filter: { status?: string; now: Date },
  page: PageQuery,
) {
  const where =
    filter.status === 'upcoming'
      ? 'c.starts_at > $1'
      : filter.status === 'running'
        ? `c.starts_at <= $1 AND ${STOPS_AT} > $1`
        : filter.status === 'ended'
          ? `${STOPS_AT} <= $1`
          : '$1::timestamptz IS NOT NULL';
  return pageOf<CampaignRow>(
    q,
    {
      rows: `SELECT ${CAMPAIGN_COLUMNS} FROM reward_campaign c WHERE ${where} ORDER BY c.id DESC`,
      count: `SELECT count(*)::int AS total FROM reward_campaign c WHERE ${where}`,
      params: [filter.now],
    },
    page,
  );
}

export async function tasksOf(q: Queryable, campaignIds: readonly number[]): Promise<TaskRow[]> {
  if (campaignIds.length === 0) return [];
  const { rows } = await q.query<TaskRow>(
    `SELECT id, campaign_id, kind, threshold, reward, sort FROM reward_task
     WHERE campaign_id = ANY($1::int[]) ORDER BY campaign_id, sort, id`,
    [campaignIds],
  );
  return rows;
}

export async function taskStatsOf(
  q: Queryable,
  campaignIds: readonly number[],
): Promise<TaskStatsRow[]> {
  if (campaignIds.length === 0) return [];
  const { rows } = await q.query<TaskStatsRow>(
    `SELECT t.id, t.campaign_id, t.kind, t.threshold, t.reward, t.sort,
            count(r.id)::int AS completions, count(r.id) FILTER (WHERE r.paid)::int AS paid_count
     FROM reward_task t LEFT JOIN reward_completion r ON r.task_id = t.id
     WHERE t.campaign_id = ANY($1::int[])
     GROUP BY t.id ORDER BY t.campaign_id, t.sort, t.id`,
    [campaignIds],
  );
  return rows;
}

export interface CampaignValues {
  title: Record<string, string>;
  description: Record<string, string>;
  withdrawCondition: Record<string, string> | null;
  startsAt: Date;
  endsAt: Date;
  currencyId: number;
  budget: string;
}

export async function insertCampaign(
  q: Queryable,
  values: CampaignValues,
  operatorId: number,
  now: Date,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO reward_campaign (title, description, withdraw_condition, starts_at, ends_at,
       currency_id, budget, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) RETURNING id`,
    [
      JSON.stringify(values.title),
      JSON.stringify(values.description),
      values.withdrawCondition === null ? null : JSON.stringify(values.withdrawCondition),
      values.startsAt,
      values.endsAt,
      values.currencyId,
      values.budget,
      operatorId,
      now,
    ],
  );
  return rows[0]!.id;
}

export async function updateCampaign(
  q: Queryable,
  id: number,
  values: CampaignValues,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE reward_campaign SET title = $2, description = $3, withdraw_condition = $4,
       starts_at = $5, ends_at = $6, currency_id = $7, budget = $8, updated_at = $9
     WHERE id = $1`,
    [
      id,
      JSON.stringify(values.title),
      JSON.stringify(values.description),
      values.withdrawCondition === null ? null : JSON.stringify(values.withdrawCondition),
      values.startsAt,
      values.endsAt,
      values.currencyId,
      values.budget,
      now,
    ],
  );
}

/** Replaces the tasks of a campaign that has not started (none has a completion). */
export async function replaceTasks(
  q: Queryable,
  campaignId: number,
  tasks: readonly { kind: string; threshold: string; reward: string }[],
): Promise<void> {
  await q.query('DELETE FROM reward_task WHERE campaign_id = $1', [campaignId]);
  await q.query(
    `INSERT INTO reward_task (campaign_id, kind, threshold, reward, sort)
     SELECT $1, kind, threshold, reward, sort
     FROM unnest($2::text[], $3::numeric[], $4::numeric[], $5::int[]) AS t(kind, threshold, reward, sort)`,
    [
      campaignId,
      tasks.map((task) => task.kind),
      tasks.map((task) => task.threshold),
      tasks.map((task) => task.reward),
      tasks.map((_task, index) => index),
    ],
  );
}

export async function endCampaign(
  q: Queryable,
  id: number,
  reason: string,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE reward_campaign c SET ended_at = $2, end_reason = $3, updated_at = $2
     WHERE id = $1 AND ${STOPS_AT} > $2`,
    [id, now, reason],
  );
  return (rowCount ?? 0) > 0;
}

// ---------------------------------------------------------------- completions

export interface CompletionRow {
  id: number;
  task_id: number;
  paid: boolean;
  amount: string;
  entry_id: number | null;
  completed_at: Date;
}

export async function completionsOf(
  q: Queryable,
  userId: number,
  taskIds: readonly number[],
): Promise<CompletionRow[]> {
  if (taskIds.length === 0) return [];
  const { rows } = await q.query<CompletionRow>(
    `SELECT id, task_id, paid, amount, entry_id, completed_at FROM reward_completion
     WHERE user_id = $1 AND task_id = ANY($2::int[])`,
    [userId, taskIds],
  );
  return rows;
}

export async function insertCompletion(
  q: Queryable,
  row: {
    taskId: number;
    campaignId: number;
    userId: number;
    currencyId: number;
    amount: string;
    entryId: number | null;
    now: Date;
  },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO reward_completion (task_id, campaign_id, user_id, currency_id, amount, paid, entry_id,
       completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (task_id, user_id) DO NOTHING`,
    [
      row.taskId,
      row.campaignId,
      row.userId,
      row.currencyId,
      row.amount,
      row.entryId !== null,
      row.entryId,
      row.now,
    ],
  );
  return (rowCount ?? 0) > 0;
}

export async function addSpent(q: Queryable, campaignId: number, amount: string): Promise<void> {
  await q.query('UPDATE reward_campaign SET spent = spent + $2 WHERE id = $1', [
    campaignId,
    amount,
  ]);
}

// ---------------------------------------------------------------- facts of a user

export interface UserFacts {
  auth_level: number;
  inviter_id: number | null;
}

export async function userFacts(q: Queryable, userId: number): Promise<UserFacts | undefined> {
  const { rows } = await q.query<UserFacts>(
    'SELECT auth_level, inviter_id FROM app_user WHERE id = $1',
    [userId],
  );
  return rows[0];
}

/** The largest approved deposit of a currency within a window (null: none). */
export async function largestDepositWithin(
  q: Queryable,
  userId: number,
  currencyId: number,
  from: Date,
  to: Date,
): Promise<string | null> {
  const { rows } = await q.query<{ amount: string | null }>(
    `SELECT max(amount) AS amount FROM user_recharge
     WHERE user_id = $1 AND status = 1 AND currency_id = $2 AND reviewed_at >= $3 AND reviewed_at < $4`,
    [userId, currencyId, from, to],
  );
  return rows[0]?.amount ?? null;
}

/**
 * Live trading within a window: how many trades (contracts opened, spot and coin-to-coin orders
 * filled, fast trades placed, in any currency) and their notional in `currencyId` (a contract's
 * entry price × quantity, an order's filled amount, a fast trade's stake).
 */
export async function liveTradingWithin(
  q: Queryable,
  userId: number,
  currencyId: number,
  from: Date,
  to: Date,
): Promise<{ trades: number; notional: string }> {
  const { rows } = await q.query<{ trades: number; notional: string }>(
    `SELECT coalesce(sum(trades), 0)::int AS trades, coalesce(sum(notional), 0)::text AS notional FROM (
       -- A part split off by a partial close is no trade of its own; its notional is its
       -- position's (which keeps only the rest).
       SELECT count(*) FILTER (WHERE parent_id IS NULL) AS trades,
              coalesce(sum(entry_price * quantity) FILTER (WHERE currency_id = $2), 0) AS notional
       FROM contract_position
       WHERE user_id = $1 AND book = 'live' AND opened_at >= $3 AND opened_at < $4
       UNION ALL
       SELECT count(*), coalesce(sum(amount) FILTER (WHERE currency_id = $2), 0)
       FROM spot_order
       WHERE user_id = $1 AND book = 'live' AND status = 1 AND filled_at >= $3 AND filled_at < $4
       UNION ALL
       SELECT count(*), coalesce(sum(stake) FILTER (WHERE currency_id = $2), 0)
       FROM fast_trade_order
       WHERE user_id = $1 AND book = 'live' AND created_at >= $3 AND created_at < $4
     ) AS t`,
    [userId, currencyId, from, to],
  );
  return rows[0] ?? { trades: 0, notional: '0' };
}

/** Whether one of the user's invitees had an identity level approved within a window. */
export async function inviteeVerifiedWithin(
  q: Queryable,
  userId: number,
  from: Date,
  to: Date,
): Promise<boolean> {
  const { rows } = await q.query<{ found: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM app_user i JOIN user_auth_record r ON r.user_id = i.id
       WHERE i.inviter_id = $1 AND r.status = 1 AND r.reviewed_at >= $2 AND r.reviewed_at < $3
     ) AS found`,
    [userId, from, to],
  );
  return rows[0]?.found ?? false;
}

/**
 * Users who did something a task or tier may count since `since`: an approved deposit, an approved
 * identity level (and their inviters), a live trade. At most `limit`, for one round of the sweep.
 */
export async function usersActiveSince(q: Queryable, since: Date, limit: number, offset = 0) {
  const { rows } = await q.query<{ user_id: number }>(
    `SELECT DISTINCT user_id FROM (
       SELECT user_id FROM user_recharge WHERE status = 1 AND reviewed_at >= $1
       UNION SELECT user_id FROM user_auth_record WHERE status = 1 AND reviewed_at >= $1
       UNION SELECT u.inviter_id FROM user_auth_record r JOIN app_user u ON u.id = r.user_id
             WHERE r.status = 1 AND r.reviewed_at >= $1 AND u.inviter_id IS NOT NULL
       UNION SELECT user_id FROM contract_position WHERE book = 'live' AND opened_at >= $1
       UNION SELECT user_id FROM spot_order WHERE book = 'live' AND status = 1 AND filled_at >= $1
       UNION SELECT user_id FROM fast_trade_order WHERE book = 'live' AND created_at >= $1
     ) AS t ORDER BY user_id LIMIT $2 OFFSET $3`,
    [since, limit, offset],
  );
  return rows.map((row) => row.user_id);
}

// ---------------------------------------------------------------- deposit reward tiers

export interface TierRow {
  id: number;
  lineage_id: number;
  currency_id: number;
  min_amount: string;
  max_amount: string | null;
  rate: string;
  created_at: Date;
  retired_at: Date | null;
}

export interface TierStatsRow extends TierRow {
  payout_count: number;
  paid_total: string;
}

const TIER_COLUMNS =
  'id, lineage_id, currency_id, min_amount, max_amount, rate, created_at, retired_at';

export async function listTiersInForce(
  q: Queryable,
  currencyId: number | undefined,
): Promise<TierRow[]> {
  const { rows } = await q.query<TierRow>(
    `SELECT ${TIER_COLUMNS} FROM reward_tier
     WHERE retired_at IS NULL AND ($1::int IS NULL OR currency_id = $1)
     ORDER BY currency_id, min_amount, id LIMIT 200`,
    [currencyId ?? null],
  );
  return rows;
}

export async function listTiersForConsole(
  q: Queryable,
  withRetired: boolean,
): Promise<TierStatsRow[]> {
  const { rows } = await q.query<TierStatsRow>(
    `SELECT t.id, t.lineage_id, t.currency_id, t.min_amount, t.max_amount, t.rate, t.created_at,
            t.retired_at, count(p.id)::int AS payout_count, coalesce(sum(p.amount), 0)::text AS paid_total
     FROM reward_tier t LEFT JOIN reward_tier_payout p ON p.tier_id = t.id
     WHERE $1 OR t.retired_at IS NULL
     GROUP BY t.id ORDER BY t.retired_at IS NOT NULL, t.currency_id, t.min_amount, t.id DESC LIMIT 500`,
    [withRetired],
  );
  return rows;
}

export async function findTier(
  q: Queryable,
  id: number,
  forUpdate = false,
): Promise<TierStatsRow | undefined> {
  const { rows } = await q.query<TierStatsRow>(
    `SELECT t.id, t.lineage_id, t.currency_id, t.min_amount, t.max_amount, t.rate, t.created_at,
            t.retired_at,
            (SELECT count(*)::int FROM reward_tier_payout p WHERE p.tier_id = t.id) AS payout_count,
            (SELECT coalesce(sum(amount), 0)::text FROM reward_tier_payout p WHERE p.tier_id = t.id) AS paid_total
     FROM reward_tier t WHERE t.id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

/** Tiers in force of a currency whose range meets [min, max) (max null: unbounded), but `except`. */
export async function overlappingTier(
  q: Queryable,
  tier: { currencyId: number; min: string; max: string | null; except: number | null },
): Promise<number | undefined> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id FROM reward_tier
     WHERE retired_at IS NULL AND currency_id = $1 AND ($4::int IS NULL OR id <> $4)
       AND (max_amount IS NULL OR max_amount > $2::numeric)
       AND ($3::numeric IS NULL OR min_amount < $3::numeric)
     LIMIT 1`,
    [tier.currencyId, tier.min, tier.max, tier.except],
  );
  return rows[0]?.id;
}

export async function insertTier(
  q: Queryable,
  tier: {
    lineageId: number | null;
    currencyId: number;
    min: string;
    max: string | null;
    rate: string;
  },
  operatorId: number,
  now: Date,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO reward_tier (id, lineage_id, currency_id, min_amount, max_amount, rate, created_by,
       created_at)
     SELECT n, coalesce($1::int, n), $2, $3, $4, $5, $6, $7
     FROM (SELECT nextval(pg_get_serial_sequence('reward_tier', 'id'))::int AS n) AS s
     RETURNING id`,
    [tier.lineageId, tier.currencyId, tier.min, tier.max, tier.rate, operatorId, now],
  );
  return rows[0]!.id;
}

export async function retireTier(q: Queryable, id: number, now: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE reward_tier SET retired_at = $2 WHERE id = $1 AND retired_at IS NULL',
    [id, now],
  );
  return (rowCount ?? 0) > 0;
}

export interface TierDueRow {
  recharge_id: number;
  amount: string;
  currency_id: number;
  tier_id: number;
  lineage_id: number;
  rate: string;
  reviewed_at: Date;
}

/**
 * The user's approved live deposits that earn a tier not paid to them yet: the tier in force when
 * the deposit was submitted whose range holds its amount. Oldest approval first (the first deposit
 * in a tier's range earns it).
 */
export async function tiersDue(q: Queryable, userId: number): Promise<TierDueRow[]> {
  const { rows } = await q.query<TierDueRow>(
    `SELECT r.id AS recharge_id, r.amount, r.currency_id, t.id AS tier_id, t.lineage_id, t.rate,
            r.reviewed_at
     FROM user_recharge r
     JOIN reward_tier t ON t.currency_id = r.currency_id
       AND t.created_at <= r.created_at AND (t.retired_at IS NULL OR t.retired_at > r.created_at)
       AND r.amount >= t.min_amount AND (t.max_amount IS NULL OR r.amount < t.max_amount)
     WHERE r.user_id = $1 AND r.status = 1
       AND NOT EXISTS (SELECT 1 FROM reward_tier_payout p
                       WHERE p.user_id = $1 AND (p.lineage_id = t.lineage_id OR p.recharge_id = r.id))
     ORDER BY r.reviewed_at, r.id
     LIMIT 20`,
    [userId],
  );
  return rows;
}

export async function insertTierPayout(
  q: Queryable,
  row: {
    tierId: number;
    lineageId: number;
    userId: number;
    rechargeId: number;
    currencyId: number;
    depositAmount: string;
    rate: string;
    amount: string;
    entryId: number;
    now: Date;
  },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO reward_tier_payout (tier_id, lineage_id, user_id, recharge_id, currency_id,
       deposit_amount, rate, amount, entry_id, paid_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
    [
      row.tierId,
      row.lineageId,
      row.userId,
      row.rechargeId,
      row.currencyId,
      row.depositAmount,
      row.rate,
      row.amount,
      row.entryId,
      row.now,
    ],
  );
  return (rowCount ?? 0) > 0;
}

export async function earnedLineages(q: Queryable, userId: number): Promise<Set<number>> {
  const { rows } = await q.query<{ lineage_id: number }>(
    'SELECT lineage_id FROM reward_tier_payout WHERE user_id = $1',
    [userId],
  );
  return new Set(rows.map((row) => row.lineage_id));
}

/** Serialises a user's tier payouts: the user's row, locked. */
export async function lockUser(q: Queryable, userId: number): Promise<void> {
  await q.query('SELECT id FROM app_user WHERE id = $1 FOR UPDATE', [userId]);
}

// ---------------------------------------------------------------- award records

export interface AwardRow {
  source: number;
  id: number;
  user_id: number;
  user_account: string;
  campaign_title: Record<string, string> | null;
  task_kind: string | null;
  threshold: string | null;
  deposit_amount: string | null;
  rate: string | null;
  order_no: string | null;
  amount: string;
  currency_id: number;
  paid: boolean;
  entry_id: number | null;
  at: Date;
}

const AWARDS = `
  SELECT 1 AS source, r.id, r.user_id, r.campaign_id, c.title AS campaign_title, t.kind AS task_kind,
         t.threshold, NULL::numeric AS deposit_amount, NULL::numeric AS rate, NULL::text AS order_no,
         r.amount, r.currency_id, r.paid, r.entry_id, r.completed_at AS at
  FROM reward_completion r JOIN reward_task t ON t.id = r.task_id
  JOIN reward_campaign c ON c.id = r.campaign_id
  UNION ALL
  SELECT 2, p.id, p.user_id, NULL, NULL, NULL, NULL, p.deposit_amount, p.rate, u.order_no, p.amount,
         p.currency_id, true, p.entry_id, p.paid_at
  FROM reward_tier_payout p JOIN user_recharge u ON u.id = p.recharge_id`;

export function pageAwards(
  q: Queryable,
  filter: { userId?: number; campaignId?: number; source?: number },
  page: PageQuery,
) {
  const params = [filter.userId ?? null, filter.campaignId ?? null, filter.source ?? null];
  const where = `($1::bigint IS NULL OR a.user_id = $1) AND ($2::int IS NULL OR a.campaign_id = $2)
    AND ($3::int IS NULL OR a.source = $3)`;
  return pageOf<AwardRow>(
    q,
    {
      rows: `SELECT a.source, a.id, a.user_id, u.user_account, a.campaign_title, a.task_kind,
                    a.threshold::text, a.deposit_amount::text, a.rate::text, a.order_no, a.amount::text,
                    a.currency_id, a.paid, a.entry_id, a.at
             FROM (${AWARDS}) AS a JOIN app_user u ON u.id = a.user_id
             WHERE ${where} ORDER BY a.at DESC, a.source, a.id DESC`,
      count: `SELECT count(*)::int AS total FROM (${AWARDS}) AS a WHERE ${where}`,
      params,
    },
    page,
  );
}

/** A user's id by account (email, phone, user_account) or id. */
export async function findUserId(q: Queryable, account: string): Promise<number | undefined> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id FROM app_user
     WHERE ($1 ~ '^[0-9]{1,18}$' AND id = $1::bigint)
        OR user_account = $1 OR email = lower($1) OR phone = $1
     ORDER BY (id::text = $1) DESC, id LIMIT 1`,
    [account],
  );
  return rows[0]?.id;
}

/** What each campaign paid: the sum of its paid completions. */
export async function paidTotals(
  q: Queryable,
  campaignIds: readonly number[],
): Promise<Map<number, string>> {
  if (campaignIds.length === 0) return new Map();
  const { rows } = await q.query<{ campaign_id: number; total: string }>(
    `SELECT campaign_id, sum(amount)::text AS total FROM reward_completion
     WHERE paid AND campaign_id = ANY($1::int[]) GROUP BY campaign_id`,
    [campaignIds],
  );
  return new Map(rows.map((row) => [row.campaign_id, row.total]));
}
