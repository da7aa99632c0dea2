/** SQL of users and verification codes (sessions and attempt limits: src/auth/). */
import { firstRow, type Queryable } from '../../db/database';

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
  /** The highest verified level approved, -1 when none. */
  auth_level: number;
  pwd_changed_at: Date | null;
  with_pwd_changed_at: Date | null;
  /** The withdrawal address whitelist is on (migration 0027). */
  withdraw_whitelist: boolean;
  /** When the whitelist was last turned off: withdrawals are held 24 hours from then. */
  whitelist_off_at: Date | null;
  /** When an admin last removed the user's two-factor (migration 0029): a 24-hour hold too. */
  two_factor_reset_at: Date | null;
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
  return firstRow<UserRow>(q, 'SELECT * FROM app_user WHERE area_code = $1 AND phone = $2', [
    identity.areaCode,
    identity.phone,
  ]);
}

export function findUserById(q: Queryable, id: number, forUpdate = false) {
  return firstRow<UserRow>(
    q,
    `SELECT * FROM app_user WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
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
export function insertUser(q: Queryable, user: NewUser) {
  return firstRow<UserRow>(
    q,
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

/** Records an admin's removal of the user's two-factor (it starts the withdrawal hold). */
export async function markTwoFactorReset(q: Queryable, userId: number, at: Date): Promise<void> {
  await q.query('UPDATE app_user SET two_factor_reset_at = $2 WHERE id = $1', [userId, at]);
}

export async function updateAccountType(
  q: Queryable,
  userId: number,
  accountType: 0 | 2,
): Promise<void> {
  await q.query('UPDATE app_user SET account_type = $2 WHERE id = $1', [userId, accountType]);
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

export function latestCode(
  q: Queryable,
  channel: 'email' | 'phone',
  target: string,
  purpose: string,
  forUpdate = false,
) {
  return firstRow<CodeRow>(
    q,
    `SELECT id, code_hash, created_at, expires_at, attempts, consumed_at FROM verification_code
     WHERE channel = $1 AND target = $2 AND purpose = $3 ORDER BY created_at DESC, id DESC LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}`,
    [channel, target, purpose],
  );
}

/**
 * Counts one try at the user's latest unused code, atomically and before any comparison, and
 * returns it; nothing when there is none or its tries are used up.
 */
export function countCodeAttempt(
  q: Queryable,
  code: { channel: 'email' | 'phone'; target: string; purpose: string },
  maxAttempts: number,
) {
  return firstRow<{ id: number; code_hash: string; expires_at: Date }>(
    q,
    `UPDATE verification_code SET attempts = attempts + 1
     WHERE id = (SELECT id FROM verification_code WHERE channel = $1 AND target = $2 AND purpose = $3
                 ORDER BY created_at DESC, id DESC LIMIT 1)
       AND consumed_at IS NULL AND attempts < $4
     RETURNING id, code_hash, expires_at`,
    [code.channel, code.target, code.purpose, maxAttempts],
  );
}

/** Uses a code up; false when another request used it first. */
export async function consumeCode(q: Queryable, id: number, at: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE verification_code SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL',
    [id, at],
  );
  return rowCount === 1;
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
