/**
 * Migration 0035 on a database with invited users: their ancestry is backfilled from
 * app_user.inviter_id up to three levels, and users registered after it get theirs from the
 * trigger on app_user.
 */
import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../src/db/migrate';
import { createTestDatabase } from './helpers';

describe('migration 0035: the referral ancestry', () => {
  it('backfills the ancestry of existing users, then keeps it for new ones', async () => {
    const database = await createTestDatabase(false);
    const db = database.db;
    try {
      const all = await loadMigrations();
      await migrate(
        db,
        all.filter((migration) => migration.version <= 34),
      );
      const ids: number[] = [];
      // A chain of five: each invited by the one before.
      for (let at = 0; at < 5; at++) {
        const { rows } = await db.query<{ id: number }>(
          `INSERT INTO app_user (reg_type, email, user_account, password_hash, nick_name, invite_code, inviter_id, created_at)
           VALUES (1, $1, $1, 'x', 'n', $2, $3, now()) RETURNING id`,
          [`chain${at}@example.com`, `CHAIN${at}`, ids.at(-1) ?? null],
        );
        ids.push(rows[0]!.id);
      }
      await migrate(
        db,
        all.filter((migration) => migration.version <= 35),
      );
      const ancestry = async (userId: number) =>
        (
          await db.query<{ ancestor_id: number; depth: number }>(
            'SELECT ancestor_id, depth FROM referral_ancestry WHERE descendant_id = $1 ORDER BY depth',
            [userId],
          )
        ).rows.map((row) => [row.depth, row.ancestor_id]);
      expect(await ancestry(ids[0]!)).toEqual([]);
      expect(await ancestry(ids[1]!)).toEqual([[1, ids[0]]]);
      expect(await ancestry(ids[4]!)).toEqual([
        [1, ids[3]],
        [2, ids[2]],
        [3, ids[1]],
      ]);
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO app_user (reg_type, email, user_account, password_hash, nick_name, invite_code, inviter_id, created_at)
         VALUES (1, 'after@example.com', 'after@example.com', 'x', 'n', 'AFTER1', $1, now()) RETURNING id`,
        [ids[4]],
      );
      expect(await ancestry(rows[0]!.id)).toEqual([
        [1, ids[4]],
        [2, ids[3]],
        [3, ids[2]],
      ]);
    } finally {
      await database.dispose();
    }
  });
});
