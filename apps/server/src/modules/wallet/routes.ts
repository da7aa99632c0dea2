/** Wallet calls: channels, deposits, withdrawals, exchange and records (PRODUCT section 3). */
import { walletApi as routes } from '@bourse/shared';
import type { FastifyReply } from 'fastify';
import { alreadyDone, ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import type { WalletService } from './service';

/** A deposit request carries its payment proof: up to 2 MiB of image as base64, and the form. */
const IN_MONEY_BODY_LIMIT = 3 * 1024 * 1024 + 64 * 1024;

/**
 * Answers a stored image (a payment proof) to the user or operator allowed to see it: never cached
 * by shared caches, never sniffed.
 */
export function sendProofImage(
  reply: FastifyReply,
  image: { mime: string; data: Uint8Array },
): FastifyReply {
  return reply
    .header('content-type', image.mime)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', 'inline')
    .send(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength));
}

export function walletRoutes(router: Router, wallet: WalletService): void {
  router.handle(routes.rechargeChannels, async ({ query, lang }) =>
    ok(await wallet.recharges.channels(query.currencyId, lang)),
  );

  router.handle(
    routes.submitRecharge,
    async ({ actor, body, lang }) => ok(await wallet.recharges.submit(actor, body, lang)),
    { bodyLimit: IN_MONEY_BODY_LIMIT },
  );

  router.handle(routes.recharges, async ({ actor, query, lang }) => {
    const { rows, total } = await wallet.recharges.review.listOwn(actor.userId, query, lang);
    return page(rows, total);
  });

  router.handle(routes.recharge, async ({ actor, query, lang }) =>
    ok(await wallet.recharges.review.detail(actor.userId, query.id, lang)),
  );

  // The proof image, to its owner only.
  router.handle(routes.rechargeProof, async ({ actor, query, reply }) => {
    const proof = await wallet.recharges.proof(query.id, actor.userId);
    if (!proof) throw new AppError('hint_rechargeNotFound', 404, ['id']);
    return sendProofImage(reply, proof);
  });

  router.handle(routes.withdrawChannels, async ({ actor, query, lang }) =>
    ok(await wallet.withdrawals.channels(actor, query.currencyId, lang)),
  );

  // A bound card or address whole, to its owner, for the confirmation before a withdrawal; never
  // kept by a cache.
  router.handle(routes.withdrawDestination, async ({ actor, query, reply }) => {
    reply.header('cache-control', 'private, no-store');
    return ok(await wallet.withdrawals.ownDestination(actor.userId, query));
  });

  // The announcement of withdrawal terms getting worse (PRODUCT section 1.9): public, so anyone can
  // see what is coming before depositing.
  router.handle(routes.withdrawTermsChanges, async ({ query, lang }) =>
    ok(await wallet.withdrawals.termsChanges(query.currencyId, lang)),
  );

  router.handle(routes.submitWithdrawal, async ({ actor, body, lang }) =>
    ok(await wallet.withdrawals.submit(actor, body, lang)),
  );

  router.handle(routes.cancelWithdrawal, async ({ actor, body, lang }) => {
    const { record, changed } = await wallet.withdrawals.review.decideAsOwner(
      'cancel',
      body.id,
      actor.userId,
      lang,
    );
    return changed ? ok(record) : alreadyDone(record);
  });

  router.handle(routes.withdrawals, async ({ actor, query, lang }) => {
    const { rows, total } = await wallet.withdrawals.review.listOwn(actor.userId, query, lang);
    return page(rows, total);
  });

  router.handle(routes.withdrawal, async ({ actor, query, lang }) =>
    ok(await wallet.withdrawals.review.detail(actor.userId, query.id, lang)),
  );

  router.handle(routes.exchangeQuote, async ({ actor, query }) =>
    ok(await wallet.exchange.quote(actor, query)),
  );

  router.handle(routes.exchange, async ({ actor, body }) =>
    ok(await wallet.exchange.convert(actor, body)),
  );

  router.handle(routes.exchanges, async ({ actor, query }) => {
    const { rows, total } = await wallet.exchange.list(actor, query);
    return page(rows, total);
  });

  router.handle(routes.balanceRecords, async ({ actor, query }) => {
    const { rows, total } = await wallet.records(actor, query);
    return page(rows, total);
  });
}
