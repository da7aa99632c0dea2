/**
 * Loan money figures (issue 23), one function each, called by the server when it accrues,
 * settles and splits, and by the app's confirm screens before the user confirms (ARCHITECTURE
 * rule 2): the total repayment shown on applying, the interest a day bears, the interest of the
 * days not yet accrued, and how a repayment splits into interest and principal, are the figures
 * the ledger then moves.
 *
 * The days of a loan. A loan's first day is the UTC date it was disbursed (day 1), its day n the
 * date n − 1 days later. A day is charged once it has ended with the loan still open (whole days,
 * as staking counts them): repaying on the day of disbursement costs nothing, repaying on its
 * due date costs the days before it. The due date is the disbursement date plus the term: repaid
 * on or before it, no day beyond the term is charged. A day's interest is the principal
 * outstanding at its end × the day's rate, rounded down to the currency's scale: days 1 to
 * `interestFreeDays` bear none, the days of the term the daily rate, each day after the term (the
 * due date itself once it ended unpaid, and every day after) the overdue daily rate.
 *
 * Repayments pay the interest due first, then the principal.
 *
 * No zod here: the app's confirm screens import this without the schemas.
 */
import { add, gt, isNegative, min, mul, normalize, sub, toScale } from './money';
import type { DecimalInput, DecimalString } from './money';

/** A loan's state: under review, active (disbursed, open), repaid in full, rejected. */
export const LOAN_STATUS = { reviewing: 0, active: 1, repaid: 2, rejected: 3 } as const;
export type LoanStatus = (typeof LOAN_STATUS)[keyof typeof LOAN_STATUS];

/**
 * How a product's interest is settled: `daily` taken from the available balance as each day is
 * accrued (what the balance cannot cover stays due, never a negative balance), or `atRepayment`
 * kept due until the user repays.
 */
export const LOAN_SETTLEMENT = { daily: 1, atRepayment: 2 } as const;
export type LoanSettlement = (typeof LOAN_SETTLEMENT)[keyof typeof LOAN_SETTLEMENT];

/** A product's state: open to applications, or closed (its open loans run on unchanged). */
export const LOAN_PRODUCT_STATUS = { closed: 0, open: 1 } as const;

/** The kinds of field an application may ask, as the console configures them. */
export const LOAN_FIELD_TYPES = ['text', 'number', 'choice', 'image'] as const;
export type LoanFieldType = (typeof LOAN_FIELD_TYPES)[number];

/** Bounds of what a product and an application hold. */
export const LOAN_LIMITS = {
  nameMax: 64,
  descriptionMax: 2000,
  fieldsMax: 12,
  imageFieldsMax: 4,
  fieldLabelMax: 120,
  choicesMax: 20,
  textAnswerMax: 500,
  termDaysMax: 3650,
  maxOpenLoansMax: 100,
  /** A daily rate of at most 10 % (an overdue one too). */
  dailyRateMax: '0.1',
} as const;

/** Reminders go this many days before the due date (and on each overdue day). */
export const LOAN_REMINDER_DAYS = [3, 1] as const;

/** The kind of a day of a loan: without interest, within the term, or overdue. */
export type LoanDayKind = 'free' | 'normal' | 'overdue';

/** A loan's terms, copied from its product when the user applied (never changed after). */
export interface LoanTerms {
  termDays: number;
  interestFreeDays: number;
  dailyRate: DecimalInput;
  overdueDailyRate: DecimalInput;
}

function checkScale(scale: number): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > 18)
    throw new RangeError(`A currency's scale is a whole number from 0 to 18, not ${scale}`);
}

function checkDay(day: number): void {
  if (!Number.isSafeInteger(day) || day < 1)
    throw new RangeError(`A loan's day is a whole number from 1, not ${day}`);
}

/** Which rate day `day` (from 1) of a loan bears. */
export function loanDayKind(day: number, terms: LoanTerms): LoanDayKind {
  checkDay(day);
  if (day <= terms.interestFreeDays) return 'free';
  return day <= terms.termDays ? 'normal' : 'overdue';
}

/** The daily rate of a kind of day. */
export function loanDayRate(kind: LoanDayKind, terms: LoanTerms): DecimalString {
  if (kind === 'free') return '0';
  return normalize(kind === 'normal' ? terms.dailyRate : terms.overdueDailyRate);
}

/** The interest of day `day` on `principal`: principal × the day's rate, rounded down. */
export function loanDayInterest(
  principal: DecimalInput,
  day: number,
  terms: LoanTerms,
  scale: number,
): DecimalString {
  checkScale(scale);
  return toScale(mul(principal, loanDayRate(loanDayKind(day, terms), terms)), scale, 'down');
}

/** How many of the days `from`..`to` (inclusive, from 1) are of each kind. */
export function loanDaysByKind(
  from: number,
  to: number,
  terms: LoanTerms,
): Record<LoanDayKind, number> {
  checkDay(from);
  if (to < from) return { free: 0, normal: 0, overdue: 0 };
  const overlap = (first: number, last: number) =>
    Math.max(0, Math.min(to, last) - Math.max(from, first) + 1);
  const free = Math.max(0, terms.interestFreeDays);
  return {
    free: overlap(1, free),
    normal: overlap(free + 1, terms.termDays),
    overdue: overlap(Math.max(free, terms.termDays) + 1, Number.MAX_SAFE_INTEGER),
  };
}

