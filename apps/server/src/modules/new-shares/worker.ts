/**
 * The new-shares worker: moves offerings through their times (upcoming, subscribing, closed),
 * allocates each at its allocation time and lists it at its listing time. It runs every
 * `checkMs` in every instance (unref'd), one instance at a time (a cluster-wide advisory lock),
 * and `runDue()` can be called at any time (tests do, after moving the clock).
 *
 * Allocation, in ONE transaction per offering: the offering's row is locked (a subscription in
 * flight finishes first, none starts after), the open subscriptions are the book at close, the
 * published rule (`allocate` of packages/shared/src/new-shares.ts) computes the lots of each; each
 * subscription's hold is captured for the cost and fee of its lots allocated (the amount to the
 * house, the fee to the fee account, as a spot buy pays them) with the rest released, or released
 * whole without a lot; the input, seed, result and statuses are written with it, and the
 * notifications. Nothing of it is seen before it commits; run again (twice, another instance, after
 * a crash that rolled it back) it finds the offering allocated, or allocates it whole.
 *
 * Listing, in one transaction per offering: the product row (spot, fed from its code at the offer
 * price) and the allocated lots at their cost (the amount without the fee, as spot buys count it),
 * locked until the listing time plus the lock-up. Stocks become live spot holdings whose allocated
 * quantity is locked (holding.locked_quantity). A coin becomes a wallet currency (no network until
 * an operator sets one) whose pair also trades coin to coin, and each allocation is credited to the
 * subscriber's coin balance from the house and frozen there by a ledger hold (migration 0041),
 * released by this worker when the lock-up ends: frozen coins cannot be sold, exchanged or
 * withdrawn. After it commits the market engine starts feeding the product (`listProduct`); a
 * failure there is logged, and the engine loads the product at its next start as it loads every
 * other.
 */
import {
  OFFERING_STATUS,
  POSITION_TYPE,
  PRODUCT_TYPE,
  allocate,
  isNegative,
  isPositive,
  mul,
  neg,
  normalize,
  scaleOf,
  sub,
  toScale,
} from '@bourse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/database';
import * as ledger from '../../ledger/ledger';
import type { Clock } from '../../lib/clock';
import { assert } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import type { NoticeEvent, NoticeWriter } from '../messages';
import * as notices from './notices';
import * as repo from './repo';
import { costOf } from './service';
import { coinOf, lockedUntil, phaseOf } from './views';

const LOCK_KEY = 7_310_040;
/** Locks released per transaction, and per run at most. */
const UNLOCK_BATCH = 500;
const MAX_UNLOCKS = 10_000;
/** The decimals of a listed coin's wallet currency: the lot size's, at least eight. */
const COIN_SCALE_MIN = 8;
/** Offerings allocated or listed in one run, at most (more wait for the next run). */
const MAX_PER_RUN = 100;
/**
 * The simulated feed's annual volatility of a listed product, by product type: fixed for the type
 * (as the catalogue's rows are), never set per offering, so no one shapes a listing's price path.
 */
const LISTING_VOLATILITY: Record<number, string> = { 1: '0.3', 2: '0.6' };
const SESSION: Record<number, 'usStock' | 'crypto'> = { 1: 'usStock', 2: 'crypto' };

export interface RunResult {
  allocated: number;
  listed: number;
  /** Allocations whose coins were released at the end of their lock-up. */
  unlocked: number;
}

export interface NewSharesWorkerDeps {
  db: Database;
  clock: Clock;
  notices?: NoticeWriter;
  notify?: (userId: number, topic: string, data: unknown) => void;
  logger?: FastifyBaseLogger;
  /** The market engine starts feeding a product just listed (MarketEngine.listProduct). */
  listProduct?: (productId: number) => Promise<void>;
  /** How often to run (ms; 0: only when runDue is called). */
  checkMs?: number;
  /** Cached settings are stale (a coin listed as a new wallet currency). */
  currenciesChanged?: () => void;
}

