/**
 * New shares and new coins (newSharesApi, consoleNewSharesApi, the worker): subscribing freezes
 * exactly the cost and fee of the lots asked, once per request id, only while the window is open,
 * within the lots per user, at the identity level needed, with the live account; changing and
 * cancelling replace or release the hold. The worker allocates an oversubscribed book exactly as
 * the published rule (`allocate`) does from the published book, captures the cost of the lots
 * allocated to the house and the fee account and releases the rest to the unit, once however often
 * it runs, and a crash in the middle leaves nothing half-written. No operator call changes an
 * allocation; a cancel before it releases every hold. Listing creates the product at the offer
 * price and the holdings, locked: a spot sell of them is refused until the lock-up ends and
 * accepted after. The console's calls are for finance and admins, and audited. The ledger verifies
 * after every test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ORDER_TYPE,
  PRODUCT_TYPE,
  allocate,
  bookOf,
  mul,
  normalize,
  sub,
  subscriptionCost,
  sum,
  toScale,
} from '@bourse/shared';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { ManualClock } from '../src/lib/clock';
import { userBalances as ledgerBalances } from '../src/ledger/ledger';
import { verifyLedger } from '../src/ledger/verify';
import { isSessionOpen } from '../src/market/sessions';
import { NewSharesWorker } from '../src/modules/new-shares';
import type { NoticeWriter } from '../src/modules/messages';
import { adminApiCall, operatorReady } from './support/admin-api';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
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

/** A Wednesday, 10:00 in New York. */
const NOW = Date.parse('2026-11-18T15:00:00Z');
const USDT = 3;
/** USDT's decimals in the seeded catalogue. */
const SCALE = 4;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PASSWORD = 'steady orchard lamp';

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let dir: string;
let adminPassword: string;
const tokens = { admin: '', finance: '', support: '' };
let sequence = 0;
const requestId = () => `shares-${Date.now()}-${++sequence}`;
let codes = 0;
/** A code no product or offering has yet. */
const newCode = (prefix = 'NEW') => `${prefix}${String(++codes).padStart(3, '0')}`;

async function signInOperators() {
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, adminPassword);
  tokens.finance = await operatorReady(t.app, 'shares-finance', PASSWORD);
  tokens.support = await operatorReady(t.app, 'shares-support', PASSWORD);
}

const consoleCall = (method: 'GET' | 'POST', url: string, token: string, input?: unknown) =>
  method === 'GET'
    ? adminApiCall(t.app, method, `/new-shares${url}`, {
        token,
        query: input as Record<string, string>,
      })
    : adminApiCall(t.app, method, `/new-shares${url}`, { token, json: input });

interface Offering {
  id: number;
  code: string;
  price: string;
  lotSize: string;
  feeRate: string;
  lotsOffered: string;
  subscribeStart: string;
  subscribeEnd: string;
  allocationTime: string;
  listingTime: string;
  status: number;
}

/**
 * An offering saved by finance, its window opening in an hour for an hour, its allocation an hour
 * after it closes and its listing an hour after that (times from the clock).
 */
