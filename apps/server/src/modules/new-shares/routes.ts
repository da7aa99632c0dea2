/**
 * New shares' calls (newSharesApi: offerings, the published allocation, subscribing, changing,
 * cancelling, the user's subscriptions) and the console's (consoleNewSharesApi: offerings saved
 * and cancelled, every change audited; subscriptions; the computed allocation).
 */
import { consoleNewSharesApi, newSharesApi as routes } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Operator, Router } from '../../http/router';
import type { AuditWriter } from '../wallet';
import type { NewSharesConsole } from './console';
import type { NewShares } from './service';

/** Nineteen languages of names and descriptions (4000 characters each). */
const SAVE_BODY_LIMIT = 1024 * 1024;

export function newSharesRoutes(router: Router, newShares: NewShares): void {
  router.handle(routes.offerings, async ({ actor, lang, query }) =>
    pageOf(await newShares.offerings(actor, lang, query)),
  );
  router.handle(routes.offering, async ({ actor, lang, query }) =>
    ok(await newShares.offering(query.id, actor, lang)),
  );
  router.handle(routes.allocation, async ({ actor, query }) =>
    ok(await newShares.allocation(query.id, actor)),
  );
  router.handle(routes.subscribe, async ({ actor, lang, body }) =>
    ok(await newShares.subscribe(actor, body, lang)),
  );
  router.handle(routes.change, async ({ actor, lang, body }) =>
    ok(await newShares.change(actor, body, lang)),
  );
  router.handle(routes.cancel, async ({ actor, lang, body }) => {
    const { changed, subscription } = await newShares.cancel(actor, body, lang);
    return changed ? ok(subscription) : alreadyDone(subscription);
  });
  router.handle(routes.subscriptions, async ({ actor, lang, query }) =>
    pageOf(await newShares.subscriptions(actor, query, lang)),
  );
}

/** The console's calls; each change audited as the operator's. */
export function newSharesConsoleRoutes<O extends Operator>(
  router: Router<O>,
  offerings: NewSharesConsole,
  auditOf: (operator: O) => AuditWriter,
): void {
  const api = consoleNewSharesApi;
  router.handle(api.offerings, async ({ query }) => pageOf(await offerings.offerings(query)));
  router.handle(
    api.saveOffering,
    async ({ operator, body }) =>
      ok(await offerings.saveOffering(body, operator, auditOf(operator))),
    { bodyLimit: SAVE_BODY_LIMIT },
  );
  router.handle(api.cancelOffering, async ({ operator, body }) => {
    const { changed, offering } = await offerings.cancelOffering(
      body.id,
      body.reason,
      operator,
      auditOf(operator),
    );
    return changed ? ok(offering) : alreadyDone(offering);
  });
  router.handle(api.subscriptions, async ({ query }) =>
    pageOf(await offerings.subscriptions(query)),
  );
  router.handle(api.allocation, async ({ query }) => ok(await offerings.allocation(query.id)));
}
