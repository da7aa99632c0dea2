/**
 * Withdrawal terms only get worse with notice (PRODUCT section 1.9): the terms of a withdrawal
 * channel that a change can make harder, and the announced changes that the public call
 * `GET /api/userWithdraw/termsChanges` lists.
 */
import type { z } from 'zod';
import type { withdrawTermsChange } from './schemas/wallet';

/** The terms of a withdrawal channel, as the channel calls name them. */
export const WITHDRAW_TERMS = [
  'minAmount',
  'maxAmount',
  'dailyLimit',
  'feeRate',
  'fixedFee',
  'isVisible',
] as const;
export type WithdrawTerm = (typeof WITHDRAW_TERMS)[number];

/** How long a change that took effect stays in the public list. */
export const WITHDRAW_TERMS_RECENT_DAYS = 30;

/**
 * A change of a withdrawal channel's terms that makes withdrawing harder, announced in advance
 * (its schema, the answer of /api/userWithdraw/termsChanges, is in schemas/wallet.ts).
 */
export type WithdrawTermsChange = z.output<typeof withdrawTermsChange>;
