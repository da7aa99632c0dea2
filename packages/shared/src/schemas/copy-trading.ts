/**
 * Copy trading (issue 25): lead traders with statistics computed from their own closed live
 * contract positions, followers whose copies are real contract positions filled at their own
 * ticks, and a profit share above each relation's high-water mark. The rules are in
 * ../copy-trading.ts, which the server applies and the app shows.
 */
import { z } from 'zod';
import {
  codeField,
  decimalAmount,
  intField,
  optionalInt,
  optionalText,
  pageQuery,
  requestId,
  text,
} from './common';
import { languageTexts } from './operators';
import { contractPosition } from './trading';
import {
  CLOSE_MODE,
  COPY_BOOKS,
  COPY_LIMITS,
  COPY_MODE,
  COPY_PERIOD,
  COPY_SORT,
} from '../copy-trading';
import { gt, isDecimalString } from '../money';

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** One of a list of words, refused as `hint_paramInvalid`; absent or empty: the default. */
function wordField<const T extends readonly [string, ...string[]]>(words: T, fallback: T[number]) {
  return z.preprocess(
    emptyToUndefined,
    z.enum(words, { error: 'hint_paramInvalid' }).default(fallback as never),
  );
}

const profitShareRate = () =>
  decimalAmount({
    sign: 'nonNegative',
    maxScale: COPY_LIMITS.rateScale,
    max: COPY_LIMITS.rateMax,
  });

const optionalDecimal = (field: ReturnType<typeof decimalAmount>) =>
  z.preprocess(emptyToUndefined, field.optional());

const book = z.enum(COPY_BOOKS).describe("live, or demo (the follower's demo book).");
const periodField = z.enum(COPY_PERIOD);

// ---------------------------------------------------------------- statistics

export const traderWindowStats = z.object({
  period: periodField.describe('7, 30, 90 (days) or all.'),
  roi: z
    .string()
    .describe("Time-weighted return on the trader's equity: Π(1 + pnl / equity before) − 1."),
  pnl: z.string().describe('Net realized P&L of the closes (after fees).'),
  winRate: z.string().describe('Closes with a P&L above 0 / closes (0.6 = 60 %).'),
  trades: z.number().int().describe('Closed positions.'),
  avgHoldSeconds: z.number().int(),
  maxDrawdown: z
    .string()
    .describe('Largest fall of the equity index from a peak, as a fraction (0.12 = 12 %).'),
});
export type TraderWindowStatsRow = z.output<typeof traderWindowStats>;

export const equityPoint = z.object({
  time: z.string().describe('ISO time of the close.'),
  index: z.string().describe('The equity index after it (1 at the start).'),
});

// ---------------------------------------------------------------- the app: traders

export const traderListQuery = pageQuery.extend({
  sort: wordField(COPY_SORT, 'roi').describe(
    'roi, pnl, followers, or drawdown (smallest first), of the period; default roi.',
  ),
  period: wordField(COPY_PERIOD, '30').describe('7, 30, 90 (days) or all; default 30.'),
});

export const traderSummary = z.object({
  traderId: z.number().int().describe("The trader's user id."),
  nickName: z.string(),
  avatar: z.string().describe("The avatar's URL, or ''."),
  title: z.string().describe("In the request's language (English when it has none; '' if none)."),
  status: z.number().int().describe('1 active, 2 suspended (no new follows).'),
  currency: z.string().describe('The trade currency the statistics are in.'),
  profitShareRate: z.string().describe("The trader's share of followers' profit above the mark."),
  minCopyAmount: z.string(),
  maxCopyAmount: z.string().nullable(),
  maxFollowers: z
    .number()
    .int()
    .describe('The most followers taken (the lower of the two limits).'),
  followers: z.number().int().describe('Active relations now.'),
  followersTotal: z.number().int().describe('Relations ever.'),
  stats: traderWindowStats.describe('The statistics of the period asked (list) or of 30 days.'),
  spark: z
    .array(z.string())
    .describe('Up to 30 points of the equity index over the period, for a small chart.'),
  statsAt: z.string().nullable().describe('When the statistics were computed (after a close).'),
  myRelationId: z
    .number()
    .int()
    .nullable()
    .describe("The signed-in user's active relation with the trader in the session's book."),
});
export type TraderSummary = z.output<typeof traderSummary>;

