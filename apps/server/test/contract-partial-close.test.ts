/**
 * Partial closes of contract positions (POST /api/contractPosition/close with `quantity`) with a
 * scripted feed: the part closed takes its share of the margin and of the open fee and moves as a
 * close of that size would (result, close fee, what returns), split off as a closed position of
 * its own; the rest stays open with its margin, a liquidation level computed again and its
 * take-profit and stop-loss still firing; refusals; a repeated or doubled request closes once; the
 * sums over a position and its parts are what the position paid. The ledger verifies after every
 * test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { add, closeAmounts, liquidationPrice, normalize } from '@bourse/shared';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import {
  call,
  createTestDatabase,
  deposit,
  onPostgres,
  GOOD_PASSWORD,
  registerUser,
  uniqueEmail,
  type TestApp,
  type TestDatabase,
} from './helpers';

const NOW = Date.parse('2026-11-18T15:00:00Z');
const USDT = 3;
/** BTCUSDT's fee rate each way and maintenance rate in the test catalogue. */
const FEE_RATE = '0.0005';
const MAINTENANCE = '0.005';

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let sequence = 0;
const requestId = () => `partial-${Date.now()}-${++sequence}`;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], 'partial-close'));
  await tick('100000.00', 0);
});
afterEach(async () => {
  await t.app.services.triggers!.idle();
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

async function tick(price: string, ms = 1000) {
  clock.advance(ms);
  const sent = feed.tick('BTCUSDT', price, clock.now().getTime());
  await t.app.services.triggers!.idle();
  return sent;
}

async function trader(amount = '1000') {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, amount);
  return user;
}

async function open(token: string, fields: Record<string, unknown> = {}) {
  const result = await call(t.app, 'POST', '/api/contractPosition/open', {
    token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      orderDirection: 1,
      leverage: 10,
      quantity: '0.03',
      requestId: requestId(),
      ...fields,
    },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as Record<string, any>;
}

function close(token: string, id: number, quantity?: string, request = requestId()) {
  return call(t.app, 'POST', '/api/contractPosition/close', {
    token,
    json: { id, requestId: request, ...(quantity === undefined ? {} : { quantity }) },
  });
}

async function detail(token: string, id: number) {
  const result = await call(t.app, 'GET', '/api/contractPosition/detail', {
    token,
    query: { id: String(id) },
  });
  return result.body.data as Record<string, any>;
}

async function available(userId: number): Promise<string> {
  const { rows } = await t.db.query<{ balance: string }>(
    `SELECT balance::text FROM ledger_account WHERE book = 'live' AND owner_type = 'user'
       AND owner_id = $1 AND currency_id = $2 AND kind = 'available'`,
    [userId, USDT],
  );
  return normalize(rows[0]?.balance ?? '0');
}

describe(`partial closes on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('closes a part with its share of margin and fee; the rest stays open with its levels', async () => {
    const user = await trader();
    await tick('100000.00');
    // 0.03 at 100,000 ×10: margin 300, open fee 1.5.
    const position = await open(user.token, { stopLoss: '95000.00' });
    expect(position).toMatchObject({ margin: '300.0000', openFee: '1.5000' });
    expect(await available(user.userId)).toBe('698.5');

    const exit = await tick('101000.00');
    const result = await close(user.token, position.id, '0.01');
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const part = result.body.data;
    const expected = closeAmounts(
      { direction: 1, entryPrice: '100000', quantity: '0.01', margin: '100' },
      '101000',
      FEE_RATE,
      4,
    );
    expect(part).toMatchObject({
      parentId: position.id,
      orderNo: `${position.orderNo}-1`,
      status: 2,
      closeReason: 1,
      quantity: '0.01',
      margin: '100.0000',
      openFee: '0.5000',
      entryPrice: '100000.00',
      exitPrice: '101000.00',
      realizedPnl: '10.0000',
      closeFee: '0.5050',
      exit: { price: '101000.00', time: exit.time, sequence: exit.sequence },
      openTime: position.openTime,
    });
    expect(part.id).not.toBe(position.id);
    // What returned: the part's margin with its result less its fee.
    expect(await available(user.userId)).toBe(normalize(add('698.5', expected.returned)));

    const rest = await detail(user.token, position.id);
    expect(rest).toMatchObject({
      status: 1,
      parentId: null,
      quantity: '0.02',
      margin: '200.0000',
      openFee: '1.0000',
      stopLoss: '95000.00',
      liquidationPrice: liquidationPrice(1, '100000', '0.02', '200', MAINTENANCE, 2),
    });
    // Both in the user's lists: the part among the closed, the rest among the open.
    const listed = await call(t.app, 'GET', '/api/contractPosition/list', {
      token: user.token,
      query: { status: '2' },
    });
    expect(listed.body.rows!.map((row: { id: number }) => row.id)).toContain(part.id);

    // A second part, then the stop-loss (still armed on the rest) closes what is left.
    await close(user.token, position.id, '0.005');
    expect((await detail(user.token, position.id)).quantity).toBe('0.015');
    await tick('94900.00');
    const stopped = await detail(user.token, position.id);
    expect(stopped).toMatchObject({
      status: 2,
      closeReason: 3,
      quantity: '0.015',
      margin: '150.0000',
      openFee: '0.7500',
    });
    // The position and its parts add up to what was opened and paid.
    const { rows } = await t.db.query<{ quantity: string; margin: string; open_fee: string }>(
      `SELECT sum(quantity)::text AS quantity, sum(margin)::text AS margin, sum(open_fee)::text AS open_fee
       FROM contract_position WHERE id = $1 OR parent_id = $1`,
      [position.id],
    );
    expect(rows[0]).toEqual({
      quantity: expect.stringMatching(/^0\.03(0*)$/),
      margin: expect.stringMatching(/^300(\.0*)?$/),
      open_fee: expect.stringMatching(/^1\.5(0*)$/),
    });
    const parts = await t.db.query<{ order_no: string }>(
      'SELECT order_no FROM contract_position WHERE parent_id = $1 ORDER BY id',
      [position.id],
    );
    expect(parts.rows.map((row) => row.order_no)).toEqual([
      `${position.orderNo}-1`,
      `${position.orderNo}-2`,
    ]);
  });

  it('keeps at least its share of margin and fee on the rest when they do not divide', async () => {
    const user = await trader();
    await tick('100003.00');
    // 0.0007 at 100,003 ×20: notional 70.0021, margin 3.500105 → 3.5002, fee 0.035001 → 0.0351.
    const position = await open(user.token, { quantity: '0.0007', leverage: 20 });
    expect(position).toMatchObject({ margin: '3.5002', openFee: '0.0351' });
    // Three sevenths of each, rounded down: 1.50008… → 1.5000 and 0.01504… → 0.0150.
    const part = (await close(user.token, position.id, '0.0003')).body.data;
    expect(part).toMatchObject({ quantity: '0.0003', margin: '1.5000', openFee: '0.0150' });
    expect(await detail(user.token, position.id)).toMatchObject({
      quantity: '0.0004',
      margin: '2.0002',
      openFee: '0.0201',
      liquidationPrice: liquidationPrice(1, '100003', '0.0004', '2.0002', MAINTENANCE, 2),
    });
  });

  it('refuses a quantity off the step or above the position, and closes all of it when equal', async () => {
    const user = await trader();
    await tick('100000.00');
    const position = await open(user.token);
    const before = await available(user.userId);
    const off = await close(user.token, position.id, '0.00005');
    expect(off.status).toBe(422);
    expect(JSON.stringify(off.body)).toContain('0.0001');
    const above = await close(user.token, position.id, '0.04');
    expect(above.status).toBe(422);
    expect(JSON.stringify(above.body)).toContain('0.03');
    expect(await available(user.userId)).toBe(before);
    // The whole quantity: an ordinary close of the position itself.
    const all = await close(user.token, position.id, '0.03');
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ id: position.id, parentId: null, status: 2 });
  });

  it('closes a part once for a repeated or doubled request', async () => {
    const user = await trader();
    await tick('100000.00');
    const position = await open(user.token);
    await tick('100500.00');
    const request = requestId();
    const first = await close(user.token, position.id, '0.01', request);
    expect(first.status).toBe(200);
    const again = await close(user.token, position.id, '0.01', request);
    expect(again.body.data).toEqual(first.body.data);
    const doubled = requestId();
    const both = await Promise.all([
      close(user.token, position.id, '0.01', doubled),
      close(user.token, position.id, '0.01', doubled),
    ]);
    expect(both.map((result) => result.status)).toEqual([200, 200]);
    expect(both[0]!.body.data.id).toBe(both[1]!.body.data.id);
    const rest = await detail(user.token, position.id);
    expect(rest.quantity).toBe('0.01');
    const { rows } = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM contract_position WHERE parent_id = $1',
      [position.id],
    );
    expect(rows[0]!.count).toBe(2);
    // The rest's result is computed on what is left.
    await tick('101000.00');
    expect(rest.margin).toBe('100.0000');
    const closed = (await close(user.token, position.id)).body.data;
    expect(closed).toMatchObject({ id: position.id, quantity: '0.01', realizedPnl: '10.0000' });
  });

  it("charges an inviter's commission base with the open fee once and each part's close fee", async () => {
    const inviter = await registerUser(t.app);
    const { rows: codes } = await t.db.query<{ invite_code: string }>(
      'SELECT invite_code FROM app_user WHERE id = $1',
      [inviter.userId],
    );
    const joined = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: {
        regType: '1',
        userAccount: uniqueEmail('invitee'),
        userPwd: GOOD_PASSWORD,
        inviteCode: codes[0]!.invite_code,
      },
      // Another browser than the inviter's (a self-referral is refused).
      headers: { 'user-agent': 'Invitee browser' },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const invitee = {
      token: joined.body.data.token as string,
      userId: joined.body.data.userInfo.id,
    };
    await deposit(t.db, invitee.userId, '1000');
    await tick('100000.00');
    const position = await open(invitee.token);
    await tick('101000.00');
    const part = (await close(invitee.token, position.id, '0.01')).body.data;
    const rest = (await close(invitee.token, position.id)).body.data;
    const { rows } = await t.db.query<{ source_type: string; source_id: string; fee: string }>(
      `SELECT source_type, source_id::text, fee::text FROM referral_fee_charge WHERE payer_id = $1
       ORDER BY source_type DESC, source_id`,
      [invitee.userId],
    );
    expect(rows.map((row) => ({ ...row, fee: normalize(row.fee) }))).toEqual([
      { source_type: 'contract_open', source_id: String(position.id), fee: '1.5' },
      {
        source_type: 'contract_close',
        source_id: String(position.id),
        fee: normalize(rest.closeFee),
      },
      { source_type: 'contract_close', source_id: String(part.id), fee: normalize(part.closeFee) },
    ]);
  });
});
