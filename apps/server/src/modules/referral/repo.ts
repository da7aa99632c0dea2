/** SQL of team and referral: the ancestry, the terms, the fee charges, commissions and freezes. */
import { pageOf } from '../../db/page';
import type { Queryable } from '../../db/database';
import type { PageQuery } from '@bourse/shared';

// ---------------------------------------------------------------- terms

export interface TermsRow {
  id: number;
  levels: number;
  rate_1: string;
  rate_2: string;
  rate_3: string;
  effective_from: Date;
  operator_name: string;
}

const TERMS = `SELECT t.id, t.levels, t.rate_1::text, t.rate_2::text, t.rate_3::text, t.effective_from,
         o.username AS operator_name
    FROM referral_terms t JOIN operator o ON o.id = t.operator_id`;

/** The terms in force at a time (the latest in force from it or before). */
export async function termsAt(q: Queryable, at: Date): Promise<TermsRow | undefined> {
  const { rows } = await q.query<TermsRow>(
    `${TERMS} WHERE t.effective_from <= $1 ORDER BY t.effective_from DESC LIMIT 1`,
    [at],
    { name: 'referral_terms_at' },
  );
  return rows[0];
}

export async function termsHistory(q: Queryable, limit = 100): Promise<TermsRow[]> {
  const { rows } = await q.query<TermsRow>(`${TERMS} ORDER BY t.effective_from DESC LIMIT $1`, [
    limit,
  ]);
  return rows;
}

/** A key of the terms' changes (pg_advisory_xact_lock): one at a time, each after the last. */
const TERMS_LOCK_KEY = 7_310_035;

/** Holds the terms' lock until the transaction ends. */
export async function lockTerms(q: Queryable): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock($1)', [TERMS_LOCK_KEY]);
}

/** The latest terms' start, whatever the time (to keep a new start after it). */
export async function lastTermsStart(q: Queryable): Promise<Date | undefined> {
  const { rows } = await q.query<{ at: Date | null }>(
    'SELECT max(effective_from) AS at FROM referral_terms',
  );
  return rows[0]?.at ?? undefined;
}

export async function insertTerms(
  q: Queryable,
  terms: { levels: number; rates: [string, string, string]; at: Date; operatorId: number },
): Promise<void> {
  await q.query(
    `INSERT INTO referral_terms (levels, rate_1, rate_2, rate_3, effective_from, operator_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $5)`,
    [terms.levels, ...terms.rates, terms.at, terms.operatorId],
  );
}

// ---------------------------------------------------------------- team

/** Members per depth (1–3) under a user: one range of the level index each. */
export async function levelCounts(q: Queryable, userId: number): Promise<number[]> {
  const { rows } = await q.query<{ depth: number; members: number }>(
    `SELECT depth, count(*)::int AS members FROM referral_ancestry
      WHERE ancestor_id = $1 GROUP BY depth`,
    [userId],
  );
  return [1, 2, 3].map((depth) => rows.find((row) => row.depth === depth)?.members ?? 0);
}

export interface AmountRow {
  currency_id: number;
  currency_name: string;
  scale: number;
  amount: string;
}

/** Approved deposits of the members of levels 1..`levels`, reviewed within [from, to). */
export async function teamDeposits(
  q: Queryable,
  userId: number,
  levels: number,
  from: Date,
  to: Date,
): Promise<AmountRow[]> {
  const { rows } = await q.query<AmountRow>(
    `SELECT r.currency_id, c.currency_name, c.scale, sum(r.amount)::text AS amount
       FROM referral_ancestry a
       JOIN user_recharge r ON r.user_id = a.descendant_id
       JOIN platform_currency c ON c.id = r.currency_id
      WHERE a.ancestor_id = $1 AND a.depth <= $2 AND r.status = 1
        AND r.reviewed_at >= $3 AND r.reviewed_at < $4
      GROUP BY r.currency_id, c.currency_name, c.scale, c.sort
      ORDER BY c.sort, r.currency_id`,
    [userId, levels, from, to],
  );
  return rows;
}

