import { allRows, firstRow, type Queryable } from '../../db/database';

/** The job's first day: recorded as `today` the first time it runs, kept after. */
export async function firstDay(q: Queryable, job: string, today: string): Promise<string> {
  await q.query(
    'INSERT INTO scheduler_job (job, first_day) VALUES ($1, $2) ON CONFLICT (job) DO NOTHING',
    [job, today],
  );
  const row = await firstRow<{ first_day: string }>(
    q,
    `SELECT to_char(first_day, 'YYYY-MM-DD') AS first_day FROM scheduler_job WHERE job = $1`,
    [job],
  );
  return row!.first_day;
}

/** The last day finished with every day before it finished too (days run in order). */
export async function lastFinishedDay(q: Queryable, job: string): Promise<string | undefined> {
  const row = await firstRow<{ day: string | null }>(
    q,
    `SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM scheduler_day
      WHERE job = $1 AND finished_at IS NOT NULL`,
    [job],
  );
  return row?.day ?? undefined;
}

export async function startDay(q: Queryable, job: string, day: string, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO scheduler_day (job, day, started_at) VALUES ($1, $2, $3)
     ON CONFLICT (job, day) DO UPDATE SET started_at = EXCLUDED.started_at, error = NULL`,
    [job, day, now],
  );
}

export async function finishDay(
  q: Queryable,
  job: string,
  day: string,
  now: Date,
  processed: number,
): Promise<void> {
  await q.query(
    `UPDATE scheduler_day SET finished_at = $3, processed = $4, error = NULL
      WHERE job = $1 AND day = $2`,
    [job, day, now, processed],
  );
}

export async function failDay(q: Queryable, job: string, day: string, error: string) {
  await q.query('UPDATE scheduler_day SET error = $3 WHERE job = $1 AND day = $2', [
    job,
    day,
    error.slice(0, 1000),
  ]);
}

export interface SchedulerJobStatus {
  job: string;
  /** The first day the job ran (null: never yet). */
  firstDay: string | null;
  /** The last day whose work is done. */
  lastFinishedDay: string | null;
  /** The latest day started: when, whether it finished, how many objects, the error if it failed. */
  latest: {
    day: string;
    startedTime: string;
    finishedTime: string | null;
    processed: number;
    error: string | null;
  } | null;
}

export async function jobStatus(q: Queryable, jobs: string[]): Promise<SchedulerJobStatus[]> {
  const rows = await allRows<{
    job: string;
    first_day: string | null;
    last_finished: string | null;
    day: string | null;
    started_at: Date | null;
    finished_at: Date | null;
    processed: number | null;
    error: string | null;
  }>(
    q,
    `SELECT j.job,
            to_char(s.first_day, 'YYYY-MM-DD') AS first_day,
            (SELECT to_char(max(d.day), 'YYYY-MM-DD') FROM scheduler_day d
              WHERE d.job = j.job AND d.finished_at IS NOT NULL) AS last_finished,
            to_char(l.day, 'YYYY-MM-DD') AS day, l.started_at, l.finished_at, l.processed, l.error
       FROM unnest($1::text[]) AS j (job)
       LEFT JOIN scheduler_job s ON s.job = j.job
       LEFT JOIN LATERAL (
         SELECT day, started_at, finished_at, processed, error FROM scheduler_day d
          WHERE d.job = j.job ORDER BY d.day DESC LIMIT 1
       ) l ON true
      ORDER BY j.job`,
    [jobs],
  );
  return rows.map((row) => ({
    job: row.job,
    firstDay: row.first_day,
    lastFinishedDay: row.last_finished,
    latest:
      row.day === null
        ? null
        : {
            day: row.day,
            startedTime: row.started_at!.toISOString(),
            finishedTime: row.finished_at?.toISOString() ?? null,
            processed: row.processed ?? 0,
            error: row.error,
          },
  }));
}