async function offering(fields: Record<string, unknown> = {}): Promise<Offering> {
  const at = (hours: number) => new Date(clock.now().getTime() + hours * HOUR_MS).toISOString();
  const saved = await consoleCall('POST', '/offerings/save', tokens.finance, {
    productType: PRODUCT_TYPE.usStock,
    code: newCode(),
    name: { en: 'Harbor Robotics', fr: 'Robotique du Port' },
    description: { en: 'Warehouse robots.' },
    price: '12.34',
    lotSize: '100',
    lotsOffered: '1000',
    minLots: '1',
    maxLots: '50',
    feeRate: '0.001',
    subscribeStart: at(1),
    subscribeEnd: at(2),
    allocationTime: at(3),
    listingTime: at(4),
    lockUpDays: 1,
    minAuthLevel: -1,
    ...fields,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body.data as Offering;
}

/** Moves the clock to a time of an offering (plus `ms`) and runs what is due. */
async function moveTo(time: string, ms = 0) {
  const target = Date.parse(time) + ms;
  if (target > clock.now().getTime()) clock.set(new Date(target));
  return t.app.services.newSharesWorker.runDue();
}

/** A live user with funds and the basic identity level (the newShares feature needs it). */
async function investor(amount = '100000') {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, amount);
  await t.db.query('UPDATE app_user SET auth_level = 0 WHERE id = $1', [user.userId]);
  return user;
}

/** A new session of a user (sessions end after a day without calls). */
async function signIn(email: string): Promise<string> {
  const login = await call(t.app, 'POST', '/api/userInfo/login', {
    form: { userAccount: email, userPwd: GOOD_PASSWORD },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return login.body.data.token as string;
}

function subscribe(token: string, offeringId: number, lots: string, id = requestId()) {
  return call(t.app, 'POST', '/api/userApplyPurchaseOrder/addUserApplyPurchaseOrder', {
    token,
    form: { offeringId: String(offeringId), lots, requestId: id },
  });
}

async function subscribed(token: string, offeringId: number, lots: string) {
  const result = await subscribe(token, offeringId, lots);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as Record<string, any>;
}

const change = (token: string, id: number, lots: string, request = requestId()) =>
  call(t.app, 'POST', '/api/userApplyPurchaseOrder/update', {
    token,
    form: { id: String(id), lots, requestId: request },
  });

const cancel = (token: string, id: number, request = requestId()) =>
  call(t.app, 'POST', '/api/userApplyPurchaseOrder/cancel', {
    token,
    form: { id: String(id), requestId: request },
  });

async function balance(userId: number, kind = 'available', book = 'live'): Promise<string> {
  const { rows } = await t.db.query<{ balance: string }>(
    `SELECT balance::text FROM ledger_account WHERE book = $1 AND owner_type = 'user'
       AND owner_id = $2 AND currency_id = $3 AND kind = $4`,
    [book, userId, USDT, kind],
  );
  return rows[0] ? normalize(rows[0].balance) : '0';
}

/** A platform account of the live book in USDT, all its shards. */
async function platform(kind: 'house' | 'fees'): Promise<string> {
  const { rows } = await t.db.query<{ balance: string | null }>(
    `SELECT sum(balance)::text AS balance FROM ledger_account WHERE book = 'live'
       AND owner_type = 'platform' AND currency_id = $1 AND kind = $2`,
    [USDT, kind],
  );
  return normalize(rows[0]?.balance ?? '0');
}

const costOf = (offered: Offering, lots: bigint | string) =>
  subscriptionCost(
    { price: offered.price, lotSize: offered.lotSize, feeRate: offered.feeRate },
    lots,
    SCALE,
  );

async function subscriptionsOf(token: string) {
  const list = await call(t.app, 'GET', '/api/userApplyPurchaseOrder/list', {
    token,
    query: { pageSize: '100' },
  });
  expect(list.status).toBe(200);
  return list.body.rows as Record<string, any>[];
}

async function notificationsOf(userId: number) {
  const { rows } = await t.db.query<{ type: string; params: string[] }>(
    'SELECT type, params FROM user_notification WHERE user_id = $1 ORDER BY id',
    [userId],
  );
  return rows;
}

/**
 * Every open subscription's hold is pending with exactly what it froze, every other one's hold is
 * closed, and each user's frozen balance is exactly their pending holds.
 */
async function holdsMatchSubscriptions() {
  const { rows } = await t.db.query<{ id: number; status: number; frozen: string; hold: string }>(
    `SELECT s.id, s.status, s.frozen::text AS frozen,
       CASE WHEN h.status = 'pending' THEN h.remaining ELSE 0 END::text AS hold
     FROM new_share_subscription s JOIN ledger_hold h ON h.id = s.hold_id`,
  );
  for (const row of rows)
    expect(normalize(row.hold), `subscription ${row.id}`).toBe(
      row.status === 0 ? normalize(row.frozen) : '0',
    );
  const { rows: users } = await t.db.query<{ frozen: string; held: string }>(
    `SELECT a.balance::text AS frozen,
       (SELECT coalesce(sum(h.remaining), 0) FROM ledger_hold h WHERE h.user_id = a.owner_id
          AND h.book = a.book AND h.currency_id = a.currency_id AND h.status = 'pending')::text AS held
     FROM ledger_account a WHERE a.owner_type = 'user' AND a.kind = 'frozen'`,
  );
  for (const row of users) expect(normalize(row.frozen)).toBe(normalize(row.held));
}

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT', 'AAPL'], 'new-shares'));
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-new-shares-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, clock);
  adminPassword = seeded.password!;
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, adminPassword);
  for (const role of ['support', 'finance'] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `shares-${role}`, password: PASSWORD, roles: [role] },
    });
    expect(created.status).toBe(200);
  }
  await signInOperators();
});

/**
 * Each test starts a week after the last one, with everything of the earlier tests' offerings
 * done (allocated, listed): what the worker does in a test is then only the test's own.
 */
beforeEach(async () => {
  clock.advance(7 * DAY_MS);
  await t.app.services.newSharesWorker.runDue();
  // Operator sessions end after 8 idle hours.
  await signInOperators();
});

afterEach(async () => {
  await t.app.services.triggers!.idle();
  expect((await verifyLedger(database.db)).problems).toEqual([]);
  await holdsMatchSubscriptions();
});

