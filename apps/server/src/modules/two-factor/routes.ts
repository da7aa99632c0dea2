/** /api/userSecurity/twoFactor: setting two-factor authentication up, on and off. */
import { securityApi as routes } from '@bourse/shared';
import { ok } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { TwoFactorService } from './service';

export function twoFactorRoutes(router: Router, twoFactor: TwoFactorService): void {
  router.handle(routes.twoFactorStatus, async ({ session }) =>
    ok(await twoFactor.status(session.userId)),
  );

  router.handle(routes.twoFactorSetup, async ({ session, body }) =>
    ok(await twoFactor.setup(session.userId, body.userPwd)),
  );

  router.handle(routes.twoFactorEnable, async ({ session, body }) =>
    ok(await twoFactor.enable(session.userId, body.code)),
  );

  router.handle(routes.twoFactorDisable, async ({ session, body }) => {
    await twoFactor.disable(session.userId, body.code);
    return ok();
  });
}
