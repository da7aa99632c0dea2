/**
 * Schemas of the operator API (/admin-api): the inputs of its calls and the shapes of its answers.
 * Like the /api calls, bodies may be form-encoded (every value text, lists as repeated fields or
 * comma-separated) or JSON. Amounts and rates are decimal strings both ways.
 */
import { z } from 'zod';
import { DEFAULT_LANGUAGE, isLanguageKey, OPERATOR_ROLES } from '../constants';
import { cmp, MAX_SCALE } from '../money';
import { WITHDRAW_TERMS } from '../withdraw-terms';
import {
  decimalAmount,
  intField,
  optionalFlag,
  optionalInt,
  optionalText,
  pageQuery,
  safeString,
  text,
} from './common';
import { rechargeRecord, withdrawRecord } from './wallet';
import { optionalTwoFactorCode } from './security';

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

const id = intField(1, 2_147_483_647);

// ---------------------------------------------------------------- operators: inputs

/** Operator passwords: at least 12 characters, taken exactly as sent. */
export const OPERATOR_PASSWORD_MIN = 12;
export const OPERATOR_PASSWORD_MAX = 128;

const username = safeString(64)
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9][a-z0-9._-]{2,31}$/, { error: 'hint_operatorNameInvalid' }));

/** Taken exactly as sent, spaces included; like every text, no control characters. */
const newPassword = safeString(OPERATOR_PASSWORD_MAX).min(OPERATOR_PASSWORD_MIN);

/** A list of roles: an array, a repeated form field, or `admin,finance`. */
const roles = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((role) => role.trim())
          .filter(Boolean)
      : value,
  z
    .array(z.enum(OPERATOR_ROLES, { error: 'hint_operatorRoleInvalid' }))
    .min(1)
    .max(OPERATOR_ROLES.length)
    .transform((list) => OPERATOR_ROLES.filter((role) => list.includes(role))),
);

export const adminLoginBody = z.object({
  username: safeString(64).min(1),
  password: safeString(OPERATOR_PASSWORD_MAX).min(1),
});
export type AdminLoginBody = z.infer<typeof adminLoginBody>;

export const changeOwnPasswordBody = z.object({
  oldPassword: safeString(OPERATOR_PASSWORD_MAX).min(1),
  newPassword,
  twoFactorCode: optionalTwoFactorCode.describe(
    'A current code of the authenticator app or a recovery code; required once two-factor is on.',
  ),
});

export const operatorCreateBody = z.object({ username, password: newPassword, roles });

export const operatorUpdateBody = z.object({
  id,
  roles: z.preprocess(emptyToUndefined, roles.optional()),
  disabled: optionalFlag,
});

/** Without a password, a random one is made and answered once. */
export const operatorResetPasswordBody = z.object({
  id,
  password: z.preprocess(emptyToUndefined, newPassword.optional()),
});

export const operatorListQuery = pageQuery;

// ---------------------------------------------------------------- users, reviews, audit: inputs

export const reviewListQuery = pageQuery.extend({
  status: optionalInt(0, 9),
  userId: optionalInt(1, 2_147_483_647),
});

export const reviewIdQuery = z.object({ id });
export const reviewIdBody = z.object({ id });

/** Disable (true) or enable again (false) a user's account. */
export const userStatusBody = z.object({
  id,
  disabled: optionalFlag.refine((value) => value !== undefined, { error: 'hint_paramRequired' }),
});
/** The reason is shown to the user; multi-line, as an operator may explain in a few lines. */
export const reviewRejectBody = z.object({ id, reason: text(500, 1, 'multiLine') });

/** A moment as ISO 8601 text with its offset (`2026-11-27T00:00:00Z`, `…+08:00`), kept as text. */
const instant = safeString(40).refine(
  (value) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(Date.parse(value)),
  { error: 'hint_paramInvalid' },
);

export const auditQuery = pageQuery.extend({
  operatorId: optionalInt(1, 2_147_483_647),
  action: z.preprocess(emptyToUndefined, text(64).optional()),
  targetType: z.preprocess(emptyToUndefined, text(32).optional()),
  targetId: z.preprocess(emptyToUndefined, text(64).optional()),
  /** Entries at or after `from` and before `to`. */
  from: z.preprocess(emptyToUndefined, instant.optional()),
  to: z.preprocess(emptyToUndefined, instant.optional()),
});

// ---------------------------------------------------------------- channels: inputs

