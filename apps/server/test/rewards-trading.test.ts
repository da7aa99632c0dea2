/**
 * Welfare tasks completed by trading, with a scripted feed: a first live trade pays once its
 * contract opens (the open's own event), a trading volume task counts the live notional within the
 * campaign (a spot market buy, which tells no event, is seen when the page is read), and the demo
 * account's trades count for nothing.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
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
const USDT = 3;

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let sequence = 0;
const requestId = () => `reward-trade-${Date.now()}-${++sequence}`;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], 'rewards'));
  feed.tick('BTCUSDT', '100000.00', clock.now().getTime());
});
afterEach(async () => {
  await t.app.services.triggers!.idle();
  await t.app.services.rewards.idle();
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

/** A running campaign with these tasks (written as the console would, without its operator). */
async function campaign(tasks: { kind: string; threshold?: string; reward: string }[]) {
  await t.db.query(
    `UPDATE reward_campaign SET ended_at = $1, end_reason = 'test' WHERE ended_at IS NULL`,
    [clock.now()],
  );
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO reward_campaign (title, description, starts_at, ends_at, currency_id, budget,
       created_at, updated_at)
     VALUES ('{"en":"Traders"}', '{}', $1, $2, $3, 1000, $1, $1) RETURNING id`,
    [clock.now(), new Date(clock.now().getTime() + 30 * 86_400_000), USDT],
  );
  const id = rows[0]!.id;
  for (const [sort, task] of tasks.entries())
    await t.db.query(
      'INSERT INTO reward_task (campaign_id, kind, threshold, reward, sort) VALUES ($1, $2, $3, $4, $5)',
      [id, task.kind, task.threshold ?? '0', task.reward, sort],
    );
  return id;
}

async function tasks(token: string, campaignId: number) {
  const result = await call(t.app, 'GET', '/api/welfare/list', { token });
  expect(result.status).toBe(200);
  return result.body.data.campaigns.find((row: { id: number }) => row.id === campaignId).tasks as {
    kind: string;
    status: string;
    progress: string;
  }[];
}

async function available(userId: number): Promise<number> {
  const { rows } = await t.db.query<{ balance: string }>(
    `SELECT balance::text FROM ledger_account WHERE book = 'live' AND owner_type = 'user'
       AND owner_id = $1 AND currency_id = $2 AND kind = 'available'`,
    [userId, USDT],
  );
  return Number(rows[0]?.balance ?? 0);
}

function open(token: string) {
  return call(t.app, 'POST', '/api/contractPosition/open', {
    token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      orderDirection: 1,
      leverage: 10,
      quantity: '0.01',
      requestId: requestId(),
    },
  });
}

it('pays a first live trade when the contract opens, once', async () => {
  const id = await campaign([{ kind: 'firstTrade', reward: '3' }]);
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, '1000');
  expect((await tasks(user.token, id))[0]!.status).toBe('todo');
  const opened = await open(user.token);
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  await expect.poll(async () => (await tasks(user.token, id))[0]!.status).toBe('paid');
  const afterFirst = await available(user.userId);
  expect((await open(user.token)).status).toBe(200);
  await t.app.services.rewards.idle();
  await t.app.services.rewards.sweep();
  const { rows } = await t.db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM reward_completion WHERE user_id = $1`,
    [user.userId],
  );
  expect(rows[0]!.count).toBe(1);
  // The second open took margin and fee; no second reward came in.
  expect(await available(user.userId)).toBeLessThan(afterFirst);
});

it('counts the live notional toward a volume task, and nothing of the demo account', async () => {
  const id = await campaign([{ kind: 'volume', threshold: '1500', reward: '6' }]);
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, '5000');

  // The demo account trades first: 0.01 BTC at 100000 is 1000 USDT of notional, not counted.
  const demo = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
    token: user.token,
    query: { accountType: '2' },
  });
  expect(demo.status, JSON.stringify(demo.body)).toBe(200);
  expect((await open(user.token)).status).toBe(200);
  expect((await open(user.token)).status).toBe(200);
  await t.app.services.rewards.idle();
  expect((await tasks(user.token, id))[0]).toMatchObject({ status: 'todo', progress: '0.0000' });

  const live = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
    token: user.token,
    query: { accountType: '0' },
  });
  expect(live.status).toBe(200);
  expect((await open(user.token)).status).toBe(200);
  await t.app.services.rewards.idle();
  expect((await tasks(user.token, id))[0]).toMatchObject({
    status: 'todo',
    progress: '1000.0000',
  });
  // A spot market buy of 0.006 BTC (600 USDT) tells no event: reading the page finds it.
  const buy = await call(t.app, 'POST', '/api/spotTradeOrder/addSpotTradeOrder', {
    token: user.token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      orderType: 1,
      quantity: '0.0060',
      requestId: requestId(),
    },
  });
  expect(buy.status, JSON.stringify(buy.body)).toBe(200);
  const before = await available(user.userId);
  expect((await tasks(user.token, id))[0]!.status).toBe('paid');
  expect(await available(user.userId)).toBe(before + 6);
});
