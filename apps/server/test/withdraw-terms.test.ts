/**
 * Withdrawal terms only get worse with notice (PRODUCT section 1.9): through the operator API and
 * the user calls, a save that makes withdrawing harder is announced and in force only after
 * WITHDRAW_TERMS_NOTICE_HOURS, one that makes it easier applies at once, a mixed save splits, a
 * later save keeps, replaces or takes back an announced change, the public list shows what is
 * coming, the audit log says when it takes effect, and requests already submitted keep their fee.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { normalize } from '@bourse/shared';
import { loadConfig } from '../src/config';
import { verifyLedger } from '../src/ledger/verify';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import {
  call,
  createTestApp,
  deposit,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  testConfig,
  type CallResult,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const HOUR = 3_600_000;
const NOTICE_HOURS = 72;
const USDT = 3;
const ETH = 5;
const USDC = 6;
const SOL = 8;
const WITH_PWD = '246810';
const TRC20_ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const ADMIN = 'admin';
const ADMIN_PASSWORD = 'withdraw terms admin password';

/** A USDT channel on TRC20 with every term set, so each test owns its own channel. */
const BASE = {
  channelType: 2,
  currencyId: USDT,
  network: 'TRC20',
  feeRate: '0.001',
  fixedFee: '1',
  minAmount: '10',
  maxAmount: '1000',
  dailyLimit: '5000',
  remark: '',
  sort: 0,
  isVisible: 1,
};
type ChannelFields = Partial<typeof BASE> & { channelName?: string };

let t: TestApp;
let operator: { token: string; at: number } | undefined;
let sequence = 0;
/** The names of the channels the tests made, so that a save may leave the name out. */
const names = new Map<number, string>();

beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_TTL_HOURS: '720' } });
  await ensureFirstAdmin(t.db, t.clock, ADMIN, ADMIN_PASSWORD);
});
afterEach(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

/** An operator token, signed in again once the clock moved past its session. */
async function operatorToken(): Promise<string> {
  const now = t.clock.now().getTime();
  if (!operator || now - operator.at > HOUR) {
    operator = { token: await operatorReady(t.app, ADMIN, ADMIN_PASSWORD), at: now };
  }
  return operator.token;
}

async function admin(method: 'GET' | 'POST', url: string, options: Parameters<typeof call>[3]) {
  return adminApiCall(t.app, method, url, { ...options, token: await operatorToken() });
}

function hours(n: number): void {
  t.clock.advance(n * HOUR);
}

function inHours(n: number): string {
  return new Date(t.clock.now().getTime() + n * HOUR).toISOString();
}

async function saveChannel(fields: ChannelFields & { id?: number }): Promise<CallResult> {
  const name = fields.id === undefined ? undefined : names.get(fields.id);
  return admin('POST', '/channels/withdraw/save', {
    json: { ...BASE, channelName: name, ...fields },
  });
}

/** A new channel with the base terms (and `fields`): answers its id. */
async function newChannel(fields: ChannelFields = {}): Promise<number> {
  sequence += 1;
  const channelName = fields.channelName ?? `Terms test ${sequence}`;
  const created = await saveChannel({ ...fields, channelName });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  names.set(created.body.data.id as number, channelName);
  return created.body.data.id as number;
}

/** The channel as the app lists it to a signed-in user (undefined when hidden). */
async function listed(token: string, id: number, currencyId = USDT) {
  const result = await call(t.app, 'GET', '/api/withdrawChannelConfig/list', {
    token,
    query: { currencyId: String(currencyId) },
  });
  expect(result.status).toBe(200);
  return (result.body.data as any[]).find((channel) => channel.id === id);
}

async function termsChanges(query: Record<string, string> = {}): Promise<any[]> {
  const result = await call(t.app, 'GET', '/api/userWithdraw/termsChanges', { query });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as any[];
}

async function auditOf(id: number): Promise<any[]> {
  const result = await admin('GET', '/audit', {
    query: { targetType: 'withdrawChannel', targetId: String(id), pageSize: '100' },
  });
  expect(result.status).toBe(200);
  return result.body.rows as any[];
}

/** A user holding `amount` USDT with a withdrawal password and a TRC20 address. */
async function withdrawer(amount = '5000') {
  const user = await registerUser(t.app);
  await deposit(t.db, user.userId, amount, USDT);
  const pwd = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
    token: user.token,
    form: { newPwd: WITH_PWD, userPwd: GOOD_PASSWORD },
  });
  expect(pwd.status).toBe(200);
  const now = t.clock.now();
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO user_wallet_address (user_id, currency_id, network, address, created_at, updated_at)
     VALUES ($1, $2, 'TRC20', $3, $4, $4) RETURNING id`,
    [user.userId, USDT, TRC20_ADDRESS, now],
  );
  return { ...user, addressId: rows[0]!.id };
}

type User = Awaited<ReturnType<typeof withdrawer>>;

function outMoney(user: User, channelId: number, amount: string): Promise<CallResult> {
  sequence += 1;
  return call(t.app, 'POST', '/api/userWithdraw/outMoney', {
    token: user.token,
    json: {
      channelId,
      amount,
      withPwd: WITH_PWD,
      addressId: user.addressId,
      requestId: `terms-${sequence}-${Date.now()}`,
    },
  });
}

async function balance(user: User) {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token: user.token,
    query: { currencyId: String(USDT) },
  });
  return result.body.data as { amount: string; frozenAmount: string };
}

describe('WITHDRAW_TERMS_NOTICE_HOURS', () => {
  it('defaults to 72 hours and refuses what is not a whole number of hours of at most a year', () => {
    expect(testConfig().WITHDRAW_TERMS_NOTICE_HOURS).toBe(72);
    expect(testConfig({ WITHDRAW_TERMS_NOTICE_HOURS: '168' }).WITHDRAW_TERMS_NOTICE_HOURS).toBe(
      168,
    );
    for (const bad of ['0', '-1', '1.5', 'soon', String(24 * 365 + 1)])
      expect(() => loadConfig({ WITHDRAW_TERMS_NOTICE_HOURS: bad }), bad).toThrow(
        /WITHDRAW_TERMS_NOTICE_HOURS/,
      );
  });
});

describe(`withdrawal terms on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  const worsenings: {
    term: string;
    field: keyof typeof BASE;
    to: string;
    listedBefore: string;
    listedAfter: string;
    /** A withdrawal the old terms allow and the new ones treat otherwise. */
    amount: string;
    after: (result: CallResult) => void;
  }[] = [
    {
      term: 'minAmount',
      field: 'minAmount',
      to: '50',
      listedBefore: '10.0000',
      listedAfter: '50.0000',
      amount: '20',
      after: (result) =>
        expect(result.body).toMatchObject({
          msg: 'hint_amountBelowMin',
          params: ['50.0000', 'USDT'],
        }),
    },
    {
      term: 'maxAmount',
      field: 'maxAmount',
      to: '500',
      listedBefore: '1000.0000',
      listedAfter: '500.0000',
      amount: '600',
      after: (result) =>
        expect(result.body).toMatchObject({
          msg: 'hint_amountAboveMax',
          params: ['500.0000', 'USDT'],
        }),
    },
    {
      term: 'dailyLimit',
      field: 'dailyLimit',
      to: '300',
      listedBefore: '5000.0000',
      listedAfter: '300.0000',
      amount: '400',
      after: (result) => expect(result.body.msg).toBe('hint_withdrawDailyLimit'),
    },
    {
      term: 'feeRate',
      field: 'feeRate',
      to: '0.002',
      listedBefore: '0.001',
      listedAfter: '0.002',
      amount: '100',
      // 100 × 0.002 + 1 instead of 100 × 0.001 + 1.
      after: (result) => expect(result.body.data.fee).toBe('1.2000'),
    },
    {
      term: 'fixedFee',
      field: 'fixedFee',
      to: '2.5',
      listedBefore: '1.0000',
      listedAfter: '2.5000',
      amount: '100',
      after: (result) => expect(result.body.data.fee).toBe('2.6000'),
    },
  ];

  it.each(worsenings)(
    'announces $term made worse and applies it only once the notice has passed',
    async ({ term, field, to, listedBefore, listedAfter, amount, after }) => {
      const id = await newChannel();
      const user = await withdrawer();
      const effectiveTime = inHours(NOTICE_HOURS);
      const saved = await saveChannel({ id, channelName: `Worse ${term}`, [field]: to });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.data.pendingChanges).toEqual([
        expect.objectContaining({ term, newValue: to, effectiveTime }),
      ]);
      // The name changed at once; the term did not.
      expect(await listed(user.token, id)).toMatchObject({
        channelName: `Worse ${term}`,
        [field]: listedBefore,
      });
      expect(await termsChanges({ currencyId: String(USDT) })).toContainEqual(
        expect.objectContaining({
          channelId: id,
          term,
          oldValue: listedBefore,
          newValue: listedAfter,
          effectiveTime,
          status: 'pending',
        }),
      );

      // Just before the notice ends the old terms hold, for the list and for a withdrawal.
      hours(NOTICE_HOURS - 0.01);
      expect((await listed(user.token, id))[field]).toBe(listedBefore);
      const before = await outMoney(user, id, amount);
      expect(before.status, JSON.stringify(before.body)).toBe(200);
      if (term === 'feeRate' || term === 'fixedFee') expect(before.body.data.fee).toBe('1.1000');

      hours(0.01);
      expect((await listed(user.token, id))[field]).toBe(listedAfter);
      const later = await withdrawer();
      after(await outMoney(later, id, amount));
      expect(await termsChanges({ currencyId: String(USDT) })).toContainEqual(
        expect.objectContaining({ channelId: id, term, status: 'effective' }),
      );
      // The console shows the terms in force, nothing left pending.
      const channels = await admin('GET', '/channels/withdraw?pageSize=100', {});
      const inConsole = (channels.body.rows as any[]).find((row) => row.id === id);
      expect(inConsole.pendingChanges).toEqual([]);
      // The console lists stored rows: min_amount, max_amount, daily_limit, fee_rate, fixed_fee.
      const column = term.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      expect(normalize(String(inConsole[column]))).toBe(normalize(to));
    },
  );

  it('applies every easier term at once, with nothing announced', async () => {
    const id = await newChannel();
    const user = await withdrawer();
    const saved = await saveChannel({
      id,
      channelName: 'Easier',
      minAmount: '5',
      maxAmount: '2000',
      dailyLimit: '9000',
      feeRate: '0.0005',
      fixedFee: '0.5',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.pendingChanges).toEqual([]);
    expect(await listed(user.token, id)).toMatchObject({
      minAmount: '5.0000',
      maxAmount: '2000.0000',
      dailyLimit: '9000.0000',
      feeRate: '0.0005',
      fixedFee: '0.5000',
    });
    const result = await outMoney(user, id, '1500');
    expect(result.status).toBe(200);
    expect(result.body.data.fee).toBe('1.2500');
    expect((await termsChanges()).filter((change) => change.channelId === id)).toEqual([]);
  });

  it('does not count a new channel as a worsening, however costly', async () => {
    const id = await newChannel({ feeRate: '0.05', fixedFee: '20', minAmount: '500' });
    const user = await withdrawer();
    expect(await listed(user.token, id)).toMatchObject({
      feeRate: '0.05',
      fixedFee: '20.0000',
      minAmount: '500.0000',
    });
    expect((await termsChanges()).filter((change) => change.channelId === id)).toEqual([]);
  });

  it('splits a mixed save, and a later save keeps, restarts or takes back what was announced', async () => {
    const id = await newChannel();
    const user = await withdrawer();
    const maxDue = inHours(NOTICE_HOURS);
    const mixed = await saveChannel({
      id,
      minAmount: '5', // easier: now
      maxAmount: '800', // harder: announced
      feeRate: '0.0005', // easier: now
      fixedFee: '2', // harder: announced
    });
    expect(mixed.status, JSON.stringify(mixed.body)).toBe(200);
    expect(mixed.body.data.pendingChanges).toEqual([
      expect.objectContaining({ term: 'maxAmount', newValue: '800', effectiveTime: maxDue }),
      expect.objectContaining({ term: 'fixedFee', newValue: '2', effectiveTime: maxDue }),
    ]);
    expect(await listed(user.token, id)).toMatchObject({
      minAmount: '5.0000',
      maxAmount: '1000.0000',
      feeRate: '0.0005',
      fixedFee: '1.0000',
    });

    // The same form again an hour later: the announced changes keep their date.
    hours(1);
    const again = await saveChannel({
      id,
      minAmount: '5',
      maxAmount: '800',
      feeRate: '0.0005',
      fixedFee: '2',
    });
    expect(again.body.data.pendingChanges).toEqual([
      expect.objectContaining({ term: 'maxAmount', effectiveTime: maxDue }),
      expect.objectContaining({ term: 'fixedFee', effectiveTime: maxDue }),
    ]);

    // Another harder value replaces the announced one and restarts its notice; going back to
    // the value in force takes the other back.
    hours(1);
    const feeDue = inHours(NOTICE_HOURS);
    const replaced = await saveChannel({
      id,
      minAmount: '5',
      maxAmount: '1000',
      feeRate: '0.0005',
      fixedFee: '3',
    });
    expect(replaced.body.data.pendingChanges).toEqual([
      expect.objectContaining({
        term: 'fixedFee',
        oldValue: '1',
        newValue: '3',
        effectiveTime: feeDue,
      }),
    ]);
    const announced = (await termsChanges()).filter((change) => change.channelId === id);
    expect(announced).toEqual([
      expect.objectContaining({ term: 'fixedFee', newValue: '3.0000', effectiveTime: feeDue }),
    ]);

    // Past the first date nothing applies (it was replaced); the fee changes at its own date.
    t.clock.set(new Date(Date.parse(maxDue) + 1000));
    expect(await listed(user.token, id)).toMatchObject({
      maxAmount: '1000.0000',
      fixedFee: '1.0000',
    });
    t.clock.set(new Date(Date.parse(feeDue) + 1000));
    expect((await listed(user.token, id)).fixedFee).toBe('3.0000');

    // An easier value for a term with a change announced applies now and replaces it.
    const worse = await saveChannel({
      id,
      minAmount: '5',
      feeRate: '0.0005',
      fixedFee: '3',
      maxAmount: '600',
    });
    expect(worse.body.data.pendingChanges).toEqual([
      expect.objectContaining({ term: 'maxAmount', newValue: '600' }),
    ]);
    const eased = await saveChannel({
      id,
      minAmount: '5',
      feeRate: '0.0005',
      fixedFee: '3',
      maxAmount: '1200',
    });
    expect(eased.body.data).toMatchObject({ pendingChanges: [] });
    expect((await listed(user.token, id)).maxAmount).toBe('1200.0000');

    // The due change was written into the channel by the next save and marked applied.
    const { rows } = await t.db.query<{ term: string; applied: boolean; cancelled: boolean }>(
      `SELECT term, applied_at IS NOT NULL AS applied, cancelled_at IS NOT NULL AS cancelled
       FROM withdraw_terms_change WHERE channel_id = $1 ORDER BY id`,
      [id],
    );
    expect(rows).toEqual([
      { term: 'maxAmount', applied: false, cancelled: true },
      { term: 'fixedFee', applied: false, cancelled: true },
      { term: 'fixedFee', applied: true, cancelled: false },
      { term: 'maxAmount', applied: false, cancelled: true },
    ]);
  });

  it('announces hiding the last visible channel of a currency, and hides one of two at once', async () => {
    // ETH has no other withdrawal channel: hiding its only one is announced.
    const only = await newChannel({ currencyId: ETH, network: 'ERC20' });
    const user = await withdrawer();
    const due = inHours(NOTICE_HOURS);
    const hide = await saveChannel({ id: only, currencyId: ETH, network: 'ERC20', isVisible: 0 });
    expect(hide.body.data).toMatchObject({
      is_visible: 1,
      pendingChanges: [
        expect.objectContaining({
          term: 'isVisible',
          oldValue: '1',
          newValue: '0',
          effectiveTime: due,
        }),
      ],
    });
    expect(await termsChanges({ currencyId: String(ETH) })).toEqual([
      expect.objectContaining({
        channelId: only,
        term: 'isVisible',
        oldValue: '1',
        newValue: '0',
        status: 'pending',
      }),
    ]);
    expect(await listed(user.token, only, ETH)).toBeDefined();
    hours(NOTICE_HOURS);
    expect(await listed(user.token, only, ETH)).toBeUndefined();
    // Hidden, it can no longer be used; its hiding stays in the announcement for a while.
    const refused = await outMoney(user, only, '1');
    expect(refused.body.msg).toBe('hint_channelNotFound');
    expect(await termsChanges({ currencyId: String(ETH) })).toEqual([
      expect.objectContaining({ channelId: only, term: 'isVisible', status: 'effective' }),
    ]);
    // Shown again: at once.
    const shown = await saveChannel({ id: only, currencyId: ETH, network: 'ERC20', isVisible: 1 });
    expect(shown.body.data).toMatchObject({ is_visible: 1, pendingChanges: [] });
    expect(await listed(user.token, only, ETH)).toBeDefined();

    // SOL gets two channels: hiding one leaves a way out, so it is hidden at once; the other,
    // then the last, is announced.
    const first = await newChannel({ currencyId: SOL, network: 'SOL' });
    const second = await newChannel({ currencyId: SOL, network: 'SOL' });
    const hideFirst = await saveChannel({
      id: first,
      currencyId: SOL,
      network: 'SOL',
      isVisible: 0,
    });
    expect(hideFirst.body.data).toMatchObject({ is_visible: 0, pendingChanges: [] });
    expect(await listed(user.token, first, SOL)).toBeUndefined();
    const hideSecond = await saveChannel({
      id: second,
      currencyId: SOL,
      network: 'SOL',
      isVisible: 0,
    });
    expect(hideSecond.body.data).toMatchObject({
      is_visible: 1,
      pendingChanges: [expect.objectContaining({ term: 'isVisible' })],
    });
    expect(await listed(user.token, second, SOL)).toBeDefined();
  });

  it('announces hiding the cheap channel when only a costlier one stays, and hides that one at once', async () => {
    const fields = { currencyId: USDC, network: 'BEP20' };
    const cheap = await newChannel({ ...fields, fixedFee: '1' });
    const costly = await newChannel({ ...fields, fixedFee: '5' });
    const user = await withdrawer();
    // Leaving only the costlier channel raises what users pay: announced, like a fee increase.
    const hideCheap = await saveChannel({ id: cheap, ...fields, fixedFee: '1', isVisible: 0 });
    expect(hideCheap.body.data).toMatchObject({
      is_visible: 1,
      pendingChanges: [
        expect.objectContaining({ term: 'isVisible', effectiveTime: inHours(NOTICE_HOURS) }),
      ],
    });
    expect(await listed(user.token, cheap, USDC)).toBeDefined();
    // Kept after all: the announcement is taken back.
    const keep = await saveChannel({ id: cheap, ...fields, fixedFee: '1', isVisible: 1 });
    expect(keep.body.data.pendingChanges).toEqual([]);
    // The cheap channel is as good on every term: hiding the costly one takes nothing away.
    const hideCostly = await saveChannel({ id: costly, ...fields, fixedFee: '5', isVisible: 0 });
    expect(hideCostly.body.data).toMatchObject({ is_visible: 0, pendingChanges: [] });
    expect(await listed(user.token, costly, USDC)).toBeUndefined();
  });

  it('does not count a channel that is itself being hidden as a way out', async () => {
    const a = await newChannel({ currencyId: USDC, network: 'ERC20' });
    const hideA = await saveChannel({ id: a, currencyId: USDC, network: 'ERC20', isVisible: 0 });
    expect(hideA.body.data.pendingChanges).toHaveLength(1);
    const b = await newChannel({ currencyId: USDC, network: 'ERC20' });
    const hideB = await saveChannel({ id: b, currencyId: USDC, network: 'ERC20', isVisible: 0 });
    expect(hideB.body.data).toMatchObject({
      is_visible: 1,
      pendingChanges: [expect.objectContaining({ term: 'isVisible' })],
    });
    // Keeping A after all takes its announced hiding back.
    const keepA = await saveChannel({ id: a, currencyId: USDC, network: 'ERC20', isVisible: 1 });
    expect(keepA.body.data.pendingChanges).toEqual([]);
    expect(
      (await termsChanges({ currencyId: String(USDC) })).map((change) => change.channelId),
    ).toEqual([b]);
  });

  it('hides exactly one of the last two channels at once when both are hidden together', async () => {
    const BNB = 7;
    const fields = { currencyId: BNB, network: 'BEP20', isVisible: 0 };
    const ids = [await newChannel({ currencyId: BNB, network: 'BEP20' })];
    ids.push(await newChannel({ currencyId: BNB, network: 'BEP20' }));
    const saves = await Promise.all(ids.map((id) => saveChannel({ id, ...fields })));
    expect(saves.map((save) => save.status)).toEqual([200, 200]);
    expect(saves.map((save) => save.body.data.is_visible).sort()).toEqual([0, 1]);
    expect(saves.map((save) => save.body.data.pendingChanges.length).sort()).toEqual([0, 1]);
  });

  it('keeps the fee a request was submitted with through its review after a fee increase', async () => {
    const id = await newChannel();
    const user = await withdrawer('1000');
    const paid = await outMoney(user, id, '100');
    const rejected = await outMoney(user, id, '200');
    expect([paid.body.data.fee, rejected.body.data.fee]).toEqual(['1.1000', '1.2000']);
    expect(await balance(user)).toMatchObject({ amount: '697.7000', frozenAmount: '302.3000' });

    const raise = await saveChannel({ id, feeRate: '0.01', fixedFee: '3' });
    expect(raise.body.data.pendingChanges).toHaveLength(2);
    hours(NOTICE_HOURS + 1);
    // New requests pay the new fee: 50 × 0.01 + 3.
    const newer = await outMoney(user, id, '50');
    expect(newer.body.data.fee).toBe('3.5000');

    const pay = await admin('POST', '/withdrawals/pay', { json: { id: paid.body.data.id } });
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
    expect(pay.body.data).toMatchObject({ status: 1, fee: '1.1000', totalAmount: '101.1000' });
    const reject = await admin('POST', '/withdrawals/reject', {
      json: { id: rejected.body.data.id, reason: 'Test rejection' },
    });
    expect(reject.status).toBe(200);
    expect(reject.body.data).toMatchObject({ status: 2, fee: '1.2000' });
    // 1000 − 101.1 paid − 53.5 frozen for the newer request; the rejected 201.2 came back whole.
    expect(await balance(user)).toMatchObject({ amount: '845.4000', frozenAmount: '53.5000' });
  });

  it('lists announced changes publicly, as decimal strings, for 30 days after they apply', async () => {
    const id = await newChannel({ channelName: 'Public list' });
    const saved = await saveChannel({
      id,
      channelName: 'Public list',
      minAmount: '12.5',
      feeRate: '0.0015',
    });
    expect(saved.status).toBe(200);
    // No sign-in needed; another currency's filter leaves them out.
    const all = await termsChanges();
    const mine = all.filter((change) => change.channelId === id);
    expect(mine).toEqual([
      {
        id: expect.any(Number),
        channelId: id,
        channelName: 'Public list',
        currencyId: USDT,
        currencyName: 'USDT',
        network: 'TRC20',
        term: 'minAmount',
        oldValue: '10.0000',
        newValue: '12.5000',
        announceTime: t.clock.now().toISOString(),
        effectiveTime: inHours(NOTICE_HOURS),
        status: 'pending',
      },
      expect.objectContaining({ term: 'feeRate', oldValue: '0.001', newValue: '0.0015' }),
    ]);
    expect(
      (await termsChanges({ currencyId: String(ETH) })).some((change) => change.channelId === id),
    ).toBe(false);
    const invalid = await call(t.app, 'GET', '/api/userWithdraw/termsChanges', {
      query: { currencyId: 'x' },
    });
    expect(invalid.status).toBe(400);

    hours(NOTICE_HOURS + 29 * 24);
    expect(
      (await termsChanges()).filter((change) => change.channelId === id).map((c) => c.status),
    ).toEqual(['effective', 'effective']);
    hours(2 * 24);
    expect((await termsChanges()).filter((change) => change.channelId === id)).toEqual([]);
  });

  it('audits every save with before and after, and when an announced change takes effect', async () => {
    const id = await newChannel({ channelName: 'Audited' });
    const due = inHours(NOTICE_HOURS);
    await saveChannel({ id, channelName: 'Audited', minAmount: '20', maxAmount: '2000' });
    const [update, create] = await auditOf(id);
    expect(create).toMatchObject({
      action: 'withdrawChannel.create',
      operatorName: ADMIN,
      before: null,
      after: { id, channel_name: 'Audited', pendingChanges: [] },
    });
    expect(normalize(create.after.min_amount)).toBe('10');
    expect(update).toMatchObject({
      action: 'withdrawChannel.update',
      targetType: 'withdrawChannel',
      targetId: String(id),
      before: { id, pendingChanges: [] },
      after: {
        id,
        pendingChanges: [
          {
            term: 'minAmount',
            oldValue: '10',
            newValue: '20',
            announceTime: t.clock.now().toISOString(),
            effectiveTime: due,
          },
        ],
      },
    });
    // The easier maximum applied at once; the minimum is still the one in force.
    expect(normalize(update.before.max_amount)).toBe('1000');
    expect(normalize(update.after.max_amount)).toBe('2000');
    expect(normalize(update.after.min_amount)).toBe('10');

    // Taking it back is audited too, the announced change in `before`.
    await saveChannel({ id, channelName: 'Audited', minAmount: '10', maxAmount: '2000' });
    const [takenBack] = await auditOf(id);
    expect(takenBack.before.pendingChanges).toEqual([
      expect.objectContaining({ term: 'minAmount', effectiveTime: due }),
    ]);
    expect(takenBack.after.pendingChanges).toEqual([]);
  });

  it('refuses a change of currency and a fee rate finer than the column keeps', async () => {
    const id = await newChannel();
    const currency = await saveChannel({ id, currencyId: USDC, network: 'ERC20' });
    expect(currency.status).toBe(422);
    expect(currency.body.msg).toBe('hint_withdrawChannelCurrency');
    const fine = await saveChannel({ id, feeRate: '0.000000001' });
    expect(fine.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['feeRate'] });
  });
});
