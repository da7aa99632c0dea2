/**
 * Welfare tasks and deposit reward tiers: what users see and how rewards are paid.
 *
 * Completion is never declared by the user: it is read from the source tables (the identity level,
 * approved deposits, live-book trades, invitees who verified) whenever one of the user's events
 * commits (`heard`, fed by the notifications the events write), when the user reads the task
 * centre, and by a sweep over the users active since the last round (a timer, and from the
 * earliest running campaign's start after a restart), so nothing is missed.
 *
 * A task pays once per user: the completion row is UNIQUE (task, user), written in the payment's
 * transaction under a row lock on the campaign, which also checks and raises the campaign's spend
 * (never over its budget; a completion the budget cannot pay is recorded unpaid). The payment is
 * one ledger entry from the platform's rewards account to the user's live available balance
 * (request id `reward-task:<task>:<user>`), with no wagering requirement or withdrawal lock. Only
 * live activity counts: the demo account earns nothing.
 *
 * A deposit reward tier pays rate × deposit once per user per tier (its lineage), after the
 * deposit's approval, by the tier version in force when the deposit was submitted.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  AWARD_SOURCE,
  gte,
  isPositive,
  mul,
  normalize,
  sub,
  toScale,
  type AwardRecord,
  type CampaignStatus,
  type DepositTier,
  type LanguageKey,
  type RewardTaskKind,
  type WelfareCampaign,
  type WelfareList,
  type WelfareTask,
  type WelfareTaskStatus,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import * as ledger from '../../ledger/ledger';
import type { Clock } from '../../lib/clock';
import { pickLanguage } from '../../lib/i18n';
import type { NoticeEvent, NoticeWriter } from '../messages';
import type { Currency, SettingsService } from '../settings';
import * as repo from './repo';

type Notify = (userId: number, topic: string, data: unknown) => void;

export interface RewardsDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  notices?: NoticeWriter;
  /** The user's private /ws topics (balances changed). */
  notify?: Notify;
  logger?: FastifyBaseLogger;
}

/** How often the sweep looks for users active since its last round. */
export const SWEEP_INTERVAL_MS = 60_000;
/** Users evaluated per query of a sweep round (the round pages through them all). */
const SWEEP_BATCH = 200;
/** After a restart, the sweep looks this far back at least (a tier payout missed by a crash). */
const RESTART_LOOKBACK_MS = 7 * 24 * 3600_000;

/** The events after which a user's tasks and tiers are evaluated. */
const EVALUATED_AFTER = new Set<string>([
  'depositApproved',
  'identityApproved',
  'contractOpened',
  'contractClosed',
  'contractTakeProfit',
  'contractStopLoss',
  'contractLiquidated',
  'limitOrderFilled',
  'fastTradeSettled',
]);

export function campaignStatus(row: repo.CampaignRow, now: Date): CampaignStatus {
  if (now.getTime() >= stopsAt(row).getTime()) return 'ended';
  return now.getTime() < row.starts_at.getTime() ? 'upcoming' : 'running';
}

export function stopsAt(row: repo.CampaignRow): Date {
  return row.ended_at && row.ended_at.getTime() < row.ends_at.getTime()
    ? row.ended_at
    : row.ends_at;
}

/** What a user has done toward the tasks of one campaign, read from the source tables. */
interface CampaignFacts {
  authLevel: number;
  largestDeposit: string | null;
  trades: number;
  notional: string;
  inviteeVerified: boolean;
}

function progressOf(
  kind: RewardTaskKind,
  threshold: string,
  facts: CampaignFacts,
): { progress: string; target: string; done: boolean } {
  const one = (done: boolean) => ({ progress: done ? '1' : '0', target: '1', done });
  switch (kind) {
    case 'identity0':
      return one(facts.authLevel >= 0);
    case 'identity1':
      return one(facts.authLevel >= 1);
    case 'firstDeposit':
      return one(facts.largestDeposit !== null && gte(facts.largestDeposit, threshold));
    case 'firstTrade':
      return one(facts.trades > 0);
    case 'volume':
      return {
        progress: normalize(facts.notional),
        target: normalize(threshold),
        done: gte(facts.notional, threshold),
      };
    case 'invite':
      return one(facts.inviteeVerified);
  }
}