/** Members of levels 1..`levels` whose first approved deposit was reviewed within [from, to). */
export async function firstDeposits(
  q: Queryable,
  userId: number,
  levels: number,
  from: Date,
  to: Date,
): Promise<number> {
  const { rows } = await q.query<{ members: number }>(
    `SELECT count(*)::int AS members FROM (
       SELECT (SELECT min(r.reviewed_at) FROM user_recharge r
                WHERE r.user_id = a.descendant_id AND r.status = 1) AS first_at
         FROM referral_ancestry a WHERE a.ancestor_id = $1 AND a.depth <= $2) m
      WHERE m.first_at >= $3 AND m.first_at < $4`,
    [userId, levels, from, to],
  );
  return rows[0]?.members ?? 0;
}

/** Commissions to a user by currency (paid, or withheld), created within [from, to) when given. */
export async function commissionSums(
  q: Queryable,
  userId: number,
  status: number,
  from?: Date,
  to?: Date,
): Promise<AmountRow[]> {
  const { rows } = await q.query<AmountRow>(
    `SELECT m.currency_id, c.currency_name, c.scale, sum(m.amount)::text AS amount
       FROM referral_commission m JOIN platform_currency c ON c.id = m.currency_id
      WHERE m.inviter_id = $1 AND m.status = $2
        AND ($3::timestamptz IS NULL OR m.created_at >= $3) AND ($4::timestamptz IS NULL OR m.created_at < $4)
      GROUP BY m.currency_id, c.currency_name, c.scale, c.sort
      ORDER BY c.sort, m.currency_id`,
    [userId, status, from ?? null, to ?? null],
  );
  return rows;
}

export interface MemberRow {
  depth: number;
  user_account: string;
  created_at: Date;
  deposited: boolean;
}

/**
 * One page of a level's members, newest first: a range of referral_ancestry_level_idx
 * (ancestor_id, depth, descendant_id DESC), joined to the users by primary key.
 */
export const LEVEL_MEMBERS_SQL = `SELECT a.depth, u.user_account, u.created_at,
         EXISTS (SELECT 1 FROM user_recharge r WHERE r.user_id = u.id AND r.status = 1) AS deposited
    FROM referral_ancestry a JOIN app_user u ON u.id = a.descendant_id
   WHERE a.ancestor_id = $1 AND a.depth = $2
   ORDER BY a.descendant_id DESC`;

export function levelMembers(q: Queryable, userId: number, depth: number, page: PageQuery) {
  return pageOf<MemberRow>(
    q,
    {
      rows: LEVEL_MEMBERS_SQL,
      count: `SELECT count(*)::int AS total FROM referral_ancestry WHERE ancestor_id = $1 AND depth = $2`,
      params: [userId, depth],
    },
    page,
  );
}

// ---------------------------------------------------------------- commissions

export interface CommissionRow {
  id: number;
  charge_id: number;
  level: number;
  inviter_id: number;
  inviter_account: string;
  payer_id: number;
  payer_account: string;
  source_type: string;
  source_id: number;
  order_no: string;
  currency_id: number;
  currency_name: string;
  scale: number;
  fee: string;
  rate: string;
  amount: string;
  status: number;
  entry_id: number | null;
  charged_at: Date;
  created_at: Date;
}

const COMMISSIONS = `SELECT m.id, m.charge_id, m.level, m.inviter_id, i.user_account AS inviter_account,
         m.payer_id, p.user_account AS payer_account, m.source_type, m.source_id, m.order_no,
         m.currency_id, c.currency_name, c.scale, m.fee::text, m.rate::text, m.amount::text,
         m.status, m.entry_id, m.charged_at, m.created_at
    FROM referral_commission m
    JOIN app_user i ON i.id = m.inviter_id
    JOIN app_user p ON p.id = m.payer_id
    JOIN platform_currency c ON c.id = m.currency_id`;

