import { accountApi as routes } from '@bourse/shared';
import { ok } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { MessageService } from './service';

export function messageRoutes(router: Router, messages: MessageService): void {
  router.handle(routes.unreadMessageCount, async ({ actor }) => {
    const notReadMessageCount = await messages.unreadCount(actor.userId);
    // The spec names the field on the response itself; `data` carries it as every call does.
    return { ...ok({ notReadMessageCount }), notReadMessageCount };
  });
}
