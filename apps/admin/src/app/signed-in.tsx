/**
 * The sign-in guard: without a session token, the sign-in page (and back here after). With one,
 * the operator from `auth/me`; an operator whose password was never changed since the account
 * was made (the first admin's generated password, or one an admin chose at creation:
 * `pwdChangeTime` null) is taken to the first-password page before any other.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { operatorsApi } from '@bourse/shared';
import { api } from '../api';
import { errorText } from '../i18n';
import { sessionEnd, useToken } from '../lib/session';
import { PageLoading } from '../components/page-loading';
import { meKey, OperatorContext } from './operator';

const LoadFailed = lazy(() =>
  import('./results').then((module) => ({ default: module.LoadFailed })),
);

export const FIRST_PASSWORD_PATH = '/first-password';

export function SignedIn() {
  const token = useToken();
  const location = useLocation();
  const navigate = useNavigate();
  const me = useQuery({
    queryKey: meKey(token),
    queryFn: () => api.call(operatorsApi.me),
    enabled: token !== undefined,
    staleTime: 60_000,
  });
  const mustChoose = me.data?.pwdChangeTime === null;
  const onFirstPassword = location.pathname === FIRST_PASSWORD_PATH;
  // Where the operator must go instead: the first-password page until they chose a password,
  // away from it once they did.
  const redirect =
    me.data === undefined
      ? undefined
      : mustChoose && !onFirstPassword
        ? FIRST_PASSWORD_PATH
        : !mustChoose && onFirstPassword
          ? '/'
          : undefined;
  // Navigated from this guard, which stays mounted, rather than by a <Navigate> mounted with the
  // page: a hash change while the operator had to choose a password (typing another page's
  // address) once left that element's navigation undone and the page blank.
  useEffect(() => {
    if (redirect) void navigate(redirect, { replace: true });
  }, [redirect, navigate, location.pathname]);
  if (!token) {
    // Back to this page after signing in, unless the operator left on purpose.
    const here = `${location.pathname}${location.search}`;
    const left = sessionEnd() === 'signedOut' || sessionEnd() === 'passwordChanged';
    const back = here === '/' || left ? '' : `?redirect=${encodeURIComponent(here)}`;
    return <Navigate to={`/sign-in${back}`} replace />;
  }
  if (me.isPending) return <PageLoading />;
  if (me.isError)
    return (
      <Suspense fallback={<PageLoading />}>
        <LoadFailed reason={errorText(me.error)} onRetry={() => void me.refetch()} />
      </Suspense>
    );
  if (redirect) return <PageLoading />;
  return (
    <OperatorContext.Provider value={me.data}>
      <Outlet />
    </OperatorContext.Provider>
  );
}
