/**
 * Constants fixed by the customer's specification (SEED-SPEC sections 3 and 9) and the product
 * brief. Anything here is part of the wire contract between the app and the server.
 */

/**
 * The 19 interface languages: the spec's key, its numeric `LanguageId` (sent as a header) and the
 * BCP-47 tag we use for Intl formatting, `lang` attributes and right-to-left layout.
 *
 * Keys whose meaning is not obvious (see docs/glossary.md):
 * - blr: Belarusian (be); ida: Hindi (hi); idn: Indonesian (id); jp: Japanese (ja);
 * - my: Malay (ms), the meaning these platforms give it (not Burmese);
 * - rus: Russian (ru); sa: Arabic as used in Saudi Arabia (ar-SA); ar: Arabic (ar);
 * - tc: Traditional Chinese (zh-Hant); zh: Simplified Chinese (zh-Hans).
 */
export const LANGUAGES = [
  { key: 'zh', id: 1, bcp47: 'zh-Hans', name: '简体中文', rtl: false },
  { key: 'en', id: 2, bcp47: 'en', name: 'English', rtl: false },
  { key: 'tc', id: 3, bcp47: 'zh-Hant', name: '繁體中文', rtl: false },
  { key: 'de', id: 4, bcp47: 'de', name: 'Deutsch', rtl: false },
  { key: 'es', id: 5, bcp47: 'es', name: 'Español', rtl: false },
  { key: 'fr', id: 6, bcp47: 'fr', name: 'Français', rtl: false },
  { key: 'idn', id: 7, bcp47: 'id', name: 'Bahasa Indonesia', rtl: false },
  { key: 'jp', id: 8, bcp47: 'ja', name: '日本語', rtl: false },
  { key: 'ko', id: 9, bcp47: 'ko', name: '한국어', rtl: false },
  { key: 'my', id: 10, bcp47: 'ms', name: 'Bahasa Melayu', rtl: false },
  { key: 'th', id: 11, bcp47: 'th', name: 'ไทย', rtl: false },
  { key: 'vi', id: 12, bcp47: 'vi', name: 'Tiếng Việt', rtl: false },
  { key: 'pt', id: 13, bcp47: 'pt', name: 'Português', rtl: false },
  { key: 'rus', id: 14, bcp47: 'ru', name: 'Русский', rtl: false },
  { key: 'blr', id: 15, bcp47: 'be', name: 'Беларуская', rtl: false },
  { key: 'ida', id: 16, bcp47: 'hi', name: 'हिन्दी', rtl: false },
  { key: 'sa', id: 17, bcp47: 'ar-SA', name: 'العربية (السعودية)', rtl: true },
  { key: 'ar', id: 18, bcp47: 'ar', name: 'العربية', rtl: true },
  { key: 'it', id: 19, bcp47: 'it', name: 'Italiano', rtl: false },
] as const;

export type LanguageKey = (typeof LANGUAGES)[number]['key'];
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_KEYS = LANGUAGES.map((language) => language.key) as LanguageKey[];
export const DEFAULT_LANGUAGE: LanguageKey = 'en';

const languagesByKey = new Map<string, Language>(LANGUAGES.map((l) => [l.key, l]));
const languagesById = new Map<number, Language>(LANGUAGES.map((l) => [l.id, l]));

export function isLanguageKey(value: unknown): value is LanguageKey {
  return typeof value === 'string' && languagesByKey.has(value);
}

export function languageByKey(key: string): Language | undefined {
  return languagesByKey.get(key);
}

export function languageById(id: number): Language | undefined {
  return languagesById.get(id);
}

/**
 * Picks the language of a request: the numeric `LanguageId` header wins, then the spec key or a
 * BCP-47 tag in `Accept-Language` (first acceptable entry), then English.
 */
export function resolveLanguage(
  languageId?: string | null,
  acceptLanguage?: string | null,
): LanguageKey {
  if (languageId && /^\d{1,2}$/.test(languageId.trim())) {
    const byId = languageById(Number(languageId.trim()));
    if (byId) return byId.key;
  }
  if (acceptLanguage) {
    // Entries by preference (q, then order); q=0 means "not acceptable".
    const entries = acceptLanguage
      .split(',')
      .slice(0, 20)
      .map((part, index) => {
        const [tag = '', ...parameters] = part.split(';').map((piece) => piece.trim());
        const q = parameters.find((parameter) => parameter.startsWith('q='));
        const weight = q === undefined ? 1 : Number(q.slice(2));
        return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
      })
      .filter((entry) => entry.tag && entry.weight > 0)
      .sort((a, b) => b.weight - a.weight || a.index - b.index);
    for (const { tag } of entries) {
      if (languagesByKey.has(tag)) return tag as LanguageKey;
      const fromTag = languageFromBcp47(tag);
      if (fromTag) return fromTag;
    }
  }
  return DEFAULT_LANGUAGE;
}

