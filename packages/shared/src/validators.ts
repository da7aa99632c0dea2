/**
 * Validators of SEED-SPEC section 5. Each returns a boolean, except `passwordProblems`, which
 * returns the translation keys of every rule a password breaks (empty when it is valid).
 * The server applies the same rules, so a request the app would refuse is refused there too.
 */

/** Chinese mobile number: 11 digits, 1 then 3–9. */
const CHINESE_MOBILE = /^1[3-9]\d{9}$/;
/** An 11-digit number with an optional area-code prefix: `+86 13812345678`, `86-13812345678`. */
const PREFIXED_ELEVEN_DIGITS = /^(?:\+?\d{1,4}[ -]?)?\d{11}$/;

/** Phone (spec): 11 digits starting with 1 then 3 to 9, or an 11-digit number with optional area-code prefix. */
export function isPhone(value: string): boolean {
  return CHINESE_MOBILE.test(value) || PREFIXED_ELEVEN_DIGITS.test(value);
}

/**
 * A national mobile number for an international area code: 4 to 14 digits (E.164 allows at most
 * 15 digits including the country code). Used for area codes other than 86, where the spec's
 * 11-digit rule does not apply (see docs/adr/0003-validation-beyond-the-spec.md).
 */
export function isMobile(value: string): boolean {
  return /^\d{4,14}$/.test(value);
}

/** An international dialling code: `+1`, `86`, `+852`. */
export function isAreaCode(value: string): boolean {
  return /^\+?[1-9]\d{0,3}$/.test(value);
}

export function normalizeAreaCode(value: string): string {
  return value.startsWith('+') ? value.slice(1) : value;
}

/** Phone rule for a registration or login with an area code. */
export function isPhoneForAreaCode(areaCode: string, phone: string): boolean {
  return normalizeAreaCode(areaCode) === '86' ? CHINESE_MOBILE.test(phone) : isMobile(phone);
}

export const PASSWORD_RULES = {
  minLength: 8,
  maxLength: 32,
} as const;

/** Translation keys of the spec's three password messages ('最少8个字符;', '必须包含字母;', '只能使用字母和数字;'). */
export const PASSWORD_PROBLEM = {
  minLength: 'pwd_minLength',
  needLetter: 'pwd_needLetter',
  lettersAndDigitsOnly: 'pwd_lettersDigitsOnly',
  maxLength: 'pwd_maxLength',
} as const;
export type PasswordProblem = (typeof PASSWORD_PROBLEM)[keyof typeof PASSWORD_PROBLEM];

/** Every password rule the value breaks, in the spec's order. */
export function passwordProblems(value: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (value.length < PASSWORD_RULES.minLength) problems.push(PASSWORD_PROBLEM.minLength);
  if (!/[A-Za-z]/.test(value)) problems.push(PASSWORD_PROBLEM.needLetter);
  if (!/^[A-Za-z0-9]*$/.test(value)) problems.push(PASSWORD_PROBLEM.lettersAndDigitsOnly);
  if (value.length > PASSWORD_RULES.maxLength) problems.push(PASSWORD_PROBLEM.maxLength);
  return problems;
}

export function isPassword(value: string): boolean {
  return passwordProblems(value).length === 0;
}

/** Withdrawal password: six digits, entered on a code pad. */
export function isWithdrawalPassword(value: string): boolean {
  return /^\d{6}$/.test(value);
}

/** ID card (spec): 15 digits, 18 digits, or 17 digits plus a digit or X. */
export function isIdCard(value: string): boolean {
  return /^(?:\d{15}|\d{17}[\dXx])$/.test(value);
}

/**
 * A driving licence or passport number (identity verification): 5 to 20 letters and digits, no
 * spaces or signs. Identity cards follow `isIdCard`.
 */
export function isDocumentNumber(value: string): boolean {
  return /^[A-Za-z0-9]{5,20}$/.test(value);
}

/** Price (spec): a positive number with at most 2 decimals, or 0 with up to 2 decimals. */
export function isPrice(value: string): boolean {
  return /^(?:[1-9]\d*|0)(?:\.\d{1,2})?$/.test(value);
}

