/**
 * Earn (issue 23): lock mining (fixed-term deposits) and staking. The figures of an order, one
 * function each, called by the server that pays them and by the app's confirm screens that show
 * them before the user confirms (ARCHITECTURE rule 2): what is shown is what is paid.
 *
 * - A product publishes one daily rate, or a schedule of rates by amount tier (never a random draw
 *   inside a range); the order copies the rate of its amount when it is placed, so a later change
 *   of the product never touches it.
 * - Interest starts the UTC day after the order starts. Each day's interest is the balance × the
 *   daily rate plus the remainder carried from the day before, rounded down once at the currency's
 *   scale; what rounding left is carried to the next day. Without compounding the balance stays the
 *   principal, so the interest of the first k days is exactly principal × rate × k rounded down
 *   once (the remainder never exceeds one unit of the currency), and the whole term pays
 *   principal × rate × days rounded down once. With compounding each day's interest joins the
 *   balance and earns from the next day.
 * - An early redemption of a fixed-term order costs a penalty: the balance × the penalty rate × the
 *   days of the term not yet begun, rounded down, at most the balance. Interest already paid stays
 *   paid; interest accrued for payment at maturity is not paid.
 */
import {
  gt,
  gte,
  isNegative,
  isPositive,
  lte,
  min,
  mul,
  normalize,
  sub,
  sum,
  toScale,
  type DecimalInput,
  type DecimalString,
} from './money';

/** The two kinds of earn product: lock mining (financialProduct) and staking (stakingProduct). */
export const EARN_KINDS = ['financial', 'staking'] as const;
export type EarnKind = (typeof EARN_KINDS)[number];

/**
 * An order's state, as the original platform numbered them: 0 pending (its product requires an
 * operator's review), 1 active, 2 completed (matured: principal and interest paid), 3 rejected (the
 * funds released), 4 redeemed early.
 */
export const EARN_ORDER_STATUS = {
  pending: 0,
  active: 1,
  completed: 2,
  rejected: 3,
  redeemed: 4,
} as const;
export type EarnOrderStatus = (typeof EARN_ORDER_STATUS)[keyof typeof EARN_ORDER_STATUS];

/** A product open to new orders (1) or closed to them (0); its open orders run on either way. */
export const EARN_PRODUCT_STATUS = { closed: 0, open: 1 } as const;

/**
 * When interest is paid: `daily` to the available balance every day (added to the stake instead
 * when the product compounds), or `maturity` all at once with the principal.
 */
export const EARN_PAYOUTS = ['daily', 'maturity'] as const;
export type EarnPayout = (typeof EARN_PAYOUTS)[number];

/** Bounds of what a product states. */
export const EARN_LIMITS = {
  /** The longest term, in days (ten years): the schedule of an order is computed day by day. */
  termDaysMax: 3650,
  /** Rates (daily and penalty) are fractions with at most 8 decimals, at most 1 (100 %) a day. */
  rateScale: 8,
  rateMax: '1',
  tiersMax: 10,
  nameMax: 80,
  descriptionMax: 2000,
  ordersPerUserMax: 1000,
} as const;

// ---------------------------------------------------------------- the rate of an amount

export interface RateTier {
  /** The tier applies from this amount (inclusive) up to the next tier's minimum. */
  minAmount: DecimalString;
  dailyRate: DecimalString;
}

/**
 * The daily rate an order of `amount` gets: the rate of the tier with the largest minimum at or
 * below the amount when the product publishes tiers, else the product's one rate.
 */
export function rateForAmount(
  amount: DecimalInput,
  product: { dailyRate: DecimalInput; rateTiers?: readonly RateTier[] | null },
): DecimalString {
  let chosen: RateTier | undefined;
  for (const tier of product.rateTiers ?? []) {
    if (gte(amount, tier.minAmount) && (!chosen || gt(tier.minAmount, chosen.minAmount)))
      chosen = tier;
  }
  return normalize(chosen ? chosen.dailyRate : product.dailyRate);
}

// ---------------------------------------------------------------- interest

function checkScale(scale: number): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > 18)
    throw new RangeError(`A currency's scale is a whole number from 0 to 18, not ${scale}`);
}

function checkDays(days: number): void {
  if (!Number.isInteger(days) || days < 0 || days > EARN_LIMITS.termDaysMax)
    throw new RangeError(`A number of days from 0 to ${EARN_LIMITS.termDaysMax}, not ${days}`);
}

export interface DayAccrual {
  /** The day's interest, at the currency's scale (rounded down). */
  interest: DecimalString;
  /** What rounding left, carried to the next day (less than one unit of the currency). */
  carry: DecimalString;
}

/**
 * One day's interest of a balance: balance × daily rate + the carried remainder, rounded down at
 * the currency's scale, and the new remainder. The server's daily job computes the same in SQL
 * (trunc(balance × rate + carry, scale)); the tests hold the two equal.
 */
export function accrueDay(
  balance: DecimalInput,
  dailyRate: DecimalInput,
  carry: DecimalInput,
  scale: number,
): DayAccrual {
  checkScale(scale);
  const exact = sum([mul(balance, dailyRate), carry]);
  const interest = toScale(exact, scale, 'down');
  return { interest: normalize(interest), carry: sub(exact, interest) };
}

export interface InterestTerms {
  /** The principal of the order. */
  amount: DecimalInput;
  /** The order's daily rate (its tier's, copied when it was placed). */
  dailyRate: DecimalInput;
  /** The number of interest days. */
  days: number;
  /** The currency's scale. */
  scale: number;
  /** Interest joins the stake every day and earns from the next day. */
  compounding?: boolean;
}

