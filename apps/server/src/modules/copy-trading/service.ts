/**
 * Copy trading for users (issue 25): lead traders and their computed statistics, following,
 * changing and ending a relation, the follower's copies and settlements, applying to lead, the
 * trader's profile and dashboard.
 *
 * Following, changing and unfollowing run under the user's lock, once per (user, request id)
 * (copy_request): a retry answers the relation as it is; the same id for another request is
 * refused. A follow locks the trader's row, so the follower limit holds under concurrent follows.
 *
 * Unfollowing ends the relation first (no new copies: its pending opens are skipped), then, with
 * "close now", closes each open copy at market through the contracts service at its own tick
 * (request id copy_<relation>_<leader position>_unfollow), then settles the profit share (reason
 * 2). A retry after a crash between the steps finishes them (each is idempotent).
 */
import {
  CLOSE_MODE,
  CONTRACT_STATUS,
  COPY_LIMITS,
  COPY_MODE,
  COPY_PERIOD_DAYS,
  LANGUAGE_KEYS,
  RELATION_STATUS,
  SETTLEMENT_REASON,
  TRADER_STATUS,
  div,
  followSettingsProblem,
  gt,
  sub,
  normalize,
  toScale,
  type ContractPosition,
  type CopyPeriod,
  type CopyRelation,
  type CopyRow,
  type CopySettlement,
  type FollowBody,
  type LanguageKey,
  type LeadDashboard,
  type LeadProfile,
  type LeadProfileBody,
  type LeadStatus,
  type PageQuery,
  type RelationEditBody,
  type TraderDetail,
  type TraderPosition,
  type TraderStats,
  type TraderSummary,
  type TraderWindowStats,
  type UnfollowBody,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import { mapRows } from '../../db/page';
import { withUserLock } from '../../db/user-lock';
import type { Actor } from '../../http/actor';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import type { MarketEngine } from '../../market/engine';
import type { SettingsService } from '../settings';
import type { Contracts } from '../trading';
import { maskAccount } from '../referral';
import { fingerprint } from '../wallet';
import * as repo from './repo';
import { settle, type SettlementDeps } from './settlement';
import { copySettings } from './settings';

export interface CopyTradingDeps extends SettlementDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  contracts?: Contracts;
  market?: MarketEngine;
  /** Throws hint_identityRequired when the user lacks the level of a feature. */
  identityRequired?: (userId: number, feature: 'copyLeader') => Promise<void>;
}

/** Rows the trader's dashboard lists at most. */
const DASHBOARD_ROWS = 1000;
const SPARK_POINTS = 30;

interface Money {
  name: string;
  scale: number;
}

/** Statistics of a window without a trade. */
function emptyWindow(period: CopyPeriod): TraderWindowStats {
  return {
    period,
    roi: '0',
    pnl: '0',
    winRate: '0',
    trades: 0,
    avgHoldSeconds: 0,
    maxDrawdown: '0',
  };
}

function statsOf(row: { stats: unknown }): TraderStats | null {
  const stats = row.stats as TraderStats | null;
  return stats && typeof stats === 'object' && 'windows' in stats ? stats : null;
}

/** Keeps only the languages the app has, with texts. */
function languagesOf(texts: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const lang of LANGUAGE_KEYS) {
    const value = texts?.[lang];
    if (typeof value === 'string' && value.trim()) kept[lang] = value;
  }
  return kept;
}

export class CopyTrading {
  constructor(private readonly deps: CopyTradingDeps) {}

  async money(currencyId?: number): Promise<Money & { id: number }> {
    const id = currencyId ?? (await this.deps.settings.otherValue()).default_trade_currency_id;
    const currency = await this.deps.settings.currency(id);
    if (!currency) throw new AppError('hint_currencyUnknown', 422);
    return { id, name: currency.currencyName, scale: currency.scale };
  }

  // ------------------------------------------------------------ traders