afterAll(async () => {
  await t.close();
  await database.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('subscribing', () => {
  it('freezes exactly the cost and fee of the lots asked, once per request id, while the window is open', async () => {
    const offered = await offering();
    const user = await investor();
    expect(await subscribe(user.token, offered.id, '3')).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareNotOpen' },
    });
    await moveTo(offered.subscribeStart);

    const id = requestId();
    const first = await subscribe(user.token, offered.id, '3', id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const cost = costOf(offered, 3n);
    // 3 lots × 100 × 12.34 = 3702; fee 0.1% = 3.702 → 3.7020.
    expect(cost).toEqual({
      quantity: '300',
      amount: '3702.0000',
      fee: '3.7020',
      total: '3705.7020',
    });
    expect(first.body.data).toMatchObject({
      offeringId: offered.id,
      lots: '3',
      frozen: cost.total,
      status: 0,
      offeringStatus: 1,
      allocatedLots: null,
      lockedUntil: null,
      sellable: false,
    });
    expect(first.body.data.publicId).toMatch(/^[0-9a-f]{16}$/);
    expect(await balance(user.userId)).toBe(sub('100000', cost.total));
    expect(await balance(user.userId, 'frozen')).toBe(normalize(cost.total));

    // The same request again: the same subscription, nothing moved twice.
    const again = await subscribe(user.token, offered.id, '3', id);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await balance(user.userId)).toBe(sub('100000', cost.total));
    // The same id for another request is refused.
    expect(await subscribe(user.token, offered.id, '4', id)).toMatchObject({
      status: 409,
      body: { msg: 'hint_requestIdReused' },
    });
    // One subscription per user and offering.
    expect(await subscribe(user.token, offered.id, '2')).toMatchObject({
      status: 409,
      body: { msg: 'hint_newShareAlreadySubscribed' },
    });

    // The offering shows the book and the user's subscription.
    const detail = await call(t.app, 'GET', '/api/newProductApplyPurchase/detail', {
      token: user.token,
      query: { id: String(offered.id) },
      headers: { 'Accept-Language': 'fr' },
    });
    expect(detail.body.data).toMatchObject({
      name: 'Robotique du Port',
      status: 1,
      subscribers: 1,
      lotsRequested: '3',
      quantityOffered: '100000',
      mySubscriptionId: first.body.data.id,
      minAuthLevel: 0,
    });
    const listed = await call(t.app, 'GET', '/api/newProductApplyPurchase/list', {
      query: { tab: 'open', productType: '1', pageSize: '100' },
    });
    expect((listed.body.rows as { id: number }[]).map((row) => row.id)).toContain(offered.id);

    // The records list the freeze under new shares.
    const records = await call(t.app, 'GET', '/api/balanceRecord/list', {
      token: user.token,
      query: { type: 'newShares' },
    });
    expect(records.status).toBe(200);
    expect(records.body.rows!.map((row: { entryType: string }) => row.entryType)).toEqual([
      'hold:new_share',
      'hold:new_share',
    ]);
  });

  it('changes the lots (the hold replaced) and cancels (released) while the window is open', async () => {
    const offered = await offering({ price: '0.07', lotSize: '3', feeRate: '0.0015' });
    const poor = await offering({ price: '100', lotSize: '1', maxLots: '100', minLots: '2' });
    const user = await investor('500');
    await moveTo(offered.subscribeStart);
    const made = await subscribed(user.token, offered.id, '10');
    const ten = costOf(offered, 10n);
    // 10 × 3 × 0.07 = 2.1; fee 0.00315 rounded up to 0.0032.
    expect(ten.total).toBe('2.1032');
    expect(await balance(user.userId)).toBe(sub('500', ten.total));

    const id = requestId();
    const changed = await change(user.token, made.id, '40', id);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const forty = costOf(offered, 40n);
    expect(changed.body.data).toMatchObject({ lots: '40', frozen: forty.total });
    expect(await balance(user.userId)).toBe(sub('500', forty.total));
    expect(await balance(user.userId, 'frozen')).toBe(normalize(forty.total));
    expect((await change(user.token, made.id, '40', id)).status).toBe(200);
    expect(await balance(user.userId)).toBe(sub('500', forty.total));

    // Outside the lots per user, or beyond the balance: refused, nothing changed.
    expect(await change(user.token, made.id, '51')).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareLotsMax', params: ['50'] },
    });
    expect(await subscribe(user.token, poor.id, '1')).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareLotsMin', params: ['2'] },
    });
    expect(await subscribe(user.token, poor.id, '5')).toMatchObject({
      status: 422,
      body: { msg: 'hint_insufficientBalance' },
    });
    expect(await balance(user.userId)).toBe(sub('500', forty.total));

    // Someone else's subscription is not found.
    const other = await investor();
    expect(await cancel(other.token, made.id)).toMatchObject({
      status: 404,
      body: { msg: 'hint_notFound' },
    });

    const cancelled = await cancel(user.token, made.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 3 });
    expect(await balance(user.userId)).toBe('500');
    expect(await balance(user.userId, 'frozen')).toBe('0');
    // Cancelled already: nothing to do.
    expect((await cancel(user.token, made.id)).body.msg).toBe('hint_48');
    // A new subscription after a cancel.
    const second = await subscribed(user.token, offered.id, '2');
    expect(second.id).not.toBe(made.id);

    // After the window: no change, no cancel.
    await moveTo(offered.subscribeEnd);
    expect(await change(user.token, second.id, '3')).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareNotOpen' },
    });
    expect(await cancel(user.token, second.id)).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareNotOpen' },
    });
    expect(await subscribe(other.token, offered.id, '1')).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareNotOpen' },
    });
    // Every freeze, change and cancel is in the records under new shares.
    const records = await call(t.app, 'GET', '/api/balanceRecord/list', {
      token: user.token,
      query: { type: 'newShares', pageSize: '100' },
    });
    expect(new Set(records.body.rows!.map((row: { entryType: string }) => row.entryType))).toEqual(
      new Set(['hold:new_share', 'change:new_share', 'cancel:new_share']),
    );
  });

  it('refuses the demo account and a user below the identity level needed', async () => {
    const offered = await offering({ minAuthLevel: 1 });
    const plain = await offering();
    await moveTo(offered.subscribeStart);
    const user = await investor();

    // The offering asks for the advanced level (1): the user has the basic one.
    expect(await subscribe(user.token, offered.id, '1')).toMatchObject({
      status: 403,
      body: { code: 500, msg: 'hint_identityRequired', params: [2] },
    });
    // The newShares feature asks for the basic level of every offering.
    const unverified = await registerUser(t.app);
    await deposit(t.db, unverified.userId, '1000');
    expect(await subscribe(unverified.token, plain.id, '1')).toMatchObject({
      status: 403,
      body: { msg: 'hint_identityRequired', params: [1] },
    });
    await t.db.query('UPDATE app_user SET auth_level = 1 WHERE id = $1', [user.userId]);
    expect((await subscribe(user.token, offered.id, '1')).status).toBe(200);

    // A demo session is refused, even with virtual funds.
    const switched = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    expect(switched.body.data.accountType).toBe(2);
    expect(await subscribe(user.token, plain.id, '1')).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareLiveOnly' },
    });
    expect(await balance(user.userId, 'frozen', 'demo')).toBe('0');
    await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '0' },
    });
  });
});

