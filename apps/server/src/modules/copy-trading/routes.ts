/**
 * Copy trading's calls (copyTradingApi: traders, following, copies, settlements, leading) and the
 * console's (consoleCopyTradingApi: applications, settings, traders, relations, the report; every
 * change audited).
 */
import { consoleCopyTradingApi, copyTradingApi as routes } from '@bourse/shared';
import { ok, pageOf } from '../../http/envelope';
import type { Operator, Router } from '../../http/router';
import type { AuditWriter } from '../wallet';
import type { CopyTradingConsole } from './console';
import type { CopyTrading } from './service';

/** Nineteen languages of titles and descriptions (2,000 characters each). */
const PROFILE_BODY_LIMIT = 512 * 1024;

export function copyTradingRoutes(router: Router, copy: CopyTrading): void {
  router.handle(routes.traders, async ({ actor, lang, query }) =>
    pageOf(await copy.traders(actor ?? undefined, query, lang)),
  );
  router.handle(routes.trader, async ({ actor, lang, query }) =>
    ok(await copy.trader(actor ?? undefined, query.traderId, lang)),
  );
  router.handle(routes.traderPositions, async ({ actor, lang, query }) =>
    pageOf(await copy.traderPositions(actor ?? undefined, query, lang)),
  );
  router.handle(routes.followedTraders, async ({ actor, lang, query }) =>
    pageOf(await copy.relations(actor, query, lang)),
  );
  router.handle(routes.relations, async ({ actor, lang, query }) =>
    pageOf(await copy.relations(actor, query, lang)),
  );
  router.handle(routes.follow, async ({ actor, lang, body }) =>
    ok(await copy.follow(actor, body, lang)),
  );
  router.handle(routes.edit, async ({ actor, lang, body }) =>
    ok(await copy.edit(actor, body, lang)),
  );
  router.handle(routes.unfollow, async ({ actor, lang, body }) =>
    ok(await copy.unfollow(actor, body, lang)),
  );
  router.handle(routes.copies, async ({ actor, lang, query }) =>
    pageOf(await copy.copies(actor, query, lang)),
  );
  router.handle(routes.settlements, async ({ actor, query }) =>
    pageOf(await copy.settlements(actor, query)),
  );
  router.handle(routes.apply, async ({ actor, body }) => ok(await copy.apply(actor, body)));
  router.handle(routes.leadStatus, async ({ actor }) => ok(await copy.leadStatus(actor)));
  router.handle(
    routes.leadProfile,
    async ({ actor, body }) => ok(await copy.saveProfile(actor, body)),
    {
      bodyLimit: PROFILE_BODY_LIMIT,
    },
  );
  router.handle(routes.leadDashboard, async ({ actor }) => ok(await copy.dashboard(actor)));
}

/** The console's calls; each change audited as the operator's. */
export function copyTradingConsoleRoutes<O extends Operator>(
  router: Router<O>,
  copy: CopyTradingConsole,
  auditOf: (operator: O) => AuditWriter,
): void {
  const api = consoleCopyTradingApi;
  router.handle(api.applications, async ({ query }) => pageOf(await copy.applications(query)));
  router.handle(api.approveApplication, async ({ operator, body }) =>
    ok(await copy.review(body.id, { approve: true }, operator, auditOf(operator))),
  );
  router.handle(api.rejectApplication, async ({ operator, body }) =>
    ok(
      await copy.review(
        body.id,
        { approve: false, reason: body.reason },
        operator,
        auditOf(operator),
      ),
    ),
  );
  router.handle(api.settings, async () => ok(await copy.settings()));
  router.handle(api.saveSettings, async ({ operator, body }) =>
    ok(await copy.saveSettings(body, auditOf(operator))),
  );
  router.handle(api.traders, async ({ query }) => pageOf(await copy.traders(query)));
  router.handle(api.setFollowersCap, async ({ operator, body }) =>
    ok(await copy.setFollowersCap(body.traderId, body.maxFollowersCap ?? null, auditOf(operator))),
  );
  router.handle(api.suspendTrader, async ({ operator, body }) =>
    ok(await copy.setStatus(body.traderId, true, body.reason, auditOf(operator))),
  );
  router.handle(api.resumeTrader, async ({ operator, body }) =>
    ok(await copy.setStatus(body.traderId, false, body.reason, auditOf(operator))),
  );
  router.handle(api.relations, async ({ query }) => pageOf(await copy.relations(query)));
  router.handle(api.report, async ({ query }) => pageOf(await copy.report(query)));
}
