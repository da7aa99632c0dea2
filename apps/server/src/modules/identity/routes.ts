/** /api/userAuthRecord: a user's identity verification requests (identityApi). */
import { identityApi as routes } from '@bourse/shared';
import { ok } from '../../http/envelope';
import type { Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import { sendProofImage } from '../wallet';
import type { IdentityService } from './service';

/** Three document images of up to 2 MiB each, as base64 (4/3), with the rest of the body. */
const APPLY_BODY_LIMIT = 3 * 3 * 1024 * 1024 + 64 * 1024;

export function identityRoutes(router: Router, identity: IdentityService): void {
  router.handle(routes.authDetail, async ({ actor, query }) =>
    ok(await identity.detail(actor.userId, query.authLevel)),
  );

  router.handle(
    routes.authApply,
    async ({ actor, body }) => ok(await identity.apply(actor, body)),
    {
      bodyLimit: APPLY_BODY_LIMIT,
    },
  );

  router.handle(routes.authDocument, async ({ actor, query, reply }) => {
    const image = await identity.ownDocument(actor.userId, query.id, query.side);
    if (!image) throw new AppError('hint_notFound', 404, ['id']);
    return sendProofImage(reply, image);
  });

  router.handle(routes.requirements, async ({ actor }) =>
    ok(await identity.requirements(actor.userId)),
  );
}
