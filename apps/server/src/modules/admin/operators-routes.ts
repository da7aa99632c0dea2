/**
 * /admin-api calls of consoleOperatorsApi (@bourse/shared): an operator's own sessions, any
 * operator's sessions (admin) and the audit log's CSV export (admin). The Router's operator guard
 * answers 401/403 (roles, or a password still to choose) before the input is read.
 */
import { consoleOperatorsApi as routes } from '@bourse/shared';
import { ok, pageOf } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { AdminService, OperatorContext } from './service';

export function consoleOperatorsRoutes(router: Router<OperatorContext>, admin: AdminService): void {
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
