/**
 * The one total of assets (issue 17): userBalanceConvert and personCenterPanelData give the same
 * valuation, computed once, of every currency (available and frozen), the margin of open
 * contracts, spot holdings at the feed's price and the open positions' unrealized result, with
 * the time of the prices and every asset the user holds as the wallet lists it. A currency the
 * feed does not price is listed with its amounts, valued null and named, never in the total.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { add, mul, sub, sum, toScale } from '@bourse/shared';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import {
  call,
  createTestDatabase,
  deposit,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers';

const NOW = Date.parse('2026-11-18T15:00:00Z');
const USD = 1;
const USDT = 3;
/** The seeded USDT TRC20 withdrawal channel (a fixed fee of 1). */
const WITHDRAW_USDT_TRC20 = 2;
const WITH_PWD = '246810';
const TRC20_ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let sequence = 0;
const requestId = () => `totals-${Date.now()}-${++sequence}`;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  // No USDCUSDT in this catalogue: the feed prices BTC, never USD.
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], 'totals'));
  await tick('100000.00', 0);
});
afterEach(async () => {
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

async function tick(price: string, ms = 1000): Promise<void> {
  clock.advance(ms);
  feed.tick('BTCUSDT', price, clock.now().getTime());
  await t.app.services.triggers!.idle();
}

async function data(token: string, method: 'GET' | 'POST', url: string, body = {}) {
  const result = await call(t.app, method, url, {
    token,
    ...(method === 'GET' ? { query: body } : { json: body }),
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data;
}

async function withdrawal(user: { token: string; userId: number }, amount: string) {
  const set = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
    token: user.token,
    form: { newPwd: WITH_PWD, userPwd: GOOD_PASSWORD },
  });
  expect(set.status).toBe(200);
  const now = clock.now();
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO user_wallet_address (user_id, currency_id, network, address, created_at, updated_at)
     VALUES ($1, $2, 'TRC20', $3, $4, $4) RETURNING id`,
    [user.userId, USDT, TRC20_ADDRESS, now],
  );
  return data(user.token, 'POST', '/api/userWithdraw/outMoney', {
    channelId: WITHDRAW_USDT_TRC20,
    amount,
    withPwd: WITH_PWD,
    addressId: rows[0]!.id,
    requestId: requestId(),
  });
}

describe(`the total of assets on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('values cash, frozen, margin, spot holdings and open results at the feed price, once', async () => {
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, '10000');
    await deposit(t.db, user.userId, '50', USD);

    // A spot buy of 0.01 BTC at 100,000, then a resting sell freezing 0.004 of it.
    const bought = await data(user.token, 'POST', '/api/spotTradeOrder/addSpotTradeOrder', {
      productType: 2,
      productCode: 'BTCUSDT',
      orderType: 1,
      quantity: '0.01',
      requestId: requestId(),
    });
    expect(bought).toMatchObject({ status: 1, amount: '1000.0000', fee: '1.0000' });
    const resting = await data(user.token, 'POST', '/api/spotTradeOrder/sellSpotTradeOrder', {
      productType: 2,
      productCode: 'BTCUSDT',
      orderType: 2,
      price: '200000.00',
      quantity: '0.004',
      requestId: requestId(),
    });
    expect(resting).toMatchObject({ status: 0 });

    // A 10× long of 0.01 BTC: margin 100 and an open fee of 0.5.
    const opened = await data(user.token, 'POST', '/api/contractPosition/open', {
      productType: 2,
      productCode: 'BTCUSDT',
      orderDirection: 1,
      leverage: 10,
      quantity: '0.01',
      requestId: requestId(),
    });
    expect(opened).toMatchObject({ status: 1, margin: '100.0000', openFee: '0.5000' });

    // A pending withdrawal of 40 freezes 41 (its fee of 1 included).
    expect(await withdrawal(user, '40')).toMatchObject({ status: 0, totalAmount: '41.0000' });

    await tick('101000.00');
    const valuation = await data(user.token, 'GET', '/api/userInfo/userBalanceConvert');

    // By hand, at 101,000: USDT 10000 − 1000 − 1 (spot) − 100 − 0.5 (contract), of which 41
    // frozen; the margin 100; 0.01 BTC held = 1010; the long's result (101000 − 100000) × 0.01.
    const usdtTotal = sub('10000', sum(['1000', '1', '100', '0.5']));
    const held = mul('0.01', '101000');
    const result = mul(sub('101000', '100000'), '0.01');
    const total = sum([usdtTotal, '100', held, result]);
    expect(total).toBe('10018.5');
    expect(valuation).toMatchObject({
      currencyId: USDT,
      currencyName: 'USDT',
      userBalanceConvert: toScale(total, 4),
      allMarginAmount: '100.0000',
      profitAndLose: toScale(add(result, sub(held, '1000')), 4),
      unpricedCurrencies: ['USD'],
      priceTime: clock.now().getTime(),
    });

    // Every asset held, held ones first: USD (unpriced), USDT, the spot BTC holding.
    const assets = valuation.assets as Record<string, unknown>[];
    expect(assets.slice(0, 3)).toEqual([
      {
        kind: 'wallet',
        assetName: 'USD',
        currencyId: USD,
        productCode: null,
        amount: '50.00',
        frozenAmount: '0.00',
        totalAmount: '50.00',
        value: null,
      },
      {
        kind: 'wallet',
        assetName: 'USDT',
        currencyId: USDT,
        productCode: null,
        amount: toScale(sub(usdtTotal, '41'), 4),
        frozenAmount: '41.0000',
        totalAmount: toScale(usdtTotal, 4),
        value: toScale(usdtTotal, 4),
      },
      {
        kind: 'spot',
        assetName: 'BTC',
        currencyId: null,
        productCode: 'BTCUSDT',
        amount: '0.006',
        frozenAmount: '0.004',
        totalAmount: '0.01',
        value: '1010.0000',
      },
    ]);
    // Then the currencies never held, at zero and valued zero.
    const rest = assets.slice(3);
    expect(rest.length).toBeGreaterThan(0);
    for (const row of rest) expect(row).toMatchObject({ kind: 'wallet', value: '0.0000' });
    expect(rest.find((row) => row.assetName === 'BTC')).toMatchObject({
      totalAmount: '0.00000000',
    });

    // The person centre's panel answers the very same valuation.
    const panel = await data(user.token, 'GET', '/api/userInfo/personCenterPanelData');
    expect(panel).toMatchObject(valuation);
  });

  it('gives a new account a zero total with every currency listed at zero', async () => {
    const user = await registerUser(t.app);
    const valuation = await data(user.token, 'GET', '/api/userInfo/userBalanceConvert');
    expect(valuation).toMatchObject({
      userBalanceConvert: '0.0000',
      unpricedCurrencies: [],
      priceTime: clock.now().getTime(),
    });
    expect(valuation.assets.length).toBeGreaterThan(0);
    for (const row of valuation.assets)
      expect(row).toMatchObject({ kind: 'wallet', value: '0.0000' });
  });
});