/** 1 or 0, sent as a number, `1`/`0` or `true`/`false` text. */
const channelFlag = z.preprocess(
  (value) =>
    value === 'true' || value === '1' ? 1 : value === 'false' || value === '0' ? 0 : value,
  z.union([z.literal(0), z.literal(1)]),
);
const channelAmount = decimalAmount({ maxScale: MAX_SCALE });
const channelFee = decimalAmount({ maxScale: MAX_SCALE, sign: 'nonNegative' });
const channelId = z.preprocess((v) => (v === '' ? undefined : v), intField(1).optional());
/** Shown to users under the channel: multi-line, so instructions may take several lines. */
const channelRemark = z.preprocess((v) => v ?? '', safeString(500, 'multiLine'));
const channelSort = z.preprocess(
  (v) => (v === '' || v === undefined ? 0 : v),
  intField(-1_000_000, 1_000_000),
);
const channelVisible = z.preprocess((v) => (v === undefined ? 1 : v), channelFlag);

/**
 * A text an operator writes in the app's languages: `{ "en": "…", "fr": "…" }`, keyed by the
 * languages' keys (an unknown key is refused with hint_langInvalid), English required
 * (hint_langEnglishRequired: users of a language left out read it), each text trimmed and bounded
 * like the field it translates. A language left empty is left out. Optional: a save without it
 * keeps the field's one text for every language.
 */
export function languageTexts(maxLength: number, lines: 'singleLine' | 'multiLine' = 'singleLine') {
  return z.preprocess(
    (value) => {
      if (value === '' || value === null) return undefined;
      if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
      return Object.fromEntries(
        Object.entries(value).filter(([, item]) => !(typeof item === 'string' && !item.trim())),
      );
    },
    z
      .record(
        z.string().refine(isLanguageKey, { error: 'hint_langInvalid' }),
        text(maxLength, 1, lines),
      )
      .refine((texts) => typeof texts[DEFAULT_LANGUAGE] === 'string', {
        error: 'hint_langEnglishRequired',
      })
      .optional(),
  );
}

/** Creates (no id) or changes a deposit channel. */
export const rechargeChannelSaveBody = z.object({
  id: channelId,
  channelType: intField(1, 3),
  channelName: text(64),
  currencyId: intField(1),
  network: optionalText(16),
  depositAddress: optionalText(128),
  bankName: optionalText(64),
  accountName: optionalText(64),
  accountNumber: optionalText(34),
  payUrl: optionalText(512),
  minAmount: channelAmount,
  maxAmount: channelAmount,
  remark: channelRemark,
  sort: channelSort,
  isVisible: channelVisible,
  channelNameLang: languageTexts(64),
  remarkLang: languageTexts(500, 'multiLine'),
  bankNameLang: languageTexts(64),
  accountNameLang: languageTexts(64),
});

/** Creates (no id) or changes a withdrawal channel; its currency never changes. */
export const withdrawChannelSaveBody = z.object({
  id: channelId,
  channelType: intField(1, 2),
  channelName: text(64),
  currencyId: intField(1),
  network: optionalText(16),
  feeRate: channelFee,
  fixedFee: channelFee,
  minAmount: channelAmount,
  maxAmount: channelAmount,
  dailyLimit: channelAmount,
  remark: channelRemark,
  sort: channelSort,
  isVisible: channelVisible,
  channelNameLang: languageTexts(64),
  remarkLang: languageTexts(500, 'multiLine'),
});

// ---------------------------------------------------------------- trading settings: inputs

/** Fee rates are fractions of the amount, below 10 %. */
export const OPERATOR_MAX_FEE_RATE = '0.1';
export const OPERATOR_MAX_LEVERAGE = 125;
const MAX_LEVERAGE_CHOICES = 32;
const RATE_SCALE = 8;
const STAKE_SCALE = 8;

const settingFlag = z.preprocess(
  (value) =>
    value === 'true' || value === '1' || value === true
      ? 1
      : value === 'false' || value === '0' || value === false
        ? 0
        : value,
  z.union([z.literal(0), z.literal(1)]),
);
const optionalSettingFlag = z.preprocess(emptyToUndefined, settingFlag.optional());
const sort = intField(-1_000_000, 1_000_000);
const productType = intField(1, 4);
/** Product codes are upper case (`BTCUSDT`, `AAPL`, `EURUSD`). */
const productCode = text(16).transform((value) => value.toUpperCase());

