/**
 * The calls of new shares and new coins (issue 24), with the spec's names: offerings
 * (newProductApplyPurchase) and subscriptions (userApplyPurchaseOrder). Subscribing freezes the
 * cost of the lots asked (and the fee when the offering states one) with a ledger hold; the user
 * may change or cancel while the window is open. The allocation is computed by the published rule
 * from public inputs and published with its seed; anyone can recompute it (`npm run ipo:verify`).
 * Live book only: a demo session is refused.
 */
import {
  offering,
  offeringAllocation,
  offeringListQuery,
  offeringQuery,
  subscribeBody,
  subscription,
  subscriptionCancelBody,
  subscriptionChangeBody,
  subscriptionListQuery,
} from '../schemas/new-shares';
import { route } from './route';

const SUBSCRIBE_HINTS = [
  'hint_notFound',
  'hint_newShareNotOpen',
  'hint_newShareLotsMin',
  'hint_newShareLotsMax',
  'hint_newShareAlreadySubscribed',
  'hint_newShareLiveOnly',
  'hint_identityRequired',
  'hint_insufficientBalance',
  'hint_requestIdReused',
] as const;

export const newSharesApi = {
  offerings: route({
    method: 'GET',
    path: '/api/newProductApplyPurchase/list',
    auth: 'optional',
    summary:
      'Offerings of new shares (productType 1) or new coins (2): upcoming and open by default, or a tab (upcoming, open, listed, all), soonest first.',
    query: offeringListQuery,
    rows: offering,
  }),
  offering: route({
    method: 'GET',
    path: '/api/newProductApplyPurchase/detail',
    auth: 'optional',
    summary: 'One offering: its terms, times, the published rule and the book so far.',
    query: offeringQuery,
    data: offering,
    hints: ['hint_notFound'],
  }),
  allocation: route({
    method: 'GET',
    path: '/api/newProductApplyPurchase/allocation',
    auth: 'optional',
    summary:
      "An allocated offering's published allocation: the book at close (opaque ids, lots), the canonical input, its SHA-256 seed and the result; a signed-in user's own lines are named.",
    query: offeringQuery,
    data: offeringAllocation,
    hints: ['hint_notFound', 'hint_newShareNotAllocated'],
  }),
  subscribe: route({
    method: 'POST',
    path: '/api/userApplyPurchaseOrder/addUserApplyPurchaseOrder',
    auth: 'user',
    summary:
      'Subscribes for lots of an open offering: the cost (lots × lot size × price, rounded up) and fee are frozen from the available balance. One subscription per user and offering (change it instead).',
    body: subscribeBody,
    data: subscription,
    hints: SUBSCRIBE_HINTS,
  }),
  change: route({
    method: 'POST',
    path: '/api/userApplyPurchaseOrder/update',
    auth: 'user',
    summary:
      'Changes the lots of an open subscription while the window is open: the hold is replaced by the new cost.',
    body: subscriptionChangeBody,
    data: subscription,
    hints: SUBSCRIBE_HINTS,
  }),
  cancel: route({
    method: 'POST',
    path: '/api/userApplyPurchaseOrder/cancel',
    auth: 'user',
    summary:
      'Cancels an open subscription while the window is open: everything frozen is released at once.',
    body: subscriptionCancelBody,
    data: subscription,
    hints: ['hint_notFound', 'hint_newShareNotOpen', 'hint_requestIdReused'],
  }),
  subscriptions: route({
    method: 'GET',
    path: '/api/userApplyPurchaseOrder/list',
    auth: 'user',
    summary:
      "The user's subscriptions, newest first: lots asked and allocated, paid and refunded, locked until, sellable.",
    query: subscriptionListQuery,
    rows: subscription,
  }),
};
