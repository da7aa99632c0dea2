/** SQL of users, sessions, verification codes and attempt limits. */
import type { Queryable } from '../../db/database';

export interface UserRow {
  id: number;
  reg_type: number;
  area_code: string | null;
  phone: string | null;
  email: string | null;
  user_account: string;
  password_hash: string;
  with_pwd_hash: string | null;
  nick_name: string;
  avatar: string | null;
  invite_code: string;
  inviter_id: number | null;
  account_type: 0 | 2;
  status: number;
  auth_status: number;
  pwd_changed_at: Date | null;
  with_pwd_changed_at: Date | null;
  created_at: Date;
  last_login_at: Date | null;
}

export interface LoginIdentity {
  email?: string;
  areaCode?: string;
  phone?: string;
}

export async function findUserByIdentity(
  q: Queryable,
  identity: LoginIdentity,
): Promise<UserRow | undefined> {
  if (identity.email) {
    return (await q.query<UserRow>('SELECT * FROM app_user WHERE email = $1', [identity.email]))
      .rows[0];
  }
  const { rows } = await q.query<UserRow>(
    'SELECT * FROM app_user WHERE area_code = $1 AND phone = $2',
    [identity.areaCode, identity.phone],
  );
  return rows[0];
}

export async function findUserById(
  q: Queryable,
  id: number,
  forUpdate = false,
): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(
    `SELECT * FROM app_user WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

export async function findUserIdByInviteCode(
  q: Queryable,
  inviteCode: string,
): Promise<number | undefined> {
  const { rows } = await q.query<{ id: number }>('SELECT id FROM app_user WHERE invite_code = $1', [
    inviteCode,
  ]);
  return rows[0]?.id;
}

export interface NewUser {
  regType: number;
  areaCode: string | null;
  phone: string | null;
  email: string | null;
  userAccount: string;
  passwordHash: string;
  nickName: string;
  inviteCode: string;
  inviterId: number | null;
  createdAt: Date;
}

/** Inserts a user; returns undefined when the phone, email or invite code is already taken. */
export async function insertUser(q: Queryable, user: NewUser): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(
    `INSERT INTO app_user (reg_type, area_code, phone, email, user_account, password_hash, nick_name, invite_code, inviter_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT DO NOTHING RETURNING *`,
    [
      user.regType,
      user.areaCode,
      user.phone,
      user.email,
      user.userAccount,
      user.passwordHash,
      user.nickName,
      user.inviteCode,
      user.inviterId,
      user.createdAt,
    ],
  );
  return rows[0];
}

/** 0 active, 1 disabled by an operator. */
export async function updateUserStatus(q: Queryable, userId: number, status: 0 | 1): Promise<void> {
  await q.query('UPDATE app_user SET status = $2 WHERE id = $1', [userId, status]);
}

export async function updateNickName(
  q: Queryable,
  userId: number,
  nickName: string,
): Promise<void> {
  await q.query('UPDATE app_user SET nick_name = $2 WHERE id = $1', [userId, nickName]);
}

export async function updatePasswordHash(
  q: Queryable,
  userId: number,
  passwordHash: string,
  at: Date,
): Promise<void> {
  await q.query('UPDATE app_user SET password_hash = $2, pwd_changed_at = $3 WHERE id = $1', [
    userId,
    passwordHash,
    at,
  ]);
}

export async function updateWithdrawalPasswordHash(
  q: Queryable,
  userId: number,
  hash: string,
  changedAt: Date | null,
): Promise<void> {
  await q.query(
    'UPDATE app_user SET with_pwd_hash = $2, with_pwd_changed_at = coalesce($3, with_pwd_changed_at) WHERE id = $1',
    [userId, hash, changedAt],
  );
}

export async function updateAccountType(
  q: Queryable,
  userId: number,
  accountType: 0 | 2,
): Promise<void> {
  await q.query('UPDATE app_user SET account_type = $2 WHERE id = $1', [userId, accountType]);
}

export async function touchLastLogin(q: Queryable, userId: number, at: Date): Promise<void> {
  await q.query('UPDATE app_user SET last_login_at = $2 WHERE id = $1', [userId, at]);
}

// ---------------------------------------------------------------- sessions

export async function insertSession(
  q: Queryable,
  session: {
    tokenHash: string;
    userId: number;
    accountType: 0 | 2;
    at: Date;
    expiresAt: Date;
    ip: string;
    userAgent: string;
  },
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO user_session (token_hash, user_id, account_type, created_at, last_seen_at, expires_at, ip, user_agent)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7) RETURNING id`,
    [
      session.tokenHash,
      session.userId,
      session.accountType,
      session.at,
      session.expiresAt,
      session.ip,
      session.userAgent,
    ],
  );
  return rows[0]!.id;
}

