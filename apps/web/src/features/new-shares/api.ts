/**
 * The calls of new shares and new coins (newSharesApi): offerings by tab and type, one offering,
 * its published allocation, subscribing, changing and cancelling, and the user's subscriptions;
 * their query keys; and the server's clock, learnt from each offering's `serverTime`, so a
 * countdown does not lie when the device's clock is wrong.
 */
import {
  newSharesApi as routes,
  type Offering,
  type OfferingAllocation,
  type Subscription,
} from '@bourse/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

export type { Offering, OfferingAllocation, Subscription } from '@bourse/shared';

/** Which offerings a tab of the list shows. */
export type OfferingTab = 'upcoming' | 'open' | 'listed';
/** 1 US stocks, 2 crypto. */
export type NewShareType = 1 | 2;

export const newShareKeys = {
  offerings: ['newShareOfferings'] as const,
  list: (productType: NewShareType, tab: OfferingTab) =>
    ['newShareOfferings', 'list', productType, tab] as const,
  offering: (id: number) => ['newShareOfferings', 'detail', id] as const,
  allocation: (id: number) => ['newShareOfferings', 'allocation', id] as const,
  subscriptions: ['newShareSubscriptions'] as const,
  mine: (offeringId: number, subscriptionId: number) =>
    ['newShareSubscriptions', 'of', offeringId, subscriptionId] as const,
};

/** Offerings are a short list per tab and type: one page holds them. */
const OFFERINGS_PAGE = 100;
/** Pages of the user's subscriptions read to find one of them (the list is newest first). */
const SUBSCRIPTION_PAGES_MAX = 10;

// ------------------------------------------------------------------ the server's clock

/**
 * The server's clock minus the device's, from the last offering read: its `serverTime` is the
 * server's now when it answered, the moment the answer arrived is the device's (off by the
 * answer's travel time only).
 */
let serverOffsetMs = 0;

function learnServerClock(serverTime: string, receivedAt: number): void {
  const server = Date.parse(serverTime);
  if (Number.isFinite(server)) serverOffsetMs = server - receivedAt;
}

/** The server's now, by the device's clock corrected. */
export function serverNow(): number {
  return Date.now() + serverOffsetMs;
}

// ------------------------------------------------------------------ calls

export function useOfferings(productType: NewShareType, tab: OfferingTab, signedIn: boolean) {
  return useQuery({
    queryKey: [...newShareKeys.list(productType, tab), signedIn],
    queryFn: async (): Promise<Offering[]> => {
      const page = await api.call(routes.offerings, {
        productType,
        tab,
        pageNum: 1,
        pageSize: OFFERINGS_PAGE,
      });
      const first = page.rows[0];
      if (first) learnServerClock(first.serverTime, Date.now());
      return page.rows;
    },
    // The book and the states move while the screen is open.
    refetchInterval: 15_000,
  });
}

export function useOffering(id: number, signedIn: boolean) {
  return useQuery({
    queryKey: [...newShareKeys.offering(id), signedIn],
    queryFn: async (): Promise<Offering> => {
      const offering = await api.call(routes.offering, { id });
      learnServerClock(offering.serverTime, Date.now());
      return offering;
    },
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: 15_000,
  });
}

export function useAllocation(id: number, signedIn: boolean) {
  return useQuery({
    queryKey: [...newShareKeys.allocation(id), signedIn],
    queryFn: (): Promise<OfferingAllocation> => api.call(routes.allocation, { id }),
    enabled: Number.isInteger(id) && id > 0,
    // A published allocation never changes.
    staleTime: Infinity,
  });
}

/**
 * The user's subscription `subscriptionId` of an offering, found in their subscriptions (newest
 * first, so it is on the first page but for a user of hundreds of subscriptions).
 */
export function useMySubscription(offering: Offering | undefined) {
  const subscriptionId = offering?.mySubscriptionId ?? null;
  return useQuery({
    queryKey: newShareKeys.mine(offering?.id ?? 0, subscriptionId ?? 0),
    queryFn: async (): Promise<Subscription | null> => {
      for (let pageNum = 1; pageNum <= SUBSCRIPTION_PAGES_MAX; pageNum++) {
        const page = await api.call(routes.subscriptions, {
          productType: offering!.productType,
          pageNum,
          pageSize: OFFERINGS_PAGE,
        });
        const found = page.rows.find((row) => row.id === subscriptionId);
        if (found) return found;
        if (page.rows.length < OFFERINGS_PAGE || pageNum * OFFERINGS_PAGE >= page.total) break;
      }
      return null;
    },
    enabled: offering !== undefined && subscriptionId !== null,
  });
}

export function subscribe(input: {
  offeringId: number;
  lots: string;
  requestId: string;
}): Promise<Subscription> {
  return api.call(routes.subscribe, input);
}

export function changeSubscription(input: {
  id: number;
  lots: string;
  requestId: string;
}): Promise<Subscription> {
  return api.call(routes.change, input);
}

export function cancelSubscription(input: { id: number; requestId: string }) {
  return api.call(routes.cancel, input);
}

export function fetchSubscriptionPage(
  page: { pageNum: number; pageSize: number },
  productType: NewShareType | undefined,
) {
  return api.call(routes.subscriptions, { ...page, productType });
}
