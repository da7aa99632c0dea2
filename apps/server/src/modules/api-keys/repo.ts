/** The SQL of API keys, their usage log and the signatures seen (migration 0030). */
import type { ApiKeyPermission, PageQuery } from '@bourse/shared';
import type { Queryable } from '../../db/database';
import { pageOf } from '../../db/page';

/** Rows deleted at most by one batch of writes, of each kind of expired row. */
const PRUNE_BATCH = 1000;

export interface ApiKeyRow {
  id: number;
  user_id: number;
  api_key: string;
  secret_sealed: string;
  label: string;
  permissions: ApiKeyPermission[];
  ip_list: string[];
  account_type: 0 | 2;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** A key as a call looks it up: its row and whether its user may still act. */
export interface CallKeyRow extends ApiKeyRow {
  user_status: number;
}

const KEY_COLUMNS = `id, user_id, api_key, secret_sealed, label, permissions, ip_list, account_type,
  expires_at, created_at, updated_at, last_used_at, revoked_at`;

/** The keys of these public ids, with their users' status: one statement for a batch of calls. */
export async function findKeysForCalls(
  q: Queryable,
  apiKeys: readonly string[],
): Promise<CallKeyRow[]> {
  const { rows } = await q.query<CallKeyRow>(
    `SELECT k.id, k.user_id, k.api_key, k.secret_sealed, k.label, k.permissions, k.ip_list,
       k.account_type, k.expires_at, k.created_at, k.updated_at, k.last_used_at, k.revoked_at,
       u.status AS user_status
     FROM api_key k JOIN app_user u ON u.id = k.user_id
     WHERE k.api_key = ANY($1::text[])`,
    [apiKeys],
    { name: 'find_api_keys_for_calls' },
  );
  return rows;
}

/** Keys of a user neither revoked nor expired at `now`. */
export async function countLiveKeys(q: Queryable, userId: number, now: Date): Promise<number> {
  const { rows } = await q.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM api_key
     WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
    [userId, now],
  );
  return rows[0]?.count ?? 0;
}

export async function insertKey(
  q: Queryable,
  key: {
    userId: number;
    apiKey: string;
    secretSealed: string;
    label: string;
    permissions: readonly ApiKeyPermission[];
    ipList: readonly string[];
    accountType: 0 | 2;
    expiresAt: Date | null;
    at: Date;
  },
): Promise<ApiKeyRow> {
  const { rows } = await q.query<ApiKeyRow>(
    `INSERT INTO api_key (user_id, api_key, secret_sealed, label, permissions, ip_list,
       account_type, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::text[], $6::text[], $7, $8, $9, $9)
     RETURNING ${KEY_COLUMNS}`,
    [
      key.userId,
      key.apiKey,
      key.secretSealed,
      key.label,
      key.permissions,
      key.ipList,
      key.accountType,
      key.expiresAt,
      key.at,
    ],
  );
  return rows[0]!;
}

/** A user's key by its id (`forUpdate`: locked until the transaction ends). */
export async function findKeyOf(
  q: Queryable,
  userId: number,
  id: number,
  forUpdate = false,
): Promise<ApiKeyRow | undefined> {
  const { rows } = await q.query<ApiKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_key WHERE id = $1 AND user_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [id, userId],
  );
  return rows[0];
}

/** Changes a key's label and allow-list (each kept when null). */
export async function updateKey(
  q: Queryable,
  id: number,
  change: { label: string | null; ipList: readonly string[] | null; at: Date },
): Promise<ApiKeyRow> {
  const { rows } = await q.query<ApiKeyRow>(
    `UPDATE api_key SET label = coalesce($2, label), ip_list = coalesce($3::text[], ip_list),
       updated_at = $4
     WHERE id = $1 RETURNING ${KEY_COLUMNS}`,
    [id, change.label, change.ipList, change.at],
  );
  return rows[0]!;
}

/** Revokes a key; undefined when it was revoked already. */
export async function revokeKey(
  q: Queryable,
  id: number,
  at: Date,
): Promise<ApiKeyRow | undefined> {
  const { rows } = await q.query<ApiKeyRow>(
    `UPDATE api_key SET revoked_at = $2, updated_at = $2
     WHERE id = $1 AND revoked_at IS NULL RETURNING ${KEY_COLUMNS}`,
    [id, at],
  );
  return rows[0];
}

export function listKeys(q: Queryable, userId: number, page: PageQuery) {
  return pageOf<ApiKeyRow>(
    q,
    {
      rows: `SELECT ${KEY_COLUMNS} FROM api_key WHERE user_id = $1 ORDER BY id DESC`,
      count: 'SELECT count(*)::int AS total FROM api_key WHERE user_id = $1',
      params: [userId],
    },
    page,
  );
}