export class Rewards {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private sweptSince?: Date;
  /** Users whose evaluation is queued after an event (one at a time per user). */
  private readonly queued = new Map<number, Promise<void>>();

  constructor(private readonly deps: RewardsDeps) {}

  // ------------------------------------------------------------ what the user sees

  /** The task centre: the user's open tasks are evaluated first, so it shows what is true now. */
  async welfare(actor: Actor, lang: LanguageKey): Promise<WelfareList> {
    await this.evaluate(actor.userId);
    const now = this.deps.clock.now();
    const currencies = await this.deps.settings.currencyMap();
    const campaigns = await repo.listVisibleCampaigns(this.deps.db, now);
    const tasks = await repo.tasksOf(
      this.deps.db,
      campaigns.map((row) => row.id),
    );
    const completions = new Map(
      (
        await repo.completionsOf(
          this.deps.db,
          actor.userId,
          tasks.map((task) => task.id),
        )
      ).map((row) => [row.task_id, row]),
    );
    const shown: WelfareCampaign[] = [];
    for (const campaign of campaigns) {
      const status = campaignStatus(campaign, now);
      const currency = currencies.get(campaign.currency_id);
      const scale = currency?.scale ?? 8;
      const left = sub(campaign.budget, campaign.spent);
      const facts = status === 'running' ? await this.facts(actor.userId, campaign) : undefined;
      const own = tasks.filter((task) => task.campaign_id === campaign.id);
      const taskViews = own.map((task): WelfareTask => {
        const kind = task.kind as RewardTaskKind;
        const completion = completions.get(task.id);
        const measured = facts
          ? progressOf(kind, task.threshold, facts)
          : { progress: completion ? '1' : '0', target: '1', done: Boolean(completion) };
        let taskStatus: WelfareTaskStatus;
        if (completion) taskStatus = completion.paid ? 'paid' : 'budgetSpent';
        else if (status === 'upcoming') taskStatus = 'upcoming';
        else if (status === 'ended') taskStatus = 'ended';
        else taskStatus = gte(left, task.reward) ? 'todo' : 'budgetSpent';
        const isVolume = kind === 'volume';
        return {
          id: task.id,
          kind,
          threshold: toScale(task.threshold, scale),
          reward: toScale(task.reward, scale),
          currency: currency?.currencyName ?? '',
          progress: isVolume
            ? toScale(completion ? measured.target : measured.progress, scale)
            : completion
              ? '1'
              : measured.progress,
          target: isVolume ? toScale(measured.target, scale) : '1',
          status: taskStatus,
          completedTime: completion ? completion.completed_at.toISOString() : null,
          entryId: completion?.entry_id ?? null,
        };
      });
      const smallest = own.reduce<string | null>(
        (least, task) => (least === null || gte(least, task.reward) ? task.reward : least),
        null,
      );
      shown.push({
        id: campaign.id,
        title: pickLanguage(campaign.title, lang),
        description: pickLanguage(campaign.description, lang),
        withdrawCondition: campaign.withdraw_condition
          ? pickLanguage(campaign.withdraw_condition, lang) || null
          : null,
        startTime: campaign.starts_at.toISOString(),
        endTime: stopsAt(campaign).toISOString(),
        status,
        currency: currency?.currencyName ?? '',
        budgetSpent: smallest !== null && !gte(left, smallest),
        tasks: taskViews,
      });
    }
    return { liveOnly: actor.book === 'demo', campaigns: shown };
  }

  async awards(
    userId: number,
    query: { pageNum: number; pageSize: number; source?: number },
    lang: LanguageKey,
  ): Promise<{ rows: AwardRecord[]; total: number }> {
    const currencies = await this.deps.settings.currencyMap();
    const page = await repo.pageAwards(this.deps.db, { userId, source: query.source }, query);
    return { rows: page.rows.map((row) => awardOf(row, currencies, lang)), total: page.total };
  }

