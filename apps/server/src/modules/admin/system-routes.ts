/**
 * /admin-api ledger and system calls (consoleSystemApi of @bourse/shared): ledger verification
 * runs (an admin starts one; finance and admins read them), the platform accounts' balances and
 * what the server runs with (admin). The Router's operator guard answers 401 and 403 first.
 */
import { consoleSystemApi as routes } from '@bourse/shared';
import { alreadyDone, ok, pageOf } from '../../http/envelope';
import type { Router } from '../../http/router';
import { AppError } from '../../lib/errors';
import type { LedgerRuns } from './ledger-runs';
import type { OperatorContext } from './service';
import type { SystemInfoService } from './system-info';

export function systemApiRoutes(
  router: Router<OperatorContext>,
  runs: LedgerRuns,
  system: SystemInfoService,
): void {
  router.handle(routes.startLedgerRun, async ({ operator }) => {
    const { run, started } = await runs.start(operator);
    return started ? ok(run) : alreadyDone(run);
  });

  router.handle(routes.ledgerRuns, async ({ query }) => pageOf(await runs.list(query)));

  router.handle(routes.ledgerRun, async ({ query }) => {
    const run = await runs.find(query.id);
    if (!run) throw new AppError('hint_notFound', 404, ['id']);
    return ok(run);
  });

  router.handle(routes.platformBalances, async ({ query }) =>
    pageOf(await system.platformBalances(query)),
  );

  router.handle(routes.systemInfo, async () => ok(await system.info()));
}
