/**
 * Contracts with a scripted feed: long and short results, fees, take-profit, stop-loss,
 * liquidation at the crossing tick (the loss capped at the margin), limit entries that rest with
 * their margin frozen and fill when a tick reaches them, cancels, refusals, concurrent closes,
 * and triggers that survive a restart. The ledger verifies after every test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import type { Tick } from '../src/market/types';
import { add, closeAmounts, liquidationPrice, normalize } from '@bourse/shared';
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

const NOW = Date.parse('2026-11-18T15:00:00Z');
const USDT = 3;

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let sequence = 0;
const requestId = () => `contract-${Date.now()}-${++sequence}`;

async function startApp(): Promise<void> {
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], 'contracts'));
}

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  await startApp();
  tickAt('100000.00', 0);
});
afterEach(async () => {
  await t.app.services.triggers!.idle();
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

/** Moves the clock on, sends a tick stamped with the new time and lets the triggers see it. */
function tickAt(price: string, ms = 1000): Tick {
  clock.advance(ms);
  return feed.tick('BTCUSDT', price, clock.now().getTime());
}

async function tick(price: string, ms = 1000): Promise<Tick> {
  const sent = tickAt(price, ms);
  await t.app.services.triggers!.idle();
  return sent;
}

async function trader(amount = '1000') {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, amount);
  return user;
}

