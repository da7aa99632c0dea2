/**
 * Failure counters with lock-out, kept in the database so that every server instance and every
 * restart sees them: failed logins per account identifier (existing or not, so the lock reveals
 * nothing), wrong passwords per user.
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
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import * as repo from './repo';

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
      const reserved = await repo.reserveAttempt(this.db, {
        key,
        at: now,
        windowStart: new Date(now.getTime() - this.policy.lockMs),
        pendingSince: new Date(now.getTime() - RESERVATION_LIFETIME_MS),
        maxFailures: this.policy.maxFailures,
      });
      if (reserved) break;
      const row = await repo.findAttempts(this.db, key);
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
      await repo.settlePassedAttempt(this.db, key, this.clock.now());
      return;
    }
    const lockedUntil = await this.settleFailed(key);
    throw lockedUntil ? this.lockedError(lockedUntil) : wrong();
  }

  /** Counts a reserved check as failed; gives the lock's end when the key is now locked. */
  private async settleFailed(key: string): Promise<Date | null> {
    const now = this.clock.now();
    const lockedUntil = await repo.settleFailedAttempt(
      this.db,
      key,
      this.policy.maxFailures,
      new Date(now.getTime() + this.policy.lockMs),
    );
    return lockedUntil && lockedUntil > now ? lockedUntil : null;
  }

  async clear(key: string): Promise<void> {
    await repo.clearAttempts(this.db, key);
  }
}
