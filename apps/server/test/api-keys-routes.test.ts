/**
 * Which calls an API key may make (the route table's `key` marks, issue 20), listed in full here so
 * that opening a call to keys is a change someone reads: the list must match exactly. Money out,
 * transfers, deposits, the security centre, the keys themselves, the profile, passwords, identity,
 * payment methods, the demo reset and the operator API never take a key, whatever is added later;
 * reading marks are on GET calls and trading marks on POST calls.
 */
import { describe, expect, it } from 'vitest';
import { allRoutes, apiKeysApi, methodsOf, type Route } from '@bourse/shared';

/** Every call a key may make, with the permission it needs. */
const OPEN_TO_KEYS = [
  'GET /api/bibiTradeOrder/list read',
  'GET /api/contractPosition/detail read',
  'GET /api/contractPosition/list read',
  'GET /api/cryptocurrencyProduct/list read',
  'GET /api/currencyExchangeRate/getExchangeInfo read',
  'GET /api/fastTradeOrder/detail read',
  'GET /api/fastTradeOrder/list read',
  'GET /api/fastTradeOrder/riskStatus read',
  'GET /api/fastTradeOrderOptions/list read',
  'GET /api/forexProduct/list read',
  'GET /api/futuresProduct/list read',
  'GET /api/homeRecommendProducts/list read',
  'GET /api/kline/list read',
  'GET /api/kline/orderBook read',
  'GET /api/orderFeeSetting/list read',
  'GET /api/spotTradeOrder/holdings read',
  'GET /api/spotTradeOrder/list read',
  'GET /api/stockProduct/list read',
  'GET /api/userBibiAssets/list read',
  'GET /api/userInfo/getUserInfo read',
  'GET /api/userInfo/personCenterPanelData read',
  'GET /api/userInfo/userBalance read',
  'GET /api/userInfo/userBalanceConvert read',
  'GET /api/userProductOption/list read',
  'POST /api/bibiTradeOrder/buy trade',
  'POST /api/bibiTradeOrder/cancel trade',
  'POST /api/bibiTradeOrder/sell trade',
  'POST /api/contractPosition/cancel trade',
  'POST /api/contractPosition/close trade',
  'POST /api/contractPosition/open trade',
  'POST /api/contractPosition/updateTpSl trade',
  'POST /api/fastTradeOrder/addFastTradeOrder trade',
  'POST /api/spotTradeOrder/addSpotTradeOrder trade',
  'POST /api/spotTradeOrder/cancel trade',
  'POST /api/spotTradeOrder/sellSpotTradeOrder trade',
];

/** Calls that must never take a key: money out and in, transfers, security, the account itself. */
const NEVER = [
  /^\/admin-api\//,
  /^\/api\/userWithdraw\//,
  /^\/api\/withdrawChannelConfig\//,
  /^\/api\/userRecharge\//,
  /^\/api\/rechargeChannelConfig\//,
  /^\/api\/balanceConvertRecord\//,
  /^\/api\/userSecurity\//,
  /^\/api\/apiKey\//,
  /^\/api\/userBank\//,
  /^\/api\/userWalletAddress\//,
  /^\/api\/withdrawWhitelist\//,
  /^\/api\/userAuthRecord\//,
  /^\/api\/userInfo\/(reg|login|loginTwoFactor|loginOut|modifyUserInfo|updateUserPwd|updateUserWithPwd|isSetWithPwd|sendEmailVerificationCode|sendPhoneVerificationCode|changeLoginModel|modifyAvatar|avatar|resetDemo)$/,
];

describe('the calls open to API keys', () => {
  const marked = allRoutes().filter((route) => route.key !== undefined);

  it('are exactly these, with these permissions', () => {
    const listed = marked.flatMap((route) =>
      methodsOf(route).map((method) => `${method} ${route.path} ${route.key}`),
    );
    expect(listed.sort()).toEqual(OPEN_TO_KEYS);
  });

  it('never include money out, transfers, deposits, security or the account itself', () => {
    const forbidden = marked.filter((route) => NEVER.some((pattern) => pattern.test(route.path)));
    expect(forbidden.map((route) => route.path)).toEqual([]);
    // The patterns name real calls (a renamed path would slip past them).
    for (const path of [
      '/api/userWithdraw/outMoney',
      '/api/balanceConvertRecord/balanceConvert',
      '/api/userRecharge/inMoney',
      '/api/userSecurity/twoFactor/disable',
      '/api/apiKey/create',
      '/api/userInfo/updateUserPwd',
      '/api/userInfo/resetDemo',
      '/api/withdrawWhitelist/set',
    ])
      expect(allRoutes().some((route) => route.path === path)).toBe(true);
    expect(
      Object.values(apiKeysApi as Record<string, Route>).every((route) => route.key === undefined),
    ).toBe(true);
  });

  it('read on GET calls and trade on POST calls, never operator calls', () => {
    for (const route of marked) {
      expect(methodsOf(route), route.path).toEqual([route.key === 'read' ? 'GET' : 'POST']);
      expect(route.auth, route.path).not.toBe('operator');
    }
  });
});
