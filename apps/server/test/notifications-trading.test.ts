/**
 * Notifications of trades, with a scripted feed: a contract opened at market, one that rests and
 * fills at its limit, a take-profit reached, a liquidation, a spot limit buy filled and a fast
 * trade settled each write one notification with the deciding tick's price, written in the close's own transaction (once, however often the
 * triggers see the tick), each linking to the positions screen.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import { settledFastTrade } from './support/fast-trade';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import {
  call,
  createTestDatabase,
  deposit,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers';

const NOW = Date.parse('2026-11-18T15:00:00Z');

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let sequence = 0;
const requestId = () => `notice-${Date.now()}-${++sequence}`;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], 'contracts'));
  clock.advance(0);
  feed.tick('BTCUSDT', '100000.00', clock.now().getTime());
});
afterEach(async () => {
  await t.app.services.triggers!.idle();
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

async function tick(price: string): Promise<void> {
  clock.advance(1000);
  feed.tick('BTCUSDT', price, clock.now().getTime());
  await t.app.services.triggers!.idle();
}

function open(token: string, fields: Record<string, unknown> = {}) {
  return call(t.app, 'POST', '/api/contractPosition/open', {
    token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      orderDirection: 1,
      leverage: 10,
      quantity: '0.01',
      requestId: requestId(),
      ...fields,
    },
  });
}

async function notices(token: string) {
  const result = await call(t.app, 'GET', '/api/notification/list', {
    token,
    query: { pageSize: '50' },
  });
  return result.body.rows as { type: string; params: string[]; link: unknown }[];
}

it('tells of an open, a limit fill, a take-profit and a liquidation, once each', async () => {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, '1000');
  await tick('100000.00');
  const market = await open(user.token, { takeProfit: '100500' });
  expect(market.status, JSON.stringify(market.body)).toBe(200);
  const orderNo = market.body.data.orderNo as string;
  const limit = await open(user.token, { orderType: 2, price: '99000.00', leverage: 100 });
  expect(limit.status, JSON.stringify(limit.body)).toBe(200);
  // The open's notification follows its commit.
  await expect
    .poll(async () => (await notices(user.token)).map((row) => row.type))
    .toEqual(['contractOpened']);

  // The entry fills at its limit (99000, liquidated under 98505), then is liquidated; then the
  // market position's take-profit is crossed, twice.
  await tick('98900.00');
  await tick('98400.00');
  await tick('100600.00');
  await tick('100700.00');
  const rows = await notices(user.token);
  expect(rows.map((row) => row.type)).toEqual([
    'contractTakeProfit',
    'contractLiquidated',
    'contractOpened',
    'contractOpened',
  ]);
  expect(rows[1]!.params.slice(0, 2)).toEqual(['BTCUSDT', '98400.00']);
  expect(rows[0]).toMatchObject({
    params: ['BTCUSDT', '100600.00', expect.any(String), orderNo],
    link: { route: 'contractPosition', query: { tab: 'contract' } },
  });
  expect(rows[2]!.params.slice(0, 2)).toEqual(['BTCUSDT', '99000.00']);
  expect(rows[3]!.params).toEqual(['BTCUSDT', '100000.00', orderNo]);
});

it('tells of a limit buy filled at its limit and a fast trade settled, once each', async () => {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, '2000');
  await tick('100000.00');
  const buy = await call(t.app, 'POST', '/api/spotTradeOrder/addSpotTradeOrder', {
    token: user.token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      orderType: 2,
      price: '99000.00',
      quantity: '0.0100',
      requestId: requestId(),
    },
  });
  expect(buy.status, JSON.stringify(buy.body)).toBe(200);
  await tick('98800.00');
  await tick('98700.00');

  await call(t.app, 'POST', '/api/fastTradeOrder/acceptRisk', { token: user.token });
  const options = await call(t.app, 'GET', '/api/fastTradeOrderOptions/list', {
    query: { productType: '2', productCode: 'BTCUSDT' },
  });
  const minute = (options.body.data as { id: number; durationSeconds: number }[]).find(
    (option) => option.durationSeconds === 60,
  )!;
  const fast = await call(t.app, 'POST', '/api/fastTradeOrder/addFastTradeOrder', {
    token: user.token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      optionId: minute.id,
      orderDirection: 1,
      amount: '100',
      requestId: requestId(),
    },
  });
  expect(fast.status, JSON.stringify(fast.body)).toBe(200);
  clock.advance(61_000);
  feed.tick('BTCUSDT', '99900.00', clock.now().getTime());
  await settledFastTrade(t.app, user.token, fast.body.data.id);
  await expect
    .poll(async () => (await notices(user.token)).map((row) => row.type))
    .toEqual(['fastTradeSettled', 'limitOrderFilled']);
  const [settled, filled] = await notices(user.token);
  expect(filled).toMatchObject({
    params: ['BTCUSDT', '99000.00', '0.01', buy.body.data.orderNo],
    link: { route: 'bibiOrder', query: {} },
  });
  expect(settled).toMatchObject({
    params: ['BTCUSDT', '99900.00', expect.any(String), 'USDT', fast.body.data.orderNo],
    link: { route: 'contractPosition', query: { tab: 'fast' } },
  });
});
