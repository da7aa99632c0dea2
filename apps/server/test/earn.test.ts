/**
 * Earn (earnApi, consoleEarnApi, the daily job): lock mining and staking bought with the amount
 * moved to the staked account, once per request id; refused outside the product's bounds, decimals,
 * identity level, per-user limit and capacity (20 buys at once never oversell it); interest from the
 * UTC day after, each day exactly what packages/shared/src/earn.ts says (the sum over the term is
 * principal × rate × days rounded down once), paid daily, at maturity or compounded; days missed
 * while stopped caught up, a day run again paying nobody twice; early redemption quoted first and
 * paid as quoted; orders waiting for review approved or rejected (funds released); the demo book
 * apart from the live one; the console's products, queue and report. The ledger verifies after
 * every test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  add,
  earnAddDays,
  earnDay,
  expectedInterest,
  interestSchedule,
  mul,
  redemptionPenalty,
  sub,
  sum,
  toScale,
} from '@bourse/shared';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import { EarnDailyJob } from '../src/modules/earn';
import {
  call,
  createTestApp,
  deposit,
  onPostgres,
  registerUser,
  testConfig,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const USDT = 3;
/** USDT's decimals in the seeded catalogue. */
const SCALE = 4;
const DAY_MS = 86_400_000;
const PASSWORD = 'steady orchard lamp';
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let t: TestApp;
let dir: string;
const tokens = { admin: '', finance: '', support: '' };
let sequence = 0;
const requestId = () => `earn-${Date.now()}-${++sequence}`;

/** Operator sessions last 8 idle hours: after the clock moves days, operators sign in again. */
async function signInOperators() {
  tokens.finance = await operatorReady(t.app, 'earn-finance', PASSWORD);
  tokens.support = await operatorReady(t.app, 'earn-support', PASSWORD);
}

const consoleCall = (method: 'GET' | 'POST', url: string, token: string, input?: unknown) =>
  method === 'GET'
    ? adminApiCall(t.app, method, `/earn${url}`, { token, query: input as Record<string, string> })
    : adminApiCall(t.app, method, `/earn${url}`, { token, json: input });

interface Product {
  id: number;
  kind: string;
  dailyRate: string;
  termDays: number | null;
  held: string;
  status: number;
  image: string;
}

async function product(fields: Record<string, unknown> = {}): Promise<Product> {
  const saved = await consoleCall('POST', '/products/save', tokens.finance, {
    kind: 'financial',
    name: { en: 'USDT 30 days', fr: 'USDT 30 jours' },
    description: { en: 'Fixed term' },
    currencyId: USDT,
    termDays: 30,
    dailyRate: '0.001',
    minAmount: '10',
    maxAmount: '100000',
    minAuthLevel: -1,
    payout: 'daily',
    penaltyRate: '0.0005',
    ...fields,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body.data as Product;
}

const KIND_PATH = { financial: 'financialOrder', staking: 'stakingOrder' } as const;
type Kind = keyof typeof KIND_PATH;

function buy(
  token: string,
  productId: number,
  amount: string,
  options: { kind?: Kind; requestId?: string; dailyRate?: string } = {},
) {
  return call(t.app, 'POST', `/api/${KIND_PATH[options.kind ?? 'financial']}/add`, {
    token,
    form: {
      productId: String(productId),
      amount,
      requestId: options.requestId ?? requestId(),
      ...(options.dailyRate ? { dailyRate: options.dailyRate } : {}),
    },
  });
}

async function bought(token: string, productId: number, amount: string, kind: Kind = 'financial') {
  const result = await buy(token, productId, amount, { kind });
  expect(result.status, JSON.stringify([result.body, t.logs.slice(-2)])).toBe(200);
  return result.body.data as {
    id: number;
    status: number;
    firstDay: string | null;
    endDay: string | null;
    dailyRate: string;
    expectedInterest: string | null;
  };
}

async function balance(userId: number, kind = 'available', book = 'live'): Promise<string> {
  const { rows } = await t.db.query<{ balance: string }>(
    `SELECT balance::text FROM ledger_account WHERE book = $1 AND owner_type = 'user'
       AND owner_id = $2 AND currency_id = $3 AND kind = $4`,
    [book, userId, USDT, kind],
  );
  return rows[0] ? sum([rows[0].balance]) : '0';
}

async function funded(amount = '10000') {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, amount);
  return user;
}

/** The interest records of an order, oldest day first. */
async function records(orderId: number) {
  const { rows } = await t.db.query<{ day: string; amount: string; credited: string }>(
    `SELECT day::text AS day, amount::text AS amount, credited FROM earn_interest
     WHERE order_id = $1 ORDER BY day`,
    [orderId],
  );
  return rows.map((row) => ({ ...row, amount: sum([row.amount]) }));
}

async function order(kind: Kind, token: string, id: number) {
  const list = await call(t.app, 'GET', `/api/${KIND_PATH[kind]}/list`, {
    token,
    query: { pageSize: '100' },
  });
  expect(list.status).toBe(200);
  return (list.body.rows as { id: number }[]).find((row) => row.id === id) as Record<string, any>;
}

/** Moves the clock to the next UTC day just after the scheduler's time and runs what is due. */
async function nextDay(days = 1) {
  const now = t.clock.now();
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY_MS;
  t.clock.set(new Date(next + 6 * 60_000));
  await t.app.services.scheduler.runDue();
}

const today = () => earnDay(t.clock.now());

beforeAll(async () => {
  t = await createTestApp({
    clock: new ManualClock(new Date('2026-03-10T12:00:00Z')),
    env: { SESSION_TTL_HOURS: '720' },
  });
  // The scheduler's first day is the day it first ran: today.
  await t.app.services.scheduler.runDue();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-earn-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['support', 'finance'] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `earn-${role}`, password: PASSWORD, roles: [role] },
    });
    expect(created.status).toBe(200);
  }
  await signInOperators();
});