function languageFromBcp47(tag: string): LanguageKey | undefined {
  const lower = tag.toLowerCase();
  if (lower === 'ar-sa') return 'sa';
  if (lower.startsWith('zh')) {
    return /hant|tw|hk|mo/.test(lower) ? 'tc' : 'zh';
  }
  const primary = lower.split('-')[0];
  const match = LANGUAGES.find((l) => l.bcp47.toLowerCase() === primary);
  return match?.key;
}

/** Product types (SEED-SPEC section 3). */
export const PRODUCT_TYPE = {
  usStock: 1,
  crypto: 2,
  futures: 3,
  forex: 4,
} as const;
export type ProductType = (typeof PRODUCT_TYPE)[keyof typeof PRODUCT_TYPE];
export const PRODUCT_TYPES = Object.values(PRODUCT_TYPE) as ProductType[];

/** Position types of the fee table (SEED-SPEC section 9): 极速 0, 合约 1, 现货 2, 币币 3. */
export const POSITION_TYPE = {
  fast: 0,
  contract: 1,
  spot: 2,
  coinToCoin: 3,
} as const;
export type PositionType = (typeof POSITION_TYPE)[keyof typeof POSITION_TYPE];
export const POSITION_TYPES = Object.values(POSITION_TYPE) as PositionType[];

/** Directions (SEED-SPEC section 9): 买入 1 (buy, long, up), 卖出 2 (sell, short, down). */
export const DIRECTION = {
  buy: 1,
  sell: 2,
} as const;
export type Direction = (typeof DIRECTION)[keyof typeof DIRECTION];
export const DIRECTIONS = Object.values(DIRECTION) as Direction[];

/** Duration units in seconds (SEED-SPEC section 9). */
export const DURATION_UNIT_SECONDS = {
  s: 1,
  M: 60,
  H: 3600,
  D: 86400,
} as const;
export type DurationUnit = keyof typeof DURATION_UNIT_SECONDS;

export function durationToSeconds(amount: number, unit: DurationUnit): number {
  return amount * DURATION_UNIT_SECONDS[unit];
}

/** Account types of a session (PRODUCT section 2). */
export const ACCOUNT_TYPE = {
  live: 0,
  demo: 2,
} as const;
export type AccountType = (typeof ACCOUNT_TYPE)[keyof typeof ACCOUNT_TYPE];

/** Identity verification state of a user (`authStatus`). */
export const AUTH_STATUS = {
  none: 0,
  underReview: 1,
  verified: 2,
  rejected: 3,
} as const;
export type AuthStatus = (typeof AUTH_STATUS)[keyof typeof AUTH_STATUS];

/** The levels of identity verification: 0 basic (name and document), 1 advanced (its images). */
export const AUTH_LEVEL = {
  basic: 0,
  advanced: 1,
} as const;
export type AuthLevel = (typeof AUTH_LEVEL)[keyof typeof AUTH_LEVEL];

/** A verification request's status (`userAuthRecord`); -1 when the user has none of that level. */
export const AUTH_RECORD_STATUS = {
  none: -1,
  reviewing: 0,
  approved: 1,
  rejected: 2,
} as const;

/** The document of a verification (`idType`). */
export const ID_TYPE = {
  idCard: 0,
  drivingLicence: 1,
  passport: 2,
} as const;

/** The features that may require a verified level (console: identity requirements). */
export const IDENTITY_FEATURES = ['withdraw', 'loan', 'newShares', 'copyLeader'] as const;
export type IdentityFeature = (typeof IDENTITY_FEATURES)[number];

/** Registration channel (`regType`). */
export const REG_TYPE = {
  phone: 0,
  email: 1,
} as const;
export type RegType = (typeof REG_TYPE)[keyof typeof REG_TYPE];

/** Platform currency kinds (`currencyType` filter of platformCurrency/list). */
export const CURRENCY_TYPE = {
  fiat: 1,
  crypto: 2,
} as const;
export type CurrencyType = (typeof CURRENCY_TYPE)[keyof typeof CURRENCY_TYPE];

/** USDT: the default trade currency and the currency of the demo grant (PRODUCT section 5). */
export const USDT_CURRENCY_ID = 3;
export const DEMO_GRANT_AMOUNT = '100000';

