/**
 * The phone-width frame of every screen, with the tab bar under the four tab screens and the
 * launch pop-up over the home screen (never over a deep link, login or register).
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { isTabPath, paths } from '../config/paths';
import { loadingIndicator } from '../lib/chunks';
import { currentPopUp, dismissPopUp, subscribePopUp } from './launch';
import LaunchPopUp from './launch-pop-up';
import { TabBarView } from './tab-bar';

export function AppFrame() {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const withTabs = isTabPath(pathname);
  const popUp = useSyncExternalStore(subscribePopUp, currentPopUp);
  // The loading bar shows after 200 ms of loading, for at most 60 s (spec section 9).
  const [loading, setLoading] = useState(false);
  const navigating = navigation.state === 'loading';
  useEffect(() => (navigating ? loadingIndicator(setLoading) : undefined), [navigating]);
  return (
    <div className={`app-frame${withTabs ? ' with-tabs' : ''}`}>
      {loading && (
        <div className="route-loading" role="progressbar" aria-busy="true" aria-label="…" />
      )}
      <main className="app-content">
        <Outlet />
      </main>
      {withTabs && <TabBarView pathname={pathname} />}
      {popUp && pathname === paths.home && <LaunchPopUp popUp={popUp} onClose={dismissPopUp} />}
      {/* A new screen opens at its top; going back returns to where the user was. */}
      <ScrollRestoration />
    </div>
  );
}