export const traderQuery = z.object({ traderId: intField(1) });

export const traderDetail = traderSummary.extend({
  description: z.string().describe("In the request's language ('' if none)."),
  windows: z.array(traderWindowStats).describe('7, 30, 90 days and since the start.'),
  curve: z.array(equityPoint).describe('The equity index since the start, one point per close.'),
  followersPnl: z.string().describe("Followers' total realized net P&L of the copies."),
  assetsUnderCopy: z.string().describe('The budgets of the active relations (live book).'),
  positionDelayMinutes: z
    .number()
    .int()
    .describe('Current positions are shown once opened this long ago.'),
  approvedAt: z.string(),
});
export type TraderDetail = z.output<typeof traderDetail>;

export const traderPositionsQuery = pageQuery.extend({
  traderId: intField(1),
  status: wordField(['open', 'closed'], 'open').describe(
    'open (opened before now less the delay) or closed; default open.',
  ),
});

export const traderPosition = z.object({
  id: z.number().int(),
  productType: z.number().int(),
  productCode: z.string(),
  productName: z.string(),
  orderDirection: z.number().int().describe('1 long, 2 short.'),
  leverage: z.number().int(),
  quantity: z.string(),
  margin: z.string(),
  entryPrice: z.string().nullable(),
  exitPrice: z.string().nullable(),
  takeProfit: z.string().nullable(),
  stopLoss: z.string().nullable(),
  pnl: z.string().nullable().describe('Net realized P&L after fees (closed).'),
  pnlRate: z.string().nullable().describe('pnl / margin (closed).'),
  status: z.number().int().describe('1 open, 2 closed.'),
  closeReason: z.number().int().nullable(),
  currencyName: z.string(),
  openTime: z.string().nullable(),
  closeTime: z.string().nullable(),
});
export type TraderPosition = z.output<typeof traderPosition>;

// ---------------------------------------------------------------- the app: following

export const copyRelation = z.object({
  id: z.number().int(),
  traderId: z.number().int(),
  traderName: z.string(),
  traderAvatar: z.string(),
  traderTitle: z.string(),
  traderStatus: z.number().int().describe('1 active, 2 suspended.'),
  book,
  currency: z.string(),
  scale: z.number().int(),
  mode: z.number().int().describe('1 fixed margin per copy, 2 ratio of the leader margin.'),
  amount: z.string().nullable().describe('The margin of each copy (fixed mode).'),
  ratio: z.string().nullable().describe("The share of the leader's margin (ratio mode)."),
  maxOpen: z.number().int().describe('Open copies at most.'),
  tpRate: z.string().nullable().describe("Own take-profit, a fraction of a copy's margin."),
  slRate: z.string().nullable().describe("Own stop-loss, a fraction of a copy's margin."),
  budget: z.string().describe('The most margin the open copies may use at once.'),
  marginInUse: z.string().describe('The margin of the open copies.'),
  openCopies: z.number().int(),
  profitShareRate: z.string().describe('The rate this relation settles at (copied on following).'),
  cumPnl: z.string().describe('Cumulative realized net P&L of the copies.'),
  hwm: z.string().describe('The high-water mark: a share is due only above it.'),
  owed: z.string().describe('A share the balance could not pay, paid first next time.'),
  sharePaid: z.string().describe('Shares paid to the trader so far.'),
  status: z.number().int().describe('1 active, 2 ended.'),
  endMode: z.number().int().nullable().describe('1 copies closed at once, 2 copies kept.'),
  createTime: z.string(),
  endTime: z.string().nullable(),
});
export type CopyRelation = z.output<typeof copyRelation>;

export const followedListQuery = pageQuery.extend({
  status: optionalInt(1, 2).describe('1 active, 2 ended; absent: both.'),
});

