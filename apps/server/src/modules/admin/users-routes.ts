/**
 * The console's user pages (consoleUsersApi of @bourse/shared): search, a user's profile, lists
 * and security state (finance reads what concerns money, support and admins all), and the actions
 * (end sessions, lift the withdrawal-password lock; an admin's two-factor reset), each audited.
 * The Router's operator guard answers 401 and 403 from the route's roles before the input is read.
 */
import { consoleUsersApi as routes } from '@bourse/shared';
import { ok, pageOf } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { AdminService, OperatorContext } from './service';
import type { UsersConsole } from './users-service';

export function usersConsoleRoutes(
  router: Router<OperatorContext>,
  admin: AdminService,
  users: UsersConsole,
): void {
  router.handle(routes.users, async ({ query }) =>
    pageOf(await users.search({ ...query, exact: query.exact === true })),
  );

  router.handle(routes.user, async ({ query }) => ok(await users.detail(query.id)));

  router.handle(routes.balances, async ({ query }) => ok(await users.balances(query.id)));

  router.handle(routes.ledger, async ({ query }) => pageOf(await users.ledger(query)));

  router.handle(routes.recharges, async ({ query }) => pageOf(await users.recharges(query)));

  router.handle(routes.withdrawals, async ({ query }) => pageOf(await users.withdrawals(query)));

  router.handle(routes.orders, async ({ query }) => pageOf(await users.orders(query)));

  router.handle(routes.holdings, async ({ query }) => pageOf(await users.holdings(query)));

  router.handle(routes.sessions, async ({ query }) => pageOf(await users.sessions(query)));

  router.handle(routes.loginHistory, async ({ query }) => pageOf(await users.loginHistory(query)));

  router.handle(routes.endSessions, async ({ operator, body }) =>
    ok({ sessionsEnded: await users.endSessions(body.id, admin.auditWriter(operator)) }),
  );

  router.handle(routes.resetWithdrawLock, async ({ operator, body }) =>
    ok({ changed: await users.resetWithdrawLock(body.id, admin.auditWriter(operator)) }),
  );

  router.handle(routes.security, async ({ query }) => ok(await users.security(query.id)));

  router.handle(routes.resetTwoFactor, async ({ operator, body }) =>
    ok(await users.resetTwoFactor(body, admin.auditWriter(operator))),
  );
}
