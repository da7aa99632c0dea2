/**
 * Schemas of the console's settings calls (/admin-api, contract/console-settings.ts): the
 * platform's currencies, switches and `otherValue` (stored settings an operator may change, each
 * save audited), the API lines (configured by the environment, shown read-only), and the preview
 * of a withdrawal channel's save (which terms apply at once and which after the notice).
 * None of them sets a price, a balance or an outcome.
 */
import { z } from 'zod';
import { OTHER_VALUE_DEFAULTS, SWITCH, type OtherValue } from '../constants';
import { WITHDRAW_TERMS } from '../withdraw-terms';
import { intField, pageQuery, text } from './common';
import { apiLine, siteLayout } from './launch';

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** 1 or 0, sent as a number, `1`/`0` or `true`/`false`. */
const flag = z.preprocess(
  (value) =>
    value === true || value === 'true' || value === '1'
      ? 1
      : value === false || value === 'false' || value === '0'
        ? 0
        : value,
  z.union([z.literal(0), z.literal(1)]),
);

// ---------------------------------------------------------------- currencies

export const currencyListQuery = pageQuery;

/** Currency codes: 2–10 upper-case letters or digits (`USDT`, `BTC`), as the table checks. */
export const CURRENCY_NAME_PATTERN = /^[A-Z0-9]{2,10}$/;
/** Networks a wallet address may use: `ERC20/TRC20`, each 2–16 letters, digits, `-` or `_`. */
const NETWORKS_PATTERN = /^([A-Za-z0-9_-]{2,16})(\/[A-Za-z0-9_-]{2,16}){0,9}$/;

/**
 * Creates (no id) or changes a currency. A currency in use (balances, ledger accounts or channels
 * in it) keeps its code, kind, decimals and visibility (`hint_currencyInUse`): held amounts are
 * kept and shown at its decimals, and every amount's currency must stay listed.
 */
export const currencySaveBody = z.object({
  id: z.preprocess(emptyToUndefined, intField(1, 1_000_000).optional()),
  currencyName: text(10)
    .transform((value) => value.toUpperCase())
    .pipe(z.string().regex(CURRENCY_NAME_PATTERN, { error: 'hint_paramInvalid' })),
  currencyType: intField(1, 2),
  walletAddressType: z.preprocess(
    (value) => (value === undefined || value === null ? '' : value),
    text(200, 0)
      .transform((value) =>
        value
          .split('/')
          .map((item) => item.trim())
          .filter(Boolean)
          .join('/'),
      )
      .refine((value) => value === '' || NETWORKS_PATTERN.test(value), {
        error: 'hint_paramInvalid',
      }),
  ),
  scale: intField(0, 18),
  icon: z.preprocess((value) => value ?? '', text(512, 0)),
  sort: z.preprocess(
    (value) => (value === '' || value === undefined ? 0 : value),
    intField(-1_000_000, 1_000_000),
  ),
  isVisible: z.preprocess((value) => (value === undefined ? 1 : value), flag),
});
export type CurrencySaveBody = z.output<typeof currencySaveBody>;

export const currencyConfig = z.object({
  id: z.number().int(),
  currencyName: z.string(),
  currencyType: z.number().int().describe('1 fiat, 2 crypto.'),
  walletAddressType: z.string().describe('Networks, slash-separated; empty for fiat.'),
  scale: z.number().int().describe('Decimals of amounts in this currency.'),
  icon: z.string(),
  sort: z.number().int(),
  isVisible: z.number().int(),
  inUse: z
    .boolean()
    .describe(
      'Ledger accounts or channels exist in it: its code, kind, decimals and visibility are kept.',
    ),
});
export type CurrencyConfig = z.output<typeof currencyConfig>;

// ---------------------------------------------------------------- switches

export const SWITCH_NAMES = Object.values(SWITCH) as [string, ...string[]];

export const switchSaveBody = z.object({
  switchName: z.enum(SWITCH_NAMES, { error: 'hint_paramInvalid' }),
  status: flag,
});

