/**
 * SQL of the console's ledger and system pages: ledger verification runs (one running at a time,
 * across instances, by the partial unique index of migration 0023), the platform accounts'
 * balances, the migrations applied and the market feed's lease. The ledger itself is only read.
 */
import { firstRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';

export interface LedgerRunRow {
  id: number;
  status: 'running' | 'passed' | 'failed' | 'error';
  started_at: Date;
  finished_at: Date | null;
  operator_id: number;
  operator_name: string;
  snapshot: 'transaction' | 'perCheck';
  step: number;
  steps: number;
  current_check: string | null;
  accounts: number | null;
  entries: number | null;
  postings: number | null;
  violation_count: number | null;
  violations: unknown;
  error: string | null;
}

/** The columns of a run without its violations (lists). */
const RUN_COLUMNS = `id, status, started_at, finished_at, operator_id, operator_name, snapshot, step,
  steps, current_check, accounts, entries, postings, violation_count, error`;

/** Inserts a running run; undefined when one is running already (on any instance). */
export function insertRun(
  q: Queryable,
  run: {
    operatorId: number;
    operatorName: string;
    snapshot: LedgerRunRow['snapshot'];
    steps: number;
    at: Date;
  },
) {
  return firstRow<LedgerRunRow>(
    q,
    `INSERT INTO ledger_verify_run (status, started_at, operator_id, operator_name, snapshot, steps, heartbeat_at)
     VALUES ('running', $1, $2, $3, $4, $5, now())
     ON CONFLICT ((true)) WHERE status = 'running' DO NOTHING
     RETURNING ${RUN_COLUMNS}`,
    [run.at, run.operatorId, run.operatorName, run.snapshot, run.steps],
  );
}

/** The running run, if any, and whether its heartbeat is older than `staleMs`. */
export function findRunning(q: Queryable, staleMs: number) {
  return firstRow<LedgerRunRow & { stale: boolean }>(
    q,
    `SELECT ${RUN_COLUMNS}, heartbeat_at < now() - $1 * interval '1 millisecond' AS stale
     FROM ledger_verify_run WHERE status = 'running' FOR UPDATE`,
    [staleMs],
  );
}

export function findRun(q: Queryable, id: number) {
  return firstRow<LedgerRunRow>(q, `SELECT * FROM ledger_verify_run WHERE id = $1`, [id]);
}

export function listRuns(
  q: Queryable,
  filter: { status?: LedgerRunRow['status'] },
  page: { pageNum: number; pageSize: number },
) {
  const where = filter.status ? 'WHERE status = $1' : '';
  const params = filter.status ? [filter.status] : [];
  return pageOf<LedgerRunRow>(
    q,
    {
      rows: `SELECT ${RUN_COLUMNS} FROM ledger_verify_run ${where} ORDER BY id DESC`,
      count: `SELECT count(*)::int AS total FROM ledger_verify_run ${where}`,
      params,
    },
    page,
  );
}

/** Progress of a running run; renews its heartbeat. */
export async function markProgress(
  q: Queryable,
  id: number,
  progress: { step: number; check: string },
): Promise<void> {
  await q.query(
    `UPDATE ledger_verify_run SET step = $2, current_check = $3, heartbeat_at = now()
     WHERE id = $1 AND status = 'running'`,
    [id, progress.step, progress.check],
  );
}

export async function renewHeartbeat(q: Queryable, id: number): Promise<void> {
  await q.query(
    `UPDATE ledger_verify_run SET heartbeat_at = now() WHERE id = $1 AND status = 'running'`,
    [id],
  );
}

/** Closes a running run with its verdict; false when it was no longer running. */
export async function finishRun(
  q: Queryable,
  id: number,
  result: {
    status: 'passed' | 'failed' | 'error';
    at: Date;
    accounts?: number;
    entries?: number;
    postings?: number;
    violations?: unknown[];
    error?: string;
  },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE ledger_verify_run
     SET status = $2, finished_at = $3, accounts = $4, entries = $5, postings = $6,
         violation_count = $7, violations = $8::jsonb, error = $9, current_check = NULL,
         step = CASE WHEN $2 = 'error' THEN step ELSE steps END, heartbeat_at = now()
     WHERE id = $1 AND status = 'running'`,
    [
      id,
      result.status,
      result.at,
      result.accounts ?? null,
      result.entries ?? null,
      result.postings ?? null,
      result.violations ? result.violations.length : null,
      JSON.stringify(result.violations ?? []),
      result.error?.slice(0, 2000) ?? null,
    ],
  );
  return rowCount > 0;
}

/**
 * Starts the run's read-only snapshot: every statement of the transaction sees the ledger as of
 * its first one, and writes elsewhere go on (PostgreSQL's MVCC; no lock is taken).
 */
export async function beginSnapshot(tx: Queryable): Promise<void> {
  await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
}

// ---------------------------------------------------------------- platform accounts

export interface PlatformBalanceRow {
  book: 'live' | 'demo';
  kind: string;
  currency_id: number;
  currency_name: string;
  balance: string;
  shards: number;
}

/** The platform accounts of a book, their shards summed, by kind and currency. */
export function listPlatformBalances(
  q: Queryable,
  book: 'live' | 'demo',
  page: { pageNum: number; pageSize: number },
) {
  return pageOf<PlatformBalanceRow>(
    q,
    {
      rows: `SELECT a.book, a.kind, a.currency_id, c.currency_name,
               sum(a.balance)::text AS balance, count(*)::int AS shards
             FROM ledger_account a JOIN platform_currency c ON c.id = a.currency_id
             WHERE a.owner_type = 'platform' AND a.book = $1
             GROUP BY a.book, a.kind, a.currency_id, c.currency_name, c.sort
             ORDER BY a.kind, c.sort, a.currency_id`,
      count: `SELECT count(*)::int AS total FROM (
                SELECT 1 FROM ledger_account WHERE owner_type = 'platform' AND book = $1
                GROUP BY kind, currency_id) g`,
      params: [book],
    },
    page,
  );
}

// ---------------------------------------------------------------- system

export async function listMigrations(
  q: Queryable,
): Promise<{ version: number; name: string; applied_at: Date }[]> {
  const { rows } = await q.query<{ version: number; name: string; applied_at: Date }>(
    'SELECT version, name, applied_at FROM schema_migration ORDER BY version',
  );
  return rows;
}

export async function listLeases(
  q: Queryable,
): Promise<{ name: string; holder: string; expires_at: Date; expired: boolean }[]> {
  const { rows } = await q.query<{
    name: string;
    holder: string;
    expires_at: Date;
    expired: boolean;
  }>(
    'SELECT name, holder, expires_at, expires_at < now() AS expired FROM market_lease ORDER BY name',
  );
  return rows;
}