  /** The tiers in force, and whether the user (when signed in) earned each already. */
  async depositTiers(userId: number | undefined, currencyId?: number): Promise<DepositTier[]> {
    const currencies = await this.deps.settings.currencyMap();
    const [rows, earned] = await Promise.all([
      repo.listTiersInForce(this.deps.db, currencyId),
      userId === undefined
        ? Promise.resolve(new Set<number>())
        : repo.earnedLineages(this.deps.db, userId),
    ]);
    return rows.map((row) => {
      const currency = currencies.get(row.currency_id);
      const scale = currency?.scale ?? 8;
      return {
        id: row.id,
        currencyId: row.currency_id,
        currency: currency?.currencyName ?? '',
        minAmount: toScale(row.min_amount, scale),
        maxAmount: row.max_amount === null ? null : toScale(row.max_amount, scale),
        rate: normalize(row.rate),
        earned: earned.has(row.lineage_id),
      };
    });
  }

  // ------------------------------------------------------------ evaluation

  private async facts(userId: number, campaign: repo.CampaignRow): Promise<CampaignFacts> {
    const db = this.deps.db;
    const from = campaign.starts_at;
    const to = stopsAt(campaign);
    const [user, largestDeposit, trading, inviteeVerified] = await Promise.all([
      repo.userFacts(db, userId),
      repo.largestDepositWithin(db, userId, campaign.currency_id, from, to),
      repo.liveTradingWithin(db, userId, campaign.currency_id, from, to),
      repo.inviteeVerifiedWithin(db, userId, from, to),
    ]);
    return {
      authLevel: user?.auth_level ?? -1,
      largestDeposit,
      trades: trading.trades,
      notional: trading.notional,
      inviteeVerified,
    };
  }

  /**
   * Evaluates the user's open tasks of every running campaign and the deposit tiers they earned:
   * each task done is completed (paid once), each tier due paid. Safe to run any number of times
   * at once: the database decides who pays.
   */
  async evaluate(userId: number, { tiers = true }: { tiers?: boolean } = {}): Promise<void> {
    const db = this.deps.db;
    const now = this.deps.clock.now();
    const currencies = await this.deps.settings.currencyMap();
    const campaigns = await repo.listRunningCampaigns(db, now);
    if (campaigns.length > 0) {
      const tasks = await repo.tasksOf(
        db,
        campaigns.map((row) => row.id),
      );
      const done = new Set(
        (
          await repo.completionsOf(
            db,
            userId,
            tasks.map((task) => task.id),
          )
        ).map((row) => row.task_id),
      );
      for (const campaign of campaigns) {
        const open = tasks.filter((task) => task.campaign_id === campaign.id && !done.has(task.id));
        if (open.length === 0) continue;
        const facts = await this.facts(userId, campaign);
        for (const task of open) {
          if (progressOf(task.kind as RewardTaskKind, task.threshold, facts).done)
            await this.complete(task, userId, currencies.get(campaign.currency_id));
        }
      }
    }
    if (tiers) await this.payTiers(userId, currencies);
  }