  private summary(
    row: repo.TraderRow,
    money: Money,
    period: CopyPeriod,
    lang: LanguageKey,
    myRelationId: number | null,
  ): TraderSummary {
    const stats = statsOf(row);
    const window = stats?.windows[period] ?? emptyWindow(period);
    const days = COPY_PERIOD_DAYS[period];
    const from =
      days === null || !row.stats_at ? -Infinity : row.stats_at.getTime() - days * 86_400_000;
    const points = (stats?.curve ?? []).filter((point) => Date.parse(point.time) > from);
    const spark =
      points.length <= SPARK_POINTS
        ? points
        : Array.from(
            { length: SPARK_POINTS },
            (_, i) => points[Math.round((i * (points.length - 1)) / (SPARK_POINTS - 1))]!,
          );
    const cap = row.max_followers_cap;
    return {
      traderId: row.user_id,
      nickName: row.nick_name,
      avatar: row.avatar ?? '',
      title: pickLanguage(row.title, lang),
      status: row.status,
      currency: money.name,
      profitShareRate: normalize(row.profit_share_rate),
      minCopyAmount: toScale(row.min_copy_amount, money.scale),
      maxCopyAmount:
        row.max_copy_amount === null ? null : toScale(row.max_copy_amount, money.scale),
      maxFollowers: cap === null ? row.max_followers : Math.min(cap, row.max_followers),
      followers: row.followers,
      followersTotal: row.followers_total,
      stats: { ...window, pnl: toScale(window.pnl, money.scale) },
      spark: spark.map((point) => point.index),
      statsAt: row.stats_at?.toISOString() ?? null,
      myRelationId,
    };
  }

  private async myRelations(actor: Actor | undefined, traderIds: number[]) {
    if (!actor || traderIds.length === 0) return new Map<number, number>();
    const rows = await repo.myRelations(this.deps.db, actor.userId, actor.book, traderIds);
    return new Map(rows.map((row) => [row.trader_id, row.id]));
  }

  async traders(
    actor: Actor | undefined,
    query: PageQuery & { sort: string; period: CopyPeriod },
    lang: LanguageKey,
  ): Promise<{ rows: TraderSummary[]; total: number }> {
    const money = await this.money();
    const page = await repo.pageTraders(
      this.deps.db,
      { sort: query.sort, period: query.period, viewerId: actor?.userId ?? null },
      query,
    );
    const mine = await this.myRelations(
      actor,
      page.rows.map((row) => row.user_id),
    );
    return mapRows(page, (row) =>
      this.summary(row, money, query.period, lang, mine.get(row.user_id) ?? null),
    );
  }

  /** A trader's row visible to the caller: active, or suspended and followed by the caller. */
  private async visibleTrader(actor: Actor | undefined, traderId: number) {
    const row = await repo.findTrader(this.deps.db, traderId);
    if (!row) throw new AppError('hint_copyTraderNotFound', 404);
    if (row.status !== TRADER_STATUS.active && row.user_id !== actor?.userId) {
      const mine = await this.myRelations(actor, [traderId]);
      if (!mine.has(traderId)) throw new AppError('hint_copyTraderNotFound', 404);
    }
    return row;
  }

  async trader(
    actor: Actor | undefined,
    traderId: number,
    lang: LanguageKey,
  ): Promise<TraderDetail> {
    const row = await this.visibleTrader(actor, traderId);
    const money = await this.money();
    const mine = await this.myRelations(actor, [traderId]);
    const totals = await repo.traderTotals(this.deps.db, traderId);
    const settings = await copySettings(this.deps.db);
    const stats = statsOf(row);
    return {
      ...this.summary(row, money, '30', lang, mine.get(traderId) ?? null),
      description: pickLanguage(row.description, lang),
      windows: (['7', '30', '90', 'all'] as const).map((period) => {
        const window = stats?.windows[period] ?? emptyWindow(period);
        return { ...window, pnl: toScale(window.pnl, money.scale) };
      }),
      curve: stats?.curve ?? [],
      followersPnl: toScale(totals.followers_pnl, money.scale),
      assetsUnderCopy: toScale(totals.assets, money.scale),
      positionDelayMinutes: settings.positionDelayMinutes,
      approvedAt: row.approved_at.toISOString(),
    };
  }

