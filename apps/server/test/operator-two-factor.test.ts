/**
 * Two-factor authentication of operators through /admin-api: required for the admin and finance
 * roles (every other call refused until it is on), optional for the others; setting it up with
 * the password, turning it on with a first code, the sign-in in two steps, codes and challenges
 * used once, recovery codes, the lock after wrong codes, password changes asking a code, turning
 * it off, an admin's reset of another operator's (never their own), and the audit of each. Codes
 * are made in the test from the secret the server answered, at the test clock's time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { createTestApp, testConfig, type CallResult, type TestApp } from './helpers';
import {
  adminApiCall,
  changeOwnPassword,
  nextCode,
  operatorReady,
  operatorSignIn,
  rememberTwoFactor,
  totpAt,
} from './support/admin-api';

const STEP_MS = 30_000;
const FIRST = 'first password Harbor 1';
const CHOSEN = 'chosen password Lantern 2';

let t: TestApp;
let dir: string;
let admin: string;
let adminId: number;

const as = (token: string | undefined) => ({
  get: (url: string, query: Record<string, string> = {}): Promise<CallResult> =>
    adminApiCall(t.app, 'GET', url, { token, query }),
  post: (url: string, json: unknown = {}): Promise<CallResult> =>
    adminApiCall(t.app, 'POST', url, { token, json }),
});

const step = () => Math.floor(t.clock.now().getTime() / STEP_MS);

let sequence = 0;
/** An operator made by the admin, with the password chosen, signed in (two-factor still off). */
async function newOperator(
  roles: string[],
): Promise<{ id: number; username: string; token: string }> {
  sequence += 1;
  const username = `tf${sequence}-${roles.join('-')}`;
  const created = await as(admin).post('/operators/create', { username, password: FIRST, roles });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await changeOwnPassword(t.app, await operatorSignIn(t.app, username, FIRST), FIRST, CHOSEN);
  return {
    id: created.body.data.id,
    username,
    token: await operatorSignIn(t.app, username, CHOSEN),
  };
}

/** Sets two-factor up and on for a signed-in operator: the secret and the recovery codes. */
async function turnOn(token: string, username: string) {
  const setup = await as(token).post('/auth/twoFactor/setup', { password: CHOSEN });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const secret = setup.body.data.secret as string;
  const enabled = await as(token).post('/auth/twoFactor/enable', { code: totpAt(secret, step()) });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  rememberTwoFactor(t.app, username, secret, step());
  // The next code of the test's own comes from the next step.
  t.clock.advance(STEP_MS);
  return { secret, recoveryCodes: enabled.body.data.recoveryCodes as string[] };
}

async function auditOf(action: string, targetId: number) {
  const result = await as(admin).get('/audit', { action, targetId: String(targetId) });
  return result.body.rows as Array<{ operatorName: string; before: unknown; after: unknown }>;
}

