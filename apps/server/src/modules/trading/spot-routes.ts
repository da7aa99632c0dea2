/** Spot (`spotTradeOrder/*`) and coin-to-coin (`bibiTradeOrder/*`, `userBibiAssets/list`) calls. */
import { ORDER_DIRECTION, POSITION_TYPE, tradingApi as routes } from '@bourse/shared';
import { alreadyDone, ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { SpotTrading } from './spot';

/**
 * Spot and coin-to-coin take the same four calls under their own paths (the spec's names): buy,
 * sell, cancel and list. They differ in their position type and in the product a body names
 * (coin-to-coin pairs carry no product type).
 */
const ORDER_KINDS = [
  {
    positionType: POSITION_TYPE.spot,
    buy: routes.spotBuy,
    sell: routes.spotSell,
    cancel: routes.cancelSpotOrder,
    list: routes.spotOrders,
  },
  {
    positionType: POSITION_TYPE.coinToCoin,
    buy: routes.bibiBuy,
    sell: routes.bibiSell,
    cancel: routes.cancelBibiOrder,
    list: routes.bibiOrders,
  },
] as const;

export function spotRoutes(router: Router, spot: SpotTrading): void {
  for (const kind of ORDER_KINDS) {
    const type = kind.positionType;
    for (const [place, direction] of [
      [kind.buy, ORDER_DIRECTION.up],
      [kind.sell, ORDER_DIRECTION.down],
    ] as const) {
      router.handle(place, async ({ actor, body, lang }) =>
        ok(await spot.place(actor, type, direction, body, lang)),
      );
    }

    router.handle(kind.cancel, async ({ actor, body, lang }) => {
      const { order, changed } = await spot.cancel(actor, type, body.id, lang);
      return changed ? ok(order) : alreadyDone(order);
    });

    router.handle(kind.list, async ({ actor, query, lang }) => {
      const { rows, total } = await spot.list(actor, type, query, lang);
      return page(rows, total);
    });
  }

  router.handle(routes.spotHoldings, async ({ actor, lang }) =>
    ok(await spot.holdings(actor, lang)),
  );

  // The spec's bibi assets: each coin held through coin-to-coin trading.
  router.handle(routes.bibiAssets, async ({ actor }) => {
    const rows = await spot.bibiAssets(actor);
    return page(rows, rows.length);
  });
}
