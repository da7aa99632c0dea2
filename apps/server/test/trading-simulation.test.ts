/**
 * A seeded random trading simulation: users place thousands of orders of every kind (fast trades,
 * contracts at market and limit with take-profits, stop-losses and leverage up to 100×, closes
 * and cancels, spot and coin-to-coin buys and sells) against a scripted random price path for two
 * products, with refusals along the way (too little money, wrong sides). At the end everything
 * is closed, the ledger verifies, and every user's money equals their deposit plus the results
 * the order tables record, less the fees they record: the orders and the ledger tell one story.
 */
import { add, mul, normalize, sum, toScale } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
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

const PRODUCTS = ['BTCUSDT', 'ETHUSDT'] as const;
const NOW = Date.parse('2026-11-18T15:00:00Z');
const USERS = 10;
const STEPS = 200;
const ACTIONS_PER_STEP = 12;
const DEPOSIT = '20000';

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;

/**
 * Prices are whole cents (integers, exact in a JS number) and go to the app as decimal text made
 * from the digits, never through a fractional number.
 */
function centsText(cents: number): string {
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** A small seeded generator: the same path and orders on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  ({ t, feed } = await scriptedApp(database, clock, PRODUCTS, 'simulation'));
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

describe(`seeded trading simulation on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('keeps the ledger and the orders in agreement through thousands of random orders', async () => {
    const random = seeded(20261122);
    // Prices in cents, walked with a few jumps so stops and liquidations get crossed.
    const prices: Record<string, number> = { BTCUSDT: 10_000_000, ETHUSDT: 350_000 };
    const price = (code: string) => centsText(prices[code]!);
    const send = async () => {
      for (const code of PRODUCTS) feed.tick(code, price(code), clock.now().getTime());
      await t.app.services.triggers!.idle();
    };
    await send();
    const users: { token: string; userId: number }[] = [];
    for (let i = 0; i < USERS; i++) {
      const user = await registerUser(t.app);
      await deposit(t.db, user.userId, DEPOSIT);
      await call(t.app, 'POST', '/api/fastTradeOrder/acceptRisk', { token: user.token });
      users.push(user);
    }
    const options = await call(t.app, 'GET', '/api/fastTradeOrderOptions/list', {
      query: { productType: '2', productCode: 'BTCUSDT' },
    });
    const optionIds = (options.body.data as { id: number }[]).map((option) => option.id);
    let sequence = 0;
    const requestId = () => `simulated-${++sequence}`;
    const counts = new Map<string, number>();
    const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
    const post = async (token: string, url: string, json: Record<string, unknown>) => {
      const result = await call(t.app, 'POST', url, { token, json });
      count(`${url} ${result.status === 200 ? 'ok' : result.body.msg}`);
      // Refusals are fine (not enough money, a level on the wrong side); faults are not.
      expect(result.status, JSON.stringify(result.body)).toBeLessThan(500);
      return result;
    };
    const listOf = async (token: string, url: string, query: Record<string, string>) => {
      const result = await call(t.app, 'GET', url, { token, query: { pageSize: '100', ...query } });
      return (result.body.rows ?? []) as { id: number; productCode: string }[];
    };
    const spotReady =
      (
        await call(t.app, 'GET', '/api/spotTradeOrder/list', {
          token: users[0]!.token,
        })
      ).status === 200;

    for (let step = 0; step < STEPS; step++) {
      for (let action = 0; action < ACTIONS_PER_STEP; action++) {
        const user = random.pick(users);
        const code = random.pick(PRODUCTS);
        const lot = code === 'BTCUSDT' ? '0.0001' : '0.001';
        const quantity = () => toScale(mul(lot, String(1 + random.int(200))), 4);
        const roll = random.next();
        const current = prices[code]!;
        if (roll < 0.3) {
          const direction = 1 + random.int(2);
          const long = direction === 1;
          const limit = random.next() < 0.3;
          const away = (fraction: number, above: boolean) =>
            centsText(Math.round(current * (above ? 1 + fraction : 1 - fraction)));
          await post(user.token, '/api/contractPosition/open', {
            productType: 2,
            productCode: code,
            orderDirection: direction,
            leverage: random.pick([1, 5, 20, 100]),
            orderType: limit ? 2 : 1,
            price: limit ? away(random.next() * 0.01, !long) : undefined,
            quantity: quantity(),
            takeProfit: random.next() < 0.4 ? away(0.002 + random.next() * 0.01, long) : undefined,
            stopLoss: random.next() < 0.4 ? away(0.002 + random.next() * 0.005, !long) : undefined,
            requestId: requestId(),
          });
        } else if (roll < 0.45) {
          const open = await listOf(user.token, '/api/contractPosition/list', { status: '1' });
          if (open.length > 0)
            await post(user.token, '/api/contractPosition/close', {
              id: random.pick(open).id,
              requestId: requestId(),
            });
        } else if (roll < 0.5) {
          const pending = await listOf(user.token, '/api/contractPosition/list', { status: '0' });
          if (pending.length > 0)
            await post(user.token, '/api/contractPosition/cancel', { id: random.pick(pending).id });
        } else if (roll < 0.65) {
          await post(user.token, '/api/fastTradeOrder/addFastTradeOrder', {
            productType: 2,
            productCode: 'BTCUSDT',
            optionId: random.pick(optionIds),
            orderDirection: 1 + random.int(2),
            amount: String(10 + random.int(500)),
            requestId: requestId(),
          });
        } else if (spotReady && roll < 0.8) {
          const bibi = random.next() < 0.5;
          const sell = random.next() < 0.45;
          const limit = random.next() < 0.3;
          const url = bibi
            ? `/api/bibiTradeOrder/${sell ? 'sell' : 'buy'}`
            : `/api/spotTradeOrder/${sell ? 'sellSpotTradeOrder' : 'addSpotTradeOrder'}`;
          await post(user.token, url, {
            productType: 2,
            productCode: code,
            orderType: limit ? 2 : 1,
            price: limit
              ? centsText(
                  Math.round(
                    current * (sell ? 1 + random.next() * 0.01 : 1 - random.next() * 0.01),
                  ),
                )
              : undefined,
            quantity: quantity(),
            requestId: requestId(),
          });
        } else if (spotReady && roll < 0.85) {
          const bibi = random.next() < 0.5;
          const url = bibi ? '/api/bibiTradeOrder/list' : '/api/spotTradeOrder/list';
          const resting = await listOf(user.token, url, { status: '0' });
          if (resting.length > 0)
            await post(
              user.token,
              bibi ? '/api/bibiTradeOrder/cancel' : '/api/spotTradeOrder/cancel',
              {
                id: random.pick(resting).id,
              },
            );
        }
      }
      // One second on, each price moves (now and then by a jump of up to 3 %).
      for (const code of PRODUCTS) {
        const jump = random.next() < 0.03 ? (random.next() - 0.5) * 0.06 : 0;
        const move = (random.next() - 0.5) * 0.004 + jump;
        prices[code] = Math.max(1, Math.round(prices[code]! * (1 + move)));
      }
      clock.advance(1000);
      await send();
    }

    // Close everything: positions at the last price, resting orders cancelled, holdings sold,
    // fast trades decided by a tick after the longest option.
    for (const user of users) {
      for (const position of await listOf(user.token, '/api/contractPosition/list', {
        status: '1',
      }))
        await post(user.token, '/api/contractPosition/close', {
          id: position.id,
          requestId: requestId(),
        });
      for (const position of await listOf(user.token, '/api/contractPosition/list', {
        status: '0',
      }))
        await post(user.token, '/api/contractPosition/cancel', { id: position.id });
      if (!spotReady) continue;
      for (const [list, cancel] of [
        ['/api/spotTradeOrder/list', '/api/spotTradeOrder/cancel'],
        ['/api/bibiTradeOrder/list', '/api/bibiTradeOrder/cancel'],
      ] as const)
        for (const order of await listOf(user.token, list, { status: '0' }))
          await post(user.token, cancel, { id: order.id });
      const holdings = await call(t.app, 'GET', '/api/spotTradeOrder/holdings', {
        token: user.token,
      });
      for (const holding of (holdings.body.data ?? []) as {
        productCode: string;
        quantity: string;
      }[])
        if (normalize(holding.quantity) !== '0')
          await post(user.token, '/api/spotTradeOrder/sellSpotTradeOrder', {
            productType: 2,
            productCode: holding.productCode,
            quantity: holding.quantity,
            requestId: requestId(),
          });
      const coins = await call(t.app, 'GET', '/api/userBibiAssets/list', { token: user.token });
      for (const coin of (coins.body.rows ?? coins.body.data ?? []) as {
        productCode: string;
        bibiAmount: string;
      }[])
        if (normalize(coin.bibiAmount) !== '0')
          await post(user.token, '/api/bibiTradeOrder/sell', {
            productCode: coin.productCode,
            quantity: coin.bibiAmount,
            requestId: requestId(),
          });
    }
    clock.advance(600_000);
    await send();
    const openFast = async () =>
      (
        await t.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM fast_trade_order WHERE status = 0',
        )
      ).rows[0]!.n;
    for (let wait = 0; wait < 100 && (await openFast()) > 0; wait++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await openFast()).toBe(0);

    // Thousands of orders of every kind went through, some refused.
    const placed = [...counts.entries()]
      .filter(([key]) => key.endsWith(' ok'))
      .reduce((total, [, n]) => total + n, 0);
    expect(placed, JSON.stringify([...counts])).toBeGreaterThan(1000);
    expect(counts.get('/api/contractPosition/open ok') ?? 0).toBeGreaterThan(200);
    expect(counts.get('/api/fastTradeOrder/addFastTradeOrder ok') ?? 0).toBeGreaterThan(100);
    const closedBy = await t.db.query<{ close_reason: number; n: number }>(
      'SELECT close_reason, count(*)::int AS n FROM contract_position WHERE status = 2 GROUP BY close_reason',
    );
    const reasons = new Map(closedBy.rows.map((row) => [row.close_reason, row.n]));
    // Manual closes, take-profits, stop-losses and liquidations all happened.
    for (const reason of [1, 2, 3, 4]) expect(reasons.get(reason) ?? 0).toBeGreaterThan(0);

    expect((await verifyLedger(database.db)).problems).toEqual([]);

    // Every user: money in the ledger = deposit + results − fees, as the order tables record them.
    for (const user of users) {
      const { rows: money } = await t.db.query<{ total: string | null }>(
        `SELECT sum(balance)::text AS total FROM ledger_account
         WHERE owner_type = 'user' AND owner_id = $1 AND book = 'live' AND currency_id = 3`,
        [user.userId],
      );
      const { rows: recorded } = await t.db.query<Record<string, string | null>>(
        `SELECT (SELECT sum(result) FROM fast_trade_order WHERE user_id = $1)::text AS fast_results,
           (SELECT -sum(fee) FROM fast_trade_order WHERE user_id = $1)::text AS fast_fees,
           (SELECT sum(realized_pnl) FROM contract_position WHERE user_id = $1 AND status = 2)::text AS results,
           (SELECT -sum(close_fee) FROM contract_position WHERE user_id = $1 AND status = 2)::text AS close_fees,
           (SELECT -sum(open_fee) FROM contract_position WHERE user_id = $1 AND status IN (1, 2))::text AS open_fees`,
        [user.userId],
      );
      let expected = sum([DEPOSIT, ...Object.values(recorded[0]!).map((part) => part ?? '0')]);
      if (spotReady) {
        const { rows: spot } = await t.db.query<Record<string, string | null>>(
          `SELECT (SELECT sum(realized_pnl) FROM spot_order WHERE user_id = $1 AND status = 1)::text AS results,
             (SELECT -sum(fee) FROM spot_order WHERE user_id = $1 AND status = 1)::text AS fees`,
          [user.userId],
        );
        expected = add(expected, sum(Object.values(spot[0]!).map((part) => part ?? '0')));
        const { rows: held } = await t.db.query(
          'SELECT * FROM holding WHERE user_id = $1 AND (quantity > 0 OR cost > 0)',
          [user.userId],
        );
        expect(held, JSON.stringify([...counts])).toEqual([]);
      }
      expect({ user: user.userId, money: normalize(money[0]!.total ?? '0') }).toEqual({
        user: user.userId,
        money: expected,
      });
    }
    // What users won and lost, the house lost and won, less the fees the platform kept.
    const { rows: platform } = await t.db.query<{ kind: string; balance: string }>(
      `SELECT kind, balance::text AS balance FROM ledger_account
       WHERE owner_type = 'platform' AND book = 'live' AND currency_id = 3 AND kind IN ('house', 'fees')`,
    );
    const userMoney = await t.db.query<{ total: string }>(
      `SELECT sum(balance)::text AS total FROM ledger_account
       WHERE owner_type = 'user' AND book = 'live' AND currency_id = 3`,
    );
    expect(sum([userMoney.rows[0]!.total, ...platform.map((row) => row.balance)])).toBe(
      normalize(mul(DEPOSIT, String(USERS))),
    );
  }, 600_000);
});
