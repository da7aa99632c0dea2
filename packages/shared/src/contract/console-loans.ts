/**
 * The console's loans (/admin-api/loans…): finance operators and admins keep the products (a
 * change never touches a loan already asked for: each copies its terms), review applications
 * (approve an amount up to the one asked, which the ledger disburses from the platform's loans
 * account, or reject with the reason the user reads), and read every loan, repayment and the
 * report (outstanding, overdue, interest earned). Every change is audited.
 */
import {
  consoleLoanDetail,
  consoleLoanOrder,
  consoleLoanProduct,
  consoleLoanQuery,
  consoleLoanRepayment,
  consoleLoanRepaymentQuery,
  loanAnswerImageQuery,
  loanApproveBody,
  loanInterestQuery,
  loanInterestRecord,
  loanOrderIdQuery,
  loanProductSaveBody,
  loanProductStatusBody,
  loanRejectBody,
  loanReportQuery,
  loanReportRow,
} from '../schemas/loans';
import { pageQuery } from '../schemas/common';
import { ROUTE_ROLES, route } from './route';

/** Loans lend money: admins and finance. */
const { FINANCE } = ROUTE_ROLES;

export const consoleLoansApi = {
  products: route({
    method: 'GET',
    path: '/admin-api/loans/products',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Every loan product, closed ones too, with its texts in every language written.',
    query: pageQuery,
    rows: consoleLoanProduct,
  }),
  saveProduct: route({
    method: 'POST',
    path: '/admin-api/loans/products/save',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Creates (no id, open) or changes a product: loans already asked for keep the terms they were asked under.',
    body: loanProductSaveBody,
    encoding: 'json',
    data: consoleLoanProduct,
    hints: [
      'hint_loanProductNotFound',
      'hint_currencyUnknown',
      'hint_amountDecimals',
      'hint_loanRangeInvalid',
      'hint_loanFreeDaysBeyondTerm',
      'hint_loanCurrencyFixed',
    ],
  }),
  productStatus: route({
    method: 'POST',
    path: '/admin-api/loans/products/status',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Closes a product to new applications (its loans run on) or opens it again (`hint_48` when it was so).',
    body: loanProductStatusBody,
    encoding: 'json',
    data: consoleLoanProduct,
    hints: ['hint_loanProductNotFound'],
  }),
  orders: route({
    method: 'GET',
    path: '/admin-api/loans/orders',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Loans, newest first: the review queue (status 0) and every other, of one status, user, product, or overdue.',
    query: consoleLoanQuery,
    rows: consoleLoanOrder,
  }),
  order: route({
    method: 'GET',
    path: '/admin-api/loans/orders/detail',
    auth: 'operator',
    roles: FINANCE,
    summary: "One loan with the application's answers, its repayments and the user's other loans.",
    query: loanOrderIdQuery,
    data: consoleLoanDetail,
    hints: ['hint_loanNotFound'],
  }),
  answerImage: route({
    method: 'GET',
    path: '/admin-api/loans/orders/image',
    auth: 'operator',
    roles: FINANCE,
    summary: 'An image an application answered a field with; every view is in the audit log.',
    query: loanAnswerImageQuery,
    file: true,
    contentType: 'image/jpeg',
    hints: ['hint_notFound'],
  }),
  approve: route({
    method: 'POST',
    path: '/admin-api/loans/orders/approve',
    auth: 'operator',
    roles: FINANCE,
    summary:
      "Approves an application with an amount up to the one asked: the ledger lends it from the platform's loans account to the user's available balance (`hint_48` when approved already).",
    body: loanApproveBody,
    encoding: 'json',
    data: consoleLoanOrder,
    hints: [
      'hint_loanNotFound',
      'hint_reviewClosed',
      'hint_loanApproveAboveAsked',
      'hint_amountDecimals',
    ],
  }),
  reject: route({
    method: 'POST',
    path: '/admin-api/loans/orders/reject',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Rejects an application with the reason the user reads (`hint_48` when rejected already).',
    body: loanRejectBody,
    encoding: 'json',
    data: consoleLoanOrder,
    hints: ['hint_loanNotFound', 'hint_reviewClosed'],
  }),
  interest: route({
    method: 'GET',
    path: '/admin-api/loans/interest',
    auth: 'operator',
    roles: FINANCE,
    summary: "A loan's interest day by day, newest first.",
    query: loanInterestQuery,
    rows: loanInterestRecord,
    hints: ['hint_loanNotFound'],
  }),
  repayments: route({
    method: 'GET',
    path: '/admin-api/loans/repayments',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Repayments, newest first, of one loan or user when given.',
    query: consoleLoanRepaymentQuery,
    rows: consoleLoanRepayment,
  }),
  report: route({
    method: 'GET',
    path: '/admin-api/loans/report',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Per book and currency: lent, outstanding, interest due and earned, principal repaid, overdue loans and their principal, loans by state; computed from the loans.',
    query: loanReportQuery,
    rows: loanReportRow,
  }),
};