/**
 * The interest of days `from`..`to` on a principal that stays the same over them (each day
 * rounded down on its own, as the days are accrued one by one).
 */
export function loanInterestForDays(
  principal: DecimalInput,
  from: number,
  to: number,
  terms: LoanTerms,
  scale: number,
): DecimalString {
  checkScale(scale);
  const days = loanDaysByKind(from, to, terms);
  const normal = toScale(mul(principal, terms.dailyRate), scale, 'down');
  const overdue = toScale(mul(principal, terms.overdueDailyRate), scale, 'down');
  return toScale(add(mul(normal, String(days.normal)), mul(overdue, String(days.overdue))), scale);
}

export interface LoanRepaymentAtTerm {
  /** The interest of the whole term (the free days bear none). */
  interest: DecimalString;
  /** Principal plus that interest: what repaying on the due date costs. */
  total: DecimalString;
  /** The interest of one day of the term, and of one overdue day. */
  dailyInterest: DecimalString;
  overdueDailyInterest: DecimalString;
}

/** What a loan of `principal` costs repaid in full on its due date (the confirm screen's total). */
export function loanRepaymentAtTerm(
  principal: DecimalInput,
  terms: LoanTerms,
  scale: number,
): LoanRepaymentAtTerm {
  checkScale(scale);
  const interest =
    terms.termDays >= 1 ? loanInterestForDays(principal, 1, terms.termDays, terms, scale) : '0';
  return {
    interest,
    total: toScale(add(principal, interest), scale),
    dailyInterest: toScale(mul(principal, terms.dailyRate), scale, 'down'),
    overdueDailyInterest: toScale(mul(principal, terms.overdueDailyRate), scale, 'down'),
  };
}

export interface LoanRepaymentSplit {
  /** Of the amount, what pays interest due (first). */
  interest: DecimalString;
  /** Then what pays principal. */
  principal: DecimalString;
  /** What stays due after it: interest and principal. */
  interestLeft: DecimalString;
  principalLeft: DecimalString;
  /** The loan is repaid in full. */
  repaid: boolean;
}

/**
 * How a repayment of `amount` splits: interest due first, then principal. The amount must be
 * positive and at most what is due (interest plus principal).
 */
export function loanRepaymentSplit(
  amount: DecimalInput,
  due: { interest: DecimalInput; principal: DecimalInput },
): LoanRepaymentSplit {
  if (!gt(amount, '0')) throw new RangeError('A repayment is a positive amount');
  if (isNegative(due.interest) || isNegative(due.principal))
    throw new RangeError('What is due is never negative');
  if (gt(amount, add(due.interest, due.principal)))
    throw new RangeError('A repayment is at most what is due');
  const interest = min(amount, due.interest);
  const principal = sub(amount, interest);
  const interestLeft = sub(due.interest, interest);
  const principalLeft = sub(due.principal, principal);
  return {
    interest,
    principal,
    interestLeft,
    principalLeft,
    repaid: !gt(interestLeft, '0') && !gt(principalLeft, '0'),
  };
}

/** What a loan's whole repayment is now: interest due (accrued and not yet accrued) and principal. */
export function loanTotalDue(due: { interest: DecimalInput; principal: DecimalInput }) {
  return add(due.interest, due.principal);
}

// ---------------------------------------------------------------- dates

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateValue(date: string): number {
  if (!DATE.test(date)) throw new RangeError(`Not a date: ${date}`);
  const value = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(value)) throw new RangeError(`Not a date: ${date}`);
  return value;
}

/** The UTC date ('YYYY-MM-DD') of an instant. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** `date` plus `days` days. */
export function addDaysTo(date: string, days: number): string {
  return new Date(dateValue(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateValue(to) - dateValue(from)) / DAY_MS);
}

/** A loan's due date: its first date plus its term. */
export function loanDueDate(startDate: string, termDays: number): string {
  return addDaysTo(startDate, termDays);
}

/**
 * How many of a loan's days have ended on date `today` (its days charged so far): the days from
 * its first date to the day before `today`.
 */
export function loanDaysEnded(startDate: string, today: string): number {
  return Math.max(0, daysBetween(startDate, today));
}

/** How many days past its due date a loan open on `today` is (0: not overdue). */
export function loanOverdueDays(dueDate: string, today: string): number {
  return Math.max(0, daysBetween(dueDate, today));
}

/**
 * The interest due on `today` of an open loan: what was accrued and not paid, plus the days that
 * ended and are not accrued yet (the daily run accrues them a few minutes after midnight; a
 * repayment accrues them first), on the principal outstanding.
 */
export function loanInterestDueOn(
  loan: {
    startDate: string;
    accruedDays: number;
    interestDue: DecimalInput;
    principal: DecimalInput;
  },
  today: string,
  terms: LoanTerms,
  scale: number,
): DecimalString {
  const ended = loanDaysEnded(loan.startDate, today);
  if (ended <= loan.accruedDays || !gt(loan.principal, '0')) return normalize(loan.interestDue);
  return toScale(
    add(
      loan.interestDue,
      loanInterestForDays(loan.principal, loan.accruedDays + 1, ended, terms, scale),
    ),
    scale,
  );
}
