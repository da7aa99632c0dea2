/**
 * The calls of team and referral (/api/userTeam): the user's team dashboard and members by level
 * (masked, never a balance), the commissions paid to them from their team's trading fees, and the
 * commission terms in force (public: the referral rules page shows them before anyone invites).
 * The invite code is the user's own (userInfo.inviteCode); the link is the app's register route
 * with it.
 */
import {
  commissionListQuery,
  commissionRecord,
  lowerTeamQuery,
  referralTerms,
  teamDashboard,
  teamDashboardQuery,
  teamMember,
} from '../schemas/referral';
import { route } from './route';

export const referralApi = {
  teamDashboard: route({
    method: 'GET',
    path: '/api/userTeam/myTeamDataDashboard',
    auth: 'user',
    summary:
      "The user's team: size and members per level, first deposits, the team's deposits today and in the period, and the commissions earned (per currency).",
    query: teamDashboardQuery,
    data: teamDashboard,
  }),
  lowerTeam: route({
    method: 'GET',
    path: '/api/userTeam/queryLowerTeamInfo',
    auth: 'user',
    summary:
      "The members of one level of the user's team, newest first: masked account, join time and whether they deposited (never a balance).",
    query: lowerTeamQuery,
    rows: teamMember,
  }),
  commissions: route({
    method: 'GET',
    path: '/api/userTeam/commissionRecordList',
    auth: 'user',
    summary:
      'The commissions paid to the user (or withheld while frozen), newest first, each with its source order, level, rate and fee.',
    query: commissionListQuery,
    rows: commissionRecord,
  }),
  terms: route({
    method: 'GET',
    path: '/api/userTeam/commissionTerms',
    auth: 'public',
    summary:
      "The commission terms in force: how many levels are paid and each level's share of a trading fee.",
    data: referralTerms,
  }),
};
