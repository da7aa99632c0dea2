/**
 * The console's languages, English and Simplified Chinese, through i18next: every text the
 * console shows is a key of `locales/<language>.json` (namespace `console`), and the server's
 * refusals are shown from the locale files of @bourse/shared (namespace `server`: the `hint_`,
 * `field_` and `net_` keys, the others dropped at build time by server-messages-plugin.ts), with
 * the field a refusal names shown by its translated label. Only the chosen language is loaded.
 *
 * The console's texts are kept by area: `locales/<language>.json` for the frame (menu, sign-in,
 * review queues, audit), `locales/<area>/<language>.json` for each later area of pages; the files
 * of a language are merged deeply into one namespace (an area may add its `nav.<page>` label).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageByKey, translateMessage } from '@bourse/shared';
import type contentEn from './locales/content/en.json';
import type contentZh from './locales/content/zh.json';
import type copyTradeEn from './locales/copy-trade/en.json';
import type copyTradeZh from './locales/copy-trade/zh.json';
import type dashboardEn from './locales/dashboard/en.json';
import type dashboardZh from './locales/dashboard/zh.json';
import type earnEn from './locales/earn/en.json';
import type earnZh from './locales/earn/zh.json';
import type en from './locales/en.json';
import type identityEn from './locales/identity/en.json';
import type identityZh from './locales/identity/zh.json';
import type loansEn from './locales/loans/en.json';
import type loansZh from './locales/loans/zh.json';
import type messagesEn from './locales/messages/en.json';
import type messagesZh from './locales/messages/zh.json';
import type newSharesEn from './locales/newShares/en.json';
import type newSharesZh from './locales/newShares/zh.json';
import type operatorsEn from './locales/operators/en.json';
import type operatorsZh from './locales/operators/zh.json';
import type referralEn from './locales/referral/en.json';
import type referralZh from './locales/referral/zh.json';
import type rewardsEn from './locales/rewards/en.json';
import type rewardsZh from './locales/rewards/zh.json';
import type serviceEn from './locales/service/en.json';
import type serviceZh from './locales/service/zh.json';
import type settingsEn from './locales/settings/en.json';
import type settingsZh from './locales/settings/zh.json';
import type systemEn from './locales/system/en.json';
import type systemZh from './locales/system/zh.json';
import type twoFactorEn from './locales/two-factor/en.json';
import type twoFactorZh from './locales/two-factor/zh.json';
import type usersEn from './locales/users/en.json';
import type usersZh from './locales/users/zh.json';
import type zh from './locales/zh.json';
import { ApiError } from '../api/client';

export const CONSOLE_LANGUAGES = [
  { key: 'en', name: 'English' },
  { key: 'zh', name: '简体中文' },
] as const;
export type ConsoleLanguage = (typeof CONSOLE_LANGUAGES)[number]['key'];
const DEFAULT: ConsoleLanguage = 'en';
const LANGUAGE_KEY = 'bourse.console.language';

type English = typeof en &
  typeof dashboardEn &
  typeof usersEn &
  typeof settingsEn &
  typeof operatorsEn &
  typeof systemEn &
  typeof identityEn &
  typeof twoFactorEn &
  typeof serviceEn &
  typeof contentEn &
  typeof messagesEn &
  typeof referralEn &
  typeof rewardsEn &
  typeof earnEn &
  typeof loansEn &
  typeof newSharesEn &
  typeof copyTradeEn;
type Chinese = typeof zh &
  typeof dashboardZh &
  typeof usersZh &
  typeof settingsZh &
  typeof operatorsZh &
  typeof systemZh &
  typeof identityZh &
  typeof twoFactorZh &
  typeof serviceZh &
  typeof contentZh &
  typeof messagesZh &
  typeof referralZh &
  typeof rewardsZh &
  typeof earnZh &
  typeof loansZh &
  typeof newSharesZh &
  typeof copyTradeZh;

// Both languages have the same keys: each must be assignable to the other's type.
export type ConsoleMessages = English;
export type SameKeys = [English, Chinese] extends [Chinese, English] ? true : never;
export const sameKeys: SameKeys = true;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'console';
    resources: { console: ConsoleMessages };
  }
}

type Messages = Record<string, unknown>;
type Module = Promise<{ default: unknown }>;
/** The console's files of a language (frame first, then the areas), and the server's texts. */
const files: Record<ConsoleLanguage, { console: () => Module[]; server: () => Module }> = {
  en: {
    console: () => [
      import('./locales/en.json'),
      import('./locales/dashboard/en.json'),
      import('./locales/users/en.json'),
      import('./locales/settings/en.json'),
      import('./locales/operators/en.json'),
      import('./locales/system/en.json'),
      import('./locales/identity/en.json'),
      import('./locales/two-factor/en.json'),
      import('./locales/service/en.json'),
      import('./locales/content/en.json'),
      import('./locales/messages/en.json'),
      import('./locales/referral/en.json'),
      import('./locales/rewards/en.json'),
      import('./locales/earn/en.json'),
      import('./locales/loans/en.json'),
      import('./locales/newShares/en.json'),
      import('./locales/copy-trade/en.json'),
    ],
    server: () => import('@bourse/shared/locales/en.json'),
  },
  zh: {
    console: () => [
      import('./locales/zh.json'),
      import('./locales/dashboard/zh.json'),
      import('./locales/users/zh.json'),
      import('./locales/settings/zh.json'),
      import('./locales/operators/zh.json'),
      import('./locales/system/zh.json'),
      import('./locales/identity/zh.json'),
      import('./locales/two-factor/zh.json'),
      import('./locales/service/zh.json'),
      import('./locales/content/zh.json'),
      import('./locales/messages/zh.json'),
      import('./locales/referral/zh.json'),
      import('./locales/rewards/zh.json'),
      import('./locales/earn/zh.json'),
      import('./locales/loans/zh.json'),
      import('./locales/newShares/zh.json'),
      import('./locales/copy-trade/zh.json'),
    ],
    server: () => import('@bourse/shared/locales/zh.json'),
  },
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
  const { console: consoleFiles, server: serverFile } = files[language];
  const [server, ...areas] = await Promise.all([serverFile(), ...consoleFiles()]);
  for (const area of areas) {
    i18next.addResourceBundle(language, 'console', area.default as Messages, true, true);
  }
  i18next.addResourceBundle(language, 'server', server.default as Messages);
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
