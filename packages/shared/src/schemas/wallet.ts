/**
 * Schemas and response shapes of the wallet calls (PRODUCT sections 3 and 5): deposit and
 * withdrawal channels and requests, bank cards, wallet addresses, exchange and records.
 * Amounts are decimal strings both ways.
 */
import { z } from 'zod';
import { MAX_SCALE } from '../money';
import { RECORD_TYPES, WITHDRAW_STATUS, RECHARGE_STATUS } from '../constants';
import { isWithdrawalPassword } from '../validators';
import {
  codeField,
  decimalAmount,
  hasForbiddenCharacters,
  intField,
  optionalInt,
  optionalText,
  pageQuery,
  requestId,
  safeString,
  text,
  TEXT_INVALID_CHARACTERS,
} from './common';

const id = intField(1, 2_147_483_647);
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** Amount as typed: positive, at most 18 decimals; the currency's scale is checked by the server. */
const amount = decimalAmount({ maxScale: MAX_SCALE });

// ---------------------------------------------------------------- channels

export const channelListQuery = z.object({ currencyId: optionalInt(1, 1_000_000) });
export type ChannelListQuery = z.infer<typeof channelListQuery>;

export interface RechargeChannel {
  id: number;
  /** 1 bank transfer, 2 crypto, 3 online. */
  channelType: number;
  channelName: string;
  currencyId: number;
  currencyName: string;
  /** Crypto: the network and the platform's deposit address on it. */
  network: string | null;
  depositAddress: string | null;
  /** Bank transfer: the account to pay into. */
  bankName: string | null;
  accountName: string | null;
  accountNumber: string | null;
  /** Online: the payment page the user is sent to after confirming. */
  payUrl: string | null;
  minAmount: string;
  maxAmount: string;
  /** Decimals accepted in amounts (the currency's scale). */
  scale: number;
  remark: string;
}

export interface WithdrawChannel {
  id: number;
  /** 1 to a bank card, 2 to a wallet address. */
  channelType: number;
  channelName: string;
  currencyId: number;
  currencyName: string;
  network: string | null;
  feeRate: string;
  fixedFee: string;
  minAmount: string;
  maxAmount: string;
  dailyLimit: string;
  /** What is left of today's limit for the signed-in user (UTC day). */
  dailyRemaining: string;
  scale: number;
  remark: string;
}

// ---------------------------------------------------------------- recharge

/** A payment proof as a data URL (`data:image/jpeg;base64,…`) or bare base64. */
export const proofImage = safeString(3 * 1024 * 1024);

export const inMoneyBody = z.object({
  channelId: id,
  amount,
  /** Required for bank and crypto channels; the online channel has none. */
  proofImage: z.preprocess(emptyToUndefined, proofImage.optional()),
  /** Multi-line: typed in a text area, so line breaks are the user's own. */
  remark: optionalText(140, 'multiLine'),
  requestId,
});
export type InMoneyBody = z.infer<typeof inMoneyBody>;

export const rechargeListQuery = pageQuery.extend({
  status: z.preprocess(
    emptyToUndefined,
    codeField(Object.values(RECHARGE_STATUS) as number[]).optional(),
  ),
});
export type RechargeListQuery = z.infer<typeof rechargeListQuery>;

export const idQuery = z.object({ id });
export const idBody = z.object({ id });
export type IdBody = z.infer<typeof idBody>;

export interface RechargeRecord {
  id: number;
  orderNo: string;
  channelId: number;
  channelName: string;
  channelType: number;
  currencyId: number;
  currencyName: string;
  amount: string;
  /** 0 under review, 1 approved, 2 rejected. */
  status: number;
  rejectReason: string | null;
  remark: string | null;
  hasProof: boolean;
  createTime: string;
  reviewTime: string | null;
}

// ---------------------------------------------------------------- withdraw

export const outMoneyBody = z.object({
  channelId: id,
  amount,
  withPwd: safeString(16).refine(isWithdrawalPassword, { error: 'hint_withPwdFormat' }),
  /** The bound card (bank channels) or address (crypto channels) to pay to. */
  bankId: z.preprocess(emptyToUndefined, id.optional()),
  addressId: z.preprocess(emptyToUndefined, id.optional()),
  requestId,
});
export type OutMoneyBody = z.infer<typeof outMoneyBody>;

export const withdrawListQuery = pageQuery.extend({
  status: z.preprocess(
    emptyToUndefined,
    codeField(Object.values(WITHDRAW_STATUS) as number[]).optional(),
  ),
});
export type WithdrawListQuery = z.infer<typeof withdrawListQuery>;

