/**
 * The user lock (db/user-lock.ts) on PostgreSQL, where transactions run side by side: while one
 * transaction holds a user's lock, another money-moving transaction of that user waits for it, but
 * a row that merely references the user (a usage-log entry, a notification, a login-history row:
 * an insert whose foreign key takes a KEY SHARE lock on the user's row) goes in at once. PGlite
 * runs one transaction at a time, so there is nothing to show there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withUserLock, withUsersLocked } from '../src/db/user-lock';
import { createTestApp, onPostgres, registerUser, type TestApp } from './helpers';

/** How long the second transaction may wait for a lock before PostgreSQL gives up (55P03). */
const LOCK_TIMEOUT = "SET LOCAL lock_timeout = '2s'";

describe.runIf(onPostgres)('the user lock on PostgreSQL', () => {
  let t: TestApp;
  let userId: number;

  beforeAll(async () => {
    t = await createTestApp();
    userId = (await registerUser(t.app)).userId;
    await t.db.query(
      'CREATE TABLE user_lock_probe (id bigserial PRIMARY KEY, user_id bigint NOT NULL REFERENCES app_user (id))',
    );
  });
  afterAll(async () => {
    await t.db.query('DROP TABLE user_lock_probe');
    await t.close();
  });

  /** Runs `other` while a transaction holds the user's lock; answers what `other` came to. */
  async function whileLocked<T>(
    lock: (tx: Parameters<typeof withUserLock>[0]) => Promise<unknown>,
    other: () => Promise<T>,
  ) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction(async (tx) => {
      await lock(tx);
      locked();
      await released;
    });
    await isLocked;
    try {
      return await other().then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    } finally {
      release();
      await holder;
    }
  }

  const insertReference = () =>
    t.db.transaction(async (tx) => {
      await tx.query(LOCK_TIMEOUT);
      await tx.query('INSERT INTO user_lock_probe (user_id) VALUES ($1)', [userId]);
    });

  const lockAgain = () =>
    t.db.transaction(async (tx) => {
      await tx.query(LOCK_TIMEOUT);
      await withUserLock(tx, userId);
    });

  it('lets a row referencing the user in while the lock is held', async () => {
    const result = await whileLocked((tx) => withUserLock(tx, userId), insertReference);
    expect(result).toEqual({ ok: true, value: undefined });
    const result2 = await whileLocked((tx) => withUsersLocked(tx, [userId]), insertReference);
    expect(result2).toEqual({ ok: true, value: undefined });
  });

  it('keeps a second money-moving transaction of the user waiting until the first ends', async () => {
    const result = await whileLocked((tx) => withUserLock(tx, userId), lockAgain);
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ error: { code: '55P03' } });
    // And an update of the user's row waits too.
    const update = await whileLocked(
      (tx) => withUserLock(tx, userId),
      () =>
        t.db.transaction(async (tx) => {
          await tx.query(LOCK_TIMEOUT);
          await tx.query('UPDATE app_user SET nick_name = nick_name WHERE id = $1', [userId]);
        }),
    );
    expect(update).toMatchObject({ ok: false, error: { code: '55P03' } });
    // Once it has ended, the lock is the next transaction's.
    await expect(lockAgain()).resolves.toBeUndefined();
  });
});
