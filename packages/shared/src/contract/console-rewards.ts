/**
 * The console's welfare and rewards (/admin-api/rewards…): admins and finance operators keep the
 * campaigns (texts in the app's languages, window, budget, tasks), end one early with a reason,
 * keep the deposit reward tiers, and read every user's reward history. Every change is audited.
 */
import {
  campaignEndBody,
  campaignSaveBody,
  consoleCampaign,
  consoleCampaignQuery,
  consoleRewardQuery,
  consoleRewardRecord,
  consoleTier,
  consoleTierQuery,
  tierIdBody,
  tierSaveBody,
} from '../schemas/rewards';
import type { OperatorRole } from '../constants';
import { route } from './route';

/** Rewards pay money: admins and finance. */
const ROLES = ['admin', 'finance'] as const satisfies readonly OperatorRole[];

export const consoleRewardsApi = {
  campaigns: route({
    method: 'GET',
    path: '/admin-api/rewards/campaigns',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Campaigns, newest first, with their tasks, budget and spend (computed from payments).',
    query: consoleCampaignQuery,
    rows: consoleCampaign,
  }),
  saveCampaign: route({
    method: 'POST',
    path: '/admin-api/rewards/campaigns/save',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Creates (no id) or changes a campaign. Once started, its tasks, window, currency and condition are fixed; texts may change and the budget may only grow.',
    body: campaignSaveBody,
    encoding: 'json',
    data: consoleCampaign,
    hints: [
      'hint_notFound',
      'hint_currencyUnknown',
      'hint_campaignStarted',
      'hint_campaignEnded',
      'hint_campaignBudgetReduced',
      'hint_campaignEndBeforeStart',
    ],
  }),
  endCampaign: route({
    method: 'POST',
    path: '/admin-api/rewards/campaigns/end',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Ends a campaign now, with a reason: its open tasks stop (`hint_48` when it had ended).',
    body: campaignEndBody,
    encoding: 'json',
    data: consoleCampaign,
    hints: ['hint_notFound'],
  }),
  tiers: route({
    method: 'GET',
    path: '/admin-api/rewards/tiers',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Deposit reward tiers in force (and retired versions when asked), with what each paid.',
    query: consoleTierQuery,
    rows: consoleTier,
  }),
  saveTier: route({
    method: 'POST',
    path: '/admin-api/rewards/tiers/save',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Adds a tier, or replaces one (id): the old version is retired, deposits submitted before keep it.',
    body: tierSaveBody,
    encoding: 'json',
    data: consoleTier,
    hints: ['hint_notFound', 'hint_currencyUnknown', 'hint_tierOverlap'],
  }),
  retireTier: route({
    method: 'POST',
    path: '/admin-api/rewards/tiers/retire',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Retires a tier: deposits submitted from now on do not earn it (`hint_48` when retired).',
    body: tierIdBody,
    encoding: 'json',
    data: consoleTier,
    hints: ['hint_notFound'],
  }),
  records: route({
    method: 'GET',
    path: '/admin-api/rewards/records',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Rewards paid (and completions the budget could not pay), newest first: of a user, a campaign or a source.',
    query: consoleRewardQuery,
    rows: consoleRewardRecord,
    hints: ['hint_userNotFound'],
  }),
};
