/** SQL of two-factor authentication: the sealed secrets, recovery codes and sign-in challenges. */
import { firstRow, type Queryable } from '../../db/database';

export interface TwoFactorRow {
  user_id: number;
  secret_sealed: string;
  enabled_at: Date | null;
  last_step: string;
  created_at: Date;
}

export function findTwoFactor(q: Queryable, userId: number): Promise<TwoFactorRow | undefined> {
  return firstRow<TwoFactorRow>(q, 'SELECT * FROM user_two_factor WHERE user_id = $1', [userId]);
}

/**
 * Keeps a new secret waiting for its first code (set up again: the earlier one is replaced).
 * False when two-factor is on: an enabled secret is never replaced.
 */
export async function savePendingSecret(
  q: Queryable,
  userId: number,
  secretSealed: string,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO user_two_factor AS t (user_id, secret_sealed, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET secret_sealed = $2, created_at = $3, last_step = 0
     WHERE t.enabled_at IS NULL`,
    [userId, secretSealed, at],
  );
  return rowCount === 1;
}

/** Turns a waiting secret on; false when it was on already (or is gone). */
export async function enable(q: Queryable, userId: number, at: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE user_two_factor SET enabled_at = $2 WHERE user_id = $1 AND enabled_at IS NULL',
    [userId, at],
  );
  return rowCount === 1;
}

/**
 * Uses the code of a 30-second `step`: true only for the first code of a step later than the last
 * one used, in one statement, so a code works once whatever the concurrency.
 */
export async function useStep(q: Queryable, userId: number, step: number): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE user_two_factor SET last_step = $2 WHERE user_id = $1 AND last_step < $2',
    [userId, step],
  );
  return rowCount === 1;
}

/** Turns two-factor off: the secret and the recovery codes go. */
export async function remove(q: Queryable, userId: number): Promise<void> {
  await q.query('DELETE FROM user_two_factor_recovery WHERE user_id = $1', [userId]);
  await q.query('DELETE FROM user_two_factor WHERE user_id = $1', [userId]);
}

export async function replaceRecoveryCodes(
  q: Queryable,
  userId: number,
  codeHashes: string[],
): Promise<void> {
  await q.query('DELETE FROM user_two_factor_recovery WHERE user_id = $1', [userId]);
  await q.query(
    `INSERT INTO user_two_factor_recovery (user_id, code_hash)
     SELECT $1, code_hash FROM unnest($2::text[]) AS code_hash`,
    [userId, codeHashes],
  );
}

/** Uses a recovery code once; false when it is not one of the user's unused codes. */
export async function useRecoveryCode(
  q: Queryable,
  userId: number,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE user_two_factor_recovery SET used_at = $3
     WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
    [userId, codeHash, at],
  );
  return rowCount === 1;
}

export async function countRecoveryCodesLeft(q: Queryable, userId: number): Promise<number> {
  const row = await firstRow<{ left: number }>(
    q,
    'SELECT count(*)::int AS left FROM user_two_factor_recovery WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return row?.left ?? 0;
}

/** How many ended challenges one new challenge deletes: the table stays small, in bounded work. */
const PRUNE_BATCH = 100;

export async function insertChallenge(
  q: Queryable,
  challenge: { tokenHash: string; userId: number; at: Date; expiresAt: Date },
): Promise<void> {
  await q.query(
    `DELETE FROM user_two_factor_challenge WHERE id IN (
       SELECT id FROM user_two_factor_challenge WHERE expires_at < $1 LIMIT ${PRUNE_BATCH})`,
    [challenge.at],
  );
  await q.query(
    `INSERT INTO user_two_factor_challenge (token_hash, user_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4)`,
    [challenge.tokenHash, challenge.userId, challenge.at, challenge.expiresAt],
  );
}

/** The user of a live challenge (not used, not expired). */
export async function findChallengeUser(
  q: Queryable,
  tokenHash: string,
  at: Date,
): Promise<number | undefined> {
  const row = await firstRow<{ user_id: string }>(
    q,
    `SELECT user_id FROM user_two_factor_challenge
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
    [tokenHash, at],
  );
  return row ? Number(row.user_id) : undefined;
}

/** Uses a live challenge once; false when it was used, has expired or never was. */
export async function useChallenge(q: Queryable, tokenHash: string, at: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE user_two_factor_challenge SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
    [tokenHash, at],
  );
  return rowCount === 1;
}
