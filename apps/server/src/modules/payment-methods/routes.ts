/** Bank cards (userBank) and wallet addresses (userWalletAddress) of the signed-in user. */
import { idBody, paymentMethodsApi as routes } from '@bourse/shared';
import { ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import { parseInput } from '../../http/validation';
import { PaymentMethodService, type PaymentMethodDeps } from './service';
import type { WithdrawWhitelists } from './whitelist';

export type { PaymentMethodDeps } from './service';

export function paymentMethodRoutes(
  router: Router,
  deps: PaymentMethodDeps & { whitelist: WithdrawWhitelists },
): void {
  const service = new PaymentMethodService(deps);
  const { whitelist } = deps;

  router.handle(routes.bankCards, async ({ actor }) => {
    const rows = await service.listBankCards(actor.userId);
    return page(rows, rows.length);
  });

  router.handle(routes.addBankCard, async ({ actor, body, lang }) =>
    ok(await service.addBankCard(actor.userId, body, lang)),
  );

  router.handle(routes.updateBankCard, async ({ actor, body, lang }) => {
    const { id } = parseInput(idBody, body);
    const { id: _id, ...fields } = body;
    return ok(await service.updateBankCard(actor.userId, id, fields, lang));
  });

  router.handle(routes.deleteBankCard, async ({ actor, body }) => {
    await service.deleteBankCard(actor.userId, body.id);
    return ok();
  });

  router.handle(routes.walletAddresses, async ({ actor, query }) => {
    const rows = await service.listWalletAddresses(actor.userId, query.currencyId);
    return page(rows, rows.length);
  });

  router.handle(routes.addWalletAddress, async ({ actor, body }) =>
    ok(await service.addWalletAddress(actor.userId, body)),
  );

  router.handle(routes.modifyWalletAddress, async ({ actor, body }) => {
    const { id, ...fields } = body;
    return ok(await service.modifyWalletAddress(actor.userId, id, fields));
  });

  router.handle(routes.deleteWalletAddress, async ({ actor, body }) => {
    await service.deleteWalletAddress(actor.userId, body.id);
    return ok();
  });

  router.handle(routes.withdrawWhitelist, async ({ actor }) =>
    ok(await whitelist.status(actor.userId)),
  );

  router.handle(routes.setWithdrawWhitelist, async ({ actor, body }) =>
    ok(await whitelist.set(actor.userId, body)),
  );
}
