/**
 * What the loans' flows share: their dependencies, how a loan and a product are shown, the
 * accrual of a loan's ended days (the daily run's and a repayment's, one function, so both charge
 * a day alike), and the notifications of loan events.
 */
import {
  LOAN_STATUS,
  loanDayKind,
  loanDayInterest,
  loanDayRate,
  loanDaysEnded,
  loanInterestDueOn,
  loanOverdueDays,
  normalize,
  sum,
  toScale,
  addDaysTo,
  add,
  sub,
  type ConsoleLoanOrder,
  type LanguageKey,
  type LoanInterestRecord,
  type LoanOrder,
  type LoanProduct,
  type LoanRepayment,
  type LoanTerms,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { pickLanguage } from '../../lib/i18n';
import type { NoticeEvent, NoticeWriter } from '../messages';
import type { Currency, SettingsService } from '../settings';
import type { InterestRow, NewInterest, OrderRow, ProductRow, RepaymentRow } from './repo';

export interface LoansDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  /** Notifications of the user's loan events. */
  notices?: NoticeWriter;
  /** Tells a user's private /ws topics of a change (their `balances`). */
  notify?: (userId: number, topic: string, data: unknown) => void;
  /**
   * The user's verified identity level and the level the `loan` feature needs (the identity
   * module's requirements).
   */
  identityLevels?: (userId: number) => Promise<{ authLevel: number; loanLevel: number }>;
}

/** Unknown currencies show as the spec's '- -', at the ledger's 18 decimals. */
export function currencyOf(currencies: Map<number, Currency>, id: number) {
  const currency = currencies.get(id);
  return { name: currency?.currencyName ?? '- -', scale: currency?.scale ?? 18 };
}

export function termsOf(row: {
  term_days: number;
  interest_free_days: number;
  daily_rate: string;
  overdue_daily_rate: string;
}): LoanTerms {
  return {
    termDays: row.term_days,
    interestFreeDays: row.interest_free_days,
    dailyRate: normalize(row.daily_rate),
    overdueDailyRate: normalize(row.overdue_daily_rate),
  };
}

/** The UTC date of an instant. */
export const dateOf = (at: Date) => at.toISOString().slice(0, 10);

// ---------------------------------------------------------------- products

/** A product's terms as the app and the console both show them (amounts at the currency's scale). */
export function productTerms(row: ProductRow, currency: { scale: number }) {
  return {
    minAmount: toScale(row.min_amount, currency.scale),
    maxAmount: toScale(row.max_amount, currency.scale),
    termDays: row.term_days,
    interestFreeDays: row.interest_free_days,
    dailyRate: normalize(row.daily_rate),
    overdueDailyRate: normalize(row.overdue_daily_rate),
    settlement: row.settlement,
    maxOpenLoans: row.max_open_loans,
    minIdentityLevel: row.min_identity_level,
    status: row.status,
  };
}

export function showProduct(
  row: ProductRow,
  currencies: Map<number, Currency>,
  lang: LanguageKey,
  user: { openLoans: number; identityMet: boolean } | null,
): LoanProduct {
  const currency = currencyOf(currencies, row.currency_id);
  return {
    id: row.id,
    name: pickLanguage(row.name, lang),
    description: pickLanguage(row.description, lang),
    currencyId: row.currency_id,
    currencyName: currency.name,
    scale: currency.scale,
    ...productTerms(row, currency),
    fields: row.fields.map((field) => ({
      key: field.key,
      type: field.type,
      label: pickLanguage(field.label, lang),
      required: field.required,
      options: field.options.map((option) => ({
        value: option.value,
        label: pickLanguage(option.label, lang),
      })),
    })),
    openLoans: user?.openLoans ?? 0,
    identityMet: user ? user.identityMet : null,
  };
}

// ---------------------------------------------------------------- loans

/** What dueNow reads of a loan. */
export type DueRow = Pick<
  OrderRow,
  | 'status'
  | 'start_date'
  | 'accrued_days'
  | 'interest_due'
  | 'principal'
  | 'term_days'
  | 'interest_free_days'
  | 'daily_rate'
  | 'overdue_daily_rate'
>;

