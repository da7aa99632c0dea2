/**
 * /admin-api: operator sign-in, operator accounts (admin), the review of deposits and withdrawals
 * (finance, admin), trading settings (fees and fast-trade options: finance; products: admin) and
 * the audit log (admin). There is deliberately no call that sets a balance,
 * a price or an outcome (PRODUCT section 1): money moves only through the reviewed flows.
 */
import { clientIp, clientUserAgent } from '../../http/client';
import type { Config } from '../../config';
import { nothingToDo, ok, page } from '../../http/envelope';
import { AppError } from '../../lib/errors';
import type { AdminRouter } from './router';
import type { OperatorRole } from './roles';
import {
  adminLoginBody,
  auditQuery,
  changeOwnPasswordBody,
  operatorCreateBody,
  operatorListQuery,
  operatorResetPasswordBody,
  operatorUpdateBody,
  reviewIdBody,
  reviewIdQuery,
  reviewListQuery,
  reviewRejectBody,
  userStatusBody,
} from './schemas';
import type { AdminService } from './service';
import { rechargeChannelInput, withdrawChannelInput } from '../wallet';
import { fastTradeOptionSaveInput, feeSaveInput, productUpdateInput } from '../trading';

const MINUTE_MS = 60_000;
const ADMIN: readonly OperatorRole[] = ['admin'];
const FINANCE: readonly OperatorRole[] = ['finance', 'admin'];
const SUPPORT: readonly OperatorRole[] = ['support', 'admin'];

const outcome = <T>(result: { record: T; changed: boolean }) =>
  result.changed ? ok(result.record) : nothingToDo(result.record);

