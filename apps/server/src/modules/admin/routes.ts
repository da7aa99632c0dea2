/**
 * /admin-api (operatorsApi of @bourse/shared): operator sign-in, operator accounts (admin), the
 * review of deposits and withdrawals (finance, admin), trading settings (fees and fast-trade
 * options: finance; products: admin) and the audit log (admin). The Router's operator guard answers
 * 401 without a session and 403 for a role the route does not name, before the input is read.
 * There is deliberately no call that sets a balance, a price or an outcome (PRODUCT section 1):
 * money moves only through the reviewed flows.
 */
import { operatorsApi as routes } from '@bourse/shared';
import { clientIp, clientUserAgent } from '../../http/client';
import type { Config } from '../../config';
import { alreadyDone, ok, page, pageOf } from '../../http/envelope';
import type { Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import { sendProofImage } from '../wallet';
import type { ConsoleEvents } from './console-events';
import type { AdminService, OperatorContext } from './service';

const MINUTE_MS = 60_000;

const outcome = <T>(result: { record: T; changed: boolean }) =>
  result.changed ? ok(result.record) : alreadyDone(result.record);

/** Registers the operator API on a router whose operator guard resolves OperatorContexts. */
export function adminApiRoutes(
  router: Router<OperatorContext>,
  admin: AdminService,
  config: Config,
  events: ConsoleEvents,
): void {
  const signInLimit = {
    rateLimit: { max: config.RATE_LIMIT_LOGIN_PER_MINUTE, timeWindowMs: MINUTE_MS },
  };

  // ------------------------------------------------------------ sign-in

  router.handle(
    routes.signIn,
    async ({ body, request }) =>
      ok(await admin.login(body, { ip: clientIp(request), userAgent: clientUserAgent(request) })),
    signInLimit,
  );

  router.handle(routes.signOut, async ({ operator }) =>
    (await admin.logout(operator)) ? ok() : alreadyDone(),
  );

  router.handle(routes.me, async ({ operator }) => ok(admin.me(operator)));

  router.handle(
    routes.changePassword,
    async ({ operator, body }) => {
      await admin.changeOwnPassword(operator, body);
      return { ...ok(), msg: 'hint_pwdChanged' };
    },
    signInLimit,
  );

  // ------------------------------------------------------------ operators (admin)

  router.handle(routes.operators, async ({ query }) =>
    pageOf(await admin.listOperators(query.pageNum, query.pageSize)),
  );

  router.handle(routes.createOperator, async ({ operator, body }) =>
    ok(await admin.createOperator(operator, body)),
  );

  router.handle(routes.updateOperator, async ({ operator, body }) => {
    const result = await admin.updateOperator(operator, body);
    return result.changed ? ok(result.operator) : alreadyDone(result.operator);
  });

  router.handle(routes.resetOperatorPassword, async ({ operator, body }) =>
    ok(await admin.resetPassword(operator, body)),
  );

  // ------------------------------------------------------------ users (support)

  router.handle(routes.setUserStatus, async ({ operator, body }) => {
    const result = await admin.setUserDisabled(operator, body);
    return result.changed ? ok(result) : alreadyDone(result);
  });

  // ------------------------------------------------------------ review queues

  router.handle(routes.reviewEvents, async ({ operator, token, request, reply }) =>
    events.open(
      request,
      reply,
      operator,
      () => admin.resolve(token!, clientIp(request)),
      config.WS_SESSION_CHECK_MS,
    ),
  );

  // ------------------------------------------------------------ deposits (finance)

  router.handle(routes.recharges, async ({ query }) => pageOf(await admin.listRecharges(query)));

  router.handle(routes.rechargeProof, async ({ query, reply }) => {
    const proof = await admin.rechargeProof(query.id);
    if (!proof) throw new AppError('hint_notFound', 404, ['id']);
    return sendProofImage(reply, proof);
  });

  router.handle(routes.approveRecharge, async ({ operator, body }) =>
    outcome(await admin.reviewAs(operator).approveRecharge(body.id)),
  );

  router.handle(routes.rejectRecharge, async ({ operator, body }) =>
    outcome(await admin.reviewAs(operator).rejectRecharge(body.id, body.reason)),
  );

  // ------------------------------------------------------------ channels (finance)

  router.handle(routes.rechargeChannels, async ({ query }) =>
    pageOf(await admin.listRechargeChannels(query)),
  );

  router.handle(routes.withdrawChannels, async ({ query }) =>
    pageOf(await admin.listWithdrawChannels(query)),
  );

  router.handle(routes.saveRechargeChannel, async ({ operator, body }) =>
    ok(await admin.saveRechargeChannel(operator, body)),
  );

  router.handle(routes.saveWithdrawChannel, async ({ operator, body }) =>
    ok(await admin.saveWithdrawChannel(operator, body)),
  );

  // ------------------------------------------------------------ trading settings

  router.handle(routes.fees, async () => ok(await admin.listFees()));

  router.handle(routes.saveFee, async ({ operator, body }) =>
    outcome(await admin.saveFee(operator, body)),
  );

  router.handle(routes.fastTradeOptions, async ({ query }) =>
    pageOf(await admin.listFastTradeOptions(query)),
  );

  router.handle(routes.saveFastTradeOption, async ({ operator, body }) =>
    outcome(await admin.saveFastTradeOption(operator, body)),
  );

  router.handle(routes.products, async ({ query }) => pageOf(await admin.listProducts(query)));

  router.handle(routes.updateProduct, async ({ operator, body }) =>
    outcome(await admin.updateProduct(operator, body)),
  );

  // ------------------------------------------------------------ withdrawals (finance)

  router.handle(routes.withdrawals, async ({ query }) =>
    pageOf(await admin.listWithdrawals(query)),
  );

  router.handle(routes.payWithdrawal, async ({ operator, body }) =>
    outcome(await admin.reviewAs(operator).payWithdrawal(body.id)),
  );

  router.handle(routes.rejectWithdrawal, async ({ operator, body }) =>
    outcome(await admin.reviewAs(operator).rejectWithdrawal(body.id, body.reason)),
  );

  // ------------------------------------------------------------ audit log (admin)

  router.handle(routes.audit, async ({ query }) => {
    const { pageNum, pageSize, ...filter } = query;
    const { rows, total } = await admin.listAudit(filter, pageNum, pageSize);
    return page(rows, total);
  });
}