describe('the allocation', () => {
  it('allocates an oversubscribed book by the published rule: paid to the house and fees, the rest back to the unit', async () => {
    const offered = await offering({
      price: '3.33',
      lotSize: '7',
      feeRate: '0.0015',
      lotsOffered: '10',
      maxLots: '10',
    });
    await moveTo(offered.subscribeStart);
    const asks = ['1', '4', '7', '10', '3'];
    const users = await Promise.all(asks.map(() => investor('1000')));
    const made: Record<string, any>[] = [];
    for (const [index, user] of users.entries())
      made.push(await subscribed(user.token, offered.id, asks[index]!));
    // One more subscribes and cancels: not in the book.
    const leaver = await investor('1000');
    const left = await subscribed(leaver.token, offered.id, '5');
    expect((await cancel(leaver.token, left.id)).status).toBe(200);

    // Closed but not yet allocated: no allocation to show.
    await moveTo(offered.subscribeEnd);
    expect(
      await call(t.app, 'GET', '/api/newProductApplyPurchase/allocation', {
        query: { id: String(offered.id) },
      }),
    ).toMatchObject({ status: 422, body: { msg: 'hint_newShareNotAllocated' } });
    const house = await platform('house');
    const fees = await platform('fees');

    expect(await moveTo(offered.allocationTime)).toEqual({ allocated: 1, listed: 0, unlocked: 0 });

    const published = await call(t.app, 'GET', '/api/newProductApplyPurchase/allocation', {
      token: users[1]!.token,
      query: { id: String(offered.id) },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const proof = published.body.data as Record<string, any>;
    // The published book is the subscriptions at close, and recomputing it gives the same bytes.
    expect(
      [...proof.lines].map((line: { id: string; lots: string }) => [line.id, line.lots]).sort(),
    ).toEqual(made.map((row) => [row.publicId, row.lots]).sort());
    const again = allocate({
      offeringId: offered.id,
      lotsOffered: 10n,
      book: bookOf(proof.lines),
    });
    expect(proof).toMatchObject({
      rule: 'bourse-ipo-1',
      input: again.input,
      seed: again.seed,
      result: again.result,
      lotsOffered: '10',
      lotsRequested: '25',
      lotsAllocated: '10',
      oversubscribed: true,
      mySubscriptionIds: [made[1]!.publicId],
    });
    expect(proof.lines).toEqual(
      again.lines.map((line) => ({
        id: line.id,
        lots: String(line.lots),
        allocated: String(line.allocated),
      })),
    );
    // Signed out: no line named.
    const anonymous = await call(t.app, 'GET', '/api/newProductApplyPurchase/allocation', {
      query: { id: String(offered.id) },
    });
    expect(anonymous.body.data.mySubscriptionIds).toEqual([]);

    // Each paid the cost of the lots allocated and got the rest back, to the unit.
    const lotsOf = new Map(again.lines.map((line) => [line.id, line.allocated]));
    let amounts = '0';
    let feesPaid = '0';
    for (const [index, user] of users.entries()) {
      const allocated = lotsOf.get(made[index]!.publicId)!;
      const frozen = costOf(offered, BigInt(asks[index]!)).total;
      const cost = allocated > 0n ? costOf(offered, allocated) : undefined;
      const paid = cost?.total ?? '0.0000';
      amounts = sum([amounts, cost?.amount ?? '0']);
      feesPaid = sum([feesPaid, cost?.fee ?? '0']);
      expect(await balance(user.userId)).toBe(sub('1000', paid));
      expect(await balance(user.userId, 'frozen')).toBe('0');
      const [row] = await subscriptionsOf(user.token);
      expect(row).toMatchObject({
        status: allocated > 0n ? 1 : 2,
        allocatedLots: String(allocated),
        allocatedQuantity: normalize(mul(String(allocated), '7')),
        paid,
        refunded: toScale(sub(frozen, paid), SCALE),
        offeringStatus: 3,
        lockedUntil:
          allocated > 0n ? new Date(Date.parse(offered.listingTime) + DAY_MS).toISOString() : null,
        sellable: false,
      });
      const types = (await notificationsOf(user.userId)).map((notice) => notice.type);
      expect(types).toEqual([allocated > 0n ? 'newShareAllocated' : 'newShareRefunded']);
    }
    // Oversubscribed with as many lots as subscribers twice over: everyone got one at least.
    expect([...lotsOf.values()].every((lots) => lots >= 1n)).toBe(true);
    expect(await platform('house')).toBe(sum([house, amounts]));
    expect(await platform('fees')).toBe(sum([fees, feesPaid]));
    expect(await balance(leaver.userId)).toBe('1000');

    // Run again: nothing more happens.
    const { rows: before } = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM ledger_entry',
    );
    expect(await t.app.services.newSharesWorker.runDue()).toEqual({
      allocated: 0,
      listed: 0,
      unlocked: 0,
    });
    const { rows: after } = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM ledger_entry',
    );
    expect(after[0]!.count).toBe(before[0]!.count);

    // No operator call changes it: the console shows the same, cancelling and editing are refused.
    const shown = await consoleCall('GET', '/allocation', tokens.finance, {
      id: String(offered.id),
    });
    expect(shown.body.data).toMatchObject({ seed: again.seed, result: again.result });
    expect(
      await consoleCall('POST', '/offerings/cancel', tokens.admin, {
        id: offered.id,
        reason: 'Too late',
      }),
    ).toMatchObject({ status: 409, body: { msg: 'hint_newShareAllocated' } });
    const later = (hours: number) =>
      new Date(clock.now().getTime() + hours * HOUR_MS).toISOString();
    expect(
      await consoleCall('POST', '/offerings/save', tokens.finance, {
        id: offered.id,
        productType: 1,
        code: offered.code,
        name: { en: 'Changed' },
        price: '1',
        lotSize: '7',
        lotsOffered: '10',
        minLots: '1',
        maxLots: '10',
        subscribeStart: later(1),
        subscribeEnd: later(2),
        allocationTime: later(3),
        listingTime: later(4),
        lockUpDays: 0,
        minAuthLevel: -1,
      }),
    ).toMatchObject({ status: 409, body: { msg: 'hint_newShareStarted' } });
    expect((await t.app.services.newSharesWorker.runDue()).allocated).toBe(0);
    const { rows: stored } = await t.db.query<{ seed: string; result: string }>(
      'SELECT allocation_seed AS seed, allocation_result AS result FROM new_share_offering WHERE id = $1',
      [offered.id],
    );
    expect(stored[0]).toEqual({ seed: again.seed, result: again.result });
  });

  it('gives every lot asked when not oversubscribed, and allocates an empty book', async () => {
    const offered = await offering({ lotsOffered: '100', maxLots: '100' });
    const empty = await offering();
    await moveTo(offered.subscribeStart);
    const user = await investor();
    await subscribed(user.token, offered.id, '60');
    await moveTo(offered.allocationTime);
    const [row] = await subscriptionsOf(user.token);
    const cost = costOf(offered, 60n);
    expect(row).toMatchObject({
      status: 1,
      allocatedLots: '60',
      paid: cost.total,
      refunded: '0.0000',
    });
    expect(await balance(user.userId)).toBe(sub('100000', cost.total));
    const proof = await call(t.app, 'GET', '/api/newProductApplyPurchase/allocation', {
      query: { id: String(empty.id) },
    });
    expect(proof.body.data).toMatchObject({
      lines: [],
      result: '',
      lotsRequested: '0',
      lotsAllocated: '0',
      oversubscribed: false,
    });
  });

  it('rolls a crash in the middle back whole, and allocates once however often it runs', async () => {
    const offered = await offering({ lotsOffered: '5', maxLots: '5' });
    await moveTo(offered.subscribeStart);
    const users = await Promise.all([investor('5000'), investor('5000'), investor('5000')]);
    for (const user of users) await subscribed(user.token, offered.id, '4');
    await moveTo(offered.subscribeEnd);
    clock.set(new Date(Date.parse(offered.allocationTime)));

    // The notifications are the last writes of the allocation's transaction: it fails there.
    const failing: NoticeWriter = {
      record: async () => {
        throw new Error('the machine stops here');
      },
      push: () => undefined,
      emit: () => undefined,
    };
    const crashing = new NewSharesWorker({ db: t.db, clock, notices: failing });
    expect(await crashing.runDue()).toEqual({ allocated: 0, listed: 0, unlocked: 0 });
    const { rows: offerings } = await t.db.query<{ status: number; seed: string | null }>(
      'SELECT status, allocation_seed AS seed FROM new_share_offering WHERE id = $1',
      [offered.id],
    );
    expect(offerings[0]).toEqual({ status: 2, seed: null });
    for (const user of users) {
      expect(await balance(user.userId, 'frozen')).toBe(normalize(costOf(offered, 4n).total));
      expect((await subscriptionsOf(user.token))[0]).toMatchObject({ status: 0, paid: null });
    }

    // Two workers at once (two instances): allocated once.
    const other = new NewSharesWorker({ db: t.db, clock });
    const runs = await Promise.all([t.app.services.newSharesWorker.runDue(), other.runDue()]);
    expect(runs.reduce((total, run) => total + run.allocated, 0)).toBe(1);
    const paid = await Promise.all(users.map((user) => balance(user.userId)));
    const spent = paid.map((left) => sub('5000', left));
    expect(sum(spent)).toBe(
      sum(
        (await Promise.all(users.map((user) => subscriptionsOf(user.token)))).map(
          ([row]) => row!.paid as string,
        ),
      ),
    );
    expect(await other.runDue()).toEqual({ allocated: 0, listed: 0, unlocked: 0 });
  });
});

