/** Spot (`spotTradeOrder/*`) and coin-to-coin (`bibiTradeOrder/*`, `userBibiAssets/list`) calls. */
import {
  ORDER_DIRECTION,
  POSITION_TYPE,
  bibiOrderBody,
  cancelOrderBody,
  spotListQuery,
  spotOrderBody,
} from '@bourse/shared';
import { nothingToDo, ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { SpotTrading } from './spot';

const BUY = ORDER_DIRECTION.up;
const SELL = ORDER_DIRECTION.down;

/**
 * Spot and coin-to-coin take the same four calls under their own paths (the spec's names): buy,
 * sell, cancel and list. They differ in their position type and in the product a body names
 * (coin-to-coin pairs carry no product type).
 */
const ORDER_KINDS = [
  {
    positionType: POSITION_TYPE.spot,
    base: '/api/spotTradeOrder',
    buy: 'addSpotTradeOrder',
    sell: 'sellSpotTradeOrder',
    body: spotOrderBody,
  },
  {
    positionType: POSITION_TYPE.coinToCoin,
    base: '/api/bibiTradeOrder',
    buy: 'buy',
    sell: 'sell',
    body: bibiOrderBody,
  },
] as const;

export function spotRoutes(router: Router, spot: SpotTrading): void {
  for (const kind of ORDER_KINDS) {
    const type = kind.positionType;
    for (const [name, direction] of [
      [kind.buy, BUY],
      [kind.sell, SELL],
    ] as const) {
      router.add({
        method: 'POST',
        url: `${kind.base}/${name}`,
        auth: 'required',
        body: kind.body,
        handler: async ({ actor, body, lang }) =>
          ok(await spot.place(actor, type, direction, body, lang)),
      });
    }

    router.add({
      method: 'POST',
      url: `${kind.base}/cancel`,
      auth: 'required',
      body: cancelOrderBody,
      handler: async ({ actor, body, lang }) => {
        const { order, changed } = await spot.cancel(actor, type, body.id, lang);
        return changed ? ok(order) : nothingToDo(order);
      },
    });

    router.add({
      method: 'GET',
      url: `${kind.base}/list`,
      auth: 'required',
      query: spotListQuery,
      handler: async ({ actor, query, lang }) => {
        const { rows, total } = await spot.list(actor, type, query, lang);
        return page(rows, total);
      },
    });
  }

  router.add({
    method: 'GET',
    url: '/api/spotTradeOrder/holdings',
    auth: 'required',
    handler: async ({ actor, lang }) => ok(await spot.holdings(actor, lang)),
  });

  // The spec's bibi assets: each coin held through coin-to-coin trading.
  router.add({
    method: 'GET',
    url: '/api/userBibiAssets/list',
    auth: 'required',
    handler: async ({ actor }) => {
      const rows = await spot.bibiAssets(actor);
      return page(rows, rows.length);
    },
  });
}
