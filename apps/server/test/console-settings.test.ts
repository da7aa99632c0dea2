/**
 * The console's settings calls (consoleSettingsApi): currencies (finance), switches, otherValue and
 * the API lines (admin), and the preview of a withdrawal channel's save (finance). Each save is
 * validated by its shared schema (the refusal names its field), audited with its before and after,
 * and seen by the user app's launch calls at once; a currency in use keeps its code, kind,
 * decimals and visibility; the preview says what applies at once and what after the notice, and
 * saves nothing; roles that may not call a route get 403 before their input is read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_VALUE_DEFAULTS, cmp, consoleSettingsApi, type Route } from '@bourse/shared';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import { call, createTestApp, type TestApp } from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const HOUR = 3_600_000;
const NOTICE_HOURS = 72;
const USDT = 3;
const ADMIN = 'admin';
const ADMIN_PASSWORD = 'console settings admin password';

let t: TestApp;
const tokens: Record<'admin' | 'finance' | 'support' | 'content', string> = {
  admin: '',
  finance: '',
  support: '',
  content: '',
};

beforeAll(async () => {
  t = await createTestApp({
    env: {
      API_LINES: 'Asia|https://asia.example.com,Europe|https://eu.example.com/',
      WITHDRAW_TERMS_NOTICE_HOURS: String(NOTICE_HOURS),
    },
  });
  await ensureFirstAdmin(t.db, t.clock, ADMIN, ADMIN_PASSWORD);
  tokens.admin = await operatorReady(t.app, ADMIN, ADMIN_PASSWORD);
  for (const role of ['finance', 'support', 'content'] as const) {
    const password = `${role} settings operator password`;
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `settings-${role}`, password, roles: [role] },
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, `settings-${role}`, password);
  }
});

afterAll(async () => {
  await t.close();
});

function as(role: keyof typeof tokens) {
  return (method: 'GET' | 'POST', url: string, options: Parameters<typeof call>[3] = {}) =>
    adminApiCall(t.app, method, url, { ...options, token: tokens[role] });
}
const admin = as('admin');
const finance = as('finance');

async function auditOf(targetType: string, targetId: string): Promise<any[]> {
  const result = await admin('GET', '/audit', {
    query: { targetType, targetId, pageSize: '100' },
  });
  expect(result.status).toBe(200);
  return result.body.rows as any[];
}

async function userCurrencies(): Promise<any[]> {
  const result = await call(t.app, 'GET', '/api/platformCurrency/list');
  expect(result.status).toBe(200);
  return result.body.rows as any[];
}

describe('roles', () => {
  const routes = Object.values(consoleSettingsApi) as Route[];

  it('answers 401 signed out and 403 to a role the route does not name, before reading input', async () => {
    for (const route of routes) {
      const url = route.path.replace('/admin-api', '');
      const method = route.method as 'GET' | 'POST';
      const bad = method === 'POST' ? { json: { id: 'not a number' } } : {};
      expect((await adminApiCall(t.app, method, url, bad)).status, route.path).toBe(401);
      for (const role of ['finance', 'support', 'content'] as const) {
        const allowed = route.roles?.includes(role) ?? true;
        const result = await as(role)(method, url, bad);
        if (allowed) expect(result.status, `${role} ${route.path}`).not.toBe(403);
        else {
          expect(result.status, `${role} ${route.path}`).toBe(403);
          expect(result.body.msg).toBe('hint_forbidden');
        }
      }
    }
    // Currencies and the channel preview are finance's; switches, otherValue, API lines admin's.
    expect(consoleSettingsApi.saveCurrency.roles).toEqual(['finance', 'admin']);
    expect(consoleSettingsApi.previewWithdrawChannel.roles).toEqual(['finance', 'admin']);
    expect(consoleSettingsApi.saveSwitch.roles).toEqual(['admin']);
    expect(consoleSettingsApi.saveOtherValue.roles).toEqual(['admin']);
    expect(consoleSettingsApi.apiLines.roles).toEqual(['admin']);
  });
});

describe('currencies', () => {
  it('lists every currency paged on the server, those in use marked', async () => {
    const first = await finance('GET', '/currencies', { query: { pageNum: '1', pageSize: '3' } });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(8);
    expect(first.body.rows).toHaveLength(3);
    const all = await finance('GET', '/currencies', { query: { pageSize: '100' } });
    const usdt = (all.body.rows as any[]).find((row) => row.id === USDT);
    // Every account holds its demo USDT: in use.
    expect(usdt).toMatchObject({ currencyName: 'USDT', scale: 4, isVisible: 1, inUse: true });
    const tooBig = await finance('GET', '/currencies', { query: { pageSize: '1000' } });
    expect(tooBig.status).toBe(400);
  });

  it('creates a currency the app then lists, audited, and changes it while nothing uses it', async () => {
    const created = await finance('POST', '/currencies/save', {
      json: { currencyName: 'trx', currencyType: 2, walletAddressType: 'TRC20', scale: 6 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const currency = created.body.data;
    expect(currency).toMatchObject({
      currencyName: 'TRX',
      currencyType: 2,
      walletAddressType: 'TRC20',
      scale: 6,
      isVisible: 1,
      inUse: false,
    });
    expect(currency.id).toBeGreaterThan(8);
    expect((await userCurrencies()).map((row) => row.currencyName)).toContain('TRX');
    const [entry] = await auditOf('currency', String(currency.id));
    expect(entry).toMatchObject({ action: 'currency.create', operatorName: 'settings-finance' });
    expect(entry.before).toBeNull();
    expect(entry.after).toMatchObject({ currencyName: 'TRX', scale: 6 });

    // Not in use: its decimals and visibility may change.
    const changed = await finance('POST', '/currencies/save', {
      json: { ...currency, scale: 8, isVisible: 0 },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ scale: 8, isVisible: 0 });
    expect((await userCurrencies()).map((row) => row.currencyName)).not.toContain('TRX');
    const [update] = await auditOf('currency', String(currency.id));
    expect(update).toMatchObject({
      action: 'currency.update',
      before: { scale: 6, isVisible: 1 },
      after: { scale: 8, isVisible: 0 },
    });
    // The same save again changes nothing and writes nothing.
    const again = await finance('POST', '/currencies/save', { json: changed.body.data });
    expect(again.body.msg).toBe('hint_48');
    expect(await auditOf('currency', String(currency.id))).toHaveLength(2);
  });

  it('refuses what would break held balances, a taken code and bad input, on their fields', async () => {
    const list = await finance('GET', '/currencies', { query: { pageSize: '100' } });
    const usdt = (list.body.rows as any[]).find((row) => row.id === USDT);
    const cases: [Record<string, unknown>, string][] = [
      [{ scale: 2 }, 'scale'],
      [{ isVisible: 0 }, 'isVisible'],
      [{ currencyName: 'USDX' }, 'currencyName'],
      [{ currencyType: 1 }, 'currencyType'],
    ];
    for (const [change, field] of cases) {
      const refused = await finance('POST', '/currencies/save', { json: { ...usdt, ...change } });
      expect(refused.status, field).toBe(422);
      expect(refused.body).toMatchObject({ msg: 'hint_currencyInUse', params: [field] });
    }
    expect((await userCurrencies()).find((row) => row.id === USDT).scale).toBe(4);

    // What a currency in use may change: its icon, sort and networks.
    const moved = await finance('POST', '/currencies/save', {
      json: { ...usdt, sort: -5, walletAddressType: 'ERC20 / TRC20 / BEP20 / SOL' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ sort: -5, walletAddressType: 'ERC20/TRC20/BEP20/SOL' });
    expect((await userCurrencies())[0].currencyName).toBe('USDT');

    // The app's default trade currency stays listed, even while nothing holds it.
    const spare = await finance('POST', '/currencies/save', {
      json: { currencyName: 'DFLT', currencyType: 2, scale: 6 },
    });
    const spareId = spare.body.data.id as number;
    const made = await admin('POST', '/otherValue/save', {
      json: { default_trade_currency_id: spareId },
    });
    expect(made.status).toBe(200);
    const hidden = await finance('POST', '/currencies/save', {
      json: { ...spare.body.data, isVisible: 0 },
    });
    expect(hidden.body).toMatchObject({ msg: 'hint_currencyInUse', params: ['isVisible'] });
    await admin('POST', '/otherValue/save', { json: { default_trade_currency_id: USDT } });

    const taken = await finance('POST', '/currencies/save', {
      json: { currencyName: 'BTC', currencyType: 2, scale: 8 },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ msg: 'hint_currencyNameTaken', params: ['currencyName'] });

    const invalid: [Record<string, unknown>, string][] = [
      [{ currencyName: 'no spaces', currencyType: 2, scale: 8 }, 'currencyName'],
      [{ currencyName: 'ABC', currencyType: 3, scale: 8 }, 'currencyType'],
      [{ currencyName: 'ABC', currencyType: 2, scale: 19 }, 'scale'],
      [
        { currencyName: 'ABC', currencyType: 2, scale: 2, walletAddressType: 'a b' },
        'walletAddressType',
      ],
      [{ id: 999, currencyName: 'ABC', currencyType: 2, scale: 2 }, 'id'],
    ];
    for (const [body, field] of invalid) {
      const refused = await finance('POST', '/currencies/save', { json: body });
      expect(refused.status, field).toBeGreaterThanOrEqual(400);
      expect(refused.body.params?.[0], JSON.stringify(refused.body)).toBe(field);
    }
  });
});

describe('switches', () => {
  it('turns a switch off for the app, audited, and refuses an unknown one', async () => {
    const list = await admin('GET', '/switches');
    expect(list.status).toBe(200);
    const demo = (list.body.rows as any[]).find((row) => row.switchName === 'demoAccount');
    expect(demo).toMatchObject({ status: 1 });
    expect(demo.remark).not.toBe('');

    const off = await admin('POST', '/switches/save', {
      json: { switchName: 'demoAccount', status: 0 },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ switchName: 'demoAccount', status: 0 });
    const app = await call(t.app, 'GET', '/api/switchSet/list');
    expect((app.body.rows as any[]).find((row) => row.switchName === 'demoAccount').status).toBe(0);
    const site = await call(t.app, 'GET', '/api/siteInfo/getSiteInfo');
    expect(site.body.data.demoAccount).toBe(false);
    const [entry] = await auditOf('switch', 'demoAccount');
    expect(entry).toMatchObject({
      action: 'switch.update',
      before: { status: 1 },
      after: { status: 0 },
    });
    expect(
      (await admin('POST', '/switches/save', { json: { switchName: 'demoAccount', status: '0' } }))
        .body.msg,
    ).toBe('hint_48');
    await admin('POST', '/switches/save', { json: { switchName: 'demoAccount', status: true } });

    const unknown = await admin('POST', '/switches/save', {
      json: { switchName: 'freeMoney', status: 1 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.params).toEqual(['switchName']);
    const bad = await admin('POST', '/switches/save', {
      json: { switchName: 'fastTrade', status: 2 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.params).toEqual(['status']);
  });
});

describe('otherValue', () => {
  it('changes what the app reads at launch, audited with the keys that changed', async () => {
    const read = await admin('GET', '/otherValue');
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      values: OTHER_VALUE_DEFAULTS,
      defaults: OTHER_VALUE_DEFAULTS,
    });

    const saved = await admin('POST', '/otherValue/save', {
      json: { ...OTHER_VALUE_DEFAULTS, app_decimal_no: 4, app_withdrawAll: 0 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.values).toMatchObject({ app_decimal_no: 4, app_withdrawAll: 0 });
    const site = await call(t.app, 'GET', '/api/siteInfo/getSiteInfo');
    expect(site.body.data.otherValue).toMatchObject({ app_decimal_no: 4, app_withdrawAll: 0 });
    const [entry] = await auditOf('setting', 'otherValue');
    expect(entry).toMatchObject({ action: 'otherValue.update' });
    expect(entry.before).toEqual({ app_decimal_no: 2, app_withdrawAll: 1 });
    expect(entry.after).toEqual({ app_decimal_no: 4, app_withdrawAll: 0 });

    const refusals: [Record<string, unknown>, string, string][] = [
      [{ app_decimal_no: 9 }, 'app_decimal_no', 'hint_paramOutOfRange'],
      [{ scoreTips: 2 }, 'scoreTips', 'hint_paramOutOfRange'],
      [{ default_trade_currency_id: 999 }, 'default_trade_currency_id', 'hint_currencyUnknown'],
      [{}, 'app_decimal_no', 'hint_paramRequired'],
    ];
    for (const [body, field, msg] of refusals) {
      const refused = await admin('POST', '/otherValue/save', { json: body });
      expect(refused.status, field).toBeGreaterThanOrEqual(400);
      expect(refused.body.params?.[0], JSON.stringify(refused.body)).toBe(field);
      if (msg !== 'hint_paramOutOfRange') expect(refused.body.msg).toBe(msg);
    }
    const unknownKey = await admin('POST', '/otherValue/save', { json: { app_price: 1 } });
    expect(unknownKey.status).toBe(400);
  });
});

describe('API lines', () => {
  it('shows the lines of the environment, read-only', async () => {
    const lines = await admin('GET', '/apiLines');
    expect(lines.status).toBe(200);
    expect(lines.body.data).toEqual({
      variable: 'API_LINES',
      lines: [
        { name: 'Asia', url: 'https://asia.example.com' },
        { name: 'Europe', url: 'https://eu.example.com' },
      ],
    });
  });
});

describe('withdrawal channel preview', () => {
  const BASE = {
    channelType: 2,
    channelName: 'Preview test',
    currencyId: USDT,
    network: 'TRC20',
    feeRate: '0.001',
    fixedFee: '1',
    minAmount: '10',
    maxAmount: '1000',
    dailyLimit: '5000',
    remark: '',
    sort: 0,
    isVisible: 1,
  };

  it('says what applies at once and what after the notice, and when, saving nothing', async () => {
    const fresh = await finance('POST', '/channels/withdraw/preview', { json: BASE });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.data.later).toEqual([]);
    expect(fresh.body.data.atOnce.map((change: any) => change.term)).toContain('minAmount');
    const created = await finance('POST', '/channels/withdraw/save', { json: BASE });
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    const auditBefore = (await auditOf('withdrawChannel', String(id))).length;

    // Raising the minimum and lowering the fee: the fee at once, the minimum after the notice.
    const preview = await finance('POST', '/channels/withdraw/preview', {
      json: { ...BASE, id, minAmount: '25', feeRate: '0.0005' },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const effectiveTime = new Date(t.clock.now().getTime() + NOTICE_HOURS * HOUR).toISOString();
    expect(preview.body.data).toEqual({
      noticeHours: NOTICE_HOURS,
      atOnce: [{ term: 'feeRate', oldValue: '0.001', newValue: '0.0005' }],
      later: [{ term: 'minAmount', oldValue: '10', newValue: '25', effectiveTime }],
      withdrawn: [],
    });
    // Nothing was saved: the terms, the changes to come and the audit log are as they were.
    const channels = await finance('GET', '/channels/withdraw?pageSize=100');
    const stored = (channels.body.rows as any[]).find((row) => row.id === id);
    expect(stored.pendingChanges).toEqual([]);
    expect(cmp(stored.fee_rate, '0.001')).toBe(0);
    expect(await auditOf('withdrawChannel', String(id))).toHaveLength(auditBefore);

    // Once saved, going back to the old minimum takes the announced change back.
    await finance('POST', '/channels/withdraw/save', { json: { ...BASE, id, minAmount: '25' } });
    const back = await finance('POST', '/channels/withdraw/preview', { json: { ...BASE, id } });
    expect(back.body.data).toMatchObject({
      atOnce: [],
      later: [],
      withdrawn: [{ term: 'minAmount', oldValue: '10', newValue: '25', effectiveTime }],
    });

    const refused = await finance('POST', '/channels/withdraw/preview', {
      json: { ...BASE, id: 99999 },
    });
    expect(refused.status).toBe(404);
    expect(refused.body.msg).toBe('hint_channelNotFound');
    const support = await as('support')('POST', '/channels/withdraw/preview', { json: BASE });
    expect(support.status).toBe(403);
  });
});
