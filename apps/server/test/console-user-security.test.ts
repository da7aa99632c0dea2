/**
 * A user's security state in the console (consoleUsersApi.security) and an admin's reset of a
 * lost two-factor (consoleUsersApi.resetTwoFactor), through the HTTP calls. Support reads what
 * protects the account before and after the user turns two-factor on, sets an anti-phishing code
 * (said to be set, never shown), saves destinations and turns the whitelist on; finance and
 * content read nothing of it, and only an admin resets. The reset needs a reason, removes the
 * two-factor, ends every session and socket of the user, holds withdrawals 24 hours as a password
 * change does, and is audited with its reason; a second one is refused, and the user can set
 * two-factor up again. Codes are made from the secret the server answered, at the test's clock.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TOTP } from 'otpauth';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { verifyLedger } from '../src/ledger/verify';
import {
  call,
  createTestApp,
  deposit,
  GOOD_PASSWORD,
  registerUser,
  testConfig,
  type CallResult,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const OPERATOR_PASSWORD = 'patient harbour lantern';
const WITHDRAWAL_PASSWORD = '135790';
const ANTI_PHISHING = 'Blue Heron 42';
const TRC20_ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const OTHER_TRC20 = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const USDT = 3;
const WITHDRAW_USDT_TRC20 = 2;
const STEP_MS = 30_000;
const DAY_MS = 24 * 3_600_000;

let t: TestApp;
let dir: string;
let adminToken: string;
const tokens: Record<'support' | 'finance' | 'content', string> = {
  support: '',
  finance: '',
  content: '',
};

const adminCall = (method: 'GET' | 'POST', url: string, options: Parameters<typeof call>[3]) =>
  adminApiCall(t.app, method, url, options);
const securityOf = (userId: number, token = tokens.support): Promise<CallResult> =>
  adminCall('GET', '/users/security', { token, query: { id: String(userId) } });
const resetOf = (body: unknown, token = adminToken): Promise<CallResult> =>
  adminCall('POST', '/users/twoFactor/reset', { token, json: body });
const post = (url: string, token: string | undefined, form: Record<string, string>) =>
  call(t.app, 'POST', url, { token, form });

/** The code an authenticator app shows for `secret` at the test clock's time. */
const totpCode = (secret: string) =>
  new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: t.clock.now().getTime(),
  });

/** Moves the clock to the next 30-second step, so that the next code is a new one. */
const nextStep = () => t.clock.advance(STEP_MS);

