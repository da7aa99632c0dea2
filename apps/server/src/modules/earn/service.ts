/**
 * Earn for users (issue 23): lock mining and staking products, buying, orders, early redemption
 * with its penalty quoted first, the analysis and the interest records.
 *
 * Money moves only through the ledger, one balanced entry per movement in the transaction of the
 * row it belongs to: a buy moves the amount from the user's available balance to their `staked`
 * account (never below zero: the ledger refuses), a redemption moves the stake back less the
 * penalty, which goes to the platform's `interest` account (the one that pays interest). A buy is
 * run once per (user, request id) under the user's lock (db/user-lock runOnce): a retry answers the
 * first order. Every figure is worked out by packages/shared/src/earn.ts, which the app's confirm
 * screens show: the rate of the amount, the expected interest, the penalty. A figure the user was
 * shown that no longer holds (the product's rate changed, a day passed) is refused, never
 * silently replaced.
 *
 * Live and demo are separate books: a demo session buys with virtual funds, needs no identity
 * level, never waits for review and takes nothing of a product's capacity.
 *
 * Lock order (deadlock-free with the daily job, which locks orders, then products, then ledger
 * accounts): the user's row, the order, the product, then the ledger's accounts.
 */
import {
  EARN_ORDER_STATUS,
  EARN_PRODUCT_STATUS,
  earnDay,
  earnTermDays,
  eq,
  expectedInterest,
  gt,
  lt,
  mul,
  neg,
  normalize,
  rateForAmount,
  redemptionQuote,
  earnTermEnded,
  earnDayUnsettled,
  scaleOf,
  sub,
  sum,
  toScale,
  type EarnKind,
  type EarnOrder,
  type EarnOrderAddBody,
  type EarnProduct,
  type FinancialAnalysis,
  type InterestRecord,
  type LanguageKey,
  type PageQuery,
  type RedemptionPreview,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import { runOnce, withUserLock } from '../../db/user-lock';
import type { Actor } from '../../http/actor';
import * as ledger from '../../ledger/ledger';
import type { Clock } from '../../lib/clock';
import { AppError, assert } from '../../lib/errors';
import { assertAmount } from '../../lib/money-assert';
import type { NoticeEvent, NoticeWriter } from '../messages';
import { fingerprint, nextId, orderNumber } from '../wallet';
import * as notices from './notices';
import * as repo from './repo';
import { orderView, productView } from './views';

type Notify = (userId: number, topic: string, data: unknown) => void;

export interface EarnDeps {
  db: Database;
  clock: Clock;
  notices?: NoticeWriter;
  /** The user's private /ws topics (balances changed). */
  notify?: Notify;
}

/** Order numbers: L lock mining, S staking, then the time and the id. */
const ORDER_PREFIX: Record<EarnKind, string> = { financial: 'L', staking: 'S' };

export class Earn {
  constructor(private readonly deps: EarnDeps) {}

  private tell(userId: number, book: ledger.Book, currencyId: number, events: NoticeEvent[]) {
    this.deps.notify?.(userId, 'balances', { book, currencyId });
    if (events.length > 0) this.deps.notices?.push(events);
  }

  // ------------------------------------------------------------ products

  async products(
    kind: EarnKind,
    actor: Actor | null,
    lang: LanguageKey,
    page: PageQuery,
  ): Promise<{ rows: EarnProduct[]; total: number }> {
    const found = await repo.pageOpenProducts(this.deps.db, kind, page);
    const counts = actor
      ? await repo.openOrderCounts(
          this.deps.db,
          actor.userId,
          actor.book,
          found.rows.map((row) => row.id),
        )
      : undefined;
    return {
      rows: found.rows.map((row) =>
        productView(row, lang, counts ? (counts.get(row.id) ?? 0) : null),
      ),
      total: found.total,
    };
  }

  async product(
    kind: EarnKind,
    id: number,
    actor: Actor | null,
    lang: LanguageKey,
  ): Promise<EarnProduct> {
    const row = await repo.findProduct(this.deps.db, id, { kind });
    if (!row) throw new AppError('hint_notFound', 404, ['id']);
    const counts = actor
      ? await repo.openOrderCounts(this.deps.db, actor.userId, actor.book, [id])
      : undefined;
    return productView(row, lang, counts ? (counts.get(id) ?? 0) : null);
  }

  async image(id: number, sha256?: string) {
    const row = await repo.image(this.deps.db, id);
    if (!row || (sha256 !== undefined && row.sha256 !== sha256)) return undefined;
    return row;
  }

  // ------------------------------------------------------------ buying

  /**
   * Places an order: checks the product's terms against the amount (open, bounds, the currency's
   * decimals, identity level, the user's open orders, the capacity left), copies the rate of the
   * amount and the product's terms onto the order and moves the amount to the staked account.
   */
  async buy(
    actor: Actor,
    kind: EarnKind,
    body: EarnOrderAddBody,
    lang: LanguageKey,
  ): Promise<EarnOrder> {
    const now = this.deps.clock.now();
    const live = actor.book === 'live';
    const key = {
      userId: actor.userId,
      requestId: body.requestId,
      fingerprint: fingerprint({
        kind,
        book: actor.book,
        productId: body.productId,
        amount: normalize(body.amount),
      }),
    };
    const events: NoticeEvent[] = [];
    let currencyId = 0;
    const order = await runOnce(
      this.deps.db,
      'earn_order',
      key,
      async (tx) => {
        const product = await repo.findProduct(tx, body.productId, { kind, lock: true });
        if (!product || product.status !== EARN_PRODUCT_STATUS.open)
          throw new AppError('hint_earnProductClosed', 422, ['productId']);
        currencyId = product.currency_id;
        const amount = normalize(body.amount);
        const at = (value: string) => toScale(value, product.scale);
        if (scaleOf(amount) > product.scale)
          throw new AppError('hint_amountDecimals', 422, [product.scale, product.currency_name]);
        if (lt(amount, product.min_amount))
          throw new AppError('hint_earnAmountMin', 422, [
            at(product.min_amount),
            product.currency_name,
          ]);
        if (product.max_amount !== null && gt(amount, product.max_amount))
          throw new AppError('hint_earnAmountMax', 422, [
            at(product.max_amount),
            product.currency_name,
          ]);
        if (live && product.min_auth_level >= 0) {
          const level = await repo.userAuthLevel(tx, actor.userId);
          if (level < product.min_auth_level)
            throw new AppError('hint_identityRequired', 403, [product.min_auth_level + 1], 500);
        }
        if (product.max_orders_per_user !== null) {
          const open =
            (await repo.openOrderCounts(tx, actor.userId, actor.book, [product.id])).get(
              product.id,
            ) ?? 0;
          if (open >= product.max_orders_per_user)
            throw new AppError('hint_earnOrderLimit', 422, [product.max_orders_per_user]);
        }
        if (live && product.capacity !== null && gt(sum([product.held, amount]), product.capacity))
          throw new AppError('hint_earnCapacity', 422, [
            at(gt(product.capacity, product.held) ? sub(product.capacity, product.held) : '0'),
            product.currency_name,
          ]);
        const dailyRate = rateForAmount(amount, {
          dailyRate: product.daily_rate,
          rateTiers: product.rate_tiers,
        });
        if (body.dailyRate !== undefined && !eq(body.dailyRate, dailyRate))
          throw new AppError('hint_earnRateChanged', 409, [dailyRate]);
        assertAmount(amount, 'earn order', product.scale);

        const status =
          live && product.requires_review ? EARN_ORDER_STATUS.pending : EARN_ORDER_STATUS.active;
        const days =
          status === EARN_ORDER_STATUS.active
            ? earnTermDays(earnDay(now), product.term_days)
            : { firstDay: null, endDay: null };
        const id = await nextId(tx, 'earn_order');
        const orderNo = orderNumber(ORDER_PREFIX[kind], now, id);
        // The product row is locked: its held amount before any ledger account (lock order).
        if (live) await repo.changeHeld(tx, [{ productId: product.id, amount }]);
        const entry = await ledger.transfer(tx, {
          book: actor.book,
          type: 'earn_buy',
          requestId: `earn-buy:${body.requestId}`,
          refType: 'earn_order',
          refId: id,
          from: ledger.user(actor.userId, product.currency_id, 'available'),
          to: ledger.user(actor.userId, product.currency_id, 'staked'),
          amount,
        });
        assert(!entry.duplicate, 'earn: a new order reused a ledger request id');
        await repo.insertOrder(tx, {
          id,
          orderNo,
          kind,
          productId: product.id,
          userId: actor.userId,
          book: actor.book,
          currencyId: product.currency_id,
          scale: product.scale,
          requestId: body.requestId,
          requestHash: key.fingerprint,
          principal: amount,
          dailyRate,
          termDays: product.term_days,
          payout: product.payout,
          compounding: product.compounding,
          penaltyRate: product.penalty_rate,
          expectedInterest:
            product.term_days === null
              ? null
              : expectedInterest({
                  amount,
                  dailyRate,
                  days: product.term_days,
                  scale: product.scale,
                  compounding: product.compounding,
                }),
          firstDay: days.firstDay,
          endDay: days.endDay,
          status,
          buyEntryId: entry.entryId,
          now,
        });
        if (status === EARN_ORDER_STATUS.active && days.firstDay) {
          const event = notices.started({
            userId: actor.userId,
            id,
            orderNo,
            kind,
            currency: product.currency_name,
            amount: at(amount),
            firstDay: days.firstDay,
          });
          await this.deps.notices?.record(tx, [event]);
          events.push(event);
        }
        return (await repo.findOrder(tx, id))!;
      },
      async (tx, id) => (await repo.findOrder(tx, id))!,
    );
    if (order.kind !== kind || order.book !== actor.book)
      throw new AppError('hint_requestIdReused', 409);
    if (currencyId) this.tell(actor.userId, actor.book, currencyId, events);
    return orderView(order, lang);
  }

  // ------------------------------------------------------------ orders

  async orders(
    actor: Actor,
    kind: EarnKind,
    query: PageQuery & { status?: number },
    lang: LanguageKey,
  ): Promise<{ rows: EarnOrder[]; total: number }> {
    const page = await repo.pageUserOrders(
      this.deps.db,
      { userId: actor.userId, kind, book: actor.book, status: query.status },
      query,
    );
    return { rows: page.rows.map((row) => orderView(row, lang)), total: page.total };
  }

  /** The user's own order of a kind in the session's book, or not found. */
  private async ownOrder(
    q: Queryable,
    actor: Actor,
    kind: EarnKind,
    id: number,
    lock = false,
  ): Promise<repo.OrderRow> {
    const row = await repo.findOrder(q, id, { lock });
    if (!row || row.user_id !== actor.userId || row.kind !== kind || row.book !== actor.book)
      throw new AppError('hint_notFound', 404, ['id']);
    return row;
  }

  /**
   * An order on its last day (or later) is paid at maturity by the day's run, not redeemed; one
   * with a day begun and not yet paid waits for the day's run (minutes after midnight).
   */
  private refuseEnded(row: repo.OrderRow): void {
    const today = earnDay(this.deps.clock.now());
    if (earnTermEnded(row.end_day, today)) throw new AppError('hint_earnTermEnded', 422, ['id']);
    if (earnDayUnsettled({ firstDay: row.first_day, daysAccrued: row.days_accrued }, today))
      throw new AppError('hint_earnDayUnsettled', 422, ['id']);
  }

  private quote(row: repo.OrderRow) {
    return redemptionQuote({
      balance: row.balance,
      penaltyRate: row.penalty_rate,
      endDay: row.end_day,
      today: earnDay(this.deps.clock.now()),
      scale: row.scale,
      accruedUnpaid: row.interest_accrued,
    });
  }

  /** What redeeming now would return: shown before the user confirms. */
  async redemptionPreview(
    actor: Actor,
    kind: EarnKind,
    id: number,
    lang: LanguageKey,
  ): Promise<RedemptionPreview> {
    const row = await this.ownOrder(this.deps.db, actor, kind, id);
    if (row.status !== EARN_ORDER_STATUS.active)
      throw new AppError('hint_earnNotRedeemable', 422, ['id']);
    this.refuseEnded(row);
    const quote = this.quote(row);
    const at = (value: string) => toScale(value, row.scale);
    return {
      order: orderView(row, lang),
      quote: {
        remainingDays: quote.remainingDays,
        penalty: at(quote.penalty),
        returned: at(quote.returned),
        forfeited: at(quote.forfeited),
      },
    };
  }

  /**
   * Redeems an active order early: the stake less the penalty back to the available balance, the
   * penalty to the platform's interest account. `changed` false: this request had redeemed it.
   */
  async redeem(
    actor: Actor,
    kind: EarnKind,
    body: { id: number; requestId: string; penalty?: string },
    lang: LanguageKey,
  ): Promise<{ changed: boolean; order: EarnOrder }> {
    const now = this.deps.clock.now();
    const events: NoticeEvent[] = [];
    const result = await this.deps.db.transaction(async (tx) => {
      await withUserLock(tx, actor.userId);
      const row = await this.ownOrder(tx, actor, kind, body.id, true);
      if (row.status === EARN_ORDER_STATUS.redeemed && row.redeem_request_id === body.requestId)
        return { changed: false, row };
      if (row.status !== EARN_ORDER_STATUS.active)
        throw new AppError('hint_earnNotRedeemable', 422, ['id']);
      this.refuseEnded(row);
      const quote = this.quote(row);
      const at = (value: string) => toScale(value, row.scale);
      if (body.penalty !== undefined && !eq(body.penalty, quote.penalty))
        throw new AppError('hint_earnPenaltyChanged', 409, [at(quote.penalty), row.currency_name]);
      if (row.book === 'live')
        await repo.changeHeld(tx, [{ productId: row.product_id, amount: neg(row.principal) }]);
      const postings: ledger.PostingInput[] = [
        { account: ledger.user(row.user_id, row.currency_id, 'staked'), amount: neg(row.balance) },
      ];
      if (gt(quote.returned, '0'))
        postings.push({
          account: ledger.user(row.user_id, row.currency_id, 'available'),
          amount: quote.returned,
        });
      if (gt(quote.penalty, '0'))
        postings.push({
          account: ledger.platform(row.currency_id, 'interest', row.user_id),
          amount: quote.penalty,
        });
      const entry = await ledger.post(tx, {
        book: row.book,
        type: 'earn_redeem',
        requestId: `earn-redeem:${body.requestId}`,
        refType: 'earn_order',
        refId: row.id,
        postings,
      });
      assert(!entry.duplicate, 'earn: a redemption reused a ledger request id');
      await repo.markRedeemed(tx, row.id, {
        penalty: quote.penalty,
        returned: quote.returned,
        entryId: entry.entryId,
        requestId: body.requestId,
        now,
      });
      const event = notices.redeemed({
        userId: row.user_id,
        id: row.id,
        orderNo: row.order_no,
        kind: row.kind,
        currency: row.currency_name,
        returned: at(quote.returned),
        penalty: at(quote.penalty),
      });
      await this.deps.notices?.record(tx, [event]);
      events.push(event);
      return { changed: true, row: (await repo.findOrder(tx, row.id))! };
    });
    if (result.changed) this.tell(actor.userId, result.row.book, result.row.currency_id, events);
    return { changed: result.changed, order: orderView(result.row, lang) };
  }

  // ------------------------------------------------------------ analysis and records

  async analysis(actor: Actor, kind: EarnKind): Promise<FinancialAnalysis> {
    const rows = await repo.analysis(this.deps.db, actor.userId, kind, actor.book);
    return {
      orderCount: rows.reduce((total, row) => total + row.active, 0),
      pendingCount: rows.reduce((total, row) => total + row.pending, 0),
      currencies: rows.map((row) => ({
        currencyId: row.currency_id,
        currency: row.currency_name,
        orderCount: row.active,
        amountHeld: toScale(row.held, row.scale),
        interestPaid: toScale(row.interest_paid, row.scale),
        interestAccrued: toScale(row.interest_accrued, row.scale),
        expectedToday: toScale(row.next_interest, row.scale),
      })),
    };
  }

  async interestRecords(
    actor: Actor,
    kind: EarnKind,
    query: PageQuery & { orderId?: number },
  ): Promise<{ rows: InterestRecord[]; total: number }> {
    if (query.orderId !== undefined) await this.ownOrder(this.deps.db, actor, kind, query.orderId);
    const page = await repo.pageInterest(
      this.deps.db,
      { userId: actor.userId, kind, book: actor.book, orderId: query.orderId },
      query,
    );
    return {
      rows: page.rows.map((row) => ({
        id: `${row.order_id}-${row.day}`,
        orderId: row.order_id,
        orderNo: row.order_no,
        day: row.day,
        amount: toScale(row.amount, row.scale),
        balance: toScale(row.balance, row.scale),
        currency: row.currency_name,
        credited: row.credited,
        entryId: row.entry_id,
        createTime: row.created_at.toISOString(),
      })),
      total: page.total,
    };
  }

  /**
   * What a user's open orders stake in a book, valued in `currencyId` at `rate` (the total of
   * assets counts it: a stake left the available balance, not the account). A currency without a
   * rate is left out, never valued at an invented price.
   */
  async heldValue(
    userId: number,
    book: ledger.Book,
    currencyId: number,
    rate: (from: number, to: number) => string | null,
  ): Promise<{ value: string; pnl: string }> {
    const staked = await ledger.userBalancesOfKind(this.deps.db, book, userId, 'staked');
    const values = staked.flatMap((held) => {
      const price = rate(held.currencyId, currencyId);
      return price === null ? [] : [mul(held.balance, price)];
    });
    return { value: sum(values), pnl: '0' };
  }
}
