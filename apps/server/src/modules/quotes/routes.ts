/** The quote calls (the spec's market calls) of SEED-SPEC section 7 and PRODUCT section 3. */
import { PRODUCT_TYPE, quotesApi as routes, type ProductType } from '@bourse/shared';
import { alreadyDone, ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { QuotesService } from './service';

/** The product list of each market. */
const LISTS = [
  [routes.stockProducts, PRODUCT_TYPE.usStock],
  [routes.cryptoProducts, PRODUCT_TYPE.crypto],
  [routes.futuresProducts, PRODUCT_TYPE.futures],
  [routes.forexProducts, PRODUCT_TYPE.forex],
] as const satisfies readonly (readonly [unknown, ProductType])[];

export function quotesRoutes(router: Router, market: QuotesService): void {
  for (const [list, productType] of LISTS) {
    router.handle(list, async ({ query, lang, actor }) => {
      const { rows, total } = await market.listByType(productType, query, lang, actor);
      return page(rows, total);
    });
  }

  router.handle(routes.recommendedProducts, async ({ query, lang, actor }) => {
    const { rows, total } = await market.recommended(query, lang, actor);
    return page(rows, total);
  });

  router.handle(routes.favourites, async ({ query, lang, actor }) => {
    const { rows, total } = await market.favouriteList(query, lang, actor);
    return page(rows, total);
  });

  router.handle(routes.addFavourite, async ({ body, actor }) =>
    (await market.addOption(actor, body)) ? ok() : alreadyDone(),
  );

  router.handle(routes.removeFavourite, async ({ body, actor }) =>
    (await market.delOption(actor, body)) ? ok() : alreadyDone(),
  );

  router.handle(routes.kline, async ({ query }) => ok(await market.kline(query)));

  router.handle(routes.orderBook, async ({ query }) => ok(await market.orderBook(query)));

  router.handle(routes.exchangeInfo, async () => ok(await market.exchangeInfo()));
}
