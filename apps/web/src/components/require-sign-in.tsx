/** Screens for signed-in users send everyone else to login, and back here afterwards. */
import { Navigate, useLocation } from 'react-router';
import { getHref } from '../config/paths';
import { isSignedIn } from '../api/session';

export function RequireSignIn({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  if (!isSignedIn()) return <Navigate replace to={getHref('login', { redirect: pathname })} />;
  return <>{children}</>;
}