describe('cancelling an offering', () => {
  it('releases every hold before the allocation, notifies and audits; refused after it', async () => {
    const offered = await offering();
    await moveTo(offered.subscribeStart);
    const users = [await investor('50000'), await investor('50000')];
    const made = [
      await subscribed(users[0]!.token, offered.id, '2'),
      await subscribed(users[1]!.token, offered.id, '7'),
    ];
    // Support may not cancel.
    expect(
      (
        await consoleCall('POST', '/offerings/cancel', tokens.support, {
          id: offered.id,
          reason: 'No',
        })
      ).status,
    ).toBe(403);
    const cancelled = await consoleCall('POST', '/offerings/cancel', tokens.finance, {
      id: offered.id,
      reason: 'The issuer withdrew.',
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: 5,
      cancelReason: 'The issuer withdrew.',
      frozen: '0.0000',
    });
    for (const [index, user] of users.entries()) {
      expect(await balance(user.userId)).toBe('50000');
      expect(await balance(user.userId, 'frozen')).toBe('0');
      expect((await subscriptionsOf(user.token))[0]).toMatchObject({
        id: made[index]!.id,
        status: 3,
        offeringStatus: 5,
      });
      const notices = await notificationsOf(user.userId);
      expect(notices).toEqual([
        {
          type: 'newShareCancelled',
          params: [
            offered.code,
            costOf(offered, BigInt(made[index]!.lots)).total,
            'USDT',
            'The issuer withdrew.',
            made[index]!.orderNo,
          ],
        },
      ]);
    }
    const { rows: audit } = await t.db.query<{ action: string; operator_name: string }>(
      `SELECT action, operator_name FROM audit_log WHERE target_type = 'new_share_offering'
         AND target_id = $1 ORDER BY id`,
      [String(offered.id)],
    );
    expect(audit).toEqual([
      { action: 'newShareOffering.create', operator_name: 'shares-finance' },
      { action: 'newShareOffering.cancel', operator_name: 'shares-finance' },
    ]);
    // Again: nothing to do; subscribing to it and allocating it do nothing either.
    expect(
      (
        await consoleCall('POST', '/offerings/cancel', tokens.admin, {
          id: offered.id,
          reason: 'Again',
        })
      ).body.msg,
    ).toBe('hint_48');
    expect(await subscribe(users[0]!.token, offered.id, '1')).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareNotOpen' },
    });
    expect((await moveTo(offered.listingTime)).allocated).toBe(0);
    // Its code is free again.
    const reused = await offering({ code: offered.code });
    expect(reused.code).toBe(offered.code);
  });
});

