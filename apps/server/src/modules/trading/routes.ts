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
    handler: async ({ session }) => ok({ accepted: await fast.riskAccepted(session.userId) }),
  });

  router.add({
    method: 'POST',
    url: '/api/fastTradeOrder/acceptRisk',
    auth: 'required',
    handler: async ({ session }) => {
      await fast.acceptRisk(session.userId);
      return ok({ accepted: true });
    },
  });

  router.add({
    method: 'POST',
    url: '/api/fastTradeOrder/addFastTradeOrder',
    auth: 'required',
    body: addFastTradeOrderBody,
    handler: async ({ session, body, lang }) => ok(await fast.place(session, body, lang)),
  });

  router.add({
    method: 'GET',
    url: '/api/fastTradeOrder/list',
    auth: 'required',
    query: fastTradeListQuery,
    handler: async ({ session, query, lang }) => {
      const { rows, total } = await fast.list(session, query, lang);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/fastTradeOrder/detail',
    auth: 'required',
    query: idQuery,
    handler: async ({ session, query, lang }) => ok(await fast.detail(session, query.id, lang)),
  });
}

export function contractRoutes(router: Router, contracts: Contracts): void {
  router.add({
    method: 'POST',
    url: '/api/contractPosition/open',
    auth: 'required',
    body: openContractBody,
    handler: async ({ session, body, lang }) => ok(await contracts.open(session, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/contractPosition/close',
    auth: 'required',
    body: closeContractBody,
    handler: async ({ session, body, lang }) => ok(await contracts.close(session, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/contractPosition/updateTpSl',
    auth: 'required',
    body: updateTpSlBody,
    handler: async ({ session, body, lang }) => ok(await contracts.updateTpSl(session, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/contractPosition/cancel',
    auth: 'required',
    body: cancelOrderBody,
    handler: async ({ session, body, lang }) => {
      const { position, changed } = await contracts.cancel(session, body.id, lang);
      return changed ? ok(position) : nothingToDo(position);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/contractPosition/list',
    auth: 'required',
    query: contractListQuery,
    handler: async ({ session, query, lang }) => {
      const { rows, total } = await contracts.list(session, query, lang);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/contractPosition/detail',
    auth: 'required',
    query: idQuery,
    handler: async ({ session, query, lang }) =>
      ok(await contracts.detail(session, query.id, lang)),
  });
}
