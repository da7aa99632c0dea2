/**
 * The daily scheduler (modules/scheduler): every day due at the fixed UTC time runs once per job,
 * in day order; days missed while stopped are caught up at the next run; a day that fails stops
 * its job there (no later day runs before it) and is resumed at the next run; two instances
 * running at once run each day once; days before a job's first run are never run; the console's
 * system page shows each job's days (console-system.test.ts). The jobs here write one row per (job, day) into a table of
 * their own, with the same key the earn and loan jobs use for their work.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { addDays, lastDueDay, Scheduler, type DailyJob } from '../src/modules/scheduler';
import { createTestDatabase, type TestDatabase } from './helpers';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.exec(
    `CREATE TABLE scheduler_test_work (job text NOT NULL, day date NOT NULL, run integer NOT NULL,
       PRIMARY KEY (job, day))`,
  );
});

afterAll(async () => {
  await database.dispose();
});

beforeEach(async () => {
  await database.db.exec(
    'DELETE FROM scheduler_test_work; DELETE FROM scheduler_day; DELETE FROM scheduler_job;',
  );
});

/** A job that records each day it is given; `failOn` makes that day throw (once per entry). */
function recordingJob(name: string, failOn: string[] = []): DailyJob & { calls: string[] } {
  const calls: string[] = [];
  return {
    name,
    calls,
    async runDay(day) {
      calls.push(day);
      const index = failOn.indexOf(day);
      if (index >= 0) {
        failOn.splice(index, 1);
        throw new Error(`day ${day} broke`);
      }
      await database.db.query(
        `INSERT INTO scheduler_test_work (job, day, run) VALUES ($1, $2, 1)
         ON CONFLICT (job, day) DO UPDATE SET run = scheduler_test_work.run + 1`,
        [name, day],
      );
      return 1;
    },
  };
}

async function workDone(job: string): Promise<{ day: string; run: number }[]> {
  const { rows } = await database.db.query<{ day: string; run: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, run FROM scheduler_test_work
      WHERE job = $1 ORDER BY day`,
    [job],
  );
  return rows;
}

describe('days', () => {
  it('knows the last due day from the fixed UTC time', () => {
    const at0005 = 5;
    expect(lastDueDay(new Date('2026-03-10T00:04:59Z'), at0005)).toBe('2026-03-09');
    expect(lastDueDay(new Date('2026-03-10T00:05:00Z'), at0005)).toBe('2026-03-10');
    expect(lastDueDay(new Date('2026-03-01T00:00:00Z'), at0005)).toBe('2026-02-28');
    expect(addDays('2028-02-28')).toBe('2028-02-29');
    expect(addDays('2026-12-31')).toBe('2027-01-01');
  });
});

describe('the scheduler', () => {
  it('runs each due day once, in order, and catches up the days it missed', async () => {
    const clock = new ManualClock(new Date('2026-03-10T00:04:00Z'));
    const job = recordingJob('a');
    const scheduler = new Scheduler({ db: database.db, clock });
    scheduler.register(job);

    // The first run's day is the job's first day: 9 March (10 March is not due before 00:05).
    await scheduler.runDue();
    await scheduler.runDue();
    expect(job.calls).toEqual(['2026-03-09']);

    clock.set(new Date('2026-03-10T00:05:00Z'));
    await scheduler.runDue();
    expect(job.calls).toEqual(['2026-03-09', '2026-03-10']);

    // Stopped for three days: the next run does the three, oldest first.
    clock.set(new Date('2026-03-13T12:00:00Z'));
    await scheduler.runDue();
    expect(job.calls.slice(2)).toEqual(['2026-03-11', '2026-03-12', '2026-03-13']);
    expect((await workDone('a')).map((row) => [row.day, row.run])).toEqual([
      ['2026-03-09', 1],
      ['2026-03-10', 1],
      ['2026-03-11', 1],
      ['2026-03-12', 1],
      ['2026-03-13', 1],
    ]);

    // A new scheduler (a restart) goes on from the last day done.
    const restarted = new Scheduler({ db: database.db, clock });
    const again = recordingJob('a');
    restarted.register(again);
    await restarted.runDue();
    expect(again.calls).toEqual([]);
    clock.set(new Date('2026-03-14T00:06:00Z'));
    await restarted.runDue();
    expect(again.calls).toEqual(['2026-03-14']);
  });

  it('stops a job at a failed day and resumes it there, other jobs going on', async () => {
    const clock = new ManualClock(new Date('2026-05-01T10:00:00Z'));
    const failing = recordingJob('failing', ['2026-05-03']);
    const steady = recordingJob('steady');
    const scheduler = new Scheduler({ db: database.db, clock });
    scheduler.register(failing);
    scheduler.register(steady);
    await scheduler.runDue();

    clock.set(new Date('2026-05-04T10:00:00Z'));
    await scheduler.runDue();
    expect(failing.calls).toEqual(['2026-05-01', '2026-05-02', '2026-05-03']);
    expect(steady.calls).toEqual(['2026-05-01', '2026-05-02', '2026-05-03', '2026-05-04']);
    const [failingStatus, steadyStatus] = await scheduler.status();
    expect(failingStatus).toMatchObject({
      job: 'failing',
      firstDay: '2026-05-01',
      lastFinishedDay: '2026-05-02',
      latest: { day: '2026-05-03', finishedTime: null, error: 'day 2026-05-03 broke' },
    });
    expect(steadyStatus).toMatchObject({
      job: 'steady',
      lastFinishedDay: '2026-05-04',
      latest: { day: '2026-05-04', processed: 1, error: null },
    });

    // The next run resumes at the failed day and goes on in order.
    await scheduler.runDue();
    expect(failing.calls.slice(3)).toEqual(['2026-05-03', '2026-05-04']);
    expect((await workDone('failing')).map((row) => row.day)).toEqual([
      '2026-05-01',
      '2026-05-02',
      '2026-05-03',
      '2026-05-04',
    ]);
    expect((await scheduler.status())[0]!.latest).toMatchObject({ day: '2026-05-04', error: null });
  });

  it('runs each day once when two instances run at the same time', async () => {
    const clock = new ManualClock(new Date('2026-07-01T01:00:00Z'));
    const first = new Scheduler({ db: database.db, clock });
    const second = new Scheduler({ db: database.db, clock });
    const jobs = [recordingJob('shared'), recordingJob('shared')];
    first.register(jobs[0]!);
    second.register(jobs[1]!);
    await first.runDue();
    clock.set(new Date('2026-07-11T01:00:00Z'));
    await Promise.all([first.runDue(), second.runDue(), first.runDue()]);
    const days = [...jobs[0]!.calls, ...jobs[1]!.calls].slice(1).sort();
    expect(days).toEqual(Array.from({ length: 10 }, (_, i) => addDays('2026-07-02', i)));
    expect((await workDone('shared')).every((row) => row.run === 1)).toBe(true);
  });
});
