/**
 * The calls of copy trading (issue 25), with the platform's names (/api/copyTrade/…): lead
 * traders and their statistics (computed from their closed live contract positions, never
 * entered), following a trader (each copy a real contract position opened at the follower's own
 * tick, through the trading service), unfollowing (close the copies now or keep them), the
 * follower's copies and settlements of the profit share above the high-water mark, and applying
 * to lead. A demo session follows into its demo book.
 */
import {
  copiesQuery,
  copyRelation,
  copyRow,
  copySettlement,
  followBody,
  followedListQuery,
  leadApplyBody,
  leadDashboard,
  leadProfile,
  leadProfileBody,
  leadStatus,
  relationEditBody,
  settlementsQuery,
  traderDetail,
  traderListQuery,
  traderPosition,
  traderPositionsQuery,
  traderQuery,
  traderSummary,
  unfollowBody,
} from '../schemas/copy-trading';
import { route } from './route';

const FOLLOW_HINTS = [
  'hint_copyTraderNotFound',
  'hint_copySelf',
  'hint_copyAlreadyFollowing',
  'hint_copyTraderSuspended',
  'hint_copyFollowersFull',
  'hint_copyAmountRange',
  'hint_copyBudgetBelowAmount',
  'hint_copyBudgetBelowMin',
  'hint_requestIdReused',
] as const;

const FOLLOWED_LIST_SUMMARY =
  "The caller's relations, active first then newest: the trader, the settings, margin in use, cumulative net P&L, high-water mark, owed and paid shares.";

export const copyTradingApi = {
  traders: route({
    method: 'GET',
    path: '/api/copyTrade/trader/list',
    auth: 'optional',
    summary:
      'Lead traders (active ones; suspended ones only to their followers), sorted by ROI, P&L, followers or drawdown over 7, 30, 90 days or since the start; statistics computed from their closed live contract positions.',
    query: traderListQuery,
    rows: traderSummary,
  }),
  trader: route({
    method: 'GET',
    path: '/api/copyTrade/trader/detail',
    auth: 'optional',
    summary:
      "A trader's profile: texts, terms, statistics of every window, the equity curve, followers now and ever, followers' total P&L and the assets under copy.",
    query: traderQuery,
    data: traderDetail,
    hints: ['hint_copyTraderNotFound'],
  }),
  traderPositions: route({
    method: 'GET',
    path: '/api/copyTrade/trader/positions',
    auth: 'optional',
    summary:
      "A trader's live contract positions: open ones opened before now less the configured delay, or closed ones, newest first.",
    query: traderPositionsQuery,
    rows: traderPosition,
    hints: ['hint_copyTraderNotFound'],
  }),
  followedTraders: route({
    method: 'GET',
    path: '/api/copyTrade/trader/followedList',
    auth: 'user',
    summary: `${FOLLOWED_LIST_SUMMARY} (The same answer as relation/followedList.)`,
    query: followedListQuery,
    rows: copyRelation,
  }),
  relations: route({
    method: 'GET',
    path: '/api/copyTrade/relation/followedList',
    auth: 'user',
    summary: FOLLOWED_LIST_SUMMARY,
    query: followedListQuery,
    rows: copyRelation,
  }),
  follow: route({
    method: 'POST',
    path: '/api/copyTrade/relation/follow',
    auth: 'user',
    summary:
      "Follows a trader in the session's book: a fixed margin per copy or a ratio of the leader's margin, the most open copies, own TP/SL as fractions of a copy's margin, and a budget the open copies' margin stays within. The trader's profit-share rate is copied into the relation.",
    body: followBody,
    data: copyRelation,
    hints: FOLLOW_HINTS,
  }),
  edit: route({
    method: 'POST',
    path: '/api/copyTrade/relation/edit',
    auth: 'user',
    summary:
      'Changes the settings of an active relation: from the next copy on (open copies keep their margin; their own TP/SL is not moved).',
    body: relationEditBody,
    data: copyRelation,
    hints: [
      'hint_copyRelationNotFound',
      'hint_copyRelationEnded',
      'hint_copyAmountRange',
      'hint_copyBudgetBelowAmount',
      'hint_copyBudgetBelowMin',
    ],
  }),
  unfollow: route({
    method: 'POST',
    path: '/api/copyTrade/relation/unfollow',
    auth: 'user',
    summary:
      'Ends a relation: closeMode 1 closes every open copy at market at its own tick, 2 keeps them as ordinary positions; then the profit share is settled (reason 2).',
    body: unfollowBody,
    data: copyRelation,
    hints: ['hint_copyRelationNotFound', 'hint_copyRelationEnded', 'hint_requestIdReused'],
  }),
  copies: route({
    method: 'GET',
    path: '/api/copyTrade/relation/copies',
    auth: 'user',
    summary:
      "The caller's copies, newest first: each beside the leader's position (entry price and time), with its own position and tick evidence once opened, or the reason it failed.",
    query: copiesQuery,
    rows: copyRow,
  }),
  settlements: route({
    method: 'GET',
    path: '/api/copyTrade/relation/settlements',
    auth: 'user',
    summary:
      "The caller's profit-share settlements, newest first, each with its inputs: cumulative P&L, the mark before and after, the rate, the share, what was owed and paid.",
    query: settlementsQuery,
    rows: copySettlement,
  }),
  apply: route({
    method: 'POST',
    path: '/api/copyTrade/lead/apply',
    auth: 'user',
    summary:
      'Applies to lead: needs the identity level of the copyLeader feature and the minimum of closed live contract positions; an operator approves or rejects.',
    body: leadApplyBody,
    data: leadStatus,
    hints: [
      'hint_identityRequired',
      'hint_copyTrackRecordShort',
      'hint_copyApplicationPending',
      'hint_copyAlreadyLeader',
      'hint_requestIdReused',
    ],
  }),
  leadStatus: route({
    method: 'GET',
    path: '/api/copyTrade/lead/status',
    auth: 'user',
    summary:
      "The caller's latest application and trader profile, and where they stand against the requirements.",
    data: leadStatus,
  }),
  leadProfile: route({
    method: 'POST',
    path: '/api/copyTrade/lead/profile',
    auth: 'user',
    summary:
      "A trader's title and description (per language), profit-share rate (within the console's maximum; new follows take it), copy amounts and the most followers (within the console's cap).",
    body: leadProfileBody,
    encoding: 'json',
    data: leadProfile,
    hints: [
      'hint_copyNotLeader',
      'hint_copyRateAbove',
      'hint_copyMaxBelowMin',
      'hint_copyFollowersAboveCap',
    ],
  }),
  leadDashboard: route({
    method: 'GET',
    path: '/api/copyTrade/lead/dashboard',
    auth: 'user',
    summary:
      "A trader's followers (cumulative P&L, mark, income from each) and income per UTC day.",
    data: leadDashboard,
    hints: ['hint_copyNotLeader'],
  }),
};