/** Each day's interest over `days` days, in order (day 1 is the day after the order starts). */
export function interestSchedule(terms: InterestTerms): DecimalString[] {
  checkDays(terms.days);
  const days: DecimalString[] = [];
  let balance = normalize(terms.amount);
  let carry = '0';
  for (let day = 1; day <= terms.days; day += 1) {
    const accrued = accrueDay(balance, terms.dailyRate, carry, terms.scale);
    days.push(accrued.interest);
    carry = accrued.carry;
    if (terms.compounding) balance = sum([balance, accrued.interest]);
  }
  return days;
}

/**
 * The interest an order pays over its term, as the confirm screen shows it before buying. Without
 * compounding it is amount × rate × days rounded down once (what the day-by-day schedule adds up
 * to); with compounding, the schedule's sum.
 */
export function expectedInterest(terms: InterestTerms): DecimalString {
  checkDays(terms.days);
  checkScale(terms.scale);
  if (!terms.compounding)
    return normalize(
      toScale(mul(mul(terms.amount, terms.dailyRate), String(terms.days)), terms.scale),
    );
  return sum(interestSchedule(terms));
}

/**
 * The interest of the next day for an order holding `balance` with `carry` left over: the
 * "expected interest today" of the analysis.
 */
export function nextDayInterest(
  balance: DecimalInput,
  dailyRate: DecimalInput,
  carry: DecimalInput,
  scale: number,
): DecimalString {
  return accrueDay(balance, dailyRate, carry, scale).interest;
}

// ---------------------------------------------------------------- redemption

/**
 * The penalty of redeeming early: balance × penalty rate per day × the days left, rounded down at
 * the currency's scale, never more than the balance.
 */
export function redemptionPenalty(
  balance: DecimalInput,
  penaltyRate: DecimalInput,
  remainingDays: number,
  scale: number,
): DecimalString {
  checkScale(scale);
  checkDays(remainingDays);
  if (!isPositive(balance) || !isPositive(penaltyRate) || remainingDays === 0) return '0';
  const penalty = toScale(mul(mul(balance, penaltyRate), String(remainingDays)), scale, 'down');
  return normalize(min(penalty, balance));
}

export interface RedemptionQuote {
  /** Interest days of the term not yet begun (0 for a flexible order). */
  remainingDays: number;
  penalty: DecimalString;
  /** What comes back to the available balance: the balance less the penalty. */
  returned: DecimalString;
  /** Interest accrued for payment at maturity that an early redemption does not pay. */
  forfeited: DecimalString;
}

/**
 * What redeeming an active order today returns. `today` is the UTC day of the redemption;
 * `endDay` the order's last interest day (null: flexible, redeemable any time without penalty).
 * The day's interest is paid at the day's start: redeeming on day d, days d + 1 … endDay are left.
 */
export function redemptionQuote(order: {
  balance: DecimalInput;
  penaltyRate: DecimalInput;
  endDay: string | null;
  today: string;
  scale: number;
  /** Interest accrued but held for maturity (payout `maturity`). */
  accruedUnpaid?: DecimalInput;
}): RedemptionQuote {
  const remainingDays =
    order.endDay === null ? 0 : Math.max(0, earnDaysBetween(order.today, order.endDay));
  const penalty =
    order.endDay === null
      ? '0'
      : redemptionPenalty(
          order.balance,
          order.penaltyRate,
          Math.min(remainingDays, EARN_LIMITS.termDaysMax),
          order.scale,
        );
  const forfeited = normalize(order.accruedUnpaid ?? '0');
  return {
    remainingDays,
    penalty,
    returned: sub(order.balance, penalty),
    forfeited: isNegative(forfeited) ? '0' : forfeited,
  };
}

/**
 * A fixed-term order whose last day has come (`today` on or after `endDay`) is no longer redeemed
 * early: the day's run pays it at maturity, the stake and every day's interest (between midnight
 * and that run an "early" redemption would cost the last day and any interest held for maturity).
 */
export function earnTermEnded(endDay: string | null, today: string): boolean {
  return endDay !== null && today >= endDay;
}

/**
 * An order with a day begun and not yet paid (`today` has come and the day's run has not paid it:
 * between midnight and the run, or longer when the scheduler is behind). It is not redeemed then:
 * the quote would leave that day neither paid nor in the penalty's days, and a day the stake was
 * held would go unpaid; once the run has paid it, the redemption is quoted as usual.
 */
export function earnDayUnsettled(
  order: { firstDay: string | null; daysAccrued: number },
  today: string,
): boolean {
  return order.firstDay !== null && earnAddDays(order.firstDay, order.daysAccrued) <= today;
}

// ---------------------------------------------------------------- UTC days

const DAY_MS = 86_400_000;

/** The UTC day of a time, 'YYYY-MM-DD'. */
export function earnDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** `day` moved by `days` (negative: back). */
export function earnAddDays(day: string, days: number): string {
  return earnDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function earnDaysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * The interest days of an order starting on `startDay` (the day it was bought, or approved when
 * its product requires review): from the next day, `termDays` of them (no last day: flexible).
 */
export function earnTermDays(
  startDay: string,
  termDays: number | null,
): { firstDay: string; endDay: string | null } {
  const firstDay = earnAddDays(startDay, 1);
  return { firstDay, endDay: termDays === null ? null : earnAddDays(startDay, termDays) };
}

/** Whether an amount is within a product's bounds (the maximum absent: none). */
export function withinEarnBounds(
  amount: DecimalInput,
  bounds: { minAmount: DecimalInput; maxAmount: DecimalInput | null },
): boolean {
  return (
    gte(amount, bounds.minAmount) && (bounds.maxAmount === null || lte(amount, bounds.maxAmount))
  );
}
