/**
 * Failure counters with lock-out, kept in the database so that every server instance and every
 * restart sees them: failed sign-ins of users and operators per identifier (existing or not, so the
 * lock reveals nothing) and wrong current passwords per account (sessions.ts), wrong withdrawal
 * passwords per user (the account module).
 *
 * A check is reserved in the database before the secret is verified, and only while the key's
 * failures plus the checks under way stay below the limit (docs/adr/0006-attempts-reserved-before-
 * verifying.md). Checking the lock first and counting the failure after let every guess of a burst
 * through: 18 parallel wrong logins were all verified against a limit of 5. Now at most
 * `maxFailures` wrong secrets are verified per lock window, whatever the concurrency and however
 * many instances take the requests. Checks of one key on one instance also run one after another,
 * so a burst of right ones (50 withdrawals at once) passes in turn instead of waiting on the
 * database for a slot.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Database, firstRow, type Queryable } from '../db/database';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';

export interface LimiterPolicy {
  maxFailures: number;
  lockMs: number;
  /** The key the user sees when locked; its parameter is the minutes left. */
  lockedKey: string;
}

/**
 * A reservation older than this is left over from a crash and frees its slot. A check takes tens
 * of milliseconds (one argon2 verification), so only a stopped process holds one this long.
 */
export const RESERVATION_LIFETIME_MS = 30_000;
/** How long a check waits for a slot that checks on other instances hold, and between looks. */
const SLOT_WAIT_MS = 10_000;
const SLOT_POLL_MS = 20;

export class AttemptLimiter {
  /** The last check of each key on this instance; the next one starts when it has settled. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly policy: LimiterPolicy,
  ) {}

  private lockedError(until: Date): AppError {
    const minutes = Math.max(1, Math.ceil((until.getTime() - this.clock.now().getTime()) / 60_000));
    return new AppError(this.policy.lockedKey, 429, [minutes]);
  }

  /**
   * Runs `verify` for `key` once a check is reserved. While the key is locked nothing is verified
   * and the lock error is thrown. A failed check counts (the one that reaches the limit throws the
   * lock error instead of `wrong()`); a passed one clears the count.
   */
  async attempt(key: string, verify: () => Promise<boolean>, wrong: () => AppError): Promise<void> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(() => this.reserveAndVerify(key, verify, wrong));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return run;
  }

  private async reserveAndVerify(
    key: string,
    verify: () => Promise<boolean>,
    wrong: () => AppError,
  ): Promise<void> {
    const started = Date.now();
    for (;;) {
      const now = this.clock.now();
      const reserved = await reserveAttempt(this.db, {
        key,
        at: now,
        windowStart: new Date(now.getTime() - this.policy.lockMs),
        pendingSince: new Date(now.getTime() - RESERVATION_LIFETIME_MS),
        maxFailures: this.policy.maxFailures,
      });
      if (reserved) break;
      const row = await findAttempts(this.db, key);
      if (row?.locked_until && row.locked_until > now) throw this.lockedError(row.locked_until);
      // Every slot is held by checks under way on other instances: one settles within moments.
      if (Date.now() - started > SLOT_WAIT_MS) throw new AppError('hint_tooManyRequests', 429, [1]);
      await sleep(SLOT_POLL_MS + Math.random() * SLOT_POLL_MS);
    }
    let passed: boolean;
    try {
      passed = await verify();
    } catch (error) {
      // A check that could not finish used its slot: it counts as failed.
      await this.settleFailed(key);
      throw error;
    }
    if (passed) {
      await settlePassedAttempt(this.db, key, this.clock.now());
      return;
    }
    const lockedUntil = await this.settleFailed(key);
    throw lockedUntil ? this.lockedError(lockedUntil) : wrong();
  }

  /** Counts a reserved check as failed; gives the lock's end when the key is now locked. */
  private async settleFailed(key: string): Promise<Date | null> {
    const now = this.clock.now();
    const lockedUntil = await settleFailedAttempt(
      this.db,
      key,
      this.policy.maxFailures,
      new Date(now.getTime() + this.policy.lockMs),
    );
    return lockedUntil && lockedUntil > now ? lockedUntil : null;
  }

  /** Clears the key's count and lock; `q`: inside a caller's transaction. */
  async clear(key: string, q: Queryable = this.db): Promise<void> {
    await clearAttempts(q, key);
  }

  /**
   * What is counted of `key` now: the failures of the current window and the lock's end, if it
   * is locked (an ended lock or a passed window counts nothing).
   */
  async state(
    key: string,
    q: Queryable = this.db,
  ): Promise<{ failures: number; lockedUntil: Date | null }> {
    const row = await findAttempts(q, key);
    const now = this.clock.now();
    if (!row) return { failures: 0, lockedUntil: null };
    if (row.locked_until) {
      return row.locked_until > now
        ? { failures: row.failures, lockedUntil: row.locked_until }
        : { failures: 0, lockedUntil: null };
    }
    const current = row.first_failure_at.getTime() >= now.getTime() - this.policy.lockMs;
    return { failures: current ? row.failures : 0, lockedUntil: null };
  }
}

