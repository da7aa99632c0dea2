/** SQL of site messages, their types and notifications. */
import { type Queryable } from '../../db/database';

// ------------------------------------------------------------------ site messages

/** When a message is seen: its publishing time, or when it was written. */
const SHOWN_AT = 'coalesce(m.publish_at, m.created_at)';

/**
 * What a user ($1) may read at $2: their own messages and every announcement, published by then
 * and not withdrawn.
 */
const VISIBLE = `(m.user_id = $1 OR m.user_id IS NULL) AND m.withdrawn_at IS NULL AND ${SHOWN_AT} <= $2`;

/**
 * Read: marked read, or an announcement published before the user joined (older news: listed, but
 * never counted unread).
 */
const READ_FLAG = `CASE WHEN r.message_id IS NOT NULL
    OR (m.user_id IS NULL AND ${SHOWN_AT} < (SELECT created_at FROM app_user WHERE id = $1))
  THEN 1 ELSE 0 END`;

export interface MessageRow {
  id: number;
  user_id: number | null;
  type_id: number;
  type_name: Record<string, string>;
  type_name_key: string | null;
  title: Record<string, string>;
  content: Record<string, string>;
  shown_at: Date;
  read_flag: number;
}

const MESSAGE_SELECT = `SELECT m.id, m.user_id, m.type_id, t.name AS type_name, t.name_key AS type_name_key,
    m.title, m.content, ${SHOWN_AT} AS shown_at, ${READ_FLAG} AS read_flag
  FROM site_message m
  JOIN site_message_type t ON t.id = m.type_id
  LEFT JOIN site_message_read r ON r.message_id = m.id AND r.user_id = $1`;

export interface MessageFilter {
  typeId?: number;
  /** 1 announcements, 2 personal messages. */
  kind?: number;
  limit: number;
  offset: number;
}

/** A page of the messages a user may read, newest first. */
export async function listVisible(
  q: Queryable,
  userId: number,
  now: Date,
  filter: MessageFilter,
): Promise<{ rows: MessageRow[]; total: number }> {
  const params: unknown[] = [userId, now];
  let where = VISIBLE;
  if (filter.typeId !== undefined) {
    params.push(filter.typeId);
    where += ` AND m.type_id = $${params.length}`;
  }
  if (filter.kind === 1) where += ' AND m.user_id IS NULL';
  if (filter.kind === 2) where += ' AND m.user_id IS NOT NULL';
  const [page, count] = await Promise.all([
    q.query<MessageRow>(
      `${MESSAGE_SELECT} WHERE ${where} ORDER BY ${SHOWN_AT} DESC, m.id DESC
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    ),
    q.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM site_message m WHERE ${where}`,
      params,
    ),
  ]);
  return { rows: page.rows, total: count.rows[0]?.total ?? 0 };
}

/** One message the user may read at `now`. */
export async function findVisible(
  q: Queryable,
  userId: number,
  id: number,
  now: Date,
): Promise<MessageRow | undefined> {
  const { rows } = await q.query<MessageRow>(`${MESSAGE_SELECT} WHERE m.id = $3 AND ${VISIBLE}`, [
    userId,
    now,
    id,
  ]);
  return rows[0];
}

/**
 * Marks a message read when the user may read it; reading it again changes nothing. Answers
 * whether it is readable (false: unknown, another user's, withdrawn or not yet published).
 */
export async function markRead(
  q: Queryable,
  userId: number,
  id: number,
  now: Date,
): Promise<boolean> {
  const { rows } = await q.query<{ id: number }>(
    `WITH target AS (SELECT m.id FROM site_message m WHERE m.id = $3 AND ${VISIBLE}),
       marked AS (
         INSERT INTO site_message_read (message_id, user_id, read_at)
         SELECT id, $1, $2 FROM target
         ON CONFLICT (user_id, message_id) DO NOTHING
       )
     SELECT id FROM target`,
    [userId, now, id],
  );
  return rows.length > 0;
}

/** Unread messages a user may read at `now` and unread notifications, in one statement. */
export async function countUnread(
  q: Queryable,
  userId: number,
  now: Date,
): Promise<{ messages: number; notifications: number }> {
  const { rows } = await q.query<{ messages: number; notifications: number }>(
    `SELECT
       (SELECT count(*)::int FROM site_message m
         WHERE (m.user_id = $1
             OR (m.user_id IS NULL AND ${SHOWN_AT} >= (SELECT created_at FROM app_user WHERE id = $1)))
           AND m.withdrawn_at IS NULL AND ${SHOWN_AT} <= $2
           AND NOT EXISTS (SELECT 1 FROM site_message_read r WHERE r.message_id = m.id AND r.user_id = $1)
       ) AS messages,
       (SELECT count(*)::int FROM user_notification n WHERE n.user_id = $1 AND n.read_at IS NULL)
         AS notifications`,
    [userId, now],
  );
  return rows[0] ?? { messages: 0, notifications: 0 };
}