/** What an active loan owes on `today`, with its ended days not yet accrued. */
export function dueNow(row: DueRow, today: string, scale: number) {
  if (row.status !== LOAN_STATUS.active || !row.start_date) {
    const interest = toScale(row.interest_due, scale);
    return { interest, principal: toScale(row.principal, scale) };
  }
  const interest = loanInterestDueOn(
    {
      startDate: row.start_date,
      accruedDays: row.accrued_days,
      interestDue: normalize(row.interest_due),
      principal: normalize(row.principal),
    },
    today,
    termsOf(row),
    scale,
  );
  return { interest: toScale(interest, scale), principal: toScale(row.principal, scale) };
}

export function showOrder(
  row: OrderRow,
  currencies: Map<number, Currency>,
  lang: LanguageKey,
  today: string,
): LoanOrder {
  const currency = currencyOf(currencies, row.currency_id);
  const scale = currency.scale;
  const active = row.status === LOAN_STATUS.active && row.start_date !== null;
  const due = dueNow(row, today, scale);
  const pending = active ? sub(due.interest, row.interest_due) : '0';
  const overdueDays = active && row.due_date ? loanOverdueDays(row.due_date, today) : 0;
  return {
    id: row.id,
    orderNo: row.order_no,
    productId: row.product_id,
    productName: pickLanguage(row.product_name, lang),
    currencyId: row.currency_id,
    currencyName: currency.name,
    scale,
    amount: toScale(row.amount, scale),
    approvedAmount: row.approved_amount === null ? null : toScale(row.approved_amount, scale),
    termDays: row.term_days,
    interestFreeDays: row.interest_free_days,
    dailyRate: normalize(row.daily_rate),
    overdueDailyRate: normalize(row.overdue_daily_rate),
    settlement: row.settlement,
    status: row.status,
    overdue: overdueDays > 0,
    overdueDays,
    startDate: row.start_date,
    dueDate: row.due_date,
    daysUsed: active ? loanDaysEnded(row.start_date!, today) : row.accrued_days,
    principal: due.principal,
    interestDue: due.interest,
    totalDue: toScale(add(due.interest, due.principal), scale),
    interestAccrued: toScale(add(row.interest_accrued, pending), scale),
    interestPaid: toScale(row.interest_paid, scale),
    principalRepaid: toScale(row.principal_repaid, scale),
    rejectReason: row.reject_reason,
    createTime: row.created_at.toISOString(),
    reviewTime: row.reviewed_at ? row.reviewed_at.toISOString() : null,
    repaidTime: row.repaid_at ? row.repaid_at.toISOString() : null,
  };
}

export function showConsoleOrder(
  row: OrderRow,
  currencies: Map<number, Currency>,
  today: string,
): ConsoleLoanOrder {
  return {
    ...showOrder(row, currencies, 'en', today),
    userId: row.user_id,
    userAccount: row.user_account,
    book: row.book,
    entryId: row.entry_id,
    reviewedBy: row.reviewer,
  };
}

export function showInterest(
  row: InterestRow,
  currencies: Map<number, Currency>,
): LoanInterestRecord {
  const currency = currencyOf(currencies, row.currency_id);
  return {
    id: row.id,
    loanOrderId: row.loan_id,
    day: row.day,
    dayNumber: row.day_number,
    kind: row.kind,
    principal: toScale(row.principal, currency.scale),
    rate: normalize(row.rate),
    amount: toScale(row.amount, currency.scale),
    settled: toScale(row.settled, currency.scale),
    currencyName: currency.name,
    createTime: row.created_at.toISOString(),
  };
}

export function showRepayment(row: RepaymentRow, currencies: Map<number, Currency>): LoanRepayment {
  const currency = currencyOf(currencies, row.currency_id);
  const scale = currency.scale;
  const interestLeft = toScale(row.interest_left, scale);
  const principalLeft = toScale(row.principal_left, scale);
  return {
    id: row.id,
    orderNo: row.order_no,
    loanOrderId: row.loan_id,
    loanOrderNo: row.loan_order_no,
    currencyId: row.currency_id,
    currencyName: currency.name,
    amount: toScale(row.amount, scale),
    interest: toScale(row.interest, scale),
    principal: toScale(row.principal, scale),
    interestLeft,
    principalLeft,
    repaid: normalize(row.interest_left) === '0' && normalize(row.principal_left) === '0',
    entryId: row.entry_id,
    createTime: row.created_at.toISOString(),
  };
}

