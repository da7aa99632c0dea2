/**
 * The console's dashboard (/admin-api/dashboard/*) against a real database and a scripted feed:
 * each figure moves with what users and operators do. Users registered and signed in today (and
 * one the day before); a deposit under review and then approved through the review; a withdrawal
 * under review and then paid; a fast trade, a contract opened and closed, a spot and a
 * coin-to-coin buy in the live book (a demo-book trade counts for nothing); open interest and open
 * fast trades; the day's figures moving into the 30-day series at midnight UTC; the feed's last
 * tick and lag. Who may read what: the overview for admin, finance and support; money and trading
 * for admin and finance; content none; signed out 401.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  add,
  cmp,
  mul,
  type DashboardCurrencyMoney,
  type DashboardMoney,
  type DashboardOverview,
  type DashboardTrading,
  type DashboardTradingSeries,
} from '@bourse/shared';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import { adminApiCall, operatorReady } from './support/admin-api';
import {
  call,
  createTestDatabase,
  deposit,
  GOOD_PASSWORD,
  registerUser,
  testConfig,
  type TestApp,
  type TestDatabase,
} from './helpers';

/** A Wednesday, 15:00 UTC. */
const NOW = Date.parse('2026-11-18T15:00:00Z');
const DAY_MS = 86_400_000;
const USDT = 3;
const OPERATOR_PASSWORD = 'correct horse battery';
/** A 1×1 PNG. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let dir: string;
let adminToken: string;
const tokens: Record<'finance' | 'support' | 'content', string> = {
  finance: '',
  support: '',
  content: '',
};
let sequence = 0;
const requestId = () => `dash-${Date.now()}-${++sequence}`;

const same = (a: string, b: string) => cmp(a, b) === 0;

async function read<T>(what: 'overview' | 'money' | 'trading', token = tokens.finance) {
  const result = await adminApiCall(t.app, 'GET', `/dashboard/${what}`, { token });
  if (result.status !== 200) throw new Error(`${what}: ${JSON.stringify(result.body)}`);
  return result.body.data as T;
}
const overview = (token?: string) => read<DashboardOverview>('overview', token);
const money = () => read<DashboardMoney>('money');
const trading = () => read<DashboardTrading>('trading');

async function usdt(): Promise<DashboardCurrencyMoney> {
  const row = (await money()).currencies.find((currency) => currency.currencyId === USDT);
  expect(row, 'a USDT row').toBeDefined();
  return row!;
}

function series(data: DashboardTrading, positionType: number): DashboardTradingSeries {
  const found = data.series.find((s) => s.positionType === positionType && s.currencyId === USDT);
  expect(found, `a series of kind ${positionType}`).toBeDefined();
  return found!;
}

async function newOperator(roles: string[]): Promise<string> {
  const username = `dash-${roles.join('-')}`;
  const created = await adminApiCall(t.app, 'POST', '/operators/create', {
    token: adminToken,
    json: { username, password: OPERATOR_PASSWORD, roles },
  });
  if (created.status !== 200) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  return operatorReady(t.app, username, OPERATOR_PASSWORD);
}

function tickAt(price: string, ms = 1000) {
  clock.advance(ms);
  return feed.tick('BTCUSDT', price, clock.now().getTime());
}

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], 'dashboard'));
  feed.tick('BTCUSDT', '100000.00', NOW);
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-dashboard-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  adminToken = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  tokens.finance = await newOperator(['finance']);
  tokens.support = await newOperator(['support']);
  tokens.content = await newOperator(['content']);
});

afterAll(async () => {
  await t.app.services.triggers?.idle();
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await t.close();
  await database.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('who may read the dashboard', () => {
  it('overview: admin, finance, support; money and trading: admin, finance; others refused', async () => {
    const allowed = {
      overview: [adminToken, tokens.finance, tokens.support],
      money: [adminToken, tokens.finance],
      trading: [adminToken, tokens.finance],
    };
    const refused = {
      overview: [tokens.content],
      money: [tokens.support, tokens.content],
      trading: [tokens.support, tokens.content],
    };
    const user = await registerUser(t.app);
    for (const what of ['overview', 'money', 'trading'] as const) {
      for (const token of allowed[what]) {
        const result = await adminApiCall(t.app, 'GET', `/dashboard/${what}`, { token });
        expect(result.status, what).toBe(200);
      }
      for (const token of refused[what]) {
        const result = await adminApiCall(t.app, 'GET', `/dashboard/${what}`, { token });
        expect(result.status, what).toBe(403);
        expect(result.body).toMatchObject({ code: 403, msg: 'hint_forbidden' });
      }
      for (const token of [undefined, user.token]) {
        const result = await adminApiCall(t.app, 'GET', `/dashboard/${what}`, { token });
        expect(result.status, what).toBe(401);
      }
    }
  });
});

describe('users', () => {
  it('counts every user, those registered today and those who signed in today', async () => {
    const before = await overview();
    expect(before.asOf).toBe(clock.now().toISOString());
    expect(before.dayStart).toBe('2026-11-18T00:00:00.000Z');

    // Registered yesterday: one more user, but neither new nor signed in today.
    clock.advance(-DAY_MS);
    const old = await registerUser(t.app);
    clock.advance(DAY_MS);
    const afterOld = await overview();
    expect(afterOld.users.total).toBe(before.users.total + 1);
    expect(afterOld.users.newToday).toBe(before.users.newToday);
    expect(afterOld.users.signedInToday).toBe(before.users.signedInToday);

    // Signing in today counts once, however many times.
    for (let i = 0; i < 2; i++) {
      const login = await call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: old.email, userPwd: GOOD_PASSWORD },
      });
      expect(login.status).toBe(200);
    }
    const signedIn = await overview(tokens.support);
    expect(signedIn.users).toEqual({
      ...afterOld.users,
      signedInToday: before.users.signedInToday + 1,
    });

    // Registering today: one more of each (registration signs the user in).
    await registerUser(t.app);
    const afterNew = await overview();
    expect(afterNew.users).toEqual({
      total: before.users.total + 2,
      newToday: before.users.newToday + 1,
      signedInToday: before.users.signedInToday + 2,
    });
  });
});

describe('deposits and withdrawals', () => {
  it('counts a deposit under review, then in the day approved through the review', async () => {
    const user = await registerUser(t.app);
    const before = await usdt();
    const channels = await call(t.app, 'GET', '/api/rechargeChannelConfig/list', {
      token: user.token,
      query: { currencyId: String(USDT) },
    });
    const channel = (channels.body.data as { id: number }[])[0]!;
    const submitted = await call(t.app, 'POST', '/api/userRecharge/inMoney', {
      token: user.token,
      json: {
        channelId: channel.id,
        amount: '125.5',
        proofImage: `data:image/png;base64,${PNG_BASE64}`,
        requestId: requestId(),
      },
    });
    expect(submitted.status).toBe(200);

    const pending = await usdt();
    expect(pending.depositsPending).toBe(before.depositsPending + 1);
    expect(same(pending.depositsPendingAmount, add(before.depositsPendingAmount, '125.5'))).toBe(
      true,
    );
    expect(pending.depositsApprovedToday).toBe(before.depositsApprovedToday);

    const approved = await adminApiCall(t.app, 'POST', '/recharges/approve', {
      token: tokens.finance,
      json: { id: submitted.body.data.id },
    });
    expect(approved.status).toBe(200);
    const after = await usdt();
    expect(after.depositsPending).toBe(before.depositsPending);
    expect(same(after.depositsPendingAmount, before.depositsPendingAmount)).toBe(true);
    expect(after.depositsApprovedToday).toBe(before.depositsApprovedToday + 1);
    expect(
      same(after.depositsApprovedTodayAmount, add(before.depositsApprovedTodayAmount, '125.5')),
    ).toBe(true);
    // Shown at the currency's scale.
    expect(after.depositsApprovedTodayAmount).toMatch(/^\d+\.\d{4}$/);
  });

  it('counts a withdrawal under review, then paid today with its fee', async () => {
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, '500');
    const withPwd = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token: user.token,
      form: { newPwd: '135790', userPwd: GOOD_PASSWORD },
    });
    expect(withPwd.status).toBe(200);
    const address = await call(t.app, 'POST', '/api/userWalletAddress/addUserWalletAddress', {
      token: user.token,
      form: {
        currencyId: String(USDT),
        network: 'TRC20',
        address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
      },
    });
    expect(address.status).toBe(200);
    const channels = await call(t.app, 'GET', '/api/withdrawChannelConfig/list', {
      token: user.token,
      query: { currencyId: String(USDT) },
    });
    const channel = (channels.body.data as { id: number; network: string }[]).find(
      (row) => row.network === 'TRC20',
    )!;
    const before = await usdt();
    const requested = await call(t.app, 'POST', '/api/userWithdraw/outMoney', {
      token: user.token,
      json: {
        channelId: channel.id,
        amount: '40',
        withPwd: '135790',
        addressId: address.body.data.id,
        requestId: requestId(),
      },
    });
    expect(requested.status).toBe(200);
    const pending = await usdt();
    expect(pending.withdrawalsPending).toBe(before.withdrawalsPending + 1);
    expect(same(pending.withdrawalsPendingAmount, add(before.withdrawalsPendingAmount, '40'))).toBe(
      true,
    );

    const paid = await adminApiCall(t.app, 'POST', '/withdrawals/pay', {
      token: tokens.finance,
      json: { id: requested.body.data.id },
    });
    expect(paid.status).toBe(200);
    const after = await usdt();
    expect(after.withdrawalsPending).toBe(before.withdrawalsPending);
    expect(after.withdrawalsPaidToday).toBe(before.withdrawalsPaidToday + 1);
    expect(
      same(after.withdrawalsPaidTodayAmount, add(before.withdrawalsPaidTodayAmount, '40')),
    ).toBe(true);
    expect(
      same(
        after.withdrawalsPaidTodayFee,
        add(before.withdrawalsPaidTodayFee, paid.body.data.fee as string),
      ),
    ).toBe(true);
  });
});

describe('trading', () => {
  let trader: { token: string; userId: number };

  beforeAll(async () => {
    trader = await registerUser(t.app);
    await deposit(t.db, trader.userId, '100000');
    await call(t.app, 'POST', '/api/fastTradeOrder/acceptRisk', { token: trader.token });
  });

  it('adds each kind of live trade to the day: volume, fees, count; open interest and fast trades', async () => {
    const before = await trading();
    expect(before.days).toHaveLength(30);
    expect(before.days.at(-1)).toBe('2026-11-18');
    expect(before.days[0]).toBe('2026-10-20');
    for (const kind of [0, 1, 2, 3]) {
      expect(series(before, kind).today.trades).toBe(0);
      expect(series(before, kind).days).toHaveLength(30);
    }
    expect(before.openInterest).toEqual([]);
    expect(before.openFastTrades).toEqual([]);

    // A fast trade: its stake and fee, and it is open until its expiry's tick.
    const options = await call(t.app, 'GET', '/api/fastTradeOrderOptions/list', {
      query: { productType: '2', productCode: 'BTCUSDT' },
    });
    const minute = (options.body.data as { id: number; durationSeconds: number }[]).find(
      (option) => option.durationSeconds === 60,
    )!;
    const fast = await call(t.app, 'POST', '/api/fastTradeOrder/addFastTradeOrder', {
      token: trader.token,
      json: {
        productType: 2,
        productCode: 'BTCUSDT',
        optionId: minute.id,
        orderDirection: 1,
        amount: '100',
        requestId: requestId(),
      },
    });
    expect(fast.status).toBe(200);

    // A contract opened, then closed at a later tick.
    const opened = await call(t.app, 'POST', '/api/contractPosition/open', {
      token: trader.token,
      json: {
        productType: 2,
        productCode: 'BTCUSDT',
        orderDirection: 1,
        leverage: 10,
        quantity: '0.01',
        requestId: requestId(),
      },
    });
    expect(opened.status).toBe(200);
    const position = opened.body.data;

    const mid = await trading();
    expect(mid.openInterest).toHaveLength(1);
    expect(mid.openInterest[0]).toMatchObject({
      productType: 2,
      productCode: 'BTCUSDT',
      currencyName: 'USDT',
      positions: 1,
      longQuantity: '0.01',
      shortQuantity: '0',
      margin: position.margin,
    });
    expect(same(mid.openInterest[0]!.longNotional, mul('0.01', position.entryPrice))).toBe(true);
    expect(mid.openFastTrades).toHaveLength(1);
    expect(mid.openFastTrades[0]!.orders).toBe(1);
    expect(same(mid.openFastTrades[0]!.stake, '100')).toBe(true);

    tickAt('101000.00');
    await t.app.services.triggers!.idle();
    const closed = await call(t.app, 'POST', '/api/contractPosition/close', {
      token: trader.token,
      json: { id: position.id, requestId: requestId() },
    });
    expect(closed.status).toBe(200);
    const detail = (
      await call(t.app, 'GET', '/api/contractPosition/detail', {
        token: trader.token,
        query: { id: String(position.id) },
      })
    ).body.data;

    // Spot and coin-to-coin buys.
    const spot = await call(t.app, 'POST', '/api/spotTradeOrder/addSpotTradeOrder', {
      token: trader.token,
      json: {
        productType: 2,
        productCode: 'BTCUSDT',
        orderType: 1,
        quantity: '0.0100',
        requestId: requestId(),
      },
    });
    expect(spot.status).toBe(200);
    const bibi = await call(t.app, 'POST', '/api/bibiTradeOrder/buy', {
      token: trader.token,
      json: { productCode: 'BTCUSDT', orderType: 1, quantity: '0.0200', requestId: requestId() },
    });
    expect(bibi.status).toBe(200);

    // The same user's demo book counts for nothing.
    const demo = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: trader.token,
      query: { accountType: '2' },
    });
    expect(demo.status).toBe(200);
    const demoToken = trader.token;
    const paper = await call(t.app, 'POST', '/api/contractPosition/open', {
      token: demoToken,
      json: {
        productType: 2,
        productCode: 'BTCUSDT',
        orderDirection: 2,
        leverage: 10,
        quantity: '0.05',
        requestId: requestId(),
      },
    });
    expect(paper.status).toBe(200);

    const after = await trading();
    const fastToday = series(after, 0).today;
    expect(fastToday.trades).toBe(1);
    expect(same(fastToday.volume, '100')).toBe(true);
    expect(same(fastToday.fees, fast.body.data.fee)).toBe(true);

    const contractToday = series(after, 1).today;
    expect(contractToday.trades).toBe(2);
    expect(
      same(
        contractToday.volume,
        add(mul('0.01', detail.entryPrice), mul('0.01', detail.exitPrice)),
      ),
    ).toBe(true);
    expect(same(contractToday.fees, add(detail.openFee, detail.closeFee))).toBe(true);

    const spotToday = series(after, 2).today;
    expect(spotToday.trades).toBe(1);
    expect(same(spotToday.volume, spot.body.data.amount)).toBe(true);
    expect(same(spotToday.fees, spot.body.data.fee)).toBe(true);

    const bibiToday = series(after, 3).today;
    expect(bibiToday.trades).toBe(1);
    expect(same(bibiToday.volume, bibi.body.data.amount)).toBe(true);
    expect(same(bibiToday.fees, bibi.body.data.fee)).toBe(true);

    // The live position closed: no open interest (the demo one is not counted).
    expect(after.openInterest).toEqual([]);
    // The day's figure is the last of the 30-day series.
    expect(series(after, 1).days.at(-1)).toEqual(contractToday);

    // The fast trade settles at its expiry's tick: no longer open, still in the day's volume.
    tickAt('100500.00', 60_000);
    for (let i = 0; i < 200 && (await trading()).openFastTrades.length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const settled = await trading();
    expect(settled.openFastTrades).toEqual([]);
    expect(series(settled, 0).today).toEqual(fastToday);
  });

  it('moves the day into the 30-day series at midnight UTC', async () => {
    const today = await trading();
    const contract = series(today, 1).today;
    expect(contract.trades).toBeGreaterThan(0);
    clock.set(new Date(Date.parse('2026-11-19T00:00:00Z')));
    // Nine hours on, the operators' sessions ended (8 hours idle): they sign in again.
    tokens.finance = await operatorReady(t.app, 'dash-finance', OPERATOR_PASSWORD);
    tokens.support = await operatorReady(t.app, 'dash-support', OPERATOR_PASSWORD);
    const next = await trading();
    expect(next.dayStart).toBe('2026-11-19T00:00:00.000Z');
    expect(next.days.at(-1)).toBe('2026-11-19');
    expect(series(next, 1).today.trades).toBe(0);
    expect(series(next, 1).days.at(-2)).toEqual(contract);
    // Users and money start the day at zero too.
    const users = (await overview()).users;
    expect(users.newToday).toBe(0);
    expect(users.signedInToday).toBe(0);
    const currency = await usdt();
    expect(currency.depositsApprovedToday).toBe(0);
    expect(currency.withdrawalsPaidToday).toBe(0);
  });
});

describe('the running server', () => {
  it('shows the feed per product type with its last tick and lag, no lease alone, /ws connections', async () => {
    const sent = tickAt('100700.00', 1000);
    clock.advance(2500);
    const data = await overview(tokens.support);
    expect(data.feed).toMatchObject({
      running: true,
      name: 'scripted',
      simulated: true,
      leader: true,
    });
    expect(data.feed.productTypes).toEqual([
      {
        productType: 2,
        sources: ['scripted'],
        products: 1,
        openProducts: 1,
        lastTickTime: new Date(sent.time).toISOString(),
        lastTickProduct: 'BTCUSDT',
        lastTickPrice: '100700.00',
        lastTickSource: 'scripted',
        lastTickSequence: sent.sequence,
        lagMs: 2500,
      },
    ]);
    // One instance alone: no Redis, no lease.
    expect(data.lease).toBeNull();
    expect(data.instance).toEqual({
      clustered: false,
      wsConnections: t.app.hub.connectionCount,
      wsConnectionsAll: t.app.hub.connectionCount,
      instances: 1,
    });
  });
});
