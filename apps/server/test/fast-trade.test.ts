/**
 * Fast trades with a scripted feed: the test says which tick comes when. Entry at the current
 * tick; the first tick at or after expiry decides (win, loss, tie); the stake is frozen meanwhile;
 * settlement happens once, also after a restart from the tick log. The ledger verifies after
 * every test.
 */
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import { fastTradeDetail, settledFastTrade } from './support/fast-trade';
import { verifyLedger } from '../src/ledger/verify';
import type { Tick } from '../src/market/types';
import {
  call,
  createTestDatabase,
  deposit,
  onPostgres,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers';

const NOW = Date.parse('2026-11-18T15:00:00Z');
const USDT = 3;

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let sequence = 0;
const requestId = () => `fast-${Date.now()}-${++sequence}`;

async function startApp(): Promise<void> {
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], 'fast'));
}

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  await startApp();
  feed.tick('BTCUSDT', '100000.00', NOW);
});
afterEach(async () => {
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

async function trader(amount = '1000') {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, amount);
  await call(t.app, 'POST', '/api/fastTradeOrder/acceptRisk', { token: user.token });
  return user;
}

async function options() {
  const result = await call(t.app, 'GET', '/api/fastTradeOrderOptions/list', {
    query: { productType: '2', productCode: 'BTCUSDT' },
  });
  if (result.status !== 200) throw new Error(JSON.stringify(result.body));
  return result.body.data as { id: number; durationSeconds: number; payoutRate: string }[];
}

async function order(token: string, fields: Record<string, unknown> = {}) {
  const minute =
    'optionId' in fields ? undefined : (await options()).find((o) => o.durationSeconds === 60);
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

async function balance(token: string) {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token,
    query: { currencyId: String(USDT) },
  });
  return result.body.data as { amount: string; frozenAmount: string };
}

/** Moves the clock on and sends a tick stamped with the new time. */
function tickAt(price: string, ms: number): Tick {
  clock.advance(ms);
  return feed.tick('BTCUSDT', price, clock.now().getTime());
}

