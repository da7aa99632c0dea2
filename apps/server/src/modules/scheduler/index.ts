/**
 * The daily scheduler (issue 23): work that belongs to a calendar day (earn interest, loan
 * interest and overdue, maturities, reminders) runs once per job and UTC day, in day order, at a
 * fixed UTC time.
 *
 * - Exactly once: `scheduler_day` keeps each job's days; a day is run only when it is not finished,
 *   and only after every day before it (a day that failed is retried, never skipped). The jobs are
 *   idempotent per (object, day) (each writes a row unique per object and day in the transaction of
 *   its posting), so a day resumed after a crash pays nobody twice.
 * - Caught up: at start, and at every check, every due day not yet run is run, oldest first: a
 *   server down for three days runs the three days when it is back.
 * - One instance at a time: the run holds a cluster-wide advisory lock (PostgreSQL); another
 *   instance waits for it, then finds the days done. PGlite is a single process.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import * as repo from './repo';

export type { SchedulerJobStatus } from './repo';

export interface DailyJob {
  /** Stable name ('earn', 'loans'): the key of its days in scheduler_day. */
  readonly name: string;
  /**
   * The work due on UTC day `day` ('YYYY-MM-DD'), idempotent per (object, day), in bounded
   * batches. Returns how many objects it processed. `now` is the clock's time of the run.
   */
  runDay(day: string, now: Date): Promise<number>;
}

const SCHEDULER_LOCK_KEY = 7_310_037;
const DAY_MS = 86_400_000;

/** 'HH:MM' as minutes after UTC midnight. */
export function minutesOf(utcTime: string): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(utcTime);
  if (!match) throw new RangeError(`not a UTC time of day: ${utcTime}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** The UTC day of `at`, as 'YYYY-MM-DD'. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The day after (or `days` after) `day`. */
export function addDays(day: string, days = 1): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** The last day due at `now`: today once the fixed time has passed, else yesterday. */
export function lastDueDay(now: Date, utcMinutes: number): string {
  const minutesToday = now.getUTCHours() * 60 + now.getUTCMinutes();
  const today = dayOf(now);
  return minutesToday >= utcMinutes ? today : addDays(today, -1);
}

export class Scheduler {
  private readonly jobs: DailyJob[] = [];
  private readonly utcMinutes: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      db: Database;
      clock: Clock;
      logger?: FastifyBaseLogger;
      /** The fixed UTC time ('HH:MM') at which a day's work is due. */
      utcTime?: string;
      /** How often to check for due days (ms; 0: only when runDue is called). */
      checkMs?: number;
    },
  ) {
    this.utcMinutes = minutesOf(deps.utcTime ?? '00:05');
  }

  register(job: DailyJob): void {
    if (this.jobs.some((known) => known.name === job.name))
      throw new Error(`scheduler: job ${job.name} registered twice`);
    this.jobs.push(job);
  }

  /** Runs every job's due days not yet run, oldest first; one run at a time per instance. */
  runDue(): Promise<void> {
    this.running ??= this.runAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runAll(): Promise<void> {
    if (this.jobs.length === 0) return;
    await this.deps.db.withAdvisoryLock(SCHEDULER_LOCK_KEY, async () => {
      for (const job of this.jobs) await this.catchUp(job);
    });
  }

  private async catchUp(job: DailyJob): Promise<void> {
    const db = this.deps.db;
    const due = lastDueDay(this.deps.clock.now(), this.utcMinutes);
    const firstDay = await repo.firstDay(db, job.name, due);
    const lastDone = await repo.lastFinishedDay(db, job.name);
    let day = lastDone && lastDone >= firstDay ? addDays(lastDone) : firstDay;
    for (; day <= due; day = addDays(day)) {
      const now = this.deps.clock.now();
      await repo.startDay(db, job.name, day, now);
      let processed: number;
      try {
        processed = await job.runDay(day, now);
      } catch (error) {
        // The day stays unfinished: the next check resumes it, and no later day runs before it.
        this.deps.logger?.error({ err: error, job: job.name, day }, 'scheduled day failed');
        await repo
          .failDay(db, job.name, day, error instanceof Error ? error.message : String(error))
          .catch(() => undefined);
        return;
      }
      await repo.finishDay(db, job.name, day, this.deps.clock.now(), processed);
      this.deps.logger?.info({ job: job.name, day, processed }, 'scheduled day done');
    }
  }

  /** Each job's first day, last finished day and latest run, for the console's system page. */
  async status(): Promise<repo.SchedulerJobStatus[]> {
    const names = this.jobs.map((job) => job.name);
    return repo.jobStatus(this.deps.db, names);
  }

  /** When the next day's work is due (the fixed time after now). */
  nextRunAt(): Date {
    const now = this.deps.clock.now();
    const today = Date.parse(`${dayOf(now)}T00:00:00Z`) + this.utcMinutes * 60_000;
    return new Date(today > now.getTime() ? today : today + DAY_MS);
  }

  start(): void {
    const checkMs = this.deps.checkMs ?? 60_000;
    if (checkMs <= 0 || this.timer) return;
    const check = () =>
      void this.runDue().catch((error: unknown) =>
        this.deps.logger?.error({ err: error }, 'scheduler run failed'),
      );
    check();
    this.timer = setInterval(check, checkMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
