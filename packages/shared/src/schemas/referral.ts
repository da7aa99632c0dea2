/**
 * Team and referral (/api/userTeam, /admin-api/referral): a user's team up to three levels (their
 * direct invitees are level 1, theirs level 2…), the commissions paid to them from the trading
 * fees their team paid on the live book, and the terms in force (levels and each level's share of
 * a fee, published before they apply). No member's balance is ever shown to another user; accounts
 * of members are masked.
 */
import { z } from 'zod';
import { add, gt, isDecimalString, parseDecimal } from '../money';
import { intField, optionalInt, optionalIsoTime, pageQuery, safeString, text } from './common';

/** Levels a team can have (the terms pay 1 to REFERRAL_MAX_LEVELS of them). */
export const REFERRAL_MAX_LEVELS = 3;
/** The largest share of a fee one level may get, and all levels together. */
export const REFERRAL_MAX_LEVEL_RATE = '0.5';
export const REFERRAL_MAX_TOTAL_RATE = '1';
/** Decimals of a rate (0.12345678 = 12.345678 %). */
export const REFERRAL_RATE_SCALE = 8;
/** The longest period the dashboard sums over, in days. */
export const TEAM_PERIOD_MAX_DAYS = 366;

/** What a commission came from: the source order's kind. */
export const REFERRAL_SOURCE_TYPES = [
  'contract_open',
  'contract_close',
  'spot',
  'bibi',
  'fast',
] as const;
export type ReferralSourceType = (typeof REFERRAL_SOURCE_TYPES)[number];

/** A commission record's status: 1 paid to the inviter, 2 withheld (commissions frozen). */
export const COMMISSION_STATUS = { paid: 1, withheld: 2 } as const;

/** An amount in one currency (sums are kept per currency, never converted). */
export const currencyAmount = z.object({
  currencyId: z.number().int(),
  currencyName: z.string(),
  amount: z.string(),
});
export type CurrencyAmount = z.output<typeof currencyAmount>;

export const teamDashboardQuery = z.object({
  startTime: optionalIsoTime.describe('Start of the period (ISO 8601); default 30 days ago.'),
  endTime: optionalIsoTime.describe('End of the period (ISO 8601); default now.'),
});

export const teamDashboard = z.object({
  startTime: z.string(),
  endTime: z.string(),
  levels: z.number().int().describe('Levels paid by the terms in force (1–3).'),
  teamSize: z.number().int().describe('Members in the levels paid.'),
  directCount: z.number().int().describe('Direct invitees (level 1).'),
  levelCounts: z.array(z.number().int()).describe('Members per level, level 1 first.'),
  firstDepositCount: z
    .number()
    .int()
    .describe('Members whose first approved deposit fell in the period.'),
  depositsToday: z.array(currencyAmount).describe("The team's approved deposits today (UTC)."),
  depositsPeriod: z.array(currencyAmount).describe("The team's approved deposits in the period."),
  commissionPeriod: z.array(currencyAmount).describe('Commissions paid to the user in the period.'),
  commissionTotal: z.array(currencyAmount).describe('Commissions paid to the user, ever.'),
  frozen: z.boolean().describe("Whether the user's commissions are frozen (withheld)."),
});
export type TeamDashboard = z.output<typeof teamDashboard>;

export const lowerTeamQuery = pageQuery.extend({
  teamLevel: intField(1, REFERRAL_MAX_LEVELS).describe('1 direct invitees, 2 theirs, 3 theirs.'),
});

export const teamMember = z.object({
  level: z.number().int(),
  userAccount: z.string().describe('Masked.'),
  joinTime: z.string(),
  firstDeposit: z.number().int().describe('1 when the member made an approved deposit, else 0.'),
});
export type TeamMember = z.output<typeof teamMember>;

export const commissionListQuery = pageQuery.extend({
  level: optionalInt(1, REFERRAL_MAX_LEVELS),
});