beforeAll(async () => {
  t = await createTestApp({ env: { TWO_FACTOR_KEY: 'b2'.repeat(32) } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-operator-2fa-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  adminId = (await as(admin).get('/auth/me')).body.data.id;
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('required for admin and finance', () => {
  it('refuses every call but setting it up until it is on; the input is not read first', async () => {
    const desk = await newOperator(['finance']);
    const me = await as(desk.token).get('/auth/me');
    expect(me.body.data).toMatchObject({ twoFactor: false, roles: ['finance'] });
    for (const [method, url] of [
      ['GET', '/recharges'],
      ['GET', '/auth/sessions'],
      ['POST', '/recharges/approve'],
    ] as const) {
      const refused = await adminApiCall(t.app, method, url, {
        token: desk.token,
        ...(method === 'POST' ? { json: { id: 'not a number' } } : {}),
      });
      expect(refused.status, url).toBe(403);
      expect(refused.body, url).toMatchObject({ code: 403, msg: 'hint_twoFactorSetupRequired' });
    }
    const status = await as(desk.token).get('/auth/twoFactor/status');
    expect(status.body.data).toEqual({ enabled: 0, pending: 0, recoveryCodesLeft: 0, required: 1 });

    // The password confirms the setup; a wrong one is refused on its field.
    const wrong = await as(desk.token).post('/auth/twoFactor/setup', { password: 'not it at all' });
    expect(wrong.body).toMatchObject({ msg: 'hint_pwdWrong', params: ['password'] });
    const setup = await as(desk.token).post('/auth/twoFactor/setup', { password: CHOSEN });
    expect(setup.status).toBe(200);
    const { secret, uri } = setup.body.data as { secret: string; uri: string };
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(decodeURIComponent(uri)).toContain(desk.username);
    expect((await as(desk.token).get('/auth/twoFactor/status')).body.data).toMatchObject({
      enabled: 0,
      pending: 1,
    });
    // Kept sealed: the secret is nowhere in the row.
    const { rows } = await t.db.query<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM operator_two_factor WHERE operator_id = $1',
      [desk.id],
    );
    expect(rows[0]!.secret_sealed).not.toContain(secret);

    // Still refused while waiting for the first code; a wrong first code does not turn it on.
    expect((await as(desk.token).get('/recharges')).body.msg).toBe('hint_twoFactorSetupRequired');
    const bad = await as(desk.token).post('/auth/twoFactor/enable', {
      code: totpAt(secret, step() + 5),
    });
    expect(bad.body).toMatchObject({ msg: 'hint_twoFactorWrong', params: ['code'] });
    const enabled = await as(desk.token).post('/auth/twoFactor/enable', {
      code: totpAt(secret, step()),
    });
    expect(enabled.status).toBe(200);
    const codes = enabled.body.data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    // On at once, in the session already open.
    expect((await as(desk.token).get('/recharges')).status).toBe(200);
    expect((await as(desk.token).get('/auth/me')).body.data.twoFactor).toBe(true);
    expect((await as(desk.token).get('/auth/twoFactor/status')).body.data).toEqual({
      enabled: 1,
      pending: 0,
      recoveryCodesLeft: 10,
      required: 1,
    });
    expect(await auditOf('operator.twoFactorOn', desk.id)).toMatchObject([
      { operatorName: desk.username, before: { twoFactor: false }, after: { twoFactor: true } },
    ]);
    // The operators list shows it.
    const list = await as(admin).get('/operators', { pageNum: '1', pageSize: '100' });
    const row = (list.body.rows as Array<{ id: number; twoFactor: boolean }>).find(
      (r) => r.id === desk.id,
    );
    expect(row?.twoFactor).toBe(true);
  });

  it('applies to a role given later, in the session already open', async () => {
    const desk = await newOperator(['support']);
    expect((await as(desk.token).get('/auth/twoFactor/status')).body.data.required).toBe(0);
    expect((await as(desk.token).get('/auth/sessions')).status).toBe(200);
    await as(admin).post('/operators/update', { id: desk.id, roles: ['support', 'finance'] });
    expect((await as(desk.token).get('/auth/sessions')).body.msg).toBe(
      'hint_twoFactorSetupRequired',
    );
  });

  it('is optional for support and content, and then asked at sign-in all the same', async () => {
    const desk = await newOperator(['content']);
    await turnOn(desk.token, desk.username);
    const login = await as(undefined).post('/auth/login', {
      username: desk.username,
      password: CHOSEN,
    });
    expect(login.body.data).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
  });
});

describe('sign-in', () => {
  it('answers a challenge, then a session for a current code; codes and challenges work once', async () => {
    const desk = await newOperator(['finance']);
    const { secret, recoveryCodes } = await turnOn(desk.token, desk.username);

    const login = await as(undefined).post('/auth/login', {
      username: desk.username,
      password: CHOSEN,
    });
    expect(login.status).toBe(200);
    expect(login.body.data.token).toBeUndefined();
    const challenge = login.body.data.challenge as string;

    const wrong = await as(undefined).post('/auth/loginTwoFactor', {
      challenge,
      code: totpAt(secret, step() + 7),
    });
    expect(wrong.body).toMatchObject({ msg: 'hint_twoFactorWrong', params: ['code'] });
    const code = totpAt(secret, step());
    const ok = await as(undefined).post('/auth/loginTwoFactor', { challenge, code });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const token = ok.body.data.token as string;
    expect(ok.body.data.operator).toMatchObject({ username: desk.username, twoFactor: true });
    expect((await as(token).get('/recharges')).status).toBe(200);
    const logins = await as(admin).get('/audit', {
      action: 'auth.login',
      operatorId: String(desk.id),
    });
    expect((logins.body.rows as Array<{ after: unknown }>)[0]!.after).toMatchObject({
      twoFactor: true,
    });

    // The challenge is used up; a new one does not take the same code again.
    const again = await as(undefined).post('/auth/loginTwoFactor', {
      challenge,
      code: totpAt(secret, step() + 1),
    });
    expect(again.body.msg).toBe('hint_twoFactorChallengeExpired');
    const second = await as(undefined).post('/auth/login', {
      username: desk.username,
      password: CHOSEN,
    });
    const replay = await as(undefined).post('/auth/loginTwoFactor', {
      challenge: second.body.data.challenge,
      code,
    });
    expect(replay.body.msg).toBe('hint_twoFactorWrong');

    // A recovery code works once, typed as the user may type it.
    const recovery = recoveryCodes[0]!;
    const byRecovery = await as(undefined).post('/auth/loginTwoFactor', {
      challenge: second.body.data.challenge,
      code: ` ${recovery.toUpperCase()} `,
    });
    expect(byRecovery.status, JSON.stringify(byRecovery.body)).toBe(200);
    expect((await as(token).get('/auth/twoFactor/status')).body.data.recoveryCodesLeft).toBe(9);
    const third = await as(undefined).post('/auth/login', {
      username: desk.username,
      password: CHOSEN,
    });
    const reused = await as(undefined).post('/auth/loginTwoFactor', {
      challenge: third.body.data.challenge,
      code: recovery,
    });
    expect(reused.body.msg).toBe('hint_twoFactorWrong');

    // A challenge lives five minutes.
    t.clock.advance(5 * 60_000 + 1000);
    const late = await as(undefined).post('/auth/loginTwoFactor', {
      challenge: third.body.data.challenge,
      code: totpAt(secret, step()),
    });
    expect(late.body.msg).toBe('hint_twoFactorChallengeExpired');
  });

  it('locks two-factor for an hour after five wrong codes', async () => {
    const desk = await newOperator(['admin']);
    const { secret } = await turnOn(desk.token, desk.username);
    const login = await as(undefined).post('/auth/login', {
      username: desk.username,
      password: CHOSEN,
    });
    const challenge = login.body.data.challenge as string;
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      // A code of five minutes ahead: outside the steps accepted now.
      const wrong = await as(undefined).post('/auth/loginTwoFactor', {
        challenge,
        code: totpAt(secret, step() + 10),
      });
      answers.push(wrong.body.msg);
    }
    expect(answers).toEqual([
      ...Array<string>(4).fill('hint_twoFactorWrong'),
      'hint_twoFactorLocked',
    ]);
    const locked = await as(undefined).post('/auth/loginTwoFactor', {
      challenge,
      code: totpAt(secret, step()),
    });
    expect(locked.body.msg).toBe('hint_twoFactorLocked');
    // An hour later a current code signs in (the challenge has expired meanwhile: a new one).
    t.clock.advance(60 * 60_000 + 1000);
    const again = await as(undefined).post('/auth/login', {
      username: desk.username,
      password: CHOSEN,
    });
    const signedIn = await as(undefined).post('/auth/loginTwoFactor', {
      challenge: again.body.data.challenge,
      code: totpAt(secret, step()),
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  });

  it('a disabled operator is refused at the second step too', async () => {
    const desk = await newOperator(['finance']);
    await turnOn(desk.token, desk.username);
    const login = await as(undefined).post('/auth/login', {
      username: desk.username,
      password: CHOSEN,
    });
    await as(admin).post('/operators/update', { id: desk.id, disabled: true });
    const refused = await as(undefined).post('/auth/loginTwoFactor', {
      challenge: login.body.data.challenge,
      code: await nextCode(t.app, desk.username),
    });
    expect(refused.body).toMatchObject({ code: 403, msg: 'hint_accountDisabled' });
  });
});

describe('changes', () => {
  it('a password change asks a code once two-factor is on', async () => {
    const desk = await newOperator(['finance']);
    await turnOn(desk.token, desk.username);
    const missing = await as(desk.token).post('/auth/changePassword', {
      oldPassword: CHOSEN,
      newPassword: 'another Lantern 3',
    });
    expect(missing.body).toMatchObject({
      msg: 'hint_twoFactorRequired',
      params: ['twoFactorCode'],
    });
    const changed = await as(desk.token).post('/auth/changePassword', {
      oldPassword: CHOSEN,
      newPassword: 'another Lantern 3',
      twoFactorCode: await nextCode(t.app, desk.username),
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  });

  it('turning it off needs a code; a required role must set it up again at once', async () => {
    const desk = await newOperator(['finance']);
    const { secret } = await turnOn(desk.token, desk.username);
    const wrong = await as(desk.token).post('/auth/twoFactor/disable', { code: '12345' });
    expect(wrong.body.msg).toBe('hint_twoFactorWrong');
    const off = await as(desk.token).post('/auth/twoFactor/disable', {
      code: totpAt(secret, step()),
    });
    expect(off.status).toBe(200);
    expect(await auditOf('operator.twoFactorOff', desk.id)).toHaveLength(1);
    expect((await as(desk.token).get('/recharges')).body.msg).toBe('hint_twoFactorSetupRequired');
    // Turning it off again is no call of theirs until it is set up again.
    const twice = await as(desk.token).post('/auth/twoFactor/disable', { code: '123456' });
    expect(twice.body.msg).toBe('hint_twoFactorSetupRequired');
    // Signing in takes the password alone again.
    const login = await as(undefined).post('/auth/login', {
      username: desk.username,
      password: CHOSEN,
    });
    expect(login.body.data.token).toEqual(expect.any(String));
  });

  it("an admin resets another operator's, never their own; their sessions end", async () => {
    const desk = await newOperator(['finance']);
    await turnOn(desk.token, desk.username);
    const support = await newOperator(['support']);

    expect(
      (await as(admin).post('/operators/twoFactor/reset', { id: adminId })).body,
    ).toMatchObject({ msg: 'hint_operatorSelfTwoFactor', params: ['id'] });
    expect(
      (await as(support.token).post('/operators/twoFactor/reset', { id: desk.id })).status,
    ).toBe(403);
    expect((await as(admin).post('/operators/twoFactor/reset', { id: 999_999 })).body.msg).toBe(
      'hint_operatorNotFound',
    );

    const reset = await as(admin).post('/operators/twoFactor/reset', { id: desk.id });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.data).toMatchObject({
      operator: { id: desk.id, twoFactor: false },
      sessionsEnded: 1,
    });
    expect((await as(desk.token).get('/auth/me')).status).toBe(401);
    expect(await auditOf('operator.resetTwoFactor', desk.id)).toMatchObject([
      {
        operatorName: 'admin',
        before: { twoFactor: true },
        after: { twoFactor: false, sessionsEnded: 1 },
      },
    ]);
    expect((await as(admin).post('/operators/twoFactor/reset', { id: desk.id })).body.msg).toBe(
      'hint_twoFactorOff',
    );

    // The password alone signs in; the console asks to set it up again before anything else.
    const token = await operatorSignIn(t.app, desk.username, CHOSEN);
    expect((await as(token).get('/recharges')).body.msg).toBe('hint_twoFactorSetupRequired');
  });
});
