/**
 * The withdrawal fee the server freezes is the one the app shows: over many random channels
 * (fee rates, fixed fees) in currencies of different scales and random amounts, what a request
 * freezes and records equals amount + withdrawalFee(amount, channel, scale) computed from the
 * channel exactly as the app lists it. Operators cannot set a fixed fee finer than the currency.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { add, sub, toScale, withdrawalFee } from '@bourse/shared';
import { verifyLedger } from '../src/ledger/verify';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import {
  call,
  createTestApp,
  deposit,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const WITH_PWD = '246810';
const ADMIN = 'admin';
const ADMIN_PASSWORD = 'withdraw fee admin password';
/** The seeded currencies tried, with a network and an address of each. */
const CURRENCIES = [
  {
    id: 3,
    name: 'USDT',
    scale: 4,
    network: 'TRC20',
    address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
  },
  {
    id: 4,
    name: 'BTC',
    scale: 8,
    network: 'BTC',
    address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  },
] as const;
const RUNS = 30;
const USDT_CHANNEL = { currencyId: 3, network: 'TRC20', feeRate: '0.01' };

let t: TestApp;
let operatorToken: string;
let sequence = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_TTL_HOURS: '720' } });
  await ensureFirstAdmin(t.db, t.clock, ADMIN, ADMIN_PASSWORD);
  operatorToken = await operatorReady(t.app, ADMIN, ADMIN_PASSWORD);
});
afterEach(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
});

function saveChannel(fields: Record<string, unknown>) {
  sequence += 1;
  return adminApiCall(t.app, 'POST', '/channels/withdraw/save', {
    token: operatorToken,
    json: {
      channelType: 2,
      channelName: `Fee test ${sequence}`,
      minAmount: '0.0001',
      maxAmount: '100000',
      dailyLimit: '1000000',
      remark: '',
      sort: 0,
      isVisible: 1,
      ...fields,
    },
  });
}

/** A user with plenty of each currency, a withdrawal password and an address on each network. */
async function withdrawer() {
  const user = await registerUser(t.app);
  const pwd = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
    token: user.token,
    form: { newPwd: WITH_PWD, userPwd: GOOD_PASSWORD },
  });
  expect(pwd.status).toBe(200);
  const addresses = new Map<number, number>();
  for (const currency of CURRENCIES) {
    await deposit(t.db, user.userId, '10000000', currency.id);
    const now = t.clock.now();
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO user_wallet_address (user_id, currency_id, network, address, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
      [user.userId, currency.id, currency.network, currency.address, now],
    );
    addresses.set(currency.id, rows[0]!.id);
  }
  return { ...user, addresses };
}

function outMoney(
  user: Awaited<ReturnType<typeof withdrawer>>,
  channelId: number,
  currencyId: number,
  amount: string,
) {
  sequence += 1;
  return call(t.app, 'POST', '/api/userWithdraw/outMoney', {
    token: user.token,
    json: {
      channelId,
      amount,
      withPwd: WITH_PWD,
      addressId: user.addresses.get(currencyId),
      requestId: `withdraw-fee-${sequence}`,
    },
  });
}

async function frozen(token: string, currencyId: number): Promise<string> {
  const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token,
    query: { currencyId: String(currencyId) },
  });
  expect(result.status).toBe(200);
  return (result.body.data as { frozenAmount: string }).frozenAmount;
}

/** A decimal of `scale` decimals from its count of smallest units. */
function fromUnits(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

describe(`the withdrawal fee, server and app alike (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('freezes amount + the fee the app computes from the listed channel', async () => {
    const user = await withdrawer();
    const cases = fc.integer({ min: 0, max: CURRENCIES.length - 1 }).chain((index) => {
      const currency = CURRENCIES[index]!;
      return fc.record({
        currency: fc.constant(currency),
        // A rate below 10 % with up to 8 decimals, the finest operators may set.
        feeRate: fc.bigInt({ min: 0n, max: 10_000_000n }).map((units) => fromUnits(units, 8)),
        // A fixed fee at the currency's scale, up to 5.
        fixedFee: fc
          .bigInt({ min: 0n, max: 5n * 10n ** BigInt(currency.scale) })
          .map((units) => fromUnits(units, currency.scale)),
        // An amount from one unit up to 1,000, at the currency's scale.
        amount: fc
          .bigInt({ min: 1n, max: 1000n * 10n ** BigInt(currency.scale) })
          .map((units) => fromUnits(units, currency.scale)),
      });
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ currency, feeRate, fixedFee, amount }) => {
        const saved = await saveChannel({
          currencyId: currency.id,
          network: currency.network,
          feeRate,
          fixedFee,
          minAmount: fromUnits(1n, currency.scale),
        });
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
        const channelId = saved.body.data.id as number;

        // The channel as the app reads it, and the fee the app shows from it.
        const list = await call(t.app, 'GET', '/api/withdrawChannelConfig/list', {
          token: user.token,
          query: { currencyId: String(currency.id) },
        });
        const channel = (list.body.data as any[]).find((row) => row.id === channelId);
        expect(channel.scale).toBe(currency.scale);
        const shown = withdrawalFee(amount, channel, channel.scale);

        const before = await frozen(user.token, currency.id);
        const result = await outMoney(user, channelId, currency.id, amount);
        expect(result.status, JSON.stringify(result.body)).toBe(200);
        expect(result.body.data.fee).toBe(shown);
        expect(result.body.data.totalAmount).toBe(toScale(add(amount, shown), currency.scale));
        const after = await frozen(user.token, currency.id);
        expect(sub(after, before)).toBe(add(amount, shown));
      }),
      { numRuns: RUNS, seed: 20261126 },
    );
  });

  it('charges what the app shows on a channel saved before fixed fees were held to the scale', async () => {
    const user = await withdrawer();
    const saved = await saveChannel({ ...USDT_CHANNEL, fixedFee: '0' });
    expect(saved.status).toBe(200);
    const channelId = saved.body.data.id as number;
    // As an operator could store it before: half a unit of USDT more than the currency keeps.
    await t.db.query("UPDATE withdraw_channel SET fixed_fee = '0.00005' WHERE id = $1", [
      channelId,
    ]);
    const result = await outMoney(user, channelId, 3, '10');
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    // 10 × 0.01 + 0.00005 = 0.10005, rounded up to USDT's 4 decimals.
    expect(withdrawalFee('10', { feeRate: '0.01', fixedFee: '0.00005' }, 4)).toBe('0.1001');
    expect(result.body.data.fee).toBe('0.1001');
    expect(await frozen(user.token, 3)).toBe('10.1001');
  });

  it('refuses a fixed fee with more decimals than the currency, naming the field', async () => {
    const refused = await saveChannel({ ...USDT_CHANNEL, fixedFee: '0.00005' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ msg: 'hint_amount_scale', params: ['fixedFee'] });
    const accepted = await saveChannel({ ...USDT_CHANNEL, fixedFee: '0.0005' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });
});
