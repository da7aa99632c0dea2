/**
 * The console's identity reviews (consoleIdentityApi of @bourse/shared): support operators and
 * admins list the requests, view their document images (each view audited), approve or reject
 * them; admins set which features need which level. The review flow decides once (`hint_48` when
 * already so) and tells every console's queue.
 */
import { consoleIdentityApi as routes } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import type { IdentityService } from '../identity';
import { sendProofImage } from '../wallet';
import type { AdminService, OperatorContext } from './service';

export function identityConsoleRoutes(
  router: Router<OperatorContext>,
  admin: AdminService,
  identity: IdentityService,
): void {
  router.handle(routes.identityRecords, async ({ query }) => pageOf(await identity.list(query)));

  router.handle(routes.identityDocument, async ({ operator, query, reply }) => {
    const image = await identity.documentForOperator(
      query.id,
      query.side,
      admin.auditWriter(operator),
    );
    if (!image) throw new AppError('hint_notFound', 404, ['id']);
    return sendProofImage(reply, image);
  });

  for (const [route, decision] of [
    [routes.approveIdentity, 'approve'],
    [routes.rejectIdentity, 'reject'],
  ] as const) {
    router.handle(route, async ({ operator, body }) => {
      const result = await identity.decide(
        decision,
        body.id,
        { operatorId: operator.operatorId },
        admin.auditWriter(operator),
        'reason' in body ? body.reason : undefined,
      );
      return result.changed ? ok(result.record) : alreadyDone(result.record);
    });
  }

  router.handle(routes.identityRequirements, async () => {
    const rows = await identity.listRequirements();
    return pageOf({ rows, total: rows.length });
  });

  router.handle(routes.saveIdentityRequirement, async ({ operator, body }) =>
    ok(await identity.saveRequirement(body.feature, body.minLevel, admin.auditWriter(operator))),
  );
}
