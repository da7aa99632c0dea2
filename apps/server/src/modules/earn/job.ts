/**
 * The daily earn job (the scheduler's DailyJob 'earn'): for a UTC day, every active order whose
 * interest days include it gets that day's interest, and an order whose last day it is completes
 * (its stake back to the available balance, with the interest held for maturity).
 *
 * Exactly once per (order, day): one UPDATE takes the orders whose `last_day` is before the day
 * and moves it to the day (the row lock it takes makes a redemption wait, or the order drop out
 * once redeemed); the interest records (key (order, day)) and the ledger entries are written in the
 * same transaction, and a record already there rolls the whole batch back. A day run again (a
 * crash in the middle, a second instance) finds the orders it did at the day and pays nothing.
 *
 * Set-based, in bounded batches (EARN_BATCH orders per transaction): one statement accrues a
 * batch, working each order's interest out in SQL (trunc(balance × rate + carry, scale), the same
 * figure as packages/shared/src/earn.ts accrueDay, which the tests hold equal), one ledger entry
 * per book and currency carries the batch's interest (from the platform's interest account) and
 * one its maturities, and one statement writes the records. A batch is a handful of round trips
 * whatever its size: 100,000 orders are a hundred transactions (about 7 s on PostgreSQL on a
 * loaded 2-core machine; bench/).
 *
 * Lock order: orders, then products (the held amount of completed live orders), then the ledger's
 * accounts, as a redemption (user, order, product, accounts) and a buy (user, product, accounts).
 */
import { isPositive, isZero, neg, sum, toScale } from '@bourse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/database';
import * as ledger from '../../ledger/ledger';
import { assert } from '../../lib/errors';
import type { NoticeEvent, NoticeWriter } from '../messages';
import type { DailyJob } from '../scheduler';
import * as notices from './notices';
import * as repo from './repo';

/**
 * Orders per transaction. 1,000: each batch's entry has about as many postings, which ledger_post
 * applies as set operations; larger batches hold the orders' locks (and a redemption waiting on
 * one) longer for little gain.
 */
export const EARN_BATCH = 1000;
/** A bound on the batches of one day (100 million orders at the batch size). */
const MAX_BATCHES = 100_000;

export class EarnDailyJob implements DailyJob {
  readonly name = 'earn';

  constructor(
    private readonly deps: {
      db: Database;
      notices?: NoticeWriter;
      logger?: FastifyBaseLogger;
      /** Orders per transaction (tests use small batches). */
      batchSize?: number;
    },
  ) {}

  async runDay(day: string, now: Date): Promise<number> {
    const size = this.deps.batchSize ?? EARN_BATCH;
    let after = 0;
    let processed = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const done = await this.deps.db.transaction((tx) => this.batch(tx, day, now, after, size));
      if (done.events.length > 0) this.deps.notices?.push(done.events);
      processed += done.count;
      if (done.last === null) {
        // Every row of the batch was taken by a redemption meanwhile: look past them once more.
        if (!(await repo.anyDue(this.deps.db, day, after))) break;
        continue;
      }
      after = done.last;
    }
    this.deps.logger?.debug({ day, processed }, 'earn day accrued');
    return processed;
  }

  private async batch(
    tx: Queryable,
    day: string,
    now: Date,
    after: number,
    size: number,
  ): Promise<{ count: number; last: number | null; events: NoticeEvent[] }> {
    await repo.commitWithoutWaiting(tx);
    const rows = await repo.accrueDue(tx, day, now, after, size);
    if (rows.length === 0) return { count: 0, last: null, events: [] };

    // The products' held amounts before the ledger's accounts (the lock order).
    const ending = rows.filter((row) => row.completed && row.book === 'live');
    await repo.lockProducts(
      tx,
      ending.map((row) => row.product_id),
    );
    await repo.changeHeld(
      tx,
      ending.map((row) => ({ productId: row.product_id, amount: neg(row.principal) })),
    );

    // One interest entry and one maturity entry per book and currency.
    const groups = new Map<string, repo.AccruedRow[]>();
    for (const row of rows) {
      const key = `${row.book}:${row.currency_id}`;
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    const interestEntry = new Map<number, number>();
    const ends: { orderId: number; entryId: number }[] = [];
    for (const group of groups.values()) {
      const { book, currency_id: currencyId } = group[0]!;
      const credits: ledger.PostingInput[] = [];
      for (const row of group) {
        if (row.credited === 'stake' && isPositive(row.interest))
          credits.push({
            account: ledger.user(row.user_id, currencyId, 'staked'),
            amount: row.interest,
          });
        if (isPositive(row.paid_now))
          credits.push({ account: ledger.user(row.user_id, currencyId), amount: row.paid_now });
      }
      const total = sum(credits.map((credit) => credit.amount));
      if (!isZero(total)) {
        const entry = await ledger.post(tx, {
          book,
          type: 'earn_interest',
          refType: 'earn_day',
          refId: day,
          postings: ledger.summed([
            ...credits,
            { account: ledger.platform(currencyId, 'interest'), amount: neg(total) },
          ]),
        });
        for (const row of group) interestEntry.set(row.id, entry.entryId);
      }
      const returns: ledger.PostingInput[] = [];
      for (const row of group) {
        if (!row.completed) continue;
        returns.push({
          account: ledger.user(row.user_id, currencyId, 'staked'),
          amount: neg(row.balance),
        });
        returns.push({ account: ledger.user(row.user_id, currencyId), amount: row.balance });
      }
      const summed = ledger.summed(returns);
      if (summed.length > 0) {
        const entry = await ledger.post(tx, {
          book,
          type: 'earn_maturity',
          refType: 'earn_day',
          refId: day,
          postings: summed,
        });
        for (const row of group)
          if (row.completed) ends.push({ orderId: row.id, entryId: entry.entryId });
      }
    }
    await repo.setEndEntries(tx, ends);

    const written = await repo.insertInterest(
      tx,
      day,
      now,
      rows.map((row) => ({
        orderId: row.id,
        amount: row.interest,
        base: row.base,
        credited: row.credited,
        entryId:
          (row.credited === 'stake' && isPositive(row.interest)) || isPositive(row.paid_now)
            ? (interestEntry.get(row.id) ?? null)
            : null,
      })),
    );
    // The order's last day and its record are written together: a record already there means
    // the day was accrued twice, and the whole batch (its postings too) is rolled back.
    assert(written === rows.length, `earn: ${written} of ${rows.length} interest days written`);

    const events = rows
      .filter((row) => row.completed)
      .map((row) =>
        notices.completed({
          userId: row.user_id,
          id: row.id,
          orderNo: row.order_no,
          kind: row.kind,
          currency: row.currency_name,
          returned: toScale(row.balance, row.scale),
          interest: toScale(row.interest_paid, row.scale),
        }),
      );
    if (events.length > 0) await this.deps.notices?.record(tx, events);
    return { count: written, last: rows.reduce((most, row) => Math.max(most, row.id), 0), events };
  }
}
