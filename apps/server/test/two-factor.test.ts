/**
 * Two-factor authentication of users through the HTTP calls: setting it up (login password),
 * turning it on with a code, the sign-in challenge, codes used once, recovery codes, withdrawals
 * and security changes asking a code, turning it off, and the lock after wrong codes. Codes are
 * made in the test from the secret the server answered, at the test clock's time, as an
 * authenticator app makes them.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cmp } from '@bourse/shared';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/ledger/verify';
import { TWO_FACTOR_KEY_FILE } from '../src/modules/two-factor';
import { call, createTestApp, deposit, GOOD_PASSWORD, registerUser, type TestApp } from './helpers';

const KEY = 'a1'.repeat(32);
const WITH_PWD = '246810';
const TRC20_ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const USDT = 3;
const WITHDRAW_USDT_TRC20 = 2;
const STEP_MS = 30_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TWO_FACTOR_KEY: KEY } });
});
afterAll(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await t.close();
});

/** The code an authenticator app shows for `secret` at the test clock's time (plus `steps`). */
const totpCode = (secret: string, steps = 0) =>
  new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: t.clock.now().getTime() + steps * STEP_MS,
  });

/** Moves the clock to the next 30-second step, so the next code is a new one. */
function nextStep() {
  t.clock.advance(STEP_MS);
}

const post = (url: string, token: string | undefined, form: Record<string, string>) =>
  call(t.app, 'POST', url, { token, form });

async function setup(token: string) {
  const result = await post('/api/userSecurity/twoFactor/setup', token, { userPwd: GOOD_PASSWORD });
  expect(result.status).toBe(200);
  return result.body.data as { secret: string; uri: string };
}

/** A user with two-factor on: its token, secret and recovery codes. */
async function userWithTwoFactor() {
  const user = await registerUser(t.app);
  const { secret } = await setup(user.token);
  const enabled = await post('/api/userSecurity/twoFactor/enable', user.token, {
    code: totpCode(secret),
  });
  expect(enabled.status).toBe(200);
  nextStep();
  return { ...user, secret, recoveryCodes: enabled.body.data.recoveryCodes as string[] };
}

const login = (email: string) =>
  post('/api/userInfo/login', undefined, { userAccount: email, userPwd: GOOD_PASSWORD });

describe('setting two-factor up', () => {
  it('needs the login password and answers a secret and its otpauth URI, not yet on', async () => {
    const user = await registerUser(t.app);
    const wrong = await post('/api/userSecurity/twoFactor/setup', user.token, {
      userPwd: 'Wrong-password-1',
    });
    expect(wrong.body).toMatchObject({ msg: 'hint_pwdWrong', params: ['userPwd'] });
    const missing = await post('/api/userSecurity/twoFactor/setup', user.token, {});
    expect(missing.status).toBe(400);

    const { secret, uri } = await setup(user.token);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Bourse:/);
    const parsed = new URL(uri);
    expect(parsed.searchParams.get('secret')).toBe(secret);
    expect(parsed.searchParams.get('issuer')).toBe('Bourse');
    expect(decodeURIComponent(parsed.pathname)).toContain(user.email);

    const status = await call(t.app, 'GET', '/api/userSecurity/twoFactor/status', {
      token: user.token,
    });
    expect(status.body.data).toEqual({ enabled: 0, pending: 1, recoveryCodesLeft: 0 });
    // Not on yet: sign-in still answers a session.
    expect((await login(user.email)).body.data.token).toEqual(expect.any(String));
  });

  it('keeps the secret sealed, never in the clear', async () => {
    const user = await registerUser(t.app);
    const { secret } = await setup(user.token);
    const { rows } = await t.db.query<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM user_two_factor WHERE user_id = $1',
      [user.userId],
    );
    expect(rows[0]!.secret_sealed).toMatch(/^v1\./);
    expect(rows[0]!.secret_sealed).not.toContain(secret);
  });

  it('turns on with a right code only, and answers 10 recovery codes once', async () => {
    const user = await registerUser(t.app);
    const notSetUp = await post('/api/userSecurity/twoFactor/enable', user.token, {
      code: '123456',
    });
    expect(notSetUp.body.msg).toBe('hint_twoFactorNotSetUp');

    const { secret } = await setup(user.token);
    const right = totpCode(secret);
    const wrong = await post('/api/userSecurity/twoFactor/enable', user.token, {
      code: right === '000000' ? '111111' : '000000',
    });
    expect(wrong.body).toMatchObject({ msg: 'hint_twoFactorWrong', params: ['code'] });

    const enabled = await post('/api/userSecurity/twoFactor/enable', user.token, { code: right });
    expect(enabled.status).toBe(200);
    const codes = enabled.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Only hashes are kept.
    const { rows } = await t.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM user_two_factor_recovery WHERE user_id = $1',
      [user.userId],
    );
    expect(rows).toHaveLength(10);
    expect(rows.map((row) => row.code_hash)).not.toContain(codes[0]);

    const status = await call(t.app, 'GET', '/api/userSecurity/twoFactor/status', {
      token: user.token,
    });
    expect(status.body.data).toEqual({ enabled: 1, pending: 0, recoveryCodesLeft: 10 });
    // On: setting up again is refused (the secret in force is never replaced that way).
    const again = await post('/api/userSecurity/twoFactor/setup', user.token, {
      userPwd: GOOD_PASSWORD,
    });
    expect(again.body.msg).toBe('hint_twoFactorAlreadyOn');
  });
});

