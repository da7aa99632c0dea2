/**
 * How offerings, subscriptions and allocations are shown: to users in their language, with the
 * status the clock gives (offeringPhase) even before the worker stored it; to operators with every
 * text.
 */
import {
  mul,
  normalize,
  offeringPhase,
  OFFERING_STATUS,
  toScale,
  type ConsoleOffering,
  type ConsoleSubscription,
  type LanguageKey,
  type Offering,
  type OfferingAllocation,
  type Subscription,
} from '@bourse/shared';
import { assert } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import type { OfferingRow, SubscriptionRow } from './repo';

const DAY_MS = 86_400_000;

/** When the shares an offering allocates may be sold: the listing time plus the lock-up. */
export function lockedUntil(row: { listing_time: Date; lock_up_days: number }): Date {
  return new Date(row.listing_time.getTime() + row.lock_up_days * DAY_MS);
}

/**
 * The coin a crypto offering lists: its code without the trade currency (NOVA of NOVAUSDT), when
 * that is a currency name (2 to 10 capital letters or digits); null otherwise.
 */
export function coinOf(code: string, tradeCurrencyName: string): string | null {
  if (!code.endsWith(tradeCurrencyName)) return null;
  const coin = code.slice(0, -tradeCurrencyName.length);
  return /^[A-Z0-9]{2,10}$/.test(coin) ? coin : null;
}

/** The status at `now`: the stored one, or the window's phase its times give. */
export function phaseOf(
  row: { status: number; subscribe_start: Date; subscribe_end: Date },
  now: Date,
): number {
  return offeringPhase(
    {
      status: row.status,
      subscribeStart: row.subscribe_start.toISOString(),
      subscribeEnd: row.subscribe_end.toISOString(),
    },
    now.getTime(),
  );
}

/** Whether an offering's results are stored (allocated or listed). */
function allocated(row: OfferingRow): boolean {
  return row.status === OFFERING_STATUS.allocated || row.status === OFFERING_STATUS.listed;
}

/** The terms and book every view of an offering shows. */
function offeringTerms(row: OfferingRow, now: Date) {
  return {
    id: row.id,
    productType: row.product_type,
    code: row.code,
    currencyId: row.currency_id,
    currency: row.currency_name,
    scale: row.scale,
    price: normalize(row.price),
    lotSize: normalize(row.lot_size),
    lotsOffered: row.lots_offered,
    quantityOffered: normalize(mul(row.lots_offered, row.lot_size)),
    minLots: row.min_lots,
    maxLots: row.max_lots,
    feeRate: normalize(row.fee_rate),
    subscribeStart: row.subscribe_start.toISOString(),
    subscribeEnd: row.subscribe_end.toISOString(),
    allocationTime: row.allocation_time.toISOString(),
    listingTime: row.listing_time.toISOString(),
    lockUpDays: row.lock_up_days,
    minAuthLevel: row.min_auth_level,
    rule: row.rule,
    status: phaseOf(row, now),
    subscribers: row.subscribers,
    // Once allocated: the book as it closed (refunded subscriptions count).
    lotsRequested: allocated(row) ? row.lots_requested_at_close! : row.lots_requested,
    productId: row.product_id,
    serverTime: now.toISOString(),
  };
}

export function offeringView(
  row: OfferingRow,
  lang: LanguageKey,
  now: Date,
  extra: { mySubscriptionId: number | null; minAuthLevel: number },
): Offering {
  return {
    ...offeringTerms(row, now),
    name: pickLanguage(row.name, lang),
    description: pickLanguage(row.description, lang),
    minAuthLevel: extra.minAuthLevel,
    mySubscriptionId: extra.mySubscriptionId,
  };
}

export function consoleOfferingView(row: OfferingRow, now: Date): ConsoleOffering {
  return {
    ...offeringTerms(row, now),
    name: row.name,
    description: row.description,
    frozen: toScale(row.frozen, row.scale),
    seed: row.allocation_seed,
    cancelReason: row.cancel_reason,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

/** The published allocation of an allocated offering, its lines read back from the result. */
export function allocationView(row: OfferingRow, mySubscriptionIds: string[]): OfferingAllocation {
  assert(allocated(row), `new shares: offering ${row.id} has no allocation`);
  const lines = row
    .allocation_result!.split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const [id, lots, share] = line.split(' ');
      assert(id && lots && share, `new shares: result line of offering ${row.id} unreadable`);
      return { id, lots, allocated: share };
    });
  return {
    offeringId: row.id,
    code: row.code,
    rule: row.rule,
    lotsOffered: row.lots_offered,
    lotsRequested: row.lots_requested_at_close!,
    lotsAllocated: row.lots_allocated!,
    oversubscribed: row.oversubscribed!,
    input: row.allocation_input!,
    seed: row.allocation_seed!,
    result: row.allocation_result!,
    lines,
    allocatedAt: row.allocated_at!.toISOString(),
    mySubscriptionIds,
  };
}

export function subscriptionView(row: SubscriptionRow, lang: LanguageKey, now: Date): Subscription {
  const money = (value: string | null) => (value === null ? null : toScale(value, row.scale));
  const allocatedLots = row.allocated_lots === null ? null : BigInt(row.allocated_lots);
  const offeringStatus = phaseOf(
    {
      status: row.offering_status,
      subscribe_start: row.subscribe_start,
      subscribe_end: row.subscribe_end,
    },
    now,
  );
  const until = allocatedLots !== null && allocatedLots > 0n ? lockedUntil(row) : null;
  return {
    id: row.id,
    publicId: row.public_id,
    orderNo: row.order_no,
    offeringId: row.offering_id,
    productType: row.product_type,
    code: row.code,
    name: pickLanguage(row.name, lang),
    currency: row.currency_name,
    scale: row.scale,
    price: normalize(row.price),
    lotSize: normalize(row.lot_size),
    lots: row.lots,
    frozen: toScale(row.frozen, row.scale),
    allocatedLots: row.allocated_lots,
    allocatedQuantity:
      row.allocated_lots === null ? null : normalize(mul(row.allocated_lots, row.lot_size)),
    paid: money(row.paid),
    refunded: money(row.refunded),
    status: row.status,
    offeringStatus,
    listingTime: row.listing_time.toISOString(),
    lockedUntil: until ? until.toISOString() : null,
    // Coins are sellable once their hold is released (the worker does it when the lock-up ends).
    sellable:
      until !== null &&
      offeringStatus === OFFERING_STATUS.listed &&
      (row.lock_hold_id === null ? now.getTime() >= until.getTime() : row.unlocked_at !== null),
    productId: row.product_id,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

export function consoleSubscriptionView(row: SubscriptionRow, now: Date): ConsoleSubscription {
  return {
    ...subscriptionView(row, 'en', now),
    userId: row.user_id,
    userAccount: row.user_account ?? '',
  };
}
