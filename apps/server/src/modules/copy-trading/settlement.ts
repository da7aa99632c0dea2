/**
 * Settlements of the profit share above the high-water mark (`settleProfitShare` of
 * packages/shared/src/copy-trading.ts): daily at the scheduler's fixed UTC time (the DailyJob
 * 'copyTrade', reason 1, once per relation and day) and when the follower unfollows (reason 2).
 *
 * One transaction per relation: the relation's row is locked, the cumulative net P&L is read
 * from its closed copies' positions (realized result less the open and close fees), the share is
 * rate × (cumulative − mark) rounded down when the cumulative is above the mark (the mark then
 * rises to it), else nothing. What was owed before and the share are paid from the follower's
 * available balance to the trader's (the ledger entry `copy_profit_share`, in the relation's book:
 * a demo relation pays the trader's demo balance) as far as the balance goes; the rest stays owed.
 * The settlement row (unique per relation, reason and day) holds the inputs and outputs. Run again
 * (a crash, a second instance) it finds the row and pays nothing.
 *
 * Lock order: the relation's row, then the ledger's accounts. Nothing that locks the accounts
 * first (a copy's close) locks a relation.
 */
import {
  RELATION_STATUS,
  SETTLEMENT_REASON,
  add,
  isPositive,
  normalize,
  payProfitShare,
  settleProfitShare,
  sub,
  toScale,
} from '@bourse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import * as ledger from '../../ledger/ledger';
import type { NoticeEvent, NoticeWriter } from '../messages';
import type { DailyJob } from '../scheduler';
import type { SettingsService } from '../settings';
import * as notices from './notices';
import * as repo from './repo';

/** Relations read per batch of a day. */
const BATCH = 500;
/** A bound on the batches of one day (10 million relations). */
const MAX_BATCHES = 20_000;

export interface SettlementDeps {
  db: Database;
  settings: SettingsService;
  notices?: NoticeWriter;
  notify?: (userId: number, topic: string, data: unknown) => void;
  logger?: FastifyBaseLogger;
}

/**
 * Settles one relation for a reason and day; null when there is nothing to do (settled already,
 * or a daily settlement of a relation that ended).
 */
export async function settle(
  deps: SettlementDeps,
  relationId: number,
  reason: number,
  day: string,
  now: Date,
): Promise<repo.SettlementRow | null> {
  const { db } = deps;
  // Read before the transaction (PGlite: one connection), the currencies are few and cached.
  const currencyId = await repo.relationCurrency(db, relationId);
  if (currencyId === undefined) return null;
  const currency = await deps.settings.currency(currencyId);
  const scale = currency?.scale ?? 4;
  const events: NoticeEvent[] = [];
  const result = await db.transaction(async (tx) => {
    const relation = await repo.lockRelation(tx, relationId);
    if (!relation) return null;
    if (reason === SETTLEMENT_REASON.daily && relation.status !== RELATION_STATUS.active)
      return null;
    if (await repo.settlementExists(tx, relationId, reason, day)) return null;
    const cumPnl = normalize(await repo.realizedOf(tx, relationId));
    const { share, hwmAfter } = settleProfitShare({
      cumPnl,
      hwm: relation.hwm,
      rate: relation.profit_share_rate,
      scale,
    });
    const balances = await ledger.userBalances(tx, relation.book, relation.follower_id);
    const available =
      balances.find((balance) => balance.currencyId === relation.currency_id)?.available ?? '0';
    const due = payProfitShare({ share, owed: relation.owed, available });
    const paid = normalize(toScale(due.paid, scale, 'down'));
    // What stays owed: the owed and the share less what was paid (at the currency's scale).
    const owedAfter = normalize(sub(add(relation.owed, share), paid));
    let entryId: number | null = null;
    if (isPositive(paid)) {
      const entry = await ledger.transfer(tx, {
        book: relation.book,
        type: 'copy_profit_share',
        from: ledger.user(relation.follower_id, relation.currency_id),
        to: ledger.user(relation.trader_id, relation.currency_id),
        amount: paid,
        refType: 'copy_relation',
        refId: relationId,
      });
      entryId = entry.entryId;
    }
    const row: Omit<repo.SettlementRow, 'id' | 'created_at'> = {
      relation_id: relationId,
      follower_id: relation.follower_id,
      trader_id: relation.trader_id,
      book: relation.book,
      currency_id: relation.currency_id,
      reason,
      day,
      cum_pnl: cumPnl,
      hwm_before: normalize(relation.hwm),
      hwm_after: hwmAfter,
      rate: normalize(relation.profit_share_rate),
      share,
      owed_before: normalize(relation.owed),
      paid,
      owed_after: owedAfter,
      entry_id: entryId,
    };
    const { id } = await repo.insertSettlement(tx, row, now);
    await repo.settleRelation(
      tx,
      relationId,
      { cumPnl, hwm: hwmAfter, owed: owedAfter, paid },
      now,
    );
    if (isPositive(paid)) {
      const names = await repo.nickNames(tx, [relation.follower_id, relation.trader_id]);
      const name = (userId: number) => names.get(userId) ?? '';
      events.push(
        ...notices.sharePaid({
          followerId: relation.follower_id,
          traderId: relation.trader_id,
          settlementId: id,
          traderName: name(relation.trader_id),
          followerName: name(relation.follower_id),
          paid: toScale(paid, scale),
          currency: currency?.currencyName ?? '',
          day,
        }),
      );
      await deps.notices?.record(tx, events);
    }
    return { ...row, id, created_at: now };
  });
  if (result && events.length > 0) {
    deps.notices?.push(events);
    for (const userId of [result.follower_id, result.trader_id])
      deps.notify?.(userId, 'balances', { book: result.book, currencyId: result.currency_id });
  }
  return result;
}

/** The scheduler's daily settlement of every active relation, once per relation and UTC day. */
export class CopyTradeDailyJob implements DailyJob {
  readonly name = 'copyTrade';

  constructor(private readonly deps: SettlementDeps) {}

  async runDay(day: string, now: Date): Promise<number> {
    let after = 0;
    let settled = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const ids = await repo.activeRelationIds(this.deps.db, after, BATCH);
      if (ids.length === 0) break;
      for (const id of ids)
        if (await settle(this.deps, id, SETTLEMENT_REASON.daily, day, now)) settled += 1;
      after = ids[ids.length - 1]!;
    }
    this.deps.logger?.debug({ day, settled }, 'copy trading day settled');
    return settled;
  }
}