/** A time as notifications show it: `2026-11-18 15:00 UTC`. */
function utcText(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The order step of a listed product: the smallest step of the lot size, at most one. */
export function listedStep(lotSize: string): string {
  const scale = scaleOf(normalize(lotSize));
  return scale === 0 ? '1' : normalize(`0.${'0'.repeat(scale - 1)}1`);
}

/** The listed product's price decimals: the offer price's, at least two. */
export function listedPriceScale(price: string): number {
  return Math.max(2, scaleOf(normalize(price)));
}

export class NewSharesWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RunResult> | undefined;

  constructor(private readonly deps: NewSharesWorkerDeps) {}

  start(): void {
    const checkMs = this.deps.checkMs ?? 0;
    if (checkMs <= 0 || this.timer) return;
    const run = () =>
      void this.runDue().catch((error: unknown) =>
        this.deps.logger?.error({ err: error }, 'new shares run failed'),
      );
    this.timer = setInterval(run, checkMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Does what is due now; one run at a time per instance, one instance at a time. */
  runDue(): Promise<RunResult> {
    this.running ??= this.deps.db
      .withAdvisoryLock(LOCK_KEY, () => this.runAll())
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async runAll(): Promise<RunResult> {
    const { db, clock, logger } = this.deps;
    await repo.advancePhases(db, clock.now());
    let allocated = 0;
    let listed = 0;
    const due = await repo.dueOfferings(db, clock.now(), MAX_PER_RUN);
    for (const id of due.allocate) {
      try {
        if (await this.allocateOffering(id)) allocated += 1;
      } catch (error) {
        // Rolled back whole: the next run tries again.
        logger?.error({ err: error, offeringId: id }, 'new shares allocation failed');
      }
    }
    // An allocation just made may be due for listing too.
    const listing = allocated > 0 ? await repo.dueOfferings(db, clock.now(), MAX_PER_RUN) : due;
    for (const id of listing.list) {
      try {
        if (await this.listOffering(id)) listed += 1;
      } catch (error) {
        logger?.error({ err: error, offeringId: id }, 'new shares listing failed');
      }
    }
    let unlocked = 0;
    try {
      unlocked = await this.unlockDue();
    } catch (error) {
      logger?.error({ err: error }, 'new shares unlock failed');
    }
    return { allocated, listed, unlocked };
  }

  /**
   * Releases the coins of allocations whose lock-up has ended, in batches of one transaction each
   * (a lock marked released and its hold released together); at most MAX_UNLOCKS per run.
   */
  async unlockDue(): Promise<number> {
    const now = this.deps.clock.now();
    let unlocked = 0;
    while (unlocked < MAX_UNLOCKS) {
      const due = await repo.dueUnlocks(this.deps.db, now, UNLOCK_BATCH);
      if (due.length === 0) break;
      const users = await this.deps.db.transaction(async (tx) => {
        const released = new Map<number, number>();
        for (const row of due) {
          if (!(await repo.markUnlocked(tx, row.id, now))) continue;
          const outcome = await ledger.release(tx, row.lock_hold_id, 'unlock');
          released.set(row.user_id, outcome.hold.currencyId);
        }
        return released;
      });
      unlocked += due.length;
      for (const [userId, currencyId] of users)
        this.deps.notify?.(userId, 'balances', { book: 'live', currencyId });
      if (due.length < UNLOCK_BATCH) break;
    }
    return unlocked;
  }

  /** Allocates an offering whose allocation is due; false when it is not (any more). */
  async allocateOffering(id: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const events: NoticeEvent[] = [];
    const users = new Set<number>();
    let currencyId = 0;
    const done = await this.deps.db.transaction(async (tx) => {
      if (!(await repo.lockOffering(tx, id, 'update'))) return false;
      const offering = (await repo.findOffering(tx, id))!;
      if (
        phaseOf(offering, now) !== OFFERING_STATUS.allocating ||
        offering.allocation_time.getTime() > now.getTime()
      )
        return false;
      currencyId = offering.currency_id;
      const book = await repo.lockOpenSubscriptions(tx, id);
      const allocation = allocate({
        offeringId: id,
        lotsOffered: BigInt(offering.lots_offered),
        book: book.map((row) => ({ id: row.public_id, lots: BigInt(row.lots) })),
      });
      const lotsOf = new Map(allocation.lines.map((line) => [line.id, line.allocated]));
      const captures: ledger.HoldCapture[] = [];
      const refunds: ledger.HoldSettlement[] = [];
      const written: { id: number; allocatedLots: string; paid: string; refunded: string }[] = [];
      const at = (value: string) => toScale(value, offering.scale);
      for (const row of book) {
        const lots = lotsOf.get(row.public_id)!;
        const common = {
          userId: row.user_id,
          id: row.id,
          orderNo: row.order_no,
          code: offering.code,
        };
        users.add(row.user_id);
        if (lots === 0n) {
          refunds.push({ holdId: row.hold_id, returned: row.frozen, paid: '0' });
          written.push({ id: row.id, allocatedLots: '0', paid: '0', refunded: row.frozen });
          events.push(
            notices.refunded({
              ...common,
              lots: row.lots,
              refunded: at(row.frozen),
              currency: offering.currency_name,
            }),
          );
          continue;
        }
        const cost = costOf(offering, lots);
        const refunded = sub(row.frozen, cost.total);
        // Fewer lots never cost more than the lots asked (both rounded up the same way).
        assert(!isNegative(refunded), `new shares: subscription ${row.id} paid beyond its hold`);
        const parts: ledger.PostingInput[] = [
          { account: ledger.platform(currencyId, 'house', row.user_id), amount: cost.amount },
        ];
        if (isPositive(cost.fee))
          parts.push({
            account: ledger.platform(currencyId, 'fees', row.user_id),
            amount: cost.fee,
          });
        if (isPositive(refunded))
          parts.push({ account: ledger.user(row.user_id, currencyId), amount: refunded });
        captures.push({ holdId: row.hold_id, parts });
        written.push({ id: row.id, allocatedLots: String(lots), paid: cost.total, refunded });
        events.push(
          notices.allocated({
            ...common,
            allocatedLots: String(lots),
            lots: row.lots,
            paid: at(cost.total),
            refunded: at(refunded),
            currency: offering.currency_name,
          }),
        );
      }
      const entry = { book: 'live' as const, currencyId, refType: 'new_share_offering', refId: id };
      await ledger.captureHolds(tx, { ...entry, type: 'new_share_allocation', holds: captures });
      await ledger.settleHolds(tx, {
        ...entry,
        type: 'new_share_refund',
        platformKind: 'house',
        holds: refunds,
      });
      await repo.markSubscriptionsAllocated(tx, written, now);
      await repo.markAllocated(tx, id, {
        input: allocation.input,
        seed: allocation.seed,
        result: allocation.result,
        lotsRequested: String(allocation.lotsRequested),
        lotsAllocated: String(allocation.lotsAllocated),
        oversubscribed: allocation.oversubscribed,
        now,
      });
      await this.deps.notices?.record(tx, events);
      return true;
    });
    if (done) {
      this.deps.notices?.push(events);
      for (const userId of users)
        this.deps.notify?.(userId, 'balances', { book: 'live', currencyId });
      this.deps.logger?.info({ offeringId: id, subscriptions: users.size }, 'new shares allocated');
    }
    return done;
  }

  /** Lists an allocated offering whose listing is due; false when it is not (any more). */
  async listOffering(id: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const events: NoticeEvent[] = [];
    const productId = await this.deps.db.transaction(async (tx) => {
      if (!(await repo.lockOffering(tx, id, 'update'))) return null;
      const offering = (await repo.findOffering(tx, id))!;
      if (
        offering.status !== OFFERING_STATUS.allocated ||
        offering.listing_time.getTime() > now.getTime()
      )
        return null;
      const quantityOffered = normalize(mul(offering.lots_offered, offering.lot_size));
      // A coin (its code the coin and the trade currency) lists as a wallet currency of its own.
      const coin =
        offering.product_type === PRODUCT_TYPE.crypto
          ? coinOf(offering.code, offering.currency_name)
          : null;
      const coinId =
        coin === null
          ? null
          : await repo.ensureCoinCurrency(
              tx,
              coin,
              Math.min(18, Math.max(COIN_SCALE_MIN, scaleOf(normalize(offering.lot_size)))),
            );
      const product = await repo.insertProduct(tx, {
        productType: offering.product_type,
        code: offering.code,
        names: offering.name,
        description: pickLanguage(offering.description, 'en'),
        lotSize: listedStep(offering.lot_size),
        priceScale: listedPriceScale(offering.price),
        session: SESSION[offering.product_type]!,
        referencePrice: normalize(offering.price),
        volatility: LISTING_VOLATILITY[offering.product_type]!,
        dailyVolume: quantityOffered,
        positionTypes:
          coinId === null ? [POSITION_TYPE.spot] : [POSITION_TYPE.spot, POSITION_TYPE.coinToCoin],
      });
      const until = lockedUntil(offering);
      const holders = await repo.allocatedSubscriptions(tx, id);
      const holdings = holders.map((row) => {
        const lots = BigInt(row.allocated_lots);
        return {
          userId: row.user_id,
          quantity: normalize(mul(row.allocated_lots, offering.lot_size)),
          cost: costOf(offering, lots).amount,
        };
      });
      if (coinId === null) {
        // One holding per user: a user has at most one allocated subscription of an offering.
        await repo.addLockedHoldings(tx, product, holdings, until, now);
      } else {
        await repo.setCoinCurrency(tx, id, coinId);
        await this.creditCoins(
          tx,
          { offeringId: id, coinId, productId: product, until, now },
          holders,
          holdings,
        );
      }
      await repo.markListed(tx, id, product, now);
      for (const [index, row] of holders.entries())
        events.push(
          notices.listed({
            userId: row.user_id,
            id: row.id,
            orderNo: row.order_no,
            code: offering.code,
            quantity: holdings[index]!.quantity,
            lockedUntil: utcText(until),
            coin: coinId !== null,
          }),
        );
      await this.deps.notices?.record(tx, events);
      return product;
    });
    if (productId === null) return false;
    this.deps.currenciesChanged?.();
    this.deps.notices?.push(events);
    try {
      await this.deps.listProduct?.(productId);
    } catch (error) {
      this.deps.logger?.error({ err: error, offeringId: id, productId }, 'listed product not fed');
    }
    this.deps.logger?.info({ offeringId: id, productId }, 'new shares listed');
    return true;
  }

  /**
   * Credits each allocation's coins to its subscriber's wallet from the house (one entry) and
   * freezes them with a hold per subscription until the lock-up ends; the coin-to-coin holding
   * keeps their cost.
   */
  private async creditCoins(
    tx: Queryable,
    at: { offeringId: number; coinId: number; productId: number; until: Date; now: Date },
    holders: readonly { id: number; user_id: number }[],
    holdings: readonly { userId: number; quantity: string; cost: string }[],
  ): Promise<void> {
    const postings: ledger.PostingInput[] = [];
    for (const holding of holdings) {
      if (!isPositive(holding.quantity)) continue;
      postings.push(
        {
          account: ledger.platform(at.coinId, 'house', holding.userId),
          amount: neg(holding.quantity),
        },
        { account: ledger.user(holding.userId, at.coinId), amount: holding.quantity },
      );
    }
    if (postings.length === 0) return;
    await ledger.post(tx, {
      book: 'live',
      type: 'new_share_coins',
      refType: 'new_share_offering',
      refId: at.offeringId,
      postings: ledger.summed(postings),
    });
    for (const [index, row] of holders.entries()) {
      const quantity = holdings[index]!.quantity;
      if (!isPositive(quantity)) continue;
      const hold = await ledger.hold(tx, {
        book: 'live',
        userId: row.user_id,
        currencyId: at.coinId,
        amount: quantity,
        type: 'new_share_lockup',
        refType: 'new_share_subscription',
        refId: row.id,
      });
      await repo.setLockHold(tx, row.id, hold.id, at.until);
    }
    await repo.addCoinCosts(tx, at.productId, holdings, at.now);
  }
}
