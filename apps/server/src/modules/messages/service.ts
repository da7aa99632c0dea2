/**
 * Site messages and notifications.
 *
 * `MessageService`: what a user reads. Announcements (to everyone) and personal messages, each of a
 * type, with title and content per language (English when the reader's is not written), visible
 * from their publishing time until withdrawn. Announcements published before a user joined are
 * listed but read already: only news counts as unread. `notReadMessageCount` is the unread
 * messages and the unread notifications together (the bell's count).
 *
 * `Notices`: notifications of a user's own events, written once by the event. In the event's
 * transaction (`record`, one INSERT; `push` after the commit) or, where the event's write is one
 * statement of its own (a contract's open), right after its commit (`emit`). Each is pushed on the
 * user's private /ws topic `notifications` with what the app needs to show it at once.
 *
 * `MessagesConsole`: operators compose, schedule and withdraw messages (content sanitised on
 * write) and keep the types; every change is audited in its transaction.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  LANGUAGE_KEYS,
  MESSAGE_KIND,
  type ConsoleMessage,
  type ConsoleMessageType,
  type LanguageKey,
  type MessageSaveBody,
  type MessageTypeSaveBody,
  type Notification,
  type NotificationType,
  type SiteMessage,
  type SiteMessageType,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { pickLanguage, translate } from '../../lib/i18n';
import { sanitizeRichText } from '../../lib/rich-text';
import type { AuditWriter } from '../wallet';
import * as repo from './repo';

type Notify = (userId: number, topic: string, data: unknown) => void;

/** A type's name in a language: the seeded types' from the locale files, the others' as written. */
function typeName(
  row: { name: Record<string, string>; name_key: string | null },
  lang: LanguageKey,
) {
  return row.name_key ? translate(lang, row.name_key) : pickLanguage(row.name, lang);
}

function offsetOf(page: { pageNum: number; pageSize: number }) {
  return { limit: page.pageSize, offset: (page.pageNum - 1) * page.pageSize };
}

export class MessageService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Unread messages and notifications of the user (notReadMessageCount). */
  async unreadCount(userId: number): Promise<number> {
    const { messages, notifications } = await repo.countUnread(this.db, userId, this.clock.now());
    return messages + notifications;
  }

  private show(row: repo.MessageRow, lang: LanguageKey): SiteMessage {
    return {
      id: row.id,
      typeId: row.type_id,
      typeName: typeName({ name: row.type_name, name_key: row.type_name_key }, lang),
      kind: row.user_id === null ? MESSAGE_KIND.announcement : MESSAGE_KIND.personal,
      title: pickLanguage(row.title, lang),
      content: pickLanguage(row.content, lang),
      readFlag: row.read_flag,
      createTime: row.shown_at.toISOString(),
    };
  }

  async list(
    userId: number,
    query: { pageNum: number; pageSize: number; typeId?: number; kind?: number },
    lang: LanguageKey,
  ): Promise<{ rows: SiteMessage[]; total: number }> {
    const page = await repo.listVisible(this.db, userId, this.clock.now(), {
      typeId: query.typeId,
      kind: query.kind,
      ...offsetOf(query),
    });
    return { rows: page.rows.map((row) => this.show(row, lang)), total: page.total };
  }

  async detail(userId: number, id: number, lang: LanguageKey): Promise<SiteMessage> {
    const row = await repo.findVisible(this.db, userId, id, this.clock.now());
    if (!row) throw new AppError('hint_notFound', 404, ['id']);
    return this.show(row, lang);
  }

  async types(lang: LanguageKey): Promise<SiteMessageType[]> {
    const rows = await repo.listTypes(this.db, true);
    return rows.map((row) => ({ id: row.id, name: typeName(row, lang), sort: row.sort }));
  }

  /** Idempotent: a message read already stays read. */
  async markRead(userId: number, id: number): Promise<{ id: number; readFlag: number }> {
    if (!(await repo.markRead(this.db, userId, id, this.clock.now())))
      throw new AppError('hint_notFound', 404, ['id']);
    return { id, readFlag: 1 };
  }

  // ------------------------------------------------------------ notifications

  async notifications(
    userId: number,
    page: { pageNum: number; pageSize: number },
  ): Promise<{ rows: Notification[]; total: number }> {
    const { limit, offset } = offsetOf(page);
    const result = await repo.listNotifications(this.db, userId, limit, offset);
    return { rows: result.rows.map(showNotification), total: result.total };
  }

  async markNotificationsRead(userId: number, id: number | undefined) {
    const result = await repo.markNotificationsRead(this.db, userId, id, this.clock.now());
    if (!result.found) throw new AppError('hint_notFound', 404, ['id']);
    return { changed: result.changed };
  }

  async unreadNotifications(userId: number): Promise<number> {
    return (await repo.countUnread(this.db, userId, this.clock.now())).notifications;
  }
}

