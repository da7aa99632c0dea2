/**
 * The console's earn (/admin-api/earn…): lock-mining and staking products (created and changed in
 * the app's languages, closed to new orders and opened again; an open order keeps the terms it was
 * placed with), the queue of orders waiting for review (approve, or reject with a reason: the funds
 * are released at once) and the report of amounts held and interest paid per product. Every change
 * is audited. Earn moves money: admins and finance.
 */
import {
  consoleEarnOrder,
  consoleEarnOrderQuery,
  consoleEarnProduct,
  consoleEarnProductQuery,
  earnOrderIdBody,
  earnOrderRejectBody,
  earnProductSaveBody,
  earnProductStatusBody,
  earnReportQuery,
  earnReportRow,
} from '../schemas/earn';
import { ROUTE_ROLES, route } from './route';

const ROLES = ROUTE_ROLES.FINANCE;

export const consoleEarnApi = {
  products: route({
    method: 'GET',
    path: '/admin-api/earn/products',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Lock-mining and staking products, closed ones included, with what each holds and its orders.',
    query: consoleEarnProductQuery,
    rows: consoleEarnProduct,
  }),
  saveProduct: route({
    method: 'POST',
    path: '/admin-api/earn/products/save',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Creates (no id) or changes a product: texts in the languages, image re-encoded, rate or rate tiers, bounds, capacity, level, payout, penalty. Open orders keep the terms they were placed with.',
    body: earnProductSaveBody,
    encoding: 'json',
    data: consoleEarnProduct,
    hints: [
      'hint_notFound',
      'hint_currencyUnknown',
      'hint_earnKindFixed',
      'hint_earnTermRequired',
      'hint_earnPayoutDaily',
      'hint_earnFlexibleNoPenalty',
      'hint_earnNoCompounding',
      'hint_earnMaxBelowMin',
      'hint_earnTierDuplicate',
      'hint_imageFormat',
      'hint_proofTooLarge',
      'hint_avatarDimensions',
    ],
  }),
  productStatus: route({
    method: 'POST',
    path: '/admin-api/earn/products/status',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Closes a product to new orders (0) or opens it again (1); its open orders run on (`hint_48` when it was so already).',
    body: earnProductStatusBody,
    encoding: 'json',
    data: consoleEarnProduct,
    hints: ['hint_notFound'],
  }),
  orders: route({
    method: 'GET',
    path: '/admin-api/earn/orders',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Earn orders, newest first (status 0: the review queue), of a product, a kind or a user.',
    query: consoleEarnOrderQuery,
    rows: consoleEarnOrder,
    hints: ['hint_userNotFound'],
  }),
  approveOrder: route({
    method: 'POST',
    path: '/admin-api/earn/orders/approve',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Starts an order waiting for review: interest from the next UTC day (`hint_48` when it was approved).',
    body: earnOrderIdBody,
    encoding: 'json',
    data: consoleEarnOrder,
    hints: ['hint_notFound', 'hint_reviewClosed'],
  }),
  rejectOrder: route({
    method: 'POST',
    path: '/admin-api/earn/orders/reject',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Rejects an order waiting for review, with the reason the user reads: its funds return to the available balance at once.',
    body: earnOrderRejectBody,
    encoding: 'json',
    data: consoleEarnOrder,
    hints: ['hint_notFound', 'hint_reviewClosed'],
  }),
  report: route({
    method: 'GET',
    path: '/admin-api/earn/report',
    auth: 'operator',
    roles: ROLES,
    summary:
      'Per product: orders by status, the amount held, interest paid and accrued, penalties taken (computed from the orders and interest records).',
    query: earnReportQuery,
    data: earnReportRow.array(),
  }),
};
