/**
 * A halt never locks what a user holds (PRODUCT section 1, rule 8). While the operator has a
 * product halted (`isLock` 1) or hidden (`isVisible` 0): spot and coin-to-coin sells fill at the
 * feed's price, resting sells fill from ticks, resting buys and contract entries wait, cancels
 * return what the orders froze, and contracts close by hand, at a take-profit, a stop-loss or a
 * liquidation; buying and opening are refused. The trading session still counts for all of it.
 * The ledger verifies after every test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_TYPE } from '@bourse/shared';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import type { Tick } from '../src/market/types';
import { adminApiCall, operatorReady } from './support/admin-api';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import {
  call,
  createTestDatabase,
  deposit,
  onPostgres,
  registerUser,
  testConfig,
  type TestApp,
  type TestDatabase,
} from './helpers';

/** A Wednesday, 10:00 in New York: US stocks trade. */
const NOW = Date.parse('2026-11-18T15:00:00Z');
const USDT = 3;
const BTC = 4;

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let dir: string;
let adminPassword: string;
let adminToken: string;
let sequence = 0;
const requestId = () => `halt-${Date.now()}-${++sequence}`;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT', 'AAPL'], 'halt-holdings'));
  feed.tick('BTCUSDT', '100000.00', NOW);
  feed.tick('AAPL', '200.00', NOW, PRODUCT_TYPE.usStock);
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-halt-holdings-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, clock);
  adminPassword = seeded.password!;
  adminToken = await operatorReady(t.app, ADMIN_USERNAME, adminPassword);
});
afterEach(async () => {
  await t.app.services.triggers!.idle();
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
  await rm(dir, { recursive: true, force: true });
});

type Code = 'BTCUSDT' | 'AAPL';
const typeOf = (code: Code) => (code === 'AAPL' ? PRODUCT_TYPE.usStock : PRODUCT_TYPE.crypto);

/** Moves the clock on and sends a tick stamped with the new time. */
function tickAt(code: Code, price: string, ms = 1000): Tick {
  clock.advance(ms);
  return feed.tick(code, price, clock.now().getTime(), typeOf(code));
}

/** Sends a tick and waits until the triggers handled it. */
async function tick(code: Code, price: string, ms = 1000): Promise<Tick> {
  const sent = tickAt(code, price, ms);
  await t.app.services.triggers!.idle();
  return sent;
}

/** The two ways an operator stops trading a product, and how a buy is refused under each. */
const STOPS = [
  { name: 'halted', state: { isLock: 1 }, status: 422, msg: 'hint_productHalted' },
  { name: 'hidden', state: { isVisible: 0 }, status: 404, msg: 'hint_productUnknown' },
] as const;
type Stop = (typeof STOPS)[number];

async function setProduct(code: Code, state: Record<string, number>): Promise<void> {
  const update = () =>
    adminApiCall(t.app, 'POST', '/products/update', {
      token: adminToken,
      json: { productType: typeOf(code), productCode: code, ...state },
    });
  let result = await update();
  if (result.status === 401) {
    // The clock moved past the operator session (the session tests jump hours ahead).
    adminToken = await operatorReady(t.app, ADMIN_USERNAME, adminPassword);
    result = await update();
  }
  expect(result.status, JSON.stringify(result.body)).toBe(200);
}

/** Runs `body` with the product halted or hidden through the operator API, then resumes it. */
async function whileStopped(stop: Stop, body: () => Promise<void>, code: Code = 'BTCUSDT') {
  await setProduct(code, stop.state);
  try {
    await body();
  } finally {
    await setProduct(code, { isLock: 0, isVisible: 1 });
  }
}

async function trader(amount = '10000') {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, amount);
  return user;
}

type Side = 'buy' | 'sell';