const modeField = codeField(Object.values(COPY_MODE)).describe(
  '1 fixed margin per copy, 2 ratio of the leader margin.',
);
const settingsFields = {
  mode: modeField,
  amount: optionalDecimal(decimalAmount()).describe('The margin of each copy (fixed mode).'),
  ratio: optionalDecimal(
    decimalAmount({
      maxScale: COPY_LIMITS.ratioScale,
      min: COPY_LIMITS.ratioMin,
      max: COPY_LIMITS.ratioMax,
    }),
  ).describe("The share of the leader's margin (ratio mode; 0.5 = half)."),
  maxOpen: intField(1, COPY_LIMITS.maxOpenMax).describe('Open copies at most.'),
  tpRate: optionalDecimal(
    decimalAmount({ maxScale: COPY_LIMITS.tpSlScale, max: COPY_LIMITS.tpMax }),
  ).describe("Own take-profit at this fraction of a copy's margin (overrides the leader's)."),
  slRate: optionalDecimal(
    decimalAmount({ maxScale: COPY_LIMITS.tpSlScale, max: COPY_LIMITS.slMax }),
  ).describe("Own stop-loss at this fraction of a copy's margin (overrides the leader's)."),
  budget: decimalAmount().describe('The most margin the open copies may use at once.'),
};

function checkSettings(
  body: { mode: number; amount?: string; ratio?: string; budget: string },
  context: z.core.$RefinementCtx,
): void {
  if (body.mode === COPY_MODE.fixed && body.amount === undefined)
    context.addIssue({ code: 'custom', path: ['amount'], message: 'hint_copyAmountRequired' });
  if (body.mode === COPY_MODE.ratio && body.ratio === undefined)
    context.addIssue({ code: 'custom', path: ['ratio'], message: 'hint_copyRatioRequired' });
  if (
    body.mode === COPY_MODE.fixed &&
    isDecimalString(body.amount) &&
    isDecimalString(body.budget) &&
    gt(body.amount, body.budget)
  )
    context.addIssue({ code: 'custom', path: ['budget'], message: 'hint_copyBudgetBelowAmount' });
}

export const followBody = z
  .object({ traderId: intField(1), ...settingsFields, requestId })
  .superRefine(checkSettings);
export type FollowBody = z.output<typeof followBody>;
export type FollowInput = z.input<typeof followBody>;

export const relationEditBody = z
  .object({ relationId: intField(1), ...settingsFields })
  .superRefine(checkSettings);
export type RelationEditBody = z.output<typeof relationEditBody>;

export const unfollowBody = z.object({
  relationId: intField(1),
  closeMode: codeField(Object.values(CLOSE_MODE)).describe(
    '1 close the copies at market now, 2 keep them as own positions.',
  ),
  requestId,
});
export type UnfollowBody = z.output<typeof unfollowBody>;

export const copiesQuery = pageQuery.extend({
  relationId: optionalInt(1).describe("One relation's copies; absent: all the user's."),
});

export const leaderPosition = z.object({
  id: z.number().int(),
  productCode: z.string(),
  productName: z.string(),
  orderDirection: z.number().int(),
  leverage: z.number().int(),
  margin: z.string(),
  entryPrice: z.string().nullable(),
  exitPrice: z.string().nullable(),
  status: z.number().int().describe('1 open, 2 closed.'),
  openTime: z.string().nullable(),
  closeTime: z.string().nullable(),
});

export const copyRow = z.object({
  id: z.number().int().describe('The open task of the copy.'),
  relationId: z.number().int(),
  traderId: z.number().int(),
  traderName: z.string(),
  book,
  status: z.number().int().describe('0 pending, 1 opened, 2 failed, 3 skipped.'),
  reason: z.string().nullable().describe('Why it failed or was skipped (a hint key).'),
  leader: leaderPosition.describe("The leader's position it copies."),
  position: contractPosition
    .nullable()
    .describe("The follower's own position (its own entry and exit ticks), once opened."),
  createTime: z.string(),
  doneTime: z.string().nullable(),
});
export type CopyRow = z.output<typeof copyRow>;

export const settlementsQuery = pageQuery.extend({
  relationId: optionalInt(1).describe("One relation's settlements; absent: all the user's."),
});

