/** The quote calls (the spec's market calls) of SEED-SPEC section 7 and PRODUCT section 3. */
import {
  PRODUCT_TYPE,
  klineQuery,
  productListQuery,
  productOptionBody,
  type ProductType,
} from '@bourse/shared';
import { nothingToDo, ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { QuotesService } from './service';

const LISTS: [string, ProductType][] = [
  ['/api/stockProduct/list', PRODUCT_TYPE.usStock],
  ['/api/cryptocurrencyProduct/list', PRODUCT_TYPE.crypto],
  ['/api/futuresProduct/list', PRODUCT_TYPE.futures],
  ['/api/forexProduct/list', PRODUCT_TYPE.forex],
];

export function quotesRoutes(router: Router, market: QuotesService): void {
  for (const [url, productType] of LISTS) {
    router.add({
      method: 'GET',
      url,
      auth: 'optional',
      query: productListQuery,
      handler: async ({ query, lang, actor }) => {
        const { rows, total } = await market.listByType(productType, query, lang, actor);
        return page(rows, total);
      },
    });
  }

  router.add({
    method: 'GET',
    url: '/api/homeRecommendProducts/list',
    auth: 'optional',
    query: productListQuery,
    handler: async ({ query, lang, actor }) => {
      const { rows, total } = await market.recommended(query, lang, actor);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/userProductOption/list',
    auth: 'required',
    query: productListQuery,
    handler: async ({ query, lang, actor }) => {
      const { rows, total } = await market.favouriteList(query, lang, actor);
      return page(rows, total);
    },
  });

  router.add({
    method: 'POST',
    url: '/api/userProductOption/addOption',
    auth: 'required',
    body: productOptionBody,
    handler: async ({ body, actor }) =>
      (await market.addOption(actor, body)) ? ok() : nothingToDo(),
  });

  router.add({
    method: 'POST',
    url: '/api/userProductOption/delOption',
    auth: 'required',
    body: productOptionBody,
    handler: async ({ body, actor }) =>
      (await market.delOption(actor, body)) ? ok() : nothingToDo(),
  });

  router.add({
    method: 'GET',
    url: '/api/kline/list',
    auth: 'none',
    query: klineQuery,
    handler: async ({ query }) => ok(await market.kline(query)),
  });

  router.add({
    method: 'GET',
    url: '/api/currencyExchangeRate/getExchangeInfo',
    auth: 'none',
    handler: async () => ok(await market.exchangeInfo()),
  });
}
