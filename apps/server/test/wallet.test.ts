/**
 * The wallet through its HTTP calls: deposit channels and requests with payment proofs,
 * withdrawals with their password, hold, fees and limits, exchange quotes, and the records; the
 * operator's review through the WalletReview interface the console uses. The ledger must verify
 * after every test.
 */
import { div, normalize } from '@bourse/shared';
import sharp from 'sharp';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/ledger/verify';
import * as ledger from '../src/ledger/ledger';
import type { AuditWriter } from '../src/modules/wallet/review';
import type { RateSource } from '../src/modules/assets/rates';
import {
  call,
  createTestApp,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  type TestApp,
} from './helpers';
import { flatJpeg, flatPng } from './support/test-images';

const USD = 1;
const USDT = 3;
const BTC = 4;
/** Seeded channels (seed.ts): deposits 1 bank USD, 2 USDT TRC20, 5 online USD. */
const RECHARGE_BANK_USD = 1;
const RECHARGE_USDT_TRC20 = 2;
const RECHARGE_ONLINE_USD = 5;
/** Withdrawals: 1 bank USD (0.5 % + 1), 2 USDT TRC20 (fixed 1). */
const WITHDRAW_BANK_USD = 1;
const WITHDRAW_USDT_TRC20 = 2;
const WITHDRAW_USDT_ERC20 = 3;

const WITH_PWD = '246810';
const TRC20_ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const ERC20_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** A 1 × 1 PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const dataUrl = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;
const PROOF = dataUrl('image/png', PNG_1X1);

/** 1 BTC = 50,000 USDT; USD and USDT at par: fixed rates, as a feed would give them. */
const USDT_PRICES: Record<number, string> = { [USD]: '1', [USDT]: '1', [BTC]: '50000' };
const rates: RateSource = {
  rate(from, to) {
    const a = USDT_PRICES[from];
    const b = USDT_PRICES[to];
    return a && b ? div(a, b, 18) : null;
  },
};

let t: TestApp;
let requestSeq = 0;
const requestId = () => `req-${Date.now()}-${++requestSeq}`;

const audits: { action: string; targetId: string; before: unknown; after: unknown }[] = [];
const audit: AuditWriter = async (_tx, change) => {
  audits.push(change);
};
const operator = { operatorId: 1 };

beforeAll(async () => {
  t = await createTestApp({ rates });
});
afterEach(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

async function balance(token: string, currencyId: number) {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token,
    query: { currencyId: String(currencyId) },
  });
  return result.body.data as { amount: string; frozenAmount: string; totalAmount: string };
}

async function inMoney(token: string, fields: Record<string, unknown>) {
  return call(t.app, 'POST', '/api/userRecharge/inMoney', {
    token,
    json: {
      channelId: RECHARGE_USDT_TRC20,
      amount: '100',
      proofImage: PROOF,
      requestId: requestId(),
      ...fields,
    },
  });
}

/** A user with `amount` credited through an approved deposit. */
async function fundedUser(amount: string, channelId = RECHARGE_USDT_TRC20) {
  const user = await registerUser(t.app);
  if (amount !== '0') {
    const result = await inMoney(user.token, { channelId, amount });
    expect(result.status).toBe(200);
    await t.app.services.wallet.approveRecharge(result.body.data.id, operator, audit);
  }
  return user;
}

async function setWithdrawalPassword(token: string) {
  const result = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
    token,
    form: { newPwd: WITH_PWD, userPwd: GOOD_PASSWORD },
  });
  expect(result.status).toBe(200);
}

