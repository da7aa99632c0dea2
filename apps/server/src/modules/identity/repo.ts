/** The SQL of identity verification: requests, their document images, the features' levels. */
import type { IdentityFeature } from '@bourse/shared';
import { allRows, firstRow, type Queryable } from '../../db/database';
import type { ReviewRow, ReviewTable } from '../wallet';

export interface AuthRecordRow extends ReviewRow {
  order_no: string;
  user_account: string;
  auth_level: number;
  real_name: string;
  id_type: number;
  id_number: string;
  phone: string | null;
  reject_reason: string | null;
  documents: string[];
  created_at: Date;
  reviewed_at: Date | null;
}

/** The table of verification requests as the review flow reads it. */
export const AUTH_TABLE = {
  name: 'user_auth_record',
  alias: 'a',
  select: `
  SELECT a.id, a.order_no, a.user_id, u.user_account, a.auth_level, a.real_name, a.id_type,
         a.id_number, a.phone, a.status, a.reject_reason, a.request_hash, a.created_at,
         a.reviewed_at,
         ARRAY(SELECT d.side FROM user_auth_document d WHERE d.record_id = a.id ORDER BY d.side)
           AS documents
  FROM user_auth_record a
  JOIN app_user u ON u.id = a.user_id`,
  decidedAt: 'reviewed_at',
} as const satisfies ReviewTable;

/** The latest request of a level of a user. */
export function latestRecord(
  q: Queryable,
  userId: number,
  level: number,
): Promise<AuthRecordRow | undefined> {
  return firstRow<AuthRecordRow>(
    q,
    `${AUTH_TABLE.select} WHERE a.user_id = $1 AND a.auth_level = $2 ORDER BY a.id DESC LIMIT 1`,
    [userId, level],
  );
}

/** The user's request of a level that is under review or approved, locked (at most one). */
export function openRecordForUpdate(
  q: Queryable,
  userId: number,
  level: number,
): Promise<{ id: number; status: number; real_name: string } | undefined> {
  return firstRow(
    q,
    `SELECT id, status, real_name FROM user_auth_record
     WHERE user_id = $1 AND auth_level = $2 AND status IN (0, 1) FOR UPDATE`,
    [userId, level],
  );
}

export async function insertDocument(
  q: Queryable,
  recordId: number,
  side: string,
  image: { mime: string; width: number; height: number; sha256: string; data: Buffer },
): Promise<void> {
  await q.query(
    `INSERT INTO user_auth_document (record_id, side, mime, width, height, sha256, data)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [recordId, side, image.mime, image.width, image.height, image.sha256, image.data],
  );
}

export function findDocument(
  q: Queryable,
  recordId: number,
  side: string,
): Promise<{ user_id: number; mime: string; data: Uint8Array } | undefined> {
  return firstRow(
    q,
    `SELECT a.user_id, d.mime, d.data FROM user_auth_document d
     JOIN user_auth_record a ON a.id = d.record_id
     WHERE d.record_id = $1 AND d.side = $2`,
    [recordId, side],
  );
}

/**
 * Writes the user's summary after a decision: `auth_status` follows the basic level's latest
 * request (0 none, 1 under review, 2 verified, 3 rejected), `auth_level` is the highest approved.
 */
export async function refreshUserAuth(q: Queryable, userId: number): Promise<void> {
  await q.query(
    `UPDATE app_user SET
       auth_status = COALESCE((
         SELECT CASE r.status WHEN 0 THEN 1 WHEN 1 THEN 2 ELSE 3 END
         FROM user_auth_record r WHERE r.user_id = $1 AND r.auth_level = 0
         ORDER BY r.id DESC LIMIT 1), 0),
       auth_level = COALESCE((
         SELECT max(r.auth_level) FROM user_auth_record r
         WHERE r.user_id = $1 AND r.status = 1), -1)
     WHERE id = $1`,
    [userId],
  );
}

export function userAuthLevel(
  q: Queryable,
  userId: number,
): Promise<{ auth_level: number } | undefined> {
  return firstRow(q, 'SELECT auth_level FROM app_user WHERE id = $1', [userId]);
}

export function listRequirements(
  q: Queryable,
): Promise<{ feature: IdentityFeature; min_level: number }[]> {
  return allRows(q, 'SELECT feature, min_level FROM identity_requirement ORDER BY feature');
}

export function findRequirement(
  q: Queryable,
  feature: IdentityFeature,
): Promise<{ feature: IdentityFeature; min_level: number } | undefined> {
  return firstRow(
    q,
    'SELECT feature, min_level FROM identity_requirement WHERE feature = $1 FOR UPDATE',
    [feature],
  );
}

export async function saveRequirement(
  q: Queryable,
  feature: IdentityFeature,
  minLevel: number,
): Promise<void> {
  await q.query(
    `INSERT INTO identity_requirement (feature, min_level) VALUES ($1, $2)
     ON CONFLICT (feature) DO UPDATE SET min_level = EXCLUDED.min_level`,
    [feature, minLevel],
  );
}
