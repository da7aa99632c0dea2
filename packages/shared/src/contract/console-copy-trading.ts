/**
 * The console's copy trading (/admin-api/copy-trade…): the applications to lead (approve, or
 * reject with the reason the user reads), the settings (the highest profit-share rate, the track
 * record needed, the delay of shown positions), lead traders (their computed statistics, a cap on
 * followers, suspend and resume with a reason: followers are told, their copies kept), relations
 * and the settlements report. No call writes a statistic. Every change is audited. Admins and
 * finance.
 */
import {
  applicationIdBody,
  applicationRejectBody,
  consoleApplication,
  consoleApplicationQuery,
  consoleRelation,
  consoleRelationQuery,
  consoleTrader,
  consoleTraderQuery,
  copyReportQuery,
  copyReportRow,
  copyTradeSettings,
  copyTradeSettingsBody,
  traderCapBody,
  traderStatusBody,
} from '../schemas/copy-trading';
import { ROUTE_ROLES, route } from './route';

const ROLES = ROUTE_ROLES.FINANCE;

export const consoleCopyTradingApi = {
  applications: route({
    method: 'GET',
    path: '/admin-api/copy-trade/applications',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Applications to lead, pending first then newest, with the identity level and closed trades of each applicant.',
    query: consoleApplicationQuery,
    rows: consoleApplication,
    hints: ['hint_userNotFound'],
  }),
  approveApplication: route({
    method: 'POST',
    path: '/admin-api/copy-trade/applications/approve',
    auth: 'operator',
    roles: ROLES,
    summary: 'Approves a pending application: the user becomes a lead trader (told); audited.',
    body: applicationIdBody,
    encoding: 'json',
    data: consoleApplication,
    hints: ['hint_notFound', 'hint_copyApplicationReviewed'],
  }),
  rejectApplication: route({
    method: 'POST',
    path: '/admin-api/copy-trade/applications/reject',
    auth: 'operator',
    roles: ROLES,
    summary: 'Rejects a pending application with the reason the user reads; audited.',
    body: applicationRejectBody,
    encoding: 'json',
    data: consoleApplication,
    hints: ['hint_notFound', 'hint_copyApplicationReviewed'],
  }),
  settings: route({
    method: 'GET',
    path: '/admin-api/copy-trade/settings',
    auth: 'operator',
    roles: ROLES,
    summary:
      'The copy-trading settings: the highest profit-share rate, the closed trades needed to apply, the delay of shown positions.',
    data: copyTradeSettings,
  }),
  saveSettings: route({
    method: 'POST',
    path: '/admin-api/copy-trade/settings/save',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Changes the settings (a lower highest rate applies to new follows and profile changes; relations keep their rate); audited.',
    body: copyTradeSettingsBody,
    encoding: 'json',
    data: copyTradeSettings,
  }),
  traders: route({
    method: 'GET',
    path: '/admin-api/copy-trade/traders',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Lead traders, newest first, with their terms, followers, assets under copy and computed statistics.',
    query: consoleTraderQuery,
    rows: consoleTrader,
    hints: ['hint_userNotFound'],
  }),
  setFollowersCap: route({
    method: 'POST',
    path: '/admin-api/copy-trade/traders/cap',
    auth: 'operator',
    roles: ROLES,
    summary:
      "Sets (or removes) a trader's cap on followers: present followers stay, new follows stop at it; audited.",
    body: traderCapBody,
    encoding: 'json',
    data: consoleTrader,
    hints: ['hint_copyTraderNotFound'],
  }),
  suspendTrader: route({
    method: 'POST',
    path: '/admin-api/copy-trade/traders/suspend',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Suspends a trader with a reason: no new follows or copies, closes still mirrored, copies kept; the trader and followers are told; audited.',
    body: traderStatusBody,
    encoding: 'json',
    data: consoleTrader,
    hints: ['hint_copyTraderNotFound', 'hint_copyTraderSuspended'],
  }),
  resumeTrader: route({
    method: 'POST',
    path: '/admin-api/copy-trade/traders/resume',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Resumes a suspended trader with a reason: new follows and copies again; the trader and followers are told; audited.',
    body: traderStatusBody,
    encoding: 'json',
    data: consoleTrader,
    hints: ['hint_copyTraderNotFound', 'hint_copyTraderActive'],
  }),
  relations: route({
    method: 'GET',
    path: '/admin-api/copy-trade/relations',
    auth: 'operator',
    roles: ROLES,
    summary:
      "Relations, newest first, of a trader, a follower or a status, with each one's P&L and mark.",
    query: consoleRelationQuery,
    rows: consoleRelation,
    hints: ['hint_userNotFound'],
  }),
  report: route({
    method: 'GET',
    path: '/admin-api/copy-trade/report',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Settlements per UTC day and currency, newest first: count, shares due, paid and left owed.',
    query: copyReportQuery,
    rows: copyReportRow,
  }),
};
