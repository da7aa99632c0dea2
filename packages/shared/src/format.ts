/**
 * Formatters of SEED-SPEC section 9: amounts, time-ago, dates, masking of bank cards and wallet
 * addresses, and message templates with `{0}`-style parameters.
 */
import { isDecimalString, toScale, type DecimalString, type Rounding } from './money';

export interface AmountFormat {
  /** Decimals shown (otherValue `app_decimal_no`, default 2). */
  decimals?: number;
  /** Group thousands with commas (the thousands-separator switch). */
  thousands?: boolean;
  rounding?: Rounding;
}

/**
 * "1234567.891" -> "1,234,567.89". Works on the decimal string, never on a JS number, so large
 * and precise values keep every digit. Anything that is not a decimal string shows as '- -'.
 */
export function formatAmount(
  value: DecimalString | null | undefined,
  format: AmountFormat = {},
): string {
  if (value === null || value === undefined || !isDecimalString(value)) return UNKNOWN_VALUE;
  const decimals = format.decimals ?? 2;
  const fixed = toScale(value, decimals, format.rounding ?? 'halfUp');
  if (format.thousands === false) return fixed;
  const negative = fixed.startsWith('-');
  const [integerPart = '0', fraction] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = integerPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}

/** What an unknown currency or missing value displays as (SEED-SPEC section 3). */
export const UNKNOWN_VALUE = '- -';

function toDate(value: Date | number | string): Date {
  return value instanceof Date ? value : new Date(value);
}

function datePartsIn(
  date: Date,
  timeZone?: string,
): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> {
  if (!timeZone) {
    const pad = (n: number) => String(n).padStart(2, '0');
    return {
      year: String(date.getFullYear()),
      month: pad(date.getMonth() + 1),
      day: pad(date.getDate()),
      hour: pad(date.getHours()),
      minute: pad(date.getMinutes()),
    };
  }
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
  };
}

/** `yyyy/MM/dd HH:mm` in local time, or in `timeZone` when given. */
export function formatDateTime(value: Date | number | string, timeZone?: string): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return UNKNOWN_VALUE;
  const p = datePartsIn(date, timeZone);
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}`;
}

export type TimeAgoKey =
  | 'time_justNow'
  | 'time_minutesAgo'
  | 'time_hoursAgo'
  | 'time_daysAgo'
  | 'time_monthsAgo'
  | 'time_yearsAgo';

export interface TimeAgo {
  key: TimeAgoKey;
  /** The `{0}` parameter of the message (absent for 'just now'). */
  count?: number;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/**
 * Time-ago as a translation key and count: under 300 s 'just now', then minutes, hours, days up
 * to 30 days, then months, then years. Times in the future count as 'just now'.
 */
export function timeAgo(then: Date | number | string, now: Date | number = Date.now()): TimeAgo {
  const seconds = Math.floor((toDate(now).getTime() - toDate(then).getTime()) / 1000);
  if (!(seconds >= 300)) return { key: 'time_justNow' };
  if (seconds < HOUR) return { key: 'time_minutesAgo', count: Math.floor(seconds / MINUTE) };
  if (seconds < DAY) return { key: 'time_hoursAgo', count: Math.floor(seconds / HOUR) };
  const days = Math.floor(seconds / DAY);
  if (days <= 30) return { key: 'time_daysAgo', count: days };
  if (days < 365) return { key: 'time_monthsAgo', count: Math.max(1, Math.floor(days / 30)) };
  return { key: 'time_yearsAgo', count: Math.floor(days / 365) };
}

/**
 * A message time as lists show it: time-ago within a day, `yyyy/MM/dd HH:mm` when older.
 * `translate` turns a key and its parameters into text.
 */
export function friendlyTime(
  then: Date | number | string,
  translate: (key: TimeAgoKey, params: unknown[]) => string,
  now: Date | number = Date.now(),
  timeZone?: string,
): string {
  const ageMs = toDate(now).getTime() - toDate(then).getTime();
  if (ageMs > DAY * 1000) return formatDateTime(then, timeZone);
  const ago = timeAgo(then, now);
  return translate(ago.key, ago.count === undefined ? [] : [ago.count]);
}

/**
 * Bank card masking (star-masking switch): numbers shorter than 9 keep 2 digits at each end,
 * longer ones keep 4; every hidden digit becomes a star. Too short to hide anything: shown whole.
 */
export function maskBankCard(cardNumber: string): string {
  const compact = cardNumber.replace(/\s+/g, '');
  const keep = compact.length < 9 ? 2 : 4;
  if (compact.length <= keep * 2) return compact;
  return compact.slice(0, keep) + '*'.repeat(compact.length - keep * 2) + compact.slice(-keep);
}

/** Wallet address masking: shorter than 8 shown whole, else the first 8 characters then stars. */
export function maskWalletAddress(address: string): string {
  if (address.length < 8) return address;
  return address.slice(0, 8) + '*'.repeat(address.length - 8);
}

/**
 * Fills `{0}`, `{1}` … in a translated message with its parameters (the envelope's `params`).
 * Unknown placeholders stay as they are, so a missing parameter is visible, not silent.
 */
export function formatMessage(template: string, params: readonly unknown[] = []): string {
  return template.replace(/\{(\d{1,2})\}/g, (whole, index: string) => {
    const value = params[Number(index)];
    return value === undefined || value === null ? whole : String(value);
  });
}

/**
 * Translates a message key with its parameters, as server and app both do: the template comes from
 * `lookup` (the key itself when unknown), and a parameter that names a field (`userAccount`) is
 * shown by its translated label (`field_userAccount`).
 */
export function translateMessage(
  lookup: (key: string) => string | undefined,
  key: string,
  params: readonly unknown[] = [],
): string {
  const shown = params.map((param) =>
    typeof param === 'string' ? (lookup(`field_${param}`) ?? param) : param,
  );
  return formatMessage(lookup(key) ?? key, shown);
}

/**
 * A figure (number, amount, percentage, code, address, range) set inside a text as one
 * left-to-right island (Unicode isolates LRI … PDI), so that in Arabic the sign stays before the
 * digits and a range reads low to high. For text placed by React, `dir="ltr"` does the same.
 */
export function isolateLtr(text: string): string {
  return `\u2066${text}\u2069`;
}

/** A figure, a code or order number, or a date and time (2026-11-29 00:00 UTC) of a message. */
const LEFT_TO_RIGHT =
  /^[-+]?[\d.,]+$|^[A-Z0-9]{6,}$|^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?( UTC|Z)?$/;

/**
 * A notification's parameters as its text shows them: figures, codes and dates kept left to
 * right (isolateLtr), so that in Arabic a date reads 2026-11-29 00:00 UTC rather than reordered
 * by the words around it; words stay as they are.
 */
export function notificationParams(params: readonly string[]): string[] {
  return params.map((param) => (LEFT_TO_RIGHT.test(param) ? isolateLtr(param) : param));
}
