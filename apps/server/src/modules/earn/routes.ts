/**
 * Earn's calls (earnApi: lock mining and staking, with the spec's paths) and the console's
 * (consoleEarnApi: products, the review queue, the report; every change audited).
 */
import { consoleEarnApi, earnApi as routes } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Operator, Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import type { AuditWriter } from '../wallet';
import type { EarnConsole } from './console';
import type { Earn } from './service';

/** An image's URL names its hash: what it serves never changes, so caches may keep it. */
const IMAGE_CACHE = 'public, max-age=31536000, immutable';
/** Nineteen languages of texts and a 2 MiB image in base64. */
const SAVE_BODY_LIMIT = 4 * 1024 * 1024;

/** The calls lock mining and staking both have, by kind: the same handlers serve both. */
const KIND_CALLS = [
  [
    'financial',
    {
      products: routes.financialProducts,
      product: routes.financialProduct,
      orderAdd: routes.financialOrderAdd,
      orders: routes.financialOrders,
      redemptionPreview: routes.financialRedemptionPreview,
      redemption: routes.financialRedemption,
    },
  ],
  [
    'staking',
    {
      products: routes.stakingProducts,
      product: routes.stakingProduct,
      orderAdd: routes.stakingOrderAdd,
      orders: routes.stakingOrders,
      redemptionPreview: routes.stakingRedemptionPreview,
      redemption: routes.stakingRedemption,
    },
  ],
] as const;

export function earnRoutes(router: Router, earn: Earn): void {
  for (const [kind, calls] of KIND_CALLS) {
    router.handle(calls.products, async ({ actor, lang, query }) =>
      pageOf(await earn.products(kind, actor, lang, query)),
    );
    router.handle(calls.product, async ({ actor, lang, query }) =>
      ok(await earn.product(kind, query.id, actor, lang)),
    );
    router.handle(calls.orderAdd, async ({ actor, lang, body }) =>
      ok(await earn.buy(actor, kind, body, lang)),
    );
    router.handle(calls.orders, async ({ actor, lang, query }) =>
      pageOf(await earn.orders(actor, kind, query, lang)),
    );
    router.handle(calls.redemptionPreview, async ({ actor, lang, query }) =>
      ok(await earn.redemptionPreview(actor, kind, query.id, lang)),
    );
    router.handle(calls.redemption, async ({ actor, lang, body }) => {
      const { changed, order } = await earn.redeem(actor, kind, body, lang);
      return changed ? ok(order) : alreadyDone(order);
    });
  }
  router.handle(routes.financialAnalysis, async ({ actor }) =>
    ok(await earn.analysis(actor, 'financial')),
  );
  router.handle(routes.stakingInterestRecords, async ({ actor, query }) =>
    pageOf(
      await earn.interestRecords(actor, 'staking', { ...query, orderId: query.stakingOrderId }),
    ),
  );

  router.handle(routes.productImage, async ({ query, reply }) => {
    const image = await earn.image(query.id, query.v);
    if (!image) throw new AppError('hint_notFound', 404, ['id']);
    return reply
      .header('content-type', image.mime)
      .header('cache-control', query.v ? IMAGE_CACHE : 'public, max-age=60')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .send(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength));
  });
}

/** The console's calls; each change audited as the operator's. */
export function earnConsoleRoutes<O extends Operator>(
  router: Router<O>,
  earn: EarnConsole,
  auditOf: (operator: O) => AuditWriter,
): void {
  const api = consoleEarnApi;
  router.handle(api.products, async ({ query }) => pageOf(await earn.products(query)));
  router.handle(
    api.saveProduct,
    async ({ operator, body }) => ok(await earn.saveProduct(body, operator, auditOf(operator))),
    { bodyLimit: SAVE_BODY_LIMIT },
  );
  router.handle(api.productStatus, async ({ operator, body }) => {
    const { changed, product } = await earn.setStatus(body.id, body.status, auditOf(operator));
    return changed ? ok(product) : alreadyDone(product);
  });
  router.handle(api.orders, async ({ query }) => pageOf(await earn.orders(query)));
  router.handle(api.approveOrder, async ({ operator, body }) => {
    const { changed, order } = await earn.decide('approve', body.id, operator, auditOf(operator));
    return changed ? ok(order) : alreadyDone(order);
  });
  router.handle(api.rejectOrder, async ({ operator, body }) => {
    const { changed, order } = await earn.decide(
      'reject',
      body.id,
      operator,
      auditOf(operator),
      body.reason,
    );
    return changed ? ok(order) : alreadyDone(order);
  });
  router.handle(api.report, async ({ query }) => ok(await earn.report(query.demo ?? false)));
}
