/**
 * Spot (position type 2) and coin-to-coin (3) trading with a scripted feed: market and limit
 * buys and sells through the ledger, holdings with average cost and realized results, resting
 * limits that freeze funds or quantity and fill at their limit from a tick, cancels, request ids,
 * refusals that move nothing, sessions, and resting orders that survive a restart. The ledger
 * verifies after every test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_TYPE } from '@bourse/shared';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import type { Tick } from '../src/market/types';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import {
  call,
  createTestDatabase,
  deposit,
  onPostgres,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers';

/** A Wednesday, 10:00 in New York: US stocks trade. */
const NOW = Date.parse('2026-11-18T15:00:00Z');
const USDT = 3;

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let sequence = 0;
const requestId = () => `spot-${Date.now()}-${++sequence}`;

async function startApp(): Promise<void> {
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT', 'AAPL', 'EURUSD'], 'spot'));
}

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  await startApp();
  feed.tick('BTCUSDT', '100000.00', NOW);
  feed.tick('AAPL', '200.00', NOW, PRODUCT_TYPE.usStock);
});
afterEach(async () => {
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

/** Moves the clock on and sends a tick stamped with the new time. */
function tickAt(code: 'BTCUSDT' | 'AAPL', price: string, ms = 1000): Tick {
  clock.advance(ms);
  const type = code === 'AAPL' ? PRODUCT_TYPE.usStock : PRODUCT_TYPE.crypto;
  return feed.tick(code, price, clock.now().getTime(), type);
}

/** Waits until the triggers handled every tick sent so far. */
const triggersDone = () => t.app.services.triggers!.idle();

async function trader(amount = '10000') {
  const user = await registerUser(t.app);
  if (amount !== '0') await deposit(t.db, user.userId, amount);
  return user;
}

type Side = 'buy' | 'sell';

function spot(token: string, side: Side, fields: Record<string, unknown> = {}) {
  const action = side === 'buy' ? 'addSpotTradeOrder' : 'sellSpotTradeOrder';
  return call(t.app, 'POST', `/api/spotTradeOrder/${action}`, {
    token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      orderType: 1,
      quantity: '0.0100',
      requestId: requestId(),
      ...fields,
    },
  });
}

function bibi(token: string, side: Side, fields: Record<string, unknown> = {}) {
  return call(t.app, 'POST', `/api/bibiTradeOrder/${side}`, {
    token,
    json: {
      productCode: 'BTCUSDT',
      orderType: 1,
      quantity: '0.0100',
      requestId: requestId(),
      ...fields,
    },
  });
}

function cancel(token: string, id: number, kind: 'spot' | 'bibi' = 'spot') {
  const url = kind === 'spot' ? '/api/spotTradeOrder/cancel' : '/api/bibiTradeOrder/cancel';
  return call(t.app, 'POST', url, { token, form: { id: String(id) } });
}

async function balance(token: string) {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token,
    query: { currencyId: String(USDT) },
  });
  return result.body.data as { amount: string; frozenAmount: string };
}

/** The wallet's BTC (currency 4) as the ledger has it: [available, frozen]. */
async function walletBtc(token: string) {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token,
    query: { currencyId: '4' },
  });
  const data = result.body.data as { amount: string; frozenAmount: string };
  return [data.amount, data.frozenAmount];
}

async function holdings(token: string) {
  const result = await call(t.app, 'GET', '/api/spotTradeOrder/holdings', { token });
  expect(result.status).toBe(200);
  return result.body.data as Record<string, unknown>[];
}

async function bibiAssets(token: string) {
  const result = await call(t.app, 'GET', '/api/userBibiAssets/list', { token });
  expect(result.status).toBe(200);
  return result.body;
}

async function orders(token: string, kind: 'spot' | 'bibi' = 'spot', query = {}) {
  const url = kind === 'spot' ? '/api/spotTradeOrder/list' : '/api/bibiTradeOrder/list';
  const result = await call(t.app, 'GET', url, { token, query });
  expect(result.status).toBe(200);
  return result.body as { rows: Record<string, any>[]; total: number };
}

/** A platform account's balance in the live book, in USDT. */
async function platform(kind: 'fees' | 'house'): Promise<string> {
  const { rows } = await t.db.query<{ balance: string }>(
    `SELECT coalesce(sum(balance), 0)::text AS balance FROM ledger_account
     WHERE book = 'live' AND owner_type = 'platform' AND currency_id = $1 AND kind = $2`,
    [USDT, kind],
  );
  // A platform account's balance is the sum of its shards.
  return rows[0]?.balance ?? '0';
}

