/** The SQL of customer service: visitors, conversations, messages, canned replies, lines. */
import type { ConversationState } from '@bourse/shared';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import type { StoredImage } from '../../lib/images';

/** Whose conversation: a user's, or a signed-out visitor's. */
export type Person = { userId: number; visitorId?: never } | { visitorId: number; userId?: never };

export interface ConversationRow {
  id: number;
  user_id: number | null;
  user_account: string | null;
  visitor_id: number | null;
  language: string;
  closed: boolean;
  operator_id: number | null;
  operator_name: string | null;
  last_message_id: number | null;
  last_message: string | null;
  last_sender: 'user' | 'operator' | null;
  last_message_at: Date | null;
  person_read_id: number;
  desk_read_id: number;
  unread: number;
  created_at: Date;
}

export interface MessageRow {
  id: number;
  conversation_id: number;
  sender: 'user' | 'operator';
  operator_name: string | null;
  content: string | null;
  image: boolean;
  image_width: number | null;
  image_height: number | null;
  request_hash: string;
  created_at: Date;
}

const CONVERSATION_SELECT = `
  SELECT c.id, c.user_id, u.user_account, c.visitor_id, c.language, c.closed, c.operator_id,
         o.username AS operator_name, c.last_message_id, c.last_sender, c.last_message_at,
         c.person_read_id, c.desk_read_id, c.created_at,
         (SELECT m.content FROM service_message m WHERE m.id = c.last_message_id) AS last_message,
         (SELECT count(*) FROM service_message m
          WHERE m.conversation_id = c.id AND m.sender = 'user' AND m.id > c.desk_read_id)::int
           AS unread
  FROM service_conversation c
  LEFT JOIN app_user u ON u.id = c.user_id
  LEFT JOIN operator o ON o.id = c.operator_id`;

const MESSAGE_SELECT = `
  SELECT m.id, m.conversation_id, m.sender, o.username AS operator_name, m.content,
         m.image_data IS NOT NULL AS image, m.image_width, m.image_height, m.request_hash,
         m.created_at
  FROM service_message m
  LEFT JOIN operator o ON o.id = m.operator_id`;

const personColumn = (person: Person) => (person.userId !== undefined ? 'user_id' : 'visitor_id');
const personId = (person: Person) => person.userId ?? person.visitorId!;

// ------------------------------------------------------------ visitors

export async function insertVisitor(q: Queryable, tokenHash: string, at: Date): Promise<number> {
  const row = await oneRow<{ id: number }>(
    q,
    'INSERT INTO service_visitor (token_hash, created_at) VALUES ($1, $2) RETURNING id',
    [tokenHash, at],
  );
  return row.id;
}

/**
 * Forgets up to `limit` of the oldest visitors created before `before` that have no
 * conversation (they never wrote, or it went to the account they signed in to); answers how many.
 */
export async function pruneVisitors(q: Queryable, before: Date, limit: number): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `DELETE FROM service_visitor WHERE id IN (
       SELECT v.id FROM service_visitor v
        WHERE v.created_at < $1
          AND NOT EXISTS (SELECT 1 FROM service_conversation c WHERE c.visitor_id = v.id)
        ORDER BY v.id LIMIT $2)
     RETURNING id`,
    [before, limit],
  );
  return rows.length;
}

export async function visitorByHash(q: Queryable, tokenHash: string): Promise<number | undefined> {
  const row = await firstRow<{ id: number }>(
    q,
    'SELECT id FROM service_visitor WHERE token_hash = $1',
    [tokenHash],
  );
  return row?.id;
}

// ------------------------------------------------------------ conversations

export function conversationOf(q: Queryable, person: Person): Promise<ConversationRow | undefined> {
  return firstRow<ConversationRow>(
    q,
    `${CONVERSATION_SELECT} WHERE c.${personColumn(person)} = $1`,
    [personId(person)],
  );
}

