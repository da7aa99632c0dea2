/**
 * /admin-api calls of consoleOperatorsApi (@bourse/shared): an operator's two-factor (the sign-in's
 * second step, setting it up, on and off; an admin's reset of another's), their own sessions, any
 * operator's sessions (admin) and the audit log's CSV export (admin). The Router's operator guard
 * answers 401/403 (roles, a password or two-factor still to set) before the input is read.
 */
import { consoleOperatorsApi as routes } from '@bourse/shared';
import type { Config } from '../../config';
import { clientIp, clientUserAgent } from '../../http/client';
import { ok, pageOf } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { AdminService, OperatorContext } from './service';

export function consoleOperatorsRoutes(
  router: Router<OperatorContext>,
  admin: AdminService,
  config: Config,
): void {
  // ------------------------------------------------------------ two-factor

  router.handle(
    routes.signInTwoFactor,
    async ({ body, request }) =>
      ok(
        await admin.loginTwoFactor(body, {
          ip: clientIp(request),
          userAgent: clientUserAgent(request),
        }),
      ),
    { rateLimit: { max: config.RATE_LIMIT_LOGIN_PER_MINUTE, timeWindowMs: 60_000 } },
  );

  router.handle(routes.twoFactorStatus, async ({ operator }) =>
    ok(await admin.twoFactorStatus(operator)),
  );

  router.handle(routes.twoFactorSetup, async ({ operator, body }) =>
    ok(await admin.setUpTwoFactor(operator, body.password)),
  );

  router.handle(routes.twoFactorEnable, async ({ operator, body }) =>
    ok(await admin.enableTwoFactor(operator, body.code)),
  );

  router.handle(routes.twoFactorDisable, async ({ operator, body }) => {
    await admin.disableTwoFactor(operator, body.code);
    return ok();
  });

  router.handle(routes.resetOperatorTwoFactor, async ({ operator, body }) =>
    ok(await admin.resetOperatorTwoFactor(operator, body)),
  );

  // ------------------------------------------------------------ sessions

  router.handle(routes.sessions, async ({ operator, query }) =>
    pageOf(await admin.listSessions(operator, operator.operatorId, query.pageNum, query.pageSize)),
  );

  router.handle(routes.revokeSession, async ({ operator, body }) => {
    await admin.revokeSession(operator, body.id, true);
    return ok();
  });

  router.handle(routes.operatorSessions, async ({ operator, query }) =>
    pageOf(await admin.listSessions(operator, query.operatorId, query.pageNum, query.pageSize)),
  );

  router.handle(routes.revokeOperatorSession, async ({ operator, body }) => {
    await admin.revokeSession(operator, body.id, false);
    return ok();
  });

  router.handle(routes.auditExport, async ({ operator, query, reply }) => {
    const csv = await admin.exportAudit(operator, query);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
