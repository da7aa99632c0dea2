/**
 * The console's welfare and rewards: campaigns (texts in the app's languages, window, budget,
 * tasks), ending one early, deposit reward tiers and every user's reward history. Every change is
 * audited in its transaction.
 *
 * Terms only change with notice (PRODUCT 1.9): once a campaign has started, its tasks (kind,
 * threshold, reward), window, currency and stated condition are fixed; its texts may be corrected
 * and its budget may grow, never shrink. An operator can end it early with a reason. A tier is
 * never changed in place: a change retires its version and adds a new one, so deposits submitted
 * before are paid by the tier they saw.
 */
import {
  LANGUAGE_KEYS,
  gt,
  lt,
  normalize,
  toScale,
  type CampaignSaveBody,
  type ConsoleCampaign,
  type ConsoleRewardRecord,
  type ConsoleTier,
  type TierSaveBody,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AuditWriter } from '../wallet';
import type { Currency, SettingsService } from '../settings';
import * as repo from './repo';
import { awardOf, campaignStatus, stopsAt } from './service';

export interface ConsoleOperator {
  operatorId: number;
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

const sameTexts = (a: Record<string, string> | null, b: Record<string, string> | null) =>
  JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

export class RewardsConsole {
  constructor(private readonly deps: { db: Database; clock: Clock; settings: SettingsService }) {}

  private async campaignViews(
    q: Queryable,
    rows: repo.CampaignRow[],
    currencies: Map<number, Currency>,
  ): Promise<ConsoleCampaign[]> {
    const ids = rows.map((row) => row.id);
    const [tasks, paid] = await Promise.all([repo.taskStatsOf(q, ids), repo.paidTotals(q, ids)]);
    const now = this.deps.clock.now();
    return rows.map((row) => {
      const currency = currencies.get(row.currency_id);
      const scale = currency?.scale ?? 8;
      return {
        id: row.id,
        title: row.title,
        description: row.description,
        withdrawCondition: row.withdraw_condition,
        startTime: row.starts_at.toISOString(),
        endTime: row.ends_at.toISOString(),
        currencyId: row.currency_id,
        currency: currency?.currencyName ?? '',
        budget: toScale(row.budget, scale),
        spent: toScale(paid.get(row.id) ?? '0', scale),
        status: campaignStatus(row, now),
        started: row.starts_at.getTime() <= now.getTime(),
        endedTime: row.ended_at ? row.ended_at.toISOString() : null,
        endReason: row.end_reason,
        tasks: tasks
          .filter((task) => task.campaign_id === row.id)
          .map((task) => ({
            id: task.id,
            kind: task.kind as ConsoleCampaign['tasks'][number]['kind'],
            threshold: toScale(task.threshold, scale),
            reward: toScale(task.reward, scale),
            completions: task.completions,
            paidCount: task.paid_count,
          })),
        createTime: row.created_at.toISOString(),
      };
    });
  }

  async campaigns(query: { pageNum: number; pageSize: number; status?: string }) {
    const currencies = await this.deps.settings.currencyMap();
    const page = await repo.pageCampaigns(
      this.deps.db,
      { status: query.status, now: this.deps.clock.now() },
      query,
    );
    return {
      rows: await this.campaignViews(this.deps.db, page.rows, currencies),
      total: page.total,
    };
  }

