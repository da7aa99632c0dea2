import { consoleRewardsApi, rewardsApi as routes } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Operator, Router } from '../../http/router';
import type { AuditWriter } from '../wallet';
import type { RewardsConsole } from './console';
import type { Rewards } from './service';

export function rewardRoutes(router: Router, rewards: Rewards): void {
  router.handle(routes.welfareList, async ({ actor, lang }) =>
    ok(await rewards.welfare(actor, lang)),
  );

  router.handle(routes.awardList, async ({ actor, query, lang }) =>
    pageOf(await rewards.awards(actor.userId, query, lang)),
  );

  router.handle(routes.depositTiers, async ({ actor, query }) => {
    const rows = await rewards.depositTiers(actor?.userId, query.currencyId);
    return pageOf({ rows, total: rows.length });
  });
}

/** The console's calls (consoleRewardsApi); each change audited as the operator's. */
export function rewardConsoleRoutes<O extends Operator>(
  router: Router<O>,
  rewards: RewardsConsole,
  auditOf: (operator: O) => AuditWriter,
): void {
  const api = consoleRewardsApi;
  router.handle(api.campaigns, async ({ query }) => pageOf(await rewards.campaigns(query)));

  router.handle(api.saveCampaign, async ({ operator, body }) =>
    ok(await rewards.saveCampaign(body, operator, auditOf(operator))),
  );

  router.handle(api.endCampaign, async ({ operator, body }) => {
    const { changed, campaign } = await rewards.endCampaign(
      body.id,
      body.reason,
      auditOf(operator),
    );
    return changed ? ok(campaign) : alreadyDone(campaign);
  });

  router.handle(api.tiers, async ({ query }) => {
    const rows = await rewards.tiers(query.retired ?? false);
    return pageOf({ rows, total: rows.length });
  });

  router.handle(api.saveTier, async ({ operator, body }) =>
    ok(await rewards.saveTier(body, operator, auditOf(operator))),
  );

  router.handle(api.retireTier, async ({ operator, body }) => {
    const { changed, tier } = await rewards.retireTier(body.id, auditOf(operator));
    return changed ? ok(tier) : alreadyDone(tier);
  });

  router.handle(api.records, async ({ query }) => pageOf(await rewards.records(query)));
}
