/**
 * Customer service (issue 21): a live chat between a person (a signed-in user, or a signed-out
 * visitor holding a token the server issued) and the support desk. One conversation per person;
 * the person's first message makes it, a message to a closed one opens it again (unassigned, so
 * it is back in the desk's "new" list). Every message is written once: the sender's request id
 * answers a retry with the first message, one transaction per message with the conversation's row
 * locked, so the conversation's last message and read positions never disagree with its messages.
 * Images are decoded and re-encoded before the transaction (lib/images through the proofs' rules).
 *
 * After each commit the other side hears it at once: the person on `/ws` topic `service` (through
 * the bus with several instances), the consoles on their event stream (queue `service`). Operators'
 * actions on conversations, canned replies and lines are audited in the transaction that makes
 * them.
 */
import {
  isServiceLineUrl,
  type CannedReply,
  type CannedReplySaveBody,
  type ConsoleSendBody,
  type ConversationListQuery,
  type LanguageKey,
  type ServiceConversation,
  type ServiceLine,
  type ServiceLineRow,
  type ServiceLineSaveBody,
  type ServiceMessage,
  type ServiceMessagesQuery,
  type ServiceSendBody,
  SERVICE_VISITOR_KEEP_DAYS,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newToken, sha256 } from '../../lib/secrets';
import { fingerprint, parseProofImage, type AuditWriter } from '../wallet';
import {
  agentById,
  agents,
  cannedById,
  conversationById,
  conversationOf,
  deleteCanned,
  deleteLine,
  imageOf,
  insertMessage,
  insertVisitor,
  pruneVisitors,
  lastPersonMessage,
  lineById,
  linkVisitor,
  listCanned,
  listConversations,
  listLines,
  lockConversation,
  markRead,
  messageByRequest,
  messagesPage,
  openConversation,
  recordLast,
  saveCanned,
  saveLine,
  setAssignee,
  setClosed,
  visitorByHash,
  type CannedRow,
  type ConversationRow,
  type MessageRow,
  type Person,
} from './repo';

/** What the person's app hears on `/ws` topic `service`. */
export type PersonEvent =
  | { type: 'message'; message: ServiceMessage }
  | { type: 'read'; readUpTo: number }
  | { type: 'typing' };

/** What the consoles hear on their event stream (queue `service`, id: the conversation). */
export interface DeskEvent {
  type: 'message' | 'read' | 'typing' | 'assigned' | 'closed';
  sender?: 'user' | 'operator';
  messageId?: number;
}

export interface ServiceDeps {
  db: Database;
  clock: Clock;
  /** To the person's open apps (every instance): a user's private topic, or a visitor's. */
  notifyPerson(person: Person, event: PersonEvent): void;
  /** To every console's inbox (every instance). */
  notifyDesk(conversationId: number, event: DeskEvent): void;
}

/** Who calls from the app: the signed-in user, or the visitor whose token came with the call. */
export interface Caller {
  userId: number | null;
  visitorToken?: string;
  language: LanguageKey;
}

/** An operator acting in the console. */
export interface DeskActor {
  operatorId: number;
}

function toMessage(
  row: MessageRow,
  conversation: { person_read_id: number; desk_read_id: number },
) {
  const readBy = row.sender === 'user' ? conversation.desk_read_id : conversation.person_read_id;
  return {
    id: row.id,
    conversationId: row.conversation_id,
    sender: row.sender,
    operatorName: row.operator_name,
    content: row.content,
    image: row.image,
    imageWidth: row.image_width,
    imageHeight: row.image_height,
    read: row.id <= readBy,
    createTime: row.created_at.toISOString(),
  } satisfies ServiceMessage;
}

/**
 * A message as the person's app reads it: from "the desk", never with an operator's name (an
 * operator's username is what they sign in to the console with).
 */
const forPerson = (message: ServiceMessage): ServiceMessage => ({ ...message, operatorName: null });