/** Leverage choices: ascending distinct whole numbers 1–125, as an array or `1,5,10`. */
const leverages = z
  .unknown()
  .transform((value, context) => {
    if (value === undefined || value === null || value === '') return undefined;
    const items = typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value;
    const list = Array.isArray(items)
      ? items.map((item) =>
          typeof item === 'string' && /^\d{1,3}$/.test(item) ? Number(item) : item,
        )
      : [];
    const valid =
      list.length > 0 &&
      list.length <= MAX_LEVERAGE_CHOICES &&
      list.every(
        (item, index) =>
          typeof item === 'number' &&
          Number.isInteger(item) &&
          item >= 1 &&
          item <= OPERATOR_MAX_LEVERAGE &&
          (index === 0 || item > (list[index - 1] as number)),
      );
    if (!valid) {
      context.addIssue({ code: 'custom', message: 'hint_leveragesInvalid' });
      return z.NEVER;
    }
    return list as number[];
  })
  .optional();

export const feeSaveBody = z.object({
  productType,
  positionType: intField(0, 3),
  exType: intField(1, 2),
  feeRate: decimalAmount({ maxScale: RATE_SCALE, sign: 'nonNegative' }).refine(
    (rate) => cmp(rate, OPERATOR_MAX_FEE_RATE) < 0,
    { error: 'hint_feeRateTooHigh' },
  ),
});

export const fastTradeOptionSaveBody = z.object({
  id: z.preprocess(emptyToUndefined, intField(1).optional()),
  productType,
  /** Absent (or null): an option of every product of the type. */
  productCode: z
    .preprocess(emptyToUndefined, optionalText(16))
    .transform((value) => value?.toUpperCase()),
  durationSeconds: intField(10, 86_400),
  payoutRate: decimalAmount({ maxScale: RATE_SCALE, max: '10' }),
  lossRate: decimalAmount({ maxScale: RATE_SCALE, max: '1' }),
  minStake: decimalAmount({ maxScale: STAKE_SCALE }),
  maxStake: decimalAmount({ maxScale: STAKE_SCALE }),
  isEnabled: z.preprocess(
    (value) => (value === undefined || value === '' ? 1 : value),
    settingFlag,
  ),
  sort: z.preprocess((value) => (value === undefined || value === '' ? 0 : value), sort),
});

export const productUpdateBody = z.object({
  productType,
  productCode,
  isVisible: optionalSettingFlag,
  isLock: optionalSettingFlag,
  sort: z.preprocess(emptyToUndefined, sort.optional()),
  leverages,
  /** Equity at or below entry notional × this liquidates a contract (0 < rate < 0.5). */
  maintenanceRate: z.preprocess(
    emptyToUndefined,
    decimalAmount({ maxScale: RATE_SCALE, max: '0.49999999' }).optional(),
  ),
});

// ---------------------------------------------------------------- answers

export const operatorInfo = z.object({
  id: z.number().int(),
  username: z.string(),
  roles: z.array(z.enum(OPERATOR_ROLES)),
  disabled: z.boolean(),
  createTime: z.string(),
  updateTime: z.string(),
  lastLoginTime: z.string().nullable(),
  pwdChangeTime: z.string().nullable(),
  twoFactor: z.boolean().describe('Whether sign-in asks the operator for a two-factor code.'),
});
export type OperatorInfo = z.output<typeof operatorInfo>;

export const operatorSignedIn = z.object({
  token: z.string().describe('The bearer token of the operator session.'),
  operator: operatorInfo,
});
export type OperatorSignedIn = z.output<typeof operatorSignedIn>;

export const operatorPasswordReset = z.object({
  operator: operatorInfo,
  password: z
    .string()
    .optional()
    .describe('The password made at random when none was given: answered this once.'),
});
export type OperatorPasswordReset = z.output<typeof operatorPasswordReset>;

export const userStatusChange = z.object({
  changed: z.boolean().describe('False when the account was already in that state.'),
  status: z.union([z.literal(0), z.literal(1)]).describe('0 active, 1 disabled.'),
});
export type UserStatusChange = z.output<typeof userStatusChange>;

export const auditEntry = z.object({
  id: z.number().int(),
  operatorId: z.number().int(),
  operatorName: z.string(),
  action: z.string().describe('What was done, e.g. `operator.create`, `recharge.approve`.'),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown().describe('What the target was before (null: it did not exist).'),
  after: z.unknown().describe('What the target became.'),
  ip: z.string().nullable(),
  createTime: z.string(),
});
export type AuditEntry = z.output<typeof auditEntry>;

/** A deposit as operators review it: with its user. */
export const reviewedRecharge = rechargeRecord.extend({
  userId: z.number().int(),
  userAccount: z.string(),
});
export type ReviewedRecharge = z.output<typeof reviewedRecharge>;