export const switchConfig = z.object({
  switchName: z.string(),
  status: z.number().int().describe('1 on, 0 off.'),
  remark: z.string(),
});
export type SwitchConfig = z.output<typeof switchConfig>;

// ---------------------------------------------------------------- otherValue

/** Each `otherValue` setting's bounds: most are display flags (0 or 1). */
export const OTHER_VALUE_RANGES: Record<keyof OtherValue, readonly [number, number]> = {
  default_trade_currency_id: [1, 1_000_000],
  default_transId: [0, 99],
  app_decimal_no: [0, 8],
  scoreTips: [0, 1],
  showMsgTime: [0, 1],
  app_order_time: [0, 1],
  app_fast_fee: [0, 1],
  app_order_change: [0, 1],
  app_logo_type: [0, 9],
  app_fastFree: [0, 1],
  app_withdrawAll: [0, 1],
  app_showFreeze: [0, 1],
  app_adress_num: [0, 100],
};

export const OTHER_VALUE_KEYS = Object.keys(OTHER_VALUE_DEFAULTS) as (keyof OtherValue)[];

const otherValueField = (key: keyof OtherValue) =>
  z.preprocess(emptyToUndefined, intField(...OTHER_VALUE_RANGES[key]).optional());

/** Some or all of the `otherValue` settings, each a whole number within its bounds. */
export const otherValueSaveBody = z
  .object(
    Object.fromEntries(OTHER_VALUE_KEYS.map((key) => [key, otherValueField(key)])) as Record<
      keyof OtherValue,
      ReturnType<typeof otherValueField>
    >,
  )
  .strict();
export type OtherValueSaveBody = Partial<OtherValue>;

export const otherValueConfig = z.object({
  values: z.object(
    Object.fromEntries(OTHER_VALUE_KEYS.map((key) => [key, z.number().int()])) as Record<
      keyof OtherValue,
      z.ZodNumber
    >,
  ),
  defaults: z
    .object(
      Object.fromEntries(OTHER_VALUE_KEYS.map((key) => [key, z.number().int()])) as Record<
        keyof OtherValue,
        z.ZodNumber
      >,
    )
    .describe('The values of a fresh installation (SEED-SPEC section 9).'),
});
export type OtherValueConfig = z.output<typeof otherValueConfig>;

// ---------------------------------------------------------------- layouts

/** The home and user-centre layouts (white-label), one or both to change. */
export const layoutSaveBody = siteLayout.partial().strict();
export type LayoutSaveBody = z.output<typeof layoutSaveBody>;

export const layoutConfig = z.object({
  values: siteLayout,
  defaults: siteLayout.describe('The layouts of a fresh installation (home-k, me-k).'),
});
export type LayoutConfig = z.output<typeof layoutConfig>;

// ---------------------------------------------------------------- API lines

export const apiLinesConfig = z.object({
  lines: z.array(apiLine),
  variable: z
    .literal('API_LINES')
    .describe('The environment variable they are set by (`Name|https://host,…`).'),
});
export type ApiLinesConfig = z.output<typeof apiLinesConfig>;

// ---------------------------------------------------------------- withdrawal channel preview

const termChange = z.object({
  term: z.enum(WITHDRAW_TERMS),
  oldValue: z.string(),
  newValue: z.string(),
});

export const withdrawChannelPreview = z.object({
  noticeHours: z.number().int(),
  atOnce: z
    .array(termChange)
    .describe('Terms the save changes at once (easier, or a new channel).'),
  later: z
    .array(termChange.extend({ effectiveTime: z.string() }))
    .describe('Terms that make withdrawing harder: announced now, in force at effectiveTime.'),
  withdrawn: z
    .array(termChange.extend({ effectiveTime: z.string() }))
    .describe('Announced changes this save takes back or replaces.'),
});
export type WithdrawChannelPreview = z.output<typeof withdrawChannelPreview>;