export interface SessionRow {
  session_id: number;
  session_account_type: 0 | 2;
  expires_at: Date;
  last_seen_at: Date;
}

/**
 * Live sessions with their users, in one round trip for many tokens (every authenticated call
 * starts here; calls arriving together share the trip).
 */
export async function findLiveSessions(
  q: Queryable,
  tokenHashes: readonly string[],
): Promise<(SessionRow & UserRow & { token_hash: string })[]> {
  const { rows } = await q.query<SessionRow & UserRow & { token_hash: string }>(
    `SELECT s.token_hash, s.id AS session_id, s.account_type AS session_account_type, s.expires_at,
       s.last_seen_at, u.*
     FROM user_session s JOIN app_user u ON u.id = s.user_id
     WHERE s.token_hash = ANY($1::text[]) AND s.revoked_at IS NULL`,
    [tokenHashes],
    { name: 'find_live_sessions' },
  );
  return rows;
}

export async function extendSession(
  q: Queryable,
  sessionId: number,
  at: Date,
  expiresAt: Date,
): Promise<void> {
  await q.query(
    'UPDATE user_session SET last_seen_at = $2, expires_at = $3 WHERE id = $1 AND revoked_at IS NULL',
    [sessionId, at, expiresAt],
  );
}

export async function setSessionAccountType(
  q: Queryable,
  sessionId: number,
  accountType: 0 | 2,
): Promise<void> {
  await q.query('UPDATE user_session SET account_type = $2 WHERE id = $1', [
    sessionId,
    accountType,
  ]);
}

export async function revokeSession(q: Queryable, sessionId: number, at: Date): Promise<void> {
  await q.query('UPDATE user_session SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
    sessionId,
    at,
  ]);
}

/** Ends every live session of a user; the ids of those it ended. */
export async function revokeUserSessions(
  q: Queryable,
  userId: number,
  at: Date,
): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    'UPDATE user_session SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id',
    [userId, at],
  );
  return rows.map((row) => row.id);
}

/** Whether each session is revoked or expired, and its user's status (missing ids: gone). */
export async function findSessionStates(
  q: Queryable,
  sessionIds: readonly number[],
): Promise<{ id: number; revoked_at: Date | null; expires_at: Date; status: number }[]> {
  const { rows } = await q.query<{
    id: number;
    revoked_at: Date | null;
    expires_at: Date;
    status: number;
  }>(
    `SELECT s.id, s.revoked_at, s.expires_at, u.status
     FROM user_session s JOIN app_user u ON u.id = s.user_id WHERE s.id = ANY($1::bigint[])`,
    [sessionIds],
  );
  return rows;
}

// ---------------------------------------------------------------- verification codes

export interface CodeRow {
  id: number;
  code_hash: string;
  created_at: Date;
  expires_at: Date;
  attempts: number;
  consumed_at: Date | null;
}

export async function latestCode(
  q: Queryable,
  channel: 'email' | 'phone',
  target: string,
  purpose: string,
  forUpdate = false,
): Promise<CodeRow | undefined> {
  const { rows } = await q.query<CodeRow>(
    `SELECT id, code_hash, created_at, expires_at, attempts, consumed_at FROM verification_code
     WHERE channel = $1 AND target = $2 AND purpose = $3 ORDER BY created_at DESC, id DESC LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}`,
    [channel, target, purpose],
  );
  return rows[0];
}

export async function insertCode(
  q: Queryable,
  code: {
    channel: 'email' | 'phone';
    target: string;
    purpose: string;
    codeHash: string;
    at: Date;
    expiresAt: Date;
  },
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO verification_code (channel, target, purpose, code_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [code.channel, code.target, code.purpose, code.codeHash, code.at, code.expiresAt],
  );
  return rows[0]!.id;
}

export async function deleteCode(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM verification_code WHERE id = $1', [id]);
}

export async function countCodeAttempt(q: Queryable, id: number): Promise<void> {
  await q.query('UPDATE verification_code SET attempts = attempts + 1 WHERE id = $1', [id]);
}