function showNotification(row: repo.NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type as NotificationType,
    params: row.params,
    link: row.link_route ? { route: row.link_route, query: row.link_query ?? {} } : null,
    readFlag: row.read_at ? 1 : 0,
    createTime: row.created_at.toISOString(),
  };
}

// ---------------------------------------------------------------- notifications of events

/** One event of a user's, as its notification tells it. */
export interface NoticeEvent {
  userId: number;
  type: NotificationType;
  /**
   * What happened to which object, unique per user (`recharge:12:approved`): the same event seen
   * again writes nothing.
   */
  ref: string;
  /** The `{0}`, `{1}`… of the text `notify_<type>`. */
  params: readonly (string | number)[];
  /** The app's screen of its object (a route name of apps/web/src/config/paths.ts). */
  link?: { route: string; query?: Record<string, string | number> };
}

/** What other modules write notifications with (the messages module's `Notices`). */
export interface NoticeWriter {
  /** In the event's transaction: one INSERT for every event given. */
  record(tx: Queryable, events: readonly NoticeEvent[]): Promise<void>;
  /** After the commit: the users' open apps hear of them. */
  push(events: readonly NoticeEvent[]): void;
  /** After the event's own commit, when it had no transaction to share: written, then pushed. */
  emit(events: readonly NoticeEvent[]): void;
}

function inputOf(event: NoticeEvent): repo.NotificationInput {
  return {
    user_id: event.userId,
    type: event.type,
    ref: event.ref,
    params: event.params.map(String),
    link_route: event.link?.route ?? null,
    link_query: event.link
      ? Object.fromEntries(
          Object.entries(event.link.query ?? {}).map(([key, value]) => [key, String(value)]),
        )
      : null,
  };
}

export class Notices implements NoticeWriter {
  constructor(
    private readonly deps: {
      db: Database;
      clock: Clock;
      /** The users' private /ws topics (app.ts `notifyUser`). */
      notify?: Notify;
      logger?: FastifyBaseLogger;
    },
  ) {}

  async record(tx: Queryable, events: readonly NoticeEvent[]): Promise<void> {
    await repo.insertNotifications(tx, events.map(inputOf), this.deps.clock.now());
  }

  push(events: readonly NoticeEvent[]): void {
    const createTime = this.deps.clock.now().toISOString();
    for (const event of events) {
      const input = inputOf(event);
      this.deps.notify?.(event.userId, 'notifications', {
        type: input.type,
        params: input.params,
        link: input.link_route ? { route: input.link_route, query: input.link_query ?? {} } : null,
        createTime,
      });
    }
  }

  emit(events: readonly NoticeEvent[]): void {
    if (events.length === 0) return;
    repo
      .insertNotifications(this.deps.db, events.map(inputOf), this.deps.clock.now())
      .then((rows) => {
        // Only what this call wrote: an event seen before was told then.
        const written = new Set(rows.map((row) => `${row.user_id}:${row.ref}`));
        this.push(events.filter((event) => written.has(`${event.userId}:${event.ref}`)));
      })
      .catch((error: unknown) =>
        this.deps.logger?.error({ err: error }, 'notification not written'),
      );
  }
}

// ---------------------------------------------------------------- the console

export interface ConsoleOperator {
  operatorId: number;
}

/** Keeps only the languages the app has, with texts. */
function languagesOf(texts: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const lang of LANGUAGE_KEYS) {
    const value = texts?.[lang];
    if (typeof value === 'string' && value.trim()) kept[lang] = value;
  }
  return kept;
}

function showConsoleMessage(row: repo.ConsoleMessageRow, now: Date): ConsoleMessage {
  return {
    id: row.id,
    typeId: row.type_id,
    typeName: typeName({ name: row.type_name, name_key: row.type_name_key }, 'en'),
    kind: row.user_id === null ? MESSAGE_KIND.announcement : MESSAGE_KIND.personal,
    userId: row.user_id,
    userAccount: row.user_account,
    title: row.title,
    content: row.content,
    publishTime: row.shown_at.toISOString(),
    createTime: row.created_at.toISOString(),
    published: row.shown_at.getTime() <= now.getTime(),
    withdrawn: row.withdrawn_at !== null,
    readCount: row.read_count,
    audience: row.audience,
  };
}

