/**
 * The operator console's calls about operators themselves: an operator's sessions (their own, and
 * any operator's for an admin) and the audit log's export. Every other operator call of
 * /admin-api is in operators.ts; like those, none of these moves money or sets a price.
 */
import {
  auditExportQuery,
  operatorSession,
  operatorSessionsQuery,
  ownSessionsQuery,
  sessionRevokeBody,
} from '../schemas/console-operators';
import { ROUTE_ROLES, route } from './route';

const { ADMIN } = ROUTE_ROLES;

export const consoleOperatorsApi = {
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
