-- Ledger verifications started from the operator console (PRODUCT section 1.3 and 9): each run
-- is kept with who started it, when, what it checked and its verdict, with its violations (at
-- most 20 of each check, then a count). One runs at a time across instances: the partial unique
-- index admits a single running row; a run whose instance stopped stops renewing its heartbeat
-- and is closed as `error` by the next start.
CREATE TABLE ledger_verify_run (
  id bigserial PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('running', 'passed', 'failed', 'error')),
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  operator_id bigint NOT NULL REFERENCES operator (id),
  operator_name text NOT NULL,
  snapshot text NOT NULL CHECK (snapshot IN ('transaction', 'perCheck')),
  step smallint NOT NULL DEFAULT 0,
  steps smallint NOT NULL,
  current_check text,
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  accounts bigint,
  entries bigint,
  postings bigint,
  violation_count integer,
  violations jsonb NOT NULL DEFAULT '[]',
  error text CHECK (length(error) <= 2000),
  CHECK ((status = 'running') = (finished_at IS NULL))
);
CREATE UNIQUE INDEX ledger_verify_run_one_running ON ledger_verify_run ((true)) WHERE status = 'running';
CREATE INDEX ledger_verify_run_status_idx ON ledger_verify_run (status, id);