describe(`fast trades on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('offers the options of the product type with their fee rates', async () => {
    const list = await options();
    expect(list.map((o) => [o.durationSeconds, o.payoutRate])).toEqual([
      [30, '0.8'],
      [60, '0.85'],
      [300, '0.9'],
    ]);
    expect(list[0]).toMatchObject({ minStake: '10.0000', maxStake: '10000.0000', feeRateUp: '0' });
  });

  it('asks for the risk disclosure once before the first fast trade', async () => {
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, '500');
    const refused = await order(user.token);
    expect(refused.body).toMatchObject({ code: 403, msg: 'hint_fastTradeRiskRequired' });
    const status = await call(t.app, 'GET', '/api/fastTradeOrder/riskStatus', {
      token: user.token,
    });
    expect(status.body.data).toEqual({ accepted: false });
    await call(t.app, 'POST', '/api/fastTradeOrder/acceptRisk', { token: user.token });
    expect((await order(user.token)).status).toBe(200);
    expect(await balance(user.token)).toMatchObject({
      amount: '400.0000',
      frozenAmount: '100.0000',
    });
  });

  it('wins when the price is higher at expiry: stake back plus the payout, with both ticks', async () => {
    const user = await trader();
    const entry = tickAt('100000.00', 1000);
    const placed = await order(user.token, { amount: '200' });
    expect(placed.body.data).toMatchObject({
      status: 0,
      amount: '200.0000',
      entry: { price: '100000.00', time: entry.time, source: 'scripted', sequence: entry.sequence },
      expiresAt: clock.now().getTime() + 60_000,
      exit: null,
    });
    // A tick before expiry decides nothing, even a higher one.
    tickAt('100500.00', 59_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await fastTradeDetail(t.app, user.token, placed.body.data.id)).status).toBe(0);
    const exit = tickAt('100010.00', 1500);
    const done = await settledFastTrade(t.app, user.token, placed.body.data.id);
    expect(done).toMatchObject({
      status: 1,
      result: '170.0000',
      exit: { price: '100010.00', time: exit.time, sequence: exit.sequence },
    });
    expect(await balance(user.token)).toMatchObject({
      amount: '1170.0000',
      frozenAmount: '0.0000',
    });
    // Today's result in the assets entity: realized by this trade.
    const assets = await call(t.app, 'GET', '/api/userInfo/userBalanceConvert', {
      token: user.token,
    });
    expect(assets.body.data).toMatchObject({
      userBalanceConvert: '1170.0000',
      profitAndLoseToday: '170.0000',
    });
  });

  it('loses the stake times the loss rate when the price moved the other way', async () => {
    const user = await trader();
    tickAt('100000.00', 1000);
    const placed = await order(user.token, { orderDirection: 2, amount: '50' });
    tickAt('100000.01', 60_000);
    const done = await settledFastTrade(t.app, user.token, placed.body.data.id);
    expect(done).toMatchObject({ status: 2, result: '-50.0000' });
    expect(await balance(user.token)).toMatchObject({ amount: '950.0000', frozenAmount: '0.0000' });
    const assets = await call(t.app, 'GET', '/api/userInfo/userBalanceConvert', {
      token: user.token,
    });
    expect(assets.body.data.profitAndLoseToday).toBe('-50.0000');
  });

  it('gives the stake back when the price is the same', async () => {
    const user = await trader();
    tickAt('99999.00', 1000);
    const placed = await order(user.token, { amount: '75' });
    tickAt('99999.00', 60_000);
    const done = await settledFastTrade(t.app, user.token, placed.body.data.id);
    expect(done).toMatchObject({ status: 3, result: '0.0000' });
    expect(await balance(user.token)).toMatchObject({
      amount: '1000.0000',
      frozenAmount: '0.0000',
    });
  });

  it('refuses bad stakes and options, moving nothing; a repeated request id orders once', async () => {
    const user = await trader('100');
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: '0' }, 'hint_amount_sign'],
      [{ amount: '9.99' }, 'hint_amountBelowMin'],
      [{ amount: '10000.01' }, 'hint_amountAboveMax'],
      [{ amount: '10.00001' }, 'hint_amountDecimals'],
      [{ amount: '101' }, 'hint_insufficientBalance'],
      [{ optionId: 9999 }, 'hint_fastTradeOptionUnknown'],
      [{ orderDirection: 3 }, 'hint_paramInvalid'],
      [{ productCode: 'NOPE' }, 'hint_productUnknown'],
    ];
    for (const [fields, msg] of cases) {
      const result = await order(user.token, fields);
      expect({ fields, msg: result.body.msg }).toEqual({ fields, msg });
    }
    expect(await balance(user.token)).toMatchObject({ amount: '100.0000', frozenAmount: '0.0000' });
    const id = requestId();
    const first = await order(user.token, { requestId: id, amount: '20' });
    const again = await order(user.token, { requestId: id, amount: '20' });
    expect(again.body.data.id).toBe(first.body.data.id);
    const other = await order(user.token, { requestId: id, amount: '30' });
    expect(other.status).toBe(409);
    expect(await balance(user.token)).toMatchObject({ frozenAmount: '20.0000' });
    // Settle it so later tests start from a quiet book.
    tickAt('100000.00', 61_000);
    await settledFastTrade(t.app, user.token, first.body.data.id);
  });

  it('refuses orders on a halted product and when the switch is off', async () => {
    const user = await trader();
    // Halted through another instance: this one's product cache still says tradable.
    await t.db.query("UPDATE product SET is_lock = 1 WHERE product_code = 'BTCUSDT'");
    try {
      expect((await order(user.token)).body.msg).toBe('hint_productHalted');
    } finally {
      await t.db.query("UPDATE product SET is_lock = 0 WHERE product_code = 'BTCUSDT'");
      await t.app.services.marketEngine!.reloadProducts();
    }
    const optionId = (await options())[0]!.id;
    await t.db.query("UPDATE switch_set SET status = 0 WHERE switch_name = 'fastTrade'");
    t.app.services.settings.invalidate();
    try {
      expect((await order(user.token, { optionId })).body).toMatchObject({
        code: 403,
        msg: 'hint_fastTradeDisabled',
      });
      const list = await call(t.app, 'GET', '/api/fastTradeOrderOptions/list', {
        query: { productType: '2', productCode: 'BTCUSDT' },
      });
      expect(list.body.msg).toBe('hint_fastTradeDisabled');
    } finally {
      await t.db.query("UPDATE switch_set SET status = 1 WHERE switch_name = 'fastTrade'");
      t.app.services.settings.invalidate();
    }
    expect(await balance(user.token)).toMatchObject({ amount: '1000.0000' });
  });

  it('settles each of many orders on the same deciding tick exactly once', async () => {
    const user = await trader('10000');
    tickAt('100000.00', 1000);
    const placed = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        order(user.token, { amount: '10', orderDirection: i % 2 === 0 ? 1 : 2 }),
      ),
    );
    expect(placed.every((p) => p.status === 200)).toBe(true);
    const exit = tickAt('100100.00', 60_000);
    // The same tick arriving twice (a reconnect) changes nothing.
    t.app.services.marketEngine!.onTick({
      ...exit,
      productType: 2,
      productCode: 'BTCUSDT',
    } as Tick);
    const done = await Promise.all(
      placed.map((p) => settledFastTrade(t.app, user.token, p.body.data.id)),
    );
    expect(done.filter((d) => d.status === 1)).toHaveLength(10);
    expect(done.filter((d) => d.status === 2)).toHaveLength(10);
    // 10 wins of 8.5 and 10 losses of 10: 10,000 + 85 − 100.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await balance(user.token)).toMatchObject({
      amount: '9985.0000',
      frozenAmount: '0.0000',
    });
  });

  it('settles the orders of many users in two lanes, each lane on house shards of its own', async () => {
    const users = [];
    for (let i = 0; i < 4; i++) users.push(await trader('1000'));
    // Consecutive ids: users of both lanes (odd and even ids).
    expect(new Set(users.map((user) => user.userId % 2)).size).toBe(2);
    tickAt('100000.00', 1000);
    const placed = await Promise.all(
      users.flatMap((user) =>
        Array.from({ length: 6 }, (_, i) =>
          order(user.token, { amount: '10', orderDirection: i % 2 === 0 ? 1 : 2 }).then(
            (response) => ({ user, response }),
          ),
        ),
      ),
    );
    expect(placed.every(({ response }) => response.status === 200)).toBe(true);
    tickAt('99900.00', 60_000);
    const done = await Promise.all(
      placed.map(({ user, response }) =>
        settledFastTrade(t.app, user.token, response.body.data.id),
      ),
    );
    // Down wins (8.5 each), up loses (10 each): 3 of each per user.
    expect(done.filter((d) => d.status === 1)).toHaveLength(12);
    expect(done.filter((d) => d.status === 2)).toHaveLength(12);
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const user of users)
      expect(await balance(user.token)).toMatchObject({
        amount: '995.5000',
        frozenAmount: '0.0000',
      });
    // Every settlement entry moves users of one lane only, against a house shard of that lane.
    const { rows } = await database.db.query<{ shards: number[]; users: number[] }>(
      `SELECT array_agg(DISTINCT a.owner_id) FILTER (WHERE a.owner_type = 'platform') AS shards,
         array_agg(DISTINCT a.owner_id) FILTER (WHERE a.owner_type = 'user') AS users
       FROM ledger_posting p JOIN ledger_account a ON a.id = p.account_id
       WHERE p.entry_id IN (
         SELECT p.entry_id FROM ledger_posting p
         JOIN ledger_entry e ON e.id = p.entry_id AND e.entry_type = 'trade:fast_settle'
         JOIN ledger_account a ON a.id = p.account_id
         WHERE a.owner_type = 'user' AND a.owner_id = ANY($1::bigint[]))
       GROUP BY p.entry_id`,
      [users.map((user) => user.userId)],
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      const lanes = new Set([...row.users, ...row.shards].map((id) => Number(id) % 2));
      expect(lanes.size, JSON.stringify(row)).toBe(1);
    }
  });

  it('after a restart, settles an order whose deciding tick was logged before the stop', async () => {
    const user = await trader();
    tickAt('100000.00', 1000);
    const placed = await order(user.token, { amount: '40' });
    const expiresAt = placed.body.data.expiresAt as number;
    await t.close();
    // The tick the feed delivered at expiry, written to the tick log just before the stop.
    const { rows } = await database.db.query<{ id: number }>(
      "SELECT id FROM product WHERE product_code = 'BTCUSDT'",
    );
    await database.db.query(
      `INSERT INTO market_tick (product_id, tick_time, sequence, price, source)
       VALUES ($1, $2, 999999, '99000.00', 'scripted')`,
      [rows[0]!.id, expiresAt + 200],
    );
    clock.advance(120_000);
    await startApp();
    const done = await settledFastTrade(t.app, user.token, placed.body.data.id);
    expect(done).toMatchObject({
      status: 2,
      result: '-40.0000',
      exit: { price: '99000.00', time: expiresAt + 200, sequence: 999999 },
    });
    feed.tick('BTCUSDT', '100000.00', clock.now().getTime());
  });

  it('settles an order another instance took and could not settle, from the tick log', async () => {
    const user = await trader();
    const { t: other, feed: otherFeed } = await scriptedApp(database, clock, ['BTCUSDT'], 'fast');
    otherFeed.tick('BTCUSDT', '100000.00', clock.now().getTime());
    const [minute] = (await options()).filter((o) => o.durationSeconds === 60);
    const placed = await call(other.app, 'POST', '/api/fastTradeOrder/addFastTradeOrder', {
      token: user.token,
      json: {
        productType: 2,
        productCode: 'BTCUSDT',
        optionId: minute!.id,
        orderDirection: 1,
        amount: '30',
        requestId: requestId(),
      },
    });
    expect(placed.status).toBe(200);
    await other.close();
    // This instance never saw the order; its tick at expiry is logged, and the sweep decides.
    tickAt('100002.00', 60_000);
    clock.advance(3000);
    const done = await settledFastTrade(t.app, user.token, placed.body.data.id);
    expect(done).toMatchObject({ status: 1, result: '25.5000', exit: { price: '100002.00' } });
    feed.tick('BTCUSDT', '100000.00', clock.now().getTime());
  });

  it("pushes the user's own orders and balance changes on the private /ws topics, to them only", async () => {
    const user = await trader();
    const other = await trader();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const listen = async (token: string) => {
      const socket = new WebSocket(`${address.replace('http', 'ws')}/ws`);
      const messages: { op: string; topic?: string; seq?: number; data?: any }[] = [];
      socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ op: 'auth', token }));
      socket.send(JSON.stringify({ op: 'subscribe', topic: 'orders' }));
      socket.send(JSON.stringify({ op: 'subscribe', topic: 'balances' }));
      await expect.poll(() => messages.filter((m) => m.op === 'subscribed').length).toBe(2);
      return { socket, messages };
    };
    const mine = await listen(user.token);
    const theirs = await listen(other.token);
    try {
      tickAt('100000.00', 1000);
      const placed = await order(user.token, { amount: '20' });
      const data = (topic: string) =>
        mine.messages.filter((m) => m.op === 'data' && m.topic === topic);
      await expect.poll(() => data('orders').length).toBe(1);
      expect(data('orders')[0]).toMatchObject({
        seq: 1,
        data: { kind: 'fastTrade', order: { id: placed.body.data.id, status: 0 } },
      });
      expect(data('balances')[0]).toMatchObject({ data: { book: 'live', currencyId: USDT } });
      tickAt('100001.00', 60_000);
      await expect.poll(() => data('orders').length).toBe(2);
      expect(data('orders')[1]).toMatchObject({
        seq: 2,
        data: { order: { id: placed.body.data.id, status: 1, result: '17.0000' } },
      });
      // Another user's connection heard nothing of it.
      expect(theirs.messages.filter((m) => m.op === 'data')).toEqual([]);
    } finally {
      mine.socket.close();
      theirs.socket.close();
    }
  });

  it('keeps the demo and live books apart', async () => {
    const user = await trader();
    const demo = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    expect(demo.body.data.accountType).toBe(2);
    tickAt('100000.00', 1000);
    const placed = await order(user.token, { amount: '1000' });
    expect(placed.status).toBe(200);
    expect(await balance(user.token)).toMatchObject({ amount: '99000.0000' });
    const live = await call(t.app, 'GET', '/api/fastTradeOrder/list', { token: user.token });
    expect(live.body.total).toBe(1);
    tickAt('100001.00', 60_000);
    await settledFastTrade(t.app, user.token, placed.body.data.id);
    expect(await balance(user.token)).toMatchObject({ amount: '100850.0000' });
  });
});
