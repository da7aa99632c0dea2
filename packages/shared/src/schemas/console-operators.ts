/**
 * Schemas of the operator console's own calls about operators (contract/console-operators.ts):
 * operator sessions (an operator's own, or any operator's for an admin), operators' two-factor
 * authentication and the audit log's export.
 */
import { z } from 'zod';
import { exactText, intField, pageQuery, safeString } from './common';
import { OPERATOR_PASSWORD_MAX, auditQuery, operatorInfo } from './operators';
import { twoFactorCode, twoFactorStatus } from './security';

const id = intField(1, 2_147_483_647);

/** An operator's live sessions, newest first. */
export const operatorSessionsQuery = pageQuery.extend({ operatorId: id });
export const ownSessionsQuery = pageQuery;
export const sessionRevokeBody = z.object({ id });

export const operatorSession = z.object({
  id: z.number().int(),
  operatorId: z.number().int(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable().describe('The browser the operator signed in with.'),
  createTime: z.string().describe('When the operator signed in.'),
  lastSeenTime: z.string(),
  expireTime: z.string().describe('When the session ends unless used again (24 h at most).'),
  current: z.boolean().describe('The session making this call.'),
});
export type OperatorSession = z.output<typeof operatorSession>;

/** The audit log's export: the list's filters, without its paging. */
export const auditExportQuery = auditQuery.omit({ pageNum: true, pageSize: true });
export type AuditExportQuery = z.output<typeof auditExportQuery>;

/** The export holds at most this many entries, the newest that match. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

// ---------------------------------------------------------------- operators' two-factor

/** The roles whose operators must have two-factor on before any other call (PRODUCT section 2). */
export const TWO_FACTOR_ROLES = ['admin', 'finance'] as const;

/** What the sign-in answers in place of a session when the operator has two-factor on. */
export const operatorTwoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z
    .string()
    .describe('Sent back with a code to /admin-api/auth/loginTwoFactor, within 5 minutes.'),
});
export type OperatorTwoFactorChallenge = z.output<typeof operatorTwoFactorChallenge>;

export const operatorLoginTwoFactorBody = z.object({
  challenge: exactText(64),
  code: twoFactorCode.describe('A current code of the authenticator app, or a recovery code.'),
});

export const operatorTwoFactorStatus = twoFactorStatus.extend({
  required: z
    .literal([0, 1])
    .describe('1 when a role of the operator (admin, finance) requires two-factor.'),
});
export type OperatorTwoFactorStatus = z.output<typeof operatorTwoFactorStatus>;

export const operatorTwoFactorSetupBody = z.object({
  password: safeString(OPERATOR_PASSWORD_MAX).min(1).describe("The operator's password."),
});

/** An admin's reset of another operator's two-factor (a lost device). */
export const operatorTwoFactorResetBody = z.object({ id });

export const operatorTwoFactorReset = z.object({
  operator: operatorInfo,
  sessionsEnded: z.number().int().describe("The operator's sessions the reset ended."),
});
