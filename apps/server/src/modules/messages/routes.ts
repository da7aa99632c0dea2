import { ok } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { MessageService } from './service';

export function messageRoutes(router: Router, messages: MessageService): void {
  router.add({
    method: 'GET',
    url: '/api/siteMessage/notReadMessageCount',
    auth: 'required',
    handler: async ({ session }) => {
      const notReadMessageCount = await messages.unreadCount(session.userId);
      // The spec names the field on the response itself; `data` carries it as every call does.
      return ok({ notReadMessageCount }, { notReadMessageCount });
    },
  });
}
