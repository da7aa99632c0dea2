/**
 * The four tabs of spec section 2: home, quotes (market), quote detail (trade), wallet. The home
 * tab opens the home layout the operator chose (lib/layout.ts) and is the current tab on any of
 * them.
 */
import { AppOutline, FileOutline, HistogramOutline, PayCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from '../i18n/react';
import { paths, TAB_ROUTES, type TabRoute } from '../config/paths';
import { isHomePath } from '../lib/layout';
import { switchTab } from '../lib/navigation';

const TABS: Record<TabRoute, { label: string; icon: React.ReactNode }> = {
  home: { label: 'tab_home', icon: <AppOutline /> },
  quotes: { label: 'tab_quotes', icon: <HistogramOutline /> },
  quoteDetail: { label: 'tab_trade', icon: <FileOutline /> },
  accountDetail: { label: 'tab_wallet', icon: <PayCircleOutline /> },
};

export function TabBarView({ pathname }: { pathname: string }) {
  const { t } = useTranslation();
  return (
    <nav className="tab-bar" aria-label={t('tab_navigation')}>
      {TAB_ROUTES.map((name) => {
        const active = name === 'home' ? isHomePath(pathname) : paths[name] === pathname;
        return (
          <button
            key={name}
            type="button"
            className={`tab-bar-item${active ? ' tab-bar-item-active' : ''}`}
            aria-current={active ? 'page' : undefined}
            data-testid={`tab-${name}`}
            onClick={() => switchTab(name)}
          >
            <span className="tab-bar-icon" aria-hidden="true">
              {TABS[name].icon}
            </span>
            <span className="tab-bar-title">{t(TABS[name].label)}</span>
          </button>
        );
      })}
    </nav>
  );
}
