/** How the console shows times and amounts, in its language. */
import { languageByKey } from '@bourse/shared';
import { currentLanguage } from '../i18n';

const formats = new Map<string, Intl.DateTimeFormat>();

/** A server time (ISO 8601) in the browser's time zone, to the second; '–' when absent. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const language = languageByKey(currentLanguage())?.bcp47 ?? 'en';
  let format = formats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
    });
    formats.set(language, format);
  }
  return format.format(new Date(iso));
}

/** An amount as the server sent it (a decimal string at the currency's scale) with its currency. */
export function formatAmount(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}
