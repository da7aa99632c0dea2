/**
 * The calls of earn (issue 23), with the spec's paths: lock mining (financialProduct,
 * financialOrder) and staking (stakingProduct, stakingOrder, stakingOrderInterestRecord). Buying
 * moves the amount from the available balance to the `staked` ledger account; redeeming early is
 * quoted first (redemptionPreview), then confirmed with the penalty shown. Demo sessions act on the
 * demo book with virtual funds.
 */
import {
  earnOrder,
  earnImageQuery,
  earnOrderAddBody,
  earnOrderListQuery,
  earnOrderQuery,
  earnProduct,
  earnProductListQuery,
  earnProductQuery,
  earnRedemptionBody,
  financialAnalysis,
  interestRecord,
  interestRecordQuery,
  redemptionPreview,
} from '../schemas/earn';
import { route } from './route';

const BUY_HINTS = [
  'hint_earnProductClosed',
  'hint_earnAmountMin',
  'hint_earnAmountMax',
  'hint_amountDecimals',
  'hint_earnCapacity',
  'hint_earnOrderLimit',
  'hint_earnRateChanged',
  'hint_identityRequired',
  'hint_insufficientBalance',
  'hint_requestIdReused',
] as const;

const REDEEM_HINTS = [
  'hint_notFound',
  'hint_earnNotRedeemable',
  'hint_earnPenaltyChanged',
  'hint_requestIdReused',
] as const;

export const earnApi = {
  financialProducts: route({
    method: 'GET',
    path: '/api/financialProduct/list',
    auth: 'optional',
    summary:
      'Lock-mining products open to new orders: term, the published daily rate (or rates by amount tier), bounds, capacity left, identity level, payout and early-redemption penalty.',
    query: earnProductListQuery,
    rows: earnProduct,
  }),
  financialProduct: route({
    method: 'GET',
    path: '/api/financialProduct/detail',
    auth: 'optional',
    summary: 'One lock-mining product, closed ones included.',
    query: earnProductQuery,
    data: earnProduct,
    hints: ['hint_notFound'],
  }),
  financialOrderAdd: route({
    method: 'POST',
    path: '/api/financialOrder/add',
    auth: 'user',
    summary:
      'Places a lock-mining order: the amount moves to the staked account; it starts at once (status 1), or waits for review (status 0) when the product says so. Interest from the next UTC day.',
    body: earnOrderAddBody,
    data: earnOrder,
    hints: BUY_HINTS,
  }),
  financialOrders: route({
    method: 'GET',
    path: '/api/financialOrder/list',
    auth: 'user',
    summary: "The user's lock-mining orders in the session's book, newest first.",
    query: earnOrderListQuery,
    rows: earnOrder,
  }),
  financialRedemptionPreview: route({
    method: 'GET',
    path: '/api/financialOrder/redemptionPreview',
    auth: 'user',
    summary:
      'What redeeming an active lock-mining order now would return: the days left, the penalty, the interest accrued for maturity that would not be paid.',
    query: earnOrderQuery,
    data: redemptionPreview,
    hints: ['hint_notFound', 'hint_earnNotRedeemable'],
  }),
  financialRedemption: route({
    method: 'POST',
    path: '/api/financialOrder/redemption',
    auth: 'user',
    summary:
      'Redeems an active lock-mining order early: the stake less the penalty shown returns to the available balance; interest already paid stays paid (`hint_48` when it was redeemed by this request already).',
    body: earnRedemptionBody,
    data: earnOrder,
    hints: REDEEM_HINTS,
  }),
  financialAnalysis: route({
    method: 'GET',
    path: '/api/financialOrder/financialOrderAnalysis',
    auth: 'user',
    summary:
      "The user's lock mining at a glance, per currency: active orders, amount held, interest paid so far and the next day's interest.",
    data: financialAnalysis,
  }),
  stakingProducts: route({
    method: 'GET',
    path: '/api/stakingProduct/list',
    auth: 'optional',
    summary:
      'Staking products open to new orders: fixed term or flexible, compounding or not, the published daily rate and the same terms as lock mining.',
    query: earnProductListQuery,
    rows: earnProduct,
  }),
  stakingProduct: route({
    method: 'GET',
    path: '/api/stakingProduct/detail',
    auth: 'optional',
    summary: 'One staking product, closed ones included.',
    query: earnProductQuery,
    data: earnProduct,
    hints: ['hint_notFound'],
  }),
  stakingOrderAdd: route({
    method: 'POST',
    path: '/api/stakingOrder/add',
    auth: 'user',
    summary:
      'Stakes an amount in a staking product (as financialOrder/add). Flexible stakes may be redeemed any time, with interest for the whole days held.',
    body: earnOrderAddBody,
    data: earnOrder,
    hints: BUY_HINTS,
  }),
  stakingOrders: route({
    method: 'GET',
    path: '/api/stakingOrder/list',
    auth: 'user',
    summary: "The user's staking orders in the session's book, newest first.",
    query: earnOrderListQuery,
    rows: earnOrder,
  }),
  stakingRedemptionPreview: route({
    method: 'GET',
    path: '/api/stakingOrder/redemptionPreview',
    auth: 'user',
    summary: 'What redeeming an active staking order now would return (no penalty when flexible).',
    query: earnOrderQuery,
    data: redemptionPreview,
    hints: ['hint_notFound', 'hint_earnNotRedeemable'],
  }),
  stakingRedemption: route({
    method: 'POST',
    path: '/api/stakingOrder/redemption',
    auth: 'user',
    summary:
      'Redeems an active staking order: the stake (with compounded interest) less the penalty shown returns to the available balance.',
    body: earnRedemptionBody,
    data: earnOrder,
    hints: REDEEM_HINTS,
  }),
  stakingInterestRecords: route({
    method: 'GET',
    path: '/api/stakingOrderInterestRecord/list',
    auth: 'user',
    summary:
      "The interest of the user's staking orders, one record per order and UTC day, newest first.",
    query: interestRecordQuery,
    rows: interestRecord,
    hints: ['hint_notFound'],
  }),
  productImage: route({
    method: 'GET',
    path: '/api/earnProduct/image',
    auth: 'public',
    summary: "An earn product's image (a JPEG the server re-encoded); its URL names its hash.",
    query: earnImageQuery,
    file: true,
    contentType: 'image/jpeg',
    hints: ['hint_notFound'],
  }),
};