  /**
   * Completes a task for a user: under the campaign's row lock, once (the UNIQUE completion), paid
   * when the campaign runs and its budget holds the reward, recorded unpaid when it does not.
   * Returns what happened (nothing when it was done before or the campaign is not running).
   */
  async complete(
    task: repo.TaskRow,
    userId: number,
    currency: Currency | undefined,
  ): Promise<'paid' | 'budgetSpent' | null> {
    const now = this.deps.clock.now();
    let told: NoticeEvent | undefined;
    let currencyId = 0;
    const outcome = await this.deps.db.transaction(async (tx) => {
      const campaign = await repo.findCampaign(tx, task.campaign_id, true);
      if (!campaign || campaignStatus(campaign, now) !== 'running') return null;
      if ((await repo.completionsOf(tx, userId, [task.id])).length > 0) return null;
      currencyId = campaign.currency_id;
      const fits = gte(sub(campaign.budget, campaign.spent), task.reward);
      let entryId: number | null = null;
      if (fits) {
        const entry = await ledger.transfer(tx, {
          book: 'live',
          type: 'reward',
          scope: 'platform',
          requestId: `reward-task:${task.id}:${userId}`,
          refType: 'reward_task',
          refId: task.id,
          from: ledger.platform(campaign.currency_id, 'rewards', userId),
          to: ledger.user(userId, campaign.currency_id),
          amount: normalize(task.reward),
        });
        entryId = entry.entryId;
        await repo.addSpent(tx, campaign.id, task.reward);
      }
      const written = await repo.insertCompletion(tx, {
        taskId: task.id,
        campaignId: campaign.id,
        userId,
        currencyId: campaign.currency_id,
        amount: fits ? task.reward : '0',
        entryId,
        now,
      });
      // The lock and the check above make a second row impossible; a conflict would be a bug.
      if (!written) throw new Error(`reward: completion of task ${task.id} written twice`);
      if (fits) {
        const event: NoticeEvent = {
          userId,
          type: 'rewardPaid',
          ref: `reward-task:${task.id}`,
          params: [
            currency ? toScale(task.reward, currency.scale) : normalize(task.reward),
            currency?.currencyName ?? '',
          ],
          link: { route: 'award' },
        };
        await this.deps.notices?.record(tx, [event]);
        told = event;
      }
      return fits ? 'paid' : 'budgetSpent';
    });
    if (told) {
      this.deps.notices?.push([told]);
      this.deps.notify?.(userId, 'balances', { book: 'live', currencyId });
    }
    return outcome;
  }

  /** Pays the deposit tiers the user's approved deposits earned and were not paid yet. */
  private async payTiers(userId: number, currencies: Map<number, Currency>): Promise<void> {
    const due = await repo.tiersDue(this.deps.db, userId);
    const paidLineages = new Set<number>();
    for (const row of due) {
      if (paidLineages.has(row.lineage_id)) continue;
      paidLineages.add(row.lineage_id);
      const currency = currencies.get(row.currency_id);
      const amount = toScale(mul(row.amount, row.rate), currency?.scale ?? 8, 'down');
      if (!isPositive(amount)) continue;
      const now = this.deps.clock.now();
      const told: NoticeEvent = {
        userId,
        type: 'depositRewardPaid',
        ref: `reward-tier:${row.lineage_id}`,
        params: [amount, currency?.currencyName ?? ''],
        link: { route: 'award' },
      };
      const paid = await this.deps.db.transaction(async (tx) => {
        await repo.lockUser(tx, userId);
        const entry = await ledger.transfer(tx, {
          book: 'live',
          type: 'reward',
          scope: 'platform',
          requestId: `reward-tier:${row.lineage_id}:${userId}`,
          refType: 'recharge',
          refId: row.recharge_id,
          from: ledger.platform(row.currency_id, 'rewards', userId),
          to: ledger.user(userId, row.currency_id),
          amount,
        });
        if (entry.duplicate) return false;
        const written = await repo.insertTierPayout(tx, {
          tierId: row.tier_id,
          lineageId: row.lineage_id,
          userId,
          rechargeId: row.recharge_id,
          currencyId: row.currency_id,
          depositAmount: normalize(row.amount),
          rate: normalize(row.rate),
          amount,
          entryId: entry.entryId,
          now,
        });
        if (!written) throw new Error(`reward: tier ${row.lineage_id} paid twice to ${userId}`);
        await this.deps.notices?.record(tx, [told]);
        return true;
      });
      if (paid) {
        this.deps.notices?.push([told]);
        this.deps.notify?.(userId, 'balances', { book: 'live', currencyId: row.currency_id });
      }
    }
  }

  // ------------------------------------------------------------ events and the sweep

  /** Notifications just pushed: the users they concern have their tasks and tiers evaluated. */
  heard(events: readonly NoticeEvent[]): void {
    for (const event of events) {
      if (!EVALUATED_AFTER.has(event.type)) continue;
      // Deposit tiers are paid after deposits only; trades and verifications complete tasks.
      this.queue(event.userId, event.type === 'depositApproved');
      if (event.type === 'identityApproved')
        void repo
          .userFacts(this.deps.db, event.userId)
          .then((user) => {
            if (user?.inviter_id) this.queue(user.inviter_id);
          })
          .catch((error: unknown) => this.failed(error));
    }
  }

