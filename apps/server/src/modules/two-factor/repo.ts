/**
 * SQL of two-factor authentication: the sealed secrets, recovery codes and sign-in challenges. Users
 * and operators keep theirs in tables of the same shape (`TABLES`); every function takes the set.
 */
import { firstRow, type Queryable } from '../../db/database';

/** Whose second factor: a user's (app) or an operator's (console). */
export type TwoFactorKind = 'user' | 'operator';

export interface TwoFactorTables {
  secrets: string;
  recovery: string;
  challenges: string;
  /** The column naming the owner in the three tables. */
  owner: string;
}

/** The tables of each kind (migrations 0026 and 0028); fixed names, never from input. */
export const TABLES: Record<TwoFactorKind, TwoFactorTables> = {
  user: {
    secrets: 'user_two_factor',
    recovery: 'user_two_factor_recovery',
    challenges: 'user_two_factor_challenge',
    owner: 'user_id',
  },
  operator: {
    secrets: 'operator_two_factor',
    recovery: 'operator_two_factor_recovery',
    challenges: 'operator_two_factor_challenge',
    owner: 'operator_id',
  },
};

export interface TwoFactorRow {
  secret_sealed: string;
  enabled_at: Date | null;
  last_step: string;
  created_at: Date;
}

export function findTwoFactor(
  q: Queryable,
  t: TwoFactorTables,
  userId: number,
): Promise<TwoFactorRow | undefined> {
  return firstRow<TwoFactorRow>(q, `SELECT * FROM ${t.secrets} WHERE ${t.owner} = $1`, [userId]);
}

/**
 * Keeps a new secret waiting for its first code (set up again: the earlier one is replaced).
 * False when two-factor is on: an enabled secret is never replaced.
 */
export async function savePendingSecret(
  q: Queryable,
  t: TwoFactorTables,
  userId: number,
  secretSealed: string,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO ${t.secrets} AS s (${t.owner}, secret_sealed, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (${t.owner}) DO UPDATE SET secret_sealed = $2, created_at = $3, last_step = 0
     WHERE s.enabled_at IS NULL`,
    [userId, secretSealed, at],
  );
  return rowCount === 1;
}

/** Turns a waiting secret on; false when it was on already (or is gone). */
export async function enable(
  q: Queryable,
  t: TwoFactorTables,
  userId: number,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE ${t.secrets} SET enabled_at = $2 WHERE ${t.owner} = $1 AND enabled_at IS NULL`,
    [userId, at],
  );
  return rowCount === 1;
}

/**
 * Uses the code of a 30-second `step`: true only for the first code of a step later than the last
 * one used, in one statement, so a code works once whatever the concurrency.
 */
export async function useStep(
  q: Queryable,
  t: TwoFactorTables,
  userId: number,
  step: number,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE ${t.secrets} SET last_step = $2 WHERE ${t.owner} = $1 AND last_step < $2`,
    [userId, step],
  );
  return rowCount === 1;
}

/** Turns two-factor off: the secret and the recovery codes go; false when there was none. */
export async function remove(q: Queryable, t: TwoFactorTables, userId: number): Promise<boolean> {
  await q.query(`DELETE FROM ${t.recovery} WHERE ${t.owner} = $1`, [userId]);
  const { rowCount } = await q.query(`DELETE FROM ${t.secrets} WHERE ${t.owner} = $1`, [userId]);
  return (rowCount ?? 0) > 0;
}

export async function replaceRecoveryCodes(
  q: Queryable,
  t: TwoFactorTables,
  userId: number,
  codeHashes: string[],
): Promise<void> {
  await q.query(`DELETE FROM ${t.recovery} WHERE ${t.owner} = $1`, [userId]);
  await q.query(
    `INSERT INTO ${t.recovery} (${t.owner}, code_hash)
     SELECT $1, code_hash FROM unnest($2::text[]) AS code_hash`,
    [userId, codeHashes],
  );
}

/** Uses a recovery code once; false when it is not one of the user's unused codes. */
export async function useRecoveryCode(
  q: Queryable,
  t: TwoFactorTables,
  userId: number,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE ${t.recovery} SET used_at = $3
     WHERE ${t.owner} = $1 AND code_hash = $2 AND used_at IS NULL`,
    [userId, codeHash, at],
  );
  return rowCount === 1;
}

export async function countRecoveryCodesLeft(
  q: Queryable,
  t: TwoFactorTables,
  userId: number,
): Promise<number> {
  const row = await firstRow<{ left: number }>(
    q,
    `SELECT count(*)::int AS left FROM ${t.recovery} WHERE ${t.owner} = $1 AND used_at IS NULL`,
    [userId],
  );
  return row?.left ?? 0;
}

/** How many ended challenges one new challenge deletes: the table stays small, in bounded work. */
const PRUNE_BATCH = 100;

export async function insertChallenge(
  q: Queryable,
  t: TwoFactorTables,
  challenge: { tokenHash: string; userId: number; at: Date; expiresAt: Date },
): Promise<void> {
  await q.query(
    `DELETE FROM ${t.challenges} WHERE id IN (
       SELECT id FROM ${t.challenges} WHERE expires_at < $1 LIMIT ${PRUNE_BATCH})`,
    [challenge.at],
  );
  await q.query(
    `INSERT INTO ${t.challenges} (token_hash, ${t.owner}, created_at, expires_at)
     VALUES ($1, $2, $3, $4)`,
    [challenge.tokenHash, challenge.userId, challenge.at, challenge.expiresAt],
  );
}

/** The user of a live challenge (not used, not expired). */
export async function findChallengeUser(
  q: Queryable,
  t: TwoFactorTables,
  tokenHash: string,
  at: Date,
): Promise<number | undefined> {
  const row = await firstRow<{ owner: string }>(
    q,
    `SELECT ${t.owner} AS owner FROM ${t.challenges}
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
    [tokenHash, at],
  );
  return row ? Number(row.owner) : undefined;
}

/** Uses a live challenge once; false when it was used, has expired or never was. */
export async function useChallenge(
  q: Queryable,
  t: TwoFactorTables,
  tokenHash: string,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE ${t.challenges} SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
    [tokenHash, at],
  );
  return rowCount === 1;
}
