/**
 * Balances of the signed-in account: userBalance, userBalanceConvert, personCenterPanelData.
 * (userBibiAssets, the coin-to-coin holdings, is served with the coin-to-coin calls.)
 */
import { assetsApi as routes } from '@bourse/shared';
import { ok } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { MessageService } from '../messages';
import type { AssetsService } from './service';

export function assetsRoutes(
  router: Router,
  assets: AssetsService,
  messages: MessageService,
): void {
  router.handle(routes.balances, async ({ actor, query }) =>
    ok(
      query.currencyId === undefined
        ? await assets.balances(actor)
        : await assets.balance(actor, query.currencyId),
    ),
  );

  // The spec's assets entity: total value, margin and results in the trade currency.
  router.handle(routes.valuation, async ({ actor }) => ok(await assets.valuation(actor)));

  router.handle(routes.panelData, async ({ actor, session }) => {
    const [valuation, notReadMessageCount] = await Promise.all([
      assets.valuation(actor),
      messages.unreadCount(actor.userId),
    ]);
    return ok({ ...valuation, accountType: session.accountType, notReadMessageCount });
  });
}
