/**
 * The phone-width frame of every screen, with the tab bar under the four tab screens and the
 * launch pop-up over the home screen (never over a deep link, login or register).
 */
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { isTabPath, paths } from '../config/paths';
import { isHomePath, layoutRoute } from '../lib/layout';
import { loadingIndicator } from '../lib/chunks';
import { currentPopUp, dismissPopUp, subscribePopUp } from './launch';
import LaunchPopUp from './launch-pop-up';
import { TabBarView } from './tab-bar';
import { useUser } from '../hooks/use-user';

// A notification of the user's own events toasts on whatever screen is open (issue 21); loaded
// after the first paint, with the WebSocket code, and only for a signed-in user.
const NotificationToasts = lazy(() => import('../components/notification-toasts'));

export function AppFrame() {
  const { pathname, search } = useLocation();
  const { signedIn } = useUser();
  const navigation = useNavigation();
  // The home layouts are tab 0 too (lib/layout.ts).
  const withTabs = isTabPath(pathname) || isHomePath(pathname);
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
      {signedIn && (
        <Suspense fallback={null}>
          <NotificationToasts />
        </Suspense>
      )}
      <main className="app-content">
        <Outlet />
      </main>
      {withTabs && <TabBarView pathname={pathname} />}
      {/* Not in the console's preview of a layout (?preview=1). */}
      {popUp && pathname === paths[layoutRoute('home')] && !search.includes('preview=1') && (
        <LaunchPopUp popUp={popUp} onClose={dismissPopUp} />
      )}
      {/* A new screen opens at its top; going back returns to where the user was. */}
      <ScrollRestoration />
    </div>
  );
}