function toConversation(row: ConversationRow): ServiceConversation {
  return {
    id: row.id,
    userId: row.user_id,
    userAccount: row.user_account,
    visitorId: row.visitor_id,
    language: row.language,
    closed: row.closed,
    operatorId: row.operator_id,
    operatorName: row.operator_name,
    lastMessage: row.last_message,
    lastSender: row.last_sender,
    lastMessageTime: row.last_message_at ? row.last_message_at.toISOString() : null,
    unread: row.unread,
    personReadUpTo: row.person_read_id,
    createTime: row.created_at.toISOString(),
  };
}

const toCanned = (row: CannedRow): CannedReply => ({
  id: row.id,
  title: row.title,
  language: row.language,
  content: row.content,
  updateTime: row.updated_at.toISOString(),
});

const personOf = (row: ConversationRow): Person =>
  row.user_id !== null ? { userId: row.user_id } : { visitorId: row.visitor_id! };

const noRead = { person_read_id: 0, desk_read_id: 0 };

const DAY_MS = 86_400_000;
/** Unused visitor identities forgotten with each new one (more than come, so none pile up). */
const VISITORS_PRUNED_AT_ONCE = 20;
const FOREIGN_KEY_VIOLATION = '23503';

export class ServiceDesk {
  constructor(private readonly deps: ServiceDeps) {}

  // ------------------------------------------------------------ the person's side

  /**
   * A new visitor identity: its token, known to the server only by its hash. Each new one
   * forgets a few identities unused for SERVICE_VISITOR_KEEP_DAYS, so the table keeps pace with
   * the visitors that come without a job of its own.
   */
  async newVisitor(): Promise<{ visitorToken: string }> {
    const token = newToken();
    const now = this.deps.clock.now();
    await insertVisitor(this.deps.db, sha256(token), now);
    try {
      await pruneVisitors(
        this.deps.db,
        new Date(now.getTime() - SERVICE_VISITOR_KEEP_DAYS * DAY_MS),
        VISITORS_PRUNED_AT_ONCE,
      );
    } catch (error) {
      // An old visitor writing its first message just then keeps its identity (its conversation
      // refers to it); the others are forgotten with the next new visitor.
      if ((error as { code?: string } | null)?.code !== FOREIGN_KEY_VIOLATION) throw error;
    }
    return { visitorToken: token };
  }

  /** The visitor of a token (null: none). */
  async visitorOf(token: string): Promise<number | null> {
    return (await visitorByHash(this.deps.db, sha256(token))) ?? null;
  }

  /**
   * Who the caller is: a signed-in user (whose call carrying a visitor's token links that
   * visitor's conversation to the account), else the visitor of the token; neither is
   * `hint_visitorUnknown` (403: the app asks for a visitor identity again).
   */
  private async person(caller: Caller): Promise<Person> {
    const visitorId = caller.visitorToken ? await this.visitorOf(caller.visitorToken) : null;
    if (caller.userId !== null) {
      const userId = caller.userId;
      if (visitorId !== null)
        await this.deps.db.transaction((tx) => linkVisitor(tx, visitorId, userId));
      return { userId };
    }
    if (visitorId === null) throw new AppError('hint_visitorUnknown', 403);
    return { visitorId };
  }

  async messages(caller: Caller, query: ServiceMessagesQuery) {
    const person = await this.person(caller);
    const conversation = await conversationOf(this.deps.db, person);
    if (!conversation) return { rows: [], total: 0 };
    const page = await messagesPage(this.deps.db, conversation.id, query.beforeId, query.pageSize);
    return {
      rows: page.rows.map((row) => forPerson(toMessage(row, conversation))),
      total: page.total,
    };
  }