export const commissionRecord = z.object({
  id: z.number().int(),
  level: z.number().int(),
  memberAccount: z.string().describe('The member who paid the fee, masked.'),
  sourceType: z.enum(REFERRAL_SOURCE_TYPES),
  sourceId: z.number().int(),
  orderNo: z.string(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  fee: z.string(),
  rate: z.string(),
  amount: z.string(),
  status: z.number().int().describe('1 paid, 2 withheld (commissions frozen).'),
  chargeTime: z.string().describe('When the fee was charged.'),
  createTime: z.string(),
});
export type CommissionRecord = z.output<typeof commissionRecord>;

export const referralTerms = z.object({
  levels: z.number().int(),
  rates: z
    .array(z.string())
    .describe("Each paid level's share of a fee (0.2 = 20 %), level 1 first."),
  effectiveFrom: z.string().nullable().describe('Since when; null: no commission is paid.'),
});
export type ReferralTerms = z.output<typeof referralTerms>;

// ---------------------------------------------------------------- the console

/** A level's share of a fee, as a decimal string (0.2 = 20 %), at most 50 %. */
function rateField() {
  return safeString(32).transform((value, context) => {
    const parsed = parseDecimal(value.trim(), {
      sign: 'nonNegative',
      maxScale: REFERRAL_RATE_SCALE,
      max: REFERRAL_MAX_LEVEL_RATE,
    });
    if (!parsed.ok) {
      context.addIssue({
        code: 'custom',
        message: parsed.problem === 'range' ? 'hint_referralRateTooHigh' : 'hint_paramInvalid',
      });
      return z.NEVER;
    }
    return parsed.value;
  });
}

export const referralTermsSaveBody = z
  .object({
    levels: intField(1, REFERRAL_MAX_LEVELS),
    rate1: rateField(),
    rate2: rateField().optional(),
    rate3: rateField().optional(),
  })
  .superRefine((body, context) => {
    const rates = [body.rate1, body.rate2 ?? '0', body.rate3 ?? '0'];
    // A rate refused on its own field already said why.
    if (!rates.every((rate) => isDecimalString(rate))) return;
    rates.forEach((rate, at) => {
      if (at >= body.levels && gt(rate, '0'))
        context.addIssue({
          code: 'custom',
          path: [`rate${at + 1}`],
          message: 'hint_referralRateBeyondLevels',
        });
    });
    if (
      gt(
        rates.reduce((total, rate) => add(total, rate), '0'),
        REFERRAL_MAX_TOTAL_RATE,
      )
    )
      context.addIssue({ code: 'custom', path: ['rate1'], message: 'hint_referralRatesTotal' });
  });
export type ReferralTermsSaveBody = z.output<typeof referralTermsSaveBody>;

export const consoleReferralTermsRow = z.object({
  id: z.number().int(),
  levels: z.number().int(),
  rates: z.array(z.string()),
  effectiveFrom: z.string(),
  operatorName: z.string(),
});
export type ConsoleReferralTermsRow = z.output<typeof consoleReferralTermsRow>;

export const consoleReferralTerms = z.object({
  current: consoleReferralTermsRow.nullable(),
  history: z.array(consoleReferralTermsRow).describe('Every change, newest first (at most 100).'),
});
export type ConsoleReferralTerms = z.output<typeof consoleReferralTerms>;

export const referralFreezeBody = z.object({
  userId: intField(1),
  reason: text(500, 1, 'multiLine'),
});
export type ReferralFreezeBody = z.output<typeof referralFreezeBody>;

export const referralFreeze = z.object({
  userId: z.number().int(),
  userAccount: z.string(),
  reason: z.string(),
  operatorName: z.string(),
  frozenAt: z.string(),
});
export type ReferralFreeze = z.output<typeof referralFreeze>;

export const referralUserQuery = z.object({ userId: intField(1) });

export const consoleReferralUser = z.object({
  userId: z.number().int(),
  userAccount: z.string(),
  inviteCode: z.string(),
  inviter: z.object({ id: z.number().int(), userAccount: z.string() }).nullable(),
  levelCounts: z.array(z.number().int()).describe('Members per level (1–3), level 1 first.'),
  commissionPaid: z.array(currencyAmount),
  commissionWithheld: z.array(currencyAmount),
  freeze: referralFreeze.nullable(),
});
export type ConsoleReferralUser = z.output<typeof consoleReferralUser>;

export const consoleCommissionQuery = pageQuery.extend({
  inviterId: optionalInt(1),
  payerId: optionalInt(1),
});

export const consoleCommission = commissionRecord.extend({
  inviterId: z.number().int(),
  inviterAccount: z.string(),
  payerId: z.number().int(),
  payerAccount: z.string(),
  entryId: z.number().int().nullable().describe('The ledger entry that paid it.'),
});
export type ConsoleCommission = z.output<typeof consoleCommission>;

export const referralReportQuery = z.object({
  startTime: optionalIsoTime,
  endTime: optionalIsoTime,
});

export const referralReport = z.object({
  startTime: z.string(),
  endTime: z.string(),
  topInviters: z.array(
    z.object({
      userId: z.number().int(),
      userAccount: z.string(),
      currencyName: z.string(),
      amount: z.string(),
      commissions: z.number().int(),
    }),
  ),
  perDay: z.array(
    z.object({
      day: z.string().describe('YYYY-MM-DD (UTC).'),
      currencyName: z.string(),
      amount: z.string(),
      commissions: z.number().int(),
    }),
  ),
});
export type ReferralReport = z.output<typeof referralReport>;
