/** /api/userSecurity: the security centre's sessions and devices, login history, anti-phishing. */
import { securityApi as routes } from '@bourse/shared';
import { ok, pageOf } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { AccountService } from './service';

export function securityRoutes(router: Router, accounts: AccountService): void {
  const { security } = accounts;

  router.handle(routes.sessions, async ({ session, query }) =>
    pageOf(await security.sessions(session, query)),
  );

  router.handle(routes.endSession, async ({ session, body }) => {
    await security.endSession(session, body.id);
    return ok();
  });

  router.handle(routes.endOtherSessions, async ({ session }) =>
    ok({ sessionsEnded: await security.endOtherSessions(session) }),
  );

  router.handle(routes.loginHistory, async ({ session, query }) =>
    pageOf(await security.loginHistory(session.userId, query)),
  );

  router.handle(routes.antiPhishing, async ({ session }) =>
    ok(await security.antiPhishing(session.userId)),
  );

  router.handle(routes.setAntiPhishing, async ({ session, body, lang }) =>
    ok(await security.setAntiPhishing(session.userId, body, lang)),
  );
}