/**
 * Email. The spec's local part is "letters, digits or Chinese characters"; we also accept the
 * separators real addresses use inside the local part (. _ % + -), never first or last, because
 * refusing `first.last@example.com` would lock out many users (ADR 0003). The domain needs a dot.
 */
const EMAIL =
  /^[A-Za-z0-9\u4e00-\u9fa5](?:[A-Za-z0-9\u4e00-\u9fa5._%+-]{0,62}[A-Za-z0-9\u4e00-\u9fa5])?@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value) && !value.includes('..');
}

/** A verification code: exactly `length` digits. */
export function isVerificationCode(value: string, length = 6): boolean {
  return value.length === length && /^\d+$/.test(value);
}

// ---- Generic validators (spec section 5: which fields use them is not shown) ----

/** http(s) URL with a host. */
export function isUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A calendar date `yyyy-MM-dd` or `yyyy/MM/dd` that exists. */
export function isDate(value: string): boolean {
  const match = /^(\d{4})([-/])(\d{2})\2(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[3]), Number(match[4])];
  if (month < 1 || month > 12 || day < 1) return false;
  const lastDay = new Date(Date.UTC(2000, month, 0));
  lastDay.setUTCFullYear(year, month, 0);
  const daysInMonth = lastDay.getUTCDate();
  return day <= daysInMonth;
}

/** A decimal number, optionally signed: `-1`, `3.14`, `0.5`. */
export function isNumber(value: string): boolean {
  return /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/.test(value);
}

/** Only digits, at least one. */
export function isDigits(value: string): boolean {
  return /^\d+$/.test(value);
}

/** A mainland Chinese licence plate, including new-energy plates (8 characters). */
export function isCarNumber(value: string): boolean {
  const province = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼使领';
  const ordinary = new RegExp(
    `^[${province}][A-HJ-NP-Z][A-HJ-NP-Z0-9]{4}[A-HJ-NP-Z0-9挂学警港澳]$`,
  );
  const newEnergy = new RegExp(`^[${province}][A-HJ-NP-Z](?:[DF][A-HJ-NP-Z0-9]\\d{4}|\\d{5}[DF])$`);
  return ordinary.test(value) || newEnergy.test(value);
}

/** An amount of money with at most 2 decimals, not negative. */
export function isAmount(value: string): boolean {
  return /^(?:0|[1-9]\d{0,17})(?:\.\d{1,2})?$/.test(value);
}

/** Only Latin letters, at least one. */
export function isLetters(value: string): boolean {
  return /^[A-Za-z]+$/.test(value);
}

/** A landline: optional 3–4 digit area code with a dash, then 7–8 digits, optional extension. */
export function isLandline(value: string): boolean {
  return /^(?:0\d{2,3}-)?[1-9]\d{6,7}(?:-\d{1,6})?$/.test(value);
}

/** A string that parses as a JSON object or array. */
export function isJsonString(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';

/**
 * Wallet address formats per network (`walletAddressType` of a platform currency): ERC20 and
 * BEP20 `0x` + 40 hex digits; TRC20 base58 `T` + 33; BTC legacy (`1`/`3`, base58, 26–35
 * characters) or bech32 (`bc1`, lower case); SOL base58 of 32–44 characters. The format is
 * checked, not the checksum. An unknown network accepts no address.
 */
const ADDRESS_FORMATS: Record<string, RegExp> = {
  ERC20: /^0x[0-9a-fA-F]{40}$/,
  BEP20: /^0x[0-9a-fA-F]{40}$/,
  TRC20: new RegExp(`^T${BASE58}{33}$`),
  BTC: new RegExp(`^(?:[13]${BASE58}{25,34}|bc1[ac-hj-np-z02-9]{11,71})$`),
  SOL: new RegExp(`^${BASE58}{32,44}$`),
};

export const WALLET_NETWORKS = Object.keys(ADDRESS_FORMATS);

export function isWalletAddress(network: string, address: string): boolean {
  return ADDRESS_FORMATS[network]?.test(address) ?? false;
}

/** The networks of a currency's `walletAddressType` ("ERC20/TRC20"). */
export function networksOf(walletAddressType: string): string[] {
  return walletAddressType
    .split('/')
    .map((network) => network.trim())
    .filter((network) => network.length > 0);
}
