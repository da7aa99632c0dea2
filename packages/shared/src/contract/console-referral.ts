/**
 * The console's referral pages (/admin-api/referral…): finance operators and admins set the
 * commission terms (a change applies from now on, never backwards), freeze and unfreeze an
 * inviter's commissions with a reason (the user is told), read a user's team and commissions, and
 * the referral report. Every change is audited; nothing here moves money (the commission worker
 * pays through the ledger).
 */
import {
  consoleCommission,
  consoleCommissionQuery,
  consoleReferralTerms,
  consoleReferralUser,
  referralFreeze,
  referralFreezeBody,
  referralReport,
  referralReportQuery,
  referralTermsSaveBody,
  referralUserQuery,
} from '../schemas/referral';
import { pageQuery } from '../schemas/common';
import type { OperatorRole } from '../constants';
import { route } from './route';

const ROLES = ['admin', 'finance'] as const satisfies readonly OperatorRole[];

export const consoleReferralApi = {
  terms: route({
    method: 'GET',
    path: '/admin-api/referral/terms',
    auth: 'operator',
    roles: ROLES,
    summary: 'The commission terms in force and their history, newest first.',
    data: consoleReferralTerms,
  }),
  saveTerms: route({
    method: 'POST',
    path: '/admin-api/referral/terms/save',
    auth: 'operator',
    roles: ROLES,
    summary:
      'New commission terms (levels paid, a rate per level), in force from now: fees charged before keep the terms of their time.',
    body: referralTermsSaveBody,
    encoding: 'json',
    data: consoleReferralTerms,
    hints: ['hint_referralRateTooHigh', 'hint_referralRatesTotal', 'hint_referralRateBeyondLevels'],
  }),
  freezes: route({
    method: 'GET',
    path: '/admin-api/referral/freezes',
    auth: 'operator',
    roles: ROLES,
    summary: 'Inviters whose commissions are frozen, newest first.',
    query: pageQuery,
    rows: referralFreeze,
  }),
  freeze: route({
    method: 'POST',
    path: '/admin-api/referral/freeze',
    auth: 'operator',
    roles: ROLES,
    summary:
      "Freezes an inviter's commissions with a reason (later ones are withheld); the user is told (`hint_48` when frozen already).",
    body: referralFreezeBody,
    encoding: 'json',
    data: referralFreeze,
    hints: ['hint_userNotFound'],
  }),
  unfreeze: route({
    method: 'POST',
    path: '/admin-api/referral/unfreeze',
    auth: 'operator',
    roles: ROLES,
    summary:
      "Unfreezes an inviter's commissions with a reason; the user is told (`hint_48` when not frozen).",
    body: referralFreezeBody,
    encoding: 'json',
    hints: ['hint_userNotFound'],
  }),
  user: route({
    method: 'GET',
    path: '/admin-api/referral/user',
    auth: 'operator',
    roles: ROLES,
    summary:
      "A user's referral: inviter, members per level, commissions paid and withheld, freeze.",
    query: referralUserQuery,
    data: consoleReferralUser,
    hints: ['hint_userNotFound'],
  }),
  commissions: route({
    method: 'GET',
    path: '/admin-api/referral/commissions',
    auth: 'operator',
    roles: ROLES,
    summary: 'Commission records, newest first; of one inviter or one paying member.',
    query: consoleCommissionQuery,
    rows: consoleCommission,
  }),
  report: route({
    method: 'GET',
    path: '/admin-api/referral/report',
    auth: 'operator',
    roles: ROLES,
    summary:
      'The referral report of a period (default 30 days): top inviters by commission and commissions paid per day.',
    query: referralReportQuery,
    data: referralReport,
  }),
};
