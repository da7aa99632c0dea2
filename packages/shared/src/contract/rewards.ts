/**
 * The calls of welfare and awards (issue 22): the task centre (/api/welfare/list: campaigns with
 * their tasks, each with its reward, conditions, end and the user's progress), the deposit reward
 * tiers in force (/api/welfare/depositTiers, shown on the deposit screen before paying) and the
 * user's award records (/api/award/list).
 */
import {
  awardListQuery,
  awardRecord,
  depositTier,
  depositTiersQuery,
  welfareList,
} from '../schemas/rewards';
import { route } from './route';

export const rewardsApi = {
  welfareList: route({
    method: 'GET',
    path: '/api/welfare/list',
    auth: 'user',
    summary:
      "Running and upcoming campaigns (and those ended within 30 days) with their tasks: each task's reward, conditions, end and the user's progress and status. Reading it evaluates the user's open tasks first.",
    data: welfareList,
  }),
  awardList: route({
    method: 'GET',
    path: '/api/award/list',
    auth: 'user',
    summary:
      "The user's award records, newest first: welfare tasks and deposit reward tiers, each with its amount, time and ledger entry.",
    query: awardListQuery,
    rows: awardRecord,
  }),
  depositTiers: route({
    method: 'GET',
    path: '/api/welfare/depositTiers',
    auth: 'optional',
    summary:
      'The deposit reward tiers in force (of one currency when given): a deposit in a range pays its rate once per user per tier.',
    query: depositTiersQuery,
    rows: depositTier,
  }),
};
