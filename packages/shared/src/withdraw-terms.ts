/**
 * Withdrawal terms only get worse with notice (PRODUCT section 1.9): the terms of a withdrawal
 * channel that a change can make harder, and the announced changes that the public call
 * `GET /api/userWithdraw/termsChanges` lists.
 */

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

/** A change of a withdrawal channel's terms that makes withdrawing harder, announced in advance. */
export interface WithdrawTermsChange {
  id: number;
  channelId: number;
  channelName: string;
  currencyId: number;
  currencyName: string;
  network: string | null;
  term: WithdrawTerm;
  /**
   * Decimal strings: amounts at the currency's decimals, the fee rate as a fraction (0.002 is
   * 0.2 %), and for `isVisible` 1 shown, 0 hidden.
   */
  oldValue: string;
  newValue: string;
  /** When it was announced (saved) and when it takes or took effect (ISO 8601). */
  announceTime: string;
  effectiveTime: string;
  /** `pending` until `effectiveTime`, `effective` from then on. */
  status: 'pending' | 'effective';
}