export function conversationById(q: Queryable, id: number): Promise<ConversationRow | undefined> {
  return firstRow<ConversationRow>(q, `${CONVERSATION_SELECT} WHERE c.id = $1`, [id]);
}

/** Locks a conversation's row (every change to a conversation goes one at a time). */
export async function lockConversation(q: Queryable, id: number): Promise<boolean> {
  const row = await firstRow(q, 'SELECT id FROM service_conversation WHERE id = $1 FOR UPDATE', [
    id,
  ]);
  return row !== undefined;
}

/** The person's conversation, made when there is none yet, and locked. */
export async function openConversation(
  q: Queryable,
  person: Person,
  language: string,
  at: Date,
): Promise<number> {
  const column = personColumn(person);
  await q.query(
    `INSERT INTO service_conversation (${column}, language, created_at) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [personId(person), language, at],
  );
  const row = await oneRow<{ id: number }>(
    q,
    `SELECT id FROM service_conversation WHERE ${column} = $1 FOR UPDATE`,
    [personId(person)],
  );
  return row.id;
}

export async function listConversations(
  q: Queryable,
  state: ConversationState,
  operatorId: number,
  pageNum: number,
  pageSize: number,
): Promise<{ rows: ConversationRow[]; total: number }> {
  const where = {
    new: 'NOT c.closed AND c.operator_id IS NULL',
    mine: 'NOT c.closed AND c.operator_id = $1',
    waiting: "NOT c.closed AND c.operator_id IS NOT NULL AND c.last_sender = 'user'",
    closed: 'c.closed',
  }[state];
  const params = state === 'mine' ? [operatorId] : [];
  const n = params.length;
  const [rows, count] = await Promise.all([
    allRows<ConversationRow>(
      q,
      `${CONVERSATION_SELECT} WHERE ${where}
       ORDER BY c.last_message_at DESC NULLS LAST, c.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, pageSize, (pageNum - 1) * pageSize],
    ),
    oneRow<{ total: number }>(
      q,
      `SELECT count(*)::int AS total FROM service_conversation c WHERE ${where}`,
      params,
    ),
  ]);
  return { rows, total: count.total };
}

export async function setAssignee(
  q: Queryable,
  id: number,
  operatorId: number | null,
): Promise<void> {
  await q.query('UPDATE service_conversation SET operator_id = $2 WHERE id = $1', [id, operatorId]);
}

export async function setClosed(q: Queryable, id: number, closed: boolean): Promise<void> {
  await q.query('UPDATE service_conversation SET closed = $2 WHERE id = $1', [id, closed]);
}

/** A new message is the conversation's last; the person's writes set its language too. */
export async function recordLast(
  q: Queryable,
  id: number,
  message: { id: number; sender: 'user' | 'operator'; at: Date },
  language?: string,
): Promise<void> {
  await q.query(
    `UPDATE service_conversation
     SET last_message_id = $2, last_sender = $3, last_message_at = $4,
         language = COALESCE($5, language)
     WHERE id = $1`,
    [id, message.id, message.sender, message.at, language ?? null],
  );
}

/** Moves the read position of one side forward (never back, never past the last message). */
export async function markRead(
  q: Queryable,
  id: number,
  side: 'person' | 'desk',
  upToId: number,
): Promise<void> {
  const column = side === 'person' ? 'person_read_id' : 'desk_read_id';
  await q.query(
    `UPDATE service_conversation
     SET ${column} = GREATEST(${column}, LEAST($2::bigint, COALESCE(last_message_id, 0)))
     WHERE id = $1`,
    [id, upToId],
  );
}

/**
 * A visitor's conversation becomes the user's: taken over whole when the user has none, else its
 * messages join the user's and it is removed.
 */