export async function consumeCode(q: Queryable, id: number, at: Date): Promise<void> {
  await q.query(
    'UPDATE verification_code SET consumed_at = $2, attempts = attempts + 1 WHERE id = $1',
    [id, at],
  );
}

// ---------------------------------------------------------------- attempt limits

export interface AttemptRow {
  failures: number;
  first_failure_at: Date;
  locked_until: Date | null;
}

export async function findAttempts(q: Queryable, key: string): Promise<AttemptRow | undefined> {
  const { rows } = await q.query<AttemptRow>(
    'SELECT failures, first_failure_at, locked_until FROM attempt_limit WHERE key = $1',
    [key],
  );
  return rows[0];
}

/**
 * Reserves one check of `key` in one statement, before the secret is checked: the upsert's row
 * lock orders concurrent reservations, and one is granted only while the key is not locked and its
 * failures plus the checks under way stay below `maxFailures`. The window (and with it the count)
 * restarts when it has passed or its lock has ended; checks reserved before `pendingSince` are
 * left over from a crash and no longer count. False: not granted (locked, or every slot in use).
 */
export async function reserveAttempt(
  q: Queryable,
  attempt: { key: string; at: Date; windowStart: Date; pendingSince: Date; maxFailures: number },
): Promise<boolean> {
  const restart = '(a.locked_until IS NOT NULL OR a.first_failure_at < $3)';
  const failures = `CASE WHEN ${restart} THEN 0 ELSE a.failures END`;
  const pending = 'CASE WHEN a.pending_at >= $4 THEN a.pending ELSE 0 END';
  const { rowCount } = await q.query(
    `INSERT INTO attempt_limit AS a (key, failures, first_failure_at, pending, pending_at)
     VALUES ($1, 0, $2, 1, $2)
     ON CONFLICT (key) DO UPDATE SET
       failures = ${failures},
       first_failure_at = CASE WHEN ${restart} THEN $2 ELSE a.first_failure_at END,
       locked_until = NULL,
       pending = ${pending} + 1,
       pending_at = $2
     WHERE (a.locked_until IS NULL OR a.locked_until <= $2)
       AND ${failures} + ${pending} < $5::int`,
    [attempt.key, attempt.at, attempt.windowStart, attempt.pendingSince, attempt.maxFailures],
    { name: 'reserve_attempt' },
  );
  return rowCount === 1;
}

/**
 * Settles a reserved check that failed: it becomes a failure, and the one that reaches
 * `maxFailures` locks the key until `lockUntil`. Gives the lock's end, if any.
 */
export async function settleFailedAttempt(
  q: Queryable,
  key: string,
  maxFailures: number,
  lockUntil: Date,
): Promise<Date | null> {
  const { rows } = await q.query<{ locked_until: Date | null }>(
    `UPDATE attempt_limit SET
       pending = GREATEST(pending - 1, 0),
       failures = failures + 1,
       locked_until = CASE WHEN failures + 1 >= $2::int THEN $3::timestamptz ELSE locked_until END
     WHERE key = $1
     RETURNING locked_until`,
    [key, maxFailures, lockUntil],
  );
  return rows[0]?.locked_until ?? null;
}

/**
 * Settles a reserved check that passed: failures and any lock are cleared; the row goes when no
 * other check of the key is under way.
 */
export async function settlePassedAttempt(q: Queryable, key: string, at: Date): Promise<void> {
  await q.query(
    `WITH gone AS (DELETE FROM attempt_limit WHERE key = $1 AND pending <= 1 RETURNING key)
     UPDATE attempt_limit SET pending = GREATEST(pending - 1, 0), failures = 0,
       first_failure_at = $2, locked_until = NULL
     WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM gone)`,
    [key, at],
    { name: 'settle_passed_attempt' },
  );
}

export async function clearAttempts(q: Queryable, key: string): Promise<void> {
  await q.query('DELETE FROM attempt_limit WHERE key = $1', [key]);
}

// ---------------------------------------------------------------- messages

export async function insertSiteMessage(
  q: Queryable,
  message: {
    userId: number | null;
    title: Record<string, string>;
    content: Record<string, string>;
    at: Date;
  },
): Promise<void> {
  await q.query(
    'INSERT INTO site_message (user_id, title, content, created_at) VALUES ($1, $2, $3, $4)',
    [message.userId, JSON.stringify(message.title), JSON.stringify(message.content), message.at],
  );
}
