/** /api/apiKey: a signed-in user's API keys and their usage (never callable with a key). */
import { apiKeysApi as routes } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { ApiKeyService } from './service';

export function apiKeyRoutes(router: Router, keys: ApiKeyService): void {
  router.handle(routes.list, async ({ session, query }) =>
    pageOf(await keys.list(session.userId, query)),
  );

  router.handle(routes.create, async ({ actor, body, lang }) =>
    ok(await keys.create(actor, body, lang)),
  );

  router.handle(routes.update, async ({ session, body, lang }) =>
    ok(await keys.update(session.userId, body, lang)),
  );

  router.handle(routes.revoke, async ({ session, body, lang }) => {
    const { key, already } = await keys.revoke(session.userId, body.id, lang);
    return already ? alreadyDone(key) : ok(key);
  });

  router.handle(routes.usage, async ({ session, query }) =>
    pageOf(await keys.usage(session.userId, query)),
  );
}
