/**
 * Common passwords (issue 15): refused wherever a login password is chosen, for users and
 * operators, with the translated key `hint_pwdCommon` naming the field, like the spec's password
 * rules (400). The 6-digit withdrawal password is not concerned.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { COMMON_PASSWORD_KEY, isCommonPassword } from '../src/lib/common-passwords';
import { newPassword } from '../src/lib/secrets';
import {
  call,
  createTestApp,
  GOOD_PASSWORD,
  registerUser,
  testConfig,
  uniqueEmail,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady, operatorSignIn } from './support/admin-api';

const locale = (key: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../packages/shared/locales/${key}.json`, import.meta.url), 'utf8'),
  ) as Record<string, string>;

/** Pass the spec's rules (8+ characters, a letter, letters and digits only), yet are common. */
const COMMON_USER_PASSWORDS = [
  'password',
  'aaaaaaaa',
  'abcdefgh',
  'Password',
  'PASSWORD',
  'Password1',
  'Passw0rd',
  'Abcdefgh',
  'iloveyou',
  'Qwerty123',
];

describe('isCommonPassword', () => {
  it('finds the words of the list in any case', () => {
    for (const value of ['password', 'PassWord', 'password1', 'qwerty123', 'iloveyou', 'trustno1'])
      expect(isCommonPassword(value), value).toBe(true);
  });

  it('refuses one character repeated and straight runs of the alphabet or the digits', () => {
    for (const value of [
      'aaaaaaaa',
      'ZZZZZZZZZZZZ',
      '11111111',
      'abcdefgh',
      'HGFEDCBA',
      'mnopqrst',
    ])
      expect(isCommonPassword(value), value).toBe(true);
    expect(isCommonPassword('23456789')).toBe(true);
    expect(isCommonPassword('98765432')).toBe(true);
  });

  it('lets other passwords through, generated ones included', () => {
    for (const value of [
      GOOD_PASSWORD,
      'Lighthouse4Ferry',
      'abcdefgj',
      'aaaaaaab',
      'abcd5678',
      'correct horse battery',
      '',
    ])
      expect(isCommonPassword(value), value).toBe(false);
    for (let i = 0; i < 200; i++) {
      const generated = newPassword();
      expect(isCommonPassword(generated), generated).toBe(false);
    }
  });
});

describe('user passwords', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  const users = async () =>
    (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM app_user')).rows[0]!.n;

  it('refuses a common password at registration, naming the field, and creates nothing', async () => {
    const before = await users();
    for (const password of COMMON_USER_PASSWORDS) {
      const email = uniqueEmail();
      const result = await call(t.app, 'POST', '/api/userInfo/reg', {
        form: { regType: '1', userAccount: email, userPwd: password },
      });
      expect(result.status, password).toBe(400);
      expect(result.body, password).toMatchObject({
        code: 500,
        msg: COMMON_PASSWORD_KEY,
        params: ['userPwd'],
      });
      const login = await call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: email, userPwd: password },
      });
      expect(login.status, password).not.toBe(200);
    }
    expect(await users()).toBe(before);
  });

  it('answers the refusal in the language asked for', async () => {
    const english = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: uniqueEmail(), userPwd: 'password' },
    });
    expect(english.body.text).toBe(locale('en').hint_pwdCommon);
    const german = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: uniqueEmail(), userPwd: 'password' },
      headers: { languageid: '4' },
    });
    expect(german.body.text).toBe(locale('de').hint_pwdCommon);
    expect(german.body.text).not.toBe(english.body.text);
  });

  it('still refuses a password that breaks the spec rules with the rule itself', async () => {
    const result = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: uniqueEmail(), userPwd: '12345678' },
    });
    expect(result.body).toMatchObject({ msg: 'pwd_needLetter', params: ['userPwd'] });
  });

  it('accepts an uncommon password', async () => {
    const before = await users();
    const email = uniqueEmail();
    const result = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: 'Lighthouse4Ferry' },
    });
    expect(result.status).toBe(200);
    expect(result.body.code).toBe(200);
    expect(await users()).toBe(before + 1);
    const login = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: 'Lighthouse4Ferry' },
    });
    expect(login.status).toBe(200);
  });

  it('refuses a common new password at a password change; the old one still works', async () => {
    const { token, email } = await registerUser(t.app);
    for (const newPwd of ['Password123', 'zzzzzzzzz', 'Abcdefghij']) {
      const result = await call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
        token,
        form: { oldPwd: GOOD_PASSWORD, newPwd },
      });
      expect(result.status, newPwd).toBe(400);
      expect(result.body, newPwd).toMatchObject({
        code: 500,
        msg: COMMON_PASSWORD_KEY,
        params: ['newPwd'],
      });
    }
    // Nothing changed: the session lives on and the old password signs in, the refused one not.
    expect((await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token })).status).toBe(200);
    const old = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: GOOD_PASSWORD },
    });
    expect(old.status).toBe(200);
    expect(old.body.data.userInfo.withdrawHoldUntil ?? null).toBeNull();
    const refused = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: 'Password123' },
    });
    expect(refused.status).not.toBe(200);

    const changed = await call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
      token,
      form: { oldPwd: GOOD_PASSWORD, newPwd: 'Lighthouse4Ferry' },
    });
    expect(changed.body).toMatchObject({ code: 200, msg: 'hint_pwdChanged' });
  });

  it('leaves the 6-digit withdrawal password alone', async () => {
    const { token } = await registerUser(t.app);
    const result = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { newPwd: '123456', userPwd: GOOD_PASSWORD },
    });
    expect(result.body.code).toBe(200);
  });
});

