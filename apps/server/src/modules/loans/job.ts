/**
 * The loans' daily work (issue 23), run by the scheduler once per UTC day, in day order:
 *
 * 1. Interest. Every active loan's days that ended before `day` and are not accrued yet get their
 *    interest (free days none, the term's days the daily rate, days past the term the overdue
 *    rate; packages/shared/src/loans.ts), one row per (loan, day), added to the loan's interest
 *    due. A loan whose product settles daily then pays what is due from the available balance, as
 *    far as the balance goes: the rest stays due, and no balance goes below zero. Loans go in
 *    batches of `batchSize` (in id order), each batch in one transaction: its users locked (in id
 *    order, as every money-moving request does), their available balances read under lock, the
 *    day rows written (UNIQUE per loan and day), one ledger entry per book and currency for the
 *    batch's settlements, the loans' totals written. A day run again (after a crash) finds the
 *    loans accrued already and pays nothing twice.
 * 2. Reminders, when `day` is today (a day caught up after downtime reminds no one of a past
 *    date): a notification 3 days and 1 day before the due date and on every day after it, once
 *    per loan and day (the notification's ref is unique).
 */
import {
  add,
  gt,
  LOAN_SETTLEMENT,
  LOAN_STATUS,
  min,
  neg,
  normalize,
  sub,
  toScale,
  type DecimalString,
} from '@bourse/shared';
import type { Queryable } from '../../db/database';
import { withUsersLocked } from '../../db/user-lock';
import * as ledger from '../../ledger/ledger';
import { assert } from '../../lib/errors';
import type { NoticeEvent } from '../messages';
import type { DailyJob } from '../scheduler';
import { accrualOf, currencyOf, dateOf, dueNow, reminderNotice, type LoansDeps } from './common';
import * as repo from './repo';

/** Loans per transaction: a batch's users stay locked while it runs. */
export const LOAN_BATCH_SIZE = 500;

export class LoanDailyJob implements DailyJob {
  readonly name = 'loans';

  constructor(private readonly deps: LoansDeps & { batchSize?: number }) {}

  async runDay(day: string, now: Date): Promise<number> {
    const processed = await this.accrue(day, now);
    if (day === dateOf(now)) await this.remind(day);
    return processed;
  }

  /** Accrues every active loan's ended days, batch by batch; answers how many loans it accrued. */
  private async accrue(day: string, now: Date): Promise<number> {
    const size = this.deps.batchSize ?? LOAN_BATCH_SIZE;
    const currencies = await this.deps.settings.currencyMap();
    let afterId = 0;
    let processed = 0;
    for (;;) {
      const batch = await repo.loansToAccrue(this.deps.db, day, afterId, size);
      if (batch.length === 0) break;
      afterId = batch.at(-1)!.id;
      const told = await this.deps.db.transaction((tx) =>
        this.accrueBatch(tx, batch, day, now, currencies),
      );
      processed += told.loans;
      for (const { userId, book, currencyId } of told.settled)
        this.deps.notify?.(userId, 'balances', { book, currencyId });
      if (batch.length < size) break;
    }
    return processed;
  }

