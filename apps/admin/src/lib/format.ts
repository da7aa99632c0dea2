/** How the console shows times and amounts, in its language and the browser's time zone. */
import { languageByKey } from '@bourse/shared';
import { currentLanguage } from '../i18n';

type Part = 'full' | 'date' | 'time';
const OPTIONS: Record<Part, Intl.DateTimeFormatOptions> = {
  full: {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  },
  date: { year: 'numeric', month: '2-digit', day: '2-digit' },
  time: { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false },
};
const formats = new Map<string, Intl.DateTimeFormat>();

function format(iso: string, part: Part): string {
  const language = languageByKey(currentLanguage())?.bcp47 ?? 'en';
  const key = `${language} ${part}`;
  let formatter = formats.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language, OPTIONS[part]);
    formats.set(key, formatter);
  }
  return formatter.format(new Date(iso));
}

/** A server time (ISO 8601) to the second; '–' when absent. */
export function formatTime(iso: string | null | undefined): string {
  return iso ? format(iso, 'full') : '–';
}

export function formatDate(iso: string): string {
  return format(iso, 'date');
}

export function formatTimeOfDay(iso: string): string {
  return format(iso, 'time');
}

/** An amount as the server sent it (a decimal string at the currency's scale) with its currency. */
export function formatAmount(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}

/** An ISO time as a datetime-local input shows it (the browser's time zone). */
export function localTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value as an ISO time, or undefined when empty. */
export function isoTime(local: string): string | undefined {
  if (!local) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
