/**
 * Welfare and awards (issue 22): campaigns of tasks that pay a stated reward once per user when
 * an event completes them (never self-declared), deposit reward tiers that pay a stated rate of a
 * deposit once per user per tier, and the user's award records. Every reward is credited through
 * the ledger from the platform's rewards account, with no wagering requirement or withdrawal lock.
 */
import { z } from 'zod';
import {
  decimalAmount,
  intField,
  optionalFlag,
  optionalInt,
  optionalIsoTime,
  optionalText,
  pageQuery,
  text,
} from './common';
import { languageTexts } from './operators';
import { gt, isDecimalString, isPositive } from '../money';

/**
 * What completes a task: the identity level 0 or 1 verified; a first approved deposit of at least
 * the threshold within the campaign; a first live trade within the campaign; live trading
 * notional of at least the threshold within the campaign; an invitee who verifies identity within
 * the campaign.
 */
export const REWARD_TASK_KINDS = [
  'identity0',
  'identity1',
  'firstDeposit',
  'firstTrade',
  'volume',
  'invite',
] as const;
export type RewardTaskKind = (typeof REWARD_TASK_KINDS)[number];

/** Kinds whose threshold is an amount in the campaign's currency. */
export const REWARD_KINDS_WITH_AMOUNT: readonly RewardTaskKind[] = ['firstDeposit', 'volume'];

/**
 * A task's state for its user: `upcoming` the campaign has not started; `todo` open; `paid`
 * completed and credited; `budgetSpent` the campaign's budget cannot pay it (completed unpaid, or
 * open with nothing left); `ended` the campaign ended before it was completed.
 */
export const WELFARE_TASK_STATUS = ['upcoming', 'todo', 'paid', 'budgetSpent', 'ended'] as const;
export type WelfareTaskStatus = (typeof WELFARE_TASK_STATUS)[number];

/** A campaign's state: before its start, running, or ended (its end passed, or ended early). */
export const CAMPAIGN_STATUS = ['upcoming', 'running', 'ended'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUS)[number];

/** Where an award came from: 1 a welfare task, 2 a deposit reward tier. */
export const AWARD_SOURCE = { task: 1, depositTier: 2 } as const;

/** Bounds of what a campaign holds. */
export const CAMPAIGN_LIMITS = {
  titleMax: 120,
  descriptionMax: 2000,
  conditionMax: 500,
  tasksMax: 12,
} as const;

// ---------------------------------------------------------------- the app

export const welfareTask = z.object({
  id: z.number().int(),
  kind: z.enum(REWARD_TASK_KINDS),
  threshold: z.string().describe('The amount the kind needs (firstDeposit, volume); else "0".'),
  reward: z.string(),
  currency: z.string(),
  progress: z
    .string()
    .describe('How far the user is: the volume traded (volume), else 0 or 1 (done).'),
  target: z.string().describe('What progress must reach: the threshold (volume), else 1.'),
  status: z.enum(WELFARE_TASK_STATUS),
  completedTime: z.string().nullable(),
  entryId: z.number().int().nullable().describe('The ledger entry of the payment.'),
});
export type WelfareTask = z.output<typeof welfareTask>;

export const welfareCampaign = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  withdrawCondition: z
    .string()
    .nullable()
    .describe('A condition stated up front on the rewards (none by default).'),
  startTime: z.string(),
  endTime: z.string().describe('When its tasks end: the end it stated, or when it was ended.'),
  status: z.enum(CAMPAIGN_STATUS),
  currency: z.string(),
  budgetSpent: z.boolean().describe('Its budget cannot pay another task.'),
  tasks: z.array(welfareTask),
});
export type WelfareCampaign = z.output<typeof welfareCampaign>;

export const welfareList = z.object({
  liveOnly: z
    .boolean()
    .describe('The session is the demo account: rewards come from live activity only.'),
  campaigns: z.array(welfareCampaign),
});
export type WelfareList = z.output<typeof welfareList>;

export const awardListQuery = pageQuery.extend({
  source: optionalInt(1, 2).describe('1 welfare tasks, 2 deposit reward tiers; absent: both.'),
});

export const awardRecord = z.object({
  id: z.string().describe('`task-<n>` or `tier-<n>`.'),
  source: z.number().int().describe('1 a welfare task, 2 a deposit reward tier.'),
  campaignTitle: z.string().nullable(),
  taskKind: z.enum(REWARD_TASK_KINDS).nullable(),
  threshold: z.string().nullable(),
  depositAmount: z.string().nullable(),
  rate: z.string().nullable(),
  rechargeOrderNo: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  paid: z.boolean().describe('False: completed when the budget was spent (nothing credited).'),
  entryId: z.number().int().nullable().describe('The ledger entry that credited it.'),
  time: z.string(),
});
export type AwardRecord = z.output<typeof awardRecord>;

export const depositTiersQuery = z.object({ currencyId: optionalInt(1) });

export const depositTier = z.object({
  id: z.number().int(),
  currencyId: z.number().int(),
  currency: z.string(),
  minAmount: z.string(),
  maxAmount: z.string().nullable().describe('Up to, not including; null: no upper bound.'),
  rate: z.string().describe('The share of the deposit paid, 0.05 for 5 %.'),
  earned: z.boolean().describe('The signed-in user was paid this tier already.'),
});
export type DepositTier = z.output<typeof depositTier>;

// ---------------------------------------------------------------- the console