// Operator sessions end after 8 idle hours, and the tests move the clock by days.
beforeEach(signInOperators);

/**
 * Every user's staked balance is exactly what their open orders hold (per book and currency): no
 * stake left behind by an order that ended, none missing for an order still open.
 */
async function stakesMatchOrders() {
  const { rows: accounts } = await t.db.query<{ key: string; amount: string }>(
    `SELECT book || ':' || owner_id || ':' || currency_id AS key, balance::text AS amount
     FROM ledger_account WHERE owner_type = 'user' AND kind = 'staked' AND balance <> 0`,
  );
  const { rows: orders } = await t.db.query<{ key: string; amount: string }>(
    `SELECT book || ':' || user_id || ':' || currency_id AS key, sum(balance)::text AS amount
     FROM earn_order WHERE status IN (0, 1) GROUP BY book, user_id, currency_id`,
  );
  const normalized = (rows: { key: string; amount: string }[]) =>
    Object.fromEntries(rows.map((row) => [row.key, sum([row.amount])]).sort());
  expect(normalized(accounts)).toEqual(normalized(orders));
}

afterEach(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await stakesMatchOrders();
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('products', () => {
  it('lists the open products with their published terms in the reader’s language', async () => {
    const made = await product({
      rateTiers: [
        { minAmount: '1000', dailyRate: '0.0012' },
        { minAmount: '5000', dailyRate: '0.0015' },
      ],
      capacity: '50000',
      maxOrdersPerUser: 3,
      image: `data:image/png;base64,${PNG_BASE64}`,
    });
    const list = await call(t.app, 'GET', '/api/financialProduct/list', {
      headers: { 'Accept-Language': 'fr' },
      query: { pageSize: '100' },
    });
    expect(list.status).toBe(200);
    const shown = (list.body.rows as Record<string, unknown>[]).find((row) => row.id === made.id);
    expect(shown).toMatchObject({
      kind: 'financial',
      name: 'USDT 30 jours',
      description: 'Fixed term',
      currency: 'USDT',
      scale: SCALE,
      termDays: 30,
      dailyRate: '0.001',
      rateTiers: [
        { minAmount: '1000.0000', dailyRate: '0.0012' },
        { minAmount: '5000.0000', dailyRate: '0.0015' },
      ],
      minAmount: '10.0000',
      maxAmount: '100000.0000',
      capacity: '50000.0000',
      remainingCapacity: '50000.0000',
      maxOrdersPerUser: 3,
      payout: 'daily',
      compounding: false,
      penaltyRate: '0.0005',
      requiresReview: false,
      status: 1,
      openOrders: null,
    });
    // The image is served re-encoded, as a JPEG, at the URL the product names.
    const image = await t.app.inject({ method: 'GET', url: String(shown!.image) });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // Staking lists only staking products.
    const staking = await call(t.app, 'GET', '/api/stakingProduct/list', {
      query: { pageSize: '100' },
    });
    expect((staking.body.rows as { id: number }[]).some((row) => row.id === made.id)).toBe(false);
  });

  it('checks a product’s terms when it is saved, and only admins and finance keep them', async () => {
    const bad = await consoleCall('POST', '/products/save', tokens.finance, {
      kind: 'financial',
      name: { en: 'No term' },
      currencyId: USDT,
      dailyRate: '0.001',
      minAmount: '10',
      minAuthLevel: -1,
      payout: 'daily',
      penaltyRate: '0',
    });
    expect(bad.body).toMatchObject({ msg: 'hint_earnTermRequired', params: ['termDays'] });
    const flexibleAtMaturity = await consoleCall('POST', '/products/save', tokens.finance, {
      kind: 'staking',
      name: { en: 'Flexible' },
      currencyId: USDT,
      dailyRate: '0.001',
      minAmount: '10',
      minAuthLevel: -1,
      payout: 'maturity',
      penaltyRate: '0',
    });
    expect(flexibleAtMaturity.body).toMatchObject({ msg: 'hint_earnPayoutDaily' });
    const decimals = await consoleCall('POST', '/products/save', tokens.finance, {
      kind: 'financial',
      name: { en: 'Too fine' },
      currencyId: USDT,
      termDays: 7,
      dailyRate: '0.001',
      minAmount: '10.00001',
      minAuthLevel: -1,
      payout: 'daily',
      penaltyRate: '0',
    });
    expect(decimals.body).toMatchObject({
      msg: 'hint_amountDecimals',
      params: [SCALE, 'minAmount'],
    });
    const refused = await consoleCall('GET', '/products', tokens.support, {});
    expect(refused.status).toBe(403);
    const made = await product();
    const kindChange = await consoleCall('POST', '/products/save', tokens.finance, {
      id: made.id,
      kind: 'staking',
      name: { en: 'x' },
      currencyId: USDT,
      termDays: 30,
      dailyRate: '0.001',
      minAmount: '10',
      minAuthLevel: -1,
      payout: 'daily',
      penaltyRate: '0',
    });
    expect(kindChange.body).toMatchObject({ msg: 'hint_earnKindFixed' });
    // Every change is audited.
    const { rows } = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE target_type = 'earn_product' AND target_id = $1`,
      [String(made.id)],
    );
    expect(rows.map((row) => row.action)).toEqual(['earnProduct.create']);
  });
});

describe('buying', () => {
  it('moves the amount to the staked account once per request id', async () => {
    const made = await product();
    const user = await funded('1000');
    const id = requestId();
    const first = await buy(user.token, made.id, '250.5', { requestId: id });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({
      status: 1,
      amount: '250.5000',
      balance: '250.5000',
      dailyRate: '0.001',
      termDays: 30,
      firstDay: earnAddDays(today(), 1),
      endDay: earnAddDays(today(), 30),
      expectedInterest: toScale(
        expectedInterest({ amount: '250.5', dailyRate: '0.001', days: 30, scale: SCALE }),
        SCALE,
      ),
      demo: false,
    });
    expect(await balance(user.userId)).toBe('749.5');
    expect(await balance(user.userId, 'staked')).toBe('250.5');
    // The same request again answers the first order and moves nothing.
    const again = await buy(user.token, made.id, '250.5', { requestId: id });
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await balance(user.userId)).toBe('749.5');
    const reused = await buy(user.token, made.id, '300', { requestId: id });
    expect(reused.body).toMatchObject({ msg: 'hint_requestIdReused' });
    expect(reused.status).toBe(409);
    // Never below zero.
    const broke = await buy(user.token, made.id, '800');
    expect(broke.body).toMatchObject({ msg: 'hint_insufficientBalance' });
    expect(await balance(user.userId)).toBe('749.5');
    // The order starts with a notification.
    const notes = await call(t.app, 'GET', '/api/notification/list', { token: user.token });
    expect(JSON.stringify(notes.body.rows)).toContain('earnOrderStarted');
    // The user's balance records file the stake under Earn.
    const records = await call(t.app, 'GET', '/api/balanceRecord/list', {
      token: user.token,
      query: { type: 'earn' },
    });
    expect(records.status).toBe(200);
    expect(records.body.rows!.map((row) => [row.type, row.entryType, row.amount])).toEqual([
      ['earn', 'earn_buy', '-250.5000'],
    ]);
  });

  it('refuses amounts out of bounds or too fine, closed products and a rate no longer given', async () => {
    const made = await product({
      minAmount: '100',
      maxAmount: '1000',
      rateTiers: [{ minAmount: '500', dailyRate: '0.0013' }],
    });
    const user = await funded('5000');
    expect((await buy(user.token, made.id, '99.9999')).body).toMatchObject({
      msg: 'hint_earnAmountMin',
      params: ['100.0000', 'USDT'],
    });
    expect((await buy(user.token, made.id, '1000.0001')).body).toMatchObject({
      msg: 'hint_earnAmountMax',
    });
    expect((await buy(user.token, made.id, '200.00001')).body).toMatchObject({
      msg: 'hint_amountDecimals',
    });
    // The tier of the amount: the rate the user was shown must be the one the order gets.
    expect((await buy(user.token, made.id, '600', { dailyRate: '0.001' })).body).toMatchObject({
      msg: 'hint_earnRateChanged',
    });
    const tiered = await buy(user.token, made.id, '600', { dailyRate: '0.0013' });
    expect(tiered.body.data.dailyRate).toBe('0.0013');
    // A change of the product's rate never touches the open order.
    await consoleCall('POST', '/products/save', tokens.finance, {
      id: made.id,
      kind: 'financial',
      name: { en: 'USDT 30 days' },
      currencyId: USDT,
      termDays: 30,
      dailyRate: '0.0005',
      minAmount: '100',
      maxAmount: '1000',
      minAuthLevel: -1,
      payout: 'daily',
      penaltyRate: '0.0005',
    });
    expect((await order('financial', user.token, tiered.body.data.id)).dailyRate).toBe('0.0013');
    const closed = await consoleCall('POST', '/products/status', tokens.finance, {
      id: made.id,
      status: 0,
    });
    expect(closed.body.data.status).toBe(0);
    expect((await buy(user.token, made.id, '200')).body).toMatchObject({
      msg: 'hint_earnProductClosed',
    });
    const list = await call(t.app, 'GET', '/api/financialProduct/list', {
      query: { pageSize: '100' },
    });
    expect((list.body.rows as { id: number }[]).some((row) => row.id === made.id)).toBe(false);
    // Closing again changes nothing.
    const twice = await consoleCall('POST', '/products/status', tokens.finance, {
      id: made.id,
      status: 0,
    });
    expect(twice.body.msg).toBe('hint_48');
  });

  it('gates a product by identity level and the user’s open orders', async () => {
    const made = await product({ minAuthLevel: 0, maxOrdersPerUser: 2 });
    const user = await funded('1000');
    const gated = await buy(user.token, made.id, '50');
    expect(gated.status).toBe(403);
    expect(gated.body).toMatchObject({ msg: 'hint_identityRequired', params: [1] });
    await t.db.query('UPDATE app_user SET auth_level = 0 WHERE id = $1', [user.userId]);
    await bought(user.token, made.id, '50');
    await bought(user.token, made.id, '50');
    expect((await buy(user.token, made.id, '50')).body).toMatchObject({
      msg: 'hint_earnOrderLimit',
      params: [2],
    });
    const products = await call(t.app, 'GET', '/api/financialProduct/detail', {
      token: user.token,
      query: { id: String(made.id) },
    });
    expect(products.body.data.openOrders).toBe(2);
  });

  it('never oversells a product’s capacity, even to 20 buys at once', async () => {
    const made = await product({ capacity: '1000', minAmount: '10' });
    const users = await Promise.all(Array.from({ length: 20 }, () => funded('100')));
    const results = await Promise.all(users.map((user) => buy(user.token, made.id, '100')));
    const accepted = results.filter((result) => result.status === 200);
    expect(accepted).toHaveLength(10);
    for (const result of results.filter((result) => result.status !== 200))
      expect(result.body).toMatchObject({ msg: 'hint_earnCapacity', params: ['0.0000', 'USDT'] });
    const { rows } = await t.db.query<{ held: string; orders: number }>(
      `SELECT p.held::text AS held, (SELECT count(*)::int FROM earn_order o WHERE o.product_id = p.id) AS orders
       FROM earn_product p WHERE p.id = $1`,
      [made.id],
    );
    expect(rows[0]).toEqual({ held: expect.stringMatching(/^1000(\.0+)?$/), orders: 10 });
  });
});

describe('the daily interest', () => {
  it('redeems no order before the day’s run has paid the day begun; on the last day the run pays the whole term', async () => {
    const made = await product({ termDays: 3, dailyRate: '0.001', payout: 'maturity' });
    const user = await funded('1000');
    const placed = await bought(user.token, made.id, '1000');
    await nextDay();
    // 00:02 on day 2, before the run: the day has begun and is not paid; the redemption waits.
    const dayOne = t.clock.now();
    t.clock.set(
      new Date(
        Date.UTC(dayOne.getUTCFullYear(), dayOne.getUTCMonth(), dayOne.getUTCDate() + 1, 0, 2),
      ),
    );
    const waiting = await call(t.app, 'GET', '/api/financialOrder/redemptionPreview', {
      token: user.token,
      query: { id: String(placed.id) },
    });
    expect(waiting.status).toBe(422);
    expect(waiting.body).toMatchObject({ msg: 'hint_earnDayUnsettled', params: ['id'] });
    // Once the day's run has paid day 2, one day is left to charge.
    t.clock.set(new Date(t.clock.now().getTime() + 4 * 60_000));
    await t.app.services.scheduler.runDue();
    const quoted = await call(t.app, 'GET', '/api/financialOrder/redemptionPreview', {
      token: user.token,
      query: { id: String(placed.id) },
    });
    expect(quoted.body.data.quote).toMatchObject({ remainingDays: 1 });
    // 00:02 on the last day: the run (00:05) has not paid it yet.
    const now = t.clock.now();
    t.clock.set(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 2)),
    );
    expect(today()).toBe(placed.endDay);
    const preview = await call(t.app, 'GET', '/api/financialOrder/redemptionPreview', {
      token: user.token,
      query: { id: String(placed.id) },
    });
    expect(preview.status).toBe(422);
    expect(preview.body).toMatchObject({ msg: 'hint_earnTermEnded', params: ['id'] });
    const redeemed = await call(t.app, 'POST', '/api/financialOrder/redemption', {
      token: user.token,
      form: { id: String(placed.id), requestId: requestId(), penalty: '0' },
    });
    expect(redeemed.body).toMatchObject({ msg: 'hint_earnTermEnded' });
    expect(await balance(user.userId, 'staked')).toBe('1000');
    // The day's run pays the stake and the whole term's interest.
    t.clock.set(new Date(t.clock.now().getTime() + 4 * 60_000));
    await t.app.services.scheduler.runDue();
    expect(await balance(user.userId)).toBe(
      sum([
        '1000',
        expectedInterest({ amount: '1000', dailyRate: '0.001', days: 3, scale: SCALE }),
      ]),
    );
    expect(await order('financial', user.token, placed.id)).toMatchObject({ status: 2 });
  });

  it('pays each day from the next UTC day exactly as the shared function says, and the principal at maturity', async () => {
    const made = await product({ termDays: 5, dailyRate: '0.00123', payout: 'daily' });
    const user = await funded('5000');
    const placed = await bought(user.token, made.id, '1000.55');
    const schedule = interestSchedule({
      amount: '1000.55',
      dailyRate: '0.00123',
      days: 5,
      scale: SCALE,
    });
    // Nothing on the day of the buy.
    expect(await records(placed.id)).toEqual([]);
    const before = await balance(user.userId);
    for (let day = 1; day <= 5; day += 1) {
      await nextDay();
      const paid = await records(placed.id);
      expect(paid).toHaveLength(day);
      expect(paid.at(-1)).toMatchObject({
        day: today(),
        amount: schedule[day - 1],
        credited: 'available',
      });
      if (day < 5) expect(await balance(user.userId, 'staked')).toBe('1000.55');
    }
    // The whole term is principal × rate × days rounded down once, with the principal back.
    const total = toScale(mul(mul('1000.55', '0.00123'), '5'), SCALE, 'down');
    expect(sum(schedule)).toBe(sum([total]));
    expect(await balance(user.userId)).toBe(sum([before, total, '1000.55']));
    expect(await balance(user.userId, 'staked')).toBe('0');
    const done = await order('financial', user.token, placed.id);
    expect(done).toMatchObject({ status: 2, interestPaid: toScale(total, SCALE), daysAccrued: 5 });
    // A sixth day pays nothing more.
    await nextDay();
    expect(await records(placed.id)).toHaveLength(5);
    const notes = await call(t.app, 'GET', '/api/notification/list', { token: user.token });
    expect(JSON.stringify(notes.body.rows)).toContain('earnOrderCompleted');
  });

  it('catches up the days missed while stopped, and a day run again pays nobody twice', async () => {
    const made = await product({ termDays: 10, dailyRate: '0.0007' });
    const user = await funded('5000');
    const placed = await bought(user.token, made.id, '777.7777');
    // Three days pass with the server down: the next run does them all, in order.
    t.clock.set(new Date(t.clock.now().getTime() + 3 * DAY_MS));
    await t.app.services.scheduler.runDue();
    const paid = await records(placed.id);
    expect(paid.map((row) => row.day)).toEqual(
      [1, 2, 3].map((n) => earnAddDays(placed.firstDay!, n - 1)),
    );
    const schedule = interestSchedule({
      amount: '777.7777',
      dailyRate: '0.0007',
      days: 3,
      scale: SCALE,
    });
    expect(paid.map((row) => row.amount)).toEqual(schedule);
    // The same days run again (a crash before the day was marked done, a second instance): nothing.
    const available = await balance(user.userId);
    const entries = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM ledger_entry',
    );
    const job = new EarnDailyJob({ db: t.db, batchSize: 2 });
    for (const row of paid) expect(await job.runDay(row.day, t.clock.now())).toBe(0);
    expect(await balance(user.userId)).toBe(available);
    const after = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM ledger_entry',
    );
    expect(after.rows[0]!.count).toBe(entries.rows[0]!.count);
  });

  it('works in bounded batches: many orders, several per ledger entry, each paid once', async () => {
    const made = await product({ termDays: 3, dailyRate: '0.0011' });
    const users = await Promise.all(Array.from({ length: 6 }, () => funded('1000')));
    const placed = [];
    for (const [index, user] of users.entries())
      placed.push(await bought(user.token, made.id, String(100 + index * 37)));
    const day = earnAddDays(today(), 1);
    const job = new EarnDailyJob({ db: t.db, batchSize: 4 });
    // The job runs the day in batches of 4 (the scheduler would run it too: it finds it done).
    expect(await job.runDay(day, t.clock.now())).toBeGreaterThanOrEqual(6);
    expect(await job.runDay(day, t.clock.now())).toBe(0);
    for (const [index, row] of placed.entries()) {
      const expected = interestSchedule({
        amount: String(100 + index * 37),
        dailyRate: '0.0011',
        days: 1,
        scale: SCALE,
      })[0];
      expect(await records(row.id)).toEqual([{ day, amount: expected, credited: 'available' }]);
    }
    const { rows } = await t.db.query<{ entries: number }>(
      `SELECT count(DISTINCT entry_id)::int AS entries FROM earn_interest
       WHERE order_id = ANY($1::bigint[]) AND day = $2`,
      [placed.map((row) => row.id), day],
    );
    expect(rows[0]!.entries).toBeLessThan(placed.length);
    await nextDay();
    for (const row of placed) expect(await records(row.id)).toHaveLength(1);
  });

  it('holds interest for maturity when the product pays then, and pays it all with the principal', async () => {
    const made = await product({ termDays: 4, dailyRate: '0.0009', payout: 'maturity' });
    const user = await funded('2000');
    const placed = await bought(user.token, made.id, '1234.5678');
    const before = await balance(user.userId);
    for (let day = 1; day <= 3; day += 1) await nextDay();
    expect(await balance(user.userId)).toBe(before);
    const midway = await order('financial', user.token, placed.id);
    const schedule = interestSchedule({
      amount: '1234.5678',
      dailyRate: '0.0009',
      days: 4,
      scale: SCALE,
    });
    expect(midway).toMatchObject({
      interestPaid: '0.0000',
      interestAccrued: toScale(sum(schedule.slice(0, 3)), SCALE),
    });
    expect((await records(placed.id)).every((row) => row.credited === 'maturity')).toBe(true);
    await nextDay();
    expect(await balance(user.userId)).toBe(sum([before, '1234.5678', ...schedule]));
    expect(await order('financial', user.token, placed.id)).toMatchObject({
      status: 2,
      interestPaid: toScale(sum(schedule), SCALE),
      interestAccrued: '0.0000',
    });
  });

  it('compounds staking interest into the stake, as the confirm screen’s figure says', async () => {
    const made = await product({
      kind: 'staking',
      name: { en: 'Compounding stake' },
      termDays: 6,
      dailyRate: '0.01',
      compounding: true,
      payout: 'daily',
    });
    const user = await funded('2000');
    const placed = await bought(user.token, made.id, '1000', 'staking');
    const expected = expectedInterest({
      amount: '1000',
      dailyRate: '0.01',
      days: 6,
      scale: SCALE,
      compounding: true,
    });
    expect(placed.expectedInterest).toBe(toScale(expected, SCALE));
    const before = await balance(user.userId);
    await nextDay();
    await nextDay();
    expect(await balance(user.userId)).toBe(before);
    expect(await balance(user.userId, 'staked')).toBe('1020.1');
    for (let day = 3; day <= 6; day += 1) await nextDay();
    expect(await balance(user.userId)).toBe(sum([before, '1000', expected]));
    const interest = await call(t.app, 'GET', '/api/stakingOrderInterestRecord/list', {
      token: user.token,
      query: { stakingOrderId: String(placed.id) },
    });
    expect(interest.body.total).toBe(6);
    expect(interest.body.rows![0]).toMatchObject({ credited: 'stake', orderId: placed.id });
    expect(sum((interest.body.rows as { amount: string }[]).map((row) => row.amount))).toBe(
      expected,
    );
  });
});

describe('redemption', () => {
  it('quotes the penalty first, returns the stake less it and keeps the interest paid', async () => {
    const made = await product({ termDays: 10, dailyRate: '0.001', penaltyRate: '0.0003' });
    const user = await funded('3000');
    const placed = await bought(user.token, made.id, '2000');
    await nextDay();
    await nextDay();
    const paid = sum((await records(placed.id)).map((row) => row.amount));
    const preview = await call(t.app, 'GET', '/api/financialOrder/redemptionPreview', {
      token: user.token,
      query: { id: String(placed.id) },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const remaining = 8;
    const penalty = redemptionPenalty('2000', '0.0003', remaining, SCALE);
    expect(preview.body.data.quote).toEqual({
      remainingDays: remaining,
      penalty: toScale(penalty, SCALE),
      returned: toScale(sub('2000', penalty), SCALE),
      forfeited: '0.0000',
    });
    const wrong = await call(t.app, 'POST', '/api/financialOrder/redemption', {
      token: user.token,
      form: { id: String(placed.id), requestId: requestId(), penalty: '0' },
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ msg: 'hint_earnPenaltyChanged' });
    const before = await balance(user.userId);
    const id = requestId();
    const redeemed = await call(t.app, 'POST', '/api/financialOrder/redemption', {
      token: user.token,
      form: { id: String(placed.id), requestId: id, penalty: preview.body.data.quote.penalty },
    });
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    expect(redeemed.body.data).toMatchObject({
      status: 4,
      penalty: toScale(penalty, SCALE),
      returned: toScale(sub('2000', penalty), SCALE),
      interestPaid: toScale(paid, SCALE),
    });
    expect(await balance(user.userId)).toBe(add(before, sub('2000', penalty)));
    expect(await balance(user.userId, 'staked')).toBe('0');
    // The same request again is done already; another is refused; the days after pay nothing.
    const again = await call(t.app, 'POST', '/api/financialOrder/redemption', {
      token: user.token,
      form: { id: String(placed.id), requestId: id },
    });
    expect(again.body.msg).toBe('hint_48');
    const other = await call(t.app, 'POST', '/api/financialOrder/redemption', {
      token: user.token,
      form: { id: String(placed.id), requestId: requestId() },
    });
    expect(other.body).toMatchObject({ msg: 'hint_earnNotRedeemable' });
    await nextDay();
    expect(await records(placed.id)).toHaveLength(2);
    // Someone else's order is not found.
    const stranger = await funded('10');
    const foreign = await call(t.app, 'GET', '/api/financialOrder/redemptionPreview', {
      token: stranger.token,
      query: { id: String(placed.id) },
    });
    expect(foreign.status).toBe(404);
  });

  it('lets a flexible stake go any time, with interest for the whole days held and no penalty', async () => {
    const made = await product({
      kind: 'staking',
      name: { en: 'Flexible USDT' },
      termDays: undefined,
      dailyRate: '0.0004',
      penaltyRate: '0',
    });
    expect(made.termDays).toBeNull();
    const user = await funded('1000');
    const placed = await bought(user.token, made.id, '500', 'staking');
    expect(placed.endDay).toBeNull();
    for (let day = 1; day <= 3; day += 1) await nextDay();
    const before = await balance(user.userId);
    const preview = await call(t.app, 'GET', '/api/stakingOrder/redemptionPreview', {
      token: user.token,
      query: { id: String(placed.id) },
    });
    expect(preview.body.data.quote).toMatchObject({ remainingDays: 0, penalty: '0.0000' });
    const redeemed = await call(t.app, 'POST', '/api/stakingOrder/redemption', {
      token: user.token,
      form: { id: String(placed.id), requestId: requestId(), penalty: '0' },
    });
    expect(redeemed.status).toBe(200);
    expect(await balance(user.userId)).toBe(add(before, '500'));
    const interest = await call(t.app, 'GET', '/api/stakingOrderInterestRecord/list', {
      token: user.token,
    });
    const own = (interest.body.rows as { orderId: number; amount: string }[]).filter(
      (row) => row.orderId === placed.id,
    );
    expect(own).toHaveLength(3);
    expect(sum(own.map((row) => row.amount))).toBe(
      sum(interestSchedule({ amount: '500', dailyRate: '0.0004', days: 3, scale: SCALE })),
    );
  });
});

describe('review', () => {
  it('holds the funds of an order waiting for review; rejecting releases them, approving starts it', async () => {
    const made = await product({ requiresReview: true, termDays: 3 });
    const user = await funded('1000');
    const first = await bought(user.token, made.id, '300');
    expect(first).toMatchObject({ status: 0, firstDay: null });
    expect(await balance(user.userId, 'staked')).toBe('300');
    const queue = await consoleCall('GET', '/orders', tokens.finance, { status: '0' });
    expect((queue.body.rows as { id: number }[]).map((row) => row.id)).toContain(first.id);
    const rejected = await consoleCall('POST', '/orders/reject', tokens.finance, {
      id: first.id,
      reason: 'Source of funds unclear',
    });
    expect(rejected.body.data).toMatchObject({
      status: 3,
      rejectReason: 'Source of funds unclear',
    });
    expect(await balance(user.userId)).toBe('1000');
    expect(await balance(user.userId, 'staked')).toBe('0');
    const approveRejected = await consoleCall('POST', '/orders/approve', tokens.finance, {
      id: first.id,
    });
    expect(approveRejected.status).toBe(409);
    expect(approveRejected.body.msg).toBe('hint_reviewClosed');

    const second = await bought(user.token, made.id, '400');
    await nextDay();
    await signInOperators();
    // Nothing accrues while it waits.
    expect(await records(second.id)).toEqual([]);
    const approved = await consoleCall('POST', '/orders/approve', tokens.finance, {
      id: second.id,
    });
    expect(approved.body.data).toMatchObject({
      status: 1,
      firstDay: earnAddDays(today(), 1),
      endDay: earnAddDays(today(), 3),
    });
    expect(
      (await consoleCall('POST', '/orders/approve', tokens.finance, { id: second.id })).body.msg,
    ).toBe('hint_48');
    await nextDay();
    expect(await records(second.id)).toHaveLength(1);
    const { rows } = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE target_type = 'earn_order' ORDER BY id`,
    );
    expect(rows.map((row) => row.action)).toEqual(
      expect.arrayContaining(['earnOrder.reject', 'earnOrder.approve']),
    );
    const notes = await call(t.app, 'GET', '/api/notification/list', { token: user.token });
    expect(JSON.stringify(notes.body.rows)).toContain('earnOrderRejected');
    await signInOperators();
  });
});