/** Where the user's notices go, and the anti-phishing code they carry. */
export async function noticeTarget(
  q: Queryable,
  userId: number,
): Promise<{ email: string | null; anti_phishing_code: string | null } | undefined> {
  const { rows } = await q.query<{ email: string | null; anti_phishing_code: string | null }>(
    'SELECT email, anti_phishing_code FROM app_user WHERE id = $1',
    [userId],
  );
  return rows[0];
}

// ---------------------------------------------------------------- signatures seen

/**
 * Claims signatures (their hashes) until their windows close: the hashes that were not claimed
 * before (a hash already there is a signature used again). Then deletes a batch of claims whose
 * window closed before `now`.
 */
export async function claimSignatures(
  q: Queryable,
  claims: readonly { hash: string; until: Date }[],
  now: Date,
): Promise<Set<string>> {
  const { rows } = await q.query<{ signature_hash: string }>(
    `INSERT INTO api_key_signature (signature_hash, expires_at)
     SELECT * FROM unnest($1::text[], $2::timestamptz[])
     ON CONFLICT DO NOTHING RETURNING signature_hash`,
    [claims.map((claim) => claim.hash), claims.map((claim) => claim.until)],
    { name: 'claim_api_key_signatures' },
  );
  await q.query(
    `DELETE FROM api_key_signature WHERE signature_hash IN (
       SELECT signature_hash FROM api_key_signature WHERE expires_at < $1
       ORDER BY expires_at LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)`,
    [now],
    { name: 'prune_api_key_signatures' },
  );
  return new Set(rows.map((row) => row.signature_hash));
}

// ---------------------------------------------------------------- usage log

export interface KeyUseInsert {
  keyId: number;
  userId: number;
  at: Date;
  method: string;
  path: string;
  ip: string;
  status: number;
  msg: string;
}

/**
 * Writes calls to the usage log, moves the last use of the keys whose calls were accepted (at
 * most once a minute each), and deletes a batch of entries older than `keepSince`.
 */
export async function insertKeyUses(
  q: Queryable,
  uses: readonly KeyUseInsert[],
  keepSince: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO api_key_usage (api_key_id, user_id, created_at, method, path, ip, status, msg)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::text[], $5::text[],
       $6::text[], $7::smallint[], $8::text[])`,
    [
      uses.map((use) => use.keyId),
      uses.map((use) => use.userId),
      uses.map((use) => use.at),
      uses.map((use) => use.method.slice(0, 8)),
      uses.map((use) => use.path.slice(0, 256)),
      uses.map((use) => use.ip.slice(0, 64)),
      uses.map((use) => use.status),
      uses.map((use) => use.msg.slice(0, 64)),
    ],
    { name: 'insert_api_key_uses' },
  );
  const used = new Map<number, Date>();
  for (const use of uses) if (use.status < 400) used.set(use.keyId, use.at);
  if (used.size > 0)
    await q.query(
      `UPDATE api_key k SET last_used_at = u.at
       FROM unnest($1::bigint[], $2::timestamptz[]) AS u (id, at)
       WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.at - interval '1 minute')`,
      [[...used.keys()], [...used.values()]],
      { name: 'touch_api_keys' },
    );
  await q.query(
    `DELETE FROM api_key_usage WHERE id IN (
       SELECT id FROM api_key_usage WHERE created_at < $1
       ORDER BY created_at LIMIT ${PRUNE_BATCH} FOR UPDATE SKIP LOCKED)`,
    [keepSince],
    { name: 'prune_api_key_usage' },
  );
}

export interface KeyUseRow {
  id: number;
  api_key_id: number;
  label: string;
  created_at: Date;
  method: string;
  path: string;
  ip: string | null;
  status: number;
  msg: string;
}

/** A user's calls since `since`, newest first, of one key when `keyId` is set. */
export function keyUses(
  q: Queryable,
  userId: number,
  since: Date,
  keyId: number | undefined,
  page: PageQuery,
) {
  const where = `u.user_id = $1 AND u.created_at >= $2${keyId === undefined ? '' : ' AND u.api_key_id = $3'}`;
  const params = keyId === undefined ? [userId, since] : [userId, since, keyId];
  return pageOf<KeyUseRow>(
    q,
    {
      rows: `SELECT u.id, u.api_key_id, k.label, u.created_at, u.method, u.path, u.ip, u.status, u.msg
        FROM api_key_usage u JOIN api_key k ON k.id = u.api_key_id
        WHERE ${where} ORDER BY u.id DESC`,
      count: `SELECT count(*)::int AS total FROM api_key_usage u WHERE ${where}`,
      params,
    },
    page,
  );
}
