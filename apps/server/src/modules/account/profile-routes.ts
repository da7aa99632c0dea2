/** /api/userInfo: the user's avatar and the demo account's reset (issue 19). */
import { accountApi as routes } from '@bourse/shared';
import { ok } from '../../http/envelope';
import type { Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import type { Avatars } from './avatar';
import type { DemoResets } from './demo-reset';
import type { AccountService } from './service';

/** An avatar upload: at most 2 MiB of image as base64, and the envelope. */
const AVATAR_BODY_LIMIT = 3 * 1024 * 1024;
/** An avatar URL names one image (its hash): caches may keep it for a year. */
const AVATAR_CACHE = 'public, max-age=31536000, immutable';

export function profileRoutes(
  router: Router,
  services: { accounts: AccountService; avatars: Avatars; demoResets: DemoResets },
): void {
  const { accounts, avatars, demoResets } = services;

  router.handle(
    routes.modifyAvatar,
    async ({ session, body }) => {
      await avatars.set(session.userId, body.image);
      return ok(await accounts.userInfo(session, true));
    },
    { bodyLimit: AVATAR_BODY_LIMIT },
  );

  // Public: whoever has the URL (it names the image's hash) gets the image, and nothing else.
  router.handle(routes.avatar, async ({ query, reply }) => {
    const image = await avatars.image(query.id, query.v);
    if (!image) throw new AppError('hint_notFound', 404, ['id']);
    return reply
      .header('content-type', image.mime)
      .header('cache-control', AVATAR_CACHE)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .send(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength));
  });

  router.handle(routes.resetDemo, async ({ actor, body }) =>
    ok(await demoResets.reset(actor.userId, body.requestId)),
  );
}