  async send(caller: Caller, body: ServiceSendBody): Promise<ServiceMessage> {
    const person = await this.person(caller);
    const scope =
      person.userId !== undefined ? `user:${person.userId}` : `visitor:${person.visitorId}`;
    const hash = fingerprint({ content: body.content, image: body.image?.length ?? null });
    const earlier = await this.earlier(scope, body.requestId, hash);
    if (earlier) return earlier;
    const image = body.image
      ? await parseProofImage(body.image, 'hint_imageFormat', 'image')
      : null;
    const at = this.deps.clock.now();
    const { message, conversation } = await this.deps.db.transaction(async (tx) => {
      const id = await openConversation(tx, person, caller.language, at);
      const first = await messageByRequest(tx, scope, body.requestId);
      if (first) return { message: first, conversation: null };
      const before = (await conversationById(tx, id))!;
      if (before.closed) {
        await setClosed(tx, id, false);
        await setAssignee(tx, id, null);
      }
      const row = await insertMessage(tx, {
        conversationId: id,
        sender: 'user',
        operatorId: null,
        content: body.content ?? null,
        image,
        scope,
        requestId: body.requestId,
        requestHash: hash,
        at,
      });
      await recordLast(tx, id, { id: row.id, sender: 'user', at }, caller.language);
      return { message: row, conversation: before };
    });
    if (!conversation) return this.checked(message, hash);
    const answer = toMessage(message, conversation);
    this.deps.notifyPerson(person, { type: 'message', message: answer });
    // A message that opened a closed conversation again is news like any other.
    this.deps.notifyDesk(answer.conversationId, {
      type: 'message',
      sender: 'user',
      messageId: answer.id,
    });
    return answer;
  }

  /** The person has read the desk's messages up to `upToId`. */
  async read(caller: Caller, upToId: number) {
    const person = await this.person(caller);
    const conversation = await conversationOf(this.deps.db, person);
    if (!conversation) return { conversationId: null, readUpTo: 0 };
    if (upToId > conversation.person_read_id) {
      await markRead(this.deps.db, conversation.id, 'person', upToId);
      this.deps.notifyDesk(conversation.id, { type: 'read' });
    }
    return { conversationId: conversation.id, readUpTo: conversation.desk_read_id };
  }

  async typing(caller: Caller): Promise<void> {
    const person = await this.person(caller);
    const conversation = await conversationOf(this.deps.db, person);
    if (conversation) this.deps.notifyDesk(conversation.id, { type: 'typing' });
  }

  /** An image of the caller's own conversation (null: none, or not theirs). */
  async ownImage(caller: Caller, messageId: number) {
    const person = await this.person(caller);
    const [conversation, image] = await Promise.all([
      conversationOf(this.deps.db, person),
      imageOf(this.deps.db, messageId),
    ]);
    return image && conversation && image.conversation_id === conversation.id ? image : null;
  }

  async lines(): Promise<ServiceLine[]> {
    const rows = await listLines(this.deps.db, true);
    return rows.map(({ id, kind, label, url }) => ({ id, kind, label, url }));
  }

  /** The message a request id already made, when its fingerprint matches (else refused). */
  private async earlier(scope: string, requestId: string, hash: string) {
    const row = await messageByRequest(this.deps.db, scope, requestId);
    if (!row) return null;
    return this.checked(row, hash);
  }

  private async checked(row: MessageRow, hash: string): Promise<ServiceMessage> {
    if (row.request_hash !== hash) throw new AppError('hint_requestIdReused', 409);
    const conversation = await conversationById(this.deps.db, row.conversation_id);
    return toMessage(row, conversation ?? noRead);
  }

  // ------------------------------------------------------------ the desk's side

  async conversations(query: ConversationListQuery, desk: DeskActor) {
    const page = await listConversations(
      this.deps.db,
      query.state,
      desk.operatorId,
      query.pageNum,
      query.pageSize,
    );
    return { rows: page.rows.map(toConversation), total: page.total };
  }

  async conversation(id: number): Promise<ServiceConversation> {
    return toConversation(await this.found(this.deps.db, id));
  }

  private async found(q: Queryable, id: number): Promise<ConversationRow> {
    const row = await conversationById(q, id);
    if (!row) throw new AppError('hint_conversationNotFound', 404, ['id']);
    return row;
  }