  async traderPositions(
    actor: Actor | undefined,
    query: PageQuery & { traderId: number; status: 'open' | 'closed' },
    lang: LanguageKey,
  ): Promise<{ rows: TraderPosition[]; total: number }> {
    await this.visibleTrader(actor, query.traderId);
    const money = await this.money();
    const settings = await copySettings(this.deps.db);
    const before = new Date(
      this.deps.clock.now().getTime() - settings.positionDelayMinutes * 60_000,
    );
    const page = await repo.pageTraderPositions(
      this.deps.db,
      query.traderId,
      query.status,
      before,
      query,
    );
    return mapRows(page, (raw) => {
      const row = raw as unknown as repo.PositionRow;
      const product = this.deps.market?.productById(row.product_id);
      const price = (value: string | null) =>
        value === null ? null : product ? toScale(value, product.price_scale) : normalize(value);
      const closed = row.status === CONTRACT_STATUS.closed;
      const pnl = closed ? netOf(row.realized_pnl, row.close_fee, row.open_fee) : null;
      return {
        id: row.id,
        productType: product?.product_type ?? 0,
        productCode: product?.product_code ?? '',
        productName: product ? pickLanguage(product.product_name_lang, lang) : '',
        orderDirection: row.direction,
        leverage: row.leverage,
        quantity: normalize(row.quantity),
        margin: toScale(row.margin, money.scale),
        entryPrice: price(row.entry_price),
        exitPrice: price(row.exit_price),
        takeProfit: price(row.take_profit),
        stopLoss: price(row.stop_loss),
        pnl: pnl === null ? null : toScale(pnl, money.scale),
        pnlRate: pnl === null ? null : rateOf(pnl, row.margin),
        status: row.status,
        closeReason: row.close_reason,
        currencyName: money.name,
        openTime: row.opened_at?.toISOString() ?? null,
        closeTime: row.closed_at?.toISOString() ?? null,
      };
    });
  }

  // ------------------------------------------------------------ relations

  relationView(row: repo.RelationView, money: Money, lang: LanguageKey): CopyRelation {
    const at = (value: string) => toScale(value, money.scale);
    return {
      id: row.id,
      traderId: row.trader_id,
      traderName: row.trader_name,
      traderAvatar: row.trader_avatar ?? '',
      traderTitle: pickLanguage(row.trader_title, lang),
      traderStatus: row.trader_status,
      book: row.book,
      currency: money.name,
      scale: money.scale,
      mode: row.mode,
      amount: row.amount === null ? null : at(row.amount),
      ratio: row.ratio === null ? null : normalize(row.ratio),
      maxOpen: row.max_open,
      tpRate: row.tp_rate === null ? null : normalize(row.tp_rate),
      slRate: row.sl_rate === null ? null : normalize(row.sl_rate),
      budget: at(row.budget),
      marginInUse: at(row.margin_in_use),
      openCopies: row.open_copies,
      profitShareRate: normalize(row.profit_share_rate),
      cumPnl: at(row.realized),
      hwm: at(row.hwm),
      owed: at(row.owed),
      sharePaid: at(row.paid),
      status: row.status,
      endMode: row.end_mode,
      createTime: row.created_at.toISOString(),
      endTime: row.ended_at?.toISOString() ?? null,
    };
  }

  async relation(id: number, lang: LanguageKey): Promise<CopyRelation> {
    const row = await repo.findRelationView(this.deps.db, id);
    if (!row) throw new AppError('hint_copyRelationNotFound', 404);
    return this.relationView(row, await this.money(row.currency_id), lang);
  }

  async relations(
    actor: Actor,
    query: PageQuery & { status?: number },
    lang: LanguageKey,
  ): Promise<{ rows: CopyRelation[]; total: number }> {
    const money = await this.money();
    const page = await repo.pageRelations(
      this.deps.db,
      { followerId: actor.userId, status: query.status, book: actor.book },
      query,
    );
    return mapRows(page, (row) => this.relationView(row, money, lang));
  }

