import { consoleReferralApi, referralApi } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Operator, Router } from '../../http/router';
import type { AuditWriter } from '../wallet';
import type { ReferralConsole, TeamService } from './service';

export function referralRoutes(router: Router, team: TeamService): void {
  router.handle(referralApi.teamDashboard, async ({ actor, query }) =>
    ok(await team.dashboard(actor.userId, query)),
  );
  router.handle(referralApi.lowerTeam, async ({ actor, query }) =>
    pageOf(await team.members(actor.userId, query)),
  );
  router.handle(referralApi.commissions, async ({ actor, query }) =>
    pageOf(await team.commissions(actor.userId, query)),
  );
  router.handle(referralApi.terms, async () => ok(await team.terms()));
}

/** The console's calls (consoleReferralApi); each change audited as the operator's. */
export function referralConsoleRoutes<O extends Operator>(
  router: Router<O>,
  referral: ReferralConsole,
  auditOf: (operator: O) => AuditWriter,
): void {
  const api = consoleReferralApi;
  router.handle(api.terms, async () => ok(await referral.terms()));
  router.handle(api.saveTerms, async ({ operator, body }) =>
    ok(await referral.saveTerms(body, operator, auditOf(operator))),
  );
  router.handle(api.freezes, async ({ query }) => pageOf(await referral.freezes(query)));
  router.handle(api.freeze, async ({ operator, body }) => {
    const { changed, freeze } = await referral.setFrozen(body, true, operator, auditOf(operator));
    return changed ? ok(freeze!) : alreadyDone(freeze ?? undefined);
  });
  router.handle(api.unfreeze, async ({ operator, body }) => {
    const { changed } = await referral.setFrozen(body, false, operator, auditOf(operator));
    return changed ? ok() : alreadyDone();
  });
  router.handle(api.user, async ({ query }) => ok(await referral.user(query.userId)));
  router.handle(api.commissions, async ({ query }) => pageOf(await referral.commissions(query)));
  router.handle(api.report, async ({ query }) => ok(await referral.report(query)));
}
