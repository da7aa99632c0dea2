/**
 * The notifications of earn orders (the messages module's NoticeEvent): started (at once, or when
 * an operator approves it), completed at maturity (principal and interest paid), redeemed early,
 * rejected. Not one per daily payment: the interest records list those.
 */
import type { EarnKind } from '@bourse/shared';
import type { NoticeEvent } from '../messages';

/** The app's orders screen of each kind (route names of apps/web/src/config/paths.ts). */
const ORDERS_ROUTE: Record<EarnKind, string> = {
  financial: 'lockMiningOrders',
  staking: 'pledgeOrders',
};

interface Order {
  userId: number;
  id: number;
  orderNo: string;
  kind: EarnKind;
  currency: string;
}

export function started(order: Order & { amount: string; firstDay: string }): NoticeEvent {
  return {
    userId: order.userId,
    type: 'earnOrderStarted',
    ref: `earn:${order.id}:started`,
    params: [order.orderNo, order.amount, order.currency, order.firstDay],
    link: { route: ORDERS_ROUTE[order.kind] },
  };
}

export function completed(order: Order & { returned: string; interest: string }): NoticeEvent {
  return {
    userId: order.userId,
    type: 'earnOrderCompleted',
    ref: `earn:${order.id}:ended`,
    params: [order.orderNo, order.returned, order.interest, order.currency],
    link: { route: ORDERS_ROUTE[order.kind] },
  };
}

export function redeemed(order: Order & { returned: string; penalty: string }): NoticeEvent {
  return {
    userId: order.userId,
    type: 'earnOrderRedeemed',
    ref: `earn:${order.id}:ended`,
    params: [order.orderNo, order.returned, order.penalty, order.currency],
    link: { route: ORDERS_ROUTE[order.kind] },
  };
}

export function rejected(order: Order & { amount: string; reason: string }): NoticeEvent {
  return {
    userId: order.userId,
    type: 'earnOrderRejected',
    ref: `earn:${order.id}:ended`,
    params: [order.orderNo, order.amount, order.currency, order.reason],
    link: { route: ORDERS_ROUTE[order.kind] },
  };
}
