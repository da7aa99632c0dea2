/**
 * The console's new shares (/admin-api/new-shares…): offerings created and changed before they
 * open, the subscriptions of each (counts, lots, funds frozen), the computed allocation with its
 * seed, and cancelling an offering before its allocation (every hold released, audited,
 * announced). No call changes an allocation: it is the published rule's. Admins and finance.
 */
import {
  consoleOffering,
  consoleOfferingQuery,
  consoleSubscription,
  consoleSubscriptionQuery,
  offeringAllocation,
  offeringCancelBody,
  offeringQuery,
  offeringSaveBody,
} from '../schemas/new-shares';
import { ROUTE_ROLES, route } from './route';

const ROLES = ROUTE_ROLES.FINANCE;

export const consoleNewSharesApi = {
  offerings: route({
    method: 'GET',
    path: '/admin-api/new-shares/offerings',
    auth: 'operator',
    roles: ROLES,
    summary: 'Offerings, newest first, with their book: subscribers, lots asked, funds frozen.',
    query: consoleOfferingQuery,
    rows: consoleOffering,
  }),
  saveOffering: route({
    method: 'POST',
    path: '/admin-api/new-shares/offerings/save',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Creates (no id) or changes an offering before its window opens: texts in the languages, code, price, lot size, lots offered and per user, fee, times, lock-up, identity level.',
    body: offeringSaveBody,
    encoding: 'json',
    data: consoleOffering,
    hints: [
      'hint_notFound',
      'hint_newShareStarted',
      'hint_newShareCodeTaken',
      'hint_newShareCodeUnknownToFeed',
      'hint_newShareCoinCodeInvalid',
      'hint_newShareStartPast',
      'hint_newShareMaxBelowMin',
      'hint_newShareMaxAboveOffer',
      'hint_newShareTimesOrder',
    ],
  }),
  cancelOffering: route({
    method: 'POST',
    path: '/admin-api/new-shares/offerings/cancel',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Cancels an offering before its allocation, with the reason subscribers read: every hold is released at once (`hint_48` when it was cancelled already).',
    body: offeringCancelBody,
    encoding: 'json',
    data: consoleOffering,
    hints: ['hint_notFound', 'hint_newShareAllocated'],
  }),
  subscriptions: route({
    method: 'GET',
    path: '/admin-api/new-shares/subscriptions',
    auth: 'operator',
    roles: ROLES,
    summary: "An offering's subscriptions, newest first, of a status or a user.",
    query: consoleSubscriptionQuery,
    rows: consoleSubscription,
    hints: ['hint_userNotFound'],
  }),
  allocation: route({
    method: 'GET',
    path: '/admin-api/new-shares/allocation',
    auth: 'operator',
    roles: ROLES,
    summary: "An allocated offering's computed allocation, its input and seed (as published).",
    query: offeringQuery,
    data: offeringAllocation,
    hints: ['hint_notFound', 'hint_newShareNotAllocated'],
  }),
};
