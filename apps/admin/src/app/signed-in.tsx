/**
 * The sign-in guard: without a session token, the sign-in page (and back here after). With one,
 * the operator from `auth/me`, who may have a step to take before any other page:
 * - an operator whose password was never changed since the account was made (the first admin's
 *   generated password, or one an admin chose at creation or reset: `pwdChangeTime` null) goes to
 *   the first-password page;
 * - then one whose role requires two-factor (admin, finance: TWO_FACTOR_ROLES) and who has it off
 *   goes to the two-factor set-up page.
 * The server refuses every other call until then (`hint_pwdChangeRequired`,
 * `hint_twoFactorSetupRequired`); such a refusal of any call (an admin gave the operator the
 * finance role meanwhile) has the guard read the operator again, and so take them there.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { operatorsApi, type OperatorInfo } from '@bourse/shared';
import { api, onStepRequired } from '../api';
import { errorText } from '../i18n';
import { sessionEnd, useToken } from '../lib/session';
import { PageLoading } from '../components/page-loading';
import { meKey, OperatorContext, twoFactorRequired } from './operator';

const LoadFailed = lazy(() =>
  import('./results').then((module) => ({ default: module.LoadFailed })),
);

export const FIRST_PASSWORD_PATH = '/first-password';
export const TWO_FACTOR_SETUP_PATH = '/two-factor-setup';

/** The step the operator must take before any page, if any: its path. */
function stepOf(operator: OperatorInfo): string | undefined {
  if (operator.pwdChangeTime === null) return FIRST_PASSWORD_PATH;
  if (!operator.twoFactor && twoFactorRequired(operator.roles)) return TWO_FACTOR_SETUP_PATH;
  return undefined;
}

export function SignedIn() {
  const token = useToken();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useQuery({
    queryKey: meKey(token),
    queryFn: () => api.call(operatorsApi.me),
    enabled: token !== undefined,
    staleTime: 60_000,
  });
  // A call refused for a step to take first: the operator as the server now has them.
  useEffect(
    () => onStepRequired(() => void queryClient.invalidateQueries({ queryKey: meKey(token) })),
    [queryClient, token],
  );
  const step = me.data && stepOf(me.data);
  // Where the operator must go instead: the page of their step until it is taken, away from the
  // first-password page once it is. The two-factor page leaves by itself once the operator saw
  // their recovery codes (two-factor is on while they still read them).
  const redirect =
    me.data === undefined
      ? undefined
      : step !== undefined && location.pathname !== step
        ? step
        : step === undefined && location.pathname === FIRST_PASSWORD_PATH
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
