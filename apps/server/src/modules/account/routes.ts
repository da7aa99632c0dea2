/** /api/userInfo: registration, login, sessions, profile and passwords. */
import {
  changeLoginModelQuery,
  loginBody,
  modifyUserInfoBody,
  phoneAreaCodeQuery,
  regBody,
  sendEmailCodeBody,
  sendPhoneCodeBody,
  updateUserPwdBody,
  updateUserWithPwdBody,
} from '@bourse/shared';
import type { Config } from '../../config';
import { nothingToDo, ok, page } from '../../http/envelope';
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
  const base = '/api/userInfo';

  router.add({
    method: 'POST',
    url: `${base}/reg`,
    auth: 'none',
    body: regBody,
    rateLimit: { max: config.RATE_LIMIT_REGISTER_PER_MINUTE, timeWindowMs: MINUTE_MS },
    handler: async ({ body, request, lang }) =>
      ok(await accounts.register(body, clientMeta(request, lang))),
  });

  router.add({
    method: 'POST',
    url: `${base}/login`,
    auth: 'none',
    body: loginBody,
    rateLimit: { max: config.RATE_LIMIT_LOGIN_PER_MINUTE, timeWindowMs: MINUTE_MS },
    handler: async ({ body, request, lang }) =>
      ok(await accounts.login(body, clientMeta(request, lang))),
  });

  router.add({
    method: 'POST',
    url: `${base}/loginOut`,
    auth: 'optional',
    handler: async ({ session }) => {
      if (!session) return nothingToDo();
      await accounts.logout(session);
      return ok();
    },
  });

  router.add({
    method: 'GET',
    url: `${base}/getUserInfo`,
    auth: 'required',
    handler: async ({ session }) => ok(await accounts.userInfo(session)),
  });

  router.add({
    method: 'POST',
    url: `${base}/modifyUserInfo`,
    auth: 'required',
    body: modifyUserInfoBody,
    handler: async ({ session, body }) => ok(await accounts.modifyUserInfo(session, body)),
  });

  router.add({
    method: 'POST',
    url: `${base}/updateUserPwd`,
    auth: 'required',
    body: updateUserPwdBody,
    handler: async ({ session, body }) => {
      await accounts.updatePassword(session, body);
      return { ...ok(), msg: 'hint_pwdChanged' };
    },
  });

  router.add({
    method: 'POST',
    url: `${base}/updateUserWithPwd`,
    auth: 'required',
    body: updateUserWithPwdBody,
    handler: async ({ session, body }) =>
      ok(await accounts.updateWithdrawalPassword(session, body)),
  });

  router.add({
    method: 'GET',
    url: `${base}/isSetWithPwd`,
    auth: 'required',
    handler: async ({ session }) => {
      const isSetWithPwd = await accounts.isSetWithPwd(session);
      // The spec names the field on the response itself; `data` carries it as every call does.
      return ok({ isSetWithPwd }, { isSetWithPwd });
    },
  });

  router.add({
    method: 'POST',
    url: `${base}/sendEmailVerificationCode`,
    auth: 'none',
    body: sendEmailCodeBody,
    rateLimit: { max: config.RATE_LIMIT_CODE_PER_MINUTE, timeWindowMs: MINUTE_MS },
    handler: async ({ body, lang }) => {
      await accounts.sendEmailCode(body.email, body.purpose, lang);
      return { ...ok(), msg: 'hint_codeSent' };
    },
  });

  router.add({
    method: 'POST',
    url: `${base}/sendPhoneVerificationCode`,
    auth: 'none',
    body: sendPhoneCodeBody,
    rateLimit: { max: config.RATE_LIMIT_CODE_PER_MINUTE, timeWindowMs: MINUTE_MS },
    handler: async ({ body, lang }) => {
      await accounts.sendPhoneCode(body.areaCode, body.phone, body.purpose, lang);
      return { ...ok(), msg: 'hint_codeSent' };
    },
  });

  router.add({
    method: 'GET',
    url: `${base}/getPhoneAreaCodeList`,
    auth: 'none',
    rateLimit: false,
    query: phoneAreaCodeQuery,
    handler: async ({ query, lang }) => {
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
  });

  router.add({
    method: ['GET', 'POST'],
    url: `${base}/changeLoginModel`,
    auth: 'required',
    query: changeLoginModelQuery,
    handler: async ({ session, query, request }) => {
      // GET names the account type in the query, POST in the body; both may leave it out to toggle.
      const input =
        request.method === 'POST' ? parseInput(changeLoginModelQuery, request.body) : query;
      return ok(await accounts.changeLoginModel(session, input.accountType as 0 | 2 | undefined));
    },
  });
}