// ---------------------------------------------------------------- accrual

export interface Accrual {
  /** The days written: one record each. */
  records: NewInterest[];
  /** Their interest together. */
  interest: string;
  /** The loan's days accrued after it. */
  accruedDays: number;
}

/**
 * The ended days of an active loan not accrued yet on `today` (its days from `accrued_days + 1`
 * to the day before `today`), each on the principal outstanding: no principal changed over them,
 * since every repayment accrues the days before it first.
 */
export function accrualOf(row: OrderRow, today: string, scale: number): Accrual | null {
  if (row.status !== LOAN_STATUS.active || !row.start_date) return null;
  const ended = loanDaysEnded(row.start_date, today);
  if (ended <= row.accrued_days) return null;
  const terms = termsOf(row);
  const principal = normalize(row.principal);
  const records: NewInterest[] = [];
  for (let day = row.accrued_days + 1; day <= ended; day += 1) {
    const kind = loanDayKind(day, terms);
    records.push({
      loanId: row.id,
      day: addDaysTo(row.start_date, day - 1),
      dayNumber: day,
      kind,
      principal,
      rate: loanDayRate(kind, terms),
      amount: loanDayInterest(principal, day, terms, scale),
    });
  }
  return {
    records,
    interest: toScale(sum(records.map((record) => record.amount)), scale),
    accruedDays: ended,
  };
}

// ---------------------------------------------------------------- notifications

const link = (id: number) => ({ route: 'loanDetail', query: { id } });

const DECISION_TYPE = { approved: 'loanApproved', rejected: 'loanRejected' } as const;

/** An application's decision: the amount, its currency, the loan number and the due date or reason. */
function decisionNotice(
  decision: keyof typeof DECISION_TYPE,
  row: OrderRow,
  amount: string,
  currency: string,
  last: string,
): NoticeEvent {
  return {
    userId: row.user_id,
    type: DECISION_TYPE[decision],
    ref: `loan:${row.id}:${decision}`,
    params: [amount, currency, row.order_no, last],
    link: link(row.id),
  };
}

export const approvedNotice = (row: OrderRow, amount: string, currency: string, dueDate: string) =>
  decisionNotice('approved', row, amount, currency, dueDate);

export const rejectedNotice = (row: OrderRow, amount: string, currency: string, reason: string) =>
  decisionNotice('rejected', row, amount, currency, reason);

export function repaymentNotice(
  row: OrderRow,
  repayment: { id: number; amount: string; totalLeft: string; repaid: boolean },
  currency: string,
): NoticeEvent {
  return {
    userId: row.user_id,
    type: repayment.repaid ? 'loanRepaid' : 'loanRepayment',
    ref: `loan:${row.id}:repayment:${repayment.id}`,
    params: repayment.repaid
      ? [repayment.amount, currency, row.order_no]
      : [repayment.amount, currency, row.order_no, repayment.totalLeft],
    link: link(row.id),
  };
}

/** A reminder of `day`: due in some days, or overdue by some (once per loan and day). */
export function reminderNotice(
  loan: { id: number; userId: number; orderNo: string; dueDate: string },
  day: string,
  daysToDue: number,
  totalDue: string,
  currency: string,
): NoticeEvent {
  if (daysToDue > 0)
    return {
      userId: loan.userId,
      type: 'loanDueSoon',
      ref: `loan:${loan.id}:due:${day}`,
      params: [daysToDue, totalDue, currency, loan.dueDate, loan.orderNo],
      link: link(loan.id),
    };
  return {
    userId: loan.userId,
    type: 'loanOverdue',
    ref: `loan:${loan.id}:overdue:${day}`,
    params: [-daysToDue, totalDue, currency, loan.orderNo],
    link: link(loan.id),
  };
}

/** The due date of a loan disbursed on `startDate`. */
export const dueDateOf = (startDate: string, termDays: number) => addDaysTo(startDate, termDays);
