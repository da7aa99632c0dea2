/**
 * The 19 interface languages (spec section 1). Messages come from the server's language pack
 * (`langMgr/list`, kept on the device under `lang_<locale>`), with the locale files bundled in
 * @bourse/shared as the fallback; each bundled locale is its own lazily loaded chunk. English is
 * the default. Arabic (ar, sa) lays the page out right to left.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  isLanguageKey,
  languageByKey,
  translateMessage,
  type Language,
  type LanguageKey,
} from '@bourse/shared';
import english from '../../../../packages/shared/locales/en.json';
import { getItem, languagePackKey, setItem, STORAGE_KEY } from '../lib/storage';

export type Messages = Record<string, string>;

// English, the default and the fallback of every other language, comes with the first screen;
// each other language is a chunk of its own, loaded when chosen.
const bundledLoaders = import.meta.glob<Messages>(
  ['../../../../packages/shared/locales/*.json', '!**/en.json'],
  { import: 'default' },
);

/** The bundled locale file of a language (English when it has none). */
export async function bundledMessages(locale: LanguageKey): Promise<Messages> {
  const load = bundledLoaders[`../../../../packages/shared/locales/${locale}.json`];
  return load ? load() : english;
}

export function currentLocale(): LanguageKey {
  const stored = getItem<string>(STORAGE_KEY.locale);
  return isLanguageKey(stored) ? stored : DEFAULT_LANGUAGE;
}

export function currentLanguage(): Language {
  return languageByKey(currentLocale()) ?? languageByKey(DEFAULT_LANGUAGE)!;
}

/** Sets `lang` and `dir` on the document, so Arabic reads right to left. */
export function applyDocumentLanguage(locale: LanguageKey): void {
  const language = languageByKey(locale);
  if (!language || typeof document === 'undefined') return;
  document.documentElement.lang = language.bcp47;
  document.documentElement.dir = language.rtl ? 'rtl' : 'ltr';
  // antd-mobile's own texts follow, from a chunk of their own (not needed for the first paint).
  void import('../lib/antd-locale').then(({ applyAntdLocale }) => applyAntdLocale(locale));
}

/** Puts a pack in place for a locale: bundled messages under whatever the server sent. */
async function install(locale: LanguageKey, pack: Messages | undefined): Promise<void> {
  const bundled = await bundledMessages(locale);
  i18next.addResourceBundle(locale, 'translation', { ...bundled, ...pack }, true, true);
}

let started: Promise<void> | undefined;

/** Starts i18next with the stored pack of the current locale (or the bundled one). */
export function initI18n(): Promise<void> {
  started ??= (async () => {
    const locale = currentLocale();
    await i18next.use(initReactI18next).init({
      lng: locale,
      fallbackLng: DEFAULT_LANGUAGE,
      resources: {},
      // Messages use the server's `{0}` placeholders, filled by `translate`.
      interpolation: { escapeValue: false, prefix: '{{{{', suffix: '}}}}' },
      returnNull: false,
      showSupportNotice: false,
      react: { useSuspense: false },
    });
    await install(locale, getItem<Messages>(languagePackKey(locale)));
    if (locale !== DEFAULT_LANGUAGE) await install(DEFAULT_LANGUAGE, undefined);
    applyDocumentLanguage(locale);
  })();
  return started;
}

/** Stores a pack fetched from the server and uses it at once. */
export async function storeLanguagePack(locale: LanguageKey, pack: Messages): Promise<void> {
  setItem(languagePackKey(locale), pack);
  await install(locale, pack);
}

/** Switches the interface language; the pack is the stored one until a fresh one arrives. */
export async function changeLocale(locale: LanguageKey): Promise<void> {
  setItem(STORAGE_KEY.locale, locale);
  await install(locale, getItem<Messages>(languagePackKey(locale)));
  await i18next.changeLanguage(locale);
  applyDocumentLanguage(locale);
}

function lookup(key: string): string | undefined {
  return i18next.exists(key) ? i18next.t(key) : undefined;
}

/** A message key with its `{0}` parameters; field names among them show as their labels. */
export function translate(key: string, params: readonly unknown[] = []): string {
  return translateMessage(lookup, key, params);
}

export { i18next };
