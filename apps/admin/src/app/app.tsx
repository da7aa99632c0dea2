/**
 * The console's root: the query client, antd's theme (without motion when the operator's system
 * asks for less) and its texts in the console's language (Chinese loaded when chosen; English is
 * antd's own), antd's App (message and modal hooks) and the router.
 */
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useToken } from '../lib/session';
import { useAntdLocale } from './antd-locale';
import { queryClient } from './query';
import { router } from './router';

const consoleTheme = {
  algorithm: theme.defaultAlgorithm,
  token: {
    colorPrimary: '#2f54eb',
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', sans-serif",
  },
  components: {
    Layout: { siderBg: '#0f1629', headerBg: '#ffffff', bodyBg: '#f0f2f5' },
    Menu: { darkItemBg: '#0f1629', darkSubMenuItemBg: '#0f1629', darkItemSelectedBg: '#2f54eb' },
  },
};

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Whether the operator's system asks for less motion (followed as it changes). */
function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener('change', changed);
      return () => query.removeEventListener('change', changed);
    },
    () => window.matchMedia(REDUCED_MOTION).matches,
  );
}

export function App() {
  const { i18n } = useTranslation();
  const reducedMotion = useReducedMotion();
  // Dialogs, drawers and menus open without animating for an operator who asks for less motion.
  const themeConfig = useMemo(
    () => ({ ...consoleTheme, token: { ...consoleTheme.token, motion: !reducedMotion } }),
    [reducedMotion],
  );
  const locale = useAntdLocale(i18n.language);
  const token = useToken();
  // A session that ended leaves nothing of its answers for the next operator.
  useEffect(() => {
    if (!token) queryClient.clear();
  }, [token]);
  return (
    <QueryClientProvider client={queryClient}>
      {/* No space put between two Chinese characters of a button: the words read as written. */}
      <ConfigProvider theme={themeConfig} locale={locale} button={{ autoInsertSpace: false }}>
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
