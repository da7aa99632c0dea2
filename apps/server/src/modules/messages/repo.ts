/** SQL of site messages. */
import { type Queryable } from '../../db/database';

/** Messages addressed to the user, or broadcast since they joined, that they have not read. */
export async function countUnread(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM site_message m
     WHERE (m.user_id = $1 OR (m.user_id IS NULL AND m.created_at >= (SELECT created_at FROM app_user WHERE id = $1)))
       AND NOT EXISTS (SELECT 1 FROM site_message_read r WHERE r.message_id = m.id AND r.user_id = $1)`,
    [userId],
  );
  return rows[0]?.count ?? 0;
}
