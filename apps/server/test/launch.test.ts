import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, OTHER_VALUE_DEFAULTS } from '@bourse/shared';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import { call, createTestApp, registerUser, type TestApp } from './helpers';
import { ScriptedFeed } from './support/scripted-feed';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { API_LINES: 'Main|https://api.example.com,Backup|https://api2.example.com/' },
  });
});

afterAll(async () => {
  await t.close();
});

describe('launch calls', () => {
  it('siteInfo/getSiteInfo gives the site, languages, lines, otherValue and registration rules', async () => {
    const { status, body } = await call(t.app, 'GET', '/api/siteInfo/getSiteInfo', {
      headers: { languageid: '1' },
    });
    expect(status).toBe(200);
    expect(body.code).toBe(200);
    expect(body.data).toMatchObject({
      siteName: 'Bourse',
      defaultLang: 'en',
      apiLines: [
        { name: 'Main', url: 'https://api.example.com' },
        { name: 'Backup', url: 'https://api2.example.com' },
      ],
      otherValue: OTHER_VALUE_DEFAULTS,
      register: {
        phone: true,
        email: true,
        inviteCodeRequired: false,
        codeRequired: { phone: false, email: false },
      },
      demoAccount: true,
    });
    expect(body.data.slogan).not.toBe(
      (await call(t.app, 'GET', '/api/siteInfo/getSiteInfo')).body.data.slogan,
    );
  });

  it('textLang/list pages the tip texts in the requested language', async () => {
    const en = await call(t.app, 'GET', '/api/textLang/list', {
      query: { pageNum: '1', pageSize: '30' },
    });
    expect(en.body.total).toBe(6);
    expect(en.body.rows!.map((row) => row.remark)).toContain('fastTradeRisk');
    const risk = en.body.rows!.find((row) => row.remark === 'fastTradeRisk');
    expect(risk).toMatchObject({ contentVisibleFlag: 1 });
    expect(risk.contentLang).toMatch(/high-risk/);
    const ar = await call(t.app, 'GET', '/api/textLang/list', {
      query: { pageNum: '1', pageSize: '30' },
      headers: { languageid: '18' },
    });
    expect(ar.body.rows!.find((row) => row.remark === 'fastTradeRisk').contentLang).toMatch(
      /[\u0600-\u06FF]/,
    );
    const second = await call(t.app, 'GET', '/api/textLang/list', {
      query: { pageNum: '2', pageSize: '4' },
    });
    expect(second.body.rows).toHaveLength(2);
    const tooBig = await call(t.app, 'GET', '/api/textLang/list', { query: { pageSize: '1000' } });
    expect(tooBig.body).toMatchObject({
      code: 500,
      msg: 'hint_paramOutOfRange',
      params: ['pageSize'],
    });
  });

  it('orderFeeSetting/list keys every fee by product type, position type and direction', async () => {
    const { body } = await call(t.app, 'GET', '/api/orderFeeSetting/list');
    expect(body.total).toBe(body.rows!.length);
    const spotBuy = body.rows!.find(
      (row) => row.productType === 2 && row.PositionType === 2 && row.exType === 1,
    );
    expect(spotBuy).toMatchObject({ remark: '2_2_1', feeRate: '0.001' });
    for (const row of body.rows!) {
      expect(row.remark).toBe(`${row.productType}_${row.PositionType}_${row.exType}`);
      expect(typeof row.feeRate).toBe('string');
    }
  });

  it('langMgr/list returns the pack with operator overrides merged over the bundled file', async () => {
    const zh = await call(t.app, 'GET', '/api/langMgr/list', { query: { lang: 'zh' } });
    expect(zh.body.data.pwd_minLength).toBe('最少8个字符;');
    await t.db.query(
      "INSERT INTO lang_override (lang, msg_key, value) VALUES ('de', 'tab_home', 'Start (Betreiber)')",
    );
    t.app.services.settings.invalidate();
    const de = await call(t.app, 'GET', '/api/langMgr/list', { query: { lang: 'de' } });
    expect(de.body.data.tab_home).toBe('Start (Betreiber)');
    expect(Object.keys(de.body.data).length).toBe(Object.keys(zh.body.data).length);
    const unknown = await call(t.app, 'GET', '/api/langMgr/list', { query: { lang: 'xx' } });
    expect(unknown.body).toMatchObject({ msg: 'hint_langInvalid', params: ['lang'] });
    expect(unknown.status).toBe(400);
  });

  it('switchSet/list lists every switch with its status', async () => {
    const { body } = await call(t.app, 'GET', '/api/switchSet/list');
    const switches = Object.fromEntries(body.rows!.map((row) => [row.switchName, row.status]));
    expect(switches).toMatchObject({
      thousandsSeparator: 1,
      maskBankCard: 1,
      maskWalletAddress: 1,
      inviteCodeRequired: 0,
    });
  });

  it('popUp/list puts the current pop-up first, translated', async () => {
    const { body } = await call(t.app, 'GET', '/api/popUp/list', {
      headers: { 'accept-language': 'ja-JP,ja;q=0.9' },
    });
    expect(body.rows![0]).toMatchObject({ version: 1 });
    expect(body.rows![0].title).toMatch(/Bourse/);
    expect(body.rows![0].title).not.toBe('Welcome to Bourse');
  });

  it('appConfig/list filters on pagePath', async () => {
    const home = await call(t.app, 'GET', '/api/appConfig/list', {
      query: { pagePath: '/pages/tabs/home/home-k' },
    });
    expect(home.body.rows!.map((row) => row.module)).toEqual([
      'header',
      'banner',
      'notice',
      'shortcut',
      'recommend',
      'quoteList',
      'assets',
    ]);
    expect(
      home.body.rows!.every(
        (row) =>
          row.pagePath === 'pages/tabs/home/home-k' &&
          row.isVisible === 1 &&
          typeof row.desc === 'string',
      ),
    ).toBe(true);
    const none = await call(t.app, 'GET', '/api/appConfig/list', {
      query: { pagePath: 'pages/unknown' },
    });
    expect(none.body).toMatchObject({ code: 200, rows: [], total: 0 });
    const bad = await call(t.app, 'GET', '/api/appConfig/list', {
      query: { pagePath: "x' OR 1=1 --" },
    });
    expect(bad.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['pagePath'] });
  });

  it('platformCurrency/list has USDT as id 3 and filters on currencyType', async () => {
    const all = await call(t.app, 'GET', '/api/platformCurrency/list');
    expect(all.body.rows!.find((row) => row.id === 3)).toMatchObject({
      currencyName: 'USDT',
      walletAddressType: 'ERC20/TRC20/BEP20',
    });
    expect(all.body.rows!.map((row) => row.currencyName)).toEqual(
      expect.arrayContaining(['USD', 'EUR', 'BTC', 'ETH', 'USDC']),
    );
    const fiat = await call(t.app, 'GET', '/api/platformCurrency/list', {
      query: { currencyType: '1' },
    });
    expect(fiat.body.rows!.map((row) => row.currencyName)).toEqual(['USD', 'EUR']);
    const bad = await call(t.app, 'GET', '/api/platformCurrency/list', {
      query: { currencyType: '9' },
    });
    expect(bad.body.msg).toBe('hint_paramInvalid');
  });

  it('bankPropertyConfig/list gives the bank card fields with required flags and translated labels', async () => {
    const { body } = await call(t.app, 'GET', '/api/bankPropertyConfig/list', {
      query: { configType: '0' },
      headers: { languageid: '4' },
    });
    const byName = Object.fromEntries(body.rows!.map((row) => [row.propertyName, row]));
    expect(byName.cardNumber).toMatchObject({
      isRequired: 1,
      inputType: 'digits',
      labelKey: 'bank_cardNumber',
    });
    expect(byName.swiftCode.isRequired).toBe(0);
    expect(byName.bankName.label).not.toBe('Bank name');
  });

  it('getPhoneAreaCodeList names countries in the user language', async () => {
    const { body } = await call(t.app, 'GET', '/api/userInfo/getPhoneAreaCodeList', {
      headers: { languageid: '4' },
    });
    expect(body.total).toBeGreaterThan(50);
    expect(body.rows!.find((row) => row.countryCode === 'DE')).toMatchObject({
      areaCode: '49',
      countryName: 'Deutschland',
    });
  });

  it('answers the signed-in launch calls: unread count, balance', async () => {
    const { token } = await registerUser(t.app);
    const unread = await call(t.app, 'GET', '/api/siteMessage/notReadMessageCount', { token });
    expect(unread.body).toMatchObject({
      code: 200,
      notReadMessageCount: 1,
      data: { notReadMessageCount: 1 },
    });
    const usdt = await call(t.app, 'GET', '/api/userInfo/userBalance', {
      token,
      query: { currencyId: '3' },
    });
    expect(usdt.body.data).toMatchObject({ currencyId: 3, amount: '0.0000' });
    const all = await call(t.app, 'GET', '/api/userInfo/userBalance', { token });
    expect(all.body.data.map((row: { currencyName: string }) => row.currencyName)).toContain('BTC');
    const unknown = await call(t.app, 'GET', '/api/userInfo/userBalance', {
      token,
      query: { currencyId: '999' },
    });
    expect(unknown).toMatchObject({ status: 404, body: { msg: 'hint_currencyUnknown' } });
    for (const url of ['/api/siteMessage/notReadMessageCount', '/api/userInfo/userBalance']) {
      expect((await call(t.app, 'GET', url)).body.code).toBe(401);
    }
  });

  it('userBibiAssets/list gives the coin-to-coin holdings: none for a new account', async () => {
    // Coin-to-coin trading needs the market: an app with a feed of its own.
    const market = await createTestApp({
      env: { MARKET_FEED: 'simulated', MARKET_SEED: 'launch' },
      catalogue: DEFAULT_CATALOGUE.filter((product) => product.code === 'BTCUSDT'),
      history: { days: 1, minuteDays: 1 },
      feed: () => new ScriptedFeed(),
    });
    try {
      const { token } = await registerUser(market.app);
      const coins = await call(market.app, 'GET', '/api/userBibiAssets/list', { token });
      expect(coins.body).toMatchObject({ code: 200, rows: [], total: 0 });
      expect((await call(market.app, 'GET', '/api/userBibiAssets/list')).body.code).toBe(401);
    } finally {
      await market.close();
    }
  });
});

