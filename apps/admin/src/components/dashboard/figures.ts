/** How the dashboard writes its figures: decimal text grouped by thousands, lags in a unit. */
import { formatAmount, scaleOf, sum } from '@bourse/shared';
import type { TFunction } from 'i18next';

/** A decimal as the server sent it (its scale kept), thousands grouped. */
export function grouped(value: string): string {
  return formatAmount(value, { decimals: scaleOf(value) });
}

/** An amount with its currency, grouped. */
export function money(value: string, currency: string): string {
  return `${grouped(value)} ${currency}`;
}

/** The sum of decimal texts at the scale of the first (the server sends one scale per currency). */
export function total(values: readonly string[]): string {
  if (values.length === 0) return '0';
  return formatAmount(sum(values), { decimals: scaleOf(values[0]!), thousands: false });
}

/** How long ago the last tick came, in the largest unit that reads well. */
export function lagText(t: TFunction, ms: number): string {
  if (ms < 1000) return t('dashboard.lag.ms', { value: ms });
  const seconds = ms / 1000;
  if (seconds < 120) return t('dashboard.lag.seconds', { value: seconds.toFixed(1) });
  const minutes = seconds / 60;
  if (minutes < 120) return t('dashboard.lag.minutes', { value: Math.floor(minutes) });
  const hours = minutes / 60;
  if (hours < 48) return t('dashboard.lag.hours', { value: Math.floor(hours) });
  return t('dashboard.lag.days', { value: Math.floor(hours / 24) });
}