export function commissions(
  q: Queryable,
  filter: { inviterId?: number; payerId?: number; level?: number },
  page: PageQuery,
) {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.inviterId !== undefined) {
    params.push(filter.inviterId);
    where.push(`m.inviter_id = $${params.length}`);
  }
  if (filter.payerId !== undefined) {
    params.push(filter.payerId);
    where.push(`m.payer_id = $${params.length}`);
  }
  if (filter.level !== undefined) {
    params.push(filter.level);
    where.push(`m.level = $${params.length}`);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  return pageOf<CommissionRow>(
    q,
    {
      rows: `${COMMISSIONS} ${clause} ORDER BY m.id DESC`,
      count: `SELECT count(*)::int AS total FROM referral_commission m ${clause}`,
      params,
    },
    page,
  );
}

// ---------------------------------------------------------------- the worker

export interface ChargeRow {
  id: number;
  payer_id: number;
  source_type: string;
  source_id: number;
  order_no: string;
  currency_id: number;
  scale: number;
  fee: string;
  charged_at: Date;
}

/** Ids of pending charges, oldest first (read without a lock: each is locked when paid). */
export async function pendingCharges(q: Queryable, limit: number): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    'SELECT id FROM referral_fee_charge WHERE processed_at IS NULL ORDER BY id LIMIT $1',
    [limit],
  );
  return rows.map((row) => row.id);
}

/** A pending charge, locked; none when another worker holds it or it was paid meanwhile. */
export async function lockCharge(q: Queryable, id: number): Promise<ChargeRow | undefined> {
  const { rows } = await q.query<ChargeRow>(
    `SELECT f.id, f.payer_id, f.source_type, f.source_id, f.order_no, f.currency_id, c.scale,
            f.fee::text, f.charged_at
       FROM referral_fee_charge f JOIN platform_currency c ON c.id = f.currency_id
      WHERE f.id = $1 AND f.processed_at IS NULL
      FOR UPDATE OF f SKIP LOCKED`,
    [id],
  );
  return rows[0];
}

export async function ancestors(
  q: Queryable,
  userId: number,
  levels: number,
): Promise<{ ancestor_id: number; depth: number; frozen: boolean }[]> {
  const { rows } = await q.query<{ ancestor_id: number; depth: number; frozen: boolean }>(
    `SELECT a.ancestor_id, a.depth, (f.user_id IS NOT NULL) AS frozen
       FROM referral_ancestry a LEFT JOIN referral_freeze f ON f.user_id = a.ancestor_id
      WHERE a.descendant_id = $1 AND a.depth <= $2 ORDER BY a.depth`,
    [userId, levels],
  );
  return rows;
}

export interface CommissionInput {
  level: number;
  inviterId: number;
  rate: string;
  amount: string;
  status: number;
  entryId: number | null;
}

