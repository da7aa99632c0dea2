/**
 * The one user lock and the one request-id check that every money-moving call goes through.
 *
 * A user's money-moving requests queue on the user's row (`SELECT … FOR NO KEY UPDATE` on
 * app_user) for the rest of their transaction: balances, daily limits, pending counts and request
 * ids are then read and written by one request at a time, whatever the instance. Several users are
 * locked in id order, so two transactions never wait on each other in a cycle. `NO KEY`: the lock
 * does not conflict with the KEY SHARE lock that an insert into a table referencing app_user takes
 * on the user's row (a usage-log entry, a notification, a login-history row), so such writes never
 * queue behind a user's order, nor an order behind them; two locks of this kind still exclude each
 * other, and so does an UPDATE of the user's row.
 *
 * `runOnce` runs a request's work once per (user, request id): under the lock it looks for the
 * user's earlier row with that request id and answers it instead, and refuses the same id used for
 * a different request (`hint_requestIdReused`, compared by the request's fingerprint).
 */
import { AppError } from '../lib/errors';
import type { Database, Queryable } from './database';

/** Locks the user's row until the transaction ends; false when there is no such user. */
export async function withUserLock(tx: Queryable, userId: number): Promise<boolean> {
  const { rows } = await tx.query(
    'SELECT id FROM app_user WHERE id = $1 FOR NO KEY UPDATE',
    [userId],
    {
      name: 'lock_user',
    },
  );
  return rows.length > 0;
}

/** Locks several users' rows, in id order, until the transaction ends. */
export async function withUsersLocked(tx: Queryable, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.query(
    'SELECT id FROM app_user WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE',
    [[...new Set(userIds)]],
  );
}

/** The tables whose rows carry a user's request id and fingerprint (unique per user). */
export type RequestTable =
  | 'fast_trade_order'
  | 'spot_order'
  | 'user_recharge'
  | 'user_withdraw'
  | 'user_auth_record'
  | 'earn_order';

export interface RequestKey {
  userId: number;
  requestId: string;
  /** The request's fingerprint (`request_hash`): the same id with another request is refused. */
  fingerprint: string;
}

/**
 * Runs a money-moving request once, in one transaction under the user's lock: `work` when the user
 * has no row in `table` with this request id yet, else `repeated` with the earlier row's id.
 */
export function runOnce<T>(
  db: Database,
  table: RequestTable,
  key: RequestKey,
  work: (tx: Queryable) => Promise<T>,
  repeated: (tx: Queryable, id: number) => Promise<T> | T,
): Promise<T> {
  return db.transaction(async (tx) => {
    await withUserLock(tx, key.userId);
    const { rows } = await tx.query<{ id: number; request_hash: string }>(
      `SELECT id, request_hash FROM ${table} WHERE user_id = $1 AND request_id = $2`,
      [key.userId, key.requestId],
    );
    const earlier = rows[0];
    if (!earlier) return work(tx);
    if (earlier.request_hash !== key.fingerprint) throw new AppError('hint_requestIdReused', 409);
    return repeated(tx, Number(earlier.id));
  });
}
