/** Schemas of the launch calls (SEED-SPEC section 7). */
import { z } from 'zod';
import {
  CURRENCY_TYPE,
  LANGUAGE_KEYS,
  OTHER_VALUE_DEFAULTS,
  PAGE,
  type OtherValue,
} from '../constants';
import { codeField, optionalInt, pageQuery, safeString } from './common';

export const textLangListQuery = pageQuery;

export const langMgrQuery = z.object({
  lang: z.preprocess(
    (value) => (value === '' || value === undefined ? 'en' : value),
    z.enum(LANGUAGE_KEYS as [string, ...string[]], { error: 'hint_langInvalid' }),
  ),
});
export type LangMgrQuery = z.infer<typeof langMgrQuery>;

export const appConfigQuery = z.object({
  pagePath: z.preprocess(
    (value) => (value === '' ? undefined : value),
    safeString(120)
      .regex(/^\/?[A-Za-z0-9_\-/]+$/, { error: 'hint_paramInvalid' })
      .transform((value) => (value.startsWith('/') ? value.slice(1) : value))
      .optional(),
  ),
});
export type AppConfigQuery = z.infer<typeof appConfigQuery>;

export const platformCurrencyQuery = z.object({
  currencyType: z.preprocess(
    (value) => (value === '' ? undefined : value),
    codeField([CURRENCY_TYPE.fiat, CURRENCY_TYPE.crypto]).optional(),
  ),
});
export type PlatformCurrencyQuery = z.infer<typeof platformCurrencyQuery>;

export const bankPropertyConfigQuery = z.object({
  configType: optionalInt(0, 9),
});
export type BankPropertyConfigQuery = z.infer<typeof bankPropertyConfigQuery>;

export const userBalanceQuery = z.object({
  currencyId: optionalInt(1, 1_000_000),
});
export type UserBalanceQuery = z.infer<typeof userBalanceQuery>;

/** Area codes come as one page by default: the picker shows them all. */
export const phoneAreaCodeQuery = z.object({
  pageNum: pageQuery.shape.pageNum,
  pageSize: z.preprocess(
    (value) => (value === '' || value === undefined ? PAGE.maxSize : value),
    pageQuery.shape.pageSize,
  ),
});

// ---------------------------------------------------------------- answers

/** A home banner, its texts in the request's language. */
export const siteBanner = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  route: z.string().describe("The app's route the banner opens."),
  image: z.string().optional().describe("The banner's picture (a URL on the API line), if any."),
});
export type SiteBanner = z.output<typeof siteBanner>;

/** An API line the operator offers beside the server that served the app. */
export const apiLine = z.object({
  name: z.string(),
  url: z.string().describe('Base address without a trailing slash.'),
});
export type ApiLine = z.output<typeof apiLine>;

/** The numeric display and trading settings of the spec's `otherValue` (type OtherValue). */
export const otherValue = z.object(
  Object.fromEntries(Object.keys(OTHER_VALUE_DEFAULTS).map((key) => [key, z.number()])) as Record<
    keyof OtherValue,
    z.ZodNumber
  >,
);

/**
 * The white-label layouts of the app's home tab and user centre (SEED-SPEC section 2: home-k and
 * me-k are the tab bar's, the others are variants of the same blocks). Each is named by the last
 * segment of its route; the console's setting picks one of each and the tab bar follows it.
 */
export const HOME_LAYOUTS = ['home-k', 'home', 'home-j', 'home-g', 'home-h'] as const;
export const ME_LAYOUTS = ['me-k', 'me', 'me-f', 'me-j', 'me-g', 'me-h', 'me-e'] as const;
export type HomeLayout = (typeof HOME_LAYOUTS)[number];
export type MeLayout = (typeof ME_LAYOUTS)[number];
export const DEFAULT_LAYOUT: SiteLayout = { home: 'home-k', me: 'me-k' };

/** The layouts the app's tab bar and "me" entries open. */
export const siteLayout = z.object({
  home: z.enum(HOME_LAYOUTS, { error: 'hint_paramInvalid' }),
  me: z.enum(ME_LAYOUTS, { error: 'hint_paramInvalid' }),
});
export type SiteLayout = z.output<typeof siteLayout>;