/** A withdrawal as operators review it: with its user, the destination unmasked (they pay it). */
export const reviewedWithdraw = withdrawRecord.extend({
  userId: z.number().int(),
  userAccount: z.string(),
});
export type ReviewedWithdraw = z.output<typeof reviewedWithdraw>;

/** A channel's text by language as stored (empty: the one text for every language). */
const storedTexts = z
  .record(z.string(), z.string())
  .describe('The text by language key; users of a language left out read English.');

/** A deposit channel as stored (column names), hidden ones included. */
export const rechargeChannelConfig = z.object({
  id: z.number().int(),
  channel_type: z.number().int().describe('1 bank transfer, 2 crypto, 3 online.'),
  channel_name: z.string(),
  currency_id: z.number().int(),
  network: z.string().nullable(),
  deposit_address: z.string().nullable(),
  bank_name: z.string().nullable(),
  account_name: z.string().nullable(),
  account_number: z.string().nullable(),
  pay_url: z.string().nullable(),
  min_amount: z.string(),
  max_amount: z.string(),
  remark: z.string(),
  sort: z.number().int(),
  is_visible: z.number().int(),
  channel_name_lang: storedTexts,
  remark_lang: storedTexts,
  bank_name_lang: storedTexts,
  account_name_lang: storedTexts,
  is_example: z
    .number()
    .int()
    .describe("1: the seed's example, until an operator saves it (the app badges it)."),
});
export type RechargeChannelConfig = z.output<typeof rechargeChannelConfig>;

/** A change of a withdrawal channel's terms still to come. */
const pendingTermsChange = z.object({
  term: z.enum(WITHDRAW_TERMS),
  oldValue: z.string(),
  newValue: z.string(),
  announceTime: z.string(),
  effectiveTime: z.string(),
});

/** A withdrawal channel as stored (column names) with the terms in force now. */
export const withdrawChannelConfig = z.object({
  id: z.number().int(),
  channel_type: z.number().int().describe('1 to a bank card, 2 to a wallet address.'),
  channel_name: z.string(),
  currency_id: z.number().int(),
  network: z.string().nullable(),
  fee_rate: z.string(),
  fixed_fee: z.string(),
  min_amount: z.string(),
  max_amount: z.string(),
  daily_limit: z.string(),
  remark: z.string(),
  sort: z.number().int(),
  is_visible: z.number().int(),
  channel_name_lang: storedTexts,
  remark_lang: storedTexts,
  is_example: z.number().int(),
  pendingChanges: z
    .array(pendingTermsChange)
    .describe('Changes that make withdrawing harder, announced and not yet in force.'),
});
export type WithdrawChannelConfig = z.output<typeof withdrawChannelConfig>;

/** The order fee of a product type, position type and direction. */
export const feeConfig = z.object({
  id: z.number().int(),
  productType: z.number().int(),
  positionType: z.number().int(),
  exType: z.number().int(),
  feeRate: z.string(),
});
export type FeeConfig = z.output<typeof feeConfig>;

export const fastTradeOptionConfig = z.object({
  id: z.number().int(),
  productType: z.number().int(),
  productCode: z.string().nullable().describe('null: an option of every product of the type.'),
  durationSeconds: z.number().int(),
  payoutRate: z.string(),
  lossRate: z.string(),
  minStake: z.string(),
  maxStake: z.string(),
  isEnabled: z.number().int(),
  sort: z.number().int(),
});
export type FastTradeOptionConfig = z.output<typeof fastTradeOptionConfig>;

/**
 * The products list of the console: a page of one type or of all, filtered by a code or a name in
 * any language (what is typed is matched as text: `%` and `_` too).
 */
export const productSettingsQuery = pageQuery.extend({
  productType: optionalInt(0, 3),
  keyword: optionalText(40),
});
export type ProductSettingsQuery = z.output<typeof productSettingsQuery>;

export const productConfig = z.object({
  id: z.number().int(),
  productType: z.number().int(),
  productCode: z.string(),
  productName: z.string(),
  productNameLang: z
    .record(z.string(), z.string())
    .describe('The name by language key; a language left out reads English.'),
  isVisible: z.number().int(),
  isLock: z.number().int().describe('1: halted, no new orders (quotes keep coming).'),
  sort: z.number().int(),
  leverages: z.array(z.number().int()),
  maintenanceRate: z.string(),
  positionTypes: z.array(z.number().int()),
});
export type ProductConfig = z.output<typeof productConfig>;