// ------------------------------------------------------------------ types

export interface TypeRow {
  id: number;
  name: Record<string, string>;
  name_key: string | null;
  sort: number;
  enabled: boolean;
  message_count: number;
}

export async function listTypes(q: Queryable, enabledOnly: boolean): Promise<TypeRow[]> {
  const { rows } = await q.query<TypeRow>(
    `SELECT t.id, t.name, t.name_key, t.sort, t.enabled,
       (SELECT count(*)::int FROM site_message m WHERE m.type_id = t.id) AS message_count
     FROM site_message_type t ${enabledOnly ? 'WHERE t.enabled' : ''}
     ORDER BY t.sort, t.id`,
  );
  return rows;
}

export async function findType(q: Queryable, id: number): Promise<TypeRow | undefined> {
  const { rows } = await q.query<TypeRow>(
    `SELECT t.id, t.name, t.name_key, t.sort, t.enabled,
       (SELECT count(*)::int FROM site_message m WHERE m.type_id = t.id) AS message_count
     FROM site_message_type t WHERE t.id = $1`,
    [id],
  );
  return rows[0];
}

/** Creates (no id) or changes a type; answers its id, or undefined when the id is unknown. */
export async function saveType(
  q: Queryable,
  type: { id?: number; name: Record<string, string>; sort: number; enabled: boolean },
  now: Date,
): Promise<number | undefined> {
  const { rows } =
    type.id === undefined
      ? await q.query<{ id: number }>(
          `INSERT INTO site_message_type (name, sort, enabled, created_at) VALUES ($1, $2, $3, $4)
           RETURNING id`,
          [JSON.stringify(type.name), type.sort, type.enabled, now],
        )
      : await q.query<{ id: number }>(
          `UPDATE site_message_type SET name = $2, sort = $3, enabled = $4 WHERE id = $1 RETURNING id`,
          [type.id, JSON.stringify(type.name), type.sort, type.enabled],
        );
  return rows[0]?.id;
}

// ------------------------------------------------------------------ console

export interface ConsoleMessageRow {
  id: number;
  type_id: number;
  type_name: Record<string, string>;
  type_name_key: string | null;
  user_id: number | null;
  user_account: string | null;
  title: Record<string, string>;
  content: Record<string, string>;
  shown_at: Date;
  created_at: Date;
  withdrawn_at: Date | null;
  read_count: number;
  audience: number;
}

const CONSOLE_SELECT = `SELECT m.id, m.type_id, t.name AS type_name, t.name_key AS type_name_key,
    m.user_id, u.user_account, m.title, m.content, ${SHOWN_AT} AS shown_at, m.created_at,
    m.withdrawn_at,
    (SELECT count(*)::int FROM site_message_read r WHERE r.message_id = m.id) AS read_count,
    CASE WHEN m.user_id IS NULL
      THEN (SELECT count(*)::int FROM app_user a WHERE a.created_at <= ${SHOWN_AT})
      ELSE 1 END AS audience
  FROM site_message m
  JOIN site_message_type t ON t.id = m.type_id
  LEFT JOIN app_user u ON u.id = m.user_id`;

export async function listForConsole(
  q: Queryable,
  filter: MessageFilter & { userId?: number },
): Promise<{ rows: ConsoleMessageRow[]; total: number }> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (filter.typeId !== undefined) {
    params.push(filter.typeId);
    where.push(`m.type_id = $${params.length}`);
  }
  if (filter.userId !== undefined) {
    params.push(filter.userId);
    where.push(`m.user_id = $${params.length}`);
  }
  if (filter.kind === 1) where.push('m.user_id IS NULL');
  if (filter.kind === 2) where.push('m.user_id IS NOT NULL');
  // The platform's own messages (each new user's welcome) only in a user's list.
  if (filter.userId === undefined) where.push('m.created_by IS NOT NULL');
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [page, count] = await Promise.all([
    q.query<ConsoleMessageRow>(
      `${CONSOLE_SELECT} ${clause} ORDER BY m.id DESC
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    ),
    q.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM site_message m ${clause}`,
      params,
    ),
  ]);
  return { rows: page.rows, total: count.rows[0]?.total ?? 0 };
}

export async function findForConsole(
  q: Queryable,
  id: number,
  lock = false,
): Promise<ConsoleMessageRow | undefined> {
  if (lock) await q.query('SELECT id FROM site_message WHERE id = $1 FOR UPDATE', [id]);
  const { rows } = await q.query<ConsoleMessageRow>(`${CONSOLE_SELECT} WHERE m.id = $1`, [id]);
  return rows[0];
}

