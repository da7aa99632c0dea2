import { accountApi, consoleMessagesApi, messagesApi as routes } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Operator, Router } from '../../http/router';
import type { AuditWriter } from '../wallet';
import type { MessageService, MessagesConsole } from './service';

export function messageRoutes(router: Router, messages: MessageService): void {
  router.handle(accountApi.unreadMessageCount, async ({ actor }) => {
    const notReadMessageCount = await messages.unreadCount(actor.userId);
    // The spec names the field on the response itself; `data` carries it as every call does.
    return { ...ok({ notReadMessageCount }), notReadMessageCount };
  });

  router.handle(routes.messageList, async ({ actor, query, lang }) =>
    pageOf(await messages.list(actor.userId, query, lang)),
  );

  router.handle(routes.messageDetail, async ({ actor, query, lang }) =>
    ok(await messages.detail(actor.userId, query.id, lang)),
  );

  router.handle(routes.messageTypes, async ({ lang }) => {
    const rows = await messages.types(lang);
    return pageOf({ rows, total: rows.length });
  });

  router.handle(routes.markRead, async ({ actor, body }) =>
    ok(await messages.markRead(actor.userId, body.id)),
  );

  router.handle(routes.notificationList, async ({ actor, query }) =>
    pageOf(await messages.notifications(actor.userId, query)),
  );

  router.handle(routes.notificationRead, async ({ actor, body }) =>
    ok(await messages.markNotificationsRead(actor.userId, body.id)),
  );

  router.handle(routes.notificationUnread, async ({ actor }) =>
    ok({ count: await messages.unreadNotifications(actor.userId) }),
  );
}

/** The console's calls (consoleMessagesApi); each change audited as the operator's. */
export function messageConsoleRoutes<O extends Operator>(
  router: Router<O>,
  messages: MessagesConsole,
  auditOf: (operator: O) => AuditWriter,
): void {
  const api = consoleMessagesApi;
  router.handle(api.messages, async ({ query }) => pageOf(await messages.list(query)));

  router.handle(api.saveMessage, async ({ operator, body }) =>
    ok(await messages.save(body, operator, auditOf(operator))),
  );

  router.handle(api.withdrawMessage, async ({ operator, body }) => {
    const { changed, message } = await messages.withdraw(body.id, auditOf(operator));
    return changed ? ok(message) : alreadyDone(message);
  });

  router.handle(api.messageTypes, async () => {
    const rows = await messages.types();
    return pageOf({ rows, total: rows.length });
  });

  router.handle(api.saveMessageType, async ({ operator, body }) =>
    ok(await messages.saveType(body, auditOf(operator))),
  );
}
