/**
 * Issue 19 through the HTTP calls: the avatar (hostile images refused, a sound one re-encoded as
 * a square JPEG without metadata and served by its URL only), the demo account's reset (orders
 * cancelled and positions closed at the feed's price, 100,000 USDT again, history kept, once a
 * day, the live book untouched) and the withdrawal address whitelist (new addresses refused until
 * a day has passed, turning it off confirmed with the password and holding withdrawals). The
 * ledger verifies after every test.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import { settledFastTrade } from './support/fast-trade';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import {
  call,
  createTestApp,
  createTestDatabase,
  deposit,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers';
import { flatJpeg, flatPng, hasGps, hostileImages, jpegWithGps } from './support/test-images';

const DAY_MS = 24 * 3600 * 1000;
const USDT = 3;
let sequence = 0;
const requestId = () => `profile-${Date.now()}-${++sequence}`;
const dataUrl = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;
/** A moment as the server's messages write it. */
const shown = (at: Date) =>
  `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;

describe(`avatar and whitelist on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    expect((await verifyLedger(t.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    await t.close();
  });

  const upload = (token: string, image: string) =>
    call(t.app, 'POST', '/api/userInfo/modifyAvatar', { token, json: { image } });

  describe('avatar', () => {
    it('refuses every hostile image and keeps the avatar as it was', async () => {
      const user = await registerUser(t.app);
      const results: Record<string, unknown> = {};
      const wanted: Record<string, unknown> = {};
      for (const { name, data, reason } of await hostileImages()) {
        const result = await upload(user.token, dataUrl('image/png', data));
        results[name] = [result.status, result.body.msg];
        wanted[name] =
          reason === 'format' ? [415, 'hint_avatarFormat'] : [422, 'hint_avatarDimensions'];
      }
      expect(results).toEqual(wanted);
      // A data URL of another type, and text that is not base64.
      const gif = await upload(user.token, 'data:image/gif;base64,R0lGODlhAQABAAAAACw=');
      expect([gif.status, gif.body.msg]).toEqual([415, 'hint_avatarFormat']);
      const text = await upload(user.token, 'not an image at all');
      expect([text.status, text.body.msg]).toEqual([415, 'hint_avatarFormat']);
      // Within the body's bound, but over 2 MiB once decoded: refused before decoding.
      const big = await upload(user.token, 'A'.repeat(2_796_208));
      expect([big.status, big.body.msg]).toEqual([413, 'hint_avatarTooLarge']);
      const info = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: user.token });
      expect(info.body.data.avatar).toBeNull();
      const { rows } = await t.db.query('SELECT 1 FROM user_avatar WHERE user_id = $1', [
        user.userId,
      ]);
      expect(rows).toHaveLength(0);
    });

    it('stores a square JPEG of at most 512 pixels without metadata, served by its URL', async () => {
      const user = await registerUser(t.app);
      // Not square, larger than 512, with EXIF and GPS: the server crops and scales it anyway.
      const wide = await sharp(await flatPng(900, 600))
        .withExif({ IFD0: { Make: 'BourseTestCamera' }, IFD3: { GPSLatitudeRef: 'N' } })
        .png()
        .toBuffer();
      const result = await upload(user.token, dataUrl('image/png', wide));
      expect(result.status).toBe(200);
      const url = result.body.data.avatar as string;
      expect(url).toMatch(/^\/api\/userInfo\/avatar\?id=\d+&v=[0-9a-f]{64}$/);
      const info = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: user.token });
      expect(info.body.data.avatar).toBe(url);

      // Anyone with the URL gets it, without a session, cached for good.
      const served = await t.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.headers['cache-control']).toContain('immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      const bytes = served.rawPayload;
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(url.split('v=')[1]);
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 512, height: 512 });
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();

      // A small image taken turned (EXIF orientation), with GPS: upright, square, no GPS.
      const turned = await upload(user.token, (await jpegWithGps()).toString('base64'));
      expect(turned.status).toBe(200);
      const newUrl = turned.body.data.avatar as string;
      expect(newUrl).not.toBe(url);
      const again = await t.app.inject({ method: 'GET', url: newUrl });
      const small = await sharp(again.rawPayload).metadata();
      expect(small).toMatchObject({ format: 'jpeg', width: 30, height: 30 });
      expect(hasGps(small.exif)).toBe(false);

      // The old URL, another user's id or a made-up hash find nothing.
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      const other = newUrl.replace(`id=${user.userId}`, `id=${user.userId + 1}`);
      expect((await t.app.inject({ method: 'GET', url: other })).statusCode).toBe(404);
      const bare = await t.app.inject({
        method: 'GET',
        url: `/api/userInfo/avatar?id=${user.userId}`,
      });
      expect(bare.statusCode).toBe(400);
    });

    it('takes a JPEG that is square already at its size', async () => {
      const user = await registerUser(t.app);
      const result = await upload(user.token, dataUrl('image/jpeg', await flatJpeg(200, 200)));
      expect(result.status).toBe(200);
      const served = await t.app.inject({ method: 'GET', url: result.body.data.avatar });
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 200, height: 200 });
    });
  });

  describe('withdrawal whitelist', () => {
    const TRC20_ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
    const OTHER_TRC20 = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
    const WITHDRAW_USDT_TRC20 = 2;
    /** Seeded: withdrawals to a bank card in USD. */
    const WITHDRAW_BANK_USD = 1;
    const USD = 1;
    const WITH_PWD = '246810';

    async function withdrawer() {
      const user = await registerUser(t.app);
      await deposit(t.db, user.userId, '500');
      const set = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
        token: user.token,
        form: { newPwd: WITH_PWD, userPwd: GOOD_PASSWORD },
      });
      expect(set.status).toBe(200);
      return user;
    }

    async function addAddress(token: string, address: string) {
      const result = await call(t.app, 'POST', '/api/userWalletAddress/addUserWalletAddress', {
        token,
        form: { currencyId: String(USDT), network: 'TRC20', address },
      });
      expect(result.status).toBe(200);
      return result.body.data as { id: number; createTime: string; usableFrom: string };
    }

    const outMoney = (token: string, addressId: number) =>
      call(t.app, 'POST', '/api/userWithdraw/outMoney', {
        token,
        json: {
          channelId: WITHDRAW_USDT_TRC20,
          amount: '10',
          withPwd: WITH_PWD,
          addressId,
          requestId: requestId(),
        },
      });

    const setWhitelist = (token: string, form: Record<string, string>) =>
      call(t.app, 'POST', '/api/withdrawWhitelist/set', { token, form });

    const signIn = async (email: string) =>
      (
        await call(t.app, 'POST', '/api/userInfo/login', {
          form: { userAccount: email, userPwd: GOOD_PASSWORD },
        })
      ).body.data.token as string;

    it('is off at first: a new address takes withdrawals at once', async () => {
      const user = await withdrawer();
      const status = await call(t.app, 'GET', '/api/withdrawWhitelist/get', { token: user.token });
      expect(status.body.data).toEqual({ enabled: 0, delayHours: 24 });
      const address = await addAddress(user.token, TRC20_ADDRESS);
      expect(Date.parse(address.usableFrom) - Date.parse(address.createTime)).toBe(DAY_MS);
      expect((await outMoney(user.token, address.id)).status).toBe(200);
    });

    it('refuses addresses younger than a day while on, and takes them a day later', async () => {
      const user = await withdrawer();
      const on = await setWhitelist(user.token, { enabled: '1' });
      expect(on.body.data).toMatchObject({ enabled: 1 });
      const address = await addAddress(user.token, TRC20_ADDRESS);
      const refused = await outMoney(user.token, address.id);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        msg: 'hint_addressNotWhitelisted',
        params: [shown(new Date(address.usableFrom))],
      });
      // Nothing was frozen.
      const { rows } = await t.db.query('SELECT 1 FROM user_withdraw WHERE user_id = $1', [
        user.userId,
      ]);
      expect(rows).toHaveLength(0);

      t.clock.advance(DAY_MS + 60_000);
      const token = await signIn(user.email);
      expect((await outMoney(token, address.id)).status).toBe(200);

      // A changed address starts its day again; a bank card is judged the same way.
      const changed = await call(t.app, 'POST', '/api/userWalletAddress/modifyUserWalletAddress', {
        token,
        form: {
          id: String(address.id),
          currencyId: String(USDT),
          network: 'TRC20',
          address: OTHER_TRC20,
        },
      });
      expect(changed.status).toBe(200);
      expect((await outMoney(token, address.id)).body.msg).toBe('hint_addressNotWhitelisted');

      await deposit(t.db, user.userId, '500', USD);
      const card = await call(t.app, 'POST', '/api/userBank/addUserBankCard', {
        token,
        form: { bankName: 'Test Bank', accountName: 'A. User', cardNumber: '6222020200112233445' },
      });
      expect(card.status).toBe(200);
      const toCard = (session: string) =>
        call(t.app, 'POST', '/api/userWithdraw/outMoney', {
          token: session,
          json: {
            channelId: WITHDRAW_BANK_USD,
            amount: '20',
            withPwd: WITH_PWD,
            bankId: card.body.data.id,
            requestId: requestId(),
          },
        });
      const cardRefused = await toCard(token);
      expect(cardRefused.body).toMatchObject({
        msg: 'hint_addressNotWhitelisted',
        params: [shown(new Date(card.body.data.usableFrom))],
      });
      t.clock.advance(DAY_MS + 60_000);
      expect((await toCard(await signIn(user.email))).status).toBe(200);
    });

    it('is turned off only with the login password, which holds withdrawals a day', async () => {
      const user = await withdrawer();
      const address = await addAddress(user.token, TRC20_ADDRESS);
      t.clock.advance(DAY_MS + 60_000);
      const token = await signIn(user.email);
      expect((await setWhitelist(token, { enabled: '1' })).status).toBe(200);
      // The old address is usable at once.
      expect((await outMoney(token, address.id)).status).toBe(200);

      const missing = await setWhitelist(token, { enabled: '0' });
      expect([missing.status, missing.body.msg]).toEqual([400, 'hint_loginPwdRequired']);
      const wrong = await setWhitelist(token, { enabled: '0', userPwd: 'Wrong-password-1' });
      expect([wrong.status, wrong.body.msg]).toEqual([422, 'hint_pwdWrong']);
      const still = await call(t.app, 'GET', '/api/withdrawWhitelist/get', { token });
      expect(still.body.data.enabled).toBe(1);

      const off = await setWhitelist(token, { enabled: '0', userPwd: GOOD_PASSWORD });
      expect(off.status).toBe(200);
      expect(off.body.data.enabled).toBe(0);
      const until = new Date(t.clock.now().getTime() + DAY_MS);
      const info = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token });
      expect(info.body.data.withdrawHoldUntil).toBe(until.toISOString());
      const held = await outMoney(token, address.id);
      expect(held.body).toMatchObject({ msg: 'hint_withdrawHeld', params: [shown(until)] });
      // Turning it off again changes nothing (no new hold); on again is immediate.
      t.clock.advance(60_000);
      const again = await setWhitelist(token, { enabled: '0' });
      expect(again.body.data.enabled).toBe(0);
      const later = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token });
      expect(later.body.data.withdrawHoldUntil).toBe(until.toISOString());
    });
  });
});