  private settingsOf(body: FollowBody | RelationEditBody): repo.RelationSettings {
    return {
      mode: body.mode,
      amount: body.mode === COPY_MODE.fixed ? normalize(body.amount!) : null,
      ratio: body.mode === COPY_MODE.ratio ? normalize(body.ratio!) : null,
      maxOpen: body.maxOpen,
      tpRate: body.tpRate === undefined ? null : normalize(body.tpRate),
      slRate: body.slRate === undefined ? null : normalize(body.slRate),
      budget: normalize(body.budget),
    };
  }

  private checkSettings(settings: repo.RelationSettings, trader: repo.TraderRow): void {
    const problem = followSettingsProblem({
      mode: settings.mode as 1 | 2,
      amount: settings.amount,
      budget: settings.budget,
      minCopyAmount: trader.min_copy_amount,
      maxCopyAmount: trader.max_copy_amount,
    });
    if (problem) throw new AppError(problem, 422);
  }

  async follow(actor: Actor, body: FollowBody, lang: LanguageKey): Promise<CopyRelation> {
    const money = await this.money();
    const settings = this.settingsOf(body);
    const hash = fingerprint({ ...settings, traderId: body.traderId, book: actor.book });
    const now = this.deps.clock.now();
    const id = await this.deps.db.transaction(async (tx) => {
      await withUserLock(tx, actor.userId);
      const prior = await repo.requestOf(tx, actor.userId, body.requestId);
      if (prior) {
        if (prior.action !== 'follow' || prior.request_hash !== hash)
          throw new AppError('hint_requestIdReused', 409);
        return prior.relation_id;
      }
      if (body.traderId === actor.userId) throw new AppError('hint_copySelf', 422);
      const locked = await repo.lockTrader(tx, body.traderId);
      if (!locked) throw new AppError('hint_copyTraderNotFound', 404);
      if (locked.status !== TRADER_STATUS.active)
        throw new AppError('hint_copyTraderSuspended', 422);
      if (await repo.activeRelation(tx, actor.userId, body.traderId, actor.book))
        throw new AppError('hint_copyAlreadyFollowing', 409);
      const trader = (await repo.findTrader(tx, body.traderId))!;
      const most =
        trader.max_followers_cap === null
          ? trader.max_followers
          : Math.min(trader.max_followers, trader.max_followers_cap);
      if (trader.followers >= most) throw new AppError('hint_copyFollowersFull', 422);
      this.checkSettings(settings, trader);
      const { id: relationId } = await repo.insertRelation(
        tx,
        {
          followerId: actor.userId,
          traderId: body.traderId,
          book: actor.book,
          currencyId: money.id,
          profitShareRate: normalize(trader.profit_share_rate),
          settings,
        },
        now,
      );
      await repo.insertRequest(
        tx,
        { userId: actor.userId, requestId: body.requestId, hash, action: 'follow', relationId },
        now,
      );
      return relationId;
    });
    return this.relation(id, lang);
  }

  /** The caller's relation in the session's book, locked. */
  private async ownRelation(tx: Parameters<typeof repo.lockRelation>[0], actor: Actor, id: number) {
    const relation = await repo.lockRelation(tx, id);
    if (!relation || relation.follower_id !== actor.userId || relation.book !== actor.book)
      throw new AppError('hint_copyRelationNotFound', 404);
    return relation;
  }