export const copySettlement = z.object({
  id: z.number().int(),
  relationId: z.number().int(),
  traderId: z.number().int(),
  traderName: z.string(),
  followerName: z.string().describe("The follower's masked name (the trader's view)."),
  book,
  currency: z.string(),
  reason: z.number().int().describe('1 daily, 2 unfollow.'),
  day: z.string().describe('The UTC day settled.'),
  cumPnl: z.string().describe('Cumulative net P&L at the settlement.'),
  hwmBefore: z.string(),
  hwmAfter: z.string(),
  rate: z.string(),
  share: z.string().describe('rate × (cumPnl − hwmBefore) rounded down when above; else 0.'),
  owedBefore: z.string(),
  paid: z.string().describe('Paid now: what was owed and the share, as far as the balance went.'),
  owedAfter: z.string(),
  entryId: z.number().int().nullable().describe('The ledger entry of the payment.'),
  createTime: z.string(),
});
export type CopySettlement = z.output<typeof copySettlement>;

// ---------------------------------------------------------------- the app: leading

export const leadApplyBody = z.object({ requestId });

export const copyApplication = z.object({
  id: z.number().int(),
  status: z.number().int().describe('0 pending, 1 approved, 2 rejected.'),
  closedTrades: z.number().int().describe('Closed live contract positions when applying.'),
  reason: z.string().nullable().describe('Why it was rejected.'),
  createTime: z.string(),
  reviewTime: z.string().nullable(),
});
export type CopyApplication = z.output<typeof copyApplication>;

export const leadProfile = z.object({
  traderId: z.number().int(),
  status: z.number().int().describe('1 active, 2 suspended.'),
  title: z.record(z.string(), z.string()).describe('Per language.'),
  description: z.record(z.string(), z.string()),
  profitShareRate: z.string(),
  minCopyAmount: z.string(),
  maxCopyAmount: z.string().nullable(),
  maxFollowers: z.number().int(),
  maxFollowersCap: z.number().int().nullable().describe("The console's cap; null: none."),
  followers: z.number().int(),
  currency: z.string(),
  approvedAt: z.string(),
  suspendedReason: z.string().nullable(),
});
export type LeadProfile = z.output<typeof leadProfile>;

export const leadStatus = z.object({
  application: copyApplication.nullable().describe('The latest application.'),
  trader: leadProfile.nullable().describe('Once approved.'),
  closedTrades: z.number().int().describe('Closed live contract positions now.'),
  minClosedTrades: z.number().int().describe('Needed to apply.'),
  identityMet: z.boolean().describe('The identity level applying needs is met.'),
  maxProfitShareRate: z.string().describe('The highest rate a trader may set.'),
});
export type LeadStatus = z.output<typeof leadStatus>;

export const leadProfileBody = z
  .object({
    title: languageTexts(COPY_LIMITS.titleMax),
    description: languageTexts(COPY_LIMITS.descriptionMax, 'multiLine'),
    profitShareRate: profitShareRate().describe('0.1 = 10 %, at most the console maximum.'),
    minCopyAmount: decimalAmount(),
    maxCopyAmount: optionalDecimal(decimalAmount()).describe('Absent: no maximum.'),
    maxFollowers: intField(1, COPY_LIMITS.maxFollowersMax),
  })
  .superRefine((body, context) => {
    if (
      isDecimalString(body.minCopyAmount) &&
      isDecimalString(body.maxCopyAmount) &&
      gt(body.minCopyAmount, body.maxCopyAmount)
    )
      context.addIssue({
        code: 'custom',
        path: ['maxCopyAmount'],
        message: 'hint_copyMaxBelowMin',
      });
  });
export type LeadProfileBody = z.output<typeof leadProfileBody>;
export type LeadProfileInput = z.input<typeof leadProfileBody>;

export const leadFollower = z.object({
  relationId: z.number().int(),
  followerName: z.string().describe('Masked.'),
  book,
  status: z.number().int().describe('1 active, 2 ended.'),
  budget: z.string(),
  openCopies: z.number().int(),
  cumPnl: z.string(),
  hwm: z.string(),
  sharePaid: z.string().describe('Income from this follower so far.'),
  owed: z.string(),
  createTime: z.string(),
  endTime: z.string().nullable(),
});

export const leadIncomeDay = z.object({
  day: z.string(),
  book,
  share: z.string().describe('Shares due that day.'),
  paid: z.string().describe('Paid that day (owed amounts included).'),
  settlements: z.number().int(),
});

