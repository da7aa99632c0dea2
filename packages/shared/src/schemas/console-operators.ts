/**
 * Schemas of the operator console's own calls about operators (contract/console-operators.ts):
 * operator sessions (an operator's own, or any operator's for an admin) and the audit log's export.
 */
import { z } from 'zod';
import { intField, pageQuery } from './common';
import { auditQuery } from './operators';

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
