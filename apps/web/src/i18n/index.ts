/**
 * The 19 interface languages (spec section 1). Messages come from the server's language pack
 * (`langMgr/list`, kept on the device under `lang_<locale>`), with the locale files bundled in
 * @bourse/shared as the fallback, in two parts per locale (the first screen's and the rest), each a
 * lazily loaded chunk but English's first-screen part. English is the default. Arabic (ar, sa) lays the page out right to left.
 */
import {
  DEFAULT_LANGUAGE,
  isLanguageKey,
  languageByKey,
  translateMessage,
  type Language,
  type LanguageKey,
} from '@bourse/shared';
import { getItem, languagePackKey, setItem, STORAGE_KEY } from '../lib/storage';
import { messageStore, type Messages } from './store';

export type { Messages };
type Part = 'home' | 'rest';

/**
 * Each bundled locale comes in two parts (route-table-plugin.ts splits the files at build time):
 * `home`, the texts the first screen shows, and `rest`, everything else, loaded with the first
 * other screen (`loadAllMessages`). English home texts, the default and the fallback, come with
 * the app; every other part is a chunk of its own. The server's language pack, read at every
 * launch and kept on the device, has every key and goes over the bundled texts.
 */
// Each part is the JSON text of its messages (`?raw`, which gives the whole file where the build's
// plugin does not run, as in the unit tests).
const englishHome = JSON.parse(
  Object.values(
    import.meta.glob<string>('../../../../packages/shared/locales/en.json', {
      import: 'default',
      query: '?raw&part=home',
      eager: true,
    }),
  )[0]!,
) as Messages;
const loaders: Record<Part, Record<string, () => Promise<string>>> = {
  home: import.meta.glob<string>(['../../../../packages/shared/locales/*.json', '!**/en.json'], {
    import: 'default',
    query: '?raw&part=home',
  }),
  rest: import.meta.glob<string>('../../../../packages/shared/locales/*.json', {
    import: 'default',
    query: '?raw&part=rest',
  }),
};

/** The parts every installed language has: home always, rest once a screen needed it. */
const parts = new Set<Part>(['home']);

async function bundledPart(locale: LanguageKey, part: Part): Promise<Messages> {
  if (part === 'home' && locale === DEFAULT_LANGUAGE) return englishHome;
  const load =
    loaders[part][`../../../../packages/shared/locales/${locale}.json`] ??
    loaders[part][`../../../../packages/shared/locales/${DEFAULT_LANGUAGE}.json`];
  return load ? (JSON.parse(await load()) as Messages) : {};
}

/** The bundled locale file of a language, in the parts loaded so far. */
export async function bundledMessages(locale: LanguageKey): Promise<Messages> {
  const loaded = await Promise.all([...parts].map((part) => bundledPart(locale, part)));
  return Object.assign({}, ...loaded) as Messages;
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
  messageStore.add(locale, { ...bundled, ...pack });
}

let allLoaded: Promise<void> | undefined;

/**
 * Brings every bundled text of the current language (and of English, its fallback): the screens
 * other than home await this before they show, the request client before it words an error.
 */
export function loadAllMessages(): Promise<void> {
  allLoaded ??= (async () => {
    await initI18n();
    parts.add('rest');
    const locale = currentLocale();
    await install(locale, getItem<Messages>(languagePackKey(locale)));
    if (locale !== DEFAULT_LANGUAGE) {
      await install(DEFAULT_LANGUAGE, getItem<Messages>(languagePackKey(DEFAULT_LANGUAGE)));
    }
  })().catch((error: unknown) => {
    allLoaded = undefined;
    parts.delete('rest');
    throw error;
  });
  return allLoaded;
}

let started: Promise<void> | undefined;

/** Starts the messages with the stored pack of the current locale (or the bundled one). */
export function initI18n(): Promise<void> {
  started ??= (async () => {
    const locale = currentLocale();
    messageStore.configure({ language: locale, fallback: DEFAULT_LANGUAGE });
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
  messageStore.changeLanguage(locale);
  applyDocumentLanguage(locale);
}

function lookup(key: string): string | undefined {
  return messageStore.exists(key) ? messageStore.t(key) : undefined;
}

/** A message key with its `{0}` parameters; field names among them show as their labels. */
export function translate(key: string, params: readonly unknown[] = []): string {
  return translateMessage(lookup, key, params);
}

export { messageStore };
