/**
 * Schemas and response shapes of the wallet calls (PRODUCT sections 3 and 5): deposit and
 * withdrawal channels and requests, bank cards, wallet addresses, exchange and records.
 * Amounts are decimal strings both ways.
 */
import { z } from 'zod';
import { MAX_SCALE } from '../money';
import { RECORD_TYPES, WITHDRAW_STATUS, RECHARGE_STATUS } from '../constants';
import { WITHDRAW_TERMS } from '../withdraw-terms';
import { isWithdrawalPassword } from '../validators';
import { optionalTwoFactorCode } from './security';
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

/**
 * A channel of a fresh installation's example data (the seed's), until an operator saves it: its
 * bank account or address is not the platform's, and the app says so.
 */
const exampleFlag = z
  .boolean()
  .describe("Example data of a fresh installation, never saved by an operator: don't pay into it.");

export const rechargeChannel = z.object({
  id: z.number().int(),
  channelType: z.number().int().describe('1 bank transfer, 2 crypto, 3 online.'),
  channelName: z.string(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  network: z.string().nullable().describe('Crypto: the network of the deposit address.'),
  depositAddress: z.string().nullable().describe("Crypto: the platform's deposit address."),
  bankName: z.string().nullable().describe('Bank transfer: the account to pay into.'),
  accountName: z.string().nullable(),
  accountNumber: z.string().nullable(),
  payUrl: z
    .string()
    .nullable()
    .describe('Online: the payment page the user is sent to after confirming.'),
  minAmount: z.string(),
  maxAmount: z.string(),
  scale: z.number().int().describe("Decimals accepted in amounts (the currency's scale)."),
  remark: z.string(),
  isExample: exampleFlag,
});
export type RechargeChannel = z.output<typeof rechargeChannel>;

export const withdrawChannel = z.object({
  id: z.number().int(),
  channelType: z.number().int().describe('1 to a bank card, 2 to a wallet address.'),
  channelName: z.string(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  network: z.string().nullable(),
  feeRate: z.string().describe('A fraction of the amount: 0.002 is 0.2 %.'),
  fixedFee: z.string(),
  minAmount: z.string(),
  maxAmount: z.string(),
  dailyLimit: z.string(),
  dailyRemaining: z
    .string()
    .describe("What is left of today's limit for the signed-in user (UTC day)."),
  scale: z.number().int().describe("Decimals accepted in amounts (the currency's scale)."),
  remark: z.string(),
  isExample: exampleFlag,
});
export type WithdrawChannel = z.output<typeof withdrawChannel>;

/** An announced change of a withdrawal channel's terms (the type is WithdrawTermsChange). */
export const withdrawTermsChange = z.object({
  id: z.number().int(),
  channelId: z.number().int(),
  channelName: z.string(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  network: z.string().nullable(),
  term: z.enum(WITHDRAW_TERMS),
  oldValue: z
    .string()
    .describe(
      "Amounts at the currency's decimals, the fee rate as a fraction (0.002 is 0.2 %), for isVisible 1 shown and 0 hidden.",
    ),
  newValue: z.string(),
  announceTime: z.string().describe('When it was announced (ISO 8601).'),
  effectiveTime: z.string().describe('When it takes or took effect (ISO 8601).'),
  status: z
    .enum(['pending', 'effective'])
    .describe('`pending` until `effectiveTime`, `effective` from then on.'),
});

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

export const rechargeRecord = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  channelId: z.number().int(),
  channelName: z.string(),
  channelType: z.number().int(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  amount: z.string(),
  status: z.number().int().describe('0 under review, 1 approved, 2 rejected.'),
  rejectReason: z.string().nullable(),
  remark: z.string().nullable(),
  hasProof: z.boolean(),
  createTime: z.string(),
  reviewTime: z.string().nullable(),
});
export type RechargeRecord = z.output<typeof rechargeRecord>;

// ---------------------------------------------------------------- withdraw

export const outMoneyBody = z.object({
  channelId: id,
  amount,
  withPwd: safeString(16).refine(isWithdrawalPassword, { error: 'hint_withPwdFormat' }),
  /** A current two-factor code (or a recovery code): asked once the user turned two-factor on. */
  twoFactorCode: optionalTwoFactorCode,
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

export const withdrawDestination = z.object({
  kind: z.enum(['bank', 'address']),
  bankName: z.string().optional(),
  accountName: z.string().optional(),
  cardNumber: z.string().optional().describe('Masked when the switch says so.'),
  network: z.string().optional(),
  address: z.string().optional().describe('Masked when the switch says so.'),
});
export type WithdrawDestination = z.output<typeof withdrawDestination>;

/** One of the user's own bound cards (`bankId`) or addresses (`addressId`), to show whole. */
export const withdrawDestinationQuery = z.object({
  bankId: z.preprocess(emptyToUndefined, id.optional()),
  addressId: z.preprocess(emptyToUndefined, id.optional()),
});
export type WithdrawDestinationQuery = z.infer<typeof withdrawDestinationQuery>;

export const withdrawRecord = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  channelId: z.number().int(),
  channelName: z.string(),
  currencyId: z.number().int(),
  currencyName: z.string(),
  amount: z.string(),
  fee: z.string(),
  totalAmount: z.string().describe('Amount plus fee: what was frozen.'),
  destination: withdrawDestination,
  status: z.number().int().describe('0 under review, 1 paid, 2 rejected, 3 cancelled.'),
  rejectReason: z.string().nullable(),
  createTime: z.string(),
  closeTime: z.string().nullable(),
});
export type WithdrawRecord = z.output<typeof withdrawRecord>;

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
  usableFrom: z
    .string()
    .describe('From when a withdrawal may go to it while the whitelist is on (ISO time).'),
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
  usableFrom: z
    .string()
    .describe('From when a withdrawal may go to it while the whitelist is on (ISO time).'),
});
export type WalletAddress = z.output<typeof walletAddress>;