export async function linkVisitor(q: Queryable, visitorId: number, userId: number): Promise<void> {
  const visitor = await firstRow<{ id: number }>(
    q,
    'SELECT id FROM service_conversation WHERE visitor_id = $1 FOR UPDATE',
    [visitorId],
  );
  if (!visitor) return;
  const user = await firstRow<{ id: number }>(
    q,
    'SELECT id FROM service_conversation WHERE user_id = $1 FOR UPDATE',
    [userId],
  );
  if (!user) {
    await q.query('UPDATE service_conversation SET user_id = $2, visitor_id = NULL WHERE id = $1', [
      visitor.id,
      userId,
    ]);
    return;
  }
  await q.query('UPDATE service_message SET conversation_id = $2 WHERE conversation_id = $1', [
    visitor.id,
    user.id,
  ]);
  await q.query('DELETE FROM service_conversation WHERE id = $1', [visitor.id]);
  await q.query(
    `UPDATE service_conversation c
     SET last_message_id = m.id, last_sender = m.sender, last_message_at = m.created_at,
         closed = false
     FROM (SELECT id, sender, created_at FROM service_message WHERE conversation_id = $1
           ORDER BY id DESC LIMIT 1) m
     WHERE c.id = $1`,
    [user.id],
  );
}

// ------------------------------------------------------------ messages

export function messageByRequest(
  q: Queryable,
  scope: string,
  requestId: string,
): Promise<MessageRow | undefined> {
  return firstRow<MessageRow>(
    q,
    `${MESSAGE_SELECT} WHERE m.request_scope = $1 AND m.request_id = $2`,
    [scope, requestId],
  );
}

