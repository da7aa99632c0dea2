/**
 * The launch calls of spec section 7 and what the app keeps of them on the device: site info, tips,
 * fee settings, the language pack, switches, platform currencies, page configuration, the pop-up.
 */
import type { LanguageKey, OtherValue } from '@bourse/shared';
import { storeLanguagePack, type Messages } from '../i18n';
import { rememberApiLines, type ApiLine } from '../lib/lines';
import { getItem, pageConfigKey, setItem, STORAGE_KEY } from '../lib/storage';
import { api } from './index';

export interface SiteInfo {
  siteName: string;
  siteLogo: string;
  customerServiceUrl: string;
  version: string;
  slogan: string;
  defaultLang: string;
  apiLines: ApiLine[];
  otherValue: OtherValue;
  register: {
    phone: boolean;
    email: boolean;
    inviteCodeRequired: boolean;
    codeRequired: { phone: boolean; email: boolean };
  };
  demoAccount: boolean;
  banners: { id: string; title: string; text: string; route: string }[];
  /** Where prices come from: `simulated` prices are labelled on every quote screen. */
  marketFeed: 'simulated' | 'binance' | 'off';
}

export interface Tip {
  id: number;
  remark: string;
  contentLang: string;
  contentVisibleFlag: number;
}

/** Tips by remark; `isShow` defaults to -1 (spec section 3). */
export type TipsSet = Record<string, { content: string; isShow: number }>;

export interface FeeSetting {
  id: number;
  remark: string;
  feeRate: string;
  productType: number;
  PositionType: number;
  exType: number;
}

export interface PlatformCurrency {
  id: number;
  currencyName: string;
  currencyType: number;
  walletAddressType: string;
  scale: number;
}

export interface PageConfigItem {
  module: string;
  isVisible: number;
  desc: string;
}

export interface PopUp {
  id: number;
  title: string;
  content: string;
  version: string;
}

export async function loadLanguagePack(locale: LanguageKey): Promise<void> {
  const pack = await api.get<Messages>('/api/langMgr/list', { lang: locale }, { catchError: true });
  await storeLanguagePack(locale, pack ?? {});
}

/** Switches as name -> status, kept under `$swichSet`. */
export async function loadSwitches(): Promise<Record<string, number>> {
  const { rows } = await api.page<{ switchName: string; status: number }>(
    '/api/switchSet/list',
    undefined,
    { catchError: true },
  );
  const switches = Object.fromEntries(rows.map((row) => [row.switchName, row.status]));
  setItem(STORAGE_KEY.switchSet, switches);
  return switches;
}

export function storedSwitches(): Record<string, number> {
  return getItem<Record<string, number>>(STORAGE_KEY.switchSet) ?? {};
}

export async function loadSiteInfo(): Promise<SiteInfo> {
  const info = await api.get<SiteInfo>('/api/siteInfo/getSiteInfo');
  setItem(STORAGE_KEY.siteInfo, info);
  setItem(STORAGE_KEY.otherValue, info.otherValue);
  rememberApiLines(info.apiLines ?? []);
  return info;
}

export function storedSiteInfo(): SiteInfo | undefined {
  return getItem<SiteInfo>(STORAGE_KEY.siteInfo);
}

export async function loadTips(): Promise<TipsSet> {
  const { rows } = await api.page<Tip>('/api/textLang/list', { pageNum: 1, pageSize: 30 });
  const tips: TipsSet = {};
  for (const row of rows) {
    tips[row.remark] = { content: row.contentLang, isShow: row.contentVisibleFlag ?? -1 };
  }
  setItem(STORAGE_KEY.tipsSet, tips);
  return tips;
}

export function storedTip(remark: string): { content: string; isShow: number } {
  return getItem<TipsSet>(STORAGE_KEY.tipsSet)?.[remark] ?? { content: '', isShow: -1 };
}

export async function loadFeeSettings(): Promise<FeeSetting[]> {
  const { rows } = await api.page<FeeSetting>('/api/orderFeeSetting/list');
  setItem(STORAGE_KEY.feeSettings, rows);
  return rows;
}

export async function loadPlatformCurrencies(): Promise<PlatformCurrency[]> {
  const { rows } = await api.page<PlatformCurrency>('/api/platformCurrency/list');
  setItem(STORAGE_KEY.platformCurrency, rows);
  return rows;
}

/** A page's configuration: the stored copy at once, refreshed from the server. */
export function storedPageConfig(pagePath: string): PageConfigItem[] | undefined {
  return getItem<PageConfigItem[]>(pageConfigKey(pagePath));
}

export async function loadPageConfig(pagePath: string): Promise<PageConfigItem[]> {
  const { rows } = await api.page<PageConfigItem>(
    '/api/appConfig/list',
    { pagePath },
    { catchError: true },
  );
  setItem(pageConfigKey(pagePath), rows);
  return rows;
}

/** The first pop-up, when its version has not been shown on this device yet. */
export async function loadNewPopUp(): Promise<PopUp | undefined> {
  const { rows } = await api.page<PopUp>('/api/popUp/list');
  const first = rows[0];
  if (!first || getItem<string>(STORAGE_KEY.popUpVersion) === first.version) return undefined;
  return first;
}

export function markPopUpSeen(popUp: PopUp): void {
  setItem(STORAGE_KEY.popUpVersion, popUp.version);
}
