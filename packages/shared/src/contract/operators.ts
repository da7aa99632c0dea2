/**
 * The calls of the operator API (/admin-api): operator sign-in, operator accounts (admin), users
 * (support), the review of deposits and withdrawals (finance), deposit and withdrawal channels
 * (finance), trading settings (fees and fast-trade options: finance; products: admin) and the audit
 * log (admin). Admins may make every call. There is deliberately no call that sets a balance, a
 * price or an outcome (PRODUCT section 1): money moves only through the reviewed flows.
 */
import { z } from 'zod';
import {
  adminLoginBody,
  auditEntry,
  auditQuery,
  changeOwnPasswordBody,
  fastTradeOptionConfig,
  fastTradeOptionSaveBody,
  feeConfig,
  feeSaveBody,
  operatorCreateBody,
  operatorInfo,
  operatorListQuery,
  operatorPasswordReset,
  operatorResetPasswordBody,
  operatorSignedIn,
  operatorUpdateBody,
  productConfig,
  productSettingsQuery,
  productUpdateBody,
  rechargeChannelConfig,
  rechargeChannelSaveBody,
  reviewedRecharge,
  reviewedWithdraw,
  reviewIdBody,
  reviewIdQuery,
  reviewListQuery,
  reviewRejectBody,
  userStatusBody,
  userStatusChange,
  withdrawChannelConfig,
  withdrawChannelSaveBody,
} from '../schemas/operators';
import { operatorTwoFactorChallenge } from '../schemas/console-operators';
import { TWO_FACTOR_CODE_HINTS } from '../schemas/security';
import { pageQuery } from '../schemas/common';
import { ROUTE_ROLES, route } from './route';

const { ADMIN, FINANCE, SUPPORT } = ROUTE_ROLES;

/** New passwords: refused when too common. */
const NEW_PASSWORD_HINTS = ['hint_pwdCommon'] as const;