  private async accrueBatch(
    tx: Queryable,
    batch: readonly { id: number; user_id: number }[],
    day: string,
    now: Date,
    currencies: Awaited<ReturnType<LoansDeps['settings']['currencyMap']>>,
  ): Promise<{
    loans: number;
    settled: { userId: number; book: ledger.Book; currencyId: number }[];
  }> {
    await withUsersLocked(
      tx,
      batch.map((loan) => loan.user_id),
    );
    const rows = await repo.lockActiveOrders(
      tx,
      batch.map((loan) => loan.id),
    );
    const accruals = rows.flatMap((row) => {
      const accrual = accrualOf(row, day, currencyOf(currencies, row.currency_id).scale);
      return accrual ? [{ row, accrual }] : [];
    });
    if (accruals.length === 0) return { loans: 0, settled: [] };
    const written = await repo.insertInterest(
      tx,
      accruals.flatMap(({ accrual }) => accrual.records),
      now,
    );
    assert(
      written.length === accruals.reduce((total, { accrual }) => total + accrual.records.length, 0),
      `loans: interest days of ${day} written before their loans were accrued`,
    );

    // Daily settlement: what each loan owes after today's accrual, from its user's available
    // balance as far as it goes (a user's loans of one currency share the balance, in id order).
    const daily = accruals.filter(({ row }) => row.settlement === LOAN_SETTLEMENT.daily);
    const paid = new Map<number, DecimalString>();
    const settledDays: {
      book: ledger.Book;
      currencyId: number;
      loanId: number;
      dayNumber: number;
      amount: string;
    }[] = [];
    for (const book of ['live', 'demo'] as const) {
      const ofBook = daily.filter(({ row }) => row.book === book);
      if (ofBook.length === 0) continue;
      const balances = await repo.lockAvailable(
        tx,
        book,
        ofBook.map(({ row }) => ({ userId: row.user_id, currencyId: row.currency_id })),
      );
      for (const { row, accrual } of ofBook) {
        const key = `${row.user_id}:${row.currency_id}`;
        const balance = normalize(balances.get(key) ?? '0');
        const owed = add(row.interest_due, accrual.interest);
        const take = min(balance, owed);
        if (!gt(take, '0')) continue;
        balances.set(key, sub(balance, take));
        paid.set(row.id, take);
        settledDays.push({
          book,
          currencyId: row.currency_id,
          loanId: row.id,
          dayNumber: accrual.accruedDays,
          amount: take,
        });
      }
    }
    const settled: { userId: number; book: ledger.Book; currencyId: number }[] = [];
    const groups = new Map<string, typeof settledDays>();
    for (const item of settledDays) {
      const key = `${item.book}:${item.currencyId}`;
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    const userOf = new Map(accruals.map(({ row }) => [row.id, row.user_id]));
    for (const items of groups.values()) {
      const { book, currencyId } = items[0]!;
      const postings: ledger.PostingInput[] = [];
      for (const item of items) {
        const userId = userOf.get(item.loanId)!;
        postings.push({ account: ledger.user(userId, currencyId), amount: neg(item.amount) });
        postings.push({
          account: ledger.platform(currencyId, 'loans', userId),
          amount: item.amount,
        });
        settled.push({ userId, book, currencyId });
      }
      const entry = await ledger.post(tx, {
        book,
        type: 'loan_interest',
        refType: 'loan_day',
        refId: day,
        postings: ledger.summed(postings),
      });
      await repo.markSettled(tx, items, entry.entryId);
    }
    await repo.writeAccruals(
      tx,
      accruals.map(({ row, accrual }) => ({
        loanId: row.id,
        accruedDays: accrual.accruedDays,
        interest: accrual.interest,
        paid: paid.get(row.id) ?? '0',
      })),
    );
    return { loans: accruals.length, settled };
  }

  /** The reminders of `day`, batch by batch: each written once (its ref), then pushed. */
  private async remind(day: string): Promise<void> {
    const notices = this.deps.notices;
    if (!notices) return;
    const size = this.deps.batchSize ?? LOAN_BATCH_SIZE;
    const currencies = await this.deps.settings.currencyMap();
    let afterId = 0;
    for (;;) {
      const rows = await repo.loansToRemind(this.deps.db, day, afterId, size);
      if (rows.length === 0) break;
      afterId = rows.at(-1)!.id;
      const events: NoticeEvent[] = rows.map((row) => {
        const currency = currencyOf(currencies, row.currency_id);
        const due = dueNow({ ...row, status: LOAN_STATUS.active }, day, currency.scale);
        return reminderNotice(
          { id: row.id, userId: row.user_id, orderNo: row.order_no, dueDate: row.due_date },
          day,
          row.days_to_due,
          toScale(add(due.interest, due.principal), currency.scale),
          currency.name,
        );
      });
      await this.deps.db.transaction((tx) => notices.record(tx, events));
      notices.push(events);
      if (rows.length < size) break;
    }
  }
}
