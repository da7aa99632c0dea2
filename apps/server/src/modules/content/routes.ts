/**
 * Authored content: the app's reads (contentApi: Q&A, rich-text pages, activities, news, the
 * notice, images) and the console's writes (consoleContentApi: content operators and admins;
 * every change audited by the console's writer).
 */
import { consoleContentApi, contentApi as routes } from '@bourse/shared';
import { ok, pageOf } from '../../http/envelope';
import { clientIp } from '../../http/client';
import type { Operator, Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import type { ContentAudit, ContentService } from './service';

/** An image's URL names its hash: what it serves never changes, so caches may keep it. */
const IMAGE_CACHE = 'public, max-age=31536000, immutable';
/** Nineteen languages of rich text (each bounded by the sanitiser) and a 2 MiB image in base64. */
const SAVE_BODY_LIMIT = 8 * 1024 * 1024;

export function contentRoutes(router: Router, content: ContentService): void {
  router.handle(routes.qaList, async ({ lang, query }) =>
    ok(await content.qaList(lang, query.keyword)),
  );
  router.handle(routes.richText, async ({ lang, query }) =>
    ok(await content.richText(lang, query.key)),
  );
  router.handle(routes.activityList, async ({ lang, query }) =>
    pageOf(await content.activityList(lang, query)),
  );
  router.handle(routes.activityDetail, async ({ lang, query }) =>
    ok(await content.activityDetail(lang, query.id)),
  );
  router.handle(routes.newsList, async ({ lang, query }) =>
    pageOf(await content.newsList(lang, query)),
  );
  router.handle(routes.newsDetail, async ({ lang, query, actor, request }) =>
    ok(
      await content.newsDetail(
        lang,
        query.id,
        actor ? { userId: actor.userId } : { address: clientIp(request) },
      ),
    ),
  );
  router.handle(routes.noticeList, async ({ lang }) => ok(await content.notices(lang)));
  router.handle(routes.image, async ({ query, reply }) => {
    const image = await content.image(query.id, query.v);
    if (!image) throw new AppError('hint_notFound', 404, ['id']);
    return reply
      .header('content-type', image.mime)
      .header('cache-control', query.v ? IMAGE_CACHE : 'public, max-age=60')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .send(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength));
  });
}

export function contentConsoleRoutes<O extends Operator>(
  router: Router<O>,
  content: ContentService,
  auditFor: (operator: O) => ContentAudit,
): void {
  router.handle(consoleContentApi.contentList, async ({ query }) =>
    pageOf(await content.list(query)),
  );
  router.handle(
    consoleContentApi.saveContent,
    async ({ operator, body }) =>
      ok(
        await content.save(
          body,
          { operatorId: operator.operatorId, username: operator.username },
          auditFor(operator),
        ),
      ),
    { bodyLimit: SAVE_BODY_LIMIT },
  );
  router.handle(consoleContentApi.deleteContent, async ({ operator, body }) => {
    await content.remove(body.id, auditFor(operator));
    return ok();
  });
}
