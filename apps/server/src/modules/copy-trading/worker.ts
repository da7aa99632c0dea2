/**
 * The copy-trading worker: takes the due tasks of the queue (copy_task) in batches and carries
 * them out through the contracts service, exactly as a user's own orders (fees, triggers,
 * liquidation, evidence):
 *
 * - open: the follower's copy opens at market at the follower's own current tick, its margin from
 *   the relation's settings (`copyMargin`: fixed, or a ratio of the leader's margin, capped by
 *   the budget left and the available balance), the leader's direction and leverage, under the
 *   request id copy_<relation>_<leader position>_open: a retry after a crash finds the position
 *   that request made and opens nothing twice. Its take-profit and stop-loss: the follower's own
 *   (fractions of the copy's margin) where set, else the leader's prices. A copy that cannot open
 *   (balance, budget, open copies, halted product, closed market, leverage) is failed with its
 *   hint and the follower told.
 * - close: the copy closes at market at its own tick (request id …_close); one closed meanwhile
 *   (its own TP/SL, by hand, liquidated) is skipped. A closed market waits with backoff. A
 *   leader's partial close (seq: its part) closes the same fraction of the copy, rounded down to
 *   the step (…_close_<part>); the whole copy when less than a step would stay open.
 * - tpsl: the leader's present TP/SL on the copy, except where the follower set their own.
 *
 * Opens of one batch run together (the contracts service writes opens that arrive together as one
 * statement, contract_open_many), one relation's tasks in order; what a batch reads first is read
 * in parallel, and the copies' TP/SL are set once the batch's opens are all written, so that the
 * last open of a large fan-out does not wait behind the first ones' TP/SL transactions. A task
 * that failed for a reason not its own (the database) is retried with backoff, at most
 * MAX_ATTEMPTS times.
 *
 * It runs every `checkMs` in every instance (unref'd), one instance at a time (a cluster-wide
 * advisory lock), and at once in this process when the hooks queue tasks (`wake`). The hooks call
 * from inside the queuing transaction, whose commit may still be on its way when the run reads the
 * queue: a run after that wake-up that finds nothing due runs again after a few milliseconds
 * (QUEUED_RETRY_MS), so a fan-out never waits for the next check (bench/copy-fanout.mjs: without
 * it a leader's open waited up to the whole 200 ms check). `runDue()` can be called at any time
 * (tests do). After the tasks it recomputes the statistics of traders who closed a trade.
 */
import {
  CONTRACT_STATUS,
  ORDER_TYPE,
  TASK_STATUS,
  add,
  copyMargin,
  copyTpSlPrices,
  div,
  floorToStep,
  isPositive,
  lt,
  mul,
  normalize,
  sub,
  traderStats,
  type ContractPosition,
  type CopyMode,
} from '@bourse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { MarketEngine } from '../../market/engine';
import type { NoticeEvent, NoticeWriter } from '../messages';
import type { SettingsService } from '../settings';
import type { Contracts } from '../trading';
import type { CopyTradingHooks } from './hooks';
import * as notices from './notices';
import * as repo from './repo';

const LOCK_KEY = 7_310_042;
/** Tasks per batch; a run takes batches until none is due, at most MAX_BATCHES. */
const BATCH = 1000;
const MAX_BATCHES = 50;
/** Relations of a batch started before the event loop turns (the contracts' group size). */
const SLICE = 64;
/** Retries of a task that failed for a reason not its own. */
const MAX_ATTEMPTS = 8;
/** Waits of a close for its market to open, or for the copy's open to be done. */
const MAX_WAITS = 1000;
const BACKOFF_MAX_MS = 5 * 60_000;
/**
 * After the hooks' wake-up, the pauses before running again while a run finds nothing due (the
 * queuing transaction not yet committed); then the periodic check takes over.
 */
const QUEUED_RETRY_MS = [1, 2, 5, 10, 20, 50];
/** How often the set of traders is read again (approvals through other instances). */
const LEADERS_REFRESH_MS = 5000;
/** Traders whose statistics are recomputed per run, and the trades read for one. */
const STATS_PER_RUN = 50;
const STATS_TRADES_MAX = 100_000;

