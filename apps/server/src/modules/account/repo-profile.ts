/** SQL of avatars and the demo account's resets (issue 19). */
import { firstRow, type Queryable } from '../../db/database';

// ---------------------------------------------------------------- avatars

export async function upsertAvatar(
  q: Queryable,
  userId: number,
  image: { mime: string; width: number; height: number; sha256: string; data: Buffer; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO user_avatar (user_id, mime, width, height, sha256, data, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (user_id) DO UPDATE SET mime = excluded.mime, width = excluded.width,
       height = excluded.height, sha256 = excluded.sha256, data = excluded.data,
       updated_at = excluded.updated_at`,
    [userId, image.mime, image.width, image.height, image.sha256, image.data, image.at],
  );
}

export async function updateAvatarUrl(q: Queryable, userId: number, url: string): Promise<void> {
  await q.query('UPDATE app_user SET avatar = $2 WHERE id = $1', [userId, url]);
}

/** A user's avatar, if its hash is `sha256` (an older URL finds nothing). */
export function findAvatar(q: Queryable, userId: number, sha256: string) {
  return firstRow<{ mime: string; data: Uint8Array }>(
    q,
    'SELECT mime, data FROM user_avatar WHERE user_id = $1 AND sha256 = $2',
    [userId, sha256],
  );
}

// ---------------------------------------------------------------- demo resets

export interface DemoResetRow {
  id: number;
  user_id: number;
  request_id: string;
  reset_at: Date;
  balance_before: string;
  positions_closed: number;
  orders_cancelled: number;
  entry_id: number | null;
}

export function findDemoReset(q: Queryable, userId: number, requestId: string) {
  return firstRow<DemoResetRow>(
    q,
    'SELECT * FROM demo_reset WHERE user_id = $1 AND request_id = $2',
    [userId, requestId],
  );
}

export function latestDemoReset(q: Queryable, userId: number) {
  return firstRow<DemoResetRow>(
    q,
    'SELECT * FROM demo_reset WHERE user_id = $1 ORDER BY reset_at DESC LIMIT 1',
    [userId],
  );
}

export async function insertDemoReset(
  q: Queryable,
  reset: Omit<DemoResetRow, 'id'>,
): Promise<DemoResetRow> {
  const { rows } = await q.query<DemoResetRow>(
    `INSERT INTO demo_reset (user_id, request_id, reset_at, balance_before, positions_closed,
       orders_cancelled, entry_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [
      reset.user_id,
      reset.request_id,
      reset.reset_at,
      reset.balance_before,
      reset.positions_closed,
      reset.orders_cancelled,
      reset.entry_id,
    ],
  );
  return rows[0]!;
}