export interface WithdrawDestination {
  /** 'bank' or 'address'. */
  kind: 'bank' | 'address';
  bankName?: string;
  accountName?: string;
  /** Masked when the switch says so. */
  cardNumber?: string;
  network?: string;
  address?: string;
}

export interface WithdrawRecord {
  id: number;
  orderNo: string;
  channelId: number;
  channelName: string;
  currencyId: number;
  currencyName: string;
  amount: string;
  fee: string;
  /** Amount plus fee: what was frozen. */
  totalAmount: string;
  destination: WithdrawDestination;
  /** 0 under review, 1 paid, 2 rejected, 3 cancelled. */
  status: number;
  rejectReason: string | null;
  createTime: string;
  closeTime: string | null;
}

// ---------------------------------------------------------------- bank cards

/**
 * A bank card: the fields named by bankPropertyConfig (configType 0), each a bounded text; which
 * are required comes from the same configuration and is checked by the server.
 *
 * Field names are single-line text. A value's type and length are checked by the server, which
 * names the field by its translated label; here a text value is only checked for refused
 * characters, by the multi-line rule, because the server folds tabs and line breaks into spaces.
 */
export const bankCardBody = z.record(
  safeString(32),
  z.unknown().superRefine((value, context) => {
    if (typeof value === 'string' && hasForbiddenCharacters(value, 'multiLine'))
      context.addIssue({ code: 'custom', message: TEXT_INVALID_CHARACTERS });
  }),
);
export type BankCardBody = z.infer<typeof bankCardBody>;

export const bankCard = z.object({
  id: z.number().int(),
  cardNumber: z.string().describe('Masked when the switch says so.'),
  bankName: z.string(),
  accountName: z.string(),
  properties: z
    .record(z.string(), z.string())
    .describe('Every configured field, the card number masked like above.'),
  createTime: z.string(),
});
export type BankCard = z.output<typeof bankCard>;

// ---------------------------------------------------------------- wallet addresses

export const walletAddressBody = z.object({
  currencyId: id,
  network: text(16),
  address: text(128),
  remark: optionalText(64),
});
export type WalletAddressBody = z.infer<typeof walletAddressBody>;

export const modifyWalletAddressBody = walletAddressBody.extend({ id });
export type ModifyWalletAddressBody = z.infer<typeof modifyWalletAddressBody>;

export const walletAddress = z.object({
  id: z.number().int(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  network: z.string(),
  address: z.string().describe('Masked when the switch says so.'),
  remark: z.string().nullable(),
  createTime: z.string(),
});
export type WalletAddress = z.output<typeof walletAddress>;

// ---------------------------------------------------------------- exchange

export const exchangeQuoteQuery = z.object({
  fromCurrencyId: id,
  toCurrencyId: id,
  amount,
});
export type ExchangeQuoteQuery = z.infer<typeof exchangeQuoteQuery>;

export interface ExchangeQuote {
  quoteId: string;
  fromCurrencyId: number;
  fromCurrencyName: string;
  toCurrencyId: number;
  toCurrencyName: string;
  amount: string;
  /** Units of the target currency per unit of the source currency. */
  rate: string;
  feeRate: string;
  /** In the source currency. */
  fee: string;
  /** What arrives, in the target currency. */
  receiveAmount: string;
  expiresAt: string;
}

export const balanceConvertBody = z.object({ quoteId: safeString(64).min(8), requestId });
export type BalanceConvertBody = z.infer<typeof balanceConvertBody>;

export interface ConvertRecord {
  id: number;
  fromCurrencyId: number;
  fromCurrencyName: string;
  toCurrencyId: number;
  toCurrencyName: string;
  amount: string;
  rate: string;
  fee: string;
  receiveAmount: string;
  createTime: string;
}

// ---------------------------------------------------------------- records

export const balanceRecordQuery = pageQuery.extend({
  type: z.preprocess(
    emptyToUndefined,
    z.enum(RECORD_TYPES, { error: 'hint_paramInvalid' }).optional(),
  ),
  currencyId: optionalInt(1, 1_000_000),
});
export type BalanceRecordQuery = z.infer<typeof balanceRecordQuery>;

export interface BalanceRecord {
  /** `<entry id>-<line>`: unique per posting. */
  id: string;
  entryId: number;
  /** Category (RECORD_TYPES) and the ledger's own entry type (`hold:withdraw`…). */
  type: string;
  entryType: string;
  currencyId: number;
  currencyName: string;
  /** 'available' or 'frozen'. */
  kind: string;
  /** Signed: positive credits, negative debits. */
  amount: string;
  balanceAfter: string;
  refType: string | null;
  refId: string | null;
  createTime: string;
}
