/**
 * What the trading screens of every feature (fast trades, contracts, spot and coin-to-coin)
 * share: the trade currency and the account's balances (balances.ts), amounts at its scale, rates as percentages, tick
 * times, what may be typed in an amount, its share shortcuts and the request id of an order.
 */
import { useRef } from 'react';
import {
  SWITCH,
  SWITCH_OFF,
  formatAmount,
  isDecimalString,
  mul,
  normalize,
  scaleOf,
} from '@bourse/shared';
import { storedSwitches, type PlatformCurrency } from '../api/launch';
import { getItem, getOtherValue, STORAGE_KEY } from './storage';

// ------------------------------------------------------------------ trade currency

/** The trade currency (otherValue `default_trade_currency_id`, USDT). */
export function tradeCurrencyId(): number {
  return getOtherValue().default_trade_currency_id;
}

function platformCurrency(currencyId: number): PlatformCurrency | undefined {
  return getItem<PlatformCurrency[]>(STORAGE_KEY.platformCurrency)?.find(
    (currency) => currency.id === currencyId,
  );
}

/** Decimals of a platform currency, as launch stored them. */
export function currencyScale(currencyId: number): number | undefined {
  return platformCurrency(currencyId)?.scale;
}

/** What an unknown currency id shows as, everywhere (spec section 3). */
export const UNKNOWN_CURRENCY = '- -';

/** A platform currency's name; '- -' for an id the platform does not list. */
export function currencyName(currencyId: number | null | undefined): string {
  if (currencyId === null || currencyId === undefined) return UNKNOWN_CURRENCY;
  return platformCurrency(currencyId)?.currencyName ?? UNKNOWN_CURRENCY;
}

export { fetchBalance, fetchBalances, type Balance } from './balances';

// ------------------------------------------------------------------ texts

/** Whether amounts are grouped by thousands (the operator's switch, on unless turned off). */
export function thousandsGrouped(): boolean {
  return storedSwitches()[SWITCH.thousandsSeparator] !== SWITCH_OFF;
}

/** An amount at the app's decimals (more when it has them, up to `scale`), grouped by the switch. */
export function money(value: string | null | undefined, scale: number): string {
  const thousands = thousandsGrouped();
  if (!isDecimalString(value)) return formatAmount(value, { thousands });
  const wanted = Math.max(getOtherValue().app_decimal_no, scaleOf(normalize(value)));
  return formatAmount(value, { decimals: Math.min(wanted, scale), thousands });
}

/** A signed amount: "+12.50", "-10.00", "0.00". */
export function signedMoney(value: string | null | undefined, scale: number): string {
  const text = money(value, scale);
  return isDecimalString(value) && !value.startsWith('-') && !/^[0.]+$/.test(normalize(value))
    ? `+${text}`
    : text;
}

/** A rate as a percentage ("0.0005" is "0.05%"). */
export function percentText(rate: string): string {
  return `${normalize(mul(rate, '100'))}%`;
}

/**
 * A tick time as the evidence shows it, on the device's clock face: yyyy/MM/dd HH:mm:ss.SSS, or
 * HH:mm:ss.SSS without the day.
 */
export function tickTime(ms: number, { day = true }: { day?: boolean } = {}): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return '- -';
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  const clock = `${time}.${pad(date.getMilliseconds(), 3)}`;
  if (!day) return clock;
  return `${date.getFullYear()}/${pad(date.getMonth() + 1)}/${pad(date.getDate())} ${clock}`;
}

// ------------------------------------------------------------------ order forms

/** What the user may type in an amount: digits and one decimal point (a comma counts as one). */
export function cleanAmount(value: string): string {
  const text = value.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const point = text.indexOf('.');
  return point < 0 ? text : text.slice(0, point + 1) + text.slice(point + 1).replace(/\./g, '');
}

/** The shortcuts to 25 / 50 / 75 / 100 % of what is available. */
export const SHARES = ['0.25', '0.5', '0.75', '1'] as const;

/** A new request id: one per order, reused by a retry of the same order. */
export function newRequestId(prefix: string): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The request id of a form's order: the same for as long as the order is filled in the same way
 * (a retry after a refusal or a lost answer reuses it), a new one once it changes or was placed.
 */
export function useRequestId(prefix: string): {
  /** The id for the order the form holds, described by `key`. */
  idFor: (key: string) => string;
  /** The order was placed: the next one gets a new id. */
  reset: () => void;
} {
  const request = useRef<{ key: string; id: string } | undefined>(undefined);
  return {
    idFor(key) {
      if (request.current?.key !== key) request.current = { key, id: newRequestId(prefix) };
      return request.current.id;
    },
    reset() {
      request.current = undefined;
    },
  };
}