  async edit(actor: Actor, body: RelationEditBody, lang: LanguageKey): Promise<CopyRelation> {
    const settings = this.settingsOf(body);
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      await withUserLock(tx, actor.userId);
      const relation = await this.ownRelation(tx, actor, body.relationId);
      if (relation.status !== RELATION_STATUS.active)
        throw new AppError('hint_copyRelationEnded', 409);
      const trader = (await repo.findTrader(tx, relation.trader_id))!;
      this.checkSettings(settings, trader);
      await repo.updateRelationSettings(tx, relation.id, settings, now);
    });
    return this.relation(body.relationId, lang);
  }

  async unfollow(actor: Actor, body: UnfollowBody, lang: LanguageKey): Promise<CopyRelation> {
    const hash = fingerprint({ relationId: body.relationId, closeMode: body.closeMode });
    const now = this.deps.clock.now();
    if (body.closeMode === CLOSE_MODE.closeNow) await this.checkMarketsOpen(body.relationId);
    const relationId = await this.deps.db.transaction(async (tx) => {
      await withUserLock(tx, actor.userId);
      const prior = await repo.requestOf(tx, actor.userId, body.requestId);
      if (prior) {
        if (prior.action !== 'unfollow' || prior.request_hash !== hash)
          throw new AppError('hint_requestIdReused', 409);
        return prior.relation_id;
      }
      const relation = await this.ownRelation(tx, actor, body.relationId);
      if (relation.status !== RELATION_STATUS.active)
        throw new AppError('hint_copyRelationEnded', 409);
      await repo.endRelation(tx, relation.id, body.closeMode, now);
      await repo.skipPendingOpens(tx, { relationId: relation.id }, 'hint_copyRelationEnded', now);
      await repo.insertRequest(
        tx,
        {
          userId: actor.userId,
          requestId: body.requestId,
          hash,
          action: 'unfollow',
          relationId: relation.id,
        },
        now,
      );
      return relation.id;
    });
    await this.finishUnfollow(relationId);
    return this.relation(relationId, lang);
  }

  /** Refuses "close now" while a copy's market is closed (its close would wait). */
  private async checkMarketsOpen(relationId: number): Promise<void> {
    const market = this.deps.market;
    if (!market) return;
    const copies = await repo.openCopies(this.deps.db, relationId);
    if (copies.length === 0) return;
    const positions = await repo.positionsByIds(
      this.deps.db,
      copies.map((copy) => copy.position_id),
    );
    const now = this.deps.clock.now().getTime();
    for (const position of positions) {
      const product = market.productById(position.product_id);
      if (product && !market.isOpen(product, now)) throw new AppError('hint_marketClosed', 422);
    }
  }

  /** After a relation ended: its copies closed (close now), then the settlement (reason 2). */
  private async finishUnfollow(relationId: number): Promise<void> {
    const relation = (await repo.findRelationView(this.deps.db, relationId))!;
    if (relation.end_mode === CLOSE_MODE.closeNow && this.deps.contracts) {
      const copies = await repo.openCopies(this.deps.db, relationId);
      for (const copy of copies) {
        try {
          await this.deps.contracts.close(
            { userId: relation.follower_id, book: relation.book },
            {
              id: copy.position_id,
              requestId: `copy_${relationId}_${copy.leader_position_id}_unfollow`,
            },
          );
        } catch (error) {
          // Closed meanwhile (its own TP/SL, liquidation): nothing left to close.
          if (!(error instanceof AppError) || error.key !== 'hint_positionNotOpen') throw error;
        }
      }
    }
    const ended = relation.ended_at ?? this.deps.clock.now();
    await settle(
      this.deps,
      relationId,
      SETTLEMENT_REASON.unfollow,
      ended.toISOString().slice(0, 10),
      this.deps.clock.now(),
    );
  }

  // ------------------------------------------------------------ copies and settlements

  async copies(
    actor: Actor,
    query: PageQuery & { relationId?: number },
    lang: LanguageKey,
  ): Promise<{ rows: CopyRow[]; total: number }> {
    const page = await repo.pageCopies(
      this.deps.db,
      { followerId: actor.userId, relationId: query.relationId, book: actor.book },
      query,
    );
    const money = await this.money();
    const rows: CopyRow[] = [];
    for (const row of page.rows) {
      let position: ContractPosition | null = null;
      if (row.follower_position_id !== null && this.deps.contracts)
        position = await this.deps.contracts.detail(actor, row.follower_position_id, lang);
      const leader = row.leader;
      const product = this.deps.market?.productById(leader.product_id);
      const price = (value: string | null) =>
        value === null ? null : product ? toScale(value, product.price_scale) : normalize(value);
      rows.push({
        id: row.id,
        relationId: row.relation_id,
        traderId: row.trader_id,
        traderName: row.trader_name,
        book: row.book,
        status: row.status,
        reason: row.reason,
        leader: {
          id: leader.id,
          productCode: product?.product_code ?? '',
          productName: product ? pickLanguage(product.product_name_lang, lang) : '',
          orderDirection: leader.direction,
          leverage: leader.leverage,
          margin: toScale(leader.margin, money.scale),
          entryPrice: price(leader.entry_price),
          exitPrice: price(leader.exit_price),
          status: leader.status,
          openTime: leader.opened_at ? new Date(leader.opened_at).toISOString() : null,
          closeTime: leader.closed_at ? new Date(leader.closed_at).toISOString() : null,
        },
        position,
        createTime: row.created_at.toISOString(),
        doneTime: (row as { done_at?: Date | null }).done_at?.toISOString() ?? null,
      });
    }
    return { rows, total: page.total };
  }

  private settlementView(row: repo.SettlementRow, money: Money): CopySettlement {
    const at = (value: string) => toScale(value, money.scale);
    return {
      id: row.id,
      relationId: row.relation_id,
      traderId: row.trader_id,
      traderName: row.trader_name ?? '',
      followerName: maskAccount(row.follower_account ?? ''),
      book: row.book,
      currency: money.name,
      reason: row.reason,
      day: row.day,
      cumPnl: at(row.cum_pnl),
      hwmBefore: at(row.hwm_before),
      hwmAfter: at(row.hwm_after),
      rate: normalize(row.rate),
      share: at(row.share),
      owedBefore: at(row.owed_before),
      paid: at(row.paid),
      owedAfter: at(row.owed_after),
      entryId: row.entry_id,
      createTime: row.created_at.toISOString(),
    };
  }

  async settlements(
    actor: Actor,
    query: PageQuery & { relationId?: number },
  ): Promise<{ rows: CopySettlement[]; total: number }> {
    const money = await this.money();
    const page = await repo.pageSettlements(
      this.deps.db,
      { followerId: actor.userId, relationId: query.relationId },
      query,
    );
    return mapRows(page, (row) => this.settlementView(row, money));
  }

  // ------------------------------------------------------------ leading

  profileView(row: repo.TraderRow, money: Money): LeadProfile {
    return {
      traderId: row.user_id,
      status: row.status,
      title: row.title,
      description: row.description,
      profitShareRate: normalize(row.profit_share_rate),
      minCopyAmount: toScale(row.min_copy_amount, money.scale),
      maxCopyAmount:
        row.max_copy_amount === null ? null : toScale(row.max_copy_amount, money.scale),
      maxFollowers: row.max_followers,
      maxFollowersCap: row.max_followers_cap,
      followers: row.followers,
      currency: money.name,
      approvedAt: row.approved_at.toISOString(),
      suspendedReason: row.suspended_reason,
    };
  }

  async leadStatus(actor: Actor): Promise<LeadStatus> {
    const db = this.deps.db;
    const [application, trader, closedTrades, settings, money] = await Promise.all([
      repo.latestApplication(db, actor.userId),
      repo.findTrader(db, actor.userId),
      repo.closedTrades(db, actor.userId),
      copySettings(db),
      this.money(),
    ]);
    let identityMet = true;
    try {
      await this.deps.identityRequired?.(actor.userId, 'copyLeader');
    } catch {
      identityMet = false;
    }
    return {
      application: application ? applicationView(application) : null,
      trader: trader ? this.profileView(trader, money) : null,
      closedTrades,
      minClosedTrades: settings.minClosedTrades,
      identityMet,
      maxProfitShareRate: settings.maxProfitShareRate,
    };
  }

  async apply(actor: Actor, body: { requestId: string }): Promise<LeadStatus> {
    const settings = await copySettings(this.deps.db);
    const now = this.deps.clock.now();
    const prior = await repo.applicationByRequest(this.deps.db, actor.userId, body.requestId);
    if (!prior) {
      await this.deps.identityRequired?.(actor.userId, 'copyLeader');
      await this.deps.db.transaction(async (tx) => {
        await withUserLock(tx, actor.userId);
        if (await repo.applicationByRequest(tx, actor.userId, body.requestId)) return;
        if (await repo.findTrader(tx, actor.userId))
          throw new AppError('hint_copyAlreadyLeader', 409);
        const latest = await repo.latestApplication(tx, actor.userId);
        if (latest?.status === 0) throw new AppError('hint_copyApplicationPending', 409);
        const closed = await repo.closedTrades(tx, actor.userId);
        if (closed < settings.minClosedTrades)
          throw new AppError('hint_copyTrackRecordShort', 422, [settings.minClosedTrades]);
        await repo.insertApplication(tx, actor.userId, closed, body.requestId, now);
      });
    }
    return this.leadStatus(actor);
  }

  async saveProfile(actor: Actor, body: LeadProfileBody): Promise<LeadProfile> {
    const settings = await copySettings(this.deps.db);
    const money = await this.money();
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      const locked = await repo.lockTrader(tx, actor.userId);
      if (!locked) throw new AppError('hint_copyNotLeader', 403);
      const trader = (await repo.findTrader(tx, actor.userId))!;
      if (gt(body.profitShareRate, settings.maxProfitShareRate))
        throw new AppError('hint_copyRateAbove', 422, [settings.maxProfitShareRate]);
      if (trader.max_followers_cap !== null && body.maxFollowers > trader.max_followers_cap)
        throw new AppError('hint_copyFollowersAboveCap', 422, [trader.max_followers_cap]);
      await repo.updateProfile(
        tx,
        actor.userId,
        {
          title: languagesOf(body.title as Record<string, string>),
          description: languagesOf(body.description as Record<string, string>),
          profitShareRate: normalize(body.profitShareRate),
          minCopyAmount: normalize(body.minCopyAmount),
          maxCopyAmount: body.maxCopyAmount === undefined ? null : normalize(body.maxCopyAmount),
          maxFollowers: body.maxFollowers,
        },
        now,
      );
    });
    return this.profileView((await repo.findTrader(this.deps.db, actor.userId))!, money);
  }

  async dashboard(actor: Actor): Promise<LeadDashboard> {
    const db = this.deps.db;
    const trader = await repo.findTrader(db, actor.userId);
    if (!trader) throw new AppError('hint_copyNotLeader', 403);
    const money = await this.money();
    const at = (value: string) => toScale(value, money.scale);
    const [relations, days, totals] = await Promise.all([
      repo.traderRelations(db, actor.userId, DASHBOARD_ROWS),
      repo.incomePerDay(db, actor.userId, COPY_LIMITS.incomeDaysMax),
      repo.traderTotals(db, actor.userId),
    ]);
    return {
      currency: money.name,
      followers: relations.map((row) => ({
        relationId: row.id,
        followerName: maskAccount(row.follower_account),
        book: row.book,
        status: row.status,
        budget: at(row.budget),
        openCopies: row.open_copies,
        cumPnl: at(row.realized),
        hwm: at(row.hwm),
        sharePaid: at(row.paid),
        owed: at(row.owed),
        createTime: row.created_at.toISOString(),
        endTime: row.ended_at?.toISOString() ?? null,
      })),
      incomePerDay: days.map((day) => ({
        day: day.day,
        book: day.book,
        share: at(day.share),
        paid: at(day.paid),
        settlements: day.settlements,
      })),
      followersNow: trader.followers,
      incomeTotal: at(totals.share_paid),
      assetsUnderCopy: at(totals.assets),
    };
  }
}

/** P&L after fees: result less close fee less open fee. */
function netOf(result: string | null, closeFee: string | null, openFee: string): string {
  return normalize(sub(sub(result ?? '0', closeFee ?? '0'), openFee));
}

/** pnl / margin, at the statistics' scale. */
function rateOf(pnl: string, margin: string): string {
  return div(pnl, margin, COPY_LIMITS.statsScale, 'down');
}

export function applicationView(row: repo.ApplicationRow) {
  return {
    id: row.id,
    status: row.status,
    closedTrades: row.closed_trades,
    reason: row.reason,
    createTime: row.created_at.toISOString(),
    reviewTime: row.reviewed_at?.toISOString() ?? null,
  };
}
