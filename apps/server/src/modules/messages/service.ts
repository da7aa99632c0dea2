/** Site messages: the unread count of the launch calls (the message list arrives with its screens). */
import type { Database } from '../../db/database';
import * as repo from './repo';

export class MessageService {
  constructor(private readonly db: Database) {}

  /** Messages addressed to the user, or broadcast since they joined, that they have not read. */
  unreadCount(userId: number): Promise<number> {
    return repo.countUnread(this.db, userId);
  }
}