export async function insertMessage(
  q: Queryable,
  message: {
    conversationId: number;
    sender: 'user' | 'operator';
    operatorId: number | null;
    content: string | null;
    image: StoredImage | null;
    scope: string;
    requestId: string;
    requestHash: string;
    at: Date;
  },
): Promise<MessageRow> {
  const { id } = await oneRow<{ id: number }>(
    q,
    `INSERT INTO service_message (conversation_id, sender, operator_id, content, image_mime,
       image_width, image_height, image_sha256, image_data, request_scope, request_id,
       request_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
    [
      message.conversationId,
      message.sender,
      message.operatorId,
      message.content,
      message.image?.mime ?? null,
      message.image?.width ?? null,
      message.image?.height ?? null,
      message.image?.sha256 ?? null,
      message.image?.data ?? null,
      message.scope,
      message.requestId,
      message.requestHash,
      message.at,
    ],
  );
  return oneRow<MessageRow>(q, `${MESSAGE_SELECT} WHERE m.id = $1`, [id]);
}

/** The `pageSize` messages before `beforeId` (the newest without it), oldest first. */
export async function messagesPage(
  q: Queryable,
  conversationId: number,
  beforeId: number | undefined,
  pageSize: number,
): Promise<{ rows: MessageRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    allRows<MessageRow>(
      q,
      `${MESSAGE_SELECT} WHERE m.conversation_id = $1 AND ($2::bigint IS NULL OR m.id < $2)
       ORDER BY m.id DESC LIMIT $3`,
      [conversationId, beforeId ?? null, pageSize],
    ),
    oneRow<{ total: number }>(
      q,
      'SELECT count(*)::int AS total FROM service_message WHERE conversation_id = $1',
      [conversationId],
    ),
  ]);
  return { rows: rows.reverse(), total: count.total };
}

/** The latest message of the person in a conversation (0: none). */
export async function lastPersonMessage(q: Queryable, conversationId: number): Promise<number> {
  const row = await firstRow<{ id: number }>(
    q,
    `SELECT id FROM service_message WHERE conversation_id = $1 AND sender = 'user'
     ORDER BY id DESC LIMIT 1`,
    [conversationId],
  );
  return row?.id ?? 0;
}

export function imageOf(
  q: Queryable,
  messageId: number,
): Promise<{ conversation_id: number; mime: string; data: Uint8Array } | undefined> {
  return firstRow(
    q,
    `SELECT conversation_id, image_mime AS mime, image_data AS data FROM service_message
     WHERE id = $1 AND image_data IS NOT NULL`,
    [messageId],
  );
}

// ------------------------------------------------------------ operators

export function agents(q: Queryable): Promise<{ id: number; username: string }[]> {
  return allRows(
    q,
    `SELECT id, username FROM operator
     WHERE NOT disabled AND roles && ARRAY['support', 'admin']::text[] ORDER BY username`,
  );
}

export function agentById(
  q: Queryable,
  id: number,
): Promise<{ id: number; username: string } | undefined> {
  return firstRow(
    q,
    `SELECT id, username FROM operator
     WHERE id = $1 AND NOT disabled AND roles && ARRAY['support', 'admin']::text[]`,
    [id],
  );
}

// ------------------------------------------------------------ canned replies

export interface CannedRow {
  id: number;
  title: string;
  language: string;
  content: string;
  updated_at: Date;
}

export async function listCanned(
  q: Queryable,
  pageNum: number,
  pageSize: number,
): Promise<{ rows: CannedRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    allRows<CannedRow>(
      q,
      `SELECT id, title, language, content, updated_at FROM service_canned_reply
       ORDER BY language, title, id LIMIT $1 OFFSET $2`,
      [pageSize, (pageNum - 1) * pageSize],
    ),
    oneRow<{ total: number }>(q, 'SELECT count(*)::int AS total FROM service_canned_reply'),
  ]);
  return { rows, total: count.total };
}

export function cannedById(q: Queryable, id: number, lock = false): Promise<CannedRow | undefined> {
  return firstRow<CannedRow>(
    q,
    `SELECT id, title, language, content, updated_at FROM service_canned_reply WHERE id = $1
     ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
}

export function saveCanned(
  q: Queryable,
  id: number | undefined,
  reply: { title: string; language: string; content: string },
  at: Date,
): Promise<CannedRow> {
  return id === undefined
    ? oneRow<CannedRow>(
        q,
        `INSERT INTO service_canned_reply (title, language, content, updated_at)
         VALUES ($1, $2, $3, $4) RETURNING id, title, language, content, updated_at`,
        [reply.title, reply.language, reply.content, at],
      )
    : oneRow<CannedRow>(
        q,
        `UPDATE service_canned_reply SET title = $2, language = $3, content = $4, updated_at = $5
         WHERE id = $1 RETURNING id, title, language, content, updated_at`,
        [id, reply.title, reply.language, reply.content, at],
      );
}

export async function deleteCanned(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM service_canned_reply WHERE id = $1', [id]);
}

// ------------------------------------------------------------ external lines

export interface LineRow {
  id: number;
  kind: 'web' | 'telegram' | 'whatsapp';
  label: string;
  url: string;
  sort: number;
  enabled: boolean;
}

const LINE_COLUMNS = 'id, kind, label, url, sort, enabled';

export function listLines(q: Queryable, enabledOnly: boolean): Promise<LineRow[]> {
  return allRows<LineRow>(
    q,
    `SELECT ${LINE_COLUMNS} FROM service_line ${enabledOnly ? 'WHERE enabled' : ''}
     ORDER BY sort, id`,
  );
}

export function lineById(q: Queryable, id: number): Promise<LineRow | undefined> {
  return firstRow<LineRow>(q, `SELECT ${LINE_COLUMNS} FROM service_line WHERE id = $1 FOR UPDATE`, [
    id,
  ]);
}

export function saveLine(
  q: Queryable,
  id: number | undefined,
  line: Omit<LineRow, 'id'>,
  at: Date,
): Promise<LineRow> {
  const values = [line.kind, line.label, line.url, line.sort, line.enabled, at];
  return id === undefined
    ? oneRow<LineRow>(
        q,
        `INSERT INTO service_line (kind, label, url, sort, enabled, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${LINE_COLUMNS}`,
        values,
      )
    : oneRow<LineRow>(
        q,
        `UPDATE service_line SET kind = $1, label = $2, url = $3, sort = $4, enabled = $5,
           updated_at = $6
         WHERE id = $7 RETURNING ${LINE_COLUMNS}`,
        [...values, id],
      );
}

export async function deleteLine(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM service_line WHERE id = $1', [id]);
}