/** Refusals of the contracts service, as the copy's reason. */
const REASONS: Record<string, string> = {
  hint_insufficientBalance: 'hint_copyBalanceShort',
  hint_productHalted: 'hint_copyProductHalted',
  hint_productUnknown: 'hint_copyProductHalted',
  hint_marketClosed: 'hint_copyMarketClosed',
  hint_orderTooSmall: 'hint_copyMarginBelowMin',
  hint_quantityStep: 'hint_copyMarginBelowMin',
};

export interface CopyWorkerDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  hooks: CopyTradingHooks;
  /** The contracts service the copies go through (absent without a market: tasks wait). */
  contracts?: Contracts;
  market?: MarketEngine;
  notices?: NoticeWriter;
  logger?: FastifyBaseLogger;
  /** How often to run (ms; 0: only when runDue or wake is called). */
  checkMs?: number;
  /** Whether the hooks' wake-up runs the worker at once (default true). */
  wakeOnQueue?: boolean;
}

export interface RunResult {
  tasks: number;
  stats: number;
}

type Outcome = repo.TaskOutcome;

function backoff(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, 1000 * 2 ** Math.min(attempts, 16));
}

export class CopyWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RunResult> | undefined;
  private again = false;
  private stopped = false;
  private leadersReadAt = 0;
  /** Runs left of the retries after the hooks' wake-up (QUEUED_RETRY_MS); -1: none pending. */
  private queuedRetry = -1;

  constructor(private readonly deps: CopyWorkerDeps) {
    this.wakeOnQueue(deps.wakeOnQueue ?? true);
  }

  /** Whether tasks queued in this process run at once (tests switch it off to step through). */
  wakeOnQueue(on: boolean): void {
    this.deps.hooks.queued = on ? () => this.queued() : () => undefined;
  }

  /** The hooks queued tasks in a transaction that may not have committed yet. */
  private queued(): void {
    this.queuedRetry = 0;
    this.wake();
  }

  start(): void {
    this.stopped = false;
    const checkMs = this.deps.checkMs ?? 0;
    if (checkMs <= 0 || this.timer) return;
    this.timer = setInterval(() => this.wake(), checkMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Runs now, or once more after the run in progress. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.runDue()
      .catch((error: unknown) => {
        this.deps.logger?.error({ err: error }, 'copy trading run failed');
        return undefined;
      })
      .then((result) => {
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        if (this.queuedRetry < 0) return;
        if (result && result.tasks > 0) {
          this.queuedRetry = -1;
          return;
        }
        const pause = QUEUED_RETRY_MS[this.queuedRetry];
        this.queuedRetry = pause === undefined ? -1 : this.queuedRetry + 1;
        if (pause !== undefined) setTimeout(() => this.wake(), pause).unref();
      });
  }

  /** Carries out the due tasks; one run at a time per instance, one instance at a time. */
  runDue(): Promise<RunResult> {
    this.running ??= this.deps.db
      .withAdvisoryLock(LOCK_KEY, () => this.runAll())
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Resolves once no run is in progress (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  private async runAll(): Promise<RunResult> {
    const { db, clock } = this.deps;
    if (clock.now().getTime() - this.leadersReadAt >= LEADERS_REFRESH_MS) {
      await this.deps.hooks.load(db);
      this.leadersReadAt = clock.now().getTime();
    }
    let tasks = 0;
    if (this.deps.contracts) {
      for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
        const due = await repo.dueTasks(db, clock.now(), BATCH);
        if (due.length === 0) break;
        await this.runBatch(due);
        tasks += due.length;
        if (due.length < BATCH) break;
      }
    }
    const stats = await this.refreshStats();
    return { tasks, stats };
  }

  // ------------------------------------------------------------ a batch

  private async runBatch(tasks: repo.TaskRow[]): Promise<void> {
    const { db } = this.deps;
    const followUps = tasks.filter((task) => task.kind !== 'open');
    const openTasks = tasks.filter((task) => task.kind === 'open');
    // Independent reads side by side (a fan-out's latency starts with them).
    const [relationRows, leaderRows, openRows, openCopies] = await Promise.all([
      repo.relationsByIds(db, [...new Set(tasks.map((task) => task.relation_id))]),
      repo.positionsByIds(db, [...new Set(tasks.map((t) => t.leader_position_id))]),
      followUps.length === 0
        ? []
        : repo.openTasksOf(
            db,
            followUps.map((task) => ({
              relation: task.relation_id,
              leader: task.leader_position_id,
            })),
          ),
      openTasks.length === 0
        ? []
        : repo.openCopiesOf(db, [...new Set(openTasks.map((task) => task.relation_id))]),
    ]);
    const relations = new Map(relationRows.map((row) => [row.id, row]));
    const leaders = new Map(leaderRows.map((row) => [row.id, row]));
    const opens = new Map(
      openRows.map((row) => [`${row.relation_id}:${row.leader_position_id}`, row]),
    );
    const copyIds = [...opens.values()].flatMap((row) =>
      row.follower_position_id === null ? [] : [row.follower_position_id],
    );
    const [copyRows, state] = await Promise.all([
      copyIds.length === 0 ? [] : repo.positionsByIds(db, copyIds),
      this.openState(openTasks, relations, openCopies),
    ]);
    const copies = new Map(copyRows.map((row) => [row.id, row]));
    const context: BatchContext = { relations, leaders, opens, copies, events: [], after: [] };
    // One relation's tasks in order (opens before the closes of the same batch); relations
    // side by side, so their opens reach the contracts service together.
    const byRelation = new Map<number, repo.TaskRow[]>();
    for (const task of tasks)
      byRelation.set(task.relation_id, [...(byRelation.get(task.relation_id) ?? []), task]);
    const outcomes: Outcome[] = [];
    const chains: Promise<void>[] = [];
    for (const list of byRelation.values()) {
      chains.push(
        (async () => {
          for (const task of list) {
            const outcome = await this.runTask(task, context, state).catch((error: unknown) =>
              this.retry(task, error),
            );
            outcomes.push(outcome);
          }
        })(),
      );
      // A slice at a time: the contracts service sends the first group of opens while the next
      // ones are being sized, instead of after all of them.
      if (chains.length % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(chains);
    // The copies' TP/SL, once every open of the batch is written.
    await Promise.all(context.after.map((step) => step()));
    await db.transaction(async (tx) => {
      await repo.finishTasks(tx, outcomes, this.deps.clock.now());
      await this.deps.notices?.record(tx, context.events);
    });
    this.deps.notices?.push(context.events);
  }

  /** What the opens of a batch need: positions a crash left unrecorded, open copies, balances. */
  private async openState(
    tasks: repo.TaskRow[],
    relations: Map<number, repo.RelationRow & { trader_status: number; trader_name: string }>,
    openCopies: { relation_id: number; count: number; margin: string }[],
  ): Promise<OpenState> {
    const open = new Map(
      openCopies.map((row) => [
        row.relation_id,
        { count: row.count, margin: normalize(row.margin) },
      ]),
    );
    if (tasks.length === 0) return { made: new Map(), open, available: new Map() };
    const { db } = this.deps;
    const keys = tasks.flatMap((task) => {
      const relation = relations.get(task.relation_id);
      return relation ? [{ userId: relation.follower_id, requestId: openRequestId(task) }] : [];
    });
    const balanceKeys = [...relations.values()].map((relation) => ({
      userId: relation.follower_id,
      book: relation.book,
      currencyId: relation.currency_id,
    }));
    const [madeRows, available] = await Promise.all([
      repo.positionsByRequest(db, keys),
      repo.availableOf(db, balanceKeys),
    ]);
    const made = new Map(madeRows.map((row) => [`${row.user_id}:${row.request_id}`, row.id]));
    return { made, open, available };
  }

  private retry(task: repo.TaskRow, error: unknown): Outcome {
    this.deps.logger?.warn({ err: error, taskId: task.id }, 'copy task failed; retried later');
    if (task.attempts + 1 >= MAX_ATTEMPTS)
      return done(task, TASK_STATUS.failed, 'hint_copyRetryExhausted');
    return later(task, this.deps.clock.now(), backoff(task.attempts));
  }

  private runTask(task: repo.TaskRow, context: BatchContext, state: OpenState): Promise<Outcome> {
    if (task.kind === 'open') return this.open(task, context, state);
    if (task.kind === 'close') return this.close(task, context);
    return this.tpsl(task, context);
  }

  // ------------------------------------------------------------ open

  private async open(task: repo.TaskRow, context: BatchContext, state: OpenState) {
    const contracts = this.deps.contracts!;
    const relation = context.relations.get(task.relation_id);
    const leader = context.leaders.get(task.leader_position_id);
    if (!relation || !leader) return done(task, TASK_STATUS.skipped, 'hint_copyRelationEnded');
    const requestId = openRequestId(task);
    const made = state.made.get(`${relation.follower_id}:${requestId}`);
    if (made !== undefined) return done(task, TASK_STATUS.done, null, made);
    if (relation.status !== 1) return done(task, TASK_STATUS.skipped, 'hint_copyRelationEnded');
    if (relation.trader_status !== 1)
      return done(task, TASK_STATUS.skipped, 'hint_copyTraderSuspended');
    if (leader.status !== CONTRACT_STATUS.open)
      return done(task, TASK_STATUS.skipped, 'hint_copyLeaderClosed');
    const product = this.deps.market?.productById(leader.product_id);
    const fail = (reason: string, params?: unknown) => {
      context.events.push(
        notices.copyFailed({
          userId: relation.follower_id,
          taskId: task.id,
          traderName: relation.trader_name,
          product: product?.product_code ?? '',
          relationId: relation.id,
        }),
      );
      return done(task, TASK_STATUS.failed, reason, null, params);
    };
    if (!product) return fail('hint_copyProductHalted');
    const open = state.open.get(relation.id) ?? { count: 0, margin: '0' };
    if (open.count >= relation.max_open) return fail('hint_copyMaxOpenReached');
    const currency = await this.deps.settings.currency(relation.currency_id);
    const balanceKey = `${relation.follower_id}:${relation.book}:${relation.currency_id}`;
    const available = state.available.get(balanceKey) ?? '0';
    const sized = copyMargin({
      mode: relation.mode as CopyMode,
      amount: relation.amount,
      ratio: relation.ratio,
      leaderMargin: leader.margin,
      budgetLeft: sub(relation.budget, open.margin),
      available,
      scale: currency?.scale ?? 4,
    });
    if (!sized.ok) return fail(sized.hint, { wanted: sized.wanted });
    const actor = { userId: relation.follower_id, book: relation.book };
    let position: ContractPosition;
    try {
      // No notification per copy (only failures are told): the follower's app still hears of
      // the position.
      position = await contracts.open(
        actor,
        {
          productType: product.product_type as never,
          productCode: product.product_code,
          orderDirection: leader.direction as never,
          leverage: leader.leverage,
          orderType: ORDER_TYPE.market,
          margin: sized.margin,
          requestId,
        },
        'en',
        { notify: false },
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return fail(REASONS[error.key] ?? error.key, { wanted: sized.wanted, margin: sized.margin });
    }
    state.open.set(relation.id, {
      count: open.count + 1,
      margin: add(open.margin, position.margin),
    });
    state.available.set(
      balanceKey,
      normalize(sub(sub(available, position.margin), position.openFee)),
    );
    const params: Record<string, unknown> = {
      margin: sized.margin,
      wanted: sized.wanted,
      cappedBy: sized.cappedBy,
    };
    const outcome = done(task, TASK_STATUS.done, null, position.id, params);
    const tpSl = this.tpSlOf(relation, leader, position, product.price_scale);
    if (tpSl.takeProfit !== null || tpSl.stopLoss !== null)
      // Set once the batch's opens are written (runBatch).
      context.after.push(async () => {
        try {
          await contracts.updateTpSl(actor, {
            id: position.id,
            takeProfit: tpSl.takeProfit ?? undefined,
            stopLoss: tpSl.stopLoss ?? undefined,
          });
        } catch (error) {
          // Not the copy's own problem (the database): the task runs again, finds its position
          // made and records it.
          if (!(error instanceof AppError)) {
            Object.assign(outcome, this.retry(task, error));
            return;
          }
          // The copy stays open; its TP/SL could not be set where asked (the price moved past, or
          // a close of the same batch came first).
          params.tpSlProblem = error.key;
        }
      });
    return outcome;
  }

  /** A copy's TP/SL: the follower's own (fractions of its margin) where set, else the leader's. */
  private tpSlOf(
    relation: repo.RelationRow,
    leader: repo.PositionRow,
    position: ContractPosition,
    priceScale: number,
  ): { takeProfit: string | null; stopLoss: string | null } {
    const own = copyTpSlPrices({
      direction: position.orderDirection as 1 | 2,
      entryPrice: position.entryPrice ?? '0',
      quantity: position.quantity,
      margin: position.margin,
      tpRate: relation.tp_rate,
      slRate: relation.sl_rate,
      priceScale,
    });
    return {
      takeProfit:
        relation.tp_rate !== null
          ? own.takeProfit
          : leader.take_profit && normalize(leader.take_profit),
      stopLoss:
        relation.sl_rate !== null ? own.stopLoss : leader.stop_loss && normalize(leader.stop_loss),
    };
  }

  // ------------------------------------------------------------ close and TP/SL

  /** The copy of a follow-up's (relation, leader position), or the outcome when there is none. */
  private copyOf(
    task: repo.TaskRow,
    context: BatchContext,
  ): { copy: repo.PositionRow; relation: repo.RelationRow } | Outcome {
    const relation = context.relations.get(task.relation_id);
    const open = context.opens.get(`${task.relation_id}:${task.leader_position_id}`);
    if (!relation || relation.status !== 1)
      return done(task, TASK_STATUS.skipped, 'hint_copyRelationEnded');
    if (!open || open.status === TASK_STATUS.failed || open.status === TASK_STATUS.skipped)
      return done(task, TASK_STATUS.skipped, 'hint_copyNotOpened');
    if (open.status === TASK_STATUS.pending) {
      // The open is still queued (or being retried): this step waits for it.
      if (task.attempts + 1 >= MAX_WAITS)
        return done(task, TASK_STATUS.failed, 'hint_copyRetryExhausted');
      return later(task, this.deps.clock.now(), 1000);
    }
    const copy = context.copies.get(open.follower_position_id!);
    if (!copy || copy.status !== CONTRACT_STATUS.open)
      return done(task, TASK_STATUS.skipped, 'hint_copyAlreadyClosed', copy?.id ?? null);
    return { copy, relation };
  }

  private async close(task: repo.TaskRow, context: BatchContext): Promise<Outcome> {
    const found = this.copyOf(task, context);
    if (!('copy' in found)) return found;
    const { copy, relation } = found;
    // A partial close of the leader's (seq: its part): the same fraction of the copy.
    const quantity = task.seq === 0 ? undefined : this.partOf(task, copy);
    if (quantity === null) return done(task, TASK_STATUS.skipped, 'hint_orderTooSmall', copy.id);
    const suffix = task.seq === 0 ? '' : `_${task.seq}`;
    try {
      await this.deps.contracts!.close(
        { userId: relation.follower_id, book: relation.book },
        {
          id: copy.id,
          quantity,
          requestId: `copy_${task.relation_id}_${task.leader_position_id}_close${suffix}`,
        },
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.key === 'hint_positionNotOpen')
        return done(task, TASK_STATUS.skipped, 'hint_copyAlreadyClosed', copy.id);
      if (error.key === 'hint_marketClosed' && task.attempts + 1 < MAX_WAITS)
        return later(task, this.deps.clock.now(), backoff(task.attempts));
      return done(task, TASK_STATUS.failed, REASONS[error.key] ?? error.key, copy.id);
    }
    return done(task, TASK_STATUS.done, null, copy.id);
  }

  /**
   * The quantity of a copy a leader's partial close closes: the copy's quantity times the part's
   * fraction of the leader's position, rounded down to the product's step; the whole copy
   * (undefined) when what would stay open is under one step; null when the part is under one.
   */
  private partOf(task: repo.TaskRow, copy: repo.PositionRow): string | undefined | null {
    const step = this.deps.market?.productById(copy.product_id)?.standard;
    const { quantity, before } = task.params ?? {};
    if (!step || !quantity || !before) return undefined;
    const part = floorToStep(div(mul(copy.quantity, quantity), before, 18), normalize(step));
    if (!isPositive(part)) return null;
    return lt(sub(copy.quantity, part), normalize(step)) ? undefined : part;
  }

  private async tpsl(task: repo.TaskRow, context: BatchContext): Promise<Outcome> {
    const found = this.copyOf(task, context);
    if (!('copy' in found)) return found;
    const { copy, relation } = found;
    if (relation.tp_rate !== null && relation.sl_rate !== null)
      return done(task, TASK_STATUS.skipped, 'hint_copyOwnTpSl', copy.id);
    const leader = context.leaders.get(task.leader_position_id)!;
    const price = (value: string | null) => (value === null ? undefined : normalize(value));
    // The leader's present levels (a later change's task finds the same: they apply once).
    const takeProfit = relation.tp_rate !== null ? copy.take_profit : leader.take_profit;
    const stopLoss = relation.sl_rate !== null ? copy.stop_loss : leader.stop_loss;
    try {
      await this.deps.contracts!.updateTpSl(
        { userId: relation.follower_id, book: relation.book },
        { id: copy.id, takeProfit: price(takeProfit), stopLoss: price(stopLoss) },
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.key === 'hint_positionNotOpen')
        return done(task, TASK_STATUS.skipped, 'hint_copyAlreadyClosed', copy.id);
      return done(task, TASK_STATUS.failed, error.key, copy.id);
    }
    return done(task, TASK_STATUS.done, null, copy.id, { takeProfit, stopLoss });
  }

  // ------------------------------------------------------------ statistics

  /** Recomputes the statistics of traders who closed a trade since (bounded per run). */
  private async refreshStats(): Promise<number> {
    const { db, clock } = this.deps;
    const due = await repo.claimStatsDue(db, STATS_PER_RUN);
    for (const traderId of due) {
      try {
        const trades = await repo.traderTrades(db, traderId, STATS_TRADES_MAX);
        const now = clock.now();
        const stats = traderStats(
          trades.map((trade) => ({
            id: trade.position_id,
            openedAt: trade.opened_at,
            closedAt: trade.closed_at,
            pnl: trade.pnl,
            margin: trade.margin,
            equityBefore: trade.equity_before,
          })),
          now,
        );
        await repo.saveStats(db, traderId, stats, now);
      } catch (error) {
        await repo.markStatsDue(db, [traderId]).catch(() => undefined);
        this.deps.logger?.error({ err: error, traderId }, 'copy trading statistics failed');
      }
    }
    return due.length;
  }
}

interface BatchContext {
  relations: Map<number, repo.RelationRow & { trader_status: number; trader_name: string }>;
  leaders: Map<number, repo.PositionRow>;
  opens: Map<string, repo.TaskRow>;
  copies: Map<number, repo.PositionRow>;
  events: NoticeEvent[];
  /** Steps run once every task of the batch is done (the copies' TP/SL). */
  after: (() => Promise<void>)[];
}

interface OpenState {
  /** Positions already made under a task's request id (user:requestId → position id). */
  made: Map<string, number>;
  /** Open copies of each relation (count, margin), as the batch changes them. */
  open: Map<number, { count: number; margin: string }>;
  /** Available balances (user:book:currency), as the batch's opens spend them. */
  available: Map<string, string>;
}

/** The request id of a copy's open: one position per (relation, leader position), ever. */
export function openRequestId(task: Pick<repo.TaskRow, 'relation_id' | 'leader_position_id'>) {
  return `copy_${task.relation_id}_${task.leader_position_id}_open`;
}

function done(
  task: repo.TaskRow,
  status: number,
  reason: string | null,
  followerPositionId: number | null = null,
  params?: unknown,
): Outcome {
  return { id: task.id, status, reason, followerPositionId, params, nextAt: null };
}

function later(task: repo.TaskRow, now: Date, waitMs: number): Outcome {
  return {
    id: task.id,
    status: TASK_STATUS.pending,
    reason: null,
    followerPositionId: null,
    params: undefined,
    nextAt: new Date(now.getTime() + waitMs),
  };
}
