/**
 * antd's own texts (pagination, date pickers, form messages) in the console's language: English
 * is antd's default; Chinese is a chunk loaded when chosen. The language the console starts in is
 * loaded before the first render (main.tsx), so no page's form is rendered again under it while
 * the operator types (a sign-in form filled at once kept nothing otherwise).
 */
import { useEffect, useState } from 'react';
import type { Locale } from 'antd/es/locale';

type Loaded = { language: string; locale: Locale };
let preloaded: Loaded | undefined;

async function load(language: string): Promise<Loaded | undefined> {
  if (language !== 'zh') return undefined;
  return { language, locale: (await import('antd/es/locale/zh_CN')).default };
}

/** Loads antd's texts of the starting language (before the first render). */
export async function preloadAntdLocale(language: string): Promise<void> {
  preloaded = await load(language);
}

export function useAntdLocale(language: string): Locale | undefined {
  const [loaded, setLoaded] = useState<Loaded | undefined>(preloaded);
  useEffect(() => {
    if (loaded?.language === language || language !== 'zh') return;
    let current = true;
    void load(language).then((next) => {
      if (current) setLoaded(next);
    });
    return () => {
      current = false;
    };
  }, [language, loaded]);
  return loaded?.language === language ? loaded.locale : undefined;
}