describe('registration with verification codes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { VERIFICATION_CODES: 'always' } });
  });

  afterAll(async () => {
    await t.close();
  });

  it('does not spend the code on a refused common password', async () => {
    const email = uniqueEmail();
    await call(t.app, 'POST', '/api/userInfo/sendEmailVerificationCode', { form: { email } });
    const code = t.lastCode(email.toLowerCase())!;
    expect(code).toMatch(/^\d{6}$/);
    const refused = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: 'password', yzmCode: code },
    });
    expect(refused.body).toMatchObject({ msg: COMMON_PASSWORD_KEY, params: ['userPwd'] });
    const accepted = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD, yzmCode: code },
    });
    expect(accepted.status).toBe(200);
  });
});

describe('operator passwords', () => {
  let t: TestApp;
  let dir: string;
  let adminPassword: string;
  let adminToken: string;
  const OPERATOR_PASSWORD = 'quiet lantern harbour';

  const adminCall = (
    method: 'GET' | 'POST',
    url: string,
    options: Parameters<typeof call>[3] = {},
  ) => adminApiCall(t.app, method, url, { token: adminToken, ...options });

  const operatorCount = async (username: string) =>
    (
      await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM operator WHERE username = $1',
        [username],
      )
    ).rows[0]!.n;

  beforeAll(async () => {
    t = await createTestApp();
    dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-common-pwd-'));
    const seeded = await adminLogin(
      testConfig({ DATA_DIR: path.join(dir, 'data') }),
      t.db,
      t.clock,
    );
    adminPassword = seeded.password!;
    adminToken = await operatorReady(t.app, ADMIN_USERNAME, adminPassword);
  });

  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets the generated first password through', () => {
    expect(isCommonPassword(adminPassword)).toBe(false);
  });

  it('refuses a common password when creating an operator, and creates nothing', async () => {
    for (const password of ['password1234', 'Qwerty123456', 'aaaaaaaaaaaa', 'ADMINISTRATOR']) {
      const result = await adminCall('POST', '/operators/create', {
        json: { username: 'clerk-common', password, roles: ['finance'] },
      });
      expect(result.status, password).toBe(400);
      expect(result.body, password).toMatchObject({
        code: 500,
        msg: COMMON_PASSWORD_KEY,
        params: ['password'],
      });
    }
    expect(await operatorCount('clerk-common')).toBe(0);
    const created = await adminCall('POST', '/operators/create', {
      json: { username: 'clerk-common', password: OPERATOR_PASSWORD, roles: ['finance'] },
    });
    expect(created.body.code).toBe(200);
    expect(await operatorCount('clerk-common')).toBe(1);
  });

  it('refuses a common password at a reset; the old one still works', async () => {
    const created = await adminCall('POST', '/operators/create', {
      json: { username: 'clerk-reset', password: OPERATOR_PASSWORD, roles: ['support'] },
    });
    const id = created.body.data.id as number;
    const token = await operatorSignIn(t.app, 'clerk-reset', OPERATOR_PASSWORD);
    const refused = await adminCall('POST', '/operators/resetPassword', {
      form: { id: String(id), password: 'Password1234' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ msg: COMMON_PASSWORD_KEY, params: ['password'] });
    // The operator's session lives on and the old password still signs in.
    expect((await adminApiCall(t.app, 'GET', '/auth/me', { token })).status).toBe(200);
    await operatorSignIn(t.app, 'clerk-reset', OPERATOR_PASSWORD);
    // Without a password, a generated one passes.
    const generated = await adminCall('POST', '/operators/resetPassword', { json: { id } });
    expect(generated.body.code).toBe(200);
    await operatorSignIn(t.app, 'clerk-reset', generated.body.data.password as string);
  });

  it("refuses a common password at an operator's own change; the old one still works", async () => {
    await adminCall('POST', '/operators/create', {
      json: { username: 'clerk-own', password: OPERATOR_PASSWORD, roles: ['content'] },
    });
    const token = await operatorSignIn(t.app, 'clerk-own', OPERATOR_PASSWORD);
    const refused = await adminApiCall(t.app, 'POST', '/auth/changePassword', {
      token,
      json: { oldPassword: OPERATOR_PASSWORD, newPassword: 'qwertyuiop123' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ msg: COMMON_PASSWORD_KEY, params: ['newPassword'] });
    expect((await adminApiCall(t.app, 'GET', '/auth/me', { token })).status).toBe(200);
    await operatorSignIn(t.app, 'clerk-own', OPERATOR_PASSWORD);
    const changed = await adminApiCall(t.app, 'POST', '/auth/changePassword', {
      token,
      json: { oldPassword: OPERATOR_PASSWORD, newPassword: 'a brand new secret' },
    });
    expect(changed.body).toMatchObject({ code: 200, msg: 'hint_pwdChanged' });
  });
});