describe('signing in with two-factor on', () => {
  it('answers a challenge instead of a session, and a session for the challenge and a code', async () => {
    const user = await userWithTwoFactor();
    const first = await login(user.email);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
    expect(first.body.data.token).toBeUndefined();
    const challenge = first.body.data.challenge as string;

    const wrong = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge,
      code: totpCode(user.secret, 5),
    });
    expect(wrong.body).toMatchObject({ msg: 'hint_twoFactorWrong', params: ['code'] });

    const code = totpCode(user.secret);
    // The wrong code is in the login history; the password step opened no session.
    const history = await call(t.app, 'GET', '/api/userSecurity/loginHistory', {
      token: user.token,
      query: { pageNum: '1', pageSize: '10' },
    });
    expect(history.body.rows!.map((row: { result: string }) => row.result)).toEqual([
      'twoFactorFailed',
    ]);
    const right = await post('/api/userInfo/loginTwoFactor', undefined, { challenge, code });
    expect(right.status).toBe(200);
    const token = right.body.data.token as string;
    expect(right.body.data.userInfo.id).toBe(user.userId);
    const me = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token });
    expect(me.body.data.id).toBe(user.userId);
    const after = await call(t.app, 'GET', '/api/userSecurity/loginHistory', {
      token,
      query: { pageNum: '1', pageSize: '10' },
    });
    expect(after.body.rows!.map((row: { result: string }) => row.result)).toEqual([
      'success',
      'twoFactorFailed',
    ]);

    // The challenge is used up with the session it opened.
    nextStep();
    const reused = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge,
      code: totpCode(user.secret),
    });
    expect(reused.body.msg).toBe('hint_twoFactorChallengeExpired');
  });

  it('refuses a code already used, even within its window', async () => {
    const user = await userWithTwoFactor();
    const code = totpCode(user.secret);
    const a = (await login(user.email)).body.data.challenge as string;
    expect(
      (await post('/api/userInfo/loginTwoFactor', undefined, { challenge: a, code })).status,
    ).toBe(200);
    const b = (await login(user.email)).body.data.challenge as string;
    const replay = await post('/api/userInfo/loginTwoFactor', undefined, { challenge: b, code });
    expect(replay.body.msg).toBe('hint_twoFactorWrong');
    // The previous step's code is refused too once a later one was used; the next one works.
    expect(
      (
        await post('/api/userInfo/loginTwoFactor', undefined, {
          challenge: b,
          code: totpCode(user.secret, -1),
        })
      ).body.msg,
    ).toBe('hint_twoFactorWrong');
    nextStep();
    const next = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge: b,
      code: totpCode(user.secret),
    });
    expect(next.status).toBe(200);
  });

  it('accepts a code of the step before or after (clock drift), not two away', async () => {
    const user = await userWithTwoFactor();
    const challenge = (await login(user.email)).body.data.challenge as string;
    const far = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge,
      code: totpCode(user.secret, 2),
    });
    expect(far.body.msg).toBe('hint_twoFactorWrong');
    const ahead = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge,
      code: totpCode(user.secret, 1),
    });
    expect(ahead.status).toBe(200);
  });

  it('takes a recovery code once', async () => {
    const user = await userWithTwoFactor();
    const recovery = user.recoveryCodes[3]!;
    const a = (await login(user.email)).body.data.challenge as string;
    // Typed in capitals and without the hyphen: still the same code.
    const typed = recovery.replace('-', '').toUpperCase();
    expect(
      (await post('/api/userInfo/loginTwoFactor', undefined, { challenge: a, code: typed })).status,
    ).toBe(200);
    const b = (await login(user.email)).body.data.challenge as string;
    const again = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge: b,
      code: recovery,
    });
    expect(again.body.msg).toBe('hint_twoFactorWrong');
    const status = await call(t.app, 'GET', '/api/userSecurity/twoFactor/status', {
      token: user.token,
    });
    expect(status.body.data.recoveryCodesLeft).toBe(9);
  });

  it('lets a challenge expire after 5 minutes', async () => {
    const user = await userWithTwoFactor();
    const challenge = (await login(user.email)).body.data.challenge as string;
    t.clock.advance(5 * 60_000 + 1000);
    const late = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge,
      code: totpCode(user.secret),
    });
    expect(late.body.msg).toBe('hint_twoFactorChallengeExpired');
    const unknown = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge: 'not-a-challenge',
      code: totpCode(user.secret),
    });
    expect(unknown.body.msg).toBe('hint_twoFactorChallengeExpired');
  });

  it('locks two-factor for an hour after 5 wrong codes, then lets a right code in', async () => {
    const user = await userWithTwoFactor();
    const challenge = (await login(user.email)).body.data.challenge as string;
    const wrongCode = totpCode(user.secret) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      const wrong = await post('/api/userInfo/loginTwoFactor', undefined, {
        challenge,
        code: wrongCode,
      });
      expect(wrong.body.msg).toBe('hint_twoFactorWrong');
    }
    const locking = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge,
      code: wrongCode,
    });
    expect(locking.body).toMatchObject({ msg: 'hint_twoFactorLocked', params: [60] });
    const right = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge,
      code: totpCode(user.secret),
    });
    expect(right.body.msg).toBe('hint_twoFactorLocked');
    // The lock covers every place a code is asked.
    const off = await post('/api/userSecurity/twoFactor/disable', user.token, {
      code: totpCode(user.secret),
    });
    expect(off.body.msg).toBe('hint_twoFactorLocked');

    t.clock.advance(60 * 60_000);
    const later = (await login(user.email)).body.data.challenge as string;
    const after = await post('/api/userInfo/loginTwoFactor', undefined, {
      challenge: later,
      code: totpCode(user.secret),
    });
    expect(after.status).toBe(200);
  });
});