describe('the demo book', () => {
  it('buys with virtual funds apart from the live book, without review, level or capacity', async () => {
    const made = await product({
      requiresReview: true,
      minAuthLevel: 1,
      capacity: '100',
      termDays: 2,
    });
    const user = await registerUser(t.app);
    const switched = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    expect(switched.body.data.accountType).toBe(2);
    const placed = await bought(user.token, made.id, '5000');
    expect(placed).toMatchObject({ status: 1 });
    expect(await balance(user.userId, 'available', 'demo')).toBe('95000');
    expect(await balance(user.userId, 'staked', 'demo')).toBe('5000');
    expect(await balance(user.userId, 'staked', 'live')).toBe('0');
    const { rows } = await t.db.query<{ held: string }>(
      'SELECT held::text AS held FROM earn_product WHERE id = $1',
      [made.id],
    );
    expect(sum([rows[0]!.held])).toBe('0');
    await nextDay();
    await nextDay();
    const schedule = interestSchedule({
      amount: '5000',
      dailyRate: '0.001',
      days: 2,
      scale: SCALE,
    });
    expect(await balance(user.userId, 'available', 'demo')).toBe(sum(['100000', ...schedule]));
    // The live session sees none of it.
    await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '0' },
    });
    const live = await call(t.app, 'GET', '/api/financialOrder/list', { token: user.token });
    expect(live.body.total).toBe(0);
    await signInOperators();
    const report = await consoleCall('GET', '/report', tokens.finance, { demo: 'true' });
    const row = (report.body.data as { productId: number }[]).find(
      (item) => item.productId === made.id,
    );
    expect(row).toMatchObject({ completedOrders: 1, interestPaid: toScale(sum(schedule), SCALE) });
  });
});

