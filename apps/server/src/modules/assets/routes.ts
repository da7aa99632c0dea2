/** Balances of the signed-in account: userBalance, userBibiAssets, personCenterPanelData. */
import { userBalanceQuery } from '@bourse/shared';
import { ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { MessageService } from '../messages/service';
import type { AssetsService } from './service';

export function assetsRoutes(
  router: Router,
  assets: AssetsService,
  messages: MessageService,
): void {
  router.add({
    method: 'GET',
    url: '/api/userInfo/userBalance',
    auth: 'required',
    query: userBalanceQuery,
    handler: async ({ session, query }) =>
      ok(
        query.currencyId === undefined
          ? await assets.balances(session)
          : await assets.balance(session, query.currencyId),
      ),
  });

  router.add({
    method: 'GET',
    url: '/api/userBibiAssets/list',
    auth: 'required',
    handler: async ({ session }) => {
      const rows = await assets.coinAssets(session);
      return page(rows, rows.length);
    },
  });

  // The spec's assets entity: total value, margin and results in the trade currency.
  router.add({
    method: 'GET',
    url: '/api/userInfo/userBalanceConvert',
    auth: 'required',
    handler: async ({ session }) => ok(await assets.valuation(session)),
  });

  router.add({
    method: 'GET',
    url: '/api/userInfo/personCenterPanelData',
    auth: 'required',
    handler: async ({ session }) => {
      const [valuation, notReadMessageCount] = await Promise.all([
        assets.valuation(session),
        messages.unreadCount(session.userId),
      ]);
      return ok({ ...valuation, accountType: session.accountType, notReadMessageCount });
    },
  });
}