function showType(row: repo.TypeRow): ConsoleMessageType {
  const name = row.name_key
    ? Object.fromEntries(LANGUAGE_KEYS.map((lang) => [lang, translate(lang, row.name_key!)]))
    : row.name;
  return {
    id: row.id,
    name,
    sort: row.sort,
    enabled: row.enabled,
    messageCount: row.message_count,
  };
}

export class MessagesConsole {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async list(query: {
    pageNum: number;
    pageSize: number;
    typeId?: number;
    kind?: number;
    userId?: number;
  }): Promise<{ rows: ConsoleMessage[]; total: number }> {
    const now = this.clock.now();
    const page = await repo.listForConsole(this.db, { ...query, ...offsetOf(query) });
    return { rows: page.rows.map((row) => showConsoleMessage(row, now)), total: page.total };
  }

  /**
   * Creates or changes a message in one transaction with its audit entry. The content of every
   * language is sanitised (no script, handler or unknown element survives); a personal message's
   * reader must exist; a publishing time in the past (or none) publishes at once. A published
   * message keeps its publishing time when changed.
   */
  async save(body: MessageSaveBody, operator: ConsoleOperator, audit: AuditWriter) {
    const now = this.clock.now();
    const title = languagesOf(body.title);
    const content = Object.fromEntries(
      Object.entries(languagesOf(body.content)).map(([lang, html]) => [
        lang,
        sanitizeRichText(html),
      ]),
    );
    if (!content.en?.trim()) throw new AppError('hint_langEnglishRequired', 400, ['content']);
    const requested = body.publishTime ? new Date(body.publishTime) : now;
    return this.db.transaction(async (tx) => {
      const type = await repo.findType(tx, body.typeId);
      if (!type) throw new AppError('hint_messageTypeUnknown', 422, ['typeId']);
      let userId: number | null = null;
      if (body.kind === MESSAGE_KIND.personal) {
        userId = (await repo.findUserId(tx, body.userAccount!.trim())) ?? null;
        if (userId === null) throw new AppError('hint_userNotFound', 422, ['userAccount']);
      }
      const before = body.id === undefined ? null : await repo.findForConsole(tx, body.id, true);
      if (body.id !== undefined && !before) throw new AppError('hint_notFound', 404, ['id']);
      // Published already: it stays where readers found it.
      const publishAt =
        before && before.shown_at.getTime() <= now.getTime()
          ? before.shown_at
          : requested.getTime() < now.getTime()
            ? now
            : requested;
      const values = { typeId: body.typeId, userId, title, content, publishAt };
      const id = before
        ? (await repo.updateMessage(tx, before.id, values), before.id)
        : await repo.insertMessage(tx, values, operator.operatorId, now);
      const after = (await repo.findForConsole(tx, id))!;
      await audit(tx, {
        action: before ? 'message.update' : 'message.create',
        targetType: 'site_message',
        targetId: String(id),
        before: before ? showConsoleMessage(before, now) : null,
        after: showConsoleMessage(after, now),
      });
      return showConsoleMessage(after, now);
    });
  }

  /** Withdraws a message: nobody reads it any more. `changed` false when it was already. */
  async withdraw(id: number, audit: AuditWriter) {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const before = await repo.findForConsole(tx, id, true);
      if (!before) throw new AppError('hint_notFound', 404, ['id']);
      const changed = await repo.withdrawMessage(tx, id, now);
      const after = (await repo.findForConsole(tx, id))!;
      if (changed)
        await audit(tx, {
          action: 'message.withdraw',
          targetType: 'site_message',
          targetId: String(id),
          before: showConsoleMessage(before, now),
          after: showConsoleMessage(after, now),
        });
      return { changed, message: showConsoleMessage(after, now) };
    });
  }

  async types(): Promise<ConsoleMessageType[]> {
    return (await repo.listTypes(this.db, false)).map(showType);
  }

  async saveType(body: MessageTypeSaveBody, audit: AuditWriter): Promise<ConsoleMessageType> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const before = body.id === undefined ? undefined : await repo.findType(tx, body.id);
      if (body.id !== undefined && !before) throw new AppError('hint_notFound', 404, ['id']);
      const name = languagesOf(body.name);
      const id = await repo.saveType(
        tx,
        { id: body.id, name, sort: body.sort, enabled: body.enabled },
        now,
      );
      // An operator's names replace a seeded type's translated ones.
      if (before?.name_key) await repo.clearTypeNameKey(tx, id!);
      const after = (await repo.findType(tx, id!))!;
      await audit(tx, {
        action: before ? 'messageType.update' : 'messageType.create',
        targetType: 'site_message_type',
        targetId: String(id),
        before: before ? showType(before) : null,
        after: showType(after),
      });
      return showType(after);
    });
  }
}
