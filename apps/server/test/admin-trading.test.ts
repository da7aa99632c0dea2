/**
 * Trading settings in the operator API: fees and fast-trade options (finance, admin) and per
 * product visibility, sort, halt and leverages (admin). Every change is audited with before and
 * after, users see it at once, orders already placed keep the terms they were placed with, and
 * nothing sets a price, an outcome or a position's state.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { ManualClock } from '../src/lib/clock';
import { ScriptedFeed } from './support/scripted-feed';
import { fastTradeDetail, settledFastTrade } from './support/fast-trade';
import { verifyLedger } from '../src/ledger/verify';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import type { Tick } from '../src/market/types';
import type { Router } from '../src/http/router';
import type { ConsoleEvents } from '../src/modules/admin/console-events';
import { adminApiRoutes } from '../src/modules/admin/routes';
import type { AdminService, OperatorContext } from '../src/modules/admin/service';
import {
  call,
  createTestApp,
  deposit,
  onPostgres,
  registerUser,
  testConfig,
  type CallResult,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const BTC = DEFAULT_CATALOGUE.find((p) => p.code === 'BTCUSDT')!;
const ETH = DEFAULT_CATALOGUE.find((p) => p.code === 'ETHUSDT')!;
const NOW = Date.parse('2026-11-18T15:00:00Z');
const OPERATOR_PASSWORD = 'correct horse battery';

let t: TestApp;
let dir: string;
let feed: ScriptedFeed;
let clock: ManualClock;
let adminToken: string;
let finance: Operator;
let support: Operator;
let content: Operator;
let sequence = 0;
const requestId = () => `adm-fast-${Date.now()}-${++sequence}`;

interface Operator {
  id: number;
  username: string;
  token: string;
}

const adminCall = (
  method: 'GET' | 'POST',
  url: string,
  options: Parameters<typeof call>[3] = {},
): Promise<CallResult> => adminApiCall(t.app, method, url, options);

const signIn = (username: string, password: string) => operatorReady(t.app, username, password);

let operatorSequence = 0;
async function newOperator(roles: string[]): Promise<Operator> {
  operatorSequence += 1;
  const username = `trading${operatorSequence}-${roles.join('-')}`;
  const created = await adminCall('POST', '/operators/create', {
    token: adminToken,
    json: { username, password: OPERATOR_PASSWORD, roles },
  });
  if (created.status !== 200) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  return {
    id: created.body.data.id,
    username,
    token: await signIn(username, OPERATOR_PASSWORD),
  };
}

interface AuditEntry {
  operatorId: number;
  operatorName: string;
  action: string;
  targetType: string;
  targetId: string | null;
  before: any;
  after: any;
}

async function auditOf(query: Record<string, string>): Promise<AuditEntry[]> {
  const result = await adminCall('GET', '/audit', {
    token: adminToken,
    query: { pageSize: '100', ...query },
  });
  expect(result.status).toBe(200);
  return result.body.rows as AuditEntry[];
}

async function trader(amount = '1000') {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, amount);
  await call(t.app, 'POST', '/api/fastTradeOrder/acceptRisk', { token: user.token });
  return user;
}

async function userOptions(productCode = 'BTCUSDT') {
  const result = await call(t.app, 'GET', '/api/fastTradeOrderOptions/list', {
    query: { productType: '2', productCode },
  });
  if (result.status !== 200) throw new Error(JSON.stringify(result.body));
  return result.body.data as {
    id: number;
    durationSeconds: number;
    payoutRate: string;
    feeRateUp: string;
    feeRateDown: string;
  }[];
}

async function order(token: string, fields: Record<string, unknown> = {}) {
  const minute =
    'optionId' in fields ? undefined : (await userOptions()).find((o) => o.durationSeconds === 60);
  return call(t.app, 'POST', '/api/fastTradeOrder/addFastTradeOrder', {
    token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      optionId: minute?.id,
      orderDirection: 1,
      amount: '100',
      requestId: requestId(),
      ...fields,
    },
  });
}

function tickAt(price: string, ms: number): Tick {
  clock.advance(ms);
  return feed.tick('BTCUSDT', price, clock.now().getTime());
}

beforeAll(async () => {
  clock = new ManualClock(new Date(NOW));
  feed = new ScriptedFeed();
  t = await createTestApp({
    clock,
    env: { MARKET_FEED: 'simulated', MARKET_SEED: 'admin-trading' },
    catalogue: [BTC, ETH],
    history: { days: 2, minuteDays: 1 },
    feed: () => feed,
  });
  feed.tick('BTCUSDT', '100000.00', NOW);
  feed.tick('ETHUSDT', '3000.00', NOW);
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-admin-trading-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, clock);
  adminToken = await signIn(ADMIN_USERNAME, seeded.password!);
  finance = await newOperator(['finance']);
  support = await newOperator(['support']);
  content = await newOperator(['content']);
});

afterEach(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe(`trading settings on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('gates the calls: finance manages fees and options, only admin manages products', async () => {
    const tokens: Record<string, string> = {
      admin: adminToken,
      finance: finance.token,
      support: support.token,
      content: content.token,
    };
    const cases: [string, Record<string, number>][] = [
      ['/fees', { admin: 200, finance: 200, support: 403, content: 403 }],
      ['/fastTradeOptions', { admin: 200, finance: 200, support: 403, content: 403 }],
      ['/products', { admin: 200, finance: 403, support: 403, content: 403 }],
    ];
    for (const [url, expected] of cases) {
      for (const [role, status] of Object.entries(expected)) {
        const result = await adminCall('GET', url, { token: tokens[role] });
        expect(result.status, `${role} ${url}`).toBe(status);
        if (status === 403) expect(result.body.msg).toBe('hint_forbidden');
      }
      expect((await adminCall('GET', url)).status).toBe(401);
    }
    const writes: [string, unknown, string[]][] = [
      [
        '/fees/save',
        { productType: 2, positionType: 0, exType: 1, feeRate: '0.05' },
        ['support', 'content'],
      ],
      [
        '/fastTradeOptions/save',
        {
          productType: 2,
          durationSeconds: 45,
          payoutRate: '0.8',
          lossRate: '1',
          minStake: '10',
          maxStake: '100',
        },
        ['support', 'content'],
      ],
      [
        '/products/update',
        { productType: 2, productCode: 'BTCUSDT', isLock: 1 },
        ['finance', 'support', 'content'],
      ],
    ];
    for (const [url, json, refused] of writes) {
      for (const role of refused) {
        const result = await adminCall('POST', url, { token: tokens[role], json });
        expect(result.body, `${role} ${url}`).toMatchObject({ code: 403, msg: 'hint_forbidden' });
      }
    }
    // Nothing changed: no fee of 5 %, no 45 s option, the product not halted.
    const fees = await adminCall('GET', '/fees', { token: adminToken });
    expect((fees.body.data as any[]).some((fee) => fee.feeRate === '0.05')).toBe(false);
    const options = await adminCall('GET', '/fastTradeOptions', {
      token: adminToken,
      query: { pageSize: '100' },
    });
    expect((options.body.rows as any[]).some((o) => o.durationSeconds === 45)).toBe(false);
    expect(t.app.services.marketEngine!.product(2, 'BTCUSDT')!.is_lock).toBe(0);
  });

  it('offers no call that sets a price, an outcome or a position', async () => {
    const urls: string[] = [];
    const recorder = {
      handle: (route: { path: string }) => urls.push(route.path.slice('/admin-api'.length)),
    };
    adminApiRoutes(
      recorder as unknown as Router<OperatorContext>,
      {} as AdminService,
      t.config,
      {} as ConsoleEvents,
    );
    expect(urls).toEqual(
      expect.arrayContaining([
        '/fees',
        '/fees/save',
        '/fastTradeOptions',
        '/fastTradeOptions/save',
        '/products',
        '/products/update',
      ]),
    );
    expect(
      urls.filter((url) =>
        /price|outcome|result|settle|position|close|liquidat|win|lose|tick/i.test(url),
      ),
    ).toEqual([]);
    // A price sent along with a product update is not a field: it is ignored, the stored
    // reference price stays, and the feed's quote is untouched.
    const before = await t.db.query<{ reference_price: string }>(
      "SELECT reference_price::text AS reference_price FROM product WHERE product_code = 'ETHUSDT'",
    );
    const quote = t.app.services.marketEngine!.tickerInfo(
      t.app.services.marketEngine!.product(2, 'ETHUSDT')!,
    )!.nowPrice;
    const result = await adminCall('POST', '/products/update', {
      token: adminToken,
      json: {
        productType: 2,
        productCode: 'ETHUSDT',
        sort: 7,
        price: '1',
        nowPrice: '1',
        referencePrice: '1',
      },
    });
    expect(result.status).toBe(200);
    const after = await t.db.query<{ reference_price: string }>(
      "SELECT reference_price::text AS reference_price FROM product WHERE product_code = 'ETHUSDT'",
    );
    expect(after.rows[0]!.reference_price).toBe(before.rows[0]!.reference_price);
    expect(
      t.app.services.marketEngine!.tickerInfo(t.app.services.marketEngine!.product(2, 'ETHUSDT')!)!
        .nowPrice,
    ).toBe(quote);
    for (const url of ['/products/setPrice', '/fastTradeOrders/settle', '/positions/close']) {
      const refused = await adminCall('POST', url, { token: adminToken, json: { id: 1 } });
      expect(refused.status, url).toBe(404);
    }
  });

  it('saves a fee, audited, seen at once in the fee list, the options and new orders', async () => {
    const listed = await adminCall('GET', '/fees', { token: finance.token });
    const current = (listed.body.data as any[]).find(
      (fee) => fee.productType === 2 && fee.positionType === 0 && fee.exType === 1,
    );
    expect(current).toMatchObject({ feeRate: '0' });
    // Read (and cache) the user-facing values before the change.
    expect((await userOptions())[0]!.feeRateUp).toBe('0');

    const saved = await adminCall('POST', '/fees/save', {
      token: finance.token,
      form: { productType: '2', positionType: '0', exType: '1', feeRate: '0.002' },
    });
    expect(saved.body).toMatchObject({
      code: 200,
      msg: 'hint_success',
      data: { id: current.id, productType: 2, positionType: 0, exType: 1, feeRate: '0.002' },
    });
    const publicFees = await call(t.app, 'GET', '/api/orderFeeSetting/list');
    expect((publicFees.body.rows as any[]).find((fee) => fee.remark === '2_0_1')).toMatchObject({
      feeRate: '0.002',
    });
    const options = await userOptions();
    expect(options.every((o) => o.feeRateUp === '0.002' && o.feeRateDown === '0')).toBe(true);
    const user = await trader();
    const placed = await order(user.token, { amount: '100' });
    expect(placed.body.data).toMatchObject({ fee: '0.2000' });

    const [entry] = await auditOf({ targetType: 'orderFee', targetId: String(current.id) });
    expect(entry).toMatchObject({
      operatorId: finance.id,
      operatorName: finance.username,
      action: 'orderFee.update',
      before: { feeRate: '0', productType: 2, positionType: 0, exType: 1 },
      after: { feeRate: '0.002', productType: 2, positionType: 0, exType: 1 },
    });

    // The same value again changes nothing and writes nothing.
    const again = await adminCall('POST', '/fees/save', {
      token: finance.token,
      json: { productType: 2, positionType: 0, exType: 1, feeRate: '0.0020' },
    });
    expect(again.body).toMatchObject({ code: 200, msg: 'hint_48', data: { feeRate: '0.002' } });
    expect(await auditOf({ targetType: 'orderFee', targetId: String(current.id) })).toHaveLength(1);

    // A missing row is created.
    await t.db.query(
      'DELETE FROM order_fee_setting WHERE product_type = 4 AND position_type = 1 AND ex_type = 2',
    );
    const created = await adminCall('POST', '/fees/save', {
      token: adminToken,
      json: { productType: 4, positionType: 1, exType: 2, feeRate: '0.0007' },
    });
    expect(created.status).toBe(200);
    const [creation] = await auditOf({
      targetType: 'orderFee',
      targetId: String(created.body.data.id),
    });
    expect(creation).toMatchObject({
      action: 'orderFee.create',
      before: null,
      after: { productType: 4, positionType: 1, exType: 2, feeRate: '0.0007' },
    });

    // Back to no fee for the later tests; the open order settles.
    await adminCall('POST', '/fees/save', {
      token: finance.token,
      json: { productType: 2, positionType: 0, exType: 1, feeRate: '0' },
    });
    tickAt('100000.00', 61_000);
    await settledFastTrade(t.app, user.token, placed.body.data.id);
  });

  it('refuses bad fees', async () => {
    const good = { productType: 2, positionType: 0, exType: 1, feeRate: '0.001' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ feeRate: '0.1' }, 'hint_feeRateTooHigh', 'feeRate'],
      [{ feeRate: '-0.001' }, 'hint_amount_sign', 'feeRate'],
      [{ feeRate: '0.000000001' }, 'hint_amount_scale', 'feeRate'],
      [{ feeRate: 0.001 }, 'hint_amountAsText', 'feeRate'],
      [{ feeRate: 'abc' }, 'hint_amount_format', 'feeRate'],
      [{ feeRate: undefined }, 'hint_paramRequired', 'feeRate'],
      [{ productType: 5 }, 'hint_paramOutOfRange', 'productType'],
      [{ positionType: 4 }, 'hint_paramOutOfRange', 'positionType'],
      [{ exType: 3 }, 'hint_paramOutOfRange', 'exType'],
      // Forex has no spot trading.
      [{ productType: 4, positionType: 2 }, 'hint_paramInvalid', 'positionType'],
    ];
    for (const [fields, msg, field] of cases) {
      const result = await adminCall('POST', '/fees/save', {
        token: finance.token,
        json: { ...good, ...fields },
      });
      expect({ fields, status: result.status, body: result.body }).toMatchObject({
        fields,
        status: 400,
        body: { msg, params: [field] },
      });
    }
    const fees = await adminCall('GET', '/fees', { token: finance.token });
    expect(
      (fees.body.data as any[]).find(
        (fee) => fee.productType === 2 && fee.positionType === 0 && fee.exType === 1,
      ).feeRate,
    ).toBe('0');
  });

  it('creates and changes fast-trade options, audited; orders already placed keep their terms', async () => {
    const user = await trader();
    tickAt('100000.00', 1000);
    const minute = (await userOptions()).find((o) => o.durationSeconds === 60)!;
    const placed = await order(user.token, { amount: '100', optionId: minute.id });
    expect(placed.body.data).toMatchObject({ durationSeconds: 60, payoutRate: '0.85' });
    const expiresAt = placed.body.data.expiresAt as number;

    // A page at a time: one row per page, and the total of them all.
    const first = await adminCall('GET', '/fastTradeOptions', {
      token: finance.token,
      query: { pageNum: '1', pageSize: '1' },
    });
    expect(first.body.rows).toHaveLength(1);
    expect(first.body.total).toBeGreaterThan(1);
    const all = await adminCall('GET', '/fastTradeOptions', {
      token: finance.token,
      query: { pageSize: '100' },
    });
    expect(all.body.rows).toHaveLength(Number(all.body.total));
    const stored = (all.body.rows as any[]).find((o) => o.id === minute.id);
    expect(stored).toEqual({
      id: minute.id,
      productType: 2,
      productCode: null,
      durationSeconds: 60,
      payoutRate: '0.85',
      lossRate: '1',
      minStake: '10',
      maxStake: '10000',
      isEnabled: 1,
      sort: 1,
    });
    const changed = await adminCall('POST', '/fastTradeOptions/save', {
      token: finance.token,
      json: { ...stored, durationSeconds: 120, payoutRate: '0.5', lossRate: '0.9' },
    });
    expect(changed.body).toMatchObject({
      msg: 'hint_success',
      data: { id: minute.id, durationSeconds: 120, payoutRate: '0.5', lossRate: '0.9' },
    });
    const [entry] = await auditOf({ targetType: 'fastTradeOption', targetId: String(minute.id) });
    expect(entry).toMatchObject({
      operatorId: finance.id,
      action: 'fastTradeOption.update',
      before: { durationSeconds: 60, payoutRate: '0.85', lossRate: '1' },
      after: { durationSeconds: 120, payoutRate: '0.5', lossRate: '0.9' },
    });
    // Users see the new terms; the order placed before keeps the old ones.
    expect((await userOptions()).find((o) => o.id === minute.id)).toMatchObject({
      durationSeconds: 120,
      payoutRate: '0.5',
    });
    expect(await fastTradeDetail(t.app, user.token, placed.body.data.id)).toMatchObject({
      durationSeconds: 60,
      payoutRate: '0.85',
      lossRate: '1',
      expiresAt,
      status: 0,
    });
    // It settles on its own terms: a win pays 85 % at 60 seconds, not 50 % at 120.
    tickAt('100010.00', 60_000);
    const done = await settledFastTrade(t.app, user.token, placed.body.data.id);
    expect(done).toMatchObject({ status: 1, result: '85.0000', durationSeconds: 60 });

    // The same values again: nothing to do, nothing audited.
    const again = await adminCall('POST', '/fastTradeOptions/save', {
      token: adminToken,
      json: changed.body.data,
    });
    expect(again.body.msg).toBe('hint_48');
    expect(
      await auditOf({ targetType: 'fastTradeOption', targetId: String(minute.id) }),
    ).toHaveLength(1);

    // A product's own option (form-encoded) replaces the type's options for that product only;
    // disabling it brings them back, and the operator still lists it.
    const own = await adminCall('POST', '/fastTradeOptions/save', {
      token: adminToken,
      form: {
        productType: '2',
        productCode: 'ethusdt',
        durationSeconds: '90',
        payoutRate: '0.75',
        lossRate: '1',
        minStake: '5',
        maxStake: '500',
      },
    });
    expect(own.body.data).toMatchObject({
      productCode: 'ETHUSDT',
      durationSeconds: 90,
      isEnabled: 1,
      sort: 0,
    });
    const [creation] = await auditOf({
      targetType: 'fastTradeOption',
      targetId: String(own.body.data.id),
    });
    expect(creation).toMatchObject({
      action: 'fastTradeOption.create',
      before: null,
      after: { productCode: 'ETHUSDT', durationSeconds: 90, payoutRate: '0.75' },
    });
    expect((await userOptions('ETHUSDT')).map((o) => o.durationSeconds)).toEqual([90]);
    expect((await userOptions('BTCUSDT')).map((o) => o.durationSeconds)).toEqual([30, 120, 300]);
    await adminCall('POST', '/fastTradeOptions/save', {
      token: adminToken,
      json: { ...own.body.data, isEnabled: 0 },
    });
    expect((await userOptions('ETHUSDT')).map((o) => o.durationSeconds)).toEqual([30, 120, 300]);
    const listed = await adminCall('GET', '/fastTradeOptions', {
      token: adminToken,
      query: { pageSize: '100' },
    });
    expect((listed.body.rows as any[]).find((o) => o.id === own.body.data.id).isEnabled).toBe(0);

    // Back to the seeded minute option for the later tests.
    await adminCall('POST', '/fastTradeOptions/save', { token: adminToken, json: stored });
  });

  it('refuses bad fast-trade options', async () => {
    const good = {
      productType: 2,
      durationSeconds: 60,
      payoutRate: '0.8',
      lossRate: '1',
      minStake: '10',
      maxStake: '100',
    };
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ durationSeconds: 9 }, 400, 'hint_paramOutOfRange', 'durationSeconds'],
      [{ durationSeconds: 86_401 }, 400, 'hint_paramOutOfRange', 'durationSeconds'],
      [{ payoutRate: '0' }, 400, 'hint_amount_sign', 'payoutRate'],
      [{ payoutRate: '10.01' }, 400, 'hint_amount_range', 'payoutRate'],
      [{ lossRate: '1.01' }, 400, 'hint_amount_range', 'lossRate'],
      [{ lossRate: '0' }, 400, 'hint_amount_sign', 'lossRate'],
      [{ minStake: '0' }, 400, 'hint_amount_sign', 'minStake'],
      [{ maxStake: '9' }, 400, 'hint_maxStakeBelowMin', 'maxStake'],
      [{ productType: 0 }, 400, 'hint_paramOutOfRange', 'productType'],
      [{ productCode: 'NOPE' }, 404, 'hint_productUnknown', 'productCode'],
      // A product of another type.
      [{ productType: 1, productCode: 'BTCUSDT' }, 404, 'hint_productUnknown', 'productCode'],
      [{ id: 999_999 }, 404, 'hint_fastTradeOptionUnknown', 'id'],
      [{ isEnabled: 2 }, 400, 'hint_paramInvalid', 'isEnabled'],
    ];
    const count = async () =>
      (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM fast_trade_option')).rows[0]!
        .n;
    const before = await count();
    for (const [fields, status, msg, field] of cases) {
      const result = await adminCall('POST', '/fastTradeOptions/save', {
        token: finance.token,
        json: { ...good, ...fields },
      });
      expect({ fields, status: result.status, body: result.body }).toMatchObject({
        fields,
        status,
        body: { msg, params: [field] },
      });
    }
    expect(await count()).toBe(before);
  });

  it('changes visibility, sort and leverages, audited, and the market sees it at once', async () => {
    // The list is paged and filtered on the server: by type, and by a code or a name as text.
    const firstPage = await adminCall('GET', '/products', {
      token: adminToken,
      query: { pageNum: '1', pageSize: '1' },
    });
    expect(firstPage.body.rows).toHaveLength(1);
    expect(firstPage.body.total).toBeGreaterThan(1);
    const noMatch = await adminCall('GET', '/products', {
      token: adminToken,
      query: { keyword: '%' },
    });
    expect(noMatch.body).toMatchObject({ rows: [], total: 0 });
    const listed = await adminCall('GET', '/products', {
      token: adminToken,
      query: { productType: '2', keyword: 'btcusdt' },
    });
    expect((listed.body.rows as any[]).every((p) => p.productType === 2)).toBe(true);
    const btc = (listed.body.rows as any[]).find((p) => p.productCode === 'BTCUSDT');
    expect(btc).toMatchObject({
      productType: 2,
      productCode: 'BTCUSDT',
      isVisible: 1,
      isLock: 0,
      leverages: BTC.leverages,
      positionTypes: [0, 1, 2, 3],
    });
    const updated = await adminCall('POST', '/products/update', {
      token: adminToken,
      form: { productType: '2', productCode: 'btcusdt', leverages: '1,10,50', sort: '99' },
    });
    expect(updated.body).toMatchObject({
      msg: 'hint_success',
      data: { leverages: [1, 10, 50], sort: 99, isVisible: 1, isLock: 0 },
    });
    const [entry] = await auditOf({ targetType: 'product', targetId: String(btc.id) });
    expect(entry).toMatchObject({
      action: 'product.update',
      operatorName: ADMIN_USERNAME,
      before: { leverages: BTC.leverages, sort: btc.sort, isVisible: 1, isLock: 0 },
      after: { leverages: [1, 10, 50], sort: 99, isVisible: 1, isLock: 0 },
    });
    const market = await call(t.app, 'GET', '/api/cryptocurrencyProduct/list');
    const rows = market.body.rows as any[];
    expect(rows.find((p) => p.productCode === 'BTCUSDT')).toMatchObject({
      leverages: [1, 10, 50],
      sort: 99,
    });
    expect(rows.at(-1).productCode).toBe('BTCUSDT');

    // Hidden: gone from the user's lists and not tradable; the operator still lists it.
    await adminCall('POST', '/products/update', {
      token: adminToken,
      json: { productType: 2, productCode: 'BTCUSDT', isVisible: 0 },
    });
    const hidden = await call(t.app, 'GET', '/api/cryptocurrencyProduct/list');
    expect((hidden.body.rows as any[]).some((p) => p.productCode === 'BTCUSDT')).toBe(false);
    const user = await trader();
    const optionId = (await userOptions('ETHUSDT'))[0]!.id;
    expect((await order(user.token, { optionId })).body.msg).toBe('hint_productUnknown');
    const all = await adminCall('GET', '/products', {
      token: adminToken,
      query: { keyword: 'BTCUSDT' },
    });
    expect((all.body.rows as any[]).find((p) => p.productCode === 'BTCUSDT').isVisible).toBe(0);

    const restored = await adminCall('POST', '/products/update', {
      token: adminToken,
      json: {
        productType: 2,
        productCode: 'BTCUSDT',
        isVisible: 1,
        sort: btc.sort,
        leverages: BTC.leverages,
      },
    });
    expect(restored.body.data).toMatchObject({ isVisible: 1, leverages: BTC.leverages });
    const same = await adminCall('POST', '/products/update', {
      token: adminToken,
      json: { productType: 2, productCode: 'BTCUSDT', isVisible: 1 },
    });
    expect(same.body.msg).toBe('hint_48');
    expect(await auditOf({ targetType: 'product', targetId: String(btc.id) })).toHaveLength(3);
  });

  it('halts a product: new fast trades answer hint_productHalted until it is resumed', async () => {
    const user = await trader();
    tickAt('100000.00', 1000);
    const halted = await adminCall('POST', '/products/update', {
      token: adminToken,
      json: { productType: 2, productCode: 'BTCUSDT', isLock: 1 },
    });
    expect(halted.body.data).toMatchObject({ isLock: 1 });
    const refused = await order(user.token);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ msg: 'hint_productHalted' });
    const [entry] = await auditOf({
      action: 'product.update',
      targetId: String(halted.body.data.id),
    });
    expect(entry).toMatchObject({ before: { isLock: 0 }, after: { isLock: 1 } });
    // Quotes keep coming from the feed while it is halted.
    tickAt('100001.00', 500);
    const engine = t.app.services.marketEngine!;
    expect(Number(engine.tickerInfo(engine.product(2, 'BTCUSDT')!)!.nowPrice)).toBe(100001);

    await adminCall('POST', '/products/update', {
      token: adminToken,
      json: { productType: 2, productCode: 'BTCUSDT', isLock: 0 },
    });
    const placed = await order(user.token);
    expect(placed.status).toBe(200);
    tickAt('100001.00', 61_000);
    await settledFastTrade(t.app, user.token, placed.body.data.id);
  });

  it('changes the maintenance rate, audited: new contracts use it, open ones keep theirs', async () => {
    const user = await trader();
    let sequence = 0;
    const open = () =>
      call(t.app, 'POST', '/api/contractPosition/open', {
        token: user.token,
        json: {
          productType: 2,
          productCode: 'ETHUSDT',
          orderDirection: 1,
          leverage: 10,
          quantity: '0.1',
          requestId: `maintenance-${++sequence}`,
        },
      });
    const first = await open();
    // 0.1 ETH at 3,000, 10×: margin 30; maintenance 300 × 0.5 % = 1.5 → 3,000 − 28.5 / 0.1.
    expect(first.body.data).toMatchObject({
      maintenanceRate: '0.005',
      liquidationPrice: '2715.00',
    });
    const updated = await adminCall('POST', '/products/update', {
      token: adminToken,
      json: { productType: 2, productCode: 'ETHUSDT', maintenanceRate: '0.02' },
    });
    expect(updated.body.data).toMatchObject({ maintenanceRate: '0.02' });
    const [entry] = await auditOf({
      targetType: 'product',
      targetId: String(updated.body.data.id),
    });
    expect(entry).toMatchObject({
      action: 'product.update',
      before: { maintenanceRate: '0.005' },
      after: { maintenanceRate: '0.02' },
    });
    // 300 × 2 % = 6 → 3,000 − 24 / 0.1.
    expect((await open()).body.data).toMatchObject({
      maintenanceRate: '0.02',
      liquidationPrice: '2760.00',
    });
    const kept = await call(t.app, 'GET', '/api/contractPosition/detail', {
      token: user.token,
      query: { id: String(first.body.data.id) },
    });
    expect(kept.body.data).toMatchObject({ maintenanceRate: '0.005', liquidationPrice: '2715.00' });
    await adminCall('POST', '/products/update', {
      token: adminToken,
      json: { productType: 2, productCode: 'ETHUSDT', maintenanceRate: '0.005' },
    });
  });

  it('refuses bad product updates', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ leverages: '10,5' }, 400, 'hint_leveragesInvalid', 'leverages'],
      [{ leverages: [1, 1] }, 400, 'hint_leveragesInvalid', 'leverages'],
      [{ leverages: [0, 5] }, 400, 'hint_leveragesInvalid', 'leverages'],
      [{ leverages: [1, 126] }, 400, 'hint_leveragesInvalid', 'leverages'],
      [{ leverages: [1.5] }, 400, 'hint_leveragesInvalid', 'leverages'],
      [{ leverages: 'a,b' }, 400, 'hint_leveragesInvalid', 'leverages'],
      [{ leverages: [] }, 400, 'hint_leveragesInvalid', 'leverages'],
      [{ isLock: 2 }, 400, 'hint_paramInvalid', 'isLock'],
      [{ isVisible: 'yes' }, 400, 'hint_paramInvalid', 'isVisible'],
      [{ sort: 'first' }, 400, 'hint_paramInvalid', 'sort'],
      [{ maintenanceRate: '0' }, 400, 'hint_amount_sign', 'maintenanceRate'],
      [{ maintenanceRate: '0.5' }, 400, 'hint_amount_range', 'maintenanceRate'],
      [{ maintenanceRate: '1%' }, 400, 'hint_amount_format', 'maintenanceRate'],
      [{}, 400, 'hint_paramRequired', 'isVisible'],
      [{ productCode: 'NOPE', isLock: 1 }, 404, 'hint_productUnknown', 'productCode'],
      [{ productType: 1, isLock: 1 }, 404, 'hint_productUnknown', 'productCode'],
    ];
    for (const [fields, status, msg, field] of cases) {
      const result = await adminCall('POST', '/products/update', {
        token: adminToken,
        json: { productType: 2, productCode: 'BTCUSDT', ...fields },
      });
      expect({ fields, status: result.status, body: result.body }).toMatchObject({
        fields,
        status,
        body: { msg, params: [field] },
      });
    }
    const product = t.app.services.marketEngine!.product(2, 'BTCUSDT')!;
    expect(product).toMatchObject({ is_lock: 0, is_visible: 1, leverages: BTC.leverages });
  });
});
