/**
 * Device storage under the spec's keys (SEED-SPEC section 3, "Stored on device"). Values are kept
 * as JSON in localStorage; a value that cannot be read back counts as missing. When the browser
 * refuses storage (private mode, quota), the app keeps working with what it has in memory.
 */
import { OTHER_VALUE_DEFAULTS, type LanguageKey, type OtherValue } from '@bourse/shared';

export const STORAGE_KEY = {
  token: 'uToken',
  userAccount: 'userAccount',
  userInfo: 'userInfo',
  platformCurrency: '$platformCurrency',
  bibiAssets: '$bibiAssets',
  otherValue: 'otherValue',
  tipsSet: '$tipsSet',
  switchSet: '$swichSet',
  locale: 'locale',
  /** The current API line's index (spec section 1). */
  lineIndex: 'lineIndex',
  /** The lines offered by the server, remembered so the next start can reach the chosen one. */
  apiLines: 'apiLines',
  /** The version of the launch pop-up already shown. */
  popUpVersion: 'popUpVersion',
  siteInfo: 'siteInfo',
  feeSettings: 'orderFeeSetting',
  /** A signed-out customer-service visitor's token (features/service). */
  serviceVisitor: 'serviceVisitor',
} as const;

/** The language pack of a locale is kept under `lang_` plus the locale (spec section 3). */
export function languagePackKey(locale: LanguageKey): string {
  return `lang_${locale}`;
}

/** Page configuration is cached per page. */
export function pageConfigKey(pagePath: string): string {
  return `pageConfig_${pagePath}`;
}

const memory = new Map<string, string>();

function backend(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function readRaw(key: string): string | null {
  try {
    return backend()?.getItem(key) ?? memory.get(key) ?? null;
  } catch {
    return memory.get(key) ?? null;
  }
}

export function getItem<T>(key: string): T | undefined {
  if (!key) {
    console.warn('key不存在');
    return undefined;
  }
  const raw = readRaw(key);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

export function setItem(key: string, value: unknown): void {
  if (!key) {
    console.warn('key不存在');
    return;
  }
  const raw = JSON.stringify(value);
  memory.set(key, raw);
  try {
    backend()?.setItem(key, raw);
  } catch {
    // Storage full or refused: the in-memory copy serves this visit.
  }
}

export function removeItem(key: string): void {
  if (!key) {
    console.warn('key不存在');
    return;
  }
  memory.delete(key);
  try {
    backend()?.removeItem(key);
  } catch {
    // nothing stored to remove
  }
}

/** The settings map with the spec's defaults under whatever the server sent. */
export function getOtherValue(): OtherValue {
  return { ...OTHER_VALUE_DEFAULTS, ...getItem<Partial<OtherValue>>(STORAGE_KEY.otherValue) };
}

export function getToken(): string | undefined {
  return getItem<string>(STORAGE_KEY.token) || undefined;
}

/** What 401 and logout do: forget the account and its token (spec section 4). */
export function clearSession(): void {
  removeItem(STORAGE_KEY.userAccount);
  removeItem(STORAGE_KEY.token);
  removeItem(STORAGE_KEY.userInfo);
  removeItem(STORAGE_KEY.bibiAssets);
}