/** `otherValue` defaults (SEED-SPEC section 9). */
export const OTHER_VALUE_DEFAULTS = {
  default_trade_currency_id: 3,
  default_transId: 5,
  app_decimal_no: 2,
  scoreTips: 1,
  showMsgTime: 1,
  app_order_time: 1,
  app_fast_fee: 1,
  app_order_change: 1,
  app_logo_type: 1,
  app_fastFree: 1,
  app_withdrawAll: 1,
  app_showFreeze: 1,
  app_adress_num: 0,
} as const;
export type OtherValue = { -readonly [K in keyof typeof OTHER_VALUE_DEFAULTS]: number };

/**
 * Switch names of `switchSet/list`. `status` 1 means on, 0 off. The first three are the spec's
 * display switches (SEED-SPEC section 9); the others are deployment switches of the brief.
 */
export const SWITCH = {
  thousandsSeparator: 'thousandsSeparator',
  maskBankCard: 'maskBankCard',
  maskWalletAddress: 'maskWalletAddress',
  registerByPhone: 'registerByPhone',
  registerByEmail: 'registerByEmail',
  inviteCodeRequired: 'inviteCodeRequired',
  fastTrade: 'fastTrade',
  demoAccount: 'demoAccount',
} as const;
export type SwitchName = (typeof SWITCH)[keyof typeof SWITCH];
export const SWITCH_ON = 1;
export const SWITCH_OFF = 0;

/** Envelope codes (PRODUCT section 3). */
export const RESPONSE_CODE = {
  ok: 200,
  duplicateInFlight: 209,
  unauthorized: 401,
  forbidden: 403,
  rejected: 500,
} as const;
export type ResponseCode = (typeof RESPONSE_CODE)[keyof typeof RESPONSE_CODE];

/** The message that marks an idempotent "nothing to do" outcome the app treats as success. */
export const NOTHING_TO_DO_MSG = 'hint_48';

/** UI constants of the spec (SEED-SPEC sections 1 and 9). */
export const UI = {
  tabBarBackground: '#1B1B23',
  tabSelectedColor: '#F1A802',
  primaryColor: '#2979ff',
  toastZIndex: 10090,
  toastDurationMs: 2000,
  helperToastDurationMs: 1500,
  imageToastDurationMs: 700,
  pageTransitionMs: 300,
  debounceMs: 300,
  requestTimeoutMs: 60_000,
  pageLoadingDelayMs: 200,
  verificationCodeCountdownSeconds: 60,
  verificationCodeLength: 6,
  textAreaMaxLength: 140,
  uploadMaxCount: 52,
  datePickerRangeYears: 10,
  homeRecommendPageSize: 50,
  textListPageSize: 30,
} as const;

/** Paging bounds for every list call. */
export const PAGE = {
  defaultSize: 10,
  maxSize: 100,
  maxNumber: 100_000,
} as const;

/** Verification codes (PRODUCT section 8 and the server-core issue). */
export const VERIFICATION_CODE = {
  length: 6,
  resendSeconds: 60,
  lifetimeSeconds: 600,
  maxAttempts: 5,
} as const;

/** Image rules (SEED-SPEC section 5) as data, used by the compressor and by upload checks. */
export const IMAGE_RULES = {
  targetWidth: 800,
  outputMimeType: 'image/jpeg',
  defaultQuality: 0.7,
  maxLongSide: 3264,
  maxShortSide: 2448,
  scaleStep: 0.8,
  acceptedMimeTypes: ['image/jpeg', 'image/png'],
  maxUploadBytes: 2 * 1024 * 1024,
} as const;

/**
 * The home banners a fresh installation shows (site configuration may replace them): their texts
 * are translation keys, and `route` names the app screen each opens.
 */
export const DEFAULT_BANNERS = [
  { id: 'honest', titleKey: 'banner_honestTitle', textKey: 'banner_honestText', route: 'privacy' },
  { id: 'demo', titleKey: 'banner_demoTitle', textKey: 'banner_demoText', route: 'me' },
  {
    id: 'markets',
    titleKey: 'banner_marketsTitle',
    textKey: 'banner_marketsText',
    route: 'quotes',
  },
] as const;

/** Deposit channels: bank transfer to the platform's account, crypto deposit address, online page. */
export const RECHARGE_CHANNEL_TYPE = { bank: 1, crypto: 2, online: 3 } as const;
/** Withdrawal channels: to a bound bank card or to a bound wallet address. */
export const WITHDRAW_CHANNEL_TYPE = { bank: 1, crypto: 2 } as const;