  /**
   * Creates or changes a campaign with its tasks, in one transaction with its audit entry. A start
   * in the past starts it now.
   */
  async saveCampaign(
    body: CampaignSaveBody,
    operator: ConsoleOperator,
    audit: AuditWriter,
  ): Promise<ConsoleCampaign> {
    const now = this.deps.clock.now();
    const currencies = await this.deps.settings.currencyMap();
    const currency = currencies.get(body.currencyId);
    if (!currency) throw new AppError('hint_currencyUnknown', 422, ['currencyId']);
    const title = languagesOf(body.title);
    const description = languagesOf(body.description);
    const condition = languagesOf(body.withdrawCondition);
    const requestedStart = new Date(body.startTime!);
    const endsAt = new Date(body.endTime!);
    const tasks = body.tasks.map((task) => ({
      kind: task.kind,
      threshold: normalize(task.threshold),
      reward: normalize(task.reward),
    }));
    return this.deps.db.transaction(async (tx) => {
      const before = body.id === undefined ? undefined : await repo.findCampaign(tx, body.id, true);
      if (body.id !== undefined && !before) throw new AppError('hint_notFound', 404, ['id']);
      const beforeView = before ? (await this.campaignViews(tx, [before], currencies))[0]! : null;
      if (before && campaignStatus(before, now) === 'ended')
        throw new AppError('hint_campaignEnded', 422, ['id']);
      const started = before !== undefined && before.starts_at.getTime() <= now.getTime();
      let values: repo.CampaignValues;
      if (before && started) {
        const oldTasks = await repo.tasksOf(tx, [before.id]);
        const sameTasks =
          oldTasks.length === tasks.length &&
          oldTasks.every(
            (task, index) =>
              task.kind === tasks[index]!.kind &&
              normalize(task.threshold) === tasks[index]!.threshold &&
              normalize(task.reward) === tasks[index]!.reward,
          );
        if (
          !sameTasks ||
          requestedStart.getTime() !== before.starts_at.getTime() ||
          endsAt.getTime() !== before.ends_at.getTime() ||
          body.currencyId !== before.currency_id ||
          !sameTexts(before.withdraw_condition, Object.keys(condition).length ? condition : null)
        )
          throw new AppError('hint_campaignStarted', 422, ['tasks']);
        if (lt(body.budget, before.budget))
          throw new AppError('hint_campaignBudgetReduced', 422, ['budget']);
        values = {
          title,
          description,
          withdrawCondition: before.withdraw_condition,
          startsAt: before.starts_at,
          endsAt: before.ends_at,
          currencyId: before.currency_id,
          budget: body.budget,
        };
      } else {
        const startsAt = requestedStart.getTime() < now.getTime() ? now : requestedStart;
        if (endsAt.getTime() <= startsAt.getTime())
          throw new AppError('hint_campaignEndBeforeStart', 400, ['endTime']);
        values = {
          title,
          description,
          withdrawCondition: Object.keys(condition).length ? condition : null,
          startsAt,
          endsAt,
          currencyId: body.currencyId,
          budget: body.budget,
        };
      }
      let id: number;
      if (before) {
        id = before.id;
        await repo.updateCampaign(tx, id, values, now);
        if (!started) await repo.replaceTasks(tx, id, tasks);
      } else {
        id = await repo.insertCampaign(tx, values, operator.operatorId, now);
        await repo.replaceTasks(tx, id, tasks);
      }
      const after = (
        await this.campaignViews(tx, [(await repo.findCampaign(tx, id))!], currencies)
      )[0]!;
      await audit(tx, {
        action: before ? 'rewardCampaign.update' : 'rewardCampaign.create',
        targetType: 'reward_campaign',
        targetId: String(id),
        before: beforeView,
        after,
      });
      return after;
    });
  }

  /** Ends a campaign now with a reason. `changed` false when it had ended already. */
  async endCampaign(id: number, reason: string, audit: AuditWriter) {
    const now = this.deps.clock.now();
    const currencies = await this.deps.settings.currencyMap();
    return this.deps.db.transaction(async (tx) => {
      const before = await repo.findCampaign(tx, id, true);
      if (!before) throw new AppError('hint_notFound', 404, ['id']);
      const changed =
        stopsAt(before).getTime() > now.getTime()
          ? await repo.endCampaign(tx, id, reason, now)
          : false;
      const [beforeView, after] = await this.campaignViews(
        tx,
        [before, (await repo.findCampaign(tx, id))!],
        currencies,
      );
      if (changed)
        await audit(tx, {
          action: 'rewardCampaign.end',
          targetType: 'reward_campaign',
          targetId: String(id),
          before: beforeView,
          after,
        });
      return { changed, campaign: after! };
    });
  }

  // ------------------------------------------------------------ tiers