  async deskMessages(id: number, beforeId: number | undefined, pageSize: number) {
    const conversation = await this.found(this.deps.db, id);
    const page = await messagesPage(this.deps.db, id, beforeId, pageSize);
    return { rows: page.rows.map((row) => toMessage(row, conversation)), total: page.total };
  }

  /**
   * An operator's reply. A conversation nobody has becomes the sender's, a closed one opens again
   * as theirs; replying reads the person's messages so far.
   */
  async reply(desk: DeskActor, body: ConsoleSendBody): Promise<ServiceMessage> {
    const scope = `operator:${desk.operatorId}`;
    const hash = fingerprint({
      conversationId: body.conversationId,
      content: body.content,
      image: body.image?.length ?? null,
    });
    const earlier = await this.earlier(scope, body.requestId, hash);
    if (earlier) return earlier;
    const image = body.image
      ? await parseProofImage(body.image, 'hint_imageFormat', 'image')
      : null;
    const at = this.deps.clock.now();
    const { message, conversation } = await this.deps.db.transaction(async (tx) => {
      if (!(await lockConversation(tx, body.conversationId)))
        throw new AppError('hint_conversationNotFound', 404, ['conversationId']);
      const first = await messageByRequest(tx, scope, body.requestId);
      if (first) return { message: first, conversation: null };
      const before = (await conversationById(tx, body.conversationId))!;
      if (before.closed) await setClosed(tx, before.id, false);
      if (before.closed || before.operator_id === null)
        await setAssignee(tx, before.id, desk.operatorId);
      await markRead(tx, before.id, 'desk', await lastPersonMessage(tx, before.id));
      const row = await insertMessage(tx, {
        conversationId: before.id,
        sender: 'operator',
        operatorId: desk.operatorId,
        content: body.content ?? null,
        image,
        scope,
        requestId: body.requestId,
        requestHash: hash,
        at,
      });
      await recordLast(tx, before.id, { id: row.id, sender: 'operator', at });
      return { message: row, conversation: (await conversationById(tx, before.id))! };
    });
    if (!conversation) return this.checked(message, hash);
    const answer = toMessage(message, conversation);
    this.deps.notifyPerson(personOf(conversation), {
      type: 'message',
      message: forPerson(answer),
    });
    this.deps.notifyPerson(personOf(conversation), {
      type: 'read',
      readUpTo: conversation.desk_read_id,
    });
    this.deps.notifyDesk(conversation.id, {
      type: 'message',
      sender: 'operator',
      messageId: answer.id,
    });
    return answer;
  }

  /** The desk has read the person's messages up to `upToId`; the person's app is told. */
  async deskRead(id: number, upToId: number): Promise<ServiceConversation> {
    const before = await this.found(this.deps.db, id);
    if (upToId <= before.desk_read_id) return toConversation(before);
    await markRead(this.deps.db, id, 'desk', upToId);
    const after = await this.found(this.deps.db, id);
    this.deps.notifyPerson(personOf(after), { type: 'read', readUpTo: after.desk_read_id });
    this.deps.notifyDesk(id, { type: 'read' });
    return toConversation(after);
  }

  async deskTyping(id: number): Promise<void> {
    const conversation = await this.found(this.deps.db, id);
    this.deps.notifyPerson(personOf(conversation), { type: 'typing' });
  }

  async deskImage(messageId: number) {
    return (await imageOf(this.deps.db, messageId)) ?? null;
  }

  async agents() {
    const rows = await agents(this.deps.db);
    return rows.map((row) => ({ operatorId: row.id, username: row.username }));
  }