export function adminApiRoutes(router: AdminRouter, admin: AdminService, config: Config): void {
  // ------------------------------------------------------------ sign-in

  router.add({
    method: 'POST',
    url: '/auth/login',
    access: 'none',
    body: adminLoginBody,
    rateLimit: { max: config.RATE_LIMIT_LOGIN_PER_MINUTE, timeWindowMs: MINUTE_MS },
    handler: async ({ body, request }) => {
      return ok(
        await admin.login(body, { ip: clientIp(request), userAgent: clientUserAgent(request) }),
      );
    },
  });

  router.add({
    method: 'POST',
    url: '/auth/logout',
    access: 'any',
    handler: async ({ operator }) => ((await admin.logout(operator)) ? ok() : nothingToDo()),
  });

  router.add({
    method: 'GET',
    url: '/auth/me',
    access: 'any',
    handler: async ({ operator }) => ok(admin.me(operator)),
  });

  router.add({
    method: 'POST',
    url: '/auth/changePassword',
    access: 'any',
    body: changeOwnPasswordBody,
    rateLimit: { max: config.RATE_LIMIT_LOGIN_PER_MINUTE, timeWindowMs: MINUTE_MS },
    handler: async ({ operator, body }) => {
      await admin.changeOwnPassword(operator, body);
      return { ...ok(), msg: 'hint_pwdChanged' };
    },
  });

  // ------------------------------------------------------------ operators (admin)

  router.add({
    method: 'GET',
    url: '/operators',
    access: ADMIN,
    query: operatorListQuery,
    handler: async ({ query }) => {
      const { rows, total } = await admin.listOperators(query.pageNum, query.pageSize);
      return page(rows, total);
    },
  });

  router.add({
    method: 'POST',
    url: '/operators/create',
    access: ADMIN,
    body: operatorCreateBody,
    handler: async ({ operator, body }) => ok(await admin.createOperator(operator, body)),
  });

  router.add({
    method: 'POST',
    url: '/operators/update',
    access: ADMIN,
    body: operatorUpdateBody,
    handler: async ({ operator, body }) => {
      const result = await admin.updateOperator(operator, body);
      return result.changed ? ok(result.operator) : nothingToDo(result.operator);
    },
  });

  router.add({
    method: 'POST',
    url: '/operators/resetPassword',
    access: ADMIN,
    body: operatorResetPasswordBody,
    handler: async ({ operator, body }) => ok(await admin.resetPassword(operator, body)),
  });

  // ------------------------------------------------------------ users (support)

  router.add({
    method: 'POST',
    url: '/users/status',
    access: SUPPORT,
    body: userStatusBody,
    handler: async ({ operator, body }) => {
      const result = await admin.setUserDisabled(operator, body);
      return result.changed ? ok(result) : nothingToDo(result);
    },
  });

  // ------------------------------------------------------------ deposits (finance)

  router.add({
    method: 'GET',
    url: '/recharges',
    access: FINANCE,
    query: reviewListQuery,
    handler: async ({ query }) => {
      const { rows, total } = await admin.listRecharges(query);
      return page(rows, total);
    },
  });

  router.add({
    method: 'GET',
    url: '/recharges/proof',
    access: FINANCE,
    query: reviewIdQuery,
    handler: async ({ query, reply }) => {
      const proof = await admin.rechargeProof(query.id);
      if (!proof) throw new AppError('hint_notFound', 404, ['id']);
      return reply
        .header('content-type', proof.mime)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .send(Buffer.from(proof.data.buffer, proof.data.byteOffset, proof.data.byteLength));
    },
  });

  router.add({
    method: 'POST',
    url: '/recharges/approve',
    access: FINANCE,
    body: reviewIdBody,
    handler: async ({ operator, body }) => outcome(await admin.approveRecharge(operator, body.id)),
  });

  router.add({
    method: 'POST',
    url: '/recharges/reject',
    access: FINANCE,
    body: reviewRejectBody,
    handler: async ({ operator, body }) =>
      outcome(await admin.rejectRecharge(operator, body.id, body.reason)),
  });

  // ------------------------------------------------------------ channels (finance)

  router.add({
    method: 'GET',
    url: '/channels',
    access: FINANCE,
    handler: async () => ok(await admin.listChannels()),
  });

  router.add({
    method: 'POST',
    url: '/channels/recharge/save',
    access: FINANCE,
    body: rechargeChannelInput,
    handler: async ({ operator, body }) => ok(await admin.saveRechargeChannel(operator, body)),
  });

  router.add({
    method: 'POST',
    url: '/channels/withdraw/save',
    access: FINANCE,
    body: withdrawChannelInput,
    handler: async ({ operator, body }) => ok(await admin.saveWithdrawChannel(operator, body)),
  });

  // ------------------------------------------------------------ trading settings

  router.add({
    method: 'GET',
    url: '/fees',
    access: FINANCE,
    handler: async () => ok(await admin.listFees()),
  });

  router.add({
    method: 'POST',
    url: '/fees/save',
    access: FINANCE,
    body: feeSaveInput,
    handler: async ({ operator, body }) => outcome(await admin.saveFee(operator, body)),
  });

  router.add({
    method: 'GET',
    url: '/fastTradeOptions',
    access: FINANCE,
    handler: async () => ok(await admin.listFastTradeOptions()),
  });

  router.add({
    method: 'POST',
    url: '/fastTradeOptions/save',
    access: FINANCE,
    body: fastTradeOptionSaveInput,
    handler: async ({ operator, body }) => outcome(await admin.saveFastTradeOption(operator, body)),
  });

  // Visibility, sort, halt and leverage choices; there is no field for a price.
  router.add({
    method: 'GET',
    url: '/products',
    access: ADMIN,
    handler: async () => ok(await admin.listProducts()),
  });

  router.add({
    method: 'POST',
    url: '/products/update',
    access: ADMIN,
    body: productUpdateInput,
    handler: async ({ operator, body }) => outcome(await admin.updateProduct(operator, body)),
  });

  // ------------------------------------------------------------ withdrawals (finance)

  router.add({
    method: 'GET',
    url: '/withdrawals',
    access: FINANCE,
    query: reviewListQuery,
    handler: async ({ query }) => {
      const { rows, total } = await admin.listWithdrawals(query);
      return page(rows, total);
    },
  });

  router.add({
    method: 'POST',
    url: '/withdrawals/pay',
    access: FINANCE,
    body: reviewIdBody,
    handler: async ({ operator, body }) => outcome(await admin.payWithdrawal(operator, body.id)),
  });

  router.add({
    method: 'POST',
    url: '/withdrawals/reject',
    access: FINANCE,
    body: reviewRejectBody,
    handler: async ({ operator, body }) =>
      outcome(await admin.rejectWithdrawal(operator, body.id, body.reason)),
  });

  // ------------------------------------------------------------ audit log (admin)

  router.add({
    method: 'GET',
    url: '/audit',
    access: ADMIN,
    query: auditQuery,
    handler: async ({ query }) => {
      const { pageNum, pageSize, ...filter } = query;
      const { rows, total } = await admin.listAudit(filter, pageNum, pageSize);
      return page(rows, total);
    },
  });
}
