/** SQL of operators' sessions as the console lists them, and of the audit log's export. */
import { allRows, firstRow, type Queryable } from '../../db/database';
import { auditWhere, type AuditFilter, type AuditRow } from './repo';

export interface OperatorSessionRow {
  id: number;
  operator_id: number;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

const LIVE = 'operator_id = $1 AND revoked_at IS NULL AND expires_at > $2';

/** An operator's live sessions (not ended, not expired at `now`), newest first. */
export async function listLiveSessions(
  q: Queryable,
  operatorId: number,
  now: Date,
  limit: number,
  offset: number,
): Promise<{ rows: OperatorSessionRow[]; total: number }> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM operator_session WHERE ${LIVE}`,
    [operatorId, now],
  );
  const total = rows[0]!.n;
  if (total === 0 || offset >= total) return { rows: [], total };
  const page = await allRows<OperatorSessionRow>(
    q,
    `SELECT id, operator_id, ip, user_agent, created_at, last_seen_at, expires_at
     FROM operator_session WHERE ${LIVE} ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [operatorId, now, limit, offset],
  );
  return { rows: page, total };
}

/** A live session (not ended, not expired at `now`), locked for its end. */
export function findLiveSession(q: Queryable, id: number, now: Date) {
  return firstRow<OperatorSessionRow>(
    q,
    `SELECT id, operator_id, ip, user_agent, created_at, last_seen_at, expires_at
     FROM operator_session WHERE id = $1 AND revoked_at IS NULL AND expires_at > $2 FOR UPDATE`,
    [id, now],
  );
}

/** The newest `limit` audit entries of a filter, newest first. */
export function exportAudit(q: Queryable, filter: AuditFilter, limit: number) {
  const { clause, params } = auditWhere(filter);
  return allRows<AuditRow>(
    q,
    `SELECT * FROM audit_log ${clause} ORDER BY id DESC LIMIT $${params.length + 1}`,
    [...params, limit],
  );
}