export const consoleTask = z.object({
  id: z.number().int(),
  kind: z.enum(REWARD_TASK_KINDS),
  threshold: z.string(),
  reward: z.string(),
  completions: z.number().int(),
  paidCount: z.number().int(),
});

export const consoleCampaign = z.object({
  id: z.number().int(),
  title: z.record(z.string(), z.string()),
  description: z.record(z.string(), z.string()),
  withdrawCondition: z.record(z.string(), z.string()).nullable(),
  startTime: z.string(),
  endTime: z.string(),
  currencyId: z.number().int(),
  currency: z.string(),
  budget: z.string(),
  spent: z.string().describe('The sum of its payments (never typed).'),
  status: z.enum(CAMPAIGN_STATUS),
  started: z.boolean().describe('Its tasks and terms can no longer change.'),
  endedTime: z.string().nullable(),
  endReason: z.string().nullable(),
  tasks: z.array(consoleTask),
  createTime: z.string(),
});
export type ConsoleCampaign = z.output<typeof consoleCampaign>;

export const consoleCampaignQuery = pageQuery.extend({
  status: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(CAMPAIGN_STATUS).optional(),
  ),
});

const taskInput = z.object({
  kind: z.enum(REWARD_TASK_KINDS, { error: 'hint_paramInvalid' }),
  threshold: z.preprocess(
    (value) => (value === '' || value === undefined || value === null ? '0' : value),
    decimalAmount({ sign: 'nonNegative' }),
  ),
  reward: decimalAmount(),
});
export type RewardTaskInput = z.output<typeof taskInput>;

export const campaignSaveBody = z
  .object({
    id: optionalInt(1).describe('The campaign to change; absent: a new one.'),
    title: languageTexts(CAMPAIGN_LIMITS.titleMax),
    description: languageTexts(CAMPAIGN_LIMITS.descriptionMax, 'multiLine'),
    withdrawCondition: languageTexts(CAMPAIGN_LIMITS.conditionMax, 'multiLine').describe(
      'Absent: none (the default). A stated condition is shown beside every task.',
    ),
    startTime: optionalIsoTime,
    endTime: optionalIsoTime,
    currencyId: intField(1),
    budget: decimalAmount(),
    tasks: z.array(taskInput).min(1).max(CAMPAIGN_LIMITS.tasksMax),
  })
  .superRefine((body, context) => {
    if (!body.title)
      context.addIssue({ code: 'custom', path: ['title'], message: 'hint_langEnglishRequired' });
    if (!body.startTime)
      context.addIssue({ code: 'custom', path: ['startTime'], message: 'hint_paramRequired' });
    if (!body.endTime)
      context.addIssue({ code: 'custom', path: ['endTime'], message: 'hint_paramRequired' });
    if (body.startTime && body.endTime && Date.parse(body.endTime) <= Date.parse(body.startTime))
      context.addIssue({
        code: 'custom',
        path: ['endTime'],
        message: 'hint_campaignEndBeforeStart',
      });
    body.tasks.forEach((task, index) => {
      if (REWARD_KINDS_WITH_AMOUNT.includes(task.kind) && !isPositive(task.threshold))
        context.addIssue({
          code: 'custom',
          path: ['tasks', index, 'threshold'],
          message: 'hint_rewardThresholdRequired',
        });
    });
  });
export type CampaignSaveBody = z.output<typeof campaignSaveBody>;

export const campaignEndBody = z.object({
  id: intField(1),
  reason: text(500, 1, 'multiLine'),
});

export const consoleTier = z.object({
  id: z.number().int(),
  lineageId: z.number().int(),
  currencyId: z.number().int(),
  currency: z.string(),
  minAmount: z.string(),
  maxAmount: z.string().nullable(),
  rate: z.string(),
  createTime: z.string(),
  retiredTime: z.string().nullable(),
  payoutCount: z.number().int(),
  paidTotal: z.string(),
});
export type ConsoleTier = z.output<typeof consoleTier>;

export const consoleTierQuery = z.object({
  retired: optionalFlag.describe('true: the retired versions too.'),
});

export const tierSaveBody = z
  .object({
    id: optionalInt(1).describe(
      'The tier this replaces (retired, its payments kept); absent: a new one.',
    ),
    currencyId: intField(1),
    minAmount: decimalAmount({ sign: 'nonNegative' }),
    maxAmount: z.preprocess(
      (value) => (value === '' || value === null ? undefined : value),
      decimalAmount().optional(),
    ),
    rate: decimalAmount({ maxScale: 8, max: '1' }),
  })
  .superRefine((body, context) => {
    // Compared only when both are amounts: a refused one is named on its own field.
    if (
      isDecimalString(body.minAmount) &&
      isDecimalString(body.maxAmount) &&
      !gt(body.maxAmount, body.minAmount)
    )
      context.addIssue({ code: 'custom', path: ['maxAmount'], message: 'hint_tierRangeInvalid' });
  });
export type TierSaveBody = z.output<typeof tierSaveBody>;

export const tierIdBody = z.object({ id: intField(1) });

export const consoleRewardQuery = pageQuery.extend({
  userAccount: optionalText(128).describe('A user: account (email or phone) or id.'),
  campaignId: optionalInt(1),
  source: optionalInt(1, 2),
});

export const consoleRewardRecord = awardRecord.extend({
  userId: z.number().int(),
  userAccount: z.string(),
});
export type ConsoleRewardRecord = z.output<typeof consoleRewardRecord>;