export async function insertCommissions(
  q: Queryable,
  charge: ChargeRow,
  rows: CommissionInput[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO referral_commission (charge_id, level, inviter_id, payer_id, source_type, source_id,
       order_no, currency_id, fee, rate, amount, status, entry_id, charged_at, created_at)
     SELECT $1, d.level, d.inviter_id, $2, $3, $4, $5, $6, $7, d.rate, d.amount, d.status, d.entry_id, $8, $9
       FROM unnest($10::smallint[], $11::bigint[], $12::numeric[], $13::numeric[], $14::smallint[], $15::bigint[])
         AS d (level, inviter_id, rate, amount, status, entry_id)`,
    [
      charge.id,
      charge.payer_id,
      charge.source_type,
      charge.source_id,
      charge.order_no,
      charge.currency_id,
      charge.fee,
      charge.charged_at,
      now,
      rows.map((row) => row.level),
      rows.map((row) => row.inviterId),
      rows.map((row) => row.rate),
      rows.map((row) => row.amount),
      rows.map((row) => row.status),
      rows.map((row) => row.entryId),
    ],
  );
}

export async function markProcessed(q: Queryable, id: number, now: Date): Promise<void> {
  await q.query('UPDATE referral_fee_charge SET processed_at = $2 WHERE id = $1', [id, now]);
}

// ---------------------------------------------------------------- freezes and users

export interface FreezeRow {
  user_id: number;
  user_account: string;
  reason: string;
  operator_name: string;
  frozen_at: Date;
}

const FREEZES = `SELECT f.user_id, u.user_account, f.reason, o.username AS operator_name, f.frozen_at
    FROM referral_freeze f JOIN app_user u ON u.id = f.user_id JOIN operator o ON o.id = f.operator_id`;

export async function findFreeze(q: Queryable, userId: number): Promise<FreezeRow | undefined> {
  const { rows } = await q.query<FreezeRow>(`${FREEZES} WHERE f.user_id = $1`, [userId]);
  return rows[0];
}

export function freezes(q: Queryable, page: PageQuery) {
  return pageOf<FreezeRow>(
    q,
    {
      rows: `${FREEZES} ORDER BY f.frozen_at DESC, f.user_id DESC`,
      count: 'SELECT count(*)::int AS total FROM referral_freeze',
      params: [],
    },
    page,
  );
}

/** True when frozen now (false: it was frozen already). */
export async function insertFreeze(
  q: Queryable,
  freeze: { userId: number; reason: string; operatorId: number; at: Date },
): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO referral_freeze (user_id, reason, operator_id, frozen_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
    [freeze.userId, freeze.reason, freeze.operatorId, freeze.at],
  );
  return rows.length > 0;
}

export async function deleteFreeze(q: Queryable, userId: number): Promise<boolean> {
  const { rows } = await q.query(
    'DELETE FROM referral_freeze WHERE user_id = $1 RETURNING user_id',
    [userId],
  );
  return rows.length > 0;
}

export interface UserRow {
  id: number;
  user_account: string;
  invite_code: string;
  inviter_id: number | null;
  inviter_account: string | null;
}

export async function findUser(q: Queryable, userId: number): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(
    `SELECT u.id, u.user_account, u.invite_code, u.inviter_id, i.user_account AS inviter_account
       FROM app_user u LEFT JOIN app_user i ON i.id = u.inviter_id WHERE u.id = $1`,
    [userId],
  );
  return rows[0];
}

// ---------------------------------------------------------------- report

export async function topInviters(q: Queryable, from: Date, to: Date, limit = 20) {
  const { rows } = await q.query<{
    user_id: number;
    user_account: string;
    currency_name: string;
    scale: number;
    amount: string;
    commissions: number;
  }>(
    `SELECT m.inviter_id AS user_id, u.user_account, c.currency_name, c.scale,
            sum(m.amount)::text AS amount, count(*)::int AS commissions
       FROM referral_commission m JOIN app_user u ON u.id = m.inviter_id
       JOIN platform_currency c ON c.id = m.currency_id
      WHERE m.status = 1 AND m.created_at >= $1 AND m.created_at < $2
      GROUP BY m.inviter_id, u.user_account, c.currency_name, c.scale
      ORDER BY sum(m.amount) DESC, m.inviter_id LIMIT $3`,
    [from, to, limit],
  );
  return rows;
}

export async function perDay(q: Queryable, from: Date, to: Date) {
  const { rows } = await q.query<{
    day: string;
    currency_name: string;
    scale: number;
    amount: string;
    commissions: number;
  }>(
    `SELECT to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, c.currency_name, c.scale,
            sum(m.amount)::text AS amount, count(*)::int AS commissions
       FROM referral_commission m JOIN platform_currency c ON c.id = m.currency_id
      WHERE m.status = 1 AND m.created_at >= $1 AND m.created_at < $2
      GROUP BY 1, c.currency_name, c.scale ORDER BY 1 DESC, c.currency_name`,
    [from, to],
  );
  return rows;
}

// ---------------------------------------------------------------- sign-up

/**
 * Whether the inviter has a live session from the same browser as a registration: the same
 * address and the same user agent. A sign-up there is the inviter inviting themselves.
 */
export async function inviterOnSameBrowser(
  q: Queryable,
  inviterId: number,
  client: { ip: string; userAgent: string },
  now: Date,
): Promise<boolean> {
  const { rows } = await q.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM user_session
       WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
         AND ip = $3 AND user_agent = $4) AS found`,
    [inviterId, now, client.ip, client.userAgent],
  );
  return rows[0]?.found ?? false;
}
