/**
 * antd-mobile's own texts (dialog buttons, empty states, pull-to-refresh, accessible labels) in
 * the interface language; its default is Chinese. Each locale is a small chunk loaded when its
 * language is chosen; languages antd-mobile lacks use the closest one it has, else English.
 */
// The ES module antd-mobile's components read their configuration from (one instance).
import { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import type { LanguageKey } from '@bourse/shared';

type Locale = Parameters<typeof setDefaultConfig>[0]['locale'];
type Loader = () => Promise<{ default: Locale }>;

const english: Loader = () => import('antd-mobile/es/locales/en-US');
const arabic: Loader = () => import('antd-mobile/es/locales/ar-SA');
const russian: Loader = () => import('antd-mobile/es/locales/ru-RU');

const LOADERS: Record<LanguageKey, Loader> = {
  zh: () => import('antd-mobile/es/locales/zh-CN'),
  en: english,
  tc: () => import('antd-mobile/es/locales/zh-TW'),
  de: () => import('antd-mobile/es/locales/de-DE'),
  es: () => import('antd-mobile/es/locales/es-ES'),
  fr: () => import('antd-mobile/es/locales/fr-FR'),
  idn: () => import('antd-mobile/es/locales/id-ID'),
  jp: () => import('antd-mobile/es/locales/ja-JP'),
  ko: () => import('antd-mobile/es/locales/ko-KR'),
  my: () => import('antd-mobile/es/locales/ms-MY'),
  th: () => import('antd-mobile/es/locales/th-TH'),
  vi: () => import('antd-mobile/es/locales/vi-VN'),
  pt: () => import('antd-mobile/es/locales/pt-BR'),
  rus: russian,
  blr: russian,
  ida: english,
  sa: arabic,
  ar: arabic,
  it: () => import('antd-mobile/es/locales/it-IT'),
};

let latest: LanguageKey | undefined;

export async function applyAntdLocale(locale: LanguageKey): Promise<void> {
  latest = locale;
  try {
    const { default: loaded } = await LOADERS[locale]();
    // A later choice made while this one loaded wins.
    if (latest === locale) setDefaultConfig({ locale: loaded });
  } catch {
    // Offline before the chunk came: antd-mobile keeps its previous texts.
  }
}
