/**
 * The calls of the security centre (/api/userSecurity): two-factor authentication; the user's
 * sessions and devices (ending one, or every other), their login history, and their
 * anti-phishing code.
 */
import {
  antiPhishingState,
  endSessionBody,
  loginAttempt,
  loginHistoryQuery,
  securitySession,
  securitySessionsQuery,
  sessionsEnded,
  setAntiPhishingBody,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorRecoveryCodes,
  twoFactorSetup,
  twoFactorSetupBody,
  twoFactorStatus,
  TWO_FACTOR_CODE_HINTS,
} from '../schemas/security';
import { route } from './route';

export const securityApi = {
  twoFactorStatus: route({
    method: 'GET',
    path: '/api/userSecurity/twoFactor/status',
    auth: 'user',
    summary:
      'Whether two-factor authentication is on, set up and waiting, and the recovery codes left.',
    data: twoFactorStatus,
  }),
  twoFactorSetup: route({
    method: 'POST',
    path: '/api/userSecurity/twoFactor/setup',
    auth: 'user',
    summary:
      'Starts setting up two-factor authentication (confirmed with the login password): a new secret and its otpauth:// URI, not yet in force.',
    body: twoFactorSetupBody,
    data: twoFactorSetup,
    hints: ['hint_twoFactorAlreadyOn', 'hint_pwdWrong', 'hint_accountLocked'],
  }),
  twoFactorEnable: route({
    method: 'POST',
    path: '/api/userSecurity/twoFactor/enable',
    auth: 'user',
    summary:
      'Turns two-factor authentication on with a current code of the app; answers the 10 recovery codes, this once.',
    body: twoFactorEnableBody,
    data: twoFactorRecoveryCodes,
    hints: ['hint_twoFactorNotSetUp', 'hint_twoFactorAlreadyOn', ...TWO_FACTOR_CODE_HINTS],
  }),
  twoFactorDisable: route({
    method: 'POST',
    path: '/api/userSecurity/twoFactor/disable',
    auth: 'user',
    summary: 'Turns two-factor authentication off with a current code or a recovery code.',
    body: twoFactorDisableBody,
    hints: ['hint_twoFactorOff', ...TWO_FACTOR_CODE_HINTS],
  }),
  sessions: route({
    method: 'GET',
    path: '/api/userSecurity/sessions',
    auth: 'user',
    summary:
      "The user's live sessions, last used first: device (from the user agent), address, first and last seen, and which one is this one.",
    query: securitySessionsQuery,
    rows: securitySession,
  }),
  endSession: route({
    method: 'POST',
    path: '/api/userSecurity/endSession',
    auth: 'user',
    summary:
      "Ends one of the user's live sessions at once, its sockets signed out (hint_notFound for any other session).",
    body: endSessionBody,
    hints: ['hint_notFound'],
  }),
  endOtherSessions: route({
    method: 'POST',
    path: '/api/userSecurity/endOtherSessions',
    auth: 'user',
    summary: 'Ends every live session of the user but this one, their sockets signed out.',
    data: sessionsEnded,
  }),
  loginHistory: route({
    method: 'GET',
    path: '/api/userSecurity/loginHistory',
    auth: 'user',
    summary:
      "The account's sign-in attempts of the last 90 days, newest first: time, address, device and result (success, wrongPassword, locked, disabled, twoFactorFailed).",
    query: loginHistoryQuery,
    rows: loginAttempt,
  }),
  antiPhishing: route({
    method: 'GET',
    path: '/api/userSecurity/antiPhishing',
    auth: 'user',
    summary: "The user's anti-phishing code (null when none is set).",
    data: antiPhishingState,
  }),
  setAntiPhishing: route({
    method: 'POST',
    path: '/api/userSecurity/setAntiPhishing',
    auth: 'user',
    summary:
      'Sets or changes the anti-phishing code shown in every email the platform sends the user (4–20 letters, digits and spaces), confirmed with the login password and, once two-factor is on, a code; a confirmation email carries it.',
    body: setAntiPhishingBody,
    data: antiPhishingState,
    hints: ['hint_pwdWrong', 'hint_accountLocked', ...TWO_FACTOR_CODE_HINTS],
  }),
};
