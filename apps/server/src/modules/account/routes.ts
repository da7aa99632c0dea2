/** /api/userInfo: registration, login, sessions, profile and passwords. */
import { accountApi as routes, changeLoginModelQuery } from '@bourse/shared';
import type { Config } from '../../config';
import { alreadyDone, ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import { parseInput } from '../../http/validation';
import { countryName, type SettingsService } from '../settings';
import { clientMeta, type AccountService } from './service';

const MINUTE_MS = 60_000;

export function accountRoutes(
  router: Router,
  accounts: AccountService,
  settings: SettingsService,
  config: Config,
): void {
  router.handle(
    routes.register,
    async ({ body, request, lang }) => ok(await accounts.register(body, clientMeta(request, lang))),
    { rateLimit: { max: config.RATE_LIMIT_REGISTER_PER_MINUTE, timeWindowMs: MINUTE_MS } },
  );

  router.handle(
    routes.login,
    async ({ body, request, lang }) => ok(await accounts.login(body, clientMeta(request, lang))),
    { rateLimit: { max: config.RATE_LIMIT_LOGIN_PER_MINUTE, timeWindowMs: MINUTE_MS } },
  );

  router.handle(
    routes.loginTwoFactor,
    async ({ body, request, lang }) =>
      ok(await accounts.loginTwoFactor(body, clientMeta(request, lang))),
    { rateLimit: { max: config.RATE_LIMIT_LOGIN_PER_MINUTE, timeWindowMs: MINUTE_MS } },
  );

  router.handle(routes.logout, async ({ session }) => {
    if (!session) return alreadyDone();
    await accounts.logout(session);
    return ok();
  });

  router.handle(routes.userInfo, async ({ session }) => ok(await accounts.userInfo(session)));

  router.handle(routes.modifyUserInfo, async ({ session, body }) =>
    ok(await accounts.modifyUserInfo(session, body)),
  );

  router.handle(routes.updatePassword, async ({ session, body }) => {
    await accounts.updatePassword(session, body);
    return { ...ok(), msg: 'hint_pwdChanged' };
  });

  router.handle(routes.updateWithdrawalPassword, async ({ session, body }) =>
    ok(await accounts.updateWithdrawalPassword(session, body)),
  );

  router.handle(routes.isSetWithPwd, async ({ session }) => {
    const isSetWithPwd = await accounts.isSetWithPwd(session);
    // The spec names the field on the response itself; `data` carries it as every call does.
    return { ...ok({ isSetWithPwd }), isSetWithPwd };
  });

  const codeLimit = { max: config.RATE_LIMIT_CODE_PER_MINUTE, timeWindowMs: MINUTE_MS };

  router.handle(
    routes.sendEmailCode,
    async ({ body, lang }) => {
      await accounts.sendEmailCode(body.email, body.purpose, lang);
      return { ...ok(), msg: 'hint_codeSent' };
    },
    { rateLimit: codeLimit },
  );

  router.handle(
    routes.sendPhoneCode,
    async ({ body, lang }) => {
      await accounts.sendPhoneCode(body.areaCode, body.phone, body.purpose, lang);
      return { ...ok(), msg: 'hint_codeSent' };
    },
    { rateLimit: codeLimit },
  );

  router.handle(
    routes.phoneAreaCodes,
    async ({ query, lang }) => {
      const all = await settings.areaCodes();
      const start = (query.pageNum - 1) * query.pageSize;
      const rows = all.slice(start, start + query.pageSize).map((row) => ({
        id: row.id,
        areaCode: row.area_code,
        countryCode: row.country_code,
        countryName: countryName(row.country_code, lang),
      }));
      return page(rows, all.length);
    },
    { rateLimit: false },
  );

  router.handle(routes.changeLoginModel, async ({ session, query, request }) => {
    // GET names the account type in the query, POST in the body; both may leave it out to toggle.
    const input =
      request.method === 'POST' ? parseInput(changeLoginModelQuery, request.body) : query;
    return ok(await accounts.changeLoginModel(session, input.accountType as 0 | 2 | undefined));
  });
}