async function bindCard(userId: number, cardNumber = '6222020200112233445') {
  const now = t.clock.now();
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO user_bank (user_id, card_number, properties, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4) RETURNING id`,
    [
      userId,
      cardNumber,
      JSON.stringify({ bankName: 'Test Bank', accountName: 'A. User', cardNumber }),
      now,
    ],
  );
  return rows[0]!.id;
}

async function bindAddress(userId: number, network = 'TRC20', address = TRC20_ADDRESS) {
  const now = t.clock.now();
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO user_wallet_address (user_id, currency_id, network, address, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
    [userId, USDT, network, address, now],
  );
  return rows[0]!.id;
}

/** A funded user with a withdrawal password and a TRC20 address, ready to withdraw. */
async function withdrawer(amount: string) {
  const user = await fundedUser(amount);
  await setWithdrawalPassword(user.token);
  const addressId = await bindAddress(user.userId);
  return { ...user, addressId };
}

function outMoney(token: string, fields: Record<string, unknown>) {
  return call(t.app, 'POST', '/api/userWithdraw/outMoney', {
    token,
    json: {
      channelId: WITHDRAW_USDT_TRC20,
      amount: '10',
      withPwd: WITH_PWD,
      requestId: requestId(),
      ...fields,
    },
  });
}

async function demoToken(token: string) {
  const result = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
    token,
    query: { accountType: '2' },
  });
  expect(result.body.data.accountType).toBe(2);
  return token;
}

describe(`wallet on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  describe('channels', () => {
    it('lists deposit channels with what the user needs to pay', async () => {
      const result = await call(t.app, 'GET', '/api/rechargeChannelConfig/list');
      expect(result.status).toBe(200);
      const channels = result.body.data as any[];
      const bank = channels.find((c) => c.id === RECHARGE_BANK_USD);
      expect(bank).toMatchObject({
        channelType: 1,
        currencyName: 'USD',
        minAmount: '10.00',
        scale: 2,
      });
      expect(bank.accountNumber).toBeTruthy();
      const crypto = channels.find((c) => c.id === RECHARGE_USDT_TRC20);
      expect(crypto).toMatchObject({ channelType: 2, network: 'TRC20', currencyName: 'USDT' });
      expect(crypto.depositAddress).toMatch(/^T/);
      const usdtOnly = await call(t.app, 'GET', '/api/rechargeChannelConfig/list', {
        query: { currencyId: String(USDT) },
      });
      expect((usdtOnly.body.data as any[]).every((c) => c.currencyId === USDT)).toBe(true);
    });

    it('lists withdrawal channels with fees, limits and what is left of today', async () => {
      const user = await registerUser(t.app);
      const result = await call(t.app, 'GET', '/api/withdrawChannelConfig/list', {
        token: user.token,
      });
      const bank = (result.body.data as any[]).find((c) => c.id === WITHDRAW_BANK_USD);
      expect(bank).toMatchObject({
        feeRate: '0.005',
        fixedFee: '1.00',
        minAmount: '20.00',
        dailyLimit: '100000.00',
        dailyRemaining: '100000.00',
      });
    });
  });

  describe('deposits', () => {
    it('takes a deposit with a PNG or JPEG proof and leaves it under review', async () => {
      const user = await registerUser(t.app);
      const png = await inMoney(user.token, { amount: '150.5' });
      expect(png.status).toBe(200);
      expect(png.body.data).toMatchObject({
        status: 0,
        amount: '150.5000',
        currencyName: 'USDT',
        hasProof: true,
        rejectReason: null,
      });
      expect(png.body.data.orderNo).toMatch(/^R\d{22}$/);
      expect(png.body.data.orderNo.endsWith(String(png.body.data.id).padStart(8, '0'))).toBe(true);
      const jpeg = await inMoney(user.token, {
        proofImage: dataUrl('image/jpeg', await flatJpeg(800, 600)),
      });
      expect(jpeg.status).toBe(200);
      // Nothing is credited before review.
      expect(await balance(user.token, USDT)).toMatchObject({
        amount: '0.0000',
        totalAmount: '0.0000',
      });
      const list = await call(t.app, 'GET', '/api/userRecharge/list', { token: user.token });
      expect(list.body.total).toBe(2);
      expect(list.body.rows!.map((r) => r.id)).toEqual([jpeg.body.data.id, png.body.data.id]);
    });

    it('serves the proof to its owner only', async () => {
      const user = await registerUser(t.app);
      const other = await registerUser(t.app);
      const { body } = await inMoney(user.token, {});
      const own = await t.app.inject({
        method: 'GET',
        url: `/api/userRecharge/proof?id=${body.data.id}`,
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(own.statusCode).toBe(200);
      // Stored as it was re-encoded: a JPEG of the same size.
      expect(own.headers['content-type']).toBe('image/jpeg');
      expect(own.headers['cache-control']).toBe('private, no-store');
      expect(await sharp(own.rawPayload).metadata()).toMatchObject({
        format: 'jpeg',
        width: 1,
        height: 1,
      });
      const foreign = await call(t.app, 'GET', '/api/userRecharge/proof', {
        token: other.token,
        query: { id: String(body.data.id) },
      });
      expect(foreign.status).toBe(404);
      const detail = await call(t.app, 'GET', '/api/userRecharge/detail', {
        token: other.token,
        query: { id: String(body.data.id) },
      });
      expect(detail.status).toBe(404);
      const anonymous = await call(t.app, 'GET', '/api/userRecharge/proof', {
        query: { id: String(body.data.id) },
      });
      expect(anonymous.status).toBe(401);
    });

    it('refuses bad amounts and bad proofs, storing nothing', async () => {
      const user = await registerUser(t.app);
      const cases: [Record<string, unknown>, number, string][] = [
        [{ amount: '0' }, 400, 'hint_amount_sign'],
        [{ amount: '-5' }, 400, 'hint_amount_sign'],
        [{ amount: 100 }, 400, 'hint_amountAsText'],
        [{ amount: 'ten' }, 400, 'hint_amount_format'],
        [{ amount: '10.00001' }, 422, 'hint_amountDecimals'],
        [{ amount: '9.99' }, 422, 'hint_amountBelowMin'],
        [{ amount: '500000.01' }, 422, 'hint_amountAboveMax'],
        [{ channelId: 999 }, 404, 'hint_channelNotFound'],
        [{ proofImage: undefined }, 400, 'hint_proofRequired'],
        [{ proofImage: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }, 415, 'hint_proofFormat'],
        [{ proofImage: 'not base64 at all!' }, 415, 'hint_proofFormat'],
        [
          { proofImage: Buffer.from('plain text pretending').toString('base64') },
          415,
          'hint_proofFormat',
        ],
        [
          { proofImage: dataUrl('image/png', await flatPng(4000, 100)) },
          422,
          'hint_proofDimensions',
        ],
        [
          { proofImage: dataUrl('image/jpeg', await flatJpeg(100, 3300)) },
          422,
          'hint_proofDimensions',
        ],
      ];
      for (const [fields, status, key] of cases) {
        const result = await inMoney(user.token, fields);
        expect({ fields, status: result.status, msg: result.body.msg }).toEqual({
          fields,
          status,
          msg: key,
        });
      }
      // The limit is written as the currency writes amounts.
      const above = await inMoney(user.token, { amount: '500000.01' });
      expect(above.body.params).toEqual(['500000.0000', 'USDT']);
      const list = await call(t.app, 'GET', '/api/userRecharge/list', { token: user.token });
      expect(list.body.total).toBe(0);
    });

    it('refuses a proof larger than 2 MiB before storing it', async () => {
      const user = await registerUser(t.app);
      const big = Buffer.concat([PNG_1X1, Buffer.alloc(2 * 1024 * 1024)]);
      const result = await inMoney(user.token, { proofImage: dataUrl('image/png', big) });
      expect(result.status).toBe(413);
      expect(result.body.msg).toBe('hint_proofTooLarge');
    });

    it('takes an online deposit without a proof', async () => {
      const user = await registerUser(t.app);
      const result = await inMoney(user.token, {
        channelId: RECHARGE_ONLINE_USD,
        proofImage: undefined,
        amount: '50',
      });
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({
        channelType: 3,
        hasProof: false,
        currencyName: 'USD',
      });
    });

    it('stores one deposit for concurrent requests under one id, refusing the other body', async () => {
      const user = await registerUser(t.app);
      const id = requestId();
      const results = await Promise.all([
        ...Array.from({ length: 5 }, () => inMoney(user.token, { requestId: id, amount: '100' })),
        inMoney(user.token, { requestId: id, amount: '200' }),
      ]);
      const { rows } = await t.db.query<{ amount: string }>(
        'SELECT amount FROM user_recharge WHERE user_id = $1',
        [user.userId],
      );
      expect(rows).toHaveLength(1);
      const storedAmount = normalize(rows[0]!.amount);
      // Every request with the stored body answers it; every other one is refused.
      const answered = results.filter((result) => result.status === 200);
      const refused = results.filter((result) => result.status === 409);
      expect(answered.length + refused.length).toBe(results.length);
      expect(new Set(answered.map((result) => result.body.data.id)).size).toBe(1);
      expect(answered).toHaveLength(storedAmount === '100' ? 5 : 1);
      for (const result of refused) expect(result.body.msg).toBe('hint_requestIdReused');
    });

    it('answers a repeated request id with the first deposit, and refuses it for another body', async () => {
      const user = await registerUser(t.app);
      const id = requestId();
      const first = await inMoney(user.token, { requestId: id });
      const again = await inMoney(user.token, { requestId: id });
      expect(again.body.data.id).toBe(first.body.data.id);
      const other = await inMoney(user.token, { requestId: id, amount: '200' });
      expect(other.status).toBe(409);
      expect(other.body.msg).toBe('hint_requestIdReused');
      const list = await call(t.app, 'GET', '/api/userRecharge/list', { token: user.token });
      expect(list.body.total).toBe(1);
    });

    it('refuses deposits of a demo account', async () => {
      const user = await registerUser(t.app);
      const result = await inMoney(await demoToken(user.token), {});
      expect(result.status).toBe(403);
      expect(result.body.msg).toBe('hint_demoNoFunding');
    });

    it('credits an approved deposit once and audits it; a rejected one says why', async () => {
      const user = await registerUser(t.app);
      const approved = await inMoney(user.token, { amount: '120' });
      const rejected = await inMoney(user.token, { amount: '80' });
      const wallet = t.app.services.wallet;
      const first = await wallet.approveRecharge(approved.body.data.id, operator, audit);
      expect(first.changed).toBe(true);
      expect(first.record).toMatchObject({ status: 1, userId: user.userId });
      const last = audits.at(-1)!;
      expect(last).toMatchObject({
        action: 'recharge.approve',
        targetId: String(approved.body.data.id),
      });
      expect(last.before).toMatchObject({ status: 0 });
      expect(last.after).toMatchObject({ status: 1 });
      const second = await wallet.approveRecharge(approved.body.data.id, operator, audit);
      expect(second.changed).toBe(false);
      await expect(
        wallet.rejectRecharge(approved.body.data.id, operator, 'late', audit),
      ).rejects.toMatchObject({
        key: 'hint_reviewClosed',
      });
      expect(await balance(user.token, USDT)).toMatchObject({ amount: '120.0000' });

      await wallet.rejectRecharge(rejected.body.data.id, operator, 'No payment received', audit);
      await expect(
        wallet.approveRecharge(rejected.body.data.id, operator, audit),
      ).rejects.toMatchObject({
        key: 'hint_reviewClosed',
      });
      const detail = await call(t.app, 'GET', '/api/userRecharge/detail', {
        token: user.token,
        query: { id: String(rejected.body.data.id) },
      });
      expect(detail.body.data).toMatchObject({ status: 2, rejectReason: 'No payment received' });
      expect(detail.body.data.reviewTime).toBeTruthy();
      expect(await balance(user.token, USDT)).toMatchObject({ amount: '120.0000' });
      const pending = await wallet.listRecharges({
        status: 0,
        userId: user.userId,
        pageNum: 1,
        pageSize: 10,
      });
      expect(pending.total).toBe(0);
    });

    it('tells the user on the balances topic when an operator credits a deposit', async () => {
      const user = await registerUser(t.app);
      const deposit = await inMoney(user.token, { amount: '50' });
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const socket = new WebSocket(`${address.replace('http', 'ws')}/ws`);
      const messages: { op: string; topic?: string; data?: unknown }[] = [];
      socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
      try {
        await new Promise((resolve) => socket.once('open', resolve));
        socket.send(JSON.stringify({ op: 'auth', token: user.token }));
        socket.send(JSON.stringify({ op: 'subscribe', topic: 'balances' }));
        await expect.poll(() => messages.some((m) => m.op === 'subscribed')).toBe(true);
        await t.app.services.wallet.approveRecharge(deposit.body.data.id, operator, audit);
        await expect
          .poll(() => messages.filter((m) => m.op === 'data' && m.topic === 'balances'))
          .toEqual([expect.objectContaining({ data: { book: 'live', currencyId: USDT } })]);
      } finally {
        socket.close();
      }
    });

    it('credits each of concurrent approvals of one deposit once', async () => {
      const user = await registerUser(t.app);
      const { body } = await inMoney(user.token, { amount: '75' });
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          t.app.services.wallet.approveRecharge(body.data.id, operator, audit),
        ),
      );
      expect(results.filter((r) => r.changed)).toHaveLength(1);
      expect(await balance(user.token, USDT)).toMatchObject({ amount: '75.0000' });
    });
  });

  describe('withdrawals', () => {
    it('freezes amount plus fee at once and pays it on approval', async () => {
      const user = await withdrawer('100');
      const result = await outMoney(user.token, { amount: '40', addressId: user.addressId });
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({
        status: 0,
        amount: '40.0000',
        fee: '1.0000',
        totalAmount: '41.0000',
        destination: { kind: 'address', network: 'TRC20' },
      });
      // The address is star-masked (switch on by default).
      expect(result.body.data.destination.address).toBe(
        `${TRC20_ADDRESS.slice(0, 8)}${'*'.repeat(26)}`,
      );
      expect(await balance(user.token, USDT)).toMatchObject({
        amount: '59.0000',
        frozenAmount: '41.0000',
        totalAmount: '100.0000',
      });
      const paid = await t.app.services.wallet.payWithdrawal(result.body.data.id, operator, audit);
      expect(paid.changed).toBe(true);
      // Operators see the destination whole: they pay it.
      expect(paid.record.destination.address).toBe(TRC20_ADDRESS);
      expect(audits.at(-1)).toMatchObject({ action: 'withdraw.pay', after: { status: 1 } });
      expect(await balance(user.token, USDT)).toMatchObject({
        amount: '59.0000',
        frozenAmount: '0.0000',
      });
      const again = await t.app.services.wallet.payWithdrawal(result.body.data.id, operator, audit);
      expect(again.changed).toBe(false);
      const cancel = await call(t.app, 'POST', '/api/userWithdraw/cancel', {
        token: user.token,
        form: { id: String(result.body.data.id) },
      });
      expect(cancel.status).toBe(409);
      expect(cancel.body.msg).toBe('hint_withdrawClosed');
    });

    it('computes the bank fee as rate times amount rounded up, plus the fixed fee', async () => {
      const user = await fundedUser('1000', RECHARGE_BANK_USD);
      await setWithdrawalPassword(user.token);
      const bankId = await bindCard(user.userId);
      const result = await outMoney(user.token, {
        channelId: WITHDRAW_BANK_USD,
        amount: '100.01',
        bankId,
      });
      expect(result.status).toBe(200);
      // 100.01 × 0.005 = 0.50005 → 0.51, plus 1.00.
      expect(result.body.data).toMatchObject({ fee: '1.51', totalAmount: '101.52' });
      expect(result.body.data.destination).toMatchObject({
        kind: 'bank',
        cardNumber: '6222***********3445',
      });
      expect(await balance(user.token, USD)).toMatchObject({
        amount: '898.48',
        frozenAmount: '101.52',
      });
    });

    it('releases the funds when the user cancels or the operator rejects, with the reason', async () => {
      const user = await withdrawer('100');
      const a = await outMoney(user.token, { amount: '30', addressId: user.addressId });
      const b = await outMoney(user.token, { amount: '20', addressId: user.addressId });
      expect(await balance(user.token, USDT)).toMatchObject({
        amount: '48.0000',
        frozenAmount: '52.0000',
      });
      const cancel = await call(t.app, 'POST', '/api/userWithdraw/cancel', {
        token: user.token,
        form: { id: String(a.body.data.id) },
      });
      expect(cancel.body).toMatchObject({ code: 200, msg: 'hint_success', data: { status: 3 } });
      const twice = await call(t.app, 'POST', '/api/userWithdraw/cancel', {
        token: user.token,
        form: { id: String(a.body.data.id) },
      });
      expect(twice.body.msg).toBe('hint_48');
      await t.app.services.wallet.rejectWithdrawal(
        b.body.data.id,
        operator,
        'Address on a sanctions list',
        audit,
      );
      expect(await balance(user.token, USDT)).toMatchObject({
        amount: '100.0000',
        frozenAmount: '0.0000',
      });
      const list = await call(t.app, 'GET', '/api/userWithdraw/list', { token: user.token });
      expect(list.body.rows!.map((r) => [r.status, r.rejectReason])).toEqual([
        [2, 'Address on a sanctions list'],
        [3, null],
      ]);
      const rejectedOnly = await call(t.app, 'GET', '/api/userWithdraw/list', {
        token: user.token,
        query: { status: '2' },
      });
      expect(rejectedOnly.body.total).toBe(1);
      await expect(
        t.app.services.wallet.payWithdrawal(a.body.data.id, operator, audit),
      ).rejects.toMatchObject({
        key: 'hint_withdrawClosed',
      });
    });

    it('refuses what it must, moving nothing', async () => {
      const user = await withdrawer('100');
      const other = await registerUser(t.app);
      const otherCard = await bindCard(other.userId, '4111111111111111');
      const otherAddress = await bindAddress(other.userId);
      const erc20 = await bindAddress(user.userId, 'ERC20', ERC20_ADDRESS);
      const cases: [Record<string, unknown>, number, string][] = [
        [{ amount: '0', addressId: user.addressId }, 400, 'hint_amount_sign'],
        [{ amount: '-1', addressId: user.addressId }, 400, 'hint_amount_sign'],
        [{ amount: '10.12345', addressId: user.addressId }, 422, 'hint_amountDecimals'],
        [{ amount: '9', addressId: user.addressId }, 422, 'hint_amountBelowMin'],
        [{ amount: '100000.01', addressId: user.addressId }, 422, 'hint_amountAboveMax'],
        [{ amount: '100', addressId: user.addressId }, 422, 'hint_insufficientBalance'],
        [{ addressId: otherAddress }, 404, 'hint_walletAddressNotFound'],
        [{ addressId: undefined }, 400, 'hint_addressRequired'],
        [{ addressId: erc20 }, 422, 'hint_addressNetworkMismatch'],
        [
          { channelId: WITHDRAW_USDT_ERC20, amount: '20', addressId: user.addressId },
          422,
          'hint_addressNetworkMismatch',
        ],
        [
          { channelId: WITHDRAW_BANK_USD, amount: '20', bankId: otherCard },
          404,
          'hint_bankCardNotFound',
        ],
        [{ withPwd: '12345', addressId: user.addressId }, 400, 'hint_withPwdFormat'],
        [{ channelId: 77, addressId: user.addressId }, 404, 'hint_channelNotFound'],
      ];
      for (const [fields, status, key] of cases) {
        const result = await outMoney(user.token, fields);
        expect({ fields, status: result.status, msg: result.body.msg }).toEqual({
          fields,
          status,
          msg: key,
        });
      }
      expect(await balance(user.token, USDT)).toMatchObject({
        amount: '100.0000',
        frozenAmount: '0.0000',
      });
      const list = await call(t.app, 'GET', '/api/userWithdraw/list', { token: user.token });
      expect(list.body.total).toBe(0);
    });

    it('needs a withdrawal password, and locks it for an hour after 5 wrong ones', async () => {
      const user = await fundedUser('100');
      const addressId = await bindAddress(user.userId);
      const unset = await outMoney(user.token, { addressId });
      expect(unset.body.msg).toBe('hint_withPwdNotSet');
      await setWithdrawalPassword(user.token);
      for (let i = 0; i < 4; i++) {
        const wrong = await outMoney(user.token, { addressId, withPwd: '111111' });
        expect(wrong.body.msg).toBe('hint_withPwdWrong');
      }
      const locking = await outMoney(user.token, { addressId, withPwd: '111111' });
      expect(locking.status).toBe(429);
      expect(locking.body).toMatchObject({ msg: 'hint_withPwdLocked', params: [60] });
      const right = await outMoney(user.token, { addressId });
      expect(right.body.msg).toBe('hint_withPwdLocked');
      t.clock.advance(60 * 60 * 1000 + 1000);
      const later = await outMoney(user.token, { addressId });
      expect(later.status).toBe(200);
    });

    it('holds withdrawals for 24 hours after the withdrawal password changes, saying until when', async () => {
      const user = await withdrawer('100');
      const change = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
        token: user.token,
        form: { newPwd: '135791', oldPwd: WITH_PWD },
      });
      expect(change.status).toBe(200);
      const until = new Date(t.clock.now().getTime() + 24 * 3600 * 1000).toISOString();
      const held = await outMoney(user.token, { addressId: user.addressId, withPwd: '135791' });
      expect(held.status).toBe(422);
      expect(held.body).toMatchObject({
        msg: 'hint_withdrawHeld',
        params: [`${until.slice(0, 10)} ${until.slice(11, 16)} UTC`],
      });
      t.clock.advance(24 * 3600 * 1000 + 60_000);
      // A day later the session has lapsed: sign in again.
      const login = await call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: user.email, userPwd: GOOD_PASSWORD },
      });
      const later = await outMoney(login.body.data.token, {
        addressId: user.addressId,
        withPwd: '135791',
      });
      expect(later.status).toBe(200);
    });

    it('keeps to the daily limit of the channel', async () => {
      const user = await fundedUser('30', RECHARGE_USDT_TRC20);
      await t.db.query('UPDATE withdraw_channel SET daily_limit = 25 WHERE id = $1', [
        WITHDRAW_USDT_TRC20,
      ]);
      try {
        await setWithdrawalPassword(user.token);
        const addressId = await bindAddress(user.userId);
        expect((await outMoney(user.token, { addressId, amount: '15' })).status).toBe(200);
        const over = await outMoney(user.token, { addressId, amount: '11' });
        expect(over.body).toMatchObject({
          msg: 'hint_withdrawDailyLimit',
          params: ['10.0000', 'USDT'],
        });
        const channels = await call(t.app, 'GET', '/api/withdrawChannelConfig/list', {
          token: user.token,
          query: { currencyId: String(USDT) },
        });
        expect(
          (channels.body.data as any[]).find((c) => c.id === WITHDRAW_USDT_TRC20).dailyRemaining,
        ).toBe('10.0000');
        // Tomorrow (UTC) the limit is whole again.
        const now = t.clock.now();
        t.clock.set(
          new Date(
            Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 1),
          ),
        );
        expect((await outMoney(user.token, { addressId, amount: '11' })).status).toBe(200);
      } finally {
        await t.db.query('UPDATE withdraw_channel SET daily_limit = 200000 WHERE id = $1', [
          WITHDRAW_USDT_TRC20,
        ]);
      }
    });

    it('answers a repeated request id with the first withdrawal and freezes once', async () => {
      const user = await withdrawer('100');
      const id = requestId();
      const first = await outMoney(user.token, { addressId: user.addressId, requestId: id });
      const again = await outMoney(user.token, { addressId: user.addressId, requestId: id });
      expect(again.body.data.id).toBe(first.body.data.id);
      const other = await outMoney(user.token, {
        addressId: user.addressId,
        requestId: id,
        amount: '12',
      });
      expect(other.status).toBe(409);
      expect(await balance(user.token, USDT)).toMatchObject({ frozenAmount: '11.0000' });
    });

    it('refuses withdrawals of a demo account', async () => {
      const user = await withdrawer('100');
      const result = await outMoney(await demoToken(user.token), { addressId: user.addressId });
      expect(result.body.msg).toBe('hint_demoNoFunding');
    });

    it('lets exactly as many of 50 concurrent withdrawals succeed as the balance covers', async () => {
      const user = await withdrawer('300');
      // Each freezes 10 + 1 fee: 27 fit into 300 (297), the 28th would need 308.
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          outMoney(user.token, { amount: '10', addressId: user.addressId }),
        ),
      );
      const succeeded = results.filter((r) => r.status === 200);
      const failed = results.filter((r) => r.status !== 200);
      expect(succeeded).toHaveLength(27);
      expect(new Set(failed.map((r) => r.body.msg))).toEqual(new Set(['hint_insufficientBalance']));
      expect(await balance(user.token, USDT)).toMatchObject({
        amount: '3.0000',
        frozenAmount: '297.0000',
      });
      const list = await call(t.app, 'GET', '/api/userWithdraw/list', {
        token: user.token,
        query: { pageSize: '100' },
      });
      expect(list.body.total).toBe(27);
    });
  });

  describe('exchange', () => {
    it('quotes rate, fee and amount received, and exchanges at that quote once', async () => {
      const user = await fundedUser('1000');
      const quote = await call(t.app, 'GET', '/api/balanceConvertRecord/quote', {
        token: user.token,
        query: { fromCurrencyId: String(USDT), toCurrencyId: String(BTC), amount: '500' },
      });
      expect(quote.status).toBe(200);
      // Fee 0.1 % of 500 = 0.5 USDT; 499.5 × 0.00002 = 0.00999 BTC.
      expect(quote.body.data).toMatchObject({
        amount: '500.0000',
        rate: '0.00002',
        feeRate: '0.001',
        fee: '0.5000',
        receiveAmount: '0.00999000',
      });
      expect(Date.parse(quote.body.data.expiresAt) - t.clock.now().getTime()).toBe(15_000);
      const id = requestId();
      const done = await call(t.app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
        token: user.token,
        form: { quoteId: quote.body.data.quoteId, requestId: id },
      });
      expect(done.status).toBe(200);
      expect(done.body.data).toMatchObject({
        fromCurrencyName: 'USDT',
        toCurrencyName: 'BTC',
        receiveAmount: '0.00999000',
      });
      expect(await balance(user.token, USDT)).toMatchObject({ amount: '500.0000' });
      expect(await balance(user.token, BTC)).toMatchObject({ amount: '0.00999000' });
      const repeat = await call(t.app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
        token: user.token,
        form: { quoteId: quote.body.data.quoteId, requestId: id },
      });
      expect(repeat.body.data.id).toBe(done.body.data.id);
      const reuse = await call(t.app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
        token: user.token,
        form: { quoteId: quote.body.data.quoteId, requestId: requestId() },
      });
      expect(reuse.body.msg).toBe('hint_quoteUsed');
      expect(await balance(user.token, BTC)).toMatchObject({ amount: '0.00999000' });
      const list = await call(t.app, 'GET', '/api/balanceConvertRecord/list', {
        token: user.token,
      });
      expect(list.body.total).toBe(1);
      // The fee went to the platform's fee account.
      const fees = await t.db.query<{ balance: string }>(
        "SELECT balance FROM ledger_account WHERE owner_type = 'platform' AND kind = 'fees' AND currency_id = $1 AND book = 'live'",
        [USDT],
      );
      expect(Number(fees.rows[0]!.balance)).toBeGreaterThan(0);
    });

    it('refuses an expired quote, a quote of another user, and amounts it cannot exchange', async () => {
      const user = await fundedUser('100');
      const other = await registerUser(t.app);
      const quote = await call(t.app, 'GET', '/api/balanceConvertRecord/quote', {
        token: user.token,
        query: { fromCurrencyId: String(USDT), toCurrencyId: String(BTC), amount: '50' },
      });
      const foreign = await call(t.app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
        token: other.token,
        form: { quoteId: quote.body.data.quoteId, requestId: requestId() },
      });
      expect(foreign.status).toBe(404);
      t.clock.advance(15_001);
      const expired = await call(t.app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
        token: user.token,
        form: { quoteId: quote.body.data.quoteId, requestId: requestId() },
      });
      expect(expired.body.msg).toBe('hint_quoteExpired');
      const tooMuch = await call(t.app, 'GET', '/api/balanceConvertRecord/quote', {
        token: user.token,
        query: { fromCurrencyId: String(USDT), toCurrencyId: String(BTC), amount: '150' },
      });
      const refused = await call(t.app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
        token: user.token,
        form: { quoteId: tooMuch.body.data.quoteId, requestId: requestId() },
      });
      expect(refused.body.msg).toBe('hint_insufficientBalance');
      const cases: [Record<string, string>, string][] = [
        [
          { fromCurrencyId: String(USDT), toCurrencyId: String(USDT), amount: '1' },
          'hint_exchangeSameCurrency',
        ],
        [{ fromCurrencyId: String(USDT), toCurrencyId: '2', amount: '1' }, 'hint_rateUnavailable'],
        [
          { fromCurrencyId: String(USDT), toCurrencyId: String(BTC), amount: '0.00001' },
          'hint_amountDecimals',
        ],
        [
          { fromCurrencyId: String(USDT), toCurrencyId: String(BTC), amount: '0.0001' },
          'hint_exchangeTooSmall',
        ],
        [{ fromCurrencyId: String(USDT), toCurrencyId: '99', amount: '1' }, 'hint_currencyUnknown'],
      ];
      for (const [query, key] of cases) {
        const result = await call(t.app, 'GET', '/api/balanceConvertRecord/quote', {
          token: user.token,
          query,
        });
        expect({ query, msg: result.body.msg }).toEqual({ query, msg: key });
      }
      expect(await balance(user.token, USDT)).toMatchObject({ amount: '100.0000' });
    });

    it('exchanges within the demo book for a demo account', async () => {
      const user = await registerUser(t.app);
      const token = await demoToken(user.token);
      const quote = await call(t.app, 'GET', '/api/balanceConvertRecord/quote', {
        token,
        query: { fromCurrencyId: String(USDT), toCurrencyId: String(BTC), amount: '1000' },
      });
      const done = await call(t.app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
        token,
        form: { quoteId: quote.body.data.quoteId, requestId: requestId() },
      });
      expect(done.status).toBe(200);
      expect(await balance(token, USDT)).toMatchObject({ amount: '99000.0000' });
      const live = await ledger.userBalances(t.db, 'live', user.userId);
      expect(live).toEqual([]);
    });
  });

  describe('assets', () => {
    it('values every balance, margin included, in the trade currency', async () => {
      const user = await fundedUser('1000');
      // Margin held by a position (the trading engine's move), and coins valued at market.
      await t.db.transaction((tx) =>
        ledger.transfer(tx, {
          book: 'live',
          type: 'trade:margin',
          from: ledger.user(user.userId, USDT),
          to: ledger.user(user.userId, USDT, 'margin'),
          amount: '250',
        }),
      );
      const quote = await call(t.app, 'GET', '/api/balanceConvertRecord/quote', {
        token: user.token,
        query: { fromCurrencyId: String(USDT), toCurrencyId: String(BTC), amount: '100' },
      });
      await call(t.app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
        token: user.token,
        form: { quoteId: quote.body.data.quoteId, requestId: requestId() },
      });
      const assets = await call(t.app, 'GET', '/api/userInfo/userBalanceConvert', {
        token: user.token,
      });
      // 650 USDT + 250 margin + 0.001998 BTC × 50,000 = 999.9 USDT (the fee left 0.1).
      expect(assets.body.data).toMatchObject({
        currencyName: 'USDT',
        userBalanceConvert: '999.9000',
        allMarginAmount: '250.0000',
        profitAndLose: '0.0000',
        profitAndLoseToday: '0.0000',
        unpricedCurrencies: [],
      });
    });
  });

  describe('records', () => {
    it('lists every balance change with its type, amount and balance after, filtered', async () => {
      const user = await withdrawer('100');
      const w = await outMoney(user.token, { amount: '20', addressId: user.addressId });
      await call(t.app, 'POST', '/api/userWithdraw/cancel', {
        token: user.token,
        form: { id: String(w.body.data.id) },
      });
      const quote = await call(t.app, 'GET', '/api/balanceConvertRecord/quote', {
        token: user.token,
        query: { fromCurrencyId: String(USDT), toCurrencyId: String(BTC), amount: '10' },
      });
      await call(t.app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
        token: user.token,
        form: { quoteId: quote.body.data.quoteId, requestId: requestId() },
      });
      const all = await call(t.app, 'GET', '/api/balanceRecord/list', {
        token: user.token,
        query: { pageSize: '50' },
      });
      const rows = all.body.rows!;
      expect(all.body.total).toBe(rows.length);
      // Newest first: the exchange (USDT out, BTC in), the cancel (frozen → available), the hold, the deposit.
      expect(rows.map((r) => [r.type, r.currencyName, r.kind, r.amount, r.balanceAfter])).toEqual([
        ['exchange', 'BTC', 'available', '0.00019980', '0.00019980'],
        ['exchange', 'USDT', 'available', '-10.0000', '90.0000'],
        ['withdraw', 'USDT', 'available', '21.0000', '100.0000'],
        ['withdraw', 'USDT', 'frozen', '-21.0000', '0.0000'],
        ['withdraw', 'USDT', 'frozen', '21.0000', '21.0000'],
        ['withdraw', 'USDT', 'available', '-21.0000', '79.0000'],
        ['recharge', 'USDT', 'available', '100.0000', '100.0000'],
      ]);
      const withdrawals = await call(t.app, 'GET', '/api/balanceRecord/list', {
        token: user.token,
        query: { type: 'withdraw' },
      });
      expect(withdrawals.body.total).toBe(4);
      const btc = await call(t.app, 'GET', '/api/balanceRecord/list', {
        token: user.token,
        query: { currencyId: String(BTC) },
      });
      expect(btc.body.total).toBe(1);
      const paged = await call(t.app, 'GET', '/api/balanceRecord/list', {
        token: user.token,
        query: { pageSize: '2', pageNum: '2' },
      });
      expect(paged.body.rows!.map((r) => r.id)).toEqual([rows[2]!.id, rows[3]!.id]);
      const bad = await call(t.app, 'GET', '/api/balanceRecord/list', {
        token: user.token,
        query: { type: 'nope' },
      });
      expect(bad.status).toBe(400);
    });
  });
});
