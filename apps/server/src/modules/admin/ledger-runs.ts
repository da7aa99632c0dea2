/**
 * Ledger verifications started from the console (PRODUCT section 1.3): `verifyLedger` as a
 * background job that never blocks writes, one at a time across instances, each run kept with its
 * verdict.
 *
 * - On PostgreSQL the checks run in one read-only REPEATABLE READ transaction on a connection of
 *   their own: they all see one snapshot, and MVCC lets every write go on meanwhile.
 * - On the embedded database (one connection, whose transactions would hold every other query)
 *   each check is one statement, consistent on its own, and writes go on between them.
 *
 * A start inserts the running row (the partial unique index of migration 0023 admits one): while
 * one runs, on this instance or another, a start answers it. The job renews a heartbeat; a run
 * whose instance stopped stops renewing it and is closed as `error` by the next start.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LedgerRun, LedgerRunDetail, LedgerViolation } from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import {
  VERIFY_CHECKS,
  verifyLedger,
  type LedgerReport,
  type VerifyOptions,
} from '../../ledger/verify';
import type { Queryable } from '../../db/database';
import { insertAudit } from './repo';
import * as repo from './system-repo';

/** How often a running job renews its heartbeat, and when a silent one counts as stopped. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 120_000;

export type LedgerVerifier = (q: Queryable, options: VerifyOptions) => Promise<LedgerReport>;

export interface LedgerRunsDeps {
  db: Database;
  clock: Clock;
  logger?: FastifyBaseLogger;
  /** The verifier (tests wrap it to hold a run open). */
  verify?: LedgerVerifier;
}

export interface RunStarter {
  operatorId: number;
  username: string;
  ip: string;
}

export function toLedgerRun(row: repo.LedgerRunRow): LedgerRun {
  return {
    id: row.id,
    status: row.status,
    startTime: row.started_at.toISOString(),
    finishTime: row.finished_at?.toISOString() ?? null,
    operatorId: row.operator_id,
    operatorName: row.operator_name,
    snapshot: row.snapshot,
    step: row.step,
    steps: row.steps,
    check: (VERIFY_CHECKS as readonly string[]).includes(row.current_check ?? '')
      ? (row.current_check as LedgerRun['check'])
      : null,
    accounts: row.accounts,
    entries: row.entries,
    postings: row.postings,
    violationCount: row.violation_count,
    error: row.error,
  };
}

export class LedgerRuns {
  /** The jobs this instance runs, by run id (at most one, as the database admits one). */
  private readonly jobs = new Map<number, Promise<void>>();
  private readonly verify: LedgerVerifier;

  constructor(private readonly deps: LedgerRunsDeps) {
    this.verify = deps.verify ?? verifyLedger;
  }

  /**
   * Starts a run, or answers the running one (`started` false). The start and its audit entry are
   * one transaction; the job begins once it is committed.
   */
  async start(operator: RunStarter): Promise<{ run: LedgerRun; started: boolean }> {
    const { db, clock } = this.deps;
    const snapshot = db.kind === 'postgres' ? 'transaction' : 'perCheck';
    const result = await db.transaction(async (tx) => {
      const running = await repo.findRunning(tx, STALE_MS);
      if (running && (this.jobs.has(running.id) || !running.stale))
        return { row: running, started: false };
      if (running) {
        // Its instance stopped renewing the heartbeat: the run will not finish.
        await repo.finishRun(tx, running.id, {
          status: 'error',
          at: clock.now(),
          error: 'The instance running it stopped before it finished.',
        });
      }
      const row = await repo.insertRun(tx, {
        operatorId: operator.operatorId,
        operatorName: operator.username,
        snapshot,
        steps: VERIFY_CHECKS.length,
        at: clock.now(),
      });
      // Another instance inserted its run between our read and our insert: answer that one.
      if (!row) return { row: await repo.findRunning(tx, STALE_MS), started: false };
      await insertAudit(tx, {
        operatorId: operator.operatorId,
        operatorName: operator.username,
        action: 'ledger.verify',
        targetType: 'ledgerRun',
        targetId: String(row.id),
        before: null,
        after: { status: row.status, snapshot: row.snapshot },
        ip: operator.ip,
        at: clock.now(),
      });
      return { row, started: true };
    });
    if (!result.row) return this.start(operator);
    if (result.started) this.launch(result.row.id, snapshot);
    return { run: toLedgerRun(result.row), started: result.started };
  }

  async find(id: number): Promise<LedgerRunDetail | undefined> {
    const row = await repo.findRun(this.deps.db, id);
    if (!row) return undefined;
    return {
      ...toLedgerRun(row),
      violations: Array.isArray(row.violations) ? (row.violations as LedgerViolation[]) : [],
    };
  }

  async list(query: {
    pageNum: number;
    pageSize: number;
    status?: LedgerRun['status'];
  }): Promise<{ rows: LedgerRun[]; total: number }> {
    const { rows, total } = await repo.listRuns(this.deps.db, { status: query.status }, query);
    return { rows: rows.map(toLedgerRun), total };
  }

  /** Resolves once this instance's jobs have ended (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all(this.jobs.values());
  }

  private launch(id: number, snapshot: repo.LedgerRunRow['snapshot']): void {
    const job = this.run(id, snapshot).finally(() => this.jobs.delete(id));
    this.jobs.set(id, job);
  }

  private async run(id: number, snapshot: repo.LedgerRunRow['snapshot']): Promise<void> {
    const { db, clock, logger } = this.deps;
    const heartbeat = setInterval(() => {
      repo.renewHeartbeat(db, id).catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    // Progress goes through the database (any instance answers the run), outside the snapshot.
    const options: VerifyOptions = {
      onCheck: (step, check) => repo.markProgress(db, id, { step, check }),
    };
    try {
      const report =
        snapshot === 'transaction'
          ? await db.transaction(async (tx) => {
              await repo.beginSnapshot(tx);
              return this.verify(tx, options);
            })
          : await this.verify(db, options);
      await repo.finishRun(db, id, {
        status: report.ok ? 'passed' : 'failed',
        at: clock.now(),
        accounts: report.accounts,
        entries: report.entries,
        postings: report.postings,
        violations: report.violations,
      });
    } catch (error) {
      logger?.error({ err: error, run: id }, 'ledger verification failed to run');
      await repo
        .finishRun(db, id, {
          status: 'error',
          at: clock.now(),
          error: error instanceof Error ? error.message : String(error),
        })
        .catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }
}
