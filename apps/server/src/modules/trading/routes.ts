/** Trading calls: fast trades (position type 0) and contracts (1). */
import {
  addFastTradeOrderBody,
  cancelOrderBody,
  closeContractBody,
  contractListQuery,
  openContractBody,
  updateTpSlBody,
  fastTradeListQuery,
  fastTradeOptionsQuery,
  idQuery,
} from '@bourse/shared';
import { nothingToDo, ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { Contracts } from './contracts';
import type { FastTrades } from './fast-trade';

export function tradingRoutes(router: Router, fast: FastTrades): void {
  router.add({
    method: 'GET',
    url: '/api/fastTradeOrderOptions/list',
    auth: 'optional',
    query: fastTradeOptionsQuery,
    handler: async ({ query }) => ok(await fast.options(query.productType, query.productCode)),
  });

  // The risk disclosure, accepted once before the first fast trade.
  router.add({
    method: 'GET',
    url: '/api/fastTradeOrder/riskStatus',
    auth: 'required',
    handler: async ({ actor }) => ok({ accepted: await fast.riskAccepted(actor.userId) }),
  });

  router.add({
    method: 'POST',
    url: '/api/fastTradeOrder/acceptRisk',
    auth: 'required',
    handler: async ({ actor }) => {
      await fast.acceptRisk(actor.userId);
      return ok({ accepted: true });
    },
  });

  router.add({
    method: 'POST',
    url: '/api/fastTradeOrder/addFastTradeOrder',
    auth: 'required',
    body: addFastTradeOrderBody,
    handler: async ({ actor, body, lang }) => ok(await fast.place(actor, body, lang)),
  });

  router.add({
    method: 'GET',
    url: '/api/fastTradeOrder/list',
    auth: 'required',
    query: fastTradeListQuery,
    handler: async ({ actor, query, lang }) => {
      const { rows, total } = await fast.list(actor, query, lang);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/fastTradeOrder/detail',
    auth: 'required',
    query: idQuery,
    handler: async ({ actor, query, lang }) => ok(await fast.detail(actor, query.id, lang)),
  });
}

export function contractRoutes(router: Router, contracts: Contracts): void {
  router.add({
    method: 'POST',
    url: '/api/contractPosition/open',
    auth: 'required',
    body: openContractBody,
    handler: async ({ actor, body, lang }) => ok(await contracts.open(actor, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/contractPosition/close',
    auth: 'required',
    body: closeContractBody,
    handler: async ({ actor, body, lang }) => ok(await contracts.close(actor, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/contractPosition/updateTpSl',
    auth: 'required',
    body: updateTpSlBody,
    handler: async ({ actor, body, lang }) => ok(await contracts.updateTpSl(actor, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/contractPosition/cancel',
    auth: 'required',
    body: cancelOrderBody,
    handler: async ({ actor, body, lang }) => {
      const { position, changed } = await contracts.cancel(actor, body.id, lang);
      return changed ? ok(position) : nothingToDo(position);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/contractPosition/list',
    auth: 'required',
    query: contractListQuery,
    handler: async ({ actor, query, lang }) => {
      const { rows, total } = await contracts.list(actor, query, lang);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/contractPosition/detail',
    auth: 'required',
    query: idQuery,
    handler: async ({ actor, query, lang }) => ok(await contracts.detail(actor, query.id, lang)),
  });
}
