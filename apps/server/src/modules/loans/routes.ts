/** The loans' calls: the app's (loansApi) and the console's (consoleLoansApi). */
import { consoleLoansApi, loansApi as routes } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Operator, Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import { sendProofImage, type AuditWriter } from '../wallet';
import type { LoansConsole } from './console';
import type { Loans } from './service';

/**
 * An application with up to four images of up to 2 MiB each, as base64 (4/3), with the rest of
 * the body (its texts, at most twelve fields).
 */
const APPLY_BODY_LIMIT = 4 * 3 * 1024 * 1024 + 64 * 1024;

export function loanRoutes(router: Router, loans: Loans): void {
  router.handle(routes.loanProducts, async ({ actor, query, lang }) =>
    pageOf(await loans.products(actor ?? undefined, query, lang)),
  );

  router.handle(
    routes.applyLoan,
    async ({ actor, body, lang }) => ok(await loans.apply(actor, body, lang)),
    { bodyLimit: APPLY_BODY_LIMIT },
  );

  router.handle(routes.loanOrders, async ({ actor, query, lang }) =>
    pageOf(await loans.orders(actor, query, lang)),
  );

  router.handle(routes.loanOrder, async ({ actor, query, lang }) =>
    ok(await loans.order(actor, query.id, lang)),
  );

  router.handle(routes.loanPanel, async ({ actor }) => ok(await loans.panel(actor)));

  router.handle(routes.loanInterestRecords, async ({ actor, query }) =>
    pageOf(await loans.interestRecords(actor, query)),
  );

  router.handle(routes.repayLoan, async ({ actor, body }) => ok(await loans.repay(actor, body)));

  router.handle(routes.loanRepayments, async ({ actor, query }) =>
    pageOf(await loans.repayments(actor, query)),
  );
}

/** The console's calls (consoleLoansApi); each change audited as the operator's. */
export function loanConsoleRoutes<O extends Operator>(
  router: Router<O>,
  loans: LoansConsole,
  auditOf: (operator: O) => AuditWriter,
): void {
  const api = consoleLoansApi;
  router.handle(api.products, async ({ query }) => pageOf(await loans.products(query)));

  router.handle(api.saveProduct, async ({ operator, body }) =>
    ok(await loans.saveProduct(body, operator, auditOf(operator))),
  );

  router.handle(api.productStatus, async ({ operator, body }) => {
    const { changed, product } = await loans.setProductStatus(
      body.id,
      body.status,
      auditOf(operator),
    );
    return changed ? ok(product) : alreadyDone(product);
  });

  router.handle(api.orders, async ({ query }) => pageOf(await loans.orders(query)));

  router.handle(api.order, async ({ query }) => ok(await loans.detail(query.id)));

  router.handle(api.answerImage, async ({ operator, query, reply }) => {
    const image = await loans.answerImage(query.id, query.key, auditOf(operator));
    if (!image) throw new AppError('hint_notFound', 404, ['id']);
    return sendProofImage(reply, image);
  });

  router.handle(api.approve, async ({ operator, body }) => {
    const { changed, record } = await loans.approve(
      body.id,
      body.amount,
      operator,
      auditOf(operator),
    );
    return changed ? ok(record) : alreadyDone(record);
  });

  router.handle(api.reject, async ({ operator, body }) => {
    const { changed, record } = await loans.reject(
      body.id,
      body.reason,
      operator,
      auditOf(operator),
    );
    return changed ? ok(record) : alreadyDone(record);
  });

  router.handle(api.interest, async ({ query }) => pageOf(await loans.interest(query)));

  router.handle(api.repayments, async ({ query }) => pageOf(await loans.repayments(query)));

  router.handle(api.report, async ({ query }) => {
    const rows = await loans.report(query.book);
    return pageOf({ rows, total: rows.length });
  });
}