export const operatorsApi = {
  // ---------------------------------------------------------------- sign-in

  signIn: route({
    method: 'POST',
    path: '/admin-api/auth/login',
    auth: 'public',
    summary:
      'Signs an operator in: a bearer token for /admin-api and the operator; or, when the operator has two-factor on, a challenge to send with a code to loginTwoFactor (no session yet).',
    body: adminLoginBody,
    encoding: 'json',
    data: operatorSignedIn.or(operatorTwoFactorChallenge),
    hints: ['hint_loginFailed', 'hint_accountDisabled', 'hint_accountLocked'],
  }),
  signOut: route({
    method: 'POST',
    path: '/admin-api/auth/logout',
    auth: 'operator',
    summary: 'Ends the operator session (`hint_48` when it had already ended).',
  }),
  me: route({
    method: 'GET',
    path: '/admin-api/auth/me',
    auth: 'operator',
    summary: 'The signed-in operator.',
    data: operatorInfo,
  }),
  changePassword: route({
    method: 'POST',
    path: '/admin-api/auth/changePassword',
    auth: 'operator',
    summary:
      "Changes the operator's own password and ends all their sessions (`hint_pwdChanged`: sign in again).",
    body: changeOwnPasswordBody,
    encoding: 'json',
    hints: [
      ...NEW_PASSWORD_HINTS,
      'hint_pwdWrong',
      'hint_pwdSameAsOld',
      'hint_accountLocked',
      ...TWO_FACTOR_CODE_HINTS,
    ],
  }),

  // ---------------------------------------------------------------- operators (admin)

  operators: route({
    method: 'GET',
    path: '/admin-api/operators',
    auth: 'operator',
    roles: ADMIN,
    summary: 'Operator accounts in id order (never a secret).',
    query: operatorListQuery,
    rows: operatorInfo,
  }),
  createOperator: route({
    method: 'POST',
    path: '/admin-api/operators/create',
    auth: 'operator',
    roles: ADMIN,
    summary: 'Creates an operator account with its roles.',
    body: operatorCreateBody,
    encoding: 'json',
    data: operatorInfo,
    hints: [
      ...NEW_PASSWORD_HINTS,
      'hint_operatorNameInvalid',
      'hint_operatorRoleInvalid',
      'hint_operatorNameTaken',
    ],
  }),
  updateOperator: route({
    method: 'POST',
    path: '/admin-api/operators/update',
    auth: 'operator',
    roles: ADMIN,
    summary:
      "Changes an operator's roles, or disables (enables) the account; disabling ends its sessions.",
    body: operatorUpdateBody,
    encoding: 'json',
    data: operatorInfo,
    hints: ['hint_operatorRoleInvalid', 'hint_operatorNotFound', 'hint_operatorLastAdmin'],
  }),
  resetOperatorPassword: route({
    method: 'POST',
    path: '/admin-api/operators/resetPassword',
    auth: 'operator',
    roles: ADMIN,
    summary:
      "Sets an operator's password (made at random and answered once when none is given), ends their sessions and lifts a sign-in lock.",
    body: operatorResetPasswordBody,
    encoding: 'json',
    data: operatorPasswordReset,
    hints: [...NEW_PASSWORD_HINTS, 'hint_operatorNotFound'],
  }),

  // ---------------------------------------------------------------- users (support)

  setUserStatus: route({
    method: 'POST',
    path: '/admin-api/users/status',
    auth: 'operator',
    roles: SUPPORT,
    summary: "Disables a user's account (every session ends at once) or enables it again.",
    body: userStatusBody,
    encoding: 'json',
    data: userStatusChange,
    hints: ['hint_notFound'],
  }),

  // ---------------------------------------------------------------- review queues

  reviewEvents: route({
    method: 'GET',
    path: '/admin-api/review/events',
    auth: 'operator',
    summary:
      'The review queues as they change, on any instance (text/event-stream): `event: ready` with `{ queues }` (those the roles may read), then `event: queue` with `{ queue, id }` each time a request is submitted or leaves review. It closes when the session ends.',
    file: true,
    contentType: 'text/event-stream',
    hints: ['hint_tooManyRequests'],
  }),

  // ---------------------------------------------------------------- deposits (finance)

  recharges: route({
    method: 'GET',
    path: '/admin-api/recharges',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Deposit requests, newest first, of one status or user when given.',
    query: reviewListQuery,
    rows: reviewedRecharge,
  }),
  rechargeProof: route({
    method: 'GET',
    path: '/admin-api/recharges/proof',
    auth: 'operator',
    roles: FINANCE,
    summary: 'The payment proof (JPEG or PNG) of a deposit.',
    query: reviewIdQuery,
    file: true,
    hints: ['hint_notFound'],
  }),
  approveRecharge: route({
    method: 'POST',
    path: '/admin-api/recharges/approve',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Approves a deposit: credits it once, whatever the number of clicks.',
    body: reviewIdBody,
    encoding: 'json',
    data: reviewedRecharge,
    hints: ['hint_rechargeNotFound', 'hint_reviewClosed'],
  }),
  rejectRecharge: route({
    method: 'POST',
    path: '/admin-api/recharges/reject',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Rejects a deposit with the reason the user reads.',
    body: reviewRejectBody,
    encoding: 'json',
    data: reviewedRecharge,
    hints: ['hint_rechargeNotFound', 'hint_reviewClosed'],
  }),

  // ---------------------------------------------------------------- channels (finance)

  rechargeChannels: route({
    method: 'GET',
    path: '/admin-api/channels/recharge',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Deposit channels, hidden ones included, a page at a time.',
    query: pageQuery,
    rows: rechargeChannelConfig,
  }),
  withdrawChannels: route({
    method: 'GET',
    path: '/admin-api/channels/withdraw',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Withdrawal channels, hidden ones included, a page at a time: the terms in force and the changes to come.',
    query: pageQuery,
    rows: withdrawChannelConfig,
  }),
  saveRechargeChannel: route({
    method: 'POST',
    path: '/admin-api/channels/recharge/save',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Creates (no id) or changes a deposit channel.',
    body: rechargeChannelSaveBody,
    encoding: 'json',
    data: rechargeChannelConfig,
    hints: ['hint_currencyUnknown', 'hint_channelNotFound'],
  }),
  saveWithdrawChannel: route({
    method: 'POST',
    path: '/admin-api/channels/withdraw/save',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Creates (no id) or changes a withdrawal channel: what makes withdrawing easier applies at once, what makes it harder is announced and applies after the notice period.',
    body: withdrawChannelSaveBody,
    encoding: 'json',
    data: withdrawChannelConfig,
    hints: [
      'hint_currencyUnknown',
      'hint_channelNotFound',
      'hint_withdrawChannelCurrency',
      'hint_amount_scale',
    ],
  }),

  // ---------------------------------------------------------------- trading settings

  fees: route({
    method: 'GET',
    path: '/admin-api/fees',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Order fees by product type, position type and direction.',
    data: z.array(feeConfig),
  }),
  saveFee: route({
    method: 'POST',
    path: '/admin-api/fees/save',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Creates or changes the fee of a product type, position type and direction.',
    body: feeSaveBody,
    encoding: 'json',
    data: feeConfig,
    hints: ['hint_feeRateTooHigh'],
  }),
  fastTradeOptions: route({
    method: 'GET',
    path: '/admin-api/fastTradeOptions',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Fast-trade options, disabled ones included, a page at a time.',
    query: pageQuery,
    rows: fastTradeOptionConfig,
  }),
  saveFastTradeOption: route({
    method: 'POST',
    path: '/admin-api/fastTradeOptions/save',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Creates (no id) or changes a fast-trade option; orders already placed keep their terms.',
    body: fastTradeOptionSaveBody,
    encoding: 'json',
    data: fastTradeOptionConfig,
    hints: ['hint_maxStakeBelowMin', 'hint_productUnknown', 'hint_fastTradeOptionUnknown'],
  }),
  // Visibility, sort, halt and leverage choices; there is no field for a price.
  products: route({
    method: 'GET',
    path: '/admin-api/products',
    auth: 'operator',
    roles: ADMIN,
    summary:
      'Products with their trading settings, a page at a time, by type and sort; filtered by type and by a code or a name in any language.',
    query: productSettingsQuery,
    rows: productConfig,
  }),
  updateProduct: route({
    method: 'POST',
    path: '/admin-api/products/update',
    auth: 'operator',
    roles: ADMIN,
    summary:
      "Changes a product's visibility, sort, halt, leverage choices or maintenance rate (never its price).",
    body: productUpdateBody,
    encoding: 'json',
    data: productConfig,
    hints: ['hint_leveragesInvalid', 'hint_productUnknown'],
  }),

  // ---------------------------------------------------------------- withdrawals (finance)

  withdrawals: route({
    method: 'GET',
    path: '/admin-api/withdrawals',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Withdrawal requests, newest first, of one status or user when given.',
    query: reviewListQuery,
    rows: reviewedWithdraw,
  }),
  payWithdrawal: route({
    method: 'POST',
    path: '/admin-api/withdrawals/pay',
    auth: 'operator',
    roles: FINANCE,
    summary: "Marks a withdrawal paid: the frozen amount and fee leave the user's account.",
    body: reviewIdBody,
    encoding: 'json',
    data: reviewedWithdraw,
    hints: ['hint_withdrawNotFound', 'hint_withdrawClosed'],
  }),
  rejectWithdrawal: route({
    method: 'POST',
    path: '/admin-api/withdrawals/reject',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Rejects a withdrawal with the reason the user reads: the frozen funds return at once.',
    body: reviewRejectBody,
    encoding: 'json',
    data: reviewedWithdraw,
    hints: ['hint_withdrawNotFound', 'hint_withdrawClosed'],
  }),

  // ---------------------------------------------------------------- audit log (admin)

  audit: route({
    method: 'GET',
    path: '/admin-api/audit',
    auth: 'operator',
    roles: ADMIN,
    summary: 'The audit log, newest first, filtered by operator, action or target.',
    query: auditQuery,
    rows: auditEntry,
  }),
};
