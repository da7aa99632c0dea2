/**
 * The operator console's calls about operators themselves: an operator's sessions (their own, and
 * any operator's for an admin), their two-factor authentication (required for the admin and
 * finance roles) and the audit log's export. Every other operator call of
 * /admin-api is in operators.ts; like those, none of these moves money or sets a price.
 */
import {
  auditExportQuery,
  operatorLoginTwoFactorBody,
  operatorSession,
  operatorSessionsQuery,
  operatorTwoFactorReset,
  operatorTwoFactorResetBody,
  operatorTwoFactorSetupBody,
  operatorTwoFactorStatus,
  ownSessionsQuery,
  sessionRevokeBody,
} from '../schemas/console-operators';
import { operatorSignedIn } from '../schemas/operators';
import {
  TWO_FACTOR_CODE_HINTS,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorRecoveryCodes,
  twoFactorSetup,
} from '../schemas/security';
import { ROUTE_ROLES, route } from './route';

const { ADMIN } = ROUTE_ROLES;

export const consoleOperatorsApi = {
  // ---------------------------------------------------------------- two-factor (every operator)

  signInTwoFactor: route({
    method: 'POST',
    path: '/admin-api/auth/loginTwoFactor',
    auth: 'public',
    summary:
      "The second step of an operator's sign-in with two-factor on: the sign-in's challenge and a current code (or a recovery code); answers the session.",
    body: operatorLoginTwoFactorBody,
    encoding: 'json',
    data: operatorSignedIn,
    hints: ['hint_twoFactorChallengeExpired', 'hint_accountDisabled', ...TWO_FACTOR_CODE_HINTS],
  }),
  twoFactorStatus: route({
    method: 'GET',
    path: '/admin-api/auth/twoFactor/status',
    auth: 'operator',
    summary:
      "The operator's two-factor: on, waiting for its first code, recovery codes left, and whether a role requires it.",
    data: operatorTwoFactorStatus,
  }),
  twoFactorSetup: route({
    method: 'POST',
    path: '/admin-api/auth/twoFactor/setup',
    auth: 'operator',
    summary:
      'Starts setting two-factor up (confirmed with the password): a new secret and its otpauth URI for the QR code; on once a code confirms it.',
    body: operatorTwoFactorSetupBody,
    encoding: 'json',
    data: twoFactorSetup,
    hints: ['hint_twoFactorAlreadyOn', 'hint_pwdWrong', 'hint_accountLocked'],
  }),
  twoFactorEnable: route({
    method: 'POST',
    path: '/admin-api/auth/twoFactor/enable',
    auth: 'operator',
    summary:
      'Turns two-factor on with a first code of the app; answers the 10 recovery codes, shown this once.',
    body: twoFactorEnableBody,
    encoding: 'json',
    data: twoFactorRecoveryCodes,
    hints: ['hint_twoFactorNotSetUp', 'hint_twoFactorAlreadyOn', ...TWO_FACTOR_CODE_HINTS],
  }),
  twoFactorDisable: route({
    method: 'POST',
    path: '/admin-api/auth/twoFactor/disable',
    auth: 'operator',
    summary:
      'Turns two-factor off with a current code or a recovery code (to move it to a new device: an admin or finance operator must set it up again before any other call).',
    body: twoFactorDisableBody,
    encoding: 'json',
    hints: ['hint_twoFactorOff', ...TWO_FACTOR_CODE_HINTS],
  }),
  resetOperatorTwoFactor: route({
    method: 'POST',
    path: '/admin-api/operators/twoFactor/reset',
    auth: 'operator',
    roles: ADMIN,
    summary:
      "Removes another operator's two-factor (a lost device) and ends their sessions; they set it up again at their next sign-in. Audited.",
    body: operatorTwoFactorResetBody,
    encoding: 'json',
    data: operatorTwoFactorReset,
    hints: ['hint_operatorNotFound', 'hint_operatorSelfTwoFactor', 'hint_twoFactorOff'],
  }),

  // ---------------------------------------------------------------- the operator's own sessions

  sessions: route({
    method: 'GET',
    path: '/admin-api/auth/sessions',
    auth: 'operator',
    summary:
      "The signed-in operator's live sessions, newest first; `current` marks the one making the call.",
    query: ownSessionsQuery,
    rows: operatorSession,
  }),
  revokeSession: route({
    method: 'POST',
    path: '/admin-api/auth/sessions/revoke',
    auth: 'operator',
    summary: "Ends one of the operator's own sessions: its next call is refused.",
    body: sessionRevokeBody,
    encoding: 'json',
    hints: ['hint_sessionNotFound'],
  }),

  // ---------------------------------------------------------------- any operator's (admin)

  operatorSessions: route({
    method: 'GET',
    path: '/admin-api/operators/sessions',
    auth: 'operator',
    roles: ADMIN,
    summary: "An operator's live sessions, newest first.",
    query: operatorSessionsQuery,
    rows: operatorSession,
    hints: ['hint_operatorNotFound'],
  }),
  revokeOperatorSession: route({
    method: 'POST',
    path: '/admin-api/operators/sessions/revoke',
    auth: 'operator',
    roles: ADMIN,
    summary: 'Ends a session of any operator: its next call is refused.',
    body: sessionRevokeBody,
    encoding: 'json',
    hints: ['hint_sessionNotFound'],
  }),

  // ---------------------------------------------------------------- audit log (admin)

  auditExport: route({
    method: 'GET',
    path: '/admin-api/audit/export',
    auth: 'operator',
    roles: ADMIN,
    summary:
      'The audit log filtered as the list is, as CSV (UTF-8 with a byte-order mark), newest first, at most 10,000 entries; before and after as JSON.',
    query: auditExportQuery,
    file: true,
    contentType: 'text/csv',
  }),
};
