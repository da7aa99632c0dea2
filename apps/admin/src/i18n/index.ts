/**
 * The console's languages, English and Simplified Chinese, through i18next: every text the
 * console shows is a key of `locales/<language>.json` (namespace `console`), and the server's
 * refusals are shown from the locale files of @bourse/shared (namespace `server`: the `hint_`,
 * `field_` and `net_` keys, the others dropped at build time by server-messages-plugin.ts), with
 * the field a refusal names shown by its translated label. Only the chosen language is loaded.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageByKey, translateMessage } from '@bourse/shared';
import type en from './locales/en.json';
import type zh from './locales/zh.json';
import { ApiError } from '../api/client';

export const CONSOLE_LANGUAGES = [
  { key: 'en', name: 'English' },
  { key: 'zh', name: '简体中文' },
] as const;
export type ConsoleLanguage = (typeof CONSOLE_LANGUAGES)[number]['key'];
const DEFAULT: ConsoleLanguage = 'en';
const LANGUAGE_KEY = 'bourse.console.language';

// Both files have the same keys: each must be assignable to the other's type.
export type ConsoleMessages = typeof en;
export type SameKeys = [typeof en, typeof zh] extends [typeof zh, typeof en] ? true : never;
export const sameKeys: SameKeys = true;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'console';
    resources: { console: ConsoleMessages };
  }
}

type Messages = Record<string, unknown>;
const loaders: Record<ConsoleLanguage, () => Promise<[Messages, Messages]>> = {
  en: () =>
    Promise.all([
      import('./locales/en.json').then((module) => module.default as Messages),
      import('@bourse/shared/locales/en.json').then((module) => module.default as Messages),
    ]),
  zh: () =>
    Promise.all([
      import('./locales/zh.json').then((module) => module.default as Messages),
      import('@bourse/shared/locales/zh.json').then((module) => module.default as Messages),
    ]),
};

function isConsoleLanguage(value: unknown): value is ConsoleLanguage {
  return CONSOLE_LANGUAGES.some((language) => language.key === value);
}

/** The stored choice, else the browser's language when it is Chinese, else English. */
function initialLanguage(): ConsoleLanguage {
  try {
    const stored = localStorage.getItem(LANGUAGE_KEY);
    if (isConsoleLanguage(stored)) return stored;
  } catch {
    // no storage: the browser's language
  }
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : DEFAULT;
}

async function load(language: ConsoleLanguage): Promise<void> {
  if (i18next.hasResourceBundle(language, 'console')) return;
  const [console, server] = await loaders[language]();
  i18next.addResourceBundle(language, 'console', console);
  i18next.addResourceBundle(language, 'server', server);
}

export async function initI18n(): Promise<void> {
  const language = initialLanguage();
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: DEFAULT,
    ns: ['console', 'server'],
    defaultNS: 'console',
    resources: {},
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await load(language);
  // English is every text's fallback: loaded beside the chosen language (it is small) so a
  // key missing from one file still reads as a sentence.
  if (language !== DEFAULT) await load(DEFAULT);
  document.documentElement.lang = languageByKey(language)?.bcp47 ?? language;
}

export function currentLanguage(): ConsoleLanguage {
  return isConsoleLanguage(i18next.language) ? i18next.language : DEFAULT;
}

export async function changeLanguage(language: ConsoleLanguage): Promise<void> {
  await load(language);
  localStorage.setItem(LANGUAGE_KEY, language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = languageByKey(language)?.bcp47 ?? language;
}

/** The language the server words its texts in: the spec's id and tag of the console's language. */
export function requestLanguage(): { id: number; bcp47: string } {
  const language = languageByKey(currentLanguage()) ?? languageByKey(DEFAULT)!;
  return { id: language.id, bcp47: language.bcp47 };
}

/** A server text of the console's language (English when it has none). */
function lookupServer(name: string): string | undefined {
  const value: unknown =
    i18next.getResource(currentLanguage(), 'server', name) ??
    i18next.getResource(DEFAULT, 'server', name);
  return typeof value === 'string' ? value : undefined;
}

/** A server text (`hint_…`) with its parameters, a field shown by its label. */
export function serverText(key: string, params: readonly unknown[] = []): string {
  return translateMessage(lookupServer, key, params);
}

/** What to tell the operator about a failed call, in the console's language. */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return serverText('net_error');
  if (lookupServer(error.msg) === undefined && error.text) return error.text;
  return serverText(error.msg, error.params);
}