/** siteInfo/getSiteInfo. */
export const siteInfo = z.object({
  siteName: z.string(),
  siteLogo: z.string(),
  customerServiceUrl: z.string(),
  version: z.string(),
  banners: z.array(siteBanner),
  slogan: z.string(),
  defaultLang: z.string(),
  apiLines: z.array(apiLine),
  otherValue,
  register: z
    .object({
      phone: z.boolean(),
      email: z.boolean(),
      inviteCodeRequired: z.boolean(),
      codeRequired: z
        .object({ phone: z.boolean(), email: z.boolean() })
        .describe('Whether a verification code is needed to register through each channel.'),
    })
    .describe('Which registration channels are open, and what they require.'),
  demoAccount: z.boolean().describe('Whether the demo account is offered.'),
  layout: siteLayout.describe('The home and user-centre layouts the tab bar opens.'),
  marketFeed: z
    .enum(['simulated', 'binance', 'off'])
    .describe('Where prices come from: `simulated` prices are labelled on every quote screen.'),
});
export type SiteInfo = z.output<typeof siteInfo>;

/** A tip text of textLang/list, in the request's language. */
export const tip = z.object({
  id: z.number().int(),
  remark: z.string().describe('The key the app finds the tip by.'),
  contentLang: z.string(),
  contentVisibleFlag: z.number().int().describe('1 shown, 0 hidden.'),
});
export type Tip = z.output<typeof tip>;

/** A fee rate of orderFeeSetting/list. */
export const feeSetting = z.object({
  id: z.number().int(),
  remark: z.string().describe('The key of the fee: productType_PositionType_exType.'),
  feeRate: z.string().describe('A fraction of the amount, as a decimal string.'),
  productType: z.number().int(),
  PositionType: z.number().int(),
  exType: z.number().int(),
});
export type FeeSetting = z.output<typeof feeSetting>;

/** langMgr/list: the messages of a language, by key, the operator's overrides merged in. */
export const languagePack = z.record(z.string(), z.string());
export type LanguagePack = z.output<typeof languagePack>;

/** A switch of switchSet/list. */
export const switchSetting = z.object({
  switchName: z.string(),
  status: z.number().int().describe('1 on, 0 off.'),
});
export type SwitchSetting = z.output<typeof switchSetting>;

/** A pop-up of popUp/list, in the request's language. */
export const popUp = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  version: z.number().int().describe('A device shows each version once.'),
  createTime: z.string(),
});
export type PopUp = z.output<typeof popUp>;

/** A module of a page (appConfig/list). */
export const pageConfigItem = z.object({
  pagePath: z.string(),
  module: z.string(),
  isVisible: z.number().int().describe('1 shown, 0 hidden.'),
  desc: z.string(),
  sort: z.number().int(),
});
export type PageConfigItem = z.output<typeof pageConfigItem>;

/** A currency of platformCurrency/list. */
export const platformCurrency = z.object({
  id: z.number().int(),
  currencyName: z.string(),
  currencyType: z.number().int().describe('1 fiat, 2 crypto.'),
  walletAddressType: z
    .string()
    .describe(
      'Networks a wallet address may use, slash-separated ("ERC20/TRC20"); empty for fiat.',
    ),
  scale: z.number().int().describe('Decimals of amounts in this currency.'),
  icon: z.string(),
  sort: z.number().int(),
});
export type PlatformCurrency = z.output<typeof platformCurrency>;

/** A field of the bank-card form (bankPropertyConfig/list, configType 0). */
export const bankField = z.object({
  id: z.number().int(),
  configType: z.number().int(),
  propertyName: z.string(),
  labelKey: z.string().describe('Translation key of the label.'),
  label: z
    .string()
    .describe("The server's rendering of the label, for an app with no text for the key."),
  isRequired: z.number().int().describe('1 required, 0 optional.'),
  inputType: z.string().describe('`digits` or `text`.'),
  maxLength: z.number().int(),
  sort: z.number().int(),
});
export type BankField = z.output<typeof bankField>;