describe('listing and the lock-up', () => {
  /** The first time at or after `from` when US stocks trade (minute by minute). */
  function nextUsOpen(from: number): number {
    let at = Math.ceil(from / MINUTE_MS) * MINUTE_MS;
    while (!isSessionOpen('usStock', at)) at += 30 * MINUTE_MS;
    return at;
  }

  /**
   * An offering at 2.5 a lot of 0.5, no fee, a lock-up of two days, whose one subscriber (1,000
   * deposited) asks 30 lots and gets them: allocated, then listed.
   */
  async function listedWithOneHolder(productType: number, code: string) {
    const offered = await offering({
      productType,
      code,
      price: '2.5',
      lotSize: '0.5',
      lotsOffered: '1000',
      maxLots: '100',
      feeRate: '0',
      lockUpDays: 2,
    });
    await moveTo(offered.subscribeStart);
    const user = await investor('1000');
    await subscribed(user.token, offered.id, '30');
    expect(await moveTo(offered.allocationTime)).toEqual({ allocated: 1, listed: 0, unlocked: 0 });
    expect(await moveTo(offered.listingTime)).toEqual({ allocated: 0, listed: 1, unlocked: 0 });
    return { offered, user };
  }

  it('lists a stock at the offer price with the allocated shares as spot holdings locked until the lock-up ends', async () => {
    const code = newCode('STK');
    const { offered, user } = await listedWithOneHolder(PRODUCT_TYPE.usStock, code);

    const { rows: products } = await t.db.query<Record<string, unknown>>(
      `SELECT p.id, p.product_type, p.position_types, p.standard::text AS standard, p.price_scale,
         p.session, p.reference_price::text AS reference_price, p.product_name_lang, p.is_visible
       FROM product p JOIN new_share_offering o ON o.product_id = p.id WHERE o.id = $1`,
      [offered.id],
    );
    expect(products[0]).toMatchObject({
      product_type: 1,
      position_types: [2],
      price_scale: 2,
      session: 'usStock',
      is_visible: 1,
      product_name_lang: { en: 'Harbor Robotics', fr: 'Robotique du Port' },
    });
    expect(normalize(products[0]!.standard as string)).toBe('0.1');
    expect(normalize(products[0]!.reference_price as string)).toBe('2.5');
    const productId = products[0]!.id as number;
    // The market knows it at once, at the offer price.
    const engine = t.app.services.marketEngine!;
    const product = engine.product(PRODUCT_TYPE.usStock, code);
    expect(product?.id).toBe(productId);
    expect(normalize(engine.tickerInfo(product!)!.nowPrice)).toBe('2.5');

    const until = new Date(Date.parse(offered.listingTime) + 2 * DAY_MS);
    const { rows: holdings } = await t.db.query<Record<string, unknown>>(
      `SELECT quantity::text AS quantity, cost::text AS cost, locked_quantity::text AS locked,
         locked_until FROM holding WHERE user_id = $1 AND product_id = $2 AND book = 'live'
         AND position_type = 2`,
      [user.userId, productId],
    );
    expect(
      holdings.map((row) => ({
        ...row,
        quantity: normalize(row.quantity as string),
        cost: normalize(row.cost as string),
        locked: normalize(row.locked as string),
      })),
    ).toEqual([{ quantity: '15', cost: '37.5', locked: '15', locked_until: until }]);
    const [row] = await subscriptionsOf(user.token);
    expect(row).toMatchObject({
      offeringStatus: 4,
      productId,
      lockedUntil: until.toISOString(),
      sellable: false,
    });
    const types = (await notificationsOf(user.userId)).map((notice) => notice.type);
    expect(types).toEqual(['newShareAllocated', 'newShareListed']);

    const spot = await call(t.app, 'GET', '/api/spotTradeOrder/holdings', { token: user.token });
    expect(spot.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          productCode: code,
          quantity: '15',
          lockedQuantity: '15',
          lockedUntil: until.toISOString(),
        }),
      ]),
    );

    const sell = (fields: Record<string, string> = {}) =>
      call(t.app, 'POST', '/api/spotTradeOrder/sellSpotTradeOrder', {
        token: user.token,
        json: {
          productType: PRODUCT_TYPE.usStock,
          productCode: code,
          orderType: ORDER_TYPE.market,
          quantity: '5',
          requestId: requestId(),
          ...fields,
        },
      });
    // In the lock-up, while the market is open.
    clock.set(new Date(nextUsOpen(clock.now().getTime())));
    user.token = await signIn(user.email);
    feed.tick(code, '2.6', clock.now().getTime());
    const lockedText = `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    expect(await sell()).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareLocked', params: ['0', code, lockedText] },
    });
    expect(await sell({ orderType: String(ORDER_TYPE.limit), price: '9' })).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareLocked' },
    });
    // Bought on the market, it is sellable: only the allocated shares are locked.
    const buy = await call(t.app, 'POST', '/api/spotTradeOrder/addSpotTradeOrder', {
      token: user.token,
      json: {
        productType: PRODUCT_TYPE.usStock,
        productCode: code,
        orderType: ORDER_TYPE.market,
        quantity: '2',
        requestId: requestId(),
      },
    });
    expect(buy.status, JSON.stringify(buy.body)).toBe(200);
    expect(await sell({ quantity: '2.1' })).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareLocked', params: ['2', code, lockedText] },
    });
    expect((await sell({ quantity: '2' })).status).toBe(200);

    // After the lock-up: sellable like any holding (signed in again: days went by).
    clock.set(new Date(nextUsOpen(until.getTime())));
    user.token = await signIn(user.email);
    feed.tick(code, '2.7', clock.now().getTime());
    const sold = await sell({ quantity: '15' });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const [after] = await subscriptionsOf(user.token);
    expect(after).toMatchObject({ sellable: true });
    const left = await call(t.app, 'GET', '/api/spotTradeOrder/holdings', { token: user.token });
    expect(
      (left.body.data as { productCode: string }[]).some((held) => held.productCode === code),
    ).toBe(false);
  });

  it('lists a coin as a wallet currency: the allocation credited as coins, frozen by a hold until the lock-up ends', async () => {
    const coin = newCode('C');
    const code = `${coin}USDT`;
    // A crypto offering's code is its coin and the trade currency.
    const refused = await consoleCall('POST', '/offerings/save', tokens.finance, {
      productType: PRODUCT_TYPE.crypto,
      code: coin,
      name: { en: 'No pair' },
      description: { en: 'A coin without its pair.' },
      price: '1',
      lotSize: '1',
      lotsOffered: '10',
      minLots: '1',
      maxLots: '10',
      feeRate: '0',
      subscribeStart: new Date(clock.now().getTime() + HOUR_MS).toISOString(),
      subscribeEnd: new Date(clock.now().getTime() + 2 * HOUR_MS).toISOString(),
      allocationTime: new Date(clock.now().getTime() + 3 * HOUR_MS).toISOString(),
      listingTime: new Date(clock.now().getTime() + 4 * HOUR_MS).toISOString(),
      lockUpDays: 1,
      minAuthLevel: -1,
    });
    expect(refused).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareCoinCodeInvalid', params: ['USDT'] },
    });
    const { offered, user } = await listedWithOneHolder(PRODUCT_TYPE.crypto, code);

    // The coin is a wallet currency now (no network: no deposit or withdrawal channel), and its
    // pair trades spot and coin to coin.
    const { rows: currencies } = await t.db.query<Record<string, unknown>>(
      `SELECT id, currency_type, wallet_address_type, scale, is_visible FROM platform_currency
       WHERE currency_name = $1`,
      [coin],
    );
    expect(currencies).toEqual([
      expect.objectContaining({
        currency_type: 2,
        wallet_address_type: '',
        scale: 8,
        is_visible: 1,
      }),
    ]);
    const coinId = currencies[0]!.id as number;
    const { rows: products } = await t.db.query<{ id: number; position_types: number[] }>(
      `SELECT p.id, p.position_types FROM product p
       JOIN new_share_offering o ON o.product_id = p.id WHERE o.id = $1 AND o.coin_currency_id = $2`,
      [offered.id, coinId],
    );
    expect(products[0]!.position_types).toEqual([2, 3]);
    const productId = products[0]!.id;

    // 15 coins in the wallet, all frozen; the coin-to-coin holding keeps their cost.
    const coinBalance = async () => {
      const lines = await ledgerBalances(t.db, 'live', user.userId);
      const line = lines.find((entry) => entry.currencyId === coinId);
      return {
        available: normalize(line?.available ?? '0'),
        frozen: normalize(line?.frozen ?? '0'),
      };
    };
    expect(await coinBalance()).toEqual({ available: '0', frozen: '15' });
    // The holder is told the coins are in the wallet, frozen until the lock-up's end.
    const notices = await notificationsOf(user.userId);
    expect(notices.map((notice) => notice.type)).toEqual([
      'newShareAllocated',
      'newShareCoinsListed',
    ]);
    expect(notices[1]!.params.slice(0, 2)).toEqual([code, '15']);
    const { rows: holdings } = await t.db.query<{ quantity: string; cost: string }>(
      `SELECT quantity::text AS quantity, cost::text AS cost FROM holding
       WHERE user_id = $1 AND product_id = $2 AND book = 'live' AND position_type = 3`,
      [user.userId, productId],
    );
    expect(holdings.map((held) => [normalize(held.quantity), normalize(held.cost)])).toEqual([
      ['15', '37.5'],
    ]);
    const until = new Date(Date.parse(offered.listingTime) + 2 * DAY_MS);
    expect((await subscriptionsOf(user.token))[0]).toMatchObject({
      productId,
      lockedUntil: until.toISOString(),
      sellable: false,
    });
    const assets = await call(t.app, 'GET', '/api/userBibiAssets/list', { token: user.token });
    // Its average cost is the offer price.
    expect(assets.body.rows).toEqual([
      { productCode: code, bibiAmount: '0', frozenAmount: '15', averageCost: '2.50' },
    ]);

    const sell = (fields: Record<string, string> = {}) =>
      call(t.app, 'POST', '/api/bibiTradeOrder/sell', {
        token: user.token,
        json: {
          productCode: code,
          orderType: ORDER_TYPE.market,
          quantity: '5',
          requestId: requestId(),
          ...fields,
        },
      });
    feed.tick(code, '2.6', clock.now().getTime());
    const lockedText = `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    expect(await sell()).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareLocked', params: ['0', coin, lockedText] },
    });
    expect(await sell({ orderType: String(ORDER_TYPE.limit), price: '9' })).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareLocked' },
    });
    // Coins bought on the pair are free: only the allocated ones are frozen.
    const buy = await call(t.app, 'POST', '/api/bibiTradeOrder/buy', {
      token: user.token,
      json: {
        productCode: code,
        orderType: ORDER_TYPE.market,
        quantity: '2',
        requestId: requestId(),
      },
    });
    expect(buy.status, JSON.stringify(buy.body)).toBe(200);
    expect(await sell({ quantity: '2.1' })).toMatchObject({
      status: 422,
      body: { msg: 'hint_newShareLocked', params: ['2', coin, lockedText] },
    });
    expect((await sell({ quantity: '2' })).status).toBe(200);
    expect(await coinBalance()).toEqual({ available: '0', frozen: '15' });

    // The lock-up ends: the worker's next run releases the coins, then they sell like any coin.
    clock.set(until);
    user.token = await signIn(user.email);
    expect((await subscriptionsOf(user.token))[0]).toMatchObject({ sellable: false });
    expect(await t.app.services.newSharesWorker.runDue()).toEqual({
      allocated: 0,
      listed: 0,
      unlocked: 1,
    });
    expect(await t.app.services.newSharesWorker.runDue()).toMatchObject({ unlocked: 0 });
    expect(await coinBalance()).toEqual({ available: '15', frozen: '0' });
    expect((await subscriptionsOf(user.token))[0]).toMatchObject({ sellable: true });
    feed.tick(code, '2.7', clock.now().getTime());
    const sold = await sell({ quantity: '15' });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    expect(await coinBalance()).toEqual({ available: '0', frozen: '0' });
    expect((await verifyLedger(database.db)).problems).toEqual([]);
  });
});

