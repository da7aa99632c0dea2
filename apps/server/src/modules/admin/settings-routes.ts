/**
 * /admin-api settings calls of consoleSettingsApi (@bourse/shared): currencies (finance),
 * switches, `otherValue` and the API lines (admin), and the preview of a withdrawal channel's save
 * (finance). The operator guard answers 401/403 from each route's roles before reading the input.
 */
import { consoleSettingsApi as routes } from '@bourse/shared';
import { alreadyDone, ok, page, pageOf } from '../../http/envelope';
import type { Router } from '../../http/router';
import type { OperatorContext } from './service';
import type { AdminSettings } from './settings-service';

const outcome = <T>(result: { record: T; changed: boolean }) =>
  result.changed ? ok(result.record) : alreadyDone(result.record);

export function adminSettingsRoutes(
  router: Router<OperatorContext>,
  settings: AdminSettings,
): void {
  router.handle(routes.currencies, async ({ query }) =>
    pageOf(await settings.listCurrencies(query.pageNum, query.pageSize)),
  );

  router.handle(routes.saveCurrency, async ({ operator, body }) =>
    outcome(await settings.saveCurrency(operator, body)),
  );

  router.handle(routes.switches, async () => {
    const rows = await settings.listSwitches();
    return page(rows, rows.length);
  });

  router.handle(routes.saveSwitch, async ({ operator, body }) =>
    outcome(await settings.saveSwitch(operator, body)),
  );

  router.handle(routes.otherValue, async () => ok(await settings.otherValue()));

  router.handle(routes.saveOtherValue, async ({ operator, body }) =>
    outcome(await settings.saveOtherValue(operator, body)),
  );

  router.handle(routes.layout, async () => ok(await settings.layout()));

  router.handle(routes.saveLayout, async ({ operator, body }) =>
    outcome(await settings.saveLayout(operator, body)),
  );

  router.handle(routes.apiLines, async () => ok(settings.apiLines()));

  router.handle(routes.previewWithdrawChannel, async ({ body }) =>
    ok(await settings.previewWithdrawChannel(body)),
  );
}