describe('languages of server texts', () => {
  it('picks LanguageId first, then Accept-Language, then English', async () => {
    const login = (headers: Record<string, string>) =>
      call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: 'nobody@example.com', userPwd: 'Wrong1234' },
        headers,
      });
    expect((await login({})).body.text).toBe('Wrong account or password');
    expect((await login({ languageid: '1', 'accept-language': 'de' })).body.text).toMatch(
      /[\u4e00-\u9fa5]/,
    );
    expect((await login({ 'accept-language': 'de-DE,de;q=0.9' })).body.text).not.toBe(
      'Wrong account or password',
    );
    expect((await login({ languageid: '99' })).body.text).toBe('Wrong account or password');
  });

  it('names the field in its own language in the readable text', async () => {
    const { body } = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userPwd: 'Secret123' },
      headers: { languageid: '6' },
    });
    expect(body).toMatchObject({ msg: 'hint_paramRequired', params: ['userAccount'] });
    expect(body.text).toContain('Compte');
  });

  it('offers every spec language', () => {
    expect(LANGUAGES.map((l) => l.key).sort()).toEqual(
      [
        'ar',
        'blr',
        'de',
        'en',
        'es',
        'fr',
        'ida',
        'idn',
        'it',
        'jp',
        'ko',
        'my',
        'pt',
        'rus',
        'sa',
        'tc',
        'th',
        'vi',
        'zh',
      ].sort(),
    );
  });
});
