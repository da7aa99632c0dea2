/**
 * The console's user pages (/admin-api/users…): support finds users and reads everything of one,
 * finance reads what concerns money (profile, balances, ledger, deposits, withdrawals), support
 * reads a user's security state, ends their sessions or lifts their withdrawal-password lock
 * (disabling a user is operatorsApi.setUserStatus), and an admin removes the two-factor of a user
 * who lost their authenticator. Admins may make every call. No call here edits a balance, a price,
 * an order or an outcome (PRODUCT section 1).
 */
import { z } from 'zod';
import {
  consoleLedgerPosting,
  consoleUser,
  consoleUserBalance,
  consoleUserDetail,
  consoleUserHolding,
  consoleUserOrder,
  consoleUserSecurity,
  consoleUserSession,
  userHoldingsQuery,
  userIdBody,
  userIdQuery,
  userLedgerQuery,
  userOrdersQuery,
  userPageQuery,
  userSearchQuery,
  userSessionsEnded,
  userSessionsQuery,
  userTwoFactorReset,
  userTwoFactorResetBody,
  withdrawLockReset,
} from '../schemas/console-users';
import { loginAttempt } from '../schemas/security';
import { reviewedRecharge, reviewedWithdraw } from '../schemas/operators';
import { ROUTE_ROLES, route } from './route';

const { ADMIN, READ, SUPPORT } = ROUTE_ROLES;

export const consoleUsersApi = {
  users: route({
    method: 'GET',
    path: '/admin-api/users',
    auth: 'operator',
    roles: READ,
    summary:
      'Users found by account (prefix or exact), id or invite code, sorted by id, registration or last sign-in.',
    query: userSearchQuery,
    rows: consoleUser,
  }),
  user: route({
    method: 'GET',
    path: '/admin-api/users/detail',
    auth: 'operator',
    roles: READ,
    summary:
      "A user's profile: account, registration, last sign-in, status, inviter, withdrawal-password lock, live sessions.",
    query: userIdQuery,
    data: consoleUserDetail,
    hints: ['hint_notFound'],
  }),
  balances: route({
    method: 'GET',
    path: '/admin-api/users/balances',
    auth: 'operator',
    roles: READ,
    summary: "A user's balances per book and currency (available, frozen, margin, staked, loan).",
    query: userIdQuery,
    data: z.array(consoleUserBalance),
    hints: ['hint_notFound'],
  }),
  ledger: route({
    method: 'GET',
    path: '/admin-api/users/ledger',
    auth: 'operator',
    roles: READ,
    summary:
      "Postings of a user's ledger accounts, newest first, each with its journal entry (type, reference, request id).",
    query: userLedgerQuery,
    rows: consoleLedgerPosting,
  }),
  recharges: route({
    method: 'GET',
    path: '/admin-api/users/recharges',
    auth: 'operator',
    roles: READ,
    summary: "A user's deposits, newest first.",
    query: userPageQuery,
    rows: reviewedRecharge,
  }),
  withdrawals: route({
    method: 'GET',
    path: '/admin-api/users/withdrawals',
    auth: 'operator',
    roles: READ,
    summary: "A user's withdrawals, newest first, with their destinations.",
    query: userPageQuery,
    rows: reviewedWithdraw,
  }),
  orders: route({
    method: 'GET',
    path: '/admin-api/users/orders',
    auth: 'operator',
    roles: SUPPORT,
    summary:
      "A user's orders of one kind (contracts, fast trades, spot, coin-to-coin), newest first; `open` keeps those still open.",
    query: userOrdersQuery,
    rows: consoleUserOrder,
  }),
  holdings: route({
    method: 'GET',
    path: '/admin-api/users/holdings',
    auth: 'operator',
    roles: SUPPORT,
    summary: 'What a user holds through spot and coin-to-coin, per book and product.',
    query: userHoldingsQuery,
    rows: consoleUserHolding,
  }),
  sessions: route({
    method: 'GET',
    path: '/admin-api/users/sessions',
    auth: 'operator',
    roles: SUPPORT,
    summary:
      "A user's sessions, newest first, with device and address: `active` keeps the live ones, else every sign-in (the login history).",
    query: userSessionsQuery,
    rows: consoleUserSession,
  }),
  loginHistory: route({
    method: 'GET',
    path: '/admin-api/users/loginHistory',
    auth: 'operator',
    roles: SUPPORT,
    summary:
      "A user's sign-in attempts of the last 90 days, newest first: time, address, device and result.",
    query: userPageQuery,
    rows: loginAttempt,
  }),
  endSessions: route({
    method: 'POST',
    path: '/admin-api/users/endSessions',
    auth: 'operator',
    roles: SUPPORT,
    summary: 'Ends every session of a user at once (their sockets are signed out); audited.',
    body: userIdBody,
    encoding: 'json',
    data: userSessionsEnded,
    hints: ['hint_notFound'],
  }),
  resetWithdrawLock: route({
    method: 'POST',
    path: '/admin-api/users/resetWithdrawLock',
    auth: 'operator',
    roles: SUPPORT,
    summary:
      "Lifts the lock (and clears the count) of a user's wrong withdrawal passwords; audited.",
    body: userIdBody,
    encoding: 'json',
    data: withdrawLockReset,
    hints: ['hint_notFound'],
  }),
  security: route({
    method: 'GET',
    path: '/admin-api/users/security',
    auth: 'operator',
    roles: SUPPORT,
    summary:
      "A user's security state: two-factor, anti-phishing code (set or not, never the code), withdrawal whitelist and saved destinations, passwords, the withdrawal hold and its cause, live sessions, last sign-in and last refused one, verification level.",
    query: userIdQuery,
    data: consoleUserSecurity,
    hints: ['hint_notFound'],
  }),
  resetTwoFactor: route({
    method: 'POST',
    path: '/admin-api/users/twoFactor/reset',
    auth: 'operator',
    roles: ADMIN,
    summary:
      'Removes the two-factor of a user who lost their authenticator: every session of theirs ends (their sockets are signed out) and withdrawals are held 24 hours; audited with the reason.',
    body: userTwoFactorResetBody,
    encoding: 'json',
    data: userTwoFactorReset,
    hints: ['hint_notFound', 'hint_twoFactorOff'],
  }),
};