/** A moment as a refusal's parameter says it: "2026-11-26 14:05 UTC". */
const shown = (at: Date) =>
  `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;

/** Sets two-factor up and turns it on for a signed-in user; the secret. */
async function turnOnTwoFactor(token: string): Promise<string> {
  const setup = await post('/api/userSecurity/twoFactor/setup', token, { userPwd: GOOD_PASSWORD });
  expect(setup.status).toBe(200);
  const secret = setup.body.data.secret as string;
  const enabled = await post('/api/userSecurity/twoFactor/enable', token, {
    code: totpCode(secret),
  });
  expect(enabled.status).toBe(200);
  nextStep();
  return secret;
}

/** Signs a user in, with a code when two-factor is on; the new session's token. */
async function signIn(email: string, secret?: string): Promise<string> {
  const login = await post('/api/userInfo/login', undefined, {
    userAccount: email,
    userPwd: GOOD_PASSWORD,
  });
  expect(login.status).toBe(200);
  if (!secret) {
    expect(login.body.data.twoFactorRequired).toBeUndefined();
    return login.body.data.token as string;
  }
  expect(login.body.data.twoFactorRequired).toBe(true);
  const second = await post('/api/userInfo/loginTwoFactor', undefined, {
    challenge: login.body.data.challenge as string,
    code: totpCode(secret),
  });
  expect(second.status).toBe(200);
  nextStep();
  return second.body.data.token as string;
}

async function auditOf(userId: number) {
  const result = await adminCall('GET', '/audit', {
    token: adminToken,
    query: { targetType: 'user', targetId: String(userId), pageSize: '100' },
  });
  expect(result.status).toBe(200);
  return result.body.rows as { action: string; operatorName: string; before: any; after: any }[];
}

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-user-security-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  adminToken = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['support', 'finance', 'content'] as const) {
    const username = `security-${role}`;
    const created = await adminCall('POST', '/operators/create', {
      token: adminToken,
      json: { username, password: OPERATOR_PASSWORD, roles: [role] },
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, username, OPERATOR_PASSWORD);
  }
});

afterAll(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a user's security state", () => {
  it('follows the user turning on two-factor, an anti-phishing code and the whitelist, never showing the code', async () => {
    const user = await registerUser(t.app);
    const fresh = await securityOf(user.userId);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data).toEqual({
      twoFactor: 0,
      twoFactorPending: 0,
      recoveryCodesLeft: 0,
      twoFactorResetTime: null,
      antiPhishing: 0,
      antiPhishingChangeTime: null,
      whitelist: 0,
      whitelistOffTime: null,
      savedDestinations: 0,
      destinationsWaiting: 0,
      withdrawPasswordSet: 0,
      withdrawPasswordChangeTime: null,
      passwordChangeTime: null,
      withdrawHoldUntil: null,
      withdrawHoldCause: null,
      activeSessions: 1,
      lastLoginTime: expect.any(String),
      lastFailedLoginTime: null,
      lastFailedLoginResult: null,
      authLevel: -1,
      authStatus: 0,
    });

    // A wrong password is the last refused sign-in.
    const failedAt = t.clock.now().toISOString();
    const wrong = await post('/api/userInfo/login', undefined, {
      userAccount: user.email,
      userPwd: 'Wrong-password-1',
    });
    expect(wrong.body.msg).toBe('hint_loginFailed');

    // Set up but not confirmed: pending, not on.
    const setup = await post('/api/userSecurity/twoFactor/setup', user.token, {
      userPwd: GOOD_PASSWORD,
    });
    const secret = setup.body.data.secret as string;
    expect((await securityOf(user.userId)).body.data).toMatchObject({
      twoFactor: 0,
      twoFactorPending: 1,
      lastFailedLoginTime: failedAt,
      lastFailedLoginResult: 'wrongPassword',
    });
    const enabled = await post('/api/userSecurity/twoFactor/enable', user.token, {
      code: totpCode(secret),
    });
    expect(enabled.status).toBe(200);
    nextStep();

    const phishingAt = t.clock.now().toISOString();
    const phishing = await post('/api/userSecurity/setAntiPhishing', user.token, {
      code: ANTI_PHISHING,
      userPwd: GOOD_PASSWORD,
      twoFactorCode: totpCode(secret),
    });
    expect(phishing.status).toBe(200);
    nextStep();

    // One address saved just now (waiting out its day) and one saved two days ago.
    const added = await post('/api/userWalletAddress/addUserWalletAddress', user.token, {
      currencyId: String(USDT),
      network: 'TRC20',
      address: TRC20_ADDRESS,
    });
    expect(added.status).toBe(200);
    const before = new Date(t.clock.now().getTime() - 2 * DAY_MS);
    await t.db.query(
      `INSERT INTO user_wallet_address (user_id, currency_id, network, address, created_at, updated_at)
       VALUES ($1, $2, 'TRC20', $3, $4, $4)`,
      [user.userId, USDT, OTHER_TRC20, before],
    );
    expect((await post('/api/withdrawWhitelist/set', user.token, { enabled: '1' })).status).toBe(
      200,
    );
    // The first withdrawal password holds nothing (a change would).
    const withPwd = await post('/api/userInfo/updateUserWithPwd', user.token, {
      newPwd: WITHDRAWAL_PASSWORD,
      userPwd: GOOD_PASSWORD,
      twoFactorCode: totpCode(secret),
    });
    expect(withPwd.status).toBe(200);
    nextStep();

    const state = await securityOf(user.userId);
    expect(state.body.data).toMatchObject({
      twoFactor: 1,
      twoFactorPending: 0,
      recoveryCodesLeft: 10,
      antiPhishing: 1,
      antiPhishingChangeTime: phishingAt,
      whitelist: 1,
      savedDestinations: 2,
      destinationsWaiting: 1,
      withdrawPasswordSet: 1,
      withdrawHoldUntil: null,
      withdrawHoldCause: null,
    });
    // The phrase is the user's alone: not in the answer, under any field.
    expect(JSON.stringify(state.body)).not.toContain(ANTI_PHISHING);
    expect(JSON.stringify(state.body).toLowerCase()).not.toContain('heron');

    // An admin reads it too.
    expect((await securityOf(user.userId, adminToken)).body.data).toEqual(state.body.data);
  });

  it('is read by support and admins only, and only an admin resets two-factor', async () => {
    const user = await registerUser(t.app);
    await turnOnTwoFactor(user.token);
    for (const role of ['finance', 'content'] as const) {
      const refused = await securityOf(user.userId, tokens[role]);
      expect([refused.status, refused.body.msg]).toEqual([403, 'hint_forbidden']);
    }
    for (const role of ['support', 'finance', 'content'] as const) {
      const refused = await resetOf({ id: user.userId, reason: 'lost phone' }, tokens[role]);
      expect([refused.status, refused.body.msg]).toEqual([403, 'hint_forbidden']);
    }
    const signedOut = await adminCall('GET', '/users/security', {
      query: { id: String(user.userId) },
    });
    expect(signedOut.status).toBe(401);
    expect((await securityOf(user.userId)).body.data.twoFactor).toBe(1);
    // Nothing was done, so nothing was audited.
    expect(
      (await auditOf(user.userId)).filter((entry) => entry.action === 'user.resetTwoFactor'),
    ).toEqual([]);
  });

  it('refuses an unknown user and bad input on its field', async () => {
    const unknown = await securityOf(2_000_000_000);
    expect([unknown.status, unknown.body.msg]).toEqual([404, 'hint_notFound']);
    const badId = await adminCall('GET', '/users/security', {
      token: tokens.support,
      query: { id: 'x' },
    });
    expect(badId.status).toBe(400);
    expect(badId.body.params?.[0]).toBe('id');
    const nobody = await resetOf({ id: 2_000_000_000, reason: 'lost phone' });
    expect([nobody.status, nobody.body.msg]).toEqual([404, 'hint_notFound']);
  });
});

describe("an admin's reset of a lost two-factor", () => {
  it('needs a reason of at most 500 characters', async () => {
    const user = await registerUser(t.app);
    await turnOnTwoFactor(user.token);
    for (const body of [
      { id: user.userId },
      { id: user.userId, reason: '' },
      { id: user.userId, reason: '   ' },
      { id: user.userId, reason: 'x'.repeat(501) },
    ]) {
      const refused = await resetOf(body);
      expect(refused.status).toBe(400);
      expect(refused.body.params?.[0]).toBe('reason');
    }
    expect((await securityOf(user.userId)).body.data.twoFactor).toBe(1);
  });

  it('leaves a setup never confirmed alone: two-factor is off', async () => {
    const user = await registerUser(t.app);
    await post('/api/userSecurity/twoFactor/setup', user.token, { userPwd: GOOD_PASSWORD });
    const refused = await resetOf({ id: user.userId, reason: 'lost phone' });
    expect([refused.status, refused.body.msg]).toEqual([422, 'hint_twoFactorOff']);
    expect((await securityOf(user.userId)).body.data).toMatchObject({
      twoFactorPending: 1,
      withdrawHoldUntil: null,
    });
    // The user's session was left alone.
    const info = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: user.token });
    expect(info.status).toBe(200);
  });

  it('removes it, ends every session and socket, holds withdrawals a day, audited with the reason; the user sets it up again', async () => {
    const user = await registerUser(t.app);
    const secret = await turnOnTwoFactor(user.token);
    const withPwd = await post('/api/userInfo/updateUserWithPwd', user.token, {
      newPwd: WITHDRAWAL_PASSWORD,
      userPwd: GOOD_PASSWORD,
      twoFactorCode: totpCode(secret),
    });
    expect(withPwd.status).toBe(200);
    nextStep();
    await deposit(t.db, user.userId, '100', USDT);
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO user_wallet_address (user_id, currency_id, network, address, created_at, updated_at)
       VALUES ($1, $2, 'TRC20', $3, $4, $4) RETURNING id`,
      [user.userId, USDT, TRC20_ADDRESS, t.clock.now()],
    );
    const addressId = rows[0]!.id;
    const second = await signIn(user.email, secret);

    // A socket signed in with the first session, on a private topic.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ws = new WebSocket(`${address.replace('http', 'ws')}/ws`);
    const messages: { op: string; msg?: string; signedOut?: boolean }[] = [];
    ws.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ op: 'auth', token: user.token }));
    await expect.poll(() => messages.some((m) => m.op === 'authed')).toBe(true);
    ws.send(JSON.stringify({ op: 'subscribe', topic: 'balances' }));
    await expect.poll(() => messages.some((m) => m.op === 'subscribed')).toBe(true);

    const reason = 'Lost phone.\nIdentity checked on a video call, ticket 4411.';
    const resetAt = t.clock.now();
    const until = new Date(resetAt.getTime() + DAY_MS);
    const reset = await resetOf({ id: user.userId, reason: `  ${reason}  ` });
    expect(reset.status).toBe(200);
    expect(reset.body.data).toEqual({ sessionsEnded: 2, withdrawHoldUntil: until.toISOString() });

    // Both sessions are refused, and the socket is signed out.
    for (const token of [user.token, second]) {
      const refused = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token });
      expect(refused.status).toBe(401);
    }
    await expect
      .poll(() => messages.find((m) => m.op === 'error' && m.signedOut === true))
      .toMatchObject({ msg: 'hint_sessionExpired' });
    ws.close();

    // Nothing of the two-factor is left: the password alone signs in.
    const { rows: left } = await t.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM user_two_factor WHERE user_id = $1)::int
            + (SELECT count(*) FROM user_two_factor_recovery WHERE user_id = $1)::int AS n`,
      [user.userId],
    );
    expect(left[0]!.n).toBe(0);
    const token = await signIn(user.email);
    const info = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token });
    expect(info.body.data.withdrawHoldUntil).toBe(until.toISOString());

    // Withdrawals wait, as after a password change, and freeze nothing.
    const outMoney = (session: string) =>
      call(t.app, 'POST', '/api/userWithdraw/outMoney', {
        token: session,
        json: {
          channelId: WITHDRAW_USDT_TRC20,
          amount: '10',
          withPwd: WITHDRAWAL_PASSWORD,
          addressId,
          requestId: `reset-${user.userId}-${t.clock.now().getTime()}`,
        },
      });
    const held = await outMoney(token);
    expect(held.status).toBe(422);
    expect(held.body).toMatchObject({ msg: 'hint_withdrawHeld', params: [shown(until)] });
    const { rows: frozen } = await t.db.query('SELECT 1 FROM user_withdraw WHERE user_id = $1', [
      user.userId,
    ]);
    expect(frozen).toHaveLength(0);

    expect((await securityOf(user.userId)).body.data).toMatchObject({
      twoFactor: 0,
      twoFactorPending: 0,
      recoveryCodesLeft: 0,
      twoFactorResetTime: resetAt.toISOString(),
      withdrawHoldUntil: until.toISOString(),
      withdrawHoldCause: 'twoFactorReset',
      activeSessions: 1,
    });

    const entries = (await auditOf(user.userId)).filter(
      (entry) => entry.action === 'user.resetTwoFactor',
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operatorName: ADMIN_USERNAME,
      before: { twoFactor: true, sessions: 2, withdrawHoldUntil: null },
      after: {
        twoFactor: false,
        sessionsEnded: 2,
        withdrawHoldUntil: until.toISOString(),
        reason,
      },
    });

    // Once is enough: a second reset finds it off, and changes nothing.
    const again = await resetOf({ id: user.userId, reason: 'again' });
    expect([again.status, again.body.msg]).toEqual([422, 'hint_twoFactorOff']);
    expect((await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token })).status).toBe(200);
    expect(
      (await auditOf(user.userId)).filter((entry) => entry.action === 'user.resetTwoFactor'),
    ).toHaveLength(1);

    // The user sets it up again with a new secret, and sign-in asks its code.
    const newSecret = await turnOnTwoFactor(token);
    expect(newSecret).not.toBe(secret);
    expect((await securityOf(user.userId)).body.data).toMatchObject({
      twoFactor: 1,
      recoveryCodesLeft: 10,
    });

    // A day later the hold is over (the sessions have lapsed: sign in again, with the new code).
    t.clock.advance(DAY_MS + 60_000);
    const later = await signIn(user.email, newSecret);
    const after = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: later });
    expect(after.body.data.withdrawHoldUntil).toBeNull();
  });
});
