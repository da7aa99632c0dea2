/** The security centre's calls of /api/userSecurity: sessions, login history, anti-phishing. */
import { securityApi as routes } from '@bourse/shared';
import { api } from '../../api';

export function fetchSessions(page: { pageNum: number; pageSize: number }) {
  return api.call(routes.sessions, page);
}

export function endSession(id: number) {
  return api.call(routes.endSession, { id }, { catchError: true });
}

export function endOtherSessions() {
  return api.call(routes.endOtherSessions, undefined, { catchError: true });
}

export function fetchLoginHistory(page: { pageNum: number; pageSize: number }) {
  return api.call(routes.loginHistory, page);
}

export function fetchAntiPhishing() {
  return api.call(routes.antiPhishing);
}

export function setAntiPhishing(code: string, userPwd: string, twoFactorCode?: string) {
  return api.call(routes.setAntiPhishing, { code, userPwd, twoFactorCode }, { catchError: true });
}
