/** Trading calls: fast trades (position type 0) and contracts (1). */
import { tradingApi as routes } from '@bourse/shared';
import { alreadyDone, ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { Contracts } from './contracts';
import type { FastTrades } from './fast-trade';

export function tradingRoutes(router: Router, fast: FastTrades): void {
  router.handle(routes.fastTradeOptions, async ({ query }) =>
    ok(await fast.options(query.productType, query.productCode)),
  );

  // The risk disclosure, accepted once before the first fast trade.
  router.handle(routes.fastTradeRiskStatus, async ({ actor }) =>
    ok({ accepted: await fast.riskAccepted(actor.userId) }),
  );

  router.handle(routes.acceptFastTradeRisk, async ({ actor }) => {
    await fast.acceptRisk(actor.userId);
    return ok({ accepted: true });
  });

  router.handle(routes.placeFastTrade, async ({ actor, body, lang }) =>
    ok(await fast.place(actor, body, lang)),
  );

  router.handle(routes.fastTrades, async ({ actor, query, lang }) => {
    const { rows, total } = await fast.list(actor, query, lang);
    return page(rows, total);
  });

  router.handle(routes.fastTrade, async ({ actor, query, lang }) =>
    ok(await fast.detail(actor, query.id, lang)),
  );
}

export function contractRoutes(router: Router, contracts: Contracts): void {
  router.handle(routes.openContract, async ({ actor, body, lang }) =>
    ok(await contracts.open(actor, body, lang)),
  );

  router.handle(routes.closeContract, async ({ actor, body, lang }) =>
    ok(await contracts.close(actor, body, lang)),
  );

  router.handle(routes.updateTpSl, async ({ actor, body, lang }) =>
    ok(await contracts.updateTpSl(actor, body, lang)),
  );

  router.handle(routes.cancelContract, async ({ actor, body, lang }) => {
    const { position, changed } = await contracts.cancel(actor, body.id, lang);
    return changed ? ok(position) : alreadyDone(position);
  });

  router.handle(routes.contracts, async ({ actor, query, lang }) => {
    const { rows, total } = await contracts.list(actor, query, lang);
    return page(rows, total);
  });

  router.handle(routes.contract, async ({ actor, query, lang }) =>
    ok(await contracts.detail(actor, query.id, lang)),
  );
}