// ---------------------------------------------------------------- exchange

export const exchangeQuoteQuery = z.object({
  fromCurrencyId: id,
  toCurrencyId: id,
  amount,
});
export type ExchangeQuoteQuery = z.infer<typeof exchangeQuoteQuery>;

export const exchangeQuote = z.object({
  quoteId: z.string(),
  fromCurrencyId: z.number().int(),
  fromCurrencyName: z.string(),
  toCurrencyId: z.number().int(),
  toCurrencyName: z.string(),
  amount: z.string(),
  rate: z.string().describe('Units of the target currency per unit of the source currency.'),
  feeRate: z.string(),
  fee: z.string().describe('In the source currency.'),
  receiveAmount: z.string().describe('What arrives, in the target currency.'),
  expiresAt: z.string().describe('After this time (ISO 8601) the quote is refused.'),
});
export type ExchangeQuote = z.output<typeof exchangeQuote>;

export const balanceConvertBody = z.object({ quoteId: safeString(64).min(8), requestId });
export type BalanceConvertBody = z.infer<typeof balanceConvertBody>;

export const convertRecord = z.object({
  id: z.number().int(),
  fromCurrencyId: z.number().int(),
  fromCurrencyName: z.string(),
  toCurrencyId: z.number().int(),
  toCurrencyName: z.string(),
  amount: z.string(),
  rate: z.string(),
  fee: z.string(),
  receiveAmount: z.string(),
  createTime: z.string(),
});
export type ConvertRecord = z.output<typeof convertRecord>;

// ---------------------------------------------------------------- records

export const balanceRecordQuery = pageQuery.extend({
  type: z.preprocess(
    emptyToUndefined,
    z.enum(RECORD_TYPES, { error: 'hint_paramInvalid' }).optional(),
  ),
  currencyId: optionalInt(1, 1_000_000),
});
export type BalanceRecordQuery = z.infer<typeof balanceRecordQuery>;

export const balanceRecord = z.object({
  id: z.string().describe('`<entry id>-<line>`: unique per posting.'),
  entryId: z.number().int(),
  type: z.string().describe(`The category: ${RECORD_TYPES.join(', ')}.`),
  entryType: z.string().describe("The ledger's own entry type (`hold:withdraw`…)."),
  currencyId: z.number().int(),
  currencyName: z.string(),
  kind: z.string().describe('`available` or `frozen`.'),
  amount: z.string().describe('Signed: positive credits, negative debits.'),
  balanceAfter: z.string(),
  refType: z.string().nullable(),
  refId: z.string().nullable(),
  createTime: z.string(),
});
export type BalanceRecord = z.output<typeof balanceRecord>;

// ---------------------------------------------------------------- balances

export const currencyBalance = z.object({
  currencyId: z.number().int(),
  currencyName: z.string(),
  amount: z.string().describe('Available to use.'),
  frozenAmount: z.string(),
  totalAmount: z.string(),
});
export type CurrencyBalance = z.output<typeof currencyBalance>;

/**
 * One asset the account holds, as the wallet lists it: a ledger currency balance (`wallet`) or a
 * spot holding (`spot`, bought through spot trading and held outside the wallet's balances).
 */
export const heldAsset = z.object({
  kind: z
    .enum(['wallet', 'spot'])
    .describe('`wallet`: a currency balance; `spot`: a spot holding.'),
  assetName: z
    .string()
    .describe('The currency (`BTC`), or what the spot product holds (`BTC`, `AAPL`).'),
  currencyId: z.number().int().nullable().describe('The ledger currency of a `wallet` row.'),
  productCode: z.string().nullable().describe('The product of a `spot` row (`BTCUSDT`).'),
  amount: z.string().describe('Available to use (or to sell).'),
  frozenAmount: z.string().describe('Frozen: pending withdrawals, resting orders.'),
  totalAmount: z.string(),
  value: z
    .string()
    .nullable()
    .describe('The total amount in the trade currency at live prices; null when no price exists.'),
});
export type HeldAsset = z.output<typeof heldAsset>;

/** The account's value in the trade currency (the spec's assets entity). */
export const balanceValuation = z.object({
  currencyId: z.number().int().describe('The trade currency, which every figure is valued in.'),
  currencyName: z.string(),
  userBalanceConvert: z
    .string()
    .describe('Everything the account holds (available, frozen, margin, positions).'),
  allMarginAmount: z.string().describe('Margin held by open positions.'),
  profitAndLose: z.string().describe('Unrealized result of open positions.'),
  profitAndLoseToday: z.string().describe("Today's (UTC) realized and unrealized result."),
  unpricedCurrencies: z
    .array(z.string())
    .describe('Currencies held that no market rate prices yet: not in the total.'),
  priceTime: z
    .number()
    .describe('When the live prices of this valuation were read (ms): every figure is as of then.'),
  assets: z
    .array(heldAsset)
    .describe(
      'Every asset: held ones first (currency balances, then spot holdings), then the currencies never held.',
    ),
});
export type BalanceValuation = z.output<typeof balanceValuation>;

/** The person centre's panel: the valuation, the book and the unread messages. */
export const panelData = balanceValuation.extend({
  accountType: z.number().int().describe('0 live, 2 demo.'),
  notReadMessageCount: z.number().int(),
});
export type PanelData = z.output<typeof panelData>;
