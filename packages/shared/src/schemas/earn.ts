/**
 * Earn (issue 23): lock mining (financialProduct, financialOrder) and staking (stakingProduct,
 * stakingOrder) — products with one published daily rate (or a published schedule by amount
 * tier), orders whose funds move from the available balance to a `staked` ledger account, daily
 * interest from the platform's interest account, and early redemption with its penalty quoted
 * first. The figures come from ../earn.ts, which the server pays with.
 */
import { z } from 'zod';
import {
  codeField,
  decimalAmount,
  intField,
  optionalFlag,
  optionalInt,
  optionalText,
  pageQuery,
  requestId,
  text,
} from './common';
import { languageTexts } from './operators';
import { proofImage } from './wallet';
import {
  EARN_KINDS,
  EARN_LIMITS,
  EARN_ORDER_STATUS,
  EARN_PAYOUTS,
  EARN_PRODUCT_STATUS,
} from '../earn';
import { gt, isDecimalString, isPositive } from '../money';

const rate = () => decimalAmount({ maxScale: EARN_LIMITS.rateScale, max: EARN_LIMITS.rateMax });
const orderStatus = codeField(Object.values(EARN_ORDER_STATUS));
const optionalStatus = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  orderStatus.optional(),
);

// ---------------------------------------------------------------- the app

export const rateTier = z.object({
  minAmount: z.string().describe('The tier applies from this amount (inclusive).'),
  dailyRate: z.string(),
});

export const earnProduct = z.object({
  id: z.number().int(),
  kind: z.enum(EARN_KINDS),
  name: z.string().describe("In the request's language (English when it has none)."),
  description: z.string(),
  image: z.string().describe("The image's URL (a path on the API line), or ''."),
  currencyId: z.number().int(),
  currency: z.string(),
  scale: z.number().int().describe("The currency's decimals: interest is rounded down to them."),
  termDays: z.number().int().nullable().describe('Interest days of an order; null: flexible.'),
  dailyRate: z.string().describe('The one published daily rate (0.001 is 0.1 % a day).'),
  rateTiers: z
    .array(rateTier)
    .describe('A published schedule of daily rates by amount, when the product has one.'),
  minAmount: z.string(),
  maxAmount: z.string().nullable(),
  maxOrdersPerUser: z.number().int().nullable().describe('Open orders a user may hold at once.'),
  capacity: z.string().nullable().describe('The most the product holds at once; null: no cap.'),
  remainingCapacity: z.string().nullable(),
  minAuthLevel: z.number().int().describe('Identity level needed (-1: none, 0 basic, 1 advanced).'),
  payout: z.enum(EARN_PAYOUTS),
  compounding: z.boolean().describe("Each day's interest joins the stake and earns from then on."),
  penaltyRate: z
    .string()
    .describe('Early-redemption penalty per day left of the term, as a share of the stake.'),
  requiresReview: z.boolean().describe('Orders wait for an operator before they start.'),
  status: z.number().int().describe('1 open to new orders, 0 closed to them.'),
  openOrders: z
    .number()
    .int()
    .nullable()
    .describe("The signed-in user's open orders of it, in the session's book."),
});
export type EarnProduct = z.output<typeof earnProduct>;

export const earnProductListQuery = pageQuery;
export const earnImageQuery = z.object({ id: intField(1), v: optionalText(64) });
export const earnProductQuery = z.object({ id: intField(1) });

export const earnOrder = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  kind: z.enum(EARN_KINDS),
  productId: z.number().int(),
  productName: z.string(),
  image: z.string(),
  currencyId: z.number().int(),
  currency: z.string(),
  scale: z.number().int(),
  amount: z.string().describe('The principal placed.'),
  balance: z
    .string()
    .describe('What the order holds now (the principal, plus compounded interest).'),
  dailyRate: z.string().describe('The rate copied from the product when the order was placed.'),
  termDays: z.number().int().nullable(),
  payout: z.enum(EARN_PAYOUTS),
  compounding: z.boolean(),
  penaltyRate: z.string(),
  status: z.number().int().describe('0 pending, 1 active, 2 completed, 3 rejected, 4 redeemed.'),
  firstDay: z.string().nullable().describe('The first interest day (UTC), once active.'),
  endDay: z.string().nullable().describe('The last interest day (UTC); null: flexible.'),
  daysAccrued: z.number().int(),
  interestPaid: z.string().describe('Interest credited so far (paid out, or added to the stake).'),
  interestAccrued: z.string().describe('Interest accrued for payment at maturity, not yet paid.'),
  expectedInterest: z
    .string()
    .nullable()
    .describe('What the whole term pays (the confirm screen showed it); null: flexible.'),
  nextInterest: z.string().describe("The next day's interest, while active."),
  penalty: z.string().nullable(),
  returned: z.string().nullable().describe('What an early redemption returned.'),
  rejectReason: z.string().nullable(),
  demo: z.boolean(),
  createTime: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
});
export type EarnOrder = z.output<typeof earnOrder>;