describe(`demo reset on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  /** A Wednesday: every market of the test is open. */
  const NOW = Date.parse('2026-11-18T15:00:00Z');
  let database: TestDatabase;
  let t: TestApp;
  let feed: ScriptedFeed;
  let clock: ManualClock;

  beforeAll(async () => {
    database = await createTestDatabase();
    clock = new ManualClock(new Date(NOW));
    ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], 'demo-reset'));
    await tick('100000.00');
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
    feed.tick('BTCUSDT', price, clock.now().getTime());
    await t.app.services.triggers!.idle();
  }

  const post = (token: string, path: string, json: Record<string, unknown>) =>
    call(t.app, 'POST', path, { token, json: { requestId: requestId(), ...json } });
  const get = (token: string, path: string, query: Record<string, string> = {}) =>
    call(t.app, 'GET', path, { token, query });
  const reset = (token: string, id = requestId()) =>
    call(t.app, 'POST', '/api/userInfo/resetDemo', { token, form: { requestId: id } });

  async function signIn(email: string, accountType: '0' | '2') {
    const login = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: GOOD_PASSWORD },
    });
    const token = login.body.data.token as string;
    const switched = await get(token, '/api/userInfo/changeLoginModel', { accountType });
    expect(switched.body.data.accountType).toBe(Number(accountType));
    return token;
  }

  const usdt = async (token: string) =>
    (await get(token, '/api/userInfo/userBalance', { currencyId: String(USDT) })).body.data as {
      amount: string;
      frozenAmount: string;
    };

  const contract = (token: string, fields: Record<string, unknown> = {}) =>
    post(token, '/api/contractPosition/open', {
      productType: 2,
      productCode: 'BTCUSDT',
      orderDirection: 1,
      leverage: 10,
      quantity: '0.01',
      ...fields,
    });

  it('closes everything at the feed price, restores 100,000 USDT and keeps the history', async () => {
    const user = await registerUser(t.app);
    // The live book: money and an open position the reset must not touch.
    await deposit(t.db, user.userId, '1000');
    const live = await signIn(user.email, '0');
    const livePosition = await contract(live);
    expect(livePosition.body.data.status).toBe(1);
    const liveBefore = await usdt(live);

    const demo = await signIn(user.email, '2');
    const open = await contract(demo);
    expect(open.body.data.status).toBe(1);
    const resting = await contract(demo, { orderType: 2, price: '90000.00' });
    expect(resting.body.data.status).toBe(0);
    const spotFields = { productType: 2, productCode: 'BTCUSDT', orderType: 1, quantity: '0.0100' };
    expect((await post(demo, '/api/spotTradeOrder/addSpotTradeOrder', spotFields)).status).toBe(
      200,
    );
    const spotLimit = await post(demo, '/api/spotTradeOrder/addSpotTradeOrder', {
      ...spotFields,
      orderType: 2,
      price: '80000.00',
    });
    expect(spotLimit.body.data.status).toBe(0);
    const bibiFields = { productCode: 'BTCUSDT', orderType: 1, quantity: '0.0100' };
    expect((await post(demo, '/api/bibiTradeOrder/buy', bibiFields)).status).toBe(200);

    await tick('101000.00');
    const result = await reset(demo);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      balance: '100000',
      positionsClosed: 3,
      ordersCancelled: 2,
      resetTime: clock.now().toISOString(),
      nextResetTime: new Date(clock.now().getTime() + DAY_MS).toISOString(),
    });
    expect(await usdt(demo)).toMatchObject({ amount: '100000.0000', frozenAmount: '0.0000' });

    // Closed at the feed's price, and kept in the lists.
    const detail = await get(demo, '/api/contractPosition/detail', {
      id: String(open.body.data.id),
    });
    expect(detail.body.data).toMatchObject({ status: 2, exitPrice: '101000.00' });
    const cancelled = await get(demo, '/api/contractPosition/detail', {
      id: String(resting.body.data.id),
    });
    expect(cancelled.body.data.status).toBe(3);
    // The user is told of the reset, not of each position it closed (the opening was told).
    const notifications = await get(demo, '/api/notification/list', { pageSize: '50' });
    const types = (notifications.body.rows as { type: string }[]).map((row) => row.type);
    expect(types).toContain('contractOpened');
    expect(types).not.toContain('contractClosed');
    const spotOrders = await get(demo, '/api/spotTradeOrder/list');
    expect(spotOrders.body.total).toBe(3);
    const holdings = await get(demo, '/api/spotTradeOrder/holdings');
    expect(holdings.body.data).toEqual([]);
    const coins = await get(demo, '/api/userBibiAssets/list');
    expect(coins.body.rows).toEqual([]);

    // One journal entry of its own type moved the difference, from or to the demo faucet.
    const { rows: entries } = await t.db.query<{ book: string }>(
      `SELECT DISTINCT e.book FROM ledger_entry e
       JOIN ledger_posting p ON p.entry_id = e.id
       JOIN ledger_account a ON a.id = p.account_id
       WHERE e.entry_type = 'demo_reset' AND a.owner_type = 'user' AND a.owner_id = $1`,
      [user.userId],
    );
    expect(entries).toEqual([{ book: 'demo' }]);
    const records = await get(demo, '/api/balanceRecord/list', { type: 'demo' });
    expect(records.body.rows!.map((row) => row.entryType)).toContain('demo_reset');

    // The live book as it was.
    expect(await usdt(live)).toEqual(liveBefore);
    const liveDetail = await get(live, '/api/contractPosition/detail', {
      id: String(livePosition.body.data.id),
    });
    expect(liveDetail.body.data.status).toBe(1);
  });

  it('answers a repeat the same, refuses another reset the same day, allows it a day later', async () => {
    const user = await registerUser(t.app);
    const demo = await signIn(user.email, '2');
    await contract(demo);
    await tick('99000.00');
    const id = requestId();
    const first = await reset(demo, id);
    expect(first.status).toBe(200);
    const repeat = await reset(demo, id);
    expect(repeat.body.data).toEqual(first.body.data);
    const { rows } = await t.db.query('SELECT 1 FROM demo_reset WHERE user_id = $1', [user.userId]);
    expect(rows).toHaveLength(1);

    await contract(demo);
    clock.advance(DAY_MS - 60_000);
    const soon = await reset(demo);
    expect(soon.status).toBe(429);
    expect(soon.body).toMatchObject({
      msg: 'hint_demoResetTooSoon',
      params: [shown(new Date(first.body.data.nextResetTime))],
    });
    // Refused before anything moved: the position is still open.
    const positions = await get(demo, '/api/contractPosition/list', { status: '1' });
    expect(positions.body.total).toBe(1);

    clock.advance(120_000);
    await tick('99500.00', 0);
    const again = await signIn(user.email, '2');
    const next = await reset(again);
    expect(next.status).toBe(200);
    expect(next.body.data.positionsClosed).toBe(1);
    expect(await usdt(again)).toMatchObject({ amount: '100000.0000' });
  });

  it('refuses while a fast trade is open, moving nothing, and resets once it settled', async () => {
    const user = await registerUser(t.app);
    const demo = await signIn(user.email, '2');
    await call(t.app, 'POST', '/api/fastTradeOrder/acceptRisk', { token: demo });
    const options = await get(demo, '/api/fastTradeOrderOptions/list', {
      productType: '2',
      productCode: 'BTCUSDT',
    });
    const minute = (options.body.data as { id: number; durationSeconds: number }[]).find(
      (option) => option.durationSeconds === 60,
    )!;
    const placed = await post(demo, '/api/fastTradeOrder/addFastTradeOrder', {
      productType: 2,
      productCode: 'BTCUSDT',
      optionId: minute.id,
      orderDirection: 1,
      amount: '100',
    });
    expect(placed.status).toBe(200);
    await contract(demo);
    const refused = await reset(demo);
    expect([refused.status, refused.body.msg]).toEqual([409, 'hint_demoResetTradesOpen']);
    expect((await get(demo, '/api/contractPosition/list', { status: '1' })).body.total).toBe(1);

    await tick('100500.00', 61_000);
    await settledFastTrade(t.app, demo, placed.body.data.id);
    const result = await reset(demo);
    expect(result.status).toBe(200);
    expect(await usdt(demo)).toMatchObject({ amount: '100000.0000' });
  });

  it('takes back a demo balance above 100,000 to the demo faucet', async () => {
    const user = await registerUser(t.app);
    const demo = await signIn(user.email, '2');
    await deposit(t.db, user.userId, '250', USDT, 'demo');
    const result = await reset(demo);
    expect(result.body.data).toMatchObject({ balance: '100000', positionsClosed: 0 });
    expect(await usdt(demo)).toMatchObject({ amount: '100000.0000' });
  });
});
