/**
 * SQL of the security centre: a user's live sessions as they list them, the login history (with
 * its bounded pruning) and the anti-phishing code. Sessions are opened and ended by
 * src/auth/sessions.ts.
 */
import { firstRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';
import type { LoginResult, PageQuery } from '@bourse/shared';

export interface LiveSessionRow {
  id: number;
  created_at: Date;
  last_seen_at: Date;
  ip: string | null;
  user_agent: string | null;
}

const LIVE = 'user_id = $1 AND revoked_at IS NULL AND expires_at > $2';

/** The user's live sessions at `now`, last used first. */
export function liveSessions(q: Queryable, userId: number, now: Date, page: PageQuery) {
  return pageOf<LiveSessionRow>(
    q,
    {
      rows: `SELECT id, created_at, last_seen_at, ip, user_agent FROM user_session
        WHERE ${LIVE} ORDER BY last_seen_at DESC, id DESC`,
      count: `SELECT count(*)::int AS total FROM user_session WHERE ${LIVE}`,
      params: [userId, now],
    },
    page,
  );
}

/** Whether a session is the user's and live at `now` (locked until the transaction ends). */
export async function isLiveSessionOf(
  q: Queryable,
  userId: number,
  sessionId: number,
  now: Date,
): Promise<boolean> {
  const row = await firstRow<{ id: number }>(
    q,
    `SELECT id FROM user_session WHERE id = $3 AND ${LIVE} FOR UPDATE`,
    [userId, now, sessionId],
  );
  return row !== undefined;
}

/** Ends every live session of the user but `keepId`; the ids of those it ended. */
export async function endOtherSessions(
  q: Queryable,
  userId: number,
  keepId: number,
  now: Date,
): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    `UPDATE user_session SET revoked_at = $2
      WHERE user_id = $1 AND id <> $3 AND revoked_at IS NULL RETURNING id`,
    [userId, now, keepId],
  );
  return rows.map((row) => row.id);
}

// ---------------------------------------------------------------- login history

export interface LoginHistoryRow {
  id: number;
  created_at: Date;
  result: LoginResult;
  ip: string | null;
  user_agent: string | null;
}

/** At most this many rows leave the history with each insert (bounded work per sign-in). */
const PRUNE_BATCH = 100;

/**
 * Records a sign-in attempt, then deletes a bounded batch of what the history no longer keeps:
 * rows older than `keepSince` (of any account, oldest first; rows another sign-in is deleting
 * are skipped) and this account's rows beyond the newest `keepPerAccount`. Each insert deletes up
 * to PRUNE_BATCH of each, so the deletions keep pace with the inserts.
 */
export async function insertLoginAttempt(
  q: Queryable,
  attempt: {
    userId: number;
    at: Date;
    result: LoginResult;
    ip: string;
    userAgent: string;
    sessionId: number | null;
  },
  keep: { since: Date; perAccount: number },
): Promise<void> {
  await q.query(
    `INSERT INTO login_history (user_id, created_at, result, ip, user_agent, session_id)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      attempt.userId,
      attempt.at,
      attempt.result,
      attempt.ip.slice(0, 64),
      attempt.userAgent || null,
      attempt.sessionId,
    ],
  );
  await q.query(
    `DELETE FROM login_history WHERE id IN (
       SELECT id FROM login_history WHERE created_at < $1
       ORDER BY created_at LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)`,
    [keep.since],
  );
  await q.query(
    `DELETE FROM login_history WHERE id IN (
       SELECT id FROM login_history WHERE user_id = $1
       ORDER BY id DESC OFFSET $2 LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)`,
    [attempt.userId, keep.perAccount],
  );
}

/** The account's attempts since `since`, newest first. */
export function loginHistory(q: Queryable, userId: number, since: Date, page: PageQuery) {
  return pageOf<LoginHistoryRow>(
    q,
    {
      rows: `SELECT id, created_at, result, ip, user_agent FROM login_history
        WHERE user_id = $1 AND created_at >= $2 ORDER BY id DESC`,
      count: `SELECT count(*)::int AS total FROM login_history
        WHERE user_id = $1 AND created_at >= $2`,
      params: [userId, since],
    },
    page,
  );
}

// ---------------------------------------------------------------- anti-phishing code

export interface AntiPhishingRow {
  anti_phishing_code: string | null;
  anti_phishing_changed_at: Date | null;
}

export function antiPhishingOf(q: Queryable, userId: number) {
  return firstRow<AntiPhishingRow>(
    q,
    'SELECT anti_phishing_code, anti_phishing_changed_at FROM app_user WHERE id = $1',
    [userId],
  );
}

/** The anti-phishing code of the account registered with this email, if any. */
export async function antiPhishingOfEmail(
  q: Queryable,
  email: string,
): Promise<string | undefined> {
  const row = await firstRow<{ anti_phishing_code: string | null }>(
    q,
    'SELECT anti_phishing_code FROM app_user WHERE email = $1',
    [email],
  );
  return row?.anti_phishing_code ?? undefined;
}

export async function updateAntiPhishing(
  q: Queryable,
  userId: number,
  code: string,
  at: Date,
): Promise<void> {
  await q.query(
    'UPDATE app_user SET anti_phishing_code = $2, anti_phishing_changed_at = $3 WHERE id = $1',
    [userId, code, at],
  );
}
