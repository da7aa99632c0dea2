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
 * price), the allocated lots as live spot holdings at their cost (the amount without the fee, as
 * spot buys count it), locked until the listing time plus the lock-up. After it commits the market
 * engine starts feeding the product (`listProduct`); a failure there is logged, and the engine
 * loads the product at its next start as it loads every other.
 */
import {
  OFFERING_STATUS,
  allocate,
  isNegative,
  isPositive,
  mul,
  normalize,
  scaleOf,
  sub,
  toScale,
} from '@bourse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import * as ledger from '../../ledger/ledger';
import type { Clock } from '../../lib/clock';
import { assert } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import type { NoticeEvent, NoticeWriter } from '../messages';
import * as notices from './notices';
import * as repo from './repo';
import { costOf } from './service';
import { lockedUntil, phaseOf } from './views';

const LOCK_KEY = 7_310_040;
/** Offerings allocated or listed in one run, at most (more wait for the next run). */
const MAX_PER_RUN = 100;
/**
 * The simulated feed's annual volatility of a listed product, by product type: fixed for the type
 * (as the catalogue's rows are), never set per offering, so no one shapes a listing's price path.
 */
const LISTING_VOLATILITY: Record<number, string> = { 1: '0.3', 2: '0.6' };
const SESSION: Record<number, 'usStock' | 'crypto'> = { 1: 'usStock', 2: 'crypto' };

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
  private running: Promise<{ allocated: number; listed: number }> | undefined;

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
  runDue(): Promise<{ allocated: number; listed: number }> {
    this.running ??= this.deps.db
      .withAdvisoryLock(LOCK_KEY, () => this.runAll())
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async runAll(): Promise<{ allocated: number; listed: number }> {
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
    return { allocated, listed };
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
      // One holding per user: a user has at most one allocated subscription of an offering.
      await repo.addLockedHoldings(tx, product, holdings, until, now);
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
          }),
        );
      await this.deps.notices?.record(tx, events);
      return product;
    });
    if (productId === null) return false;
    this.deps.notices?.push(events);
    try {
      await this.deps.listProduct?.(productId);
    } catch (error) {
      this.deps.logger?.error({ err: error, offeringId: id, productId }, 'listed product not fed');
    }
    this.deps.logger?.info({ offeringId: id, productId }, 'new shares listed');
    return true;
  }
}
