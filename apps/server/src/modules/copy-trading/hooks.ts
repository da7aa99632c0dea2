/**
 * Copy trading's hooks into the contracts service (trading's CopyHooks), called inside the
 * transactions that open, close and change a position. They only write rows in that transaction:
 *
 * - a lead trader's live position opened: one open task per active relation of the trader (one
 *   INSERT … SELECT, whatever the number of followers);
 * - closed: a close task per copy of it (relations still active; a partial close's task closes
 *   the same fraction of each copy), the trade with the trader's equity just before the close
 *   (copy_trader_trade: the statistics' input) and the statistics marked due;
 * - TP/SL changed: a tpsl task per copy (seq: the change's time).
 *
 * After the commit the worker is woken in this process (other instances find the tasks at their
 * next check). Which users lead is known in memory (`leads`), so that nobody else's open leaves
 * the group commit: the set is read at start, changed here on approval, and read again by the
 * worker every few seconds (an approval made through another instance).
 *
 * A copy's own close is not seen here: a relation's cumulative P&L is read from its copies'
 * positions when it is shown or settled, so a close never has to lock a relation's row (the
 * settlement locks it before the follower's ledger accounts; a close locks those accounts first).
 */
import { CONTRACT_STATUS, add, normalize, sub } from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { CopyHookRow, CopyHooks } from '../trading';
import * as repo from './repo';

export class CopyTradingHooks implements CopyHooks {
  private leaders = new Set<number>();
  /** Called after a commit that queued tasks (the worker's wake-up). */
  queued: () => void = () => undefined;

  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  /** Reads who leads (at start, and every few seconds from the worker). */
  async load(q: Queryable = this.deps.db): Promise<void> {
    this.leaders = new Set(await repo.traderIds(q));
  }

  /** A user just approved in this instance. */
  add(userId: number): void {
    this.leaders.add(userId);
  }

  leads(userId: number): boolean {
    return this.leaders.has(userId);
  }

  private wake(count: number): void {
    // Once this turn's work is done; the transaction the hook ran in may not have committed by
    // then, so a wake-up that finds nothing runs again shortly (the worker's QUEUED_RETRY_MS).
    if (count > 0) setImmediate(() => this.queued());
  }

  async opened(tx: Queryable, rows: readonly CopyHookRow[]): Promise<void> {
    const leaders = rows.filter(
      (row) =>
        row.book === 'live' && row.status === CONTRACT_STATUS.open && this.leads(row.user_id),
    );
    if (leaders.length === 0) return;
    this.wake(await repo.queueOpens(tx, leaders, this.deps.clock.now()));
  }

  async closed(tx: Queryable, rows: readonly CopyHookRow[]): Promise<void> {
    const leaders = rows.filter(
      (row) =>
        row.book === 'live' && row.status === CONTRACT_STATUS.closed && this.leads(row.user_id),
    );
    if (leaders.length === 0) return;
    const now = this.deps.clock.now();
    // A whole close: seq 0. A partial close: the part's id as seq, on the position it came from.
    const whole = leaders.filter((row) => row.parent_id === null);
    const parts = leaders.filter((row) => row.parent_id !== null);
    let queued = 0;
    if (whole.length > 0)
      queued += await repo.queueFollowUps(
        tx,
        'close',
        whole.map((row) => ({ id: row.id, seq: 0 })),
        now,
      );
    if (parts.length > 0)
      queued += await repo.queuePartCloses(
        tx,
        parts.map((row) => ({ id: row.parent_id!, part: row.id, quantity: row.quantity })),
        now,
      );
    this.wake(queued);
    // The equity before the close entry: the balances now (the entry just posted, the accounts
    // locked by it) less what the closes of this entry added (result less close fee).
    const byCurrency = new Map<number, CopyHookRow[]>();
    for (const row of leaders)
      byCurrency.set(row.currency_id, [...(byCurrency.get(row.currency_id) ?? []), row]);
    const trades: repo.TradeInsert[] = [];
    for (const [currencyId, group] of byCurrency) {
      const users = [...new Set(group.map((row) => row.user_id))];
      const equity = await repo.equities(tx, users, 'live', currencyId);
      for (const userId of users) {
        const mine = group.filter((row) => row.user_id === userId);
        const added = mine.reduce(
          (sum, row) => add(sum, sub(row.realized_pnl ?? '0', row.close_fee ?? '0')),
          '0',
        );
        const before = normalize(sub(equity.get(userId) ?? '0', added));
        for (const row of mine)
          trades.push({
            position_id: row.id,
            trader_id: userId,
            opened_at: row.opened_at ?? row.closed_at!,
            closed_at: row.closed_at!,
            pnl: normalize(sub(sub(row.realized_pnl ?? '0', row.close_fee ?? '0'), row.open_fee)),
            margin: normalize(row.margin),
            equity_before: before,
          });
      }
    }
    await repo.insertTrades(tx, trades);
    await repo.markStatsDue(tx, [...new Set(leaders.map((row) => row.user_id))]);
  }

  async tpSlChanged(tx: Queryable, row: CopyHookRow): Promise<void> {
    if (row.book !== 'live' || row.status !== CONTRACT_STATUS.open || !this.leads(row.user_id))
      return;
    this.wake(
      await repo.queueFollowUps(
        tx,
        'tpsl',
        [{ id: row.id, seq: Number(row.tpsl_at ?? this.deps.clock.now().getTime()) }],
        this.deps.clock.now(),
      ),
    );
  }
}
