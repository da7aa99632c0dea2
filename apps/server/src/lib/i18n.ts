/**
 * Server-side translations: the bundled locale files of @bourse/shared, loaded once. Server texts
 * (emails, seeded content, the readable `text` of error envelopes) come from here; the app
 * translates `msg` keys itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_KEYS,
  translateMessage,
  type LanguageKey,
} from '@bourse/shared';

export type Messages = Record<string, string>;

const require = createRequire(import.meta.url);
const LOCALES_DIR = path.dirname(require.resolve('@bourse/shared/locales/en.json'));

function loadLocales(): Record<LanguageKey, Messages> {
  const locales = {} as Record<LanguageKey, Messages>;
  for (const key of LANGUAGE_KEYS) {
    try {
      locales[key] = JSON.parse(
        readFileSync(path.join(LOCALES_DIR, `${key}.json`), 'utf8'),
      ) as Messages;
    } catch {
      locales[key] = {};
    }
  }
  return locales;
}

const bundled = loadLocales();

/** The bundled messages of a language, with English filling any gap. */
export function bundledMessages(lang: LanguageKey): Messages {
  return lang === DEFAULT_LANGUAGE ? bundled.en : { ...bundled.en, ...bundled[lang] };
}

export function translate(lang: LanguageKey, key: string, params: readonly unknown[] = []): string {
  return translateMessage((name) => bundled[lang][name] ?? bundled.en[name], key, params);
}

/** The text of `key` in every language: seeds translated content (tips, pop-ups, messages). */
export function allLanguages(key: string): Record<LanguageKey, string> {
  const texts = {} as Record<LanguageKey, string>;
  for (const lang of LANGUAGE_KEYS) texts[lang] = bundled[lang][key] ?? bundled.en[key] ?? key;
  return texts;
}

/** Picks the text of a language from a stored per-language map, falling back to English. */
export function pickLanguage(texts: unknown, lang: LanguageKey): string {
  if (!texts || typeof texts !== 'object') return '';
  const map = texts as Record<string, unknown>;
  const value = map[lang] ?? map[DEFAULT_LANGUAGE];
  return typeof value === 'string' ? value : '';
}
