/** SQL of operators and the audit log (sessions: src/auth/sessions.ts). */
import { firstRow, oneRow, type Queryable } from '../../db/database';
import { OPERATOR_TWO_FACTOR_ON } from '../../auth/sessions';
import type { OperatorRole } from './roles';

export interface OperatorRow {
  id: number;
  username: string;
  password_hash: string;
  roles: OperatorRole[];
  disabled: boolean;
  created_at: Date;
  updated_at: Date;
  pwd_changed_at: Date | null;
  last_login_at: Date | null;
  /** Whether two-factor is on (OPERATOR_TWO_FACTOR_ON, read with every operator row). */
  two_factor: boolean;
}

/** An operator's row as every query here reads it: its columns and whether two-factor is on. */
const ROW = `*, ${OPERATOR_TWO_FACTOR_ON}`;

export function findOperatorByUsername(q: Queryable, username: string) {
  return firstRow<OperatorRow>(q, `SELECT ${ROW} FROM operator WHERE username = $1`, [username]);
}

export function findOperatorById(q: Queryable, id: number, forUpdate = false) {
  return firstRow<OperatorRow>(
    q,
    `SELECT ${ROW} FROM operator WHERE id = $1${forUpdate ? ' FOR UPDATE OF operator' : ''}`,
    [id],
  );
}

/** Serializes instances that start together on one PostgreSQL database (first-admin creation). */
export async function lockOperatorTable(q: Queryable): Promise<void> {
  await q.query('LOCK TABLE operator IN SHARE ROW EXCLUSIVE MODE');
}

export async function countOperators(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM operator');
  return rows[0]!.n;
}

export async function listOperators(
  q: Queryable,
  limit: number,
  offset: number,
): Promise<{ rows: OperatorRow[]; total: number }> {
  const { rows } = await q.query<OperatorRow & { total: number }>(
    `SELECT ${ROW}, count(*) OVER ()::int AS total FROM operator ORDER BY id LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const total = rows[0]?.total ?? (offset > 0 ? await countOperators(q) : 0);
  return { rows, total };
}

/** Inserts an operator; undefined when the username is taken. */
export function insertOperator(
  q: Queryable,
  operator: { username: string; passwordHash: string; roles: OperatorRole[]; at: Date },
) {
  return firstRow<OperatorRow>(
    q,
    `INSERT INTO operator (username, password_hash, roles, created_at, updated_at)
     VALUES ($1, $2, $3::text[], $4, $4)
     ON CONFLICT (username) DO NOTHING RETURNING ${ROW}`,
    [operator.username, operator.passwordHash, operator.roles, operator.at],
  );
}

export function updateOperator(
  q: Queryable,
  id: number,
  change: { roles: OperatorRole[]; disabled: boolean; at: Date },
) {
  return oneRow<OperatorRow>(
    q,
    `UPDATE operator SET roles = $2::text[], disabled = $3, updated_at = $4 WHERE id = $1 RETURNING ${ROW}`,
    [id, change.roles, change.disabled, change.at],
  );
}

/** Sets a password; `changedAt` null when someone other than the operator set it. */
export function updateOperatorPassword(
  q: Queryable,
  id: number,
  passwordHash: string,
  at: Date,
  changedAt: Date | null,
) {
  return oneRow<OperatorRow>(
    q,
    `UPDATE operator SET password_hash = $2, pwd_changed_at = $4, updated_at = $3 WHERE id = $1 RETURNING ${ROW}`,
    [id, passwordHash, at, changedAt],
  );
}

/** Locks the enabled admins (so two changes cannot remove the last two at once). */
export async function lockActiveAdminIds(q: Queryable): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id FROM operator WHERE 'admin' = ANY (roles) AND NOT disabled ORDER BY id FOR UPDATE`,
  );
  return rows.map((row) => row.id);
}

// ---------------------------------------------------------------- audit log

export interface NewAuditEntry {
  operatorId: number;
  operatorName: string;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  at: Date;
}

export async function insertAudit(q: Queryable, entry: NewAuditEntry): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO audit_log (operator_id, operator_name, action, target_type, target_id, before, after, ip, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9) RETURNING id`,
    [
      entry.operatorId,
      entry.operatorName,
      entry.action,
      entry.targetType,
      entry.targetId,
      entry.before === undefined || entry.before === null ? null : JSON.stringify(entry.before),
      entry.after === undefined || entry.after === null ? null : JSON.stringify(entry.after),
      entry.ip,
      entry.at,
    ],
  );
  return rows[0]!.id;
}

export interface AuditRow {
  id: number;
  operator_id: number;
  operator_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  created_at: Date;
}

export interface AuditFilter {
  operatorId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
  /** At or after. */
  from?: Date;
  /** Before. */
  to?: Date;
}

/** The WHERE clause of an audit filter and its parameters ($1…). */
export function auditWhere(filter: AuditFilter): { clause: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.operatorId !== undefined) add('operator_id = ?', filter.operatorId);
  if (filter.action !== undefined) add('action = ?', filter.action);
  if (filter.targetType !== undefined) add('target_type = ?', filter.targetType);
  if (filter.targetId !== undefined) add('target_id = ?', filter.targetId);
  if (filter.from !== undefined) add('created_at >= ?', filter.from);
  if (filter.to !== undefined) add('created_at < ?', filter.to);
  return { clause: where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', params };
}

/** Newest first. */
export async function listAudit(
  q: Queryable,
  filter: AuditFilter,
  limit: number,
  offset: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  const { clause, params } = auditWhere(filter);
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_log ${clause}`,
    params,
  );
  const total = rows[0]!.n;
  if (total === 0 || offset >= total) return { rows: [], total };
  const page = await q.query<AuditRow>(
    `SELECT * FROM audit_log ${clause} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows: page.rows, total };
}