/** A user by id (digits) or by account (email, or phone with or without its area code). */
export async function findUserId(q: Queryable, account: string): Promise<number | undefined> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id FROM app_user
     WHERE ($1 ~ '^[0-9]{1,18}$' AND id = $1::bigint)
        OR user_account = $1 OR email = lower($1) OR phone = $1
     ORDER BY (id::text = $1) DESC, id LIMIT 1`,
    [account],
  );
  return rows[0]?.id;
}

export interface MessageValues {
  typeId: number;
  userId: number | null;
  title: Record<string, string>;
  content: Record<string, string>;
  publishAt: Date;
}

export async function insertMessage(
  q: Queryable,
  values: MessageValues,
  operatorId: number,
  now: Date,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO site_message (user_id, type_id, title, content, publish_at, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      values.userId,
      values.typeId,
      JSON.stringify(values.title),
      JSON.stringify(values.content),
      values.publishAt,
      operatorId,
      now,
    ],
  );
  return rows[0]!.id;
}

export async function updateMessage(q: Queryable, id: number, values: MessageValues) {
  await q.query(
    `UPDATE site_message SET user_id = $2, type_id = $3, title = $4, content = $5, publish_at = $6
     WHERE id = $1`,
    [
      id,
      values.userId,
      values.typeId,
      JSON.stringify(values.title),
      JSON.stringify(values.content),
      values.publishAt,
    ],
  );
}

export async function withdrawMessage(q: Queryable, id: number, now: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE site_message SET withdrawn_at = $2 WHERE id = $1 AND withdrawn_at IS NULL',
    [id, now],
  );
  return (rowCount ?? 0) > 0;
}

// ------------------------------------------------------------------ notifications

export interface NotificationInput {
  user_id: number;
  type: string;
  ref: string;
  params: string[];
  link_route: string | null;
  link_query: Record<string, string> | null;
}

export interface NotificationRow extends NotificationInput {
  id: number;
  created_at: Date;
  read_at: Date | null;
}

/**
 * Writes notifications in one statement; an event written before (its user and ref) is left
 * as it is and not answered.
 */
export async function insertNotifications(
  q: Queryable,
  items: readonly NotificationInput[],
  now: Date,
): Promise<NotificationRow[]> {
  if (items.length === 0) return [];
  const { rows } = await q.query<NotificationRow>(
    `INSERT INTO user_notification (user_id, type, ref, params, link_route, link_query, created_at)
     SELECT x.user_id, x.type, x.ref, x.params, x.link_route, x.link_query, $2
     FROM jsonb_to_recordset($1::jsonb)
       AS x(user_id bigint, type text, ref text, params jsonb, link_route text, link_query jsonb)
     ON CONFLICT (user_id, ref) DO NOTHING
     RETURNING id, user_id, type, ref, params, link_route, link_query, created_at, read_at`,
    [JSON.stringify(items), now],
  );
  return rows;
}

export async function listNotifications(
  q: Queryable,
  userId: number,
  limit: number,
  offset: number,
): Promise<{ rows: NotificationRow[]; total: number }> {
  const [page, count] = await Promise.all([
    q.query<NotificationRow>(
      `SELECT id, user_id, type, ref, params, link_route, link_query, created_at, read_at
       FROM user_notification WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    ),
    q.query<{ total: number }>(
      'SELECT count(*)::int AS total FROM user_notification WHERE user_id = $1',
      [userId],
    ),
  ]);
  return { rows: page.rows, total: count.rows[0]?.total ?? 0 };
}

/**
 * Marks one of the user's notifications read (or all when `id` is undefined). Answers how many
 * were unread, and for one whether it is the user's at all.
 */
export async function markNotificationsRead(
  q: Queryable,
  userId: number,
  id: number | undefined,
  now: Date,
): Promise<{ changed: number; found: boolean }> {
  if (id === undefined) {
    const { rowCount } = await q.query(
      'UPDATE user_notification SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL',
      [userId, now],
    );
    return { changed: rowCount ?? 0, found: true };
  }
  const { rows } = await q.query<{ changed: boolean }>(
    `WITH target AS (SELECT id, read_at FROM user_notification WHERE id = $3 AND user_id = $1),
       marked AS (
         UPDATE user_notification n SET read_at = $2 FROM target
         WHERE n.id = target.id AND target.read_at IS NULL RETURNING n.id
       )
     SELECT EXISTS (SELECT 1 FROM marked) AS changed FROM target`,
    [userId, now, id],
  );
  const row = rows[0];
  return { changed: row?.changed ? 1 : 0, found: row !== undefined };
}

/** A seeded type renamed by an operator: its names are the operator's from now on. */
export async function clearTypeNameKey(q: Queryable, id: number): Promise<void> {
  await q.query('UPDATE site_message_type SET name_key = NULL WHERE id = $1', [id]);
}
