/** Wallet calls: channels, deposits, withdrawals, exchange and records (PRODUCT section 3). */
import {
  balanceConvertBody,
  balanceRecordQuery,
  channelListQuery,
  exchangeQuoteQuery,
  idBody,
  idQuery,
  inMoneyBody,
  outMoneyBody,
  pageQuery,
  rechargeListQuery,
  withdrawListQuery,
} from '@bourse/shared';
import { nothingToDo, ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import type { WalletService } from './service';

/** A deposit request carries its payment proof: up to 2 MiB of image as base64, and the form. */
const IN_MONEY_BODY_LIMIT = 3 * 1024 * 1024 + 64 * 1024;

export function walletRoutes(router: Router, wallet: WalletService): void {
  router.add({
    method: 'GET',
    url: '/api/rechargeChannelConfig/list',
    auth: 'optional',
    query: channelListQuery,
    handler: async ({ query }) => ok(await wallet.recharges.channels(query.currencyId)),
  });

  router.add({
    method: 'POST',
    url: '/api/userRecharge/inMoney',
    auth: 'required',
    body: inMoneyBody,
    bodyLimit: IN_MONEY_BODY_LIMIT,
    handler: async ({ actor, body }) => ok(await wallet.recharges.submit(actor, body)),
  });

  router.add({
    method: 'GET',
    url: '/api/userRecharge/list',
    auth: 'required',
    query: rechargeListQuery,
    handler: async ({ actor, query }) => {
      const { rows, total } = await wallet.recharges.list(actor, query);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/userRecharge/detail',
    auth: 'required',
    query: idQuery,
    handler: async ({ actor, query }) => ok(await wallet.recharges.detail(actor, query.id)),
  });

  // The proof image, to its owner only; never cached by shared caches, never sniffed.
  router.add({
    method: 'GET',
    url: '/api/userRecharge/proof',
    auth: 'required',
    query: idQuery,
    handler: async ({ actor, query, reply }) => {
      const proof = await wallet.recharges.proof(query.id, actor.userId);
      if (!proof) throw new AppError('hint_rechargeNotFound', 404, ['id']);
      return reply
        .header('content-type', proof.mime)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .send(Buffer.from(proof.data));
    },
  });

  router.add({
    method: 'GET',
    url: '/api/withdrawChannelConfig/list',
    auth: 'required',
    query: channelListQuery,
    handler: async ({ actor, query }) =>
      ok(await wallet.withdrawals.channels(actor, query.currencyId)),
  });

  // The announcement of withdrawal terms getting worse (PRODUCT section 1.9): public, so anyone can
  // see what is coming before depositing.
  router.add({
    method: 'GET',
    url: '/api/userWithdraw/termsChanges',
    auth: 'none',
    query: channelListQuery,
    handler: async ({ query }) => ok(await wallet.withdrawals.termsChanges(query.currencyId)),
  });

  router.add({
    method: 'POST',
    url: '/api/userWithdraw/outMoney',
    auth: 'required',
    body: outMoneyBody,
    handler: async ({ actor, body }) => ok(await wallet.withdrawals.submit(actor, body)),
  });

  router.add({
    method: 'POST',
    url: '/api/userWithdraw/cancel',
    auth: 'required',
    body: idBody,
    handler: async ({ actor, body }) => {
      const { record, changed } = await wallet.withdrawals.cancel(actor, body.id);
      return changed ? ok(record) : nothingToDo(record);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/userWithdraw/list',
    auth: 'required',
    query: withdrawListQuery,
    handler: async ({ actor, query }) => {
      const { rows, total } = await wallet.withdrawals.list(actor, query);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/userWithdraw/detail',
    auth: 'required',
    query: idQuery,
    handler: async ({ actor, query }) => ok(await wallet.withdrawals.detail(actor, query.id)),
  });

  router.add({
    method: 'GET',
    url: '/api/balanceConvertRecord/quote',
    auth: 'required',
    query: exchangeQuoteQuery,
    handler: async ({ actor, query }) => ok(await wallet.exchange.quote(actor, query)),
  });

  router.add({
    method: 'POST',
    url: '/api/balanceConvertRecord/balanceConvert',
    auth: 'required',
    body: balanceConvertBody,
    handler: async ({ actor, body }) => ok(await wallet.exchange.convert(actor, body)),
  });

  router.add({
    method: 'GET',
    url: '/api/balanceConvertRecord/list',
    auth: 'required',
    query: pageQuery,
    handler: async ({ actor, query }) => {
      const { rows, total } = await wallet.exchange.list(actor, query);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/api/balanceRecord/list',
    auth: 'required',
    query: balanceRecordQuery,
    handler: async ({ actor, query }) => {
      const { rows, total } = await wallet.records(actor, query);
      return page(rows, total);
    },
  });
}
