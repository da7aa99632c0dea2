/**
 * New shares for users (issue 24): the offerings, subscribing for lots while the window is open,
 * changing or cancelling, the user's subscriptions and the published allocation.
 *
 * Money moves only through the ledger: a subscription freezes the cost and fee of the lots asked
 * (`subscriptionCost`, the same figures the app shows before confirming) with a hold on the user's
 * available balance; a change releases it and holds the new cost; a cancel releases it. The
 * allocation (worker.ts) captures the cost of the lots allocated and releases the rest.
 *
 * Every request runs once per (user, request id), under the user's lock, in one transaction: a
 * retry answers the subscription as it is, the same id for another request is refused
 * (`hint_requestIdReused`). Live book only: a demo session is refused (`hint_newShareLiveOnly`).
 * The window is judged from the clock (subscribeStart ≤ now < subscribeEnd), not from the status
 * the worker stored.
 *
 * Lock order: the user's row, the offering's row (shared: many subscribe at once; the allocation
 * and a cancel take it exclusively, so they wait for subscriptions in flight and keep new ones
 * out), the subscription's row, then the ledger's accounts.
 */
import { randomBytes } from 'node:crypto';
import {
  OFFERING_STATUS,
  SUBSCRIPTION_STATUS,
  subscriptionCost,
  type LanguageKey,
  type Offering,
  type OfferingAllocation,
  type PageQuery,
  type SubscribeBody,
  type Subscription,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import { withUserLock } from '../../db/user-lock';
import type { Actor } from '../../http/actor';
import * as ledger from '../../ledger/ledger';
import type { Clock } from '../../lib/clock';
import { AppError, assert } from '../../lib/errors';
import { assertAmount } from '../../lib/money-assert';
import { fingerprint, nextId, orderNumber } from '../wallet';
import * as repo from './repo';
import { allocationView, offeringView, phaseOf, subscriptionView } from './views';

export interface NewSharesDeps {
  db: Database;
  clock: Clock;
  /** The user's private /ws topics (balances changed). */
  notify?: (userId: number, topic: string, data: unknown) => void;
}

/** The ledger's hold type of a subscription (its entries: `hold:new_share`, `cancel:new_share`…). */
export const HOLD_TYPE = 'new_share';
/** Order numbers of subscriptions: N, the time, the id. */
const ORDER_PREFIX = 'N';
/** Draws of a public id before giving up (64 random bits: a second draw is already unheard of). */
const PUBLIC_ID_DRAWS = 5;

type Action = 'subscribe' | 'change' | 'cancel';

/** What `lots` of an offering cost at its terms, in its currency. */
export function costOf(
  offering: Pick<repo.OfferingRow, 'price' | 'lot_size' | 'fee_rate' | 'scale'>,
  lots: bigint,
) {
  return subscriptionCost(
    { price: offering.price, lotSize: offering.lot_size, feeRate: offering.fee_rate },
    lots,
    offering.scale,
  );
}

export class NewShares {
  constructor(private readonly deps: NewSharesDeps) {}

  // ------------------------------------------------------------ offerings

  /** The level an offering needs: its own, or the newShares feature's when that is higher. */
  private static levelNeeded(offering: repo.OfferingRow, featureLevel: number): number {
    return Math.max(offering.min_auth_level, featureLevel);
  }

  async offerings(
    actor: Actor | null,
    lang: LanguageKey,
    query: PageQuery & { productType?: number; tab?: 'upcoming' | 'open' | 'listed' | 'all' },
  ): Promise<{ rows: Offering[]; total: number }> {
    const now = this.deps.clock.now();
    const page = await repo.pageOfferings(
      this.deps.db,
      { tab: query.tab ?? 'current', productType: query.productType, now },
      query,
    );
    const [mine, levels] = await Promise.all([
      actor
        ? repo.mySubscriptionIds(
            this.deps.db,
            actor.userId,
            page.rows.map((row) => row.id),
          )
        : new Map<number, number>(),
      repo.identityLevels(this.deps.db, actor?.userId ?? 0),
    ]);
    return {
      rows: page.rows.map((row) =>
        offeringView(row, lang, now, {
          mySubscriptionId: mine.get(row.id) ?? null,
          minAuthLevel: NewShares.levelNeeded(row, levels.featureLevel),
        }),
      ),
      total: page.total,
    };
  }

  async offering(id: number, actor: Actor | null, lang: LanguageKey): Promise<Offering> {
    const now = this.deps.clock.now();
    const row = await repo.findOffering(this.deps.db, id);
    if (!row) throw new AppError('hint_notFound', 404, ['id']);
    const [mine, levels] = await Promise.all([
      actor ? repo.mySubscriptionIds(this.deps.db, actor.userId, [id]) : new Map<number, number>(),
      repo.identityLevels(this.deps.db, actor?.userId ?? 0),
    ]);
    return offeringView(row, lang, now, {
      mySubscriptionId: mine.get(id) ?? null,
      minAuthLevel: NewShares.levelNeeded(row, levels.featureLevel),
    });
  }

  /** The published allocation; a signed-in user's own lines named. */
  async allocation(id: number, actor: Actor | null): Promise<OfferingAllocation> {
    const row = await repo.findOffering(this.deps.db, id);
    if (!row) throw new AppError('hint_notFound', 404, ['id']);
    if (row.status !== OFFERING_STATUS.allocated && row.status !== OFFERING_STATUS.listed)
      throw new AppError('hint_newShareNotAllocated', 422, ['id']);
    const mine = actor ? await repo.userPublicIds(this.deps.db, id, actor.userId) : [];
    return allocationView(row, mine);
  }

  // ------------------------------------------------------------ subscriptions

  async subscriptions(
    actor: Actor,
    query: PageQuery & { productType?: number },
    lang: LanguageKey,
  ): Promise<{ rows: Subscription[]; total: number }> {
    const now = this.deps.clock.now();
    // Subscriptions are of the live book; a demo session sees the same (its user's) list.
    const page = await repo.pageUserSubscriptions(
      this.deps.db,
      { userId: actor.userId, productType: query.productType },
      query,
    );
    return { rows: page.rows.map((row) => subscriptionView(row, lang, now)), total: page.total };
  }

  private static liveOnly(actor: Actor): void {
    if (actor.book !== 'live') throw new AppError('hint_newShareLiveOnly', 422);
  }

  /** Refuses when the offering's window is not open now (cancelled offerings included). */
  private static requireWindow(offering: repo.OfferingRow, now: Date): void {
    if (phaseOf(offering, now) !== OFFERING_STATUS.subscribing)
      throw new AppError('hint_newShareNotOpen', 422, ['id']);
  }

  private static checkLots(offering: repo.OfferingRow, lots: bigint): void {
    if (lots < BigInt(offering.min_lots))
      throw new AppError('hint_newShareLotsMin', 422, [offering.min_lots]);
    if (lots > BigInt(offering.max_lots))
      throw new AppError('hint_newShareLotsMax', 422, [offering.max_lots]);
  }

  /**
   * Runs a request once per (user, request id), in one transaction under the user's lock: `work`
   * the first time (it answers the subscription and whether it changed anything, and whether the
   * request is recorded), else the subscription as it is now.
   */
  private async once(
    actor: Actor,
    requestId: string,
    action: Action,
    hash: string,
    work: (tx: Queryable) => Promise<{ id: number; changed: boolean }>,
  ): Promise<{ row: repo.SubscriptionRow; changed: boolean }> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      await withUserLock(tx, actor.userId);
      const earlier = await repo.findRequest(tx, actor.userId, requestId);
      if (earlier) {
        if (earlier.request_hash !== hash) throw new AppError('hint_requestIdReused', 409);
        return { row: (await repo.findSubscription(tx, earlier.subscription_id))!, changed: false };
      }
      const done = await work(tx);
      if (done.changed)
        await repo.insertRequest(tx, {
          userId: actor.userId,
          requestId,
          hash,
          action,
          subscriptionId: done.id,
          now,
        });
      return { row: (await repo.findSubscription(tx, done.id))!, changed: done.changed };
    });
  }

  /** Freezes what `lots` cost, on the user's available balance. */
  private async hold(
    tx: Queryable,
    offering: repo.OfferingRow,
    userId: number,
    subscriptionId: number,
    lots: bigint,
  ): Promise<{ holdId: number; frozen: string }> {
    const { total } = costOf(offering, lots);
    assertAmount(total, 'new share subscription', offering.scale);
    const hold = await ledger.hold(tx, {
      book: 'live',
      userId,
      currencyId: offering.currency_id,
      amount: total,
      type: HOLD_TYPE,
      refType: 'new_share_subscription',
      refId: subscriptionId,
    });
    assert(!hold.duplicate, 'new shares: a new hold reused a request id');
    return { holdId: hold.id, frozen: total };
  }

  private told(row: repo.SubscriptionRow): void {
    this.deps.notify?.(row.user_id, 'balances', { book: 'live', currencyId: row.currency_id });
  }

  /**
   * Subscribes for lots of an offering whose window is open: within the offering's lots per user,
   * at the identity level it needs, once per user and offering; the cost is frozen.
   */
  async subscribe(actor: Actor, body: SubscribeBody, lang: LanguageKey): Promise<Subscription> {
    NewShares.liveOnly(actor);
    const now = this.deps.clock.now();
    const lots = BigInt(body.lots);
    const hash = fingerprint({ action: 'subscribe', offeringId: body.offeringId, lots: body.lots });
    const { row, changed } = await this.once(
      actor,
      body.requestId,
      'subscribe',
      hash,
      async (tx) => {
        if (!(await repo.lockOffering(tx, body.offeringId, 'share')))
          throw new AppError('hint_notFound', 404, ['offeringId']);
        const offering = (await repo.findOffering(tx, body.offeringId))!;
        NewShares.requireWindow(offering, now);
        NewShares.checkLots(offering, lots);
        const levels = await repo.identityLevels(tx, actor.userId);
        const needed = NewShares.levelNeeded(offering, levels.featureLevel);
        if (levels.authLevel < needed)
          throw new AppError('hint_identityRequired', 403, [needed + 1], 500);
        if ((await repo.activeSubscriptionId(tx, offering.id, actor.userId)) !== undefined)
          throw new AppError('hint_newShareAlreadySubscribed', 409, ['offeringId']);
        const id = await nextId(tx, 'new_share_subscription');
        const { holdId, frozen } = await this.hold(tx, offering, actor.userId, id, lots);
        for (let draw = 0; ; draw += 1) {
          assert(draw < PUBLIC_ID_DRAWS, 'new shares: no unused public id drawn');
          const written = await repo.insertSubscription(tx, {
            id,
            publicId: randomBytes(8).toString('hex'),
            orderNo: orderNumber(ORDER_PREFIX, now, id),
            offeringId: offering.id,
            userId: actor.userId,
            lots: body.lots,
            frozen,
            holdId,
            now,
          });
          if (written) break;
        }
        return { id, changed: true };
      },
    );
    if (changed) this.told(row);
    return subscriptionView(row, lang, now);
  }

  /**
   * The user's own open subscription, locked after its offering's row (the lock order): the
   * offering and the subscription, or not found.
   */
  private async lockOwn(
    tx: Queryable,
    actor: Actor,
    id: number,
  ): Promise<{ offering: repo.OfferingRow; row: repo.SubscriptionRow }> {
    const found = await repo.findSubscription(tx, id);
    if (!found || found.user_id !== actor.userId) throw new AppError('hint_notFound', 404, ['id']);
    await repo.lockOffering(tx, found.offering_id, 'share');
    const offering = (await repo.findOffering(tx, found.offering_id))!;
    const row = (await repo.findSubscription(tx, id, { lock: true }))!;
    return { offering, row };
  }

  /** Changes the lots of an open subscription while the window is open: the hold is replaced. */
  async change(
    actor: Actor,
    body: { id: number; lots: string; requestId: string },
    lang: LanguageKey,
  ): Promise<Subscription> {
    NewShares.liveOnly(actor);
    const now = this.deps.clock.now();
    const lots = BigInt(body.lots);
    const hash = fingerprint({ action: 'change', id: body.id, lots: body.lots });
    const { row, changed } = await this.once(actor, body.requestId, 'change', hash, async (tx) => {
      const { offering, row: current } = await this.lockOwn(tx, actor, body.id);
      if (current.status !== SUBSCRIPTION_STATUS.open)
        throw new AppError('hint_newShareNotOpen', 422, ['id']);
      NewShares.requireWindow(offering, now);
      NewShares.checkLots(offering, lots);
      if (lots !== BigInt(current.lots)) {
        // Released first: the new cost may use what the old one froze.
        await ledger.release(tx, current.hold_id, 'change');
        const { holdId, frozen } = await this.hold(tx, offering, actor.userId, current.id, lots);
        await repo.changeLots(tx, current.id, { lots: body.lots, frozen, holdId, now });
      }
      return { id: current.id, changed: true };
    });
    if (changed) this.told(row);
    return subscriptionView(row, lang, now);
  }

  /**
   * Cancels an open subscription while the window is open: what it froze is released at once.
   * `changed` false: it was cancelled already (by this request or another).
   */
  async cancel(
    actor: Actor,
    body: { id: number; requestId: string },
    lang: LanguageKey,
  ): Promise<{ changed: boolean; subscription: Subscription }> {
    NewShares.liveOnly(actor);
    const now = this.deps.clock.now();
    const hash = fingerprint({ action: 'cancel', id: body.id });
    const { row, changed } = await this.once(actor, body.requestId, 'cancel', hash, async (tx) => {
      const { offering, row: current } = await this.lockOwn(tx, actor, body.id);
      if (current.status === SUBSCRIPTION_STATUS.cancelled)
        return { id: current.id, changed: false };
      if (current.status !== SUBSCRIPTION_STATUS.open)
        throw new AppError('hint_newShareNotOpen', 422, ['id']);
      NewShares.requireWindow(offering, now);
      await ledger.release(tx, current.hold_id, 'cancel');
      await repo.markSubscriptionsCancelled(tx, [current.id], now);
      return { id: current.id, changed: true };
    });
    if (changed) this.told(row);
    return { changed, subscription: subscriptionView(row, lang, now) };
  }
}