describe('withdrawals and security changes with two-factor on', () => {
  async function withdrawer() {
    const user = await userWithTwoFactor();
    await deposit(t.db, user.userId, '100', USDT);
    const setPwd = await post('/api/userInfo/updateUserWithPwd', user.token, {
      newPwd: WITH_PWD,
      userPwd: GOOD_PASSWORD,
      twoFactorCode: totpCode(user.secret),
    });
    expect(setPwd.status).toBe(200);
    nextStep();
    const now = t.clock.now();
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO user_wallet_address (user_id, currency_id, network, address, created_at, updated_at)
       VALUES ($1, $2, 'TRC20', $3, $4, $4) RETURNING id`,
      [user.userId, USDT, TRC20_ADDRESS, now],
    );
    return { ...user, addressId: rows[0]!.id };
  }

  let seq = 0;
  const outMoney = (token: string, fields: Record<string, unknown>) =>
    call(t.app, 'POST', '/api/userWithdraw/outMoney', {
      token,
      json: {
        channelId: WITHDRAW_USDT_TRC20,
        amount: '10',
        withPwd: WITH_PWD,
        requestId: `tfa-${Date.now()}-${++seq}`,
        ...fields,
      },
    });

  it('refuses a withdrawal without a code or with a wrong one, and takes the right one', async () => {
    const user = await withdrawer();
    const without = await outMoney(user.token, { addressId: user.addressId });
    expect(without.body).toMatchObject({
      msg: 'hint_twoFactorRequired',
      params: ['twoFactorCode'],
    });
    const wrong = await outMoney(user.token, {
      addressId: user.addressId,
      twoFactorCode: totpCode(user.secret, 3),
    });
    expect(wrong.body).toMatchObject({ msg: 'hint_twoFactorWrong', params: ['twoFactorCode'] });
    // The withdrawal password is still asked: a right code does not replace it.
    const wrongPwd = await outMoney(user.token, {
      addressId: user.addressId,
      withPwd: '111111',
      twoFactorCode: totpCode(user.secret),
    });
    expect(wrongPwd.body.msg).toBe('hint_withPwdWrong');
    const right = await outMoney(user.token, {
      addressId: user.addressId,
      twoFactorCode: totpCode(user.secret),
    });
    expect(right.status).toBe(200);
    expect(cmp(right.body.data.amount, '10')).toBe(0);
  });

  it('asks a code to change the login or the withdrawal password', async () => {
    const user = await withdrawer();
    const noCode = await post('/api/userInfo/updateUserPwd', user.token, {
      oldPwd: GOOD_PASSWORD,
      newPwd: 'Riverbank73',
    });
    expect(noCode.body).toMatchObject({ msg: 'hint_twoFactorRequired', params: ['twoFactorCode'] });
    const withPwdNoCode = await post('/api/userInfo/updateUserWithPwd', user.token, {
      oldPwd: WITH_PWD,
      newPwd: '135791',
    });
    expect(withPwdNoCode.body.msg).toBe('hint_twoFactorRequired');
    const withPwd = await post('/api/userInfo/updateUserWithPwd', user.token, {
      oldPwd: WITH_PWD,
      newPwd: '135791',
      twoFactorCode: totpCode(user.secret),
    });
    expect(withPwd.status).toBe(200);
    nextStep();
    const changed = await post('/api/userInfo/updateUserPwd', user.token, {
      oldPwd: GOOD_PASSWORD,
      newPwd: 'Riverbank73',
      twoFactorCode: user.recoveryCodes[0]!,
    });
    expect(changed.status).toBe(200);
  });

  it('asks a code to turn the withdrawal whitelist off', async () => {
    const user = await userWithTwoFactor();
    const on = await post('/api/withdrawWhitelist/set', user.token, { enabled: '1' });
    expect(on.status).toBe(200);
    const noCode = await post('/api/withdrawWhitelist/set', user.token, {
      enabled: '0',
      userPwd: GOOD_PASSWORD,
    });
    expect(noCode.body).toMatchObject({
      msg: 'hint_twoFactorRequired',
      params: ['twoFactorCode'],
    });
    const off = await post('/api/withdrawWhitelist/set', user.token, {
      enabled: '0',
      userPwd: GOOD_PASSWORD,
      twoFactorCode: totpCode(user.secret),
    });
    expect(off.status).toBe(200);
    expect(off.body.data.enabled).toBe(0);
  });

  it('turns off only with a code, then asks no code anywhere', async () => {
    const user = await withdrawer();
    const noCode = await post('/api/userSecurity/twoFactor/disable', user.token, {});
    expect(noCode.status).toBe(400);
    const wrong = await post('/api/userSecurity/twoFactor/disable', user.token, {
      code: totpCode(user.secret, 4),
    });
    expect(wrong.body.msg).toBe('hint_twoFactorWrong');
    const off = await post('/api/userSecurity/twoFactor/disable', user.token, {
      code: totpCode(user.secret),
    });
    expect(off.status).toBe(200);
    const status = await call(t.app, 'GET', '/api/userSecurity/twoFactor/status', {
      token: user.token,
    });
    expect(status.body.data).toEqual({ enabled: 0, pending: 0, recoveryCodesLeft: 0 });
    expect((await login(user.email)).body.data.token).toEqual(expect.any(String));
    expect((await outMoney(user.token, { addressId: user.addressId })).status).toBe(200);
    const again = await post('/api/userSecurity/twoFactor/disable', user.token, {
      code: totpCode(user.secret),
    });
    expect(again.body.msg).toBe('hint_twoFactorOff');
  });
});

describe('the sealing key', () => {
  it('is made once in DATA_DIR when TWO_FACTOR_KEY is unset, and read again after a restart', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bourse-2fa-'));
    try {
      const first = await createTestApp({ env: { DATA_DIR: dataDir } });
      const user = await registerUser(first.app);
      const setupResult = await call(first.app, 'POST', '/api/userSecurity/twoFactor/setup', {
        token: user.token,
        form: { userPwd: GOOD_PASSWORD },
      });
      const secret = setupResult.body.data.secret as string;
      const file = path.join(dataDir, TWO_FACTOR_KEY_FILE);
      expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      // Another app on the same database and folder opens the secret sealed by the first.
      const database = { db: first.db, dispose: async () => undefined };
      const second = await createTestApp({ env: { DATA_DIR: dataDir }, database });
      const code = new TOTP({ secret }).generate({ timestamp: second.clock.now().getTime() });
      const enabled = await call(second.app, 'POST', '/api/userSecurity/twoFactor/enable', {
        token: user.token,
        form: { code },
      });
      expect(enabled.status).toBe(200);
      await second.app.close();
      await first.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