function open(
  token: string,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return call(t.app, 'POST', '/api/contractPosition/open', {
    token,
    headers,
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

function close(token: string, id: number, id2 = requestId()) {
  return call(t.app, 'POST', '/api/contractPosition/close', {
    token,
    json: { id, requestId: id2 },
  });
}

async function detail(token: string, id: number) {
  const result = await call(t.app, 'GET', '/api/contractPosition/detail', {
    token,
    query: { id: String(id) },
  });
  return result.body.data;
}

async function balance(token: string) {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token,
    query: { currencyId: String(USDT) },
  });
  return result.body.data as { amount: string; frozenAmount: string };
}

async function assets(token: string) {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalanceConvert', { token });
  return result.body.data;
}

describe('contract arithmetic', () => {
  it('puts the liquidation where equity meets the maintenance margin', () => {
    // 0.01 BTC at 100,000 with 10× leverage: margin 100, maintenance 1000 × 0.5 % = 5.
    expect(liquidationPrice(1, '100000', '0.01', '100', '0.005', 2)).toBe('90500.00');
    expect(liquidationPrice(2, '100000', '0.01', '100', '0.005', 2)).toBe('109500.00');
    // Rounded towards the entry, never past the exact level.
    expect(liquidationPrice(1, '100000', '0.03', '100.0001', '0.005', 2)).toBe('97166.67');
    expect(liquidationPrice(2, '100000', '0.03', '100.0001', '0.005', 2)).toBe('102833.33');
  });

  it('caps a loss at the margin and never takes a fee beyond what is left', () => {
    const row = { direction: 1, entryPrice: '100000', quantity: '0.01', margin: '10' };
    expect(closeAmounts(row, '98000', '0.0005', 4)).toEqual({
      result: '-10',
      fee: '0',
      returned: '0',
    });
    expect(closeAmounts(row, '99001', '0.0005', 4)).toEqual({
      result: '-9.99',
      fee: '0.01',
      returned: '0',
    });
  });
});

describe(`contracts on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('opens a long at the current tick with margin and fee, and closes it with the result', async () => {
    const user = await trader();
    const entry = await tick('100000.00');
    const opened = await open(user.token);
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({
      status: 1,
      orderDirection: 1,
      leverage: 10,
      quantity: '0.01',
      entryPrice: '100000.00',
      margin: '100.0000',
      openFee: '0.5000',
      liquidationPrice: '90500.00',
      entry: { price: '100000.00', time: entry.time, source: 'scripted', sequence: entry.sequence },
    });
    expect(await balance(user.token)).toMatchObject({ amount: '899.5000', frozenAmount: '0.0000' });
    await tick('100500.00');
    expect(await assets(user.token)).toMatchObject({
      allMarginAmount: '100.0000',
      profitAndLose: '5.0000',
      userBalanceConvert: '1004.5000',
    });
    const listed = await call(t.app, 'GET', '/api/contractPosition/list', {
      token: user.token,
      query: { status: '1' },
    });
    expect(listed.body.rows?.[0]).toMatchObject({
      markPrice: '100500.00',
      unrealizedPnl: '5.0000',
    });

    const exit = await tick('101000.00');
    const closed = await close(user.token, opened.body.data.id);
    expect(closed.body.data).toMatchObject({
      status: 2,
      closeReason: 1,
      exitPrice: '101000.00',
      realizedPnl: '10.0000',
      closeFee: '0.5050',
      exit: { price: '101000.00', time: exit.time, sequence: exit.sequence },
    });
    expect(await balance(user.token)).toMatchObject({ amount: '1008.9950' });
    expect(await assets(user.token)).toMatchObject({
      allMarginAmount: '0.0000',
      profitAndLose: '0.0000',
      userBalanceConvert: '1008.9950',
      profitAndLoseToday: '8.9950',
    });
  });

  it('answers an open, its close and a repeat in the language asked for', async () => {
    const user = await trader();
    await tick('100000.00');
    const request = { requestId: requestId() };
    const zh = { 'accept-language': 'zh-CN' };
    const opened = await open(user.token, request, zh);
    expect(opened.body.data).toMatchObject({ productName: '比特币' });
    const repeated = await open(user.token, request, { 'accept-language': 'ja' });
    expect(repeated.body.data).toMatchObject({
      id: opened.body.data.id,
      productName: 'ビットコイン',
    });
    const closed = await call(t.app, 'POST', '/api/contractPosition/close', {
      token: user.token,
      json: { id: opened.body.data.id, requestId: requestId() },
      headers: zh,
    });
    expect(closed.body.data).toMatchObject({ status: 2, productName: '比特币' });
  });

  it('sizes by margin, and a short gains when the price falls', async () => {
    const user = await trader();
    await tick('100000.00');
    const opened = await open(user.token, {
      orderDirection: 2,
      quantity: '',
      margin: '100.5',
      leverage: 10,
    });
    expect(opened.body.data).toMatchObject({
      quantity: '0.01',
      margin: '100.0000',
      liquidationPrice: '109500.00',
    });
    await tick('99000.00');
    const closed = await close(user.token, opened.body.data.id);
    expect(closed.body.data).toMatchObject({ realizedPnl: '10.0000', closeFee: '0.4950' });
    expect(await balance(user.token)).toMatchObject({ amount: '1009.0050' });
  });

  it('takes profit at the first tick that reaches it, at that tick', async () => {
    const user = await trader();
    await tick('100000.00');
    const opened = await open(user.token, {
      orderDirection: 2,
      takeProfit: '99000.00',
      stopLoss: '101000.00',
    });
    expect(opened.body.data).toMatchObject({ takeProfit: '99000.00', stopLoss: '101000.00' });
    await tick('99100.00');
    expect((await detail(user.token, opened.body.data.id)).status).toBe(1);
    const crossing = await tick('98990.00');
    expect(await detail(user.token, opened.body.data.id)).toMatchObject({
      status: 2,
      closeReason: 2,
      exitPrice: '98990.00',
      realizedPnl: '10.1000',
      closeFee: '0.4950',
      exit: { time: crossing.time, sequence: crossing.sequence },
    });
    expect(await balance(user.token)).toMatchObject({ amount: '1009.1050' });
  });

  it('stops the loss at the stop, and the stop can be moved or cleared', async () => {
    const user = await trader();
    await tick('100000.00');
    const opened = await open(user.token, { stopLoss: '99000.00' });
    const id = opened.body.data.id as number;
    const moved = await call(t.app, 'POST', '/api/contractPosition/updateTpSl', {
      token: user.token,
      json: { id, stopLoss: '99500.00', takeProfit: '' },
    });
    expect(moved.body.data).toMatchObject({ stopLoss: '99500.00', takeProfit: null });
    await tick('99600.00');
    expect((await detail(user.token, id)).status).toBe(1);
    await tick('99450.00');
    expect(await detail(user.token, id)).toMatchObject({
      status: 2,
      closeReason: 3,
      exitPrice: '99450.00',
      realizedPnl: '-5.5000',
    });
    // The old level does not fire again later.
    await tick('98900.00');
    expect((await detail(user.token, id)).closeReason).toBe(3);
  });

  it('liquidates at the tick that crosses the level, returning what is left', async () => {
    const user = await trader();
    await tick('100000.00');
    const opened = await open(user.token, { leverage: 100 });
    expect(opened.body.data).toMatchObject({ margin: '10.0000', liquidationPrice: '99500.00' });
    await tick('99600.00');
    expect((await detail(user.token, opened.body.data.id)).status).toBe(1);
    const crossing = await tick('99400.00');
    expect(await detail(user.token, opened.body.data.id)).toMatchObject({
      status: 2,
      closeReason: 4,
      exitPrice: '99400.00',
      realizedPnl: '-6.0000',
      closeFee: '0.4970',
      exit: { time: crossing.time, sequence: crossing.sequence },
    });
    // 1000 − 10 margin − 0.5 fee + (10 − 6 − 0.497) returned.
    expect(await balance(user.token)).toMatchObject({ amount: '993.0030' });
  });

  it('caps the loss at the margin when the price gaps through the liquidation', async () => {
    const user = await trader();
    await tick('100000.00');
    const opened = await open(user.token, { leverage: 100, orderDirection: 2 });
    await tick('102000.00');
    expect(await detail(user.token, opened.body.data.id)).toMatchObject({
      status: 2,
      closeReason: 4,
      realizedPnl: '-10.0000',
      closeFee: '0.0000',
    });
    expect(await balance(user.token)).toMatchObject({ amount: '989.5000', frozenAmount: '0.0000' });
  });

  it('rests a limit entry with margin and fee frozen and fills it at its limit', async () => {
    const user = await trader();
    await tick('100000.00');
    const placed = await open(user.token, { orderType: 2, price: '99000.00', takeProfit: '99500' });
    expect(placed.body.data).toMatchObject({
      status: 0,
      limitPrice: '99000.00',
      entryPrice: null,
      margin: '99.0000',
      openFee: '0.4950',
    });
    expect(await balance(user.token)).toMatchObject({
      amount: '900.5050',
      frozenAmount: '99.4950',
    });
    await tick('99100.00');
    expect((await detail(user.token, placed.body.data.id)).status).toBe(0);
    const crossing = await tick('98800.00');
    expect(await detail(user.token, placed.body.data.id)).toMatchObject({
      status: 1,
      entryPrice: '99000.00',
      liquidationPrice: '89595.00',
      entry: { price: '98800.00', time: crossing.time, sequence: crossing.sequence },
    });
    expect(await balance(user.token)).toMatchObject({ amount: '900.5050', frozenAmount: '0.0000' });
    expect((await assets(user.token)).allMarginAmount).toBe('99.0000');
    // Its take-profit counts from the fill on.
    await tick('99600.00');
    expect(await detail(user.token, placed.body.data.id)).toMatchObject({
      status: 2,
      closeReason: 2,
      realizedPnl: '6.0000',
    });
  });

  it('fills a limit that is already reached at once, at the current price', async () => {
    const user = await trader();
    await tick('100000.00');
    const placed = await open(user.token, { orderType: 2, price: '100100.00' });
    expect(placed.body.data).toMatchObject({ status: 1, entryPrice: '100000.00' });
  });

  it('cancels a resting entry and gives its margin and fee back at once', async () => {
    const user = await trader();
    await tick('100000.00');
    const placed = await open(user.token, { orderType: 2, price: '95000.00', orderDirection: 1 });
    const id = placed.body.data.id as number;
    const cancelled = await call(t.app, 'POST', '/api/contractPosition/cancel', {
      token: user.token,
      json: { id },
    });
    expect(cancelled.body.data).toMatchObject({ status: 3 });
    expect(await balance(user.token)).toMatchObject({
      amount: '1000.0000',
      frozenAmount: '0.0000',
    });
    const again = await call(t.app, 'POST', '/api/contractPosition/cancel', {
      token: user.token,
      json: { id },
    });
    // Cancelled already: nothing to do (hint_48), the entry as it is, nothing moved again.
    expect(again).toMatchObject({ status: 200, body: { msg: 'hint_48', data: { id, status: 3 } } });
    expect(await balance(user.token)).toMatchObject({ amount: '1000.0000' });
    // The cancelled level does not fill later.
    await tick('94000.00');
    expect((await detail(user.token, id)).status).toBe(3);
    await tick('100000.00');
  });

  it('refuses bad orders with a reason and moves nothing', async () => {
    const user = await trader('50');
    await tick('100000.00');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ leverage: 3 }, 422, 'hint_leverageUnavailable'],
      [{ quantity: '0.00015' }, 422, 'hint_quantityStep'],
      [{ quantity: '0' }, 400, 'hint_amount_sign'],
      [{ quantity: '-1' }, 400, 'hint_amount_sign'],
      [{ quantity: undefined }, 400, 'hint_quantityOrMargin'],
      [{ margin: '10' }, 400, 'hint_quantityOrMargin'],
      [{ quantity: undefined, margin: '0.5' }, 422, 'hint_orderTooSmall'],
      [{ orderType: 2 }, 400, 'hint_limitPriceRequired'],
      [{ orderType: 2, price: '99000.001' }, 422, 'hint_priceDecimals'],
      [{ takeProfit: '99000' }, 422, 'hint_takeProfitAbove'],
      [{ stopLoss: '100001' }, 422, 'hint_stopLossBelow'],
      [{ orderDirection: 2, takeProfit: '100001' }, 422, 'hint_takeProfitBelow'],
      [{ stopLoss: '90000' }, 422, 'hint_stopLossBeyondLiquidation'],
      [{ productCode: 'NOPE' }, 404, 'hint_productUnknown'],
      [{ quantity: '0.01' }, 422, 'hint_insufficientBalance'],
    ];
    for (const [fields, status, msg] of cases) {
      const result = await open(user.token, fields);
      expect({ fields, status: result.status, msg: result.body.msg }).toEqual({
        fields,
        status,
        msg,
      });
    }
    expect(await balance(user.token)).toMatchObject({ amount: '50.0000', frozenAmount: '0.0000' });
    const listed = await call(t.app, 'GET', '/api/contractPosition/list', { token: user.token });
    expect(listed.body.total).toBe(0);
  });

  it('writes opens that arrive together in one transaction, each with its own answer', async () => {
    const users = await Promise.all([trader(), trader(), trader(), trader()]);
    const poor = await trader('50');
    await tick('100000.00');
    /** The transactions that wrote positions (xmin). */
    const writers = async (ids: number[]) => {
      const { rows } = await t.db.query<{ tx: string }>(
        'SELECT xmin::text AS tx FROM contract_position WHERE id = ANY($1::bigint[])',
        [ids],
      );
      return new Set(rows.map((row) => row.tx));
    };

    // Four orders of the same moment: stored together, each position its own.
    const together = await Promise.all(users.map((user) => open(user.token)));
    expect(together.map((result) => result.status)).toEqual([200, 200, 200, 200]);
    const ids = together.map((result) => result.body.data.id as number);
    expect(new Set(ids).size).toBe(4);
    // Fewer transactions than orders: orders of one lane (by user id; one or two lanes) that
    // arrive together share a transaction.
    expect((await writers(ids)).size).toBeLessThanOrEqual(2);
    for (const user of users)
      expect(await balance(user.token)).toMatchObject({ amount: '899.5000' });

    // One refusal among them (too little money) and a double submission: the others are still
    // opened once each, the refused order moves nothing, the repeat gets the first answer.
    const repeat = requestId();
    const [a, b, refused, c, d] = await Promise.all([
      open(users[0]!.token, { requestId: repeat }),
      open(users[1]!.token),
      open(poor.token),
      open(users[0]!.token, { requestId: repeat }),
      open(users[2]!.token),
    ]);
    expect(refused).toMatchObject({ status: 422, body: { msg: 'hint_insufficientBalance' } });
    expect(await balance(poor.token)).toMatchObject({ amount: '50.0000', frozenAmount: '0.0000' });
    expect([a, b, c, d].map((result) => result.status)).toEqual([200, 200, 200, 200]);
    expect(c.body.data.id).toBe(a.body.data.id);
    expect(await balance(users[0]!.token)).toMatchObject({ amount: '799.0000' });
    expect(await balance(users[1]!.token)).toMatchObject({ amount: '799.0000' });
    expect(await balance(users[3]!.token)).toMatchObject({ amount: '899.5000' });

    // A resting limit entry and a market order of the same moment in one lane (users of the same
    // id parity): one transaction, the entry freezes its margin and fee, the market order posts
    // its own, and each ledger entry names its own position.
    const resting = users[3]!;
    const filling = users.find(
      (user) => user !== resting && user.userId % 2 === resting.userId % 2,
    )!;
    const filledBefore = await balance(filling.token);
    const [limit, market] = await Promise.all([
      open(resting.token, { orderType: 2, price: '99000.00' }),
      open(filling.token),
    ]);
    expect(limit.body.data).toMatchObject({ status: 0, margin: '99.0000', openFee: '0.4950' });
    expect(await balance(resting.token)).toMatchObject({
      amount: '800.0050',
      frozenAmount: '99.4950',
    });
    expect(market.body.data.status).toBe(1);
    expect(normalize((await balance(filling.token)).amount)).toBe(
      add(filledBefore.amount, '-100.5'),
    );
    const groupIds = [limit, market].map((result) => result.body.data.id as number);
    expect((await writers(groupIds)).size).toBe(1);
    const { rows: entries } = await t.db.query<{ ref_id: string; scope: string; lines: number }>(
      `SELECT e.ref_id, e.scope, count(p.*)::int AS lines FROM ledger_entry e
       JOIN ledger_posting p ON p.entry_id = e.id
       WHERE e.ref_type = 'contract' AND e.ref_id = ANY ($1::text[])
       GROUP BY e.id ORDER BY e.id`,
      [groupIds.map(String)],
    );
    // The hold's entry (available to frozen), then the market order's (margin and fee).
    expect(entries).toEqual([
      { ref_id: String(groupIds[0]), scope: `user:${resting.userId}`, lines: 2 },
      { ref_id: String(groupIds[1]), scope: `user:${filling.userId}`, lines: 3 },
    ]);
  });

  it('opens once per request id; closing twice or someone else’s position is refused', async () => {
    const user = await trader();
    const other = await trader();
    await tick('100000.00');
    const id = requestId();
    const [first, second] = await Promise.all([
      open(user.token, { requestId: id }),
      open(user.token, { requestId: id }),
    ]);
    expect(first.body.data.id).toBe(second.body.data.id);
    expect(await balance(user.token)).toMatchObject({ amount: '899.5000' });
    const changed = await open(user.token, { requestId: id, leverage: 20 });
    expect(changed).toMatchObject({ status: 409, body: { msg: 'hint_requestIdReused' } });

    const position = first.body.data.id as number;
    const theirs = await close(other.token, position);
    expect(theirs).toMatchObject({ status: 404, body: { msg: 'hint_positionNotFound' } });
    const closeId = requestId();
    expect((await close(user.token, position, closeId)).body.data.status).toBe(2);
    // The same close again is answered with its result; another close is refused.
    expect((await close(user.token, position, closeId)).body.data.status).toBe(2);
    expect(await close(user.token, position)).toMatchObject({
      status: 409,
      body: { msg: 'hint_positionNotOpen' },
    });
    expect(await balance(user.token)).toMatchObject({ amount: '999.0000' });
  });

  it('settles concurrent closes of one position once', async () => {
    const user = await trader();
    await tick('100000.00');
    const opened = await open(user.token);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => close(user.token, opened.body.data.id)),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(results.filter((result) => result.status === 409)).toHaveLength(4);
    expect(await balance(user.token)).toMatchObject({ amount: '999.0000' });
  });

  it('refuses orders on a halted product', async () => {
    const user = await trader();
    await t.db.query("UPDATE product SET is_lock = 1 WHERE product_code = 'BTCUSDT'");
    try {
      const refused = await open(user.token);
      expect(refused).toMatchObject({ status: 422, body: { msg: 'hint_productHalted' } });
    } finally {
      await t.db.query("UPDATE product SET is_lock = 0 WHERE product_code = 'BTCUSDT'");
    }
    expect(await balance(user.token)).toMatchObject({ amount: '1000.0000' });
  });

  it('trades the demo account in the demo book: live money and positions are apart', async () => {
    const user = await trader();
    await tick('100000.00');
    const live = await open(user.token);
    const demo = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    expect(demo.body.data.accountType).toBe(2);
    // The demo account starts with its 100,000 virtual USDT and none of the live position.
    expect(await balance(user.token)).toMatchObject({ amount: '100000.0000' });
    const none = await call(t.app, 'GET', '/api/contractPosition/list', { token: user.token });
    expect(none.body.total).toBe(0);
    const closeLive = await close(user.token, live.body.data.id);
    expect(closeLive).toMatchObject({ status: 404, body: { msg: 'hint_positionNotFound' } });
    const practice = await open(user.token, { leverage: 20 });
    expect(practice.body.data).toMatchObject({ status: 1, margin: '50.0000' });
    expect(await balance(user.token)).toMatchObject({ amount: '99949.5000' });
    await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '0' },
    });
    expect(await balance(user.token)).toMatchObject({ amount: '899.5000' });
    const mine = await call(t.app, 'GET', '/api/contractPosition/list', { token: user.token });
    expect(mine.body.rows?.map((row: { id: number }) => row.id)).toEqual([live.body.data.id]);
  });

  /**
   * A long with a stop at 99,000 this instance does not know, as if set through another instance
   * that stopped before firing it.
   */
  async function unknownStop() {
    const user = await trader();
    await tick('100000.00');
    const id = (await open(user.token, { stopLoss: '99000.00' })).body.data.id as number;
    const triggers = t.app.services.triggers!;
    triggers.remove(`contract:${id}:sl`);
    return { user, id, triggers };
  }

  it('fires a level learnt late (set through an instance that stopped) at the logged tick that reached it', async () => {
    // The price goes through the unknown stop and back.
    const { user, id, triggers } = await unknownStop();
    const through = await tick('98900.00');
    await tick('98950.00');
    await tick('99500.00');
    expect((await detail(user.token, id)).status).toBe(1);
    expect(await triggers.refresh()).toBe(1);
    expect(await detail(user.token, id)).toMatchObject({
      status: 2,
      closeReason: 3,
      exitPrice: '98900.00',
      exit: { time: through.time, sequence: through.sequence },
    });
    // Learnt again on the next refresh it is not: the position no longer rests.
    expect(await triggers.refresh()).toBe(0);
  });

  it('finds in the tick log a crossing older than the ticks kept in memory', async () => {
    const { user, id, triggers } = await unknownStop();
    // A tick another instance logged, then over a minute of ticks that stay above the stop.
    const { rows } = await database.db.query<{ id: number }>(
      "SELECT id FROM product WHERE product_code = 'BTCUSDT'",
    );
    const at = clock.now().getTime() + 500;
    await database.db.query(
      `INSERT INTO market_tick (product_id, tick_time, sequence, price, source)
       VALUES ($1, $2, 900101, '98700.00', 'scripted')`,
      [rows[0]!.id, at],
    );
    await tick('99800.00');
    await tick('99900.00', 61_000);
    expect(await triggers.refresh()).toBe(1);
    expect(await detail(user.token, id)).toMatchObject({
      status: 2,
      closeReason: 3,
      exitPrice: '98700.00',
      exit: { time: at, sequence: 900101 },
    });
  });

  it('fires resting levels after a restart, also from ticks logged while it was starting', async () => {
    const user = await trader();
    await tick('100000.00');
    const entry = await open(user.token, { orderType: 2, price: '98000.00' });
    const stopped = await open(user.token, { stopLoss: '99000.00' });
    await t.close();
    // Ticks stored by another instance while this one was stopped: the second crosses the stop.
    const { rows } = await database.db.query<{ id: number }>(
      "SELECT id FROM product WHERE product_code = 'BTCUSDT'",
    );
    const at = clock.now().getTime();
    await database.db.query(
      `INSERT INTO market_tick (product_id, tick_time, sequence, price, source)
       VALUES ($1, $2, 900001, '99500.00', 'scripted'), ($1, $3, 900002, '98900.00', 'scripted')`,
      [rows[0]!.id, at + 500, at + 900],
    );
    clock.advance(2000);
    await startApp();
    expect(await detail(user.token, stopped.body.data.id)).toMatchObject({
      status: 2,
      closeReason: 3,
      exitPrice: '98900.00',
      exit: { sequence: 900002, time: at + 900 },
    });
    expect((await detail(user.token, entry.body.data.id)).status).toBe(0);
    // The resting entry fills from the live feed of the new instance.
    await tick('97900.00');
    expect(await detail(user.token, entry.body.data.id)).toMatchObject({
      status: 1,
      entryPrice: '98000.00',
    });
    await tick('100000.00');
  });
});
