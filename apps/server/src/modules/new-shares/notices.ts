/**
 * The notifications of subscriptions (the messages module's NoticeEvent): allocated (lots, what
 * was paid and what was returned), refunded (no lot: everything returned), the offering cancelled
 * (with the operator's reason), listed (the shares in the holding, sellable from the lock-up's
 * end; a coin's in the wallet, frozen until then). Each opens the user's subscriptions (route
 * names of apps/web/src/config/paths.ts).
 */
import type { NoticeEvent } from '../messages';

const ROUTE = 'newShareHistory';

interface Subscription {
  userId: number;
  id: number;
  orderNo: string;
  code: string;
}

export function allocated(
  row: Subscription & {
    allocatedLots: string;
    lots: string;
    paid: string;
    refunded: string;
    currency: string;
  },
): NoticeEvent {
  return {
    userId: row.userId,
    type: 'newShareAllocated',
    ref: `newShare:${row.id}:allocated`,
    params: [
      row.code,
      row.allocatedLots,
      row.lots,
      row.paid,
      row.refunded,
      row.currency,
      row.orderNo,
    ],
    link: { route: ROUTE },
  };
}

export function refunded(
  row: Subscription & { lots: string; refunded: string; currency: string },
): NoticeEvent {
  return {
    userId: row.userId,
    type: 'newShareRefunded',
    ref: `newShare:${row.id}:allocated`,
    params: [row.code, row.lots, row.refunded, row.currency, row.orderNo],
    link: { route: ROUTE },
  };
}

export function cancelled(
  row: Subscription & { refunded: string; currency: string; reason: string },
): NoticeEvent {
  return {
    userId: row.userId,
    type: 'newShareCancelled',
    ref: `newShare:${row.id}:cancelled`,
    params: [row.code, row.refunded, row.currency, row.reason, row.orderNo],
    link: { route: ROUTE },
  };
}

export function listed(
  row: Subscription & { quantity: string; lockedUntil: string; coin: boolean },
): NoticeEvent {
  return {
    userId: row.userId,
    type: row.coin ? 'newShareCoinsListed' : 'newShareListed',
    ref: `newShare:${row.id}:listed`,
    params: [row.code, row.quantity, row.lockedUntil, row.orderNo],
    link: { route: ROUTE },
  };
}