describe('the analysis and the report', () => {
  it('adds up what the user holds and earned, and the console’s report per product', async () => {
    const made = await product({ termDays: 20, dailyRate: '0.002' });
    const user = await funded('5000');
    const a = await bought(user.token, made.id, '1000');
    await bought(user.token, made.id, '500');
    await nextDay();
    await signInOperators();
    const analysis = await call(t.app, 'GET', '/api/financialOrder/financialOrderAnalysis', {
      token: user.token,
    });
    const day1 = sum([
      interestSchedule({ amount: '1000', dailyRate: '0.002', days: 1, scale: SCALE })[0]!,
      interestSchedule({ amount: '500', dailyRate: '0.002', days: 1, scale: SCALE })[0]!,
    ]);
    expect(analysis.body.data).toMatchObject({
      orderCount: 2,
      currencies: [
        {
          currency: 'USDT',
          orderCount: 2,
          amountHeld: '1500.0000',
          interestPaid: toScale(day1, SCALE),
          expectedToday: toScale(
            sum([
              interestSchedule({ amount: '1000', dailyRate: '0.002', days: 2, scale: SCALE })[1]!,
              interestSchedule({ amount: '500', dailyRate: '0.002', days: 2, scale: SCALE })[1]!,
            ]),
            SCALE,
          ),
        },
      ],
    });
    const listed = await order('financial', user.token, a.id);
    expect(listed.nextInterest).toBe(toScale('2', SCALE));
    const report = await consoleCall('GET', '/report', tokens.finance, {});
    const row = (report.body.data as { productId: number }[]).find(
      (item) => item.productId === made.id,
    );
    expect(row).toMatchObject({
      activeOrders: 2,
      amountHeld: '1500.0000',
      interestPaid: toScale(day1, SCALE),
    });
    const products = await consoleCall('GET', '/products', tokens.finance, {
      kind: 'financial',
      pageSize: '100',
    });
    const seen = (products.body.rows as { id: number }[]).find((item) => item.id === made.id);
    expect(seen).toMatchObject({
      held: '1500.0000',
      activeOrders: 2,
      name: { en: 'USDT 30 days' },
    });
    // The total of assets still counts the stake.
    const panel = await call(t.app, 'GET', '/api/userInfo/personCenterPanelData', {
      token: user.token,
    });
    expect(panel.body.data.userBalanceConvert).toBe(toScale(add('5000', day1), SCALE));
  });
});

it(`runs on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  expect(t.db.kind).toBe(onPostgres ? 'postgres' : 'pglite');
});
