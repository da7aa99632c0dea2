-- The daily scheduler (issue 23): which day each daily job (earn interest, loan interest,
-- maturities, reminders) has run, so that every day runs exactly once per job, in order.
--
-- scheduler_job: a job's first day, the day it first ran; days before it are never run (a new
-- install does not pay for days before it existed).
-- scheduler_day: one row per job and day, written when the day starts and finished when its work
-- is done. A row left unfinished (a crash, an error) is the day the next run resumes; the jobs are
-- idempotent per (object, day), so what that day had done is not done twice.
CREATE TABLE scheduler_job (
  job text PRIMARY KEY CHECK (length(job) BETWEEN 1 AND 40),
  first_day date NOT NULL
);

CREATE TABLE scheduler_day (
  job text NOT NULL REFERENCES scheduler_job (job),
  day date NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  processed integer NOT NULL DEFAULT 0 CHECK (processed >= 0),
  error text CHECK (length(error) <= 1000),
  PRIMARY KEY (job, day)
);
