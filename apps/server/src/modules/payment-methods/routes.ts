/** Bank cards (userBank) and wallet addresses (userWalletAddress) of the signed-in user. */
import { z } from 'zod';
import {
  bankCardBody,
  idBody,
  modifyWalletAddressBody,
  optionalInt,
  walletAddressBody,
} from '@bourse/shared';
import { ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import { parseInput } from '../../http/validation';
import { PaymentMethodService, type PaymentMethodDeps } from './service';

export type { PaymentMethodDeps } from './service';

const walletAddressListQuery = z.object({ currencyId: optionalInt(1, 1_000_000) });

export function paymentMethodRoutes(router: Router, deps: PaymentMethodDeps): void {
  const service = new PaymentMethodService(deps);

  // ------------------------------------------------------------ bank cards

  router.add({
    method: 'GET',
    url: '/api/userBank/list',
    auth: 'required',
    handler: async ({ session }) => {
      const rows = await service.listBankCards(session.userId);
      return page(rows, rows.length);
    },
  });

  router.add({
    method: 'POST',
    url: '/api/userBank/addUserBankCard',
    auth: 'required',
    body: bankCardBody,
    handler: async ({ session, body, lang }) =>
      ok(await service.addBankCard(session.userId, body, lang)),
  });

  router.add({
    method: 'POST',
    url: '/api/userBank/updateUserBankCard',
    auth: 'required',
    body: bankCardBody,
    handler: async ({ session, body, lang }) => {
      const { id } = parseInput(idBody, body);
      const { id: _id, ...fields } = body;
      return ok(await service.updateBankCard(session.userId, id, fields, lang));
    },
  });

  router.add({
    method: 'POST',
    url: '/api/userBank/userDeleteBankCard',
    auth: 'required',
    body: idBody,
    handler: async ({ session, body }) => {
      await service.deleteBankCard(session.userId, body.id);
      return ok();
    },
  });

  // ------------------------------------------------------------ wallet addresses

  router.add({
    method: 'GET',
    url: '/api/userWalletAddress/list',
    auth: 'required',
    query: walletAddressListQuery,
    handler: async ({ session, query }) => {
      const rows = await service.listWalletAddresses(session.userId, query.currencyId);
      return page(rows, rows.length);
    },
  });

  router.add({
    method: 'POST',
    url: '/api/userWalletAddress/addUserWalletAddress',
    auth: 'required',
    body: walletAddressBody,
    handler: async ({ session, body }) => ok(await service.addWalletAddress(session.userId, body)),
  });

  router.add({
    method: 'POST',
    url: '/api/userWalletAddress/modifyUserWalletAddress',
    auth: 'required',
    body: modifyWalletAddressBody,
    handler: async ({ session, body }) => {
      const { id, ...fields } = body;
      return ok(await service.modifyWalletAddress(session.userId, id, fields));
    },
  });

  router.add({
    method: 'POST',
    url: '/api/userWalletAddress/deleteUserWalletAddress',
    auth: 'required',
    body: idBody,
    handler: async ({ session, body }) => {
      await service.deleteWalletAddress(session.userId, body.id);
      return ok();
    },
  });
}
