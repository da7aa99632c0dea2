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

export function spotRoutes(router: Router, spot: SpotTrading): void {
  // ---------------------------------------------------------------- spot (position type 2)
  const SPOT = POSITION_TYPE.spot;

  router.add({
    method: 'POST',
    url: '/api/spotTradeOrder/addSpotTradeOrder',
    auth: 'required',
    body: spotOrderBody,
    handler: async ({ session, body, lang }) =>
      ok(await spot.place(session, SPOT, BUY, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/spotTradeOrder/sellSpotTradeOrder',
    auth: 'required',
    body: spotOrderBody,
    handler: async ({ session, body, lang }) =>
      ok(await spot.place(session, SPOT, SELL, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/spotTradeOrder/cancel',
    auth: 'required',
    body: cancelOrderBody,
    handler: async ({ session, body, lang }) => {
      const { order, changed } = await spot.cancel(session, SPOT, body.id, lang);
      return changed ? ok(order) : nothingToDo(order);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/spotTradeOrder/list',
    auth: 'required',
    query: spotListQuery,
    handler: async ({ session, query, lang }) => {
      const { rows, total } = await spot.list(session, SPOT, query, lang);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/spotTradeOrder/holdings',
    auth: 'required',
    handler: async ({ session, lang }) => ok(await spot.holdings(session, lang)),
  });

  // ---------------------------------------------------------------- coin-to-coin (3)
  const BIBI = POSITION_TYPE.coinToCoin;

  router.add({
    method: 'POST',
    url: '/api/bibiTradeOrder/buy',
    auth: 'required',
    body: bibiOrderBody,
    handler: async ({ session, body, lang }) =>
      ok(await spot.place(session, BIBI, BUY, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/bibiTradeOrder/sell',
    auth: 'required',
    body: bibiOrderBody,
    handler: async ({ session, body, lang }) =>
      ok(await spot.place(session, BIBI, SELL, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/bibiTradeOrder/cancel',
    auth: 'required',
    body: cancelOrderBody,
    handler: async ({ session, body, lang }) => {
      const { order, changed } = await spot.cancel(session, BIBI, body.id, lang);
      return changed ? ok(order) : nothingToDo(order);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/bibiTradeOrder/list',
    auth: 'required',
    query: spotListQuery,
    handler: async ({ session, query, lang }) => {
      const { rows, total } = await spot.list(session, BIBI, query, lang);
      return page(rows, total);
    },
  });

  // The spec's bibi assets: each coin held through coin-to-coin trading.
  router.add({
    method: 'GET',
    url: '/api/userBibiAssets/list',
    auth: 'required',
    handler: async ({ session }) => {
      const rows = await spot.bibiAssets(session);
      return page(rows, rows.length);
    },
  });
}
