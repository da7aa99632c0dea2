/**
 * The launch calls of spec section 7 and what the app keeps of them on the device: site info, tips,
 * fee settings, the language pack, switches, platform currencies, page configuration, the pop-up.
 */
import {
  settingsApi as routes,
  type FeeSetting,
  type LanguageKey,
  type PageConfigItem,
  type PlatformCurrency,
  type PopUp,
  type SiteInfo,
} from '@bourse/shared';
import { storeLanguagePack } from '../i18n';
import { rememberApiLines } from '../lib/lines';
import { getItem, pageConfigKey, setItem, STORAGE_KEY } from '../lib/storage';
import { api } from './index';

export type {
  FeeSetting,
  PageConfigItem,
  PlatformCurrency,
  PopUp,
  SiteInfo,
  Tip,
} from '@bourse/shared';

/** Tips by remark; `isShow` defaults to -1 (spec section 3). */
export type TipsSet = Record<string, { content: string; isShow: number }>;

export async function loadLanguagePack(locale: LanguageKey): Promise<void> {
  const pack = await api.call(routes.languagePack, { lang: locale }, { catchError: true });
  await storeLanguagePack(locale, pack ?? {});
}

/** Switches as name -> status, kept under `$swichSet`. */
export async function loadSwitches(): Promise<Record<string, number>> {
  const { rows } = await api.call(routes.switches, undefined, { catchError: true });
  const switches = Object.fromEntries(rows.map((row) => [row.switchName, row.status]));
  setItem(STORAGE_KEY.switchSet, switches);
  return switches;
}

export function storedSwitches(): Record<string, number> {
  return getItem<Record<string, number>>(STORAGE_KEY.switchSet) ?? {};
}

export async function loadSiteInfo(): Promise<SiteInfo> {
  const info = await api.call(routes.siteInfo);
  setItem(STORAGE_KEY.siteInfo, info);
  setItem(STORAGE_KEY.otherValue, info.otherValue);
  rememberApiLines(info.apiLines ?? []);
  return info;
}

/**
 * The site info as one query of the app's cache: the launch fetches it through the cache, so the
 * screens reading it at the same time share that one call (hooks/use-site-info.ts).
 */
export const siteInfoQuery = { queryKey: ['siteInfo'], queryFn: loadSiteInfo } as const;

export function storedSiteInfo(): SiteInfo | undefined {
  return getItem<SiteInfo>(STORAGE_KEY.siteInfo);
}

export async function loadTips(): Promise<TipsSet> {
  const { rows } = await api.call(routes.tips, { pageNum: 1, pageSize: 30 });
  const tips: TipsSet = {};
  for (const row of rows) {
    tips[row.remark] = { content: row.contentLang, isShow: row.contentVisibleFlag ?? -1 };
  }
  setItem(STORAGE_KEY.tipsSet, tips);
  return tips;
}

/** The tips as one query of the app's cache, shared by the launch and the home screen. */
export const tipsQuery = { queryKey: ['tips'], queryFn: loadTips } as const;

export function storedTips(): TipsSet | undefined {
  return getItem<TipsSet>(STORAGE_KEY.tipsSet);
}

export function storedTip(remark: string): { content: string; isShow: number } {
  return getItem<TipsSet>(STORAGE_KEY.tipsSet)?.[remark] ?? { content: '', isShow: -1 };
}

export async function loadFeeSettings(): Promise<FeeSetting[]> {
  const { rows } = await api.call(routes.feeSettings);
  setItem(STORAGE_KEY.feeSettings, rows);
  return rows;
}

export async function loadPlatformCurrencies(): Promise<PlatformCurrency[]> {
  const { rows } = await api.call(routes.platformCurrencies, {});
  setItem(STORAGE_KEY.platformCurrency, rows);
  return rows;
}

/** A page's configuration: the stored copy at once, refreshed from the server. */
export function storedPageConfig(pagePath: string): PageConfigItem[] | undefined {
  return getItem<PageConfigItem[]>(pageConfigKey(pagePath));
}

export async function loadPageConfig(pagePath: string): Promise<PageConfigItem[]> {
  const { rows } = await api.call(routes.pageConfig, { pagePath }, { catchError: true });
  setItem(pageConfigKey(pagePath), rows);
  return rows;
}

/** The first pop-up, when its version has not been shown on this device yet. */
export async function loadNewPopUp(): Promise<PopUp | undefined> {
  const { rows } = await api.call(routes.popUps);
  const first = rows[0];
  if (!first || getItem<number>(STORAGE_KEY.popUpVersion) === first.version) return undefined;
  return first;
}

export function markPopUpSeen(popUp: PopUp): void {
  setItem(STORAGE_KEY.popUpVersion, popUp.version);
}