export const earnOrderListQuery = pageQuery.extend({
  status: optionalStatus.describe('Only orders of this status.'),
});

export const earnOrderAddBody = z.object({
  productId: intField(1),
  amount: decimalAmount(),
  requestId,
  dailyRate: z
    .preprocess((value) => (value === '' || value === null ? undefined : value), rate().optional())
    .describe(
      'The rate the user was shown: refused (`hint_earnRateChanged`) when the product now gives another.',
    ),
});
export type EarnOrderAddBody = z.output<typeof earnOrderAddBody>;

export const earnOrderQuery = z.object({ id: intField(1) });

export const earnRedemptionQuote = z.object({
  remainingDays: z.number().int(),
  penalty: z.string(),
  returned: z.string(),
  forfeited: z.string().describe('Interest accrued for maturity that redeeming now does not pay.'),
});

export const redemptionPreview = z.object({ order: earnOrder, quote: earnRedemptionQuote });
export type RedemptionPreview = z.output<typeof redemptionPreview>;

export const earnRedemptionBody = z.object({
  id: intField(1),
  requestId,
  penalty: z
    .preprocess(
      (value) => (value === '' || value === null ? undefined : value),
      decimalAmount({ sign: 'nonNegative' }).optional(),
    )
    .describe(
      'The penalty the user was shown: refused (`hint_earnPenaltyChanged`) when it is no longer the one.',
    ),
});

export const financialAnalysis = z.object({
  orderCount: z.number().int().describe('Active orders.'),
  pendingCount: z.number().int(),
  currencies: z.array(
    z.object({
      currencyId: z.number().int(),
      currency: z.string(),
      orderCount: z.number().int(),
      amountHeld: z.string(),
      interestPaid: z.string(),
      interestAccrued: z.string(),
      expectedToday: z.string().describe("The next day's interest of the active orders."),
    }),
  ),
});
export type FinancialAnalysis = z.output<typeof financialAnalysis>;

export const interestRecordQuery = pageQuery.extend({
  stakingOrderId: optionalInt(1).describe("One order's records; absent: all the user's."),
});

export const interestRecord = z.object({
  id: z.string(),
  orderId: z.number().int(),
  orderNo: z.string(),
  day: z.string().describe('The UTC day the interest is for.'),
  amount: z.string(),
  balance: z.string().describe('The stake the interest was computed on.'),
  currency: z.string(),
  credited: z
    .enum(['available', 'stake', 'maturity'])
    .describe('Paid to the available balance, added to the stake, or held for maturity.'),
  entryId: z.number().int().nullable(),
  createTime: z.string(),
});
export type InterestRecord = z.output<typeof interestRecord>;

// ---------------------------------------------------------------- the console

export const consoleEarnProduct = earnProduct
  .omit({ name: true, description: true, openOrders: true })
  .extend({
    name: z.record(z.string(), z.string()),
    description: z.record(z.string(), z.string()),
    held: z.string().describe('Principal of live pending and active orders.'),
    activeOrders: z.number().int(),
    pendingOrders: z.number().int(),
    sort: z.number().int(),
    createTime: z.string(),
    updateTime: z.string(),
  });
export type ConsoleEarnProduct = z.output<typeof consoleEarnProduct>;

const optionalKind = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.enum(EARN_KINDS, { error: 'hint_paramInvalid' }).optional(),
);

export const consoleEarnProductQuery = pageQuery.extend({
  kind: optionalKind,
  status: optionalInt(0, 1),
});