export const leadDashboard = z.object({
  currency: z.string(),
  followers: z
    .array(leadFollower)
    .describe('Active relations first, then the latest ended ones (at most 1,000 rows).'),
  incomePerDay: z.array(leadIncomeDay).describe('The last 90 UTC days with a settlement.'),
  followersNow: z.number().int(),
  incomeTotal: z.string().describe('Shares paid ever (live book).'),
  assetsUnderCopy: z.string(),
});
export type LeadDashboard = z.output<typeof leadDashboard>;

// ---------------------------------------------------------------- the console

export const copyTradeSettings = z.object({
  maxProfitShareRate: z.string(),
  minClosedTrades: z.number().int(),
  positionDelayMinutes: z.number().int(),
});
export type CopyTradeSettingsRow = z.output<typeof copyTradeSettings>;

export const copyTradeSettingsBody = z.object({
  maxProfitShareRate: profitShareRate().describe('The highest rate a trader may set (0.3 = 30 %).'),
  minClosedTrades: intField(0, COPY_LIMITS.minClosedTradesMax).describe(
    'Closed live contract positions needed to apply.',
  ),
  positionDelayMinutes: intField(0, COPY_LIMITS.positionDelayMinutesMax).describe(
    "Minutes before a trader's new position is shown.",
  ),
});
export type CopyTradeSettingsBody = z.output<typeof copyTradeSettingsBody>;

const userAccountFilter = optionalText(128).describe('A user: account (email or phone) or id.');

export const consoleApplicationQuery = pageQuery.extend({
  status: optionalInt(0, 2).describe('0 pending, 1 approved, 2 rejected; absent: all.'),
  userAccount: userAccountFilter,
});

export const consoleApplication = copyApplication.extend({
  userId: z.number().int(),
  userAccount: z.string(),
  nickName: z.string(),
  authLevel: z.number().int().describe("The user's identity level now."),
  closedTradesNow: z.number().int(),
  reviewedBy: z.string().nullable().describe('The operator who reviewed it.'),
});
export type ConsoleApplication = z.output<typeof consoleApplication>;

export const applicationIdBody = z.object({ id: intField(1) });
export const applicationRejectBody = z.object({
  id: intField(1),
  reason: text(500, 1, 'multiLine'),
});

export const consoleTraderQuery = pageQuery.extend({
  status: optionalInt(1, 2).describe('1 active, 2 suspended; absent: both.'),
  userAccount: userAccountFilter,
});

export const consoleTrader = leadProfile.extend({
  userAccount: z.string(),
  nickName: z.string(),
  followersTotal: z.number().int(),
  followersPnl: z.string(),
  assetsUnderCopy: z.string(),
  sharePaid: z.string().describe('Profit shares received (live book).'),
  windows: z.array(traderWindowStats).describe('Computed; no call changes them.'),
  statsAt: z.string().nullable(),
});
export type ConsoleTrader = z.output<typeof consoleTrader>;

export const traderCapBody = z.object({
  traderId: intField(1),
  maxFollowersCap: optionalInt(1, COPY_LIMITS.maxFollowersMax).describe(
    'The most followers the trader may take; absent: no cap beyond their own.',
  ),
});

export const traderStatusBody = z.object({
  traderId: intField(1),
  reason: text(500, 1, 'multiLine').describe('Told to the trader and their followers.'),
});

export const consoleRelationQuery = pageQuery.extend({
  traderId: optionalInt(1),
  userAccount: userAccountFilter.describe('A follower: account (email or phone) or id.'),
  status: optionalInt(1, 2),
});

export const consoleRelation = copyRelation.extend({
  followerId: z.number().int(),
  followerAccount: z.string(),
});
export type ConsoleRelation = z.output<typeof consoleRelation>;

export const copyReportQuery = pageQuery.extend({
  book: wordField(COPY_BOOKS, 'live').describe('live (default) or demo.'),
});

export const copyReportRow = z.object({
  day: z.string().describe('UTC day.'),
  book,
  currency: z.string(),
  settlements: z.number().int(),
  share: z.string().describe('Shares due.'),
  paid: z.string(),
  owed: z.string().describe('Left owed by the settlements of the day.'),
  relations: z.number().int().describe('Relations active at the end of the day.'),
});
export type CopyReportRow = z.output<typeof copyReportRow>;
