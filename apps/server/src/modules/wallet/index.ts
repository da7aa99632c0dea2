/**
 * The wallet: deposits, withdrawals, currency exchange, their channels and the operators' reviews.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export type { RechargeChannelInput, WithdrawChannelInput } from './channels-admin';
export { fingerprint, orderNumber, orderStamp } from './common';
export { nextId, TERM_COLUMN } from './repo';
// The review flow, for the next requests operators decide (identity checks, loans, new shares).
export { ReviewFlow } from './review';
export type {
  AuditWriter,
  OwnerView,
  ReviewActor,
  ReviewDecision,
  ReviewedRecharge,
  ReviewedRequest,
  ReviewedWithdraw,
  ReviewFlowConfig,
  ReviewListQuery,
  ReviewOutcome,
  WalletReview,
} from './review';
export type { ReviewRow, ReviewTable } from './repo';
export { parseProofImage } from './proof-image';
export { sendProofImage, walletRoutes } from './routes';
export { WalletService } from './service';
