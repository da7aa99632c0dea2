/**
 * How the wallet screens write amounts and rates, grouped by thousands unless the operator's
 * switch turns it off.
 */
import { formatAmount, isDecimalString, normalize, scaleOf } from '@bourse/shared';
import { getOtherValue } from '../../lib/storage';
import { thousandsGrouped } from '../../lib/trade';

/** An amount in a currency's own decimals. */
export function money(value: string | null | undefined, scale: number): string {
  return formatAmount(value, { decimals: scale, thousands: thousandsGrouped() });
}

/** An amount as the server sent it (at its currency's scale), with at least the app's decimals. */
export function moneyAsSent(value: string): string {
  return money(
    value,
    Math.max(isDecimalString(value) ? scaleOf(value) : 0, getOtherValue().app_decimal_no),
  );
}

/** A rate with 8 significant digits after its leading zeros: 0.000008929849513283 -> 0.0000089298495. */
export function shortRate(rate: string): string {
  if (!isDecimalString(rate)) return '- -';
  const value = normalize(rate);
  const [integer = '0', fraction = ''] = value.replace('-', '').split('.');
  const zeros = integer === '0' ? (/^0*/.exec(fraction)?.[0].length ?? 0) : 0;
  return formatAmount(value, {
    decimals: Math.min(fraction.length, zeros + 8),
    thousands: thousandsGrouped(),
  })
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}