const tierInput = z.object({ minAmount: decimalAmount(), dailyRate: rate() });

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const earnProductSaveBody = z
  .object({
    id: optionalInt(1).describe('The product to change; absent: a new one.'),
    kind: z.enum(EARN_KINDS, { error: 'hint_paramInvalid' }),
    name: languageTexts(EARN_LIMITS.nameMax),
    description: languageTexts(EARN_LIMITS.descriptionMax, 'multiLine'),
    image: z.preprocess(emptyToUndefined, proofImage.optional()),
    removeImage: optionalFlag,
    currencyId: intField(1),
    termDays: optionalInt(1, EARN_LIMITS.termDaysMax).describe(
      'Interest days of an order; absent: flexible (staking only).',
    ),
    dailyRate: rate(),
    rateTiers: z.array(tierInput).max(EARN_LIMITS.tiersMax).default([]),
    minAmount: decimalAmount(),
    maxAmount: z.preprocess(emptyToUndefined, decimalAmount().optional()),
    maxOrdersPerUser: optionalInt(1, EARN_LIMITS.ordersPerUserMax),
    capacity: z.preprocess(emptyToUndefined, decimalAmount().optional()),
    minAuthLevel: intField(-1, 1),
    payout: z.enum(EARN_PAYOUTS, { error: 'hint_paramInvalid' }),
    compounding: optionalFlag,
    penaltyRate: decimalAmount({
      sign: 'nonNegative',
      maxScale: EARN_LIMITS.rateScale,
      max: EARN_LIMITS.rateMax,
    }),
    requiresReview: optionalFlag,
    sort: optionalInt(0, 1_000_000),
  })
  .superRefine((body, context) => {
    if (!body.name)
      context.addIssue({ code: 'custom', path: ['name'], message: 'hint_langEnglishRequired' });
    if (body.kind === 'financial' && body.termDays === undefined)
      context.addIssue({ code: 'custom', path: ['termDays'], message: 'hint_earnTermRequired' });
    if (body.kind === 'financial' && body.compounding)
      context.addIssue({
        code: 'custom',
        path: ['compounding'],
        message: 'hint_earnNoCompounding',
      });
    const flexible = body.termDays === undefined;
    if ((flexible || body.compounding) && body.payout !== 'daily')
      context.addIssue({ code: 'custom', path: ['payout'], message: 'hint_earnPayoutDaily' });
    if (flexible && isDecimalString(body.penaltyRate) && isPositive(body.penaltyRate))
      context.addIssue({
        code: 'custom',
        path: ['penaltyRate'],
        message: 'hint_earnFlexibleNoPenalty',
      });
    // Compared only when both are amounts: a refused one is named on its own field.
    if (
      isDecimalString(body.minAmount) &&
      isDecimalString(body.maxAmount) &&
      gt(body.minAmount, body.maxAmount)
    )
      context.addIssue({ code: 'custom', path: ['maxAmount'], message: 'hint_earnMaxBelowMin' });
    const minimums = body.rateTiers.map((tier) => tier.minAmount).filter(isDecimalString);
    if (new Set(minimums.map((value) => value)).size !== minimums.length)
      context.addIssue({ code: 'custom', path: ['rateTiers'], message: 'hint_earnTierDuplicate' });
  });
export type EarnProductSaveBody = z.output<typeof earnProductSaveBody>;
export type EarnProductSaveInput = z.input<typeof earnProductSaveBody>;

export const earnProductStatusBody = z.object({
  id: intField(1),
  status: codeField(Object.values(EARN_PRODUCT_STATUS)),
});

export const consoleEarnOrder = earnOrder.extend({
  userId: z.number().int(),
  userAccount: z.string(),
  reviewTime: z.string().nullable(),
});
export type ConsoleEarnOrder = z.output<typeof consoleEarnOrder>;

export const consoleEarnOrderQuery = pageQuery.extend({
  status: optionalStatus,
  kind: optionalKind,
  productId: optionalInt(1),
  userAccount: optionalText(128).describe('A user: account (email or phone) or id.'),
});

export const earnOrderIdBody = z.object({ id: intField(1) });
export const earnOrderRejectBody = z.object({ id: intField(1), reason: text(500, 1, 'multiLine') });

export const earnReportRow = z.object({
  productId: z.number().int(),
  kind: z.enum(EARN_KINDS),
  name: z.string(),
  currencyId: z.number().int(),
  currency: z.string(),
  status: z.number().int(),
  pendingOrders: z.number().int(),
  activeOrders: z.number().int(),
  completedOrders: z.number().int(),
  redeemedOrders: z.number().int(),
  amountHeld: z.string().describe('The stakes of pending and active orders.'),
  interestPaid: z.string().describe('Interest credited, from the interest records.'),
  interestAccrued: z.string().describe('Accrued for maturity, not yet paid.'),
  penalties: z.string(),
});
export type EarnReportRow = z.output<typeof earnReportRow>;

export const earnReportQuery = z.object({
  demo: optionalFlag.describe('true: the demo book (virtual funds); else the live book.'),
});
