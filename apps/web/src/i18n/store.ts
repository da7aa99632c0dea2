/**
 * The messages in memory: one table per language, looked up in the current language, then in the
 * fallback (English), else the key itself. It replaces i18next, of which the app used only this
 * (keys are looked up whole: the server's `{0}` placeholders are filled by `translate`), and which
 * weighed 13 KB gzip on the first screen. Screens read it through `useTranslation` (react.ts).
 */
export type Messages = Record<string, string>;

const tables = new Map<string, Messages>();
const listeners = new Set<() => void>();
let language = 'en';
let fallback = 'en';

function lookup(key: string): string | undefined {
  return tables.get(language)?.[key] ?? tables.get(fallback)?.[key];
}

/** The translation function of the current messages: a new one after every change. */
export type TFunction = (key: string) => string;
let current: TFunction = (key) => lookup(key) ?? key;

function changed(): void {
  current = (key) => lookup(key) ?? key;
  for (const listener of listeners) listener();
}

export const messageStore = {
  get language(): string {
    return language;
  },
  configure(options: { language: string; fallback: string }): void {
    language = options.language;
    fallback = options.fallback;
    changed();
  },
  /** Adds messages to a language's table, over those it has. */
  add(locale: string, messages: Messages): void {
    tables.set(locale, { ...tables.get(locale), ...messages });
    changed();
  },
  changeLanguage(locale: string): void {
    language = locale;
    changed();
  },
  exists(key: string): boolean {
    return lookup(key) !== undefined;
  },
  t(key: string): string {
    return current(key);
  },
  /** The current translation function (its identity changes with the messages). */
  translator(): TFunction {
    return current;
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