  /**
   * Gives a conversation to an operator (`take`: the caller; `release`: nobody), or closes it;
   * audited. `changed` false when it was so already.
   */
  async assign(
    id: number,
    change: { operatorId: number | null } | { close: true },
    audit: AuditWriter,
  ): Promise<{ conversation: ServiceConversation; changed: boolean }> {
    const result = await this.deps.db.transaction(async (tx) => {
      if (!(await lockConversation(tx, id)))
        throw new AppError('hint_conversationNotFound', 404, ['id']);
      const before = (await conversationById(tx, id))!;
      if ('close' in change) {
        if (before.closed) return { row: before, changed: false };
        await setClosed(tx, id, true);
      } else {
        if (change.operatorId !== null && !(await agentById(tx, change.operatorId)))
          throw new AppError('hint_operatorNotFound', 404, ['operatorId']);
        if (before.operator_id === change.operatorId) return { row: before, changed: false };
        await setAssignee(tx, id, change.operatorId);
      }
      const after = (await conversationById(tx, id))!;
      await audit(tx, {
        action: 'close' in change ? 'service.close' : 'service.assign',
        targetType: 'serviceConversation',
        targetId: String(id),
        before: { operatorId: before.operator_id, closed: before.closed },
        after: { operatorId: after.operator_id, closed: after.closed },
      });
      return { row: after, changed: true };
    });
    if (result.changed)
      this.deps.notifyDesk(id, { type: 'close' in change ? 'closed' : 'assigned' });
    return { conversation: toConversation(result.row), changed: result.changed };
  }

  // ------------------------------------------------------------ canned replies

  async cannedReplies(pageNum: number, pageSize: number) {
    const page = await listCanned(this.deps.db, pageNum, pageSize);
    return { rows: page.rows.map(toCanned), total: page.total };
  }

  async saveCannedReply(body: CannedReplySaveBody, audit: AuditWriter): Promise<CannedReply> {
    return this.deps.db.transaction(async (tx) => {
      const before = body.id === undefined ? undefined : await cannedById(tx, body.id, true);
      if (body.id !== undefined && !before)
        throw new AppError('hint_cannedReplyNotFound', 404, ['id']);
      const row = await saveCanned(tx, body.id, body, this.deps.clock.now());
      await audit(tx, {
        action: 'service.cannedReply',
        targetType: 'serviceCannedReply',
        targetId: String(row.id),
        before: before ? toCanned(before) : null,
        after: toCanned(row),
      });
      return toCanned(row);
    });
  }

  /** Deletes a canned reply; false when there was none. */
  async deleteCannedReply(id: number, audit: AuditWriter): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const before = await cannedById(tx, id, true);
      if (!before) return false;
      await deleteCanned(tx, id);
      await audit(tx, {
        action: 'service.cannedReplyDelete',
        targetType: 'serviceCannedReply',
        targetId: String(id),
        before: toCanned(before),
        after: null,
      });
      return true;
    });
  }

  // ------------------------------------------------------------ external lines

  async allLines(): Promise<ServiceLineRow[]> {
    return listLines(this.deps.db, false);
  }

  async saveLine(body: ServiceLineSaveBody, audit: AuditWriter): Promise<ServiceLineRow> {
    // The schema checked it; checked again where it is stored, as a link users open.
    if (!isServiceLineUrl(body.kind, body.url))
      throw new AppError('hint_serviceLineUrl', 400, ['url']);
    return this.deps.db.transaction(async (tx) => {
      const before = body.id === undefined ? undefined : await lineById(tx, body.id);
      if (body.id !== undefined && !before)
        throw new AppError('hint_serviceLineNotFound', 404, ['id']);
      const { id: _, ...line } = body;
      const row = await saveLine(tx, body.id, line, this.deps.clock.now());
      await audit(tx, {
        action: 'service.line',
        targetType: 'serviceLine',
        targetId: String(row.id),
        before: before ?? null,
        after: row,
      });
      return row;
    });
  }

  async deleteLine(id: number, audit: AuditWriter): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const before = await lineById(tx, id);
      if (!before) return false;
      await deleteLine(tx, id);
      await audit(tx, {
        action: 'service.lineDelete',
        targetType: 'serviceLine',
        targetId: String(id),
        before,
        after: null,
      });
      return true;
    });
  }
}
