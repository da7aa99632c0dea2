/** The two-factor calls of /api/userSecurity/twoFactor. */
import { securityApi as routes } from '@bourse/shared';
import { api } from '../../api';

export const TWO_FACTOR_STATUS_KEY = ['twoFactorStatus'] as const;

export function fetchTwoFactorStatus() {
  return api.call(routes.twoFactorStatus);
}

export function setUpTwoFactor(userPwd: string) {
  return api.call(routes.twoFactorSetup, { userPwd }, { catchError: true });
}

export function enableTwoFactor(code: string) {
  return api.call(routes.twoFactorEnable, { code }, { catchError: true });
}

export function disableTwoFactor(code: string) {
  return api.call(routes.twoFactorDisable, { code }, { catchError: true });
}