// ---------------------------------------------------------------- SQL

interface AttemptRow {
  failures: number;
  first_failure_at: Date;
  locked_until: Date | null;
}

async function findAttempts(q: Queryable, key: string): Promise<AttemptRow | undefined> {
  return firstRow<AttemptRow>(
    q,
    'SELECT failures, first_failure_at, locked_until FROM attempt_limit WHERE key = $1',
    [key],
  );
}

/**
 * Reserves one check of `key` in one statement, before the secret is checked: the upsert's row
 * lock orders concurrent reservations, and one is granted only while the key is not locked and its
 * failures plus the checks under way stay below `maxFailures`. The window (and with it the count)
 * restarts when it has passed or its lock has ended; checks reserved before `pendingSince` are
 * left over from a crash and no longer count. False: not granted (locked, or every slot in use).
 */
async function reserveAttempt(
  q: Queryable,
  attempt: { key: string; at: Date; windowStart: Date; pendingSince: Date; maxFailures: number },
): Promise<boolean> {
  const restart = '(a.locked_until IS NOT NULL OR a.first_failure_at < $3)';
  const failures = `CASE WHEN ${restart} THEN 0 ELSE a.failures END`;
  const pending = 'CASE WHEN a.pending_at >= $4 THEN a.pending ELSE 0 END';
  const { rowCount } = await q.query(
    `INSERT INTO attempt_limit AS a (key, failures, first_failure_at, pending, pending_at)
     VALUES ($1, 0, $2, 1, $2)
     ON CONFLICT (key) DO UPDATE SET
       failures = ${failures},
       first_failure_at = CASE WHEN ${restart} THEN $2 ELSE a.first_failure_at END,
       locked_until = NULL,
       pending = ${pending} + 1,
       pending_at = $2
     WHERE (a.locked_until IS NULL OR a.locked_until <= $2)
       AND ${failures} + ${pending} < $5::int`,
    [attempt.key, attempt.at, attempt.windowStart, attempt.pendingSince, attempt.maxFailures],
    { name: 'reserve_attempt' },
  );
  return rowCount === 1;
}

/**
 * Settles a reserved check that failed: it becomes a failure, and the one that reaches
 * `maxFailures` locks the key until `lockUntil`. Gives the lock's end, if any.
 */
async function settleFailedAttempt(
  q: Queryable,
  key: string,
  maxFailures: number,
  lockUntil: Date,
): Promise<Date | null> {
  const { rows } = await q.query<{ locked_until: Date | null }>(
    `UPDATE attempt_limit SET
       pending = GREATEST(pending - 1, 0),
       failures = failures + 1,
       locked_until = CASE WHEN failures + 1 >= $2::int THEN $3::timestamptz ELSE locked_until END
     WHERE key = $1
     RETURNING locked_until`,
    [key, maxFailures, lockUntil],
  );
  return rows[0]?.locked_until ?? null;
}

/**
 * Settles a reserved check that passed: failures and any lock are cleared; the row goes when no
 * other check of the key is under way.
 */
async function settlePassedAttempt(q: Queryable, key: string, at: Date): Promise<void> {
  await q.query(
    `WITH gone AS (DELETE FROM attempt_limit WHERE key = $1 AND pending <= 1 RETURNING key)
     UPDATE attempt_limit SET pending = GREATEST(pending - 1, 0), failures = 0,
       first_failure_at = $2, locked_until = NULL
     WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM gone)`,
    [key, at],
    { name: 'settle_passed_attempt' },
  );
}

async function clearAttempts(q: Queryable, key: string): Promise<void> {
  await q.query('DELETE FROM attempt_limit WHERE key = $1', [key]);
}