function spot(token: string, side: Side, fields: Record<string, unknown> = {}) {
  const action = side === 'buy' ? 'addSpotTradeOrder' : 'sellSpotTradeOrder';
  return call(t.app, 'POST', `/api/spotTradeOrder/${action}`, {
    token,
    json: {
      productType: PRODUCT_TYPE.crypto,
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

function cancel(token: string, id: number, kind: 'spot' | 'bibi') {
  const url = kind === 'spot' ? '/api/spotTradeOrder/cancel' : '/api/bibiTradeOrder/cancel';
  return call(t.app, 'POST', url, { token, form: { id: String(id) } });
}

/** One of the user's spot or coin-to-coin orders as the list shows it. */
async function orderOf(token: string, kind: 'spot' | 'bibi', id: number) {
  const url = kind === 'spot' ? '/api/spotTradeOrder/list' : '/api/bibiTradeOrder/list';
  const result = await call(t.app, 'GET', url, { token, query: { pageSize: '100' } });
  expect(result.status).toBe(200);
  return (result.body.rows as Record<string, any>[]).find((row) => row.id === id);
}

async function balance(token: string, currencyId = USDT) {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token,
    query: { currencyId: String(currencyId) },
  });
  return result.body.data as { amount: string; frozenAmount: string };
}

async function holdings(token: string) {
  const result = await call(t.app, 'GET', '/api/spotTradeOrder/holdings', { token });
  expect(result.status).toBe(200);
  return result.body.data as Record<string, unknown>[];
}

function openContract(token: string, fields: Record<string, unknown> = {}) {
  return call(t.app, 'POST', '/api/contractPosition/open', {
    token,
    json: {
      productType: PRODUCT_TYPE.crypto,
      productCode: 'BTCUSDT',
      orderDirection: 1,
      leverage: 10,
      quantity: '0.01',
      requestId: requestId(),
      ...fields,
    },
  });
}

async function contract(token: string, id: number) {
  const result = await call(t.app, 'GET', '/api/contractPosition/detail', {
    token,
    query: { id: String(id) },
  });
  expect(result.status).toBe(200);
  return result.body.data as Record<string, any>;
}

describe(`a halt never locks a holding, on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it.each(STOPS)(
    'spot: sells a holding at the feed price while $name; buys are refused',
    async (stop) => {
      const user = await trader('10000');
      await tick('BTCUSDT', '100000.00');
      expect((await spot(user.token, 'buy', { quantity: '0.0300' })).status).toBe(200);
      // 3000 and its fee of 3 paid.
      expect(await balance(user.token)).toMatchObject({ amount: '6997.0000' });
      await whileStopped(stop, async () => {
        for (const fields of [{}, { orderType: 2, price: '90000.00' }]) {
          const refused = await spot(user.token, 'buy', fields);
          expect(refused).toMatchObject({ status: stop.status, body: { msg: stop.msg } });
        }
        const now = tickAt('BTCUSDT', '110000.00');
        const sold = await spot(user.token, 'sell', { quantity: '0.0100' });
        expect(sold.status, JSON.stringify(sold.body)).toBe(200);
        expect(sold.body.data).toMatchObject({
          orderDirection: 2,
          status: 1,
          fillPrice: '110000.00',
          amount: '1100.0000',
          fee: '1.1000',
          realizedPnl: '100.0000',
          fill: { price: '110000.00', time: now.time, sequence: now.sequence },
        });
        // A limit sell the price already reached fills at once at the feed's price.
        const reached = await spot(user.token, 'sell', {
          orderType: 2,
          price: '105000.00',
          quantity: '0.0100',
        });
        expect(reached.body.data).toMatchObject({ status: 1, fillPrice: '110000.00' });
      });
      // Two sells of 1100 less 1.10 each; the refused buys moved nothing.
      expect(await balance(user.token)).toMatchObject({
        amount: '9194.8000',
        frozenAmount: '0.0000',
      });
      expect(await holdings(user.token)).toEqual([expect.objectContaining({ quantity: '0.01' })]);
    },
  );

  it.each(STOPS)(
    'coin to coin: sells the coin held while $name; buys are refused',
    async (stop) => {
      const user = await trader('5000');
      await tick('BTCUSDT', '100000.00');
      expect((await bibi(user.token, 'buy', { quantity: '0.0200' })).status).toBe(200);
      expect(await balance(user.token)).toMatchObject({ amount: '2998.0000' });
      await whileStopped(stop, async () => {
        for (const fields of [{}, { orderType: 2, price: '90000.00' }]) {
          const refused = await bibi(user.token, 'buy', fields);
          expect(refused).toMatchObject({ status: stop.status, body: { msg: stop.msg } });
        }
        const now = tickAt('BTCUSDT', '101000.00');
        const sold = await bibi(user.token, 'sell', { quantity: '0.0100' });
        expect(sold.status, JSON.stringify(sold.body)).toBe(200);
        expect(sold.body.data).toMatchObject({
          positionType: 3,
          status: 1,
          fillPrice: '101000.00',
          amount: '1010.0000',
          fee: '1.0100',
          realizedPnl: '10.0000',
          fill: { time: now.time, sequence: now.sequence },
        });
        const reached = await bibi(user.token, 'sell', {
          orderType: 2,
          price: '100000.00',
          quantity: '0.0100',
        });
        expect(reached.body.data).toMatchObject({ status: 1, fillPrice: '101000.00' });
      });
      expect(await balance(user.token, BTC)).toMatchObject({
        amount: '0.00000000',
        frozenAmount: '0.00000000',
      });
      expect(await balance(user.token)).toMatchObject({
        amount: '5015.9800',
        frozenAmount: '0.0000',
      });
    },
  );

  it.each(STOPS)(
    'fills resting sells from ticks while $name; resting buys wait until trading resumes',
    async (stop) => {
      const user = await trader('10000');
      await tick('BTCUSDT', '100000.00');
      expect((await spot(user.token, 'buy', { quantity: '0.0200' })).status).toBe(200);
      expect((await bibi(user.token, 'buy', { quantity: '0.0100' })).status).toBe(200);
      const rest = async (kind: 'spot' | 'bibi', side: Side, price: string) => {
        const placed = await (kind === 'spot' ? spot : bibi)(user.token, side, {
          orderType: 2,
          price,
          quantity: '0.0100',
        });
        expect(placed.body.data).toMatchObject({ status: 0 });
        return placed.body.data.id as number;
      };
      const spotSell = await rest('spot', 'sell', '105000.00');
      const bibiSell = await rest('bibi', 'sell', '105000.00');
      const spotBuy = await rest('spot', 'buy', '95000.00');
      const bibiBuy = await rest('bibi', 'buy', '95000.00');
      // 2000 + 2 and 1000 + 1 paid; 950 + 0.95 frozen twice.
      expect(await balance(user.token)).toMatchObject({
        amount: '5095.1000',
        frozenAmount: '1901.9000',
      });
      await whileStopped(stop, async () => {
        const up = await tick('BTCUSDT', '106000.00');
        for (const [kind, id] of [
          ['spot', spotSell],
          ['bibi', bibiSell],
        ] as const)
          expect(await orderOf(user.token, kind, id)).toMatchObject({
            status: 1,
            fillPrice: '105000.00',
            amount: '1050.0000',
            fee: '1.0500',
            fill: { price: '106000.00', time: up.time, sequence: up.sequence },
          });
        await tick('BTCUSDT', '94000.00');
        expect((await orderOf(user.token, 'spot', spotBuy))!.status).toBe(0);
        expect((await orderOf(user.token, 'bibi', bibiBuy))!.status).toBe(0);
        expect(await balance(user.token)).toMatchObject({
          amount: '7193.0000',
          frozenAmount: '1901.9000',
        });
      });
      // Resumed: the next tick that reaches the buys fills them at their limits.
      const down = await tick('BTCUSDT', '94500.00');
      for (const [kind, id] of [
        ['spot', spotBuy],
        ['bibi', bibiBuy],
      ] as const)
        expect(await orderOf(user.token, kind, id)).toMatchObject({
          status: 1,
          fillPrice: '95000.00',
          fill: { time: down.time, sequence: down.sequence },
        });
      expect(await balance(user.token)).toMatchObject({
        amount: '7193.0000',
        frozenAmount: '0.0000',
      });
    },
  );

  it.each(STOPS)('cancels resting orders while $name: what they froze returns', async (stop) => {
    const user = await trader('10000');
    await tick('BTCUSDT', '100000.00');
    expect((await spot(user.token, 'buy', { quantity: '0.0200' })).status).toBe(200);
    expect((await bibi(user.token, 'buy', { quantity: '0.0100' })).status).toBe(200);
    const rest = async (kind: 'spot' | 'bibi', side: Side, price: string) => {
      const placed = await (kind === 'spot' ? spot : bibi)(user.token, side, {
        orderType: 2,
        price,
        quantity: '0.0100',
      });
      expect(placed.body.data).toMatchObject({ status: 0 });
      return placed.body.data.id as number;
    };
    const resting = [
      ['spot', await rest('spot', 'sell', '105000.00')],
      ['bibi', await rest('bibi', 'sell', '105000.00')],
      ['spot', await rest('spot', 'buy', '95000.00')],
      ['bibi', await rest('bibi', 'buy', '95000.00')],
    ] as const;
    const entry = await openContract(user.token, { orderType: 2, price: '95000.00' });
    expect(entry.body.data).toMatchObject({ status: 0 });
    // 950.95 twice and the entry's margin of 95 and fee of 0.475 frozen.
    expect(await balance(user.token)).toMatchObject({ frozenAmount: '1997.3750' });
    expect(await balance(user.token, BTC)).toMatchObject({ frozenAmount: '0.01000000' });
    await whileStopped(stop, async () => {
      for (const [kind, id] of resting) {
        const cancelled = await cancel(user.token, id, kind);
        expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
        expect(cancelled.body.data).toMatchObject({ id, status: 2 });
      }
      const entryCancel = await call(t.app, 'POST', '/api/contractPosition/cancel', {
        token: user.token,
        json: { id: entry.body.data.id },
      });
      expect(entryCancel.body.data).toMatchObject({ status: 3 });
    });
    expect(await balance(user.token)).toMatchObject({
      amount: '6997.0000',
      frozenAmount: '0.0000',
    });
    expect(await balance(user.token, BTC)).toMatchObject({
      amount: '0.01000000',
      frozenAmount: '0.00000000',
    });
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({ quantity: '0.02', frozenQuantity: '0' }),
    ]);
  });

  it.each(STOPS)(
    'contracts close by hand, take-profit, stop-loss and liquidation while $name; no new position',
    async (stop) => {
      const user = await trader('10000');
      await tick('BTCUSDT', '100000.00');
      const opened = async (fields: Record<string, unknown>) => {
        const result = await openContract(user.token, fields);
        expect(result.status, JSON.stringify(result.body)).toBe(200);
        return result.body.data.id as number;
      };
      const manual = await opened({});
      const takeProfit = await opened({ takeProfit: '102000.00' });
      const stopLoss = await opened({ stopLoss: '99500.00' });
      const liquidated = await opened({ leverage: 100 });
      expect((await contract(user.token, liquidated)).liquidationPrice).toBe('99500.00');
      const entry = await opened({ orderType: 2, price: '99000.00' });
      expect((await contract(user.token, entry)).status).toBe(0);
      await whileStopped(stop, async () => {
        const refused = await openContract(user.token);
        expect(refused).toMatchObject({ status: stop.status, body: { msg: stop.msg } });
        const now = await tick('BTCUSDT', '101000.00');
        const closed = await call(t.app, 'POST', '/api/contractPosition/close', {
          token: user.token,
          json: { id: manual, requestId: requestId() },
        });
        expect(closed.status, JSON.stringify(closed.body)).toBe(200);
        expect(closed.body.data).toMatchObject({
          status: 2,
          closeReason: 1,
          exitPrice: '101000.00',
          exit: { time: now.time, sequence: now.sequence },
        });
        const high = await tick('BTCUSDT', '102500.00');
        expect(await contract(user.token, takeProfit)).toMatchObject({
          status: 2,
          closeReason: 2,
          exitPrice: '102500.00',
          exit: { time: high.time, sequence: high.sequence },
        });
        const low = await tick('BTCUSDT', '99400.00');
        expect(await contract(user.token, stopLoss)).toMatchObject({
          status: 2,
          closeReason: 3,
          exitPrice: '99400.00',
          exit: { time: low.time, sequence: low.sequence },
        });
        expect(await contract(user.token, liquidated)).toMatchObject({
          status: 2,
          closeReason: 4,
          exitPrice: '99400.00',
        });
        // The resting entry would open a position: it waits.
        await tick('BTCUSDT', '98900.00');
        expect((await contract(user.token, entry)).status).toBe(0);
      });
      // Resumed: the next tick that reaches the entry opens it at its limit.
      const down = await tick('BTCUSDT', '98800.00');
      expect(await contract(user.token, entry)).toMatchObject({
        status: 1,
        entryPrice: '99000.00',
        entry: { time: down.time, sequence: down.sequence },
      });
      const listed = await call(t.app, 'GET', '/api/contractPosition/list', {
        token: user.token,
        query: { pageSize: '100' },
      });
      expect(listed.body.total).toBe(5);
    },
  );

  it('keeps the trading session: a halted stock sells in its session only', async () => {
    const user = await trader('1000');
    await tick('AAPL', '200.00');
    const bought = await spot(user.token, 'buy', {
      productType: PRODUCT_TYPE.usStock,
      productCode: 'AAPL',
      quantity: '3',
    });
    expect(bought.body.data).toMatchObject({ status: 1, amount: '600.0000', fee: '0.6000' });
    const resting = await spot(user.token, 'sell', {
      productType: PRODUCT_TYPE.usStock,
      productCode: 'AAPL',
      orderType: 2,
      price: '210.00',
      quantity: '1',
    });
    expect(resting.body.data).toMatchObject({ status: 0 });
    const sell = () =>
      spot(user.token, 'sell', {
        productType: PRODUCT_TYPE.usStock,
        productCode: 'AAPL',
        quantity: '1',
      });
    for (const stop of STOPS)
      await whileStopped(
        stop,
        async () => {
          // 16:30 in New York: the market is closed, whatever the halt.
          const saved = clock.now();
          clock.set(new Date('2026-11-18T21:30:00Z'));
          try {
            expect(await sell()).toMatchObject({ status: 422, body: { msg: 'hint_marketClosed' } });
          } finally {
            clock.set(saved);
          }
        },
        'AAPL',
      );
    await whileStopped(
      STOPS[0],
      async () => {
        // In the session: the halted stock sells at the feed's price.
        await tick('AAPL', '205.00');
        const sold = await sell();
        expect(sold.status, JSON.stringify(sold.body)).toBe(200);
        expect(sold.body.data).toMatchObject({
          status: 1,
          fillPrice: '205.00',
          amount: '205.0000',
        });
        // 16:30 in New York: after the close a crossing tick fills nothing.
        clock.set(new Date('2026-11-18T21:30:00Z'));
        await tick('AAPL', '215.00', 0);
        expect((await orderOf(user.token, 'spot', resting.body.data.id))!.status).toBe(0);
        // 09:31 the next day, still halted: the first crossing tick in the session fills it.
        clock.set(new Date('2026-11-19T14:31:00Z'));
        const open = await tick('AAPL', '211.00', 0);
        expect(await orderOf(user.token, 'spot', resting.body.data.id)).toMatchObject({
          status: 1,
          fillPrice: '210.00',
          fill: { time: open.time, sequence: open.sequence },
        });
      },
      'AAPL',
    );
    expect(await holdings(user.token)).toEqual([
      expect.objectContaining({ productCode: 'AAPL', quantity: '1', frozenQuantity: '0' }),
    ]);
  });
});
