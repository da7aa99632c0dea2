/**
 * The wallet: deposits, withdrawals, currency exchange, their channels and the operators' reviews.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export type { RechargeChannelInput, WithdrawChannelInput } from './channels-admin';
export { fingerprint, nextId, orderNumber, orderStamp } from './common';
export type {
  AuditWriter,
  ReviewedRecharge,
  ReviewedWithdraw,
  ReviewListQuery,
  ReviewOutcome,
  WalletReview,
} from './review';
export { walletRoutes } from './routes';
export { WalletService } from './service';
