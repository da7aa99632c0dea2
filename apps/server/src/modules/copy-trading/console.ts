/**
 * The console's copy trading: applications to lead (approve: the user becomes a trader, their past
 * closed live contracts read into the statistics' input; reject with the reason the user reads),
 * the settings, lead traders (computed statistics only: no call writes one; a cap on followers;
 * suspend and resume with a reason, the trader and followers told, copies kept), relations and the
 * settlements report. Every change is audited in its transaction.
 */
import {
  APPLICATION_STATUS,
  TRADER_STATUS,
  toScale,
  type ConsoleApplication,
  type ConsoleRelation,
  type ConsoleTrader,
  type CopyReportRow,
  type CopyTradeSettings,
  type CopyTradeSettingsBody,
  type PageQuery,
  type TraderStats,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import { mapRows } from '../../db/page';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { NoticeEvent, NoticeWriter } from '../messages';
import type { AuditWriter } from '../wallet';
import type { CopyTradingHooks } from './hooks';
import * as notices from './notices';
import * as repo from './repo';
import { applicationView, type CopyTrading } from './service';
import { copySettings } from './settings';

/** Closed trades read into a new trader's statistics at approval, at most. */
const BACKFILL_MAX = 100_000;
/** Followers told of a suspension or resumption, at most. */
const TELL_MAX = 100_000;

export interface CopyTradingConsoleDeps {
  db: Database;
  clock: Clock;
  hooks: CopyTradingHooks;
  views: CopyTrading;
  notices?: NoticeWriter;
}

interface ConsoleOperator {
  operatorId: number;
}

export class CopyTradingConsole {
  constructor(private readonly deps: CopyTradingConsoleDeps) {}

  private async userOf(account: string | undefined): Promise<number | null> {
    if (!account) return null;
    const id = await repo.findUserId(this.deps.db, account.trim());
    if (id === null) throw new AppError('hint_userNotFound', 404);
    return id;
  }

  private applicationView(row: repo.ApplicationRow): ConsoleApplication {
    return {
      ...applicationView(row),
      userId: row.user_id,
      userAccount: row.user_account,
      nickName: row.nick_name,
      authLevel: row.auth_level,
      closedTradesNow: row.closed_trades_now,
      reviewedBy: row.reviewer,
    };
  }

  async applications(query: PageQuery & { status?: number; userAccount?: string }) {
    const userId = await this.userOf(query.userAccount);
    const page = await repo.pageApplications(this.deps.db, { status: query.status, userId }, query);
    return mapRows(page, (row) => this.applicationView(row));
  }

  async review(
    id: number,
    decision: { approve: true } | { approve: false; reason: string },
    operator: ConsoleOperator,
    audit: AuditWriter,
  ): Promise<ConsoleApplication> {
    const now = this.deps.clock.now();
    const money = await this.deps.views.money();
    const events: NoticeEvent[] = [];
    const userId = await this.deps.db.transaction(async (tx) => {
      const row = await repo.findApplication(tx, id, true);
      if (!row) throw new AppError('hint_notFound', 404);
      if (row.status !== APPLICATION_STATUS.pending)
        throw new AppError('hint_copyApplicationReviewed', 409);
      const status = decision.approve ? APPLICATION_STATUS.approved : APPLICATION_STATUS.rejected;
      const reason = decision.approve ? null : decision.reason;
      await repo.reviewApplication(tx, id, status, reason, operator.operatorId, now);
      if (decision.approve) {
        await repo.insertTrader(tx, row.user_id, now);
        await repo.backfillTrades(tx, row.user_id, money.id, BACKFILL_MAX);
      }
      await audit(tx, {
        action: decision.approve ? 'copyTrade.approve' : 'copyTrade.reject',
        targetType: 'copy_trader_application',
        targetId: String(id),
        before: { status: row.status },
        after: { status, reason },
      });
      events.push(
        notices.application({ userId: row.user_id, id, approved: decision.approve, reason }),
      );
      await this.deps.notices?.record(tx, events);
      return row.user_id;
    });
    this.deps.notices?.push(events);
    if (decision.approve) this.deps.hooks.add(userId);
    return this.applicationView((await repo.findApplication(this.deps.db, id))!);
  }

  settings(): Promise<CopyTradeSettings> {
    return copySettings(this.deps.db);
  }

  async saveSettings(body: CopyTradeSettingsBody, audit: AuditWriter): Promise<CopyTradeSettings> {
    const before = await copySettings(this.deps.db);
    const value = {
      maxProfitShareRate: body.maxProfitShareRate,
      minClosedTrades: body.minClosedTrades,
      positionDelayMinutes: body.positionDelayMinutes,
    };
    await this.deps.db.transaction(async (tx) => {
      await repo.saveSettings(tx, value, this.deps.clock.now());
      await audit(tx, {
        action: 'copyTrade.settings',
        targetType: 'site_setting',
        targetId: 'copyTrade',
        before,
        after: value,
      });
    });
    return copySettings(this.deps.db);
  }

  private async traderView(row: repo.TraderRow): Promise<ConsoleTrader> {
    const money = await this.deps.views.money();
    const totals = await repo.traderTotals(this.deps.db, row.user_id);
    const stats = row.stats as TraderStats | null;
    return {
      ...this.deps.views.profileView(row, money),
      userAccount: row.user_account,
      nickName: row.nick_name,
      followersTotal: row.followers_total,
      followersPnl: toScale(totals.followers_pnl, money.scale),
      assetsUnderCopy: toScale(totals.assets, money.scale),
      sharePaid: toScale(totals.share_paid, money.scale),
      windows: stats?.windows
        ? (['7', '30', '90', 'all'] as const).map((period) => ({
            ...stats.windows[period],
            pnl: toScale(stats.windows[period].pnl, money.scale),
          }))
        : [],
      statsAt: row.stats_at?.toISOString() ?? null,
    };
  }

  async traders(query: PageQuery & { status?: number; userAccount?: string }) {
    const userId = await this.userOf(query.userAccount);
    const page = await repo.pageConsoleTraders(
      this.deps.db,
      { status: query.status, userId },
      query,
    );
    const rows: ConsoleTrader[] = [];
    for (const row of page.rows) rows.push(await this.traderView(row));
    return { rows, total: page.total };
  }

  private async trader(traderId: number): Promise<ConsoleTrader> {
    const row = await repo.findTrader(this.deps.db, traderId);
    if (!row) throw new AppError('hint_copyTraderNotFound', 404);
    return this.traderView(row);
  }

  async setFollowersCap(
    traderId: number,
    cap: number | null,
    audit: AuditWriter,
  ): Promise<ConsoleTrader> {
    await this.deps.db.transaction(async (tx) => {
      const row = await repo.findTrader(tx, traderId);
      if (!row) throw new AppError('hint_copyTraderNotFound', 404);
      await repo.lockTrader(tx, traderId);
      await repo.setFollowersCap(tx, traderId, cap, this.deps.clock.now());
      await audit(tx, {
        action: 'copyTrade.cap',
        targetType: 'copy_trader',
        targetId: String(traderId),
        before: { maxFollowersCap: row.max_followers_cap },
        after: { maxFollowersCap: cap },
      });
    });
    return this.trader(traderId);
  }

  /** Suspends (no new follows or copies; closes still mirrored) or resumes a trader. */
  async setStatus(
    traderId: number,
    suspend: boolean,
    reason: string,
    audit: AuditWriter,
  ): Promise<ConsoleTrader> {
    const now = this.deps.clock.now();
    const events: NoticeEvent[] = [];
    await this.deps.db.transaction(async (tx) => {
      const locked = await repo.lockTrader(tx, traderId);
      if (!locked) throw new AppError('hint_copyTraderNotFound', 404);
      if (suspend && locked.status === TRADER_STATUS.suspended)
        throw new AppError('hint_copyTraderSuspended', 409);
      if (!suspend && locked.status === TRADER_STATUS.active)
        throw new AppError('hint_copyTraderActive', 409);
      const row = (await repo.findTrader(tx, traderId))!;
      await repo.setTraderStatus(
        tx,
        traderId,
        suspend ? TRADER_STATUS.suspended : TRADER_STATUS.active,
        suspend ? reason : null,
        now,
      );
      if (suspend) await repo.skipPendingOpens(tx, { traderId }, 'hint_copyTraderSuspended', now);
      await audit(tx, {
        action: suspend ? 'copyTrade.suspend' : 'copyTrade.resume',
        targetType: 'copy_trader',
        targetId: String(traderId),
        before: { status: locked.status },
        after: { status: suspend ? TRADER_STATUS.suspended : TRADER_STATUS.active, reason },
      });
      const followers = await repo.activeFollowerIds(tx, traderId, TELL_MAX);
      const tell = (userId: number) =>
        notices.traderStatus({
          userId,
          traderId,
          traderName: row.nick_name,
          suspended: suspend,
          reason,
          at: now.getTime(),
        });
      events.push(tell(traderId), ...followers.map((follower) => tell(follower.follower_id)));
      await this.deps.notices?.record(tx, events);
    });
    this.deps.notices?.push(events);
    return this.trader(traderId);
  }

  async relations(
    query: PageQuery & { traderId?: number; userAccount?: string; status?: number },
  ): Promise<{ rows: ConsoleRelation[]; total: number }> {
    const followerId = await this.userOf(query.userAccount);
    const money = await this.deps.views.money();
    const page = await repo.pageRelations(
      this.deps.db,
      { followerId, traderId: query.traderId, status: query.status },
      query,
    );
    return mapRows(page, (row) => ({
      ...this.deps.views.relationView(row, money, 'en'),
      followerId: row.follower_id,
      followerAccount: row.follower_account,
    }));
  }

  async report(
    query: PageQuery & { book: 'live' | 'demo' },
  ): Promise<{ rows: CopyReportRow[]; total: number }> {
    const money = await this.deps.views.money();
    const page = await repo.pageReport(this.deps.db, query.book, query);
    return mapRows(page, (row) => ({
      day: row.day,
      book: query.book,
      currency: money.name,
      settlements: row.settlements,
      share: toScale(row.share, money.scale),
      paid: toScale(row.paid, money.scale),
      owed: toScale(row.owed, money.scale),
      relations: row.relations,
    }));
  }
}
