// @vitest-environment node
/**
 * The launch flow against a real HTTP server: what it keeps on the device, and which failures
 * stop the app (language pack, switches) and which do not (the other launch calls).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsAnswer, serveAsApiLine } from '../test/api-line';
import { getItem, removeItem, setItem, STORAGE_KEY } from '../lib/storage';
import { initI18n, translate } from '../i18n';
import { launch } from './launch';

const server = serveAsApiLine();
const ok = (data: unknown) => ({ body: { code: 200, msg: 'hint_success', data } });
const rows = rowsAnswer;

function answerEverything() {
  server.answer('/api/langMgr/list', ok({ tab_home: 'Start (server)' }));
  server.answer('/api/switchSet/list', rows([{ switchName: 'thousandsSeparator', status: 1 }]));
  server.answer(
    '/api/siteInfo/getSiteInfo',
    ok({
      siteName: 'Bourse',
      otherValue: { app_decimal_no: 4 },
      apiLines: [{ name: 'Backup', url: 'https://backup.example.com' }],
      register: {
        phone: true,
        email: true,
        inviteCodeRequired: false,
        codeRequired: { phone: false, email: false },
      },
    }),
  );
  server.answer(
    '/api/textLang/list',
    rows([{ id: 1, remark: 'withdrawNotice', contentLang: 'Notice', contentVisibleFlag: 1 }]),
  );
  server.answer('/api/orderFeeSetting/list', rows([{ id: 1, remark: '1_0_1', feeRate: '0.001' }]));
  server.answer('/api/platformCurrency/list', rows([{ id: 3, currencyName: 'USDT' }]));
}

beforeAll(async () => {
  await initI18n();
});

beforeEach(() => {
  removeItem(STORAGE_KEY.token);
  answerEverything();
});

describe('launch flow', () => {
  it('loads site info, tips, fees, the language pack, switches and currencies onto the device', async () => {
    await expect(launch()).resolves.toBe(true);
    expect(server.requests.map((request) => request.path).sort()).toEqual([
      '/api/langMgr/list',
      '/api/orderFeeSetting/list',
      '/api/platformCurrency/list',
      '/api/siteInfo/getSiteInfo',
      '/api/switchSet/list',
      '/api/textLang/list',
    ]);
    const tips = server.requests.find((request) => request.path === '/api/textLang/list')!;
    expect(tips.query.get('pageNum')).toBe('1');
    expect(tips.query.get('pageSize')).toBe('30');
    expect(getItem(STORAGE_KEY.switchSet)).toEqual({ thousandsSeparator: 1 });
    expect(getItem(STORAGE_KEY.otherValue)).toEqual({ app_decimal_no: 4 });
    expect(getItem(STORAGE_KEY.tipsSet)).toEqual({
      withdrawNotice: { content: 'Notice', isShow: 1 },
    });
    expect(getItem(STORAGE_KEY.platformCurrency)).toEqual([{ id: 3, currencyName: 'USDT' }]);
    expect(getItem('lang_en')).toEqual({ tab_home: 'Start (server)' });
    // The server's pack overrides the bundled text at once; keys it lacks keep the bundled one.
    expect(translate('tab_home')).toBe('Start (server)');
    expect(translate('tab_wallet')).toBe('Wallet');
    // The operator's lines are kept after this server (line 0).
    expect(getItem(STORAGE_KEY.apiLines)).toEqual([
      { name: 'Backup', url: 'https://backup.example.com' },
    ]);
  });

  it('cannot start when the language pack fails to load', async () => {
    server.answer('/api/langMgr/list', { drop: true });
    await expect(launch()).resolves.toBe(false);
  });

  it('cannot start when the switches fail to load', async () => {
    server.answer('/api/switchSet/list', { status: 503, html: 'unavailable' });
    await expect(launch()).resolves.toBe(false);
  });

  it('starts anyway when the other launch calls fail, keeping what the device had', async () => {
    setItem(STORAGE_KEY.platformCurrency, [{ id: 3, currencyName: 'USDT (kept)' }]);
    server.answer('/api/siteInfo/getSiteInfo', { drop: true });
    server.answer('/api/platformCurrency/list', {
      status: 500,
      body: { code: 500, msg: 'hint_systemError' },
    });
    await expect(launch()).resolves.toBe(true);
    expect(getItem(STORAGE_KEY.platformCurrency)).toEqual([{ id: 3, currencyName: 'USDT (kept)' }]);
  });
});
