/**
 * Loans (issue 23), by the platform's names: the products (`/api/loanProduct/list`), a user's
 * applications and loans (`/api/loanOrder/…`), their interest day by day
 * (`/api/loanOrderInterestRecord/list`) and repayments (`/api/userLoanRepaymentOrder/…`). The
 * figures a screen shows before confirming come from packages/shared/src/loans.ts, which the
 * server moves the money by.
 */
import {
  loanApplyBody,
  loanInterestQuery,
  loanInterestRecord,
  loanOrder,
  loanOrderIdQuery,
  loanOrderQuery,
  loanPanel,
  loanProduct,
  loanProductQuery,
  loanRepayBody,
  loanRepayment,
  loanRepaymentQuery,
} from '../schemas/loans';
import { route } from './route';

export const loansApi = {
  loanProducts: route({
    method: 'GET',
    path: '/api/loanProduct/list',
    auth: 'optional',
    summary:
      "Loan products open to applications: amount range, term, interest-free days, daily and overdue rates, how interest is settled, open loans allowed, identity level needed, the fields an application asks; with the signed-in user's open loans of each.",
    query: loanProductQuery,
    rows: loanProduct,
  }),
  applyLoan: route({
    method: 'POST',
    path: '/api/loanOrder/add',
    auth: 'user',
    summary:
      "Applies for a loan of a product (left for review): an amount within its range and the answers to its fields (images re-encoded). Refused below the product's identity level or beyond its open loans per user. The same `requestId` answers the first application again.",
    body: loanApplyBody,
    encoding: 'json',
    data: loanOrder,
    hints: [
      'hint_loanProductNotFound',
      'hint_loanProductClosed',
      'hint_amountBelowMin',
      'hint_amountAboveMax',
      'hint_amountDecimals',
      'hint_identityRequired',
      'hint_loanLimitReached',
      'hint_loanFieldRequired',
      'hint_loanFieldInvalid',
      'hint_loanFieldUnknown',
      'hint_proofTooLarge',
      'hint_imageFormat',
      'hint_proofDimensions',
      'hint_requestIdReused',
    ],
  }),
  loanOrders: route({
    method: 'GET',
    path: '/api/loanOrder/list',
    auth: 'user',
    summary:
      "The user's loans in the session's book, newest first (of one status when given), each with what is due now and whether it is overdue.",
    query: loanOrderQuery,
    rows: loanOrder,
  }),
  loanOrder: route({
    method: 'GET',
    path: '/api/loanOrder/detail',
    auth: 'user',
    summary: "One of the user's loans, with what is due now.",
    query: loanOrderIdQuery,
    data: loanOrder,
    hints: ['hint_loanNotFound'],
  }),
  loanPanel: route({
    method: 'GET',
    path: '/api/loanOrder/userLoanPanelData',
    auth: 'user',
    summary:
      "The user's loans at a glance: principal outstanding and interest due per currency, active, overdue and under-review counts, the next due date.",
    data: loanPanel,
  }),
  loanInterestRecords: route({
    method: 'GET',
    path: '/api/loanOrderInterestRecord/list',
    auth: 'user',
    summary:
      "A loan's interest day by day, newest first: the principal, rate and interest of each day, and what was taken from the balance for it.",
    query: loanInterestQuery,
    rows: loanInterestRecord,
    hints: ['hint_loanNotFound'],
  }),
  repayLoan: route({
    method: 'POST',
    path: '/api/userLoanRepaymentOrder/userLoanRepayment',
    auth: 'user',
    summary:
      'Repays a loan from the available balance, all or part: interest due first, then principal; repaying early costs only the days used. `interestDue` as shown: refused when it changed. The same `requestId` answers the first repayment again.',
    body: loanRepayBody,
    data: loanRepayment,
    hints: [
      'hint_loanNotFound',
      'hint_loanNotActive',
      'hint_loanRepayAboveDue',
      'hint_loanDueChanged',
      'hint_amountDecimals',
      'hint_insufficientBalance',
      'hint_requestIdReused',
    ],
  }),
  loanRepayments: route({
    method: 'GET',
    path: '/api/userLoanRepaymentOrder/list',
    auth: 'user',
    summary: "The user's repayments, newest first (of one loan when given).",
    query: loanRepaymentQuery,
    rows: loanRepayment,
  }),
};
