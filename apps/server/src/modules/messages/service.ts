/** Site messages: the unread count of the launch calls (the message list arrives with its screens). */
import type { Database } from '../../db/database';

export class MessageService {
  constructor(private readonly db: Database) {}

  /** Messages addressed to the user, or broadcast since they joined, that they have not read. */
  async unreadCount(userId: number): Promise<number> {
    const { rows } = await this.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM site_message m
       WHERE (m.user_id = $1 OR (m.user_id IS NULL AND m.created_at >= (SELECT created_at FROM app_user WHERE id = $1)))
         AND NOT EXISTS (SELECT 1 FROM site_message_read r WHERE r.message_id = m.id AND r.user_id = $1)`,
      [userId],
    );
    return rows[0]?.count ?? 0;
  }
}