  private tierView(row: repo.TierStatsRow, currencies: Map<number, Currency>): ConsoleTier {
    const currency = currencies.get(row.currency_id);
    const scale = currency?.scale ?? 8;
    return {
      id: row.id,
      lineageId: row.lineage_id,
      currencyId: row.currency_id,
      currency: currency?.currencyName ?? '',
      minAmount: toScale(row.min_amount, scale),
      maxAmount: row.max_amount === null ? null : toScale(row.max_amount, scale),
      rate: normalize(row.rate),
      createTime: row.created_at.toISOString(),
      retiredTime: row.retired_at ? row.retired_at.toISOString() : null,
      payoutCount: row.payout_count,
      paidTotal: toScale(row.paid_total, scale),
    };
  }

  async tiers(withRetired: boolean): Promise<ConsoleTier[]> {
    const currencies = await this.deps.settings.currencyMap();
    const rows = await repo.listTiersForConsole(this.deps.db, withRetired);
    return rows.map((row) => this.tierView(row, currencies));
  }

  /** Adds a tier, or replaces one: the old version retired and a new one of its lineage added. */
  async saveTier(
    body: TierSaveBody,
    operator: ConsoleOperator,
    audit: AuditWriter,
  ): Promise<ConsoleTier> {
    const now = this.deps.clock.now();
    const currencies = await this.deps.settings.currencyMap();
    if (!currencies.has(body.currencyId))
      throw new AppError('hint_currencyUnknown', 422, ['currencyId']);
    const max = body.maxAmount ?? null;
    if (max !== null && !gt(max, body.minAmount))
      throw new AppError('hint_tierRangeInvalid', 400, ['maxAmount']);
    return this.deps.db.transaction(async (tx) => {
      const before = body.id === undefined ? undefined : await repo.findTier(tx, body.id, true);
      if (body.id !== undefined && (!before || before.retired_at))
        throw new AppError('hint_notFound', 404, ['id']);
      const overlap = await repo.overlappingTier(tx, {
        currencyId: body.currencyId,
        min: body.minAmount,
        max,
        except: before?.id ?? null,
      });
      if (overlap !== undefined) throw new AppError('hint_tierOverlap', 422, ['minAmount']);
      if (before) await repo.retireTier(tx, before.id, now);
      const id = await repo.insertTier(
        tx,
        {
          lineageId: before?.lineage_id ?? null,
          currencyId: body.currencyId,
          min: body.minAmount,
          max,
          rate: body.rate,
        },
        operator.operatorId,
        now,
      );
      const after = this.tierView((await repo.findTier(tx, id))!, currencies);
      await audit(tx, {
        action: before ? 'rewardTier.replace' : 'rewardTier.create',
        targetType: 'reward_tier',
        targetId: String(id),
        before: before ? this.tierView(before, currencies) : null,
        after,
      });
      return after;
    });
  }

  async retireTier(id: number, audit: AuditWriter) {
    const now = this.deps.clock.now();
    const currencies = await this.deps.settings.currencyMap();
    return this.deps.db.transaction(async (tx) => {
      const before = await repo.findTier(tx, id, true);
      if (!before) throw new AppError('hint_notFound', 404, ['id']);
      const changed = await repo.retireTier(tx, id, now);
      const after = this.tierView((await repo.findTier(tx, id))!, currencies);
      if (changed)
        await audit(tx, {
          action: 'rewardTier.retire',
          targetType: 'reward_tier',
          targetId: String(id),
          before: this.tierView(before, currencies),
          after,
        });
      return { changed, tier: after };
    });
  }

  // ------------------------------------------------------------ records

  async records(query: {
    pageNum: number;
    pageSize: number;
    userAccount?: string;
    campaignId?: number;
    source?: number;
  }): Promise<{ rows: ConsoleRewardRecord[]; total: number }> {
    let userId: number | undefined;
    if (query.userAccount) {
      userId = await repo.findUserId(this.deps.db, query.userAccount.trim());
      if (userId === undefined) throw new AppError('hint_userNotFound', 422, ['userAccount']);
    }
    const currencies = await this.deps.settings.currencyMap();
    const page = await repo.pageAwards(
      this.deps.db,
      { userId, campaignId: query.campaignId, source: query.source },
      query,
    );
    return {
      rows: page.rows.map((row) => ({
        ...awardOf(row, currencies, 'en'),
        userId: row.user_id,
        userAccount: row.user_account,
      })),
      total: page.total,
    };
  }
}