/** An account's status: active, or disabled by an operator (its sessions end at once). */
export const USER_STATUS = { active: 0, disabled: 1 } as const;

export const RECHARGE_STATUS = { reviewing: 0, approved: 1, rejected: 2 } as const;
export const WITHDRAW_STATUS = { reviewing: 0, paid: 1, rejected: 2, cancelled: 3 } as const;

/** The payment proof of a deposit (SEED-SPEC section 5 compresses it to width 800, JPEG 0.7). */
export const PAYMENT_PROOF = {
  /** Largest accepted image, in bytes after base64 decoding. */
  maxBytes: 2 * 1024 * 1024,
  /** Largest accepted width or height, in pixels (the spec's long-side limit). */
  maxSide: 3264,
  mimeTypes: ['image/jpeg', 'image/png'],
  /** What the app compresses to before sending. */
  compressWidth: 800,
  compressQuality: 0.7,
  longSide: 3264,
  shortSide: 2448,
  scaleStep: 0.8,
} as const;

/**
 * A user's avatar (issue 19): cropped square in the app, then decoded and re-encoded by the server
 * as a square JPEG of at most `side` pixels.
 */
export const AVATAR = {
  /** Largest accepted upload, in bytes after base64 decoding. */
  maxBytes: 2 * 1024 * 1024,
  /** Largest accepted sides of the upload, in pixels (as payment proofs). */
  longSide: 3264,
  shortSide: 2448,
  /** The stored avatar's side at most, in pixels. */
  side: 512,
  mimeTypes: ['image/jpeg', 'image/png'],
} as const;

/** A demo account is reset to its starting funds at most once in this many hours. */
export const DEMO_RESET_INTERVAL_HOURS = 24;

/** With the whitelist on, a card or address may be withdrawn to this long after it is saved. */
export const WHITELIST_DELAY_HOURS = 24;

/** How long an exchange quote can be confirmed. */
export const EXCHANGE_QUOTE_TTL_MS = 15_000;

/** Bound cards and addresses per user. */
export const MAX_BANK_CARDS = 10;
export const MAX_WALLET_ADDRESSES = 20;

/**
 * Categories of balance changes in the records (accountRecord), each covering ledger entry
 * types: `recharge`, `withdraw` (hold, payment, release), `exchange`, `demo` (virtual funds),
 * `trade` (orders and settlements), `reward` (referral commissions, task and deposit rewards),
 * `earn`, `loan`, `newShares` (subscriptions frozen, changed, cancelled, allocated, refunded),
 * `copyTrade` (profit shares paid to and received from lead traders), `other`.
 */
export const RECORD_TYPES = [
  'recharge',
  'withdraw',
  'exchange',
  'demo',
  'trade',
  'reward',
  'earn',
  'loan',
  'newShares',
  'copyTrade',
  'other',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** Operator roles (PRODUCT section 2): each gates a part of the operator API. */
export const OPERATOR_ROLES = ['admin', 'finance', 'support', 'content'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * The notifications' types: each is the key `notify_<type>` of its text in the locale files, with
 * its parameters as `{0}`, `{1}`… Here rather than beside their schemas, so that the app's first
 * screen checks a pushed notification without loading zod.
 */
export const NOTIFICATION_TYPES = [
  'depositApproved',
  'depositRejected',
  'withdrawPaid',
  'withdrawRejected',
  'contractOpened',
  'contractClosed',
  'contractTakeProfit',
  'contractStopLoss',
  'contractLiquidated',
  'limitOrderFilled',
  'fastTradeSettled',
  'identityApproved',
  'identityRejected',
  'newSignIn',
  'passwordChanged',
  'twoFactorChanged',
  'apiKeyCreated',
  'referralFrozen',
  'referralUnfrozen',
  'rewardPaid',
  'depositRewardPaid',
  'earnOrderStarted',
  'earnOrderCompleted',
  'earnOrderRedeemed',
  'earnOrderRejected',
  'loanApproved',
  'loanRejected',
  'loanRepayment',
  'loanRepaid',
  'loanDueSoon',
  'loanOverdue',
  'newShareAllocated',
  'newShareRefunded',
  'newShareCancelled',
  'newShareListed',
  'newShareCoinsListed',
  'copyFailed',
  'copyTraderSuspended',
  'copyTraderResumed',
  'copyApplicationApproved',
  'copyApplicationRejected',
  'copySharePaid',
  'copyShareReceived',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
