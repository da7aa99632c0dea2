/**
 * Failure counters with lock-out, kept in the database so that every server instance and every
 * restart sees them: failed logins per account identifier (existing or not, so the lock reveals
 * nothing), wrong passwords per user.
 */
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

export class AttemptLimiter {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly policy: LimiterPolicy,
  ) {}

  private lockedError(until: Date): AppError {
    const minutes = Math.max(1, Math.ceil((until.getTime() - this.clock.now().getTime()) / 60_000));
    return new AppError(this.policy.lockedKey, 429, [minutes]);
  }

  /** Throws while the key is locked. */
  async check(key: string): Promise<void> {
    const row = await repo.findAttempts(this.db, key);
    if (row?.locked_until && row.locked_until > this.clock.now())
      throw this.lockedError(row.locked_until);
  }

  /** Counts a failure; returns the lock error when this failure locked the key. */
  async fail(key: string): Promise<AppError | undefined> {
    const now = this.clock.now();
    const row = await repo.recordFailure(
      this.db,
      key,
      now,
      new Date(now.getTime() - this.policy.lockMs),
      this.policy.maxFailures,
      new Date(now.getTime() + this.policy.lockMs),
    );
    return row.locked_until && row.locked_until > now
      ? this.lockedError(row.locked_until)
      : undefined;
  }

  async clear(key: string): Promise<void> {
    await repo.clearAttempts(this.db, key);
  }
}
