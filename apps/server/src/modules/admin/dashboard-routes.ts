/**
 * /admin-api/dashboard/* (consoleDashboardApi of @bourse/shared): the console's dashboard figures.
 * The overview for admin, finance and support; money and trading for admin and finance (the
 * operator guard answers 403 to the others before anything is read). Every call only reads.
 */
import { consoleDashboardApi as routes } from '@bourse/shared';
import { ok } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { DashboardService } from './dashboard-service';
import type { OperatorContext } from './service';

export function dashboardRoutes(
  router: Router<OperatorContext>,
  dashboard: DashboardService,
): void {
  router.handle(routes.overview, async () => ok(await dashboard.overview()));
  router.handle(routes.money, async () => ok(await dashboard.money()));
  router.handle(routes.trading, async () => ok(await dashboard.trading()));
}