  /** One evaluation at a time per user from events; one more queued when events keep coming. */
  private queue(userId: number, tiers = false): void {
    const running = this.queued.get(userId);
    const next = (running ?? Promise.resolve())
      .then(() => this.evaluate(userId, { tiers }))
      .catch((error: unknown) => this.failed(error))
      .finally(() => {
        if (this.queued.get(userId) === next) this.queued.delete(userId);
      });
    this.queued.set(userId, next);
  }

  private failed(error: unknown): void {
    this.deps.logger?.error({ err: error }, 'reward evaluation failed');
  }

  /** Evaluations started by events, finished (tests). */
  async idle(): Promise<void> {
    while (this.queued.size > 0) await Promise.all([...this.queued.values()]);
    await this.sweeping;
  }

  /**
   * One round of the sweep: every user active since the last round (the first round after a start
   * looks back to the earliest running campaign's start, and a week for tiers).
   */
  async sweep(): Promise<number> {
    const db = this.deps.db;
    const now = this.deps.clock.now();
    let since = this.sweptSince;
    if (!since) {
      since = new Date(now.getTime() - RESTART_LOOKBACK_MS);
      for (const campaign of await repo.listRunningCampaigns(db, now))
        if (campaign.starts_at < since) since = campaign.starts_at;
    }
    let count = 0;
    let offset = 0;
    for (;;) {
      const users = await repo.usersActiveSince(db, since, SWEEP_BATCH, offset);
      for (const userId of users) {
        await this.evaluate(userId).catch((error: unknown) => this.failed(error));
        count += 1;
      }
      if (users.length < SWEEP_BATCH) break;
      offset += SWEEP_BATCH;
    }
    // The next round overlaps this one a little: an event committed while it ran is seen again.
    this.sweptSince = new Date(now.getTime() - 5_000);
    return count;
  }

  start(intervalMs = SWEEP_INTERVAL_MS): void {
    const round = () => {
      if (this.sweeping) return;
      this.sweeping = this.sweep()
        .then(() => undefined)
        .catch((error: unknown) => this.failed(error))
        .finally(() => {
          this.sweeping = undefined;
        });
    };
    round();
    this.timer = setInterval(round, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.idle();
  }
}

export function awardOf(
  row: repo.AwardRow,
  currencies: Map<number, Currency>,
  lang: LanguageKey,
): AwardRecord {
  const currency = currencies.get(row.currency_id);
  const scale = currency?.scale ?? 8;
  return {
    id: `${row.source === AWARD_SOURCE.task ? 'task' : 'tier'}-${row.id}`,
    source: row.source,
    campaignTitle: row.campaign_title ? pickLanguage(row.campaign_title, lang) : null,
    taskKind: (row.task_kind as RewardTaskKind | null) ?? null,
    threshold: row.threshold === null ? null : toScale(row.threshold, scale),
    depositAmount: row.deposit_amount === null ? null : toScale(row.deposit_amount, scale),
    rate: row.rate === null ? null : normalize(row.rate),
    rechargeOrderNo: row.order_no,
    amount: toScale(row.amount, scale),
    currency: currency?.currencyName ?? '',
    paid: row.paid,
    entryId: row.entry_id,
    time: row.at.toISOString(),
  };
}

/**
 * A notice writer that also tells the rewards of what it pushed (after the events' commits): the
 * wallet, identity and trading modules write their notifications through it unchanged.
 */
export function heardBy(
  writer: NoticeWriter,
  listener: (events: readonly NoticeEvent[]) => void,
): NoticeWriter {
  return {
    record: (tx, events) => writer.record(tx, events),
    push: (events) => {
      writer.push(events);
      listener(events);
    },
    emit: (events) => {
      writer.emit(events);
      listener(events);
    },
  };
}