describe('the console', () => {
  it('saves offerings for finance and admins only, audited, and checks their terms', async () => {
    const at = (hours: number) => new Date(clock.now().getTime() + hours * HOUR_MS).toISOString();
    const body = {
      productType: 1,
      code: newCode(),
      name: { en: 'Quarry Labs' },
      price: '5',
      lotSize: '10',
      lotsOffered: '100',
      minLots: '1',
      maxLots: '10',
      subscribeStart: at(1),
      subscribeEnd: at(2),
      allocationTime: at(2),
      listingTime: at(3),
      lockUpDays: 0,
      minAuthLevel: -1,
    };
    for (const route of ['/offerings', '/subscriptions', '/allocation'])
      expect(
        (await consoleCall('GET', route, tokens.support, { offeringId: '1', id: '1' })).status,
      ).toBe(403);
    expect((await consoleCall('POST', '/offerings/save', tokens.support, body)).status).toBe(403);

    const created = await consoleCall('POST', '/offerings/save', tokens.admin, body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({
      status: 0,
      rule: 'bourse-ipo-1',
      currency: 'USDT',
      name: { en: 'Quarry Labs' },
      seed: null,
    });
    const changed = await consoleCall('POST', '/offerings/save', tokens.finance, {
      ...body,
      id,
      price: '6',
    });
    expect(changed.body.data).toMatchObject({ id, price: '6' });
    const { rows: audit } = await t.db.query<{ action: string; before: any; after: any }>(
      `SELECT action, before, after FROM audit_log WHERE target_type = 'new_share_offering'
         AND target_id = $1 ORDER BY id`,
      [String(id)],
    );
    expect(audit.map((row) => row.action)).toEqual([
      'newShareOffering.create',
      'newShareOffering.update',
    ]);
    expect([audit[1]!.before.price, audit[1]!.after.price]).toEqual(['5', '6']);

    // A code listed already, or another offering's; a start in the past; times out of order.
    expect(
      await consoleCall('POST', '/offerings/save', tokens.finance, { ...body, code: 'AAPL' }),
    ).toMatchObject({ status: 409, body: { msg: 'hint_newShareCodeTaken' } });
    expect(await consoleCall('POST', '/offerings/save', tokens.finance, body)).toMatchObject({
      status: 409,
      body: { msg: 'hint_newShareCodeTaken' },
    });
    expect(
      await consoleCall('POST', '/offerings/save', tokens.finance, {
        ...body,
        code: newCode(),
        subscribeStart: at(-1),
      }),
    ).toMatchObject({ status: 422, body: { msg: 'hint_newShareStartPast' } });
    const disordered = await consoleCall('POST', '/offerings/save', tokens.finance, {
      ...body,
      code: newCode(),
      listingTime: at(1.5),
    });
    expect(disordered.status).toBe(400);
    expect(JSON.stringify(disordered.body)).toContain('hint_newShareTimesOrder');
    expect(
      (
        await consoleCall('POST', '/offerings/save', tokens.finance, {
          ...body,
          code: newCode(),
          maxLots: '101',
        })
      ).status,
    ).toBe(400);

    // Its subscriptions, by user.
    await moveTo(body.subscribeStart);
    const user = await investor();
    await subscribed(user.token, id, '3');
    const subscriptions = await consoleCall('GET', '/subscriptions', tokens.finance, {
      offeringId: String(id),
      userAccount: user.email,
    });
    expect(subscriptions.body.rows).toEqual([
      expect.objectContaining({ userId: user.userId, lots: '3', frozen: '180.0000', status: 0 }),
    ]);
    expect(
      await consoleCall('GET', '/subscriptions', tokens.finance, {
        offeringId: String(id),
        userAccount: 'nobody@example.com',
      }),
    ).toMatchObject({ status: 422, body: { msg: 'hint_userNotFound' } });
    const listed = await consoleCall('GET', '/offerings', tokens.finance, { status: '1' });
    expect(listed.body.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id, subscribers: 1, lotsRequested: '3', frozen: '180.0000' }),
      ]),
    );
    // Open: no longer changed.
    expect(
      await consoleCall('POST', '/offerings/save', tokens.finance, { ...body, id }),
    ).toMatchObject({ status: 409, body: { msg: 'hint_newShareStarted' } });
  });
});