/** The difference of two decimal texts at 4 decimals (test bookkeeping only). */
function delta(after: string, before: string): string {
  const units = (text: string) => {
    const [whole, fraction = ''] = text.split('.');
    const sign = whole!.startsWith('-') ? -1n : 1n;
    return sign * BigInt(whole!.replace('-', '') + fraction.padEnd(18, '0').slice(0, 18));
  };
  const diff = units(after) - units(before);
  const negative = diff < 0n;
  const digits = (negative ? -diff : diff).toString().padStart(19, '0');
  const text = `${digits.slice(0, -18)}.${digits.slice(-18, -14)}`;
  return negative ? `-${text}` : text;
}

describe(`spot and coin-to-coin trading on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('buys at market, sells in parts: average cost, realized results and fees to the cent', async () => {
    const user = await trader('10000');
    const feesBefore = await platform('fees');
    const houseBefore = await platform('house');
    const entry = tickAt('BTCUSDT', '100000.00');
    const first = await spot(user.token, 'buy', { quantity: '0.0300' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      positionType: 2,
      productType: 2,
      productCode: 'BTCUSDT',
      orderDirection: 1,
      orderType: 1,
      status: 1,
      quantity: '0.03',
      fillPrice: '100000.00',
      amount: '3000.0000',
      fee: '3.0000',
      realizedPnl: null,
      fill: { price: '100000.00', time: entry.time, source: 'scripted', sequence: entry.sequence },
      currencyName: 'USDT',
    });
    expect(first.body.data.orderNo).toMatch(/^S\d{14}\d{8}$/);
    expect(await balance(user.token)).toEqual(
      expect.objectContaining({ amount: '6997.0000', frozenAmount: '0.0000' }),
    );

    tickAt('BTCUSDT', '110000.00');
    expect((await spot(user.token, 'buy', { quantity: '0.0100' })).body.data).toMatchObject({
      amount: '1100.0000',
      fee: '1.1000',
    });
    expect(await holdings(user.token)).toEqual([
      {
        positionType: 2,
        productType: 2,
        productCode: 'BTCUSDT',
        productName: 'Bitcoin',
        quantity: '0.04',
        frozenQuantity: '0',
        averageCost: '102500.00',
        costAmount: '4100.0000',
        nowPrice: '110000.00',
        marketValue: '4400.0000',
        unrealizedPnl: '300.0000',
        currencyName: 'USDT',
      },
    ]);
    const worth = await call(t.app, 'GET', '/api/userInfo/userBalanceConvert', {
      token: user.token,
    });
    expect(worth.body.data).toMatchObject({
      userBalanceConvert: '10295.9000',
      profitAndLose: '300.0000',
      // Today: fees paid so far, and the unrealized result.
      profitAndLoseToday: '295.9000',
    });

    // A partial sell takes its share of the cost; the average cost stays.
    tickAt('BTCUSDT', '120000.00');
    const partial = await spot(user.token, 'sell', { quantity: '0.0100' });
    expect(partial.body.data).toMatchObject({
      orderDirection: 2,
      status: 1,
      fillPrice: '120000.00',
      amount: '1200.0000',
      fee: '1.2000',
      realizedPnl: '175.0000',
    });
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({
        quantity: '0.03',
        averageCost: '102500.00',
        costAmount: '3075.0000',
        marketValue: '3600.0000',
        unrealizedPnl: '525.0000',
      }),
    ]);
    expect((await balance(user.token)).amount).toBe('7094.7000');

    // Selling the rest takes all the remaining cost.
    tickAt('BTCUSDT', '90000.00');
    const rest = await spot(user.token, 'sell', { quantity: '0.03' });
    expect(rest.body.data).toMatchObject({
      amount: '2700.0000',
      fee: '2.7000',
      realizedPnl: '-375.0000',
    });
    expect(await holdings(user.token)).toEqual([]);
    expect(await balance(user.token)).toEqual(
      expect.objectContaining({ amount: '9792.0000', frozenAmount: '0.0000' }),
    );
    // Fees to the fee account, the price results with the house.
    expect(delta(await platform('fees'), feesBefore)).toBe('8.0000');
    expect(delta(await platform('house'), houseBefore)).toBe('200.0000');
    const after = await call(t.app, 'GET', '/api/userInfo/userBalanceConvert', {
      token: user.token,
    });
    expect(after.body.data).toMatchObject({
      userBalanceConvert: '9792.0000',
      profitAndLose: '0.0000',
      profitAndLoseToday: '-208.0000',
    });
    const list = await orders(user.token);
    expect(list.total).toBe(4);
    expect(list.rows.map((row) => [row.orderDirection, row.quantity])).toEqual([
      [2, '0.03'],
      [2, '0.01'],
      [1, '0.01'],
      [1, '0.03'],
    ]);
    const sells = await orders(user.token, 'spot', { orderDirection: '2', status: '1' });
    expect(sells.total).toBe(2);
    expect((await orders(user.token, 'spot', { productCode: 'AAPL' })).total).toBe(0);
  });

  it('rounds what a buy pays up and what a sell gets down to the currency scale', async () => {
    const user = await trader('100');
    tickAt('BTCUSDT', '100000.37');
    const bought = await spot(user.token, 'buy', { quantity: '0.0003' });
    // 30.000111 → 30.0002; fee 0.03000020 → 0.0301.
    expect(bought.body.data).toMatchObject({ amount: '30.0002', fee: '0.0301' });
    const sold = await spot(user.token, 'sell', { quantity: '0.0003' });
    // 30.000111 → 30.0001; fee 0.03000010 → 0.0301.
    expect(sold.body.data).toMatchObject({
      amount: '30.0001',
      fee: '0.0301',
      realizedPnl: '-0.0001',
    });
    expect((await balance(user.token)).amount).toBe('99.9397');
  });

  it('rests a limit buy with funds frozen, fills it at the limit from the crossing tick', async () => {
    const user = await trader('1000');
    const feesBefore = await platform('fees');
    tickAt('BTCUSDT', '100000.00');
    const placed = await spot(user.token, 'buy', {
      orderType: 2,
      price: '99000.00',
      quantity: '0.0100',
    });
    expect(placed.body.data).toMatchObject({
      status: 0,
      orderType: 2,
      limitPrice: '99000.00',
      fillPrice: null,
      amount: null,
      fee: '0.9900',
      fill: null,
      fillTime: null,
    });
    // 990 at the limit and its fee are frozen.
    expect(await balance(user.token)).toEqual(
      expect.objectContaining({ amount: '9.0100', frozenAmount: '990.9900' }),
    );
    tickAt('BTCUSDT', '99000.01');
    await triggersDone();
    expect((await orders(user.token)).rows[0]!.status).toBe(0);
    const crossing = tickAt('BTCUSDT', '98800.00');
    await triggersDone();
    const [filled] = (await orders(user.token)).rows;
    expect(filled).toMatchObject({
      id: placed.body.data.id,
      status: 1,
      fillPrice: '99000.00',
      amount: '990.0000',
      fee: '0.9900',
      // The fill is at the limit; the evidence is the tick that reached it, at its own price.
      fill: {
        price: '98800.00',
        time: crossing.time,
        source: 'scripted',
        sequence: crossing.sequence,
      },
    });
    expect(filled!.fillTime).not.toBeNull();
    expect(await balance(user.token)).toEqual(
      expect.objectContaining({ amount: '9.0100', frozenAmount: '0.0000' }),
    );
    expect(delta(await platform('fees'), feesBefore)).toBe('0.9900');
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({
        quantity: '0.01',
        averageCost: '99000.00',
        costAmount: '990.0000',
      }),
    ]);
    // A limit the price already reached fills at once at the current price.
    tickAt('BTCUSDT', '98000.00');
    const reached = await spot(user.token, 'sell', {
      orderType: 2,
      price: '97000.00',
      quantity: '0.0001',
    });
    expect(reached.body.data).toMatchObject({
      status: 1,
      limitPrice: '97000.00',
      fillPrice: '98000.00',
      amount: '9.8000',
    });
  });

  it('fills every resting order one tick reaches in one journal entry, holdings in order', async () => {
    const [a, b, c, d] = [await trader(), await trader(), await trader(), await trader()];
    const feesBefore = await platform('fees');
    tickAt('BTCUSDT', '100000.00');
    expect((await spot(a.token, 'buy', { quantity: '0.0400' })).status).toBe(200);
    expect((await spot(b.token, 'buy', { quantity: '0.0100' })).status).toBe(200);
    const rest = async (token: string, side: Side, price: string, quantity: string) => {
      const placed = await spot(token, side, { orderType: 2, price, quantity });
      expect(placed.body.data).toMatchObject({ status: 0 });
      return placed.body.data.id as number;
    };
    await rest(a.token, 'sell', '101000.00', '0.0100');
    await rest(a.token, 'sell', '101500.00', '0.0200');
    await rest(b.token, 'sell', '100800.00', '0.0100');
    await rest(c.token, 'buy', '99000.00', '0.0200');
    await rest(c.token, 'buy', '99500.00', '0.0100');
    const unreached = await rest(d.token, 'buy', '98000.00', '0.0300');
    const fillEntries = async (tick: Tick) => {
      const { rows } = await t.db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM ledger_entry
         WHERE entry_type = 'trade:spot_fill' AND ref_type = 'tick' AND ref_id LIKE $1`,
        [`%:${tick.time}:${tick.sequence}`],
      );
      return rows[0]!.count;
    };

    // Both of C's buys, into one new holding; D's lower buy waits.
    const down = tickAt('BTCUSDT', '99000.00');
    await triggersDone();
    expect(await fillEntries(down)).toBe(1);
    expect((await orders(c.token)).rows.map((order) => order.status)).toEqual([1, 1]);
    expect(await holdings(c.token)).toEqual([
      expect.objectContaining({ quantity: '0.03', frozenQuantity: '0', costAmount: '2975.0000' }),
    ]);
    // 10,000 − (1,980 + 1.98) − (995 + 0.995).
    expect(await balance(c.token)).toEqual(
      expect.objectContaining({ amount: '7022.0250', frozenAmount: '0.0000' }),
    );
    expect((await orders(d.token)).rows).toEqual([
      expect.objectContaining({ id: unreached, status: 0 }),
    ]);

    // A's two sells from one holding (average cost taken in turn) and B's sell.
    const up = tickAt('BTCUSDT', '102000.00');
    await triggersDone();
    expect(await fillEntries(up)).toBe(1);
    const sold = (await orders(a.token)).rows.filter((order) => order.orderDirection === 2);
    expect(sold.map((order) => [order.status, order.amount, order.fee, order.realizedPnl])).toEqual(
      expect.arrayContaining([
        [1, '1010.0000', '1.0100', '10.0000'],
        [1, '2030.0000', '2.0300', '30.0000'],
      ]),
    );
    expect(await holdings(a.token)).toEqual([
      expect.objectContaining({ quantity: '0.01', frozenQuantity: '0', costAmount: '1000.0000' }),
    ]);
    // 10,000 − 4,004 + (1,010 − 1.01) + (2,030 − 2.03).
    expect(await balance(a.token)).toEqual(
      expect.objectContaining({ amount: '9032.9600', frozenAmount: '0.0000' }),
    );
    // 10,000 − 1,001 + (1,008 − 1.008).
    expect(await balance(b.token)).toEqual(
      expect.objectContaining({ amount: '10005.9920', frozenAmount: '0.0000' }),
    );
    // Market buys 4 + 1; fills 1.98 + 0.995 + 1.01 + 2.03 + 1.008.
    expect(delta(await platform('fees'), feesBefore)).toBe('12.0230');
  });

  it('freezes the quantity of a resting sell: it cannot be sold twice; cancel frees it', async () => {
    const user = await trader('5000');
    tickAt('BTCUSDT', '100000.00');
    await spot(user.token, 'buy', { quantity: '0.0200' });
    const resting = await spot(user.token, 'sell', {
      orderType: 2,
      price: '105000.00',
      quantity: '0.0150',
    });
    expect(resting.body.data).toMatchObject({ status: 0, fee: '1.5750' });
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({ quantity: '0.02', frozenQuantity: '0.015' }),
    ]);
    const twice = await spot(user.token, 'sell', { quantity: '0.0100' });
    expect(twice).toMatchObject({
      status: 422,
      body: { msg: 'hint_insufficientHolding', params: ['0.005', 'BTCUSDT'] },
    });
    const again = await spot(user.token, 'sell', {
      orderType: 2,
      price: '106000.00',
      quantity: '0.0100',
    });
    expect(again.body.msg).toBe('hint_insufficientHolding');

    const cancelled = await cancel(user.token, resting.body.data.id);
    expect(cancelled.body.data).toMatchObject({ status: 2, fee: '0.0000', amount: null });
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({ quantity: '0.02', frozenQuantity: '0' }),
    ]);
    // A tick past the cancelled limit fills nothing.
    tickAt('BTCUSDT', '105500.00');
    await triggersDone();
    expect((await holdings(user.token))[0]).toMatchObject({ quantity: '0.02' });

    // A resting sell fills at its limit from the tick that reaches it.
    const second = await spot(user.token, 'sell', {
      orderType: 2,
      price: '106000.00',
      quantity: '0.0100',
    });
    expect(second.body.data.status).toBe(0);
    const before = await balance(user.token);
    const crossing = tickAt('BTCUSDT', '106500.00');
    await triggersDone();
    const [sold] = (await orders(user.token, 'spot', { orderDirection: '2', status: '1' })).rows;
    expect(sold).toMatchObject({
      id: second.body.data.id,
      fillPrice: '106000.00',
      amount: '1060.0000',
      fee: '1.0600',
      realizedPnl: '60.0000',
      fill: { price: '106500.00', time: crossing.time, sequence: crossing.sequence },
    });
    expect(delta((await balance(user.token)).amount, before.amount)).toBe('1058.9400');
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({
        quantity: '0.01',
        frozenQuantity: '0',
        averageCost: '100000.00',
        costAmount: '1000.0000',
      }),
    ]);
  });

  it('cancels a resting buy: the funds return at once; a second cancel has nothing to do', async () => {
    const user = await trader('1000');
    tickAt('BTCUSDT', '100000.00');
    const placed = await spot(user.token, 'buy', {
      orderType: 2,
      price: '90000.00',
      quantity: '0.0100',
    });
    expect(await balance(user.token)).toMatchObject({
      amount: '99.1000',
      frozenAmount: '900.9000',
    });
    const other = await trader('0');
    expect(await cancel(other.token, placed.body.data.id)).toMatchObject({
      status: 404,
      body: { msg: 'hint_orderNotFound' },
    });
    // A spot order is not a coin-to-coin order.
    expect((await cancel(user.token, placed.body.data.id, 'bibi')).status).toBe(404);
    const done = await cancel(user.token, placed.body.data.id);
    expect(done.body.data).toMatchObject({ status: 2, amount: null, fillPrice: null });
    expect(await balance(user.token)).toMatchObject({
      amount: '1000.0000',
      frozenAmount: '0.0000',
    });
    expect(await cancel(user.token, placed.body.data.id)).toMatchObject({
      status: 200,
      body: { msg: 'hint_48', data: { id: placed.body.data.id, status: 2 } },
    });
    expect(await balance(user.token)).toMatchObject({ amount: '1000.0000' });
    tickAt('BTCUSDT', '89000.00');
    await triggersDone();
    expect((await orders(user.token)).rows[0]).toMatchObject({ status: 2 });
    expect(await holdings(user.token)).toEqual([]);
  });

  it('cancels exactly once against a concurrent cancel or a concurrent fill', async () => {
    const user = await trader('1000');
    tickAt('BTCUSDT', '100000.00');
    const first = await spot(user.token, 'buy', {
      orderType: 2,
      price: '95000.00',
      quantity: '0.0010',
    });
    const both = await Promise.all([
      cancel(user.token, first.body.data.id),
      cancel(user.token, first.body.data.id),
    ]);
    // One cancels; the other finds it cancelled: nothing to do.
    expect(both.map((result) => result.status)).toEqual([200, 200]);
    expect(both.map((result) => result.body.msg).filter((msg) => msg === 'hint_48')).toHaveLength(
      1,
    );
    expect(await balance(user.token)).toMatchObject({
      amount: '1000.0000',
      frozenAmount: '0.0000',
    });

    const second = await spot(user.token, 'buy', {
      orderType: 2,
      price: '95000.00',
      quantity: '0.0010',
    });
    clock.advance(1000);
    const [cancelled] = await Promise.all([
      cancel(user.token, second.body.data.id),
      Promise.resolve().then(() => {
        feed.tick('BTCUSDT', '94000.00', clock.now().getTime());
        return triggersDone();
      }),
    ]);
    await triggersDone();
    const [row] = (await orders(user.token)).rows;
    const held = await holdings(user.token);
    if (cancelled.status === 200) {
      expect(row).toMatchObject({ status: 2 });
      expect(held).toEqual([]);
      expect(await balance(user.token)).toMatchObject({ amount: '1000.0000' });
    } else {
      expect(cancelled.body.msg).toBe('hint_orderNotResting');
      expect(row).toMatchObject({ status: 1, fillPrice: '95000.00', amount: '95.0000' });
      expect(held).toEqual([expect.objectContaining({ quantity: '0.001' })]);
      expect(await balance(user.token)).toMatchObject({
        amount: '904.9050',
        frozenAmount: '0.0000',
      });
    }
  });

  it('trades coin to coin: coins in the wallet, bibi assets, limit sell and cancel', async () => {
    const user = await trader('5000');
    const btc = () => walletBtc(user.token);
    expect(await bibiAssets(user.token)).toMatchObject({ code: 200, rows: [], total: 0 });
    tickAt('BTCUSDT', '100000.00');
    const bought = await bibi(user.token, 'buy', { quantity: '0.0200' });
    expect(bought.body.data).toMatchObject({
      positionType: 3,
      productType: 2,
      productCode: 'BTCUSDT',
      status: 1,
      amount: '2000.0000',
      fee: '2.0000',
    });
    expect(bought.body.data.orderNo).toMatch(/^B/);
    // The coins are wallet balance: withdrawable and exchangeable like a deposit.
    expect(await btc()).toEqual(['0.02000000', '0.00000000']);
    expect(await bibiAssets(user.token)).toMatchObject({
      rows: [
        { productCode: 'BTCUSDT', bibiAmount: '0.02', frozenAmount: '0', averageCost: '100000.00' },
      ],
      total: 1,
    });
    // Spot holdings and orders are separate from coin-to-coin ones.
    expect(await holdings(user.token)).toEqual([]);
    expect((await orders(user.token)).total).toBe(0);
    expect(await spot(user.token, 'sell', { quantity: '0.0100' })).toMatchObject({
      status: 422,
      body: { msg: 'hint_insufficientHolding', params: ['0', 'BTCUSDT'] },
    });

    const resting = await bibi(user.token, 'sell', {
      orderType: 2,
      price: '110000.00',
      quantity: '0.0080',
    });
    expect(resting.body.data).toMatchObject({ positionType: 3, status: 0 });
    expect(await btc()).toEqual(['0.01200000', '0.00800000']);
    expect((await bibiAssets(user.token)).rows).toEqual([
      {
        productCode: 'BTCUSDT',
        bibiAmount: '0.012',
        frozenAmount: '0.008',
        averageCost: '100000.00',
      },
    ]);
    expect((await cancel(user.token, resting.body.data.id, 'spot')).status).toBe(404);
    expect((await cancel(user.token, resting.body.data.id, 'bibi')).body.data.status).toBe(2);
    expect((await bibiAssets(user.token)).rows).toEqual([
      expect.objectContaining({ bibiAmount: '0.02', frozenAmount: '0' }),
    ]);
    expect(await btc()).toEqual(['0.02000000', '0.00000000']);

    tickAt('BTCUSDT', '101000.00');
    const sold = await bibi(user.token, 'sell', { quantity: '0.0200' });
    expect(sold.body.data).toMatchObject({
      amount: '2020.0000',
      fee: '2.0200',
      realizedPnl: '20.0000',
    });
    expect(await bibiAssets(user.token)).toMatchObject({ rows: [], total: 0 });
    expect(await btc()).toEqual(['0.00000000', '0.00000000']);
    expect((await balance(user.token)).amount).toBe('5015.9800');

    // Deposited coins sell coin to coin too; with no coin-to-coin cost they realize nothing.
    await deposit(t.db, user.userId, '0.01', 4);
    expect((await bibiAssets(user.token)).rows).toEqual([
      { productCode: 'BTCUSDT', bibiAmount: '0.01', frozenAmount: '0', averageCost: '0.00' },
    ]);
    const deposited = await bibi(user.token, 'sell', { quantity: '0.0100' });
    expect(deposited.body.data).toMatchObject({
      status: 1,
      amount: '1010.0000',
      fee: '1.0100',
      realizedPnl: null,
    });
    expect(await btc()).toEqual(['0.00000000', '0.00000000']);
    expect((await balance(user.token)).amount).toBe('6024.9700');
    const list = await orders(user.token, 'bibi');
    expect(list.total).toBe(4);
    expect(list.rows.map((row) => [row.positionType, row.orderDirection, row.status])).toEqual([
      [3, 2, 1],
      [3, 2, 1],
      [3, 2, 2],
      [3, 1, 1],
    ]);
    expect((await orders(user.token, 'bibi', { status: '2' })).total).toBe(1);
  });

  it('fills resting coin-to-coin orders at their limits, the coins moving in the wallet', async () => {
    const user = await trader('5000');
    tickAt('BTCUSDT', '100000.00');
    const buy = await bibi(user.token, 'buy', {
      orderType: 2,
      price: '99000.00',
      quantity: '0.0100',
    });
    expect(buy.body.data).toMatchObject({ status: 0 });
    tickAt('BTCUSDT', '98900.00');
    await triggersDone();
    // 990 at the limit and its fee of 0.99 paid; the coins in the wallet.
    expect(await walletBtc(user.token)).toEqual(['0.01000000', '0.00000000']);
    expect(await balance(user.token)).toMatchObject({
      amount: '4009.0100',
      frozenAmount: '0.0000',
    });
    const sell = await bibi(user.token, 'sell', {
      orderType: 2,
      price: '101000.00',
      quantity: '0.0100',
    });
    expect(sell.body.data).toMatchObject({ status: 0 });
    expect(await walletBtc(user.token)).toEqual(['0.00000000', '0.01000000']);
    tickAt('BTCUSDT', '101500.00');
    await triggersDone();
    expect((await orders(user.token, 'bibi')).rows[0]).toMatchObject({
      id: sell.body.data.id,
      status: 1,
      fillPrice: '101000.00',
      amount: '1010.0000',
      fee: '1.0100',
      realizedPnl: '20.0000',
    });
    expect(await walletBtc(user.token)).toEqual(['0.00000000', '0.00000000']);
    expect(await balance(user.token)).toMatchObject({
      amount: '5018.0000',
      frozenAmount: '0.0000',
    });
    expect((await bibiAssets(user.token)).rows).toEqual([]);
  });

  it('runs a request id once: a repeat returns the first order, another order under it is refused', async () => {
    const user = await trader('1000');
    tickAt('BTCUSDT', '100000.00');
    const id = requestId();
    const first = await spot(user.token, 'buy', { requestId: id, quantity: '0.0010' });
    const again = await spot(user.token, 'buy', { requestId: id, quantity: '0.0010' });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await balance(user.token)).amount).toBe('899.9000');
    const other = await spot(user.token, 'buy', { requestId: id, quantity: '0.0020' });
    expect(other).toMatchObject({ status: 409, body: { msg: 'hint_requestIdReused' } });
    const sell = await spot(user.token, 'sell', { requestId: id, quantity: '0.0010' });
    expect(sell).toMatchObject({ status: 409, body: { msg: 'hint_requestIdReused' } });
    const viaBibi = await bibi(user.token, 'buy', { requestId: id, quantity: '0.0010' });
    expect(viaBibi.status).toBe(409);

    // Sent twice at once: one order, one debit.
    const both = requestId();
    const results = await Promise.all([
      spot(user.token, 'buy', { requestId: both, quantity: '0.0010' }),
      spot(user.token, 'buy', { requestId: both, quantity: '0.0010' }),
    ]);
    expect(results.map((result) => result.status)).toEqual([200, 200]);
    expect(results[0]!.body.data.id).toBe(results[1]!.body.data.id);
    expect((await balance(user.token)).amount).toBe('799.8000');
    expect((await orders(user.token)).total).toBe(2);
    expect(await holdings(user.token)).toEqual([expect.objectContaining({ quantity: '0.002' })]);
  });

  it('refuses bad orders with their reason and moves nothing', async () => {
    const user = await trader('100');
    tickAt('BTCUSDT', '100000.00');
    await spot(user.token, 'buy', { quantity: '0.0005' });
    const start = await balance(user.token);
    const cases: [Side, 'spot' | 'bibi', Record<string, unknown>, number, string, unknown[]?][] = [
      ['buy', 'spot', { quantity: '0' }, 400, 'hint_amount_sign'],
      ['buy', 'spot', { quantity: '-0.0100' }, 400, 'hint_amount_sign'],
      ['buy', 'spot', { quantity: 0.01 }, 400, 'hint_amountAsText'],
      ['buy', 'spot', { quantity: '0.00005' }, 422, 'hint_quantityStep', ['0.0001']],
      [
        'buy',
        'spot',
        { productType: 1, productCode: 'AAPL', quantity: '1.5' },
        422,
        'hint_quantityStep',
        ['1'],
      ],
      [
        'sell',
        'spot',
        { quantity: '0.0006' },
        422,
        'hint_insufficientHolding',
        ['0.0005', 'BTCUSDT'],
      ],
      ['buy', 'spot', { orderType: 2 }, 400, 'hint_limitPriceRequired'],
      ['buy', 'bibi', { orderType: 2 }, 400, 'hint_limitPriceRequired'],
      ['buy', 'spot', { orderType: 2, price: '99000.001' }, 422, 'hint_priceDecimals', [2]],
      ['buy', 'spot', { productCode: 'NOPE' }, 404, 'hint_productUnknown'],
      ['buy', 'bibi', { productCode: 'NOPE' }, 404, 'hint_productUnknown'],
      ['buy', 'bibi', { productCode: 'AAPL' }, 422, 'hint_positionTypeUnavailable'],
      [
        'buy',
        'spot',
        { productType: 4, productCode: 'EURUSD', quantity: '1' },
        422,
        'hint_positionTypeUnavailable',
      ],
      ['buy', 'spot', { quantity: '0.0100' }, 422, 'hint_insufficientBalance'],
      [
        'buy',
        'spot',
        { orderType: 2, price: '90000.00', quantity: '0.0100' },
        422,
        'hint_insufficientBalance',
      ],
      // Coin to coin sells the wallet's coins: it names the coin.
      ['sell', 'bibi', { quantity: '0.0001' }, 422, 'hint_insufficientHolding', ['0', 'BTC']],
    ];
    for (const [side, kind, fields, status, msg, params] of cases) {
      const result = await (kind === 'spot' ? spot : bibi)(user.token, side, fields);
      expect({ fields, status: result.status, msg: result.body.msg }).toEqual({
        fields,
        status,
        msg,
      });
      if (params) expect(result.body.params).toEqual(params);
    }
    expect(await balance(user.token)).toEqual(start);
    expect((await orders(user.token)).total).toBe(1);
    expect((await orders(user.token, 'bibi')).total).toBe(0);
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({ quantity: '0.0005', frozenQuantity: '0' }),
    ]);
    // Signed out: no orders, holdings or assets.
    for (const url of [
      '/api/spotTradeOrder/list',
      '/api/spotTradeOrder/holdings',
      '/api/bibiTradeOrder/list',
      '/api/userBibiAssets/list',
    ])
      expect((await call(t.app, 'GET', url)).status).toBe(401);
  });

  it('trades US stocks in their session only, and buys none while halted', async () => {
    const user = await trader('1000');
    tickAt('AAPL', '200.00');
    const bought = await spot(user.token, 'buy', {
      productType: 1,
      productCode: 'AAPL',
      quantity: '3',
    });
    expect(bought.body.data).toMatchObject({
      productType: 1,
      productCode: 'AAPL',
      fillPrice: '200.00',
      amount: '600.0000',
      fee: '0.6000',
    });
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({ productType: 1, productCode: 'AAPL', quantity: '3' }),
    ]);
    const saved = clock.now();
    // Saturday: the US market is closed (crypto trades on).
    clock.set(new Date('2026-11-21T15:00:00Z'));
    try {
      const weekend = await trader('1000');
      for (const side of ['buy', 'sell'] as const) {
        const closed = await spot(weekend.token, side, {
          productType: 1,
          productCode: 'AAPL',
          quantity: '1',
        });
        expect(closed).toMatchObject({ status: 422, body: { msg: 'hint_marketClosed' } });
      }
      expect(await balance(weekend.token)).toMatchObject({ amount: '1000.0000' });
      expect((await orders(weekend.token)).total).toBe(0);
    } finally {
      clock.set(saved);
    }
    // Halted through another instance: a buy is refused all the same (a sell is not: a halt
    // never locks a holding, see halt-holdings.test.ts).
    await t.db.query("UPDATE product SET is_lock = 1 WHERE product_code = 'AAPL'");
    try {
      const halted = await spot(user.token, 'buy', {
        productType: 1,
        productCode: 'AAPL',
        quantity: '1',
      });
      expect(halted.body.msg).toBe('hint_productHalted');
    } finally {
      await t.db.query("UPDATE product SET is_lock = 0 WHERE product_code = 'AAPL'");
      await t.app.services.marketEngine!.reloadProducts();
    }
    expect((await balance(user.token)).amount).toBe('399.4000');
    expect(await holdings(user.token)).toEqual([expect.objectContaining({ quantity: '3' })]);
  });

  it('fills a resting stock order only from a tick inside the session', async () => {
    const user = await trader('1000');
    tickAt('AAPL', '200.00');
    const placed = await spot(user.token, 'buy', {
      productType: 1,
      productCode: 'AAPL',
      orderType: 2,
      price: '195.00',
      quantity: '2',
    });
    expect(placed.body.data.status).toBe(0);
    // 16:30 in New York: after the close, a crossing tick fills nothing.
    clock.set(new Date('2026-11-18T21:30:00Z'));
    feed.tick('AAPL', '190.00', clock.now().getTime(), PRODUCT_TYPE.usStock);
    await triggersDone();
    expect((await orders(user.token)).rows[0]).toMatchObject({ status: 0 });
    // 09:31 the next day: the first crossing tick in the session fills it at its limit.
    clock.set(new Date('2026-11-19T14:31:00Z'));
    const open = feed.tick('AAPL', '194.00', clock.now().getTime(), PRODUCT_TYPE.usStock);
    await triggersDone();
    expect((await orders(user.token)).rows[0]).toMatchObject({
      status: 1,
      fillPrice: '195.00',
      amount: '390.0000',
      fee: '0.3900',
      fill: { time: open.time, sequence: open.sequence },
    });
    expect(await balance(user.token)).toMatchObject({ amount: '609.6100', frozenAmount: '0.0000' });
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({ productCode: 'AAPL', quantity: '2', averageCost: '195.00' }),
    ]);
  });

  it('keeps resting orders across a restart: a logged tick and a live tick fill them', async () => {
    const user = await trader('2000');
    tickAt('BTCUSDT', '100000.00');
    const near = await spot(user.token, 'buy', {
      orderType: 2,
      price: '95000.00',
      quantity: '0.0100',
    });
    const far = await bibi(user.token, 'buy', {
      orderType: 2,
      price: '90000.00',
      quantity: '0.0100',
    });
    expect([near.body.data.status, far.body.data.status]).toEqual([0, 0]);
    await t.close();
    // A tick the feed delivered while this server was stopping, in the tick log.
    const { rows } = await database.db.query<{ id: number }>(
      "SELECT id FROM product WHERE product_code = 'BTCUSDT'",
    );
    const loggedAt = clock.now().getTime() + 500;
    await database.db.query(
      `INSERT INTO market_tick (product_id, tick_time, sequence, price, source)
       VALUES ($1, $2, 999999, '94500.00', 'scripted')`,
      [rows[0]!.id, loggedAt],
    );
    clock.advance(60_000);
    await startApp();
    await triggersDone();
    const [fromLog] = (await orders(user.token)).rows;
    expect(fromLog).toMatchObject({
      id: near.body.data.id,
      status: 1,
      fillPrice: '95000.00',
      fill: { time: loggedAt, sequence: 999999 },
    });
    expect((await orders(user.token, 'bibi')).rows[0]).toMatchObject({ status: 0 });
    const live = tickAt('BTCUSDT', '89900.00');
    await triggersDone();
    expect((await orders(user.token, 'bibi')).rows[0]).toMatchObject({
      id: far.body.data.id,
      status: 1,
      fillPrice: '90000.00',
      fill: { time: live.time, sequence: live.sequence },
    });
    // 950 + 0.95 and 900 + 0.90 paid; nothing left frozen.
    expect(await balance(user.token)).toMatchObject({ amount: '148.1500', frozenAmount: '0.0000' });
    expect(await holdings(user.token)).toEqual([expect.objectContaining({ quantity: '0.01' })]);
    expect((await bibiAssets(user.token)).rows).toEqual([
      { productCode: 'BTCUSDT', bibiAmount: '0.01', frozenAmount: '0', averageCost: '90000.00' },
    ]);
  });
});
