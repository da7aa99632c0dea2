/** The phone-width frame of every screen, with the tab bar under the four tab screens. */
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { isTabPath } from '../config/paths';
import { TabBarView } from './tab-bar';

export function AppFrame() {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const withTabs = isTabPath(pathname);
  return (
    <div className={`app-frame${withTabs ? ' with-tabs' : ''}`}>
      {navigation.state === 'loading' && (
        <div className="route-loading" role="progressbar" aria-busy="true" aria-label="…" />
      )}
      <main className="app-content">
        <Outlet />
      </main>
      {withTabs && <TabBarView pathname={pathname} />}
      {/* A new screen opens at its top; going back returns to where the user was. */}
      <ScrollRestoration />
    </div>
  );
}
