import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/ledger/verify';
import {
  call,
  createTestApp,
  GOOD_PASSWORD,
  registerUser,
  uniqueEmail,
  type TestApp,
} from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await t.close();
});

describe('registration', () => {
  it('registers by email, signs in at once and grants 100,000 demo USDT through the ledger', async () => {
    const email = uniqueEmail('Reg');
    const reg = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD },
    });
    expect(reg.status).toBe(200);
    expect(reg.body.code).toBe(200);
    expect(reg.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const info = reg.body.data.userInfo;
    expect(info.email).toBe(email.toLowerCase());
    expect(info.userAccount).toBe(email.toLowerCase());
    expect(info.accountType).toBe(0);
    expect(info.isSetWithPwd).toBe(0);
    expect(info.inviteCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(info).not.toHaveProperty('password_hash');
    expect(JSON.stringify(reg.body)).not.toContain('argon2');

    const token = reg.body.data.token as string;
    const live = await call(t.app, 'GET', '/api/userInfo/userBalance', {
      token,
      query: { currencyId: '3' },
    });
    expect(live.body.data).toMatchObject({
      currencyId: 3,
      currencyName: 'USDT',
      amount: '0.0000',
      frozenAmount: '0.0000',
    });

    await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token,
      query: { accountType: '2' },
    });
    const demo = await call(t.app, 'GET', '/api/userInfo/userBalance', {
      token,
      query: { currencyId: '3' },
    });
    expect(demo.body.data).toMatchObject({ amount: '100000.0000', totalAmount: '100000.0000' });
    const postings = await t.db.query<{ entry_type: string; amount: string }>(
      `SELECT e.entry_type, p.amount FROM ledger_posting p JOIN ledger_entry e ON e.id = p.entry_id
       JOIN ledger_account a ON a.id = p.account_id WHERE a.owner_type = 'user' AND a.owner_id = $1`,
      [info.id],
    );
    expect(postings.rows).toEqual([
      { entry_type: 'demo_grant', amount: '100000.000000000000000000' },
    ]);
  });

  it('registers by phone with an area code, with or without +', async () => {
    const reg = await call(t.app, 'POST', '/api/userInfo/reg', {
      json: { regType: 0, areaCode: '+86', userAccount: '13812345678', userPwd: GOOD_PASSWORD },
    });
    expect(reg.status).toBe(200);
    expect(reg.body.data.userInfo).toMatchObject({
      areaCode: '86',
      phone: '13812345678',
      userAccount: '+86 13812345678',
    });
    const again = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '0', areaCode: '86', userAccount: '13812345678', userPwd: GOOD_PASSWORD },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 500, msg: 'hint_accountExists' });
    const us = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '0', areaCode: '1', userAccount: '2025550123', userPwd: GOOD_PASSWORD },
    });
    expect(us.status).toBe(200);
  });

  it('enforces the spec password rules on the server, first broken rule first', async () => {
    const cases: [string, string][] = [
      ['abc123', 'pwd_minLength'],
      ['12345678', 'pwd_needLetter'],
      ['abcd_1234', 'pwd_lettersDigitsOnly'],
      ['a'.repeat(33), 'pwd_maxLength'],
    ];
    for (const [password, key] of cases) {
      const result = await call(t.app, 'POST', '/api/userInfo/reg', {
        form: { regType: '1', userAccount: uniqueEmail(), userPwd: password },
      });
      expect(result.status, password).toBe(400);
      expect(result.body).toMatchObject({ code: 500, msg: key, params: ['userPwd'] });
    }
  });

  it('answers bad input with a translated key naming the field and creates nothing', async () => {
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM app_user');
    const cases: [Record<string, string>, string, unknown[]][] = [
      [{ regType: '1', userPwd: GOOD_PASSWORD }, 'hint_paramRequired', ['userAccount']],
      [
        { regType: '1', userAccount: 'not-an-email', userPwd: GOOD_PASSWORD },
        'hint_emailInvalid',
        ['userAccount'],
      ],
      [
        { regType: '7', userAccount: uniqueEmail(), userPwd: GOOD_PASSWORD },
        'hint_paramInvalid',
        ['regType'],
      ],
      [
        { regType: 'x', userAccount: uniqueEmail(), userPwd: GOOD_PASSWORD },
        'hint_paramInvalid',
        ['regType'],
      ],
      [
        { regType: '0', userAccount: '13812345678', userPwd: GOOD_PASSWORD },
        'hint_paramRequired',
        ['areaCode'],
      ],
      [
        { regType: '0', areaCode: '86', userAccount: '12345', userPwd: GOOD_PASSWORD },
        'hint_phoneInvalid',
        ['userAccount'],
      ],
      [
        { regType: '0', areaCode: '0', userAccount: '13812345678', userPwd: GOOD_PASSWORD },
        'hint_areaCodeInvalid',
        ['areaCode'],
      ],
      [
        { regType: '1', userAccount: `${'a'.repeat(300)}@x.com`, userPwd: GOOD_PASSWORD },
        'hint_paramTooLong',
        ['userAccount', 254],
      ],
      [
        {
          regType: '1',
          userAccount: uniqueEmail(),
          userPwd: GOOD_PASSWORD,
          inviteCode: 'bad code!',
        },
        'hint_inviteCodeInvalid',
        ['inviteCode'],
      ],
      [
        {
          regType: '1',
          userAccount: uniqueEmail(),
          userPwd: GOOD_PASSWORD,
          inviteCode: 'ZZZZ9999',
        },
        'hint_inviteCodeInvalid',
        ['inviteCode'],
      ],
      [
        { regType: '1', userAccount: uniqueEmail(), userPwd: GOOD_PASSWORD, yzmCode: '12ab56' },
        'hint_codeFormat',
        ['yzmCode'],
      ],
    ];
    for (const [form, key, params] of cases) {
      const result = await call(t.app, 'POST', '/api/userInfo/reg', {
        form,
        headers: { languageid: '1' },
      });
      expect(result.body, JSON.stringify(form)).toMatchObject({ code: 500, msg: key, params });
      expect([400, 422]).toContain(result.status);
      expect(result.body.text).toBeTruthy();
    }
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM app_user');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('records the inviter of an invited user', async () => {
    const inviter = await registerUser(t.app);
    const info = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: inviter.token });
    const invited = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: {
        regType: '1',
        userAccount: uniqueEmail(),
        userPwd: GOOD_PASSWORD,
        inviteCode: info.body.data.inviteCode.toLowerCase(),
      },
      // Another browser than the inviter's (the same one would be self-referral).
      headers: { 'user-agent': 'Invited friend browser' },
    });
    expect(invited.status).toBe(200);
    const row = await t.db.query<{ inviter_id: number }>(
      'SELECT inviter_id FROM app_user WHERE id = $1',
      [invited.body.data.userInfo.id],
    );
    expect(row.rows[0]!.inviter_id).toBe(inviter.userId);
  });

  it('lets only one of two simultaneous registrations of the same email through', async () => {
    const email = uniqueEmail();
    const results = await Promise.all(
      [1, 2].map(() =>
        call(t.app, 'POST', '/api/userInfo/reg', {
          form: { regType: '1', userAccount: email, userPwd: GOOD_PASSWORD },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe('login, sessions and logout', () => {
  it('logs in by email (any case) and by phone, and the token reads the user', async () => {
    const { email, userId } = await registerUser(t.app, uniqueEmail('Case'));
    const login = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email.toUpperCase(), userPwd: GOOD_PASSWORD },
    });
    expect(login.status).toBe(200);
    const me = await call(t.app, 'GET', '/api/userInfo/getUserInfo', {
      token: login.body.data.token,
    });
    expect(me.body.data.id).toBe(userId);
    expect(me.body.data.lastLoginTime).not.toBeNull();

    await call(t.app, 'POST', '/api/userInfo/reg', {
      form: { regType: '0', areaCode: '44', userAccount: '7700900123', userPwd: GOOD_PASSWORD },
    });
    const byPhone = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { areaCode: '+44', userAccount: '7700900123', userPwd: GOOD_PASSWORD },
    });
    expect(byPhone.status).toBe(200);
    const prefixed = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: '+44 7700900123', userPwd: GOOD_PASSWORD },
    });
    expect(prefixed.status).toBe(200);
  });

  it('answers a wrong password and an unknown account alike', async () => {
    const { email } = await registerUser(t.app);
    const wrong = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: 'Wrong1234' },
    });
    const missing = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: uniqueEmail('nobody'), userPwd: 'Wrong1234' },
    });
    expect(wrong.status).toBe(missing.status);
    expect(wrong.body).toEqual(missing.body);
    expect(wrong.body.msg).toBe('hint_loginFailed');
  });

  it('locks an account after 5 failures, says so, and the lock ends after 15 minutes', async () => {
    const { email } = await registerUser(t.app);
    const bodies = [];
    for (let i = 0; i < 5; i++) {
      bodies.push(
        (
          await call(t.app, 'POST', '/api/userInfo/login', {
            form: { userAccount: email, userPwd: 'Wrong1234' },
          })
        ).body,
      );
    }
    expect(bodies.slice(0, 4).every((b) => b.msg === 'hint_loginFailed')).toBe(true);
    expect(bodies[4]).toMatchObject({ msg: 'hint_accountLocked', params: [15] });
    const locked = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: GOOD_PASSWORD },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toBe('hint_accountLocked');
    // An unknown account locks the same way, so the lock reveals nothing.
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < 5; i++)
      await call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: ghost, userPwd: 'Wrong1234' },
      });
    expect(
      (
        await call(t.app, 'POST', '/api/userInfo/login', {
          form: { userAccount: ghost, userPwd: 'Wrong1234' },
        })
      ).body.msg,
    ).toBe('hint_accountLocked');
    t.clock.advance(15 * 60_000 + 1000);
    const after = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: GOOD_PASSWORD },
    });
    expect(after.status).toBe(200);
  });

  it('answers 401 without a token, with a bad token, and after logout', async () => {
    const none = await call(t.app, 'GET', '/api/userInfo/getUserInfo');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 401, msg: 'hint_unauthorized' });
    const bad = await call(t.app, 'GET', '/api/userInfo/getUserInfo', {
      token: 'not-a-real-token',
    });
    expect(bad.body.code).toBe(401);

    const { token } = await registerUser(t.app);
    // A bare token (no "Bearer") is accepted too.
    const bare = await t.app.inject({
      method: 'GET',
      url: '/api/userInfo/getUserInfo',
      headers: { authorization: token },
    });
    expect(bare.statusCode).toBe(200);
    const out = await call(t.app, 'POST', '/api/userInfo/loginOut', { token });
    expect(out.body.code).toBe(200);
    const after = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token });
    expect(after.status).toBe(401);
    const twice = await call(t.app, 'POST', '/api/userInfo/loginOut', { token });
    expect(twice.body).toMatchObject({ code: 200, msg: 'hint_48' });
  });

  it('expires a session after 24 idle hours and slides the expiry while used', async () => {
    const { token } = await registerUser(t.app);
    t.clock.advance(23 * 3600_000);
    expect((await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token })).status).toBe(200);
    t.clock.advance(23 * 3600_000);
    expect((await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token })).status).toBe(200);
    t.clock.advance(24 * 3600_000 + 1000);
    const expired = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.msg).toBe('hint_sessionExpired');
  });

  it('stores only hashes of session tokens', async () => {
    const { token, userId } = await registerUser(t.app);
    const rows = await t.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM user_session WHERE user_id = $1',
      [userId],
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]!.token_hash).not.toContain(token);
    expect(rows.rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('profile and passwords', () => {
  it('changes the nickname and refuses markup in it', async () => {
    const { token } = await registerUser(t.app);
    const changed = await call(t.app, 'POST', '/api/userInfo/modifyUserInfo', {
      token,
      form: { nickName: '  Zoë 王 ' },
    });
    expect(changed.body.data.nickName).toBe('Zoë 王');
    const bad = await call(t.app, 'POST', '/api/userInfo/modifyUserInfo', {
      token,
      form: { nickName: '<script>' },
    });
    expect(bad.body).toMatchObject({ msg: 'hint_nickNameInvalid', params: ['nickName'] });
    const long = await call(t.app, 'POST', '/api/userInfo/modifyUserInfo', {
      token,
      form: { nickName: 'x'.repeat(33) },
    });
    expect(long.body).toMatchObject({ msg: 'hint_paramTooLong', params: ['nickName', 32] });
    expect(
      (await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token })).body.data.nickName,
    ).toBe('Zoë 王');
  });

  it('changes the login password, revoking every session, and holds withdrawals for 24 h', async () => {
    const { token, email } = await registerUser(t.app);
    const second = (
      await call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: email, userPwd: GOOD_PASSWORD },
      })
    ).body.data.token as string;
    const wrong = await call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
      token,
      form: { oldPwd: 'Nope12345', newPwd: 'NewSecret456' },
    });
    expect(wrong.body).toMatchObject({ msg: 'hint_pwdWrong' });
    const weak = await call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
      token,
      form: { oldPwd: GOOD_PASSWORD, newPwd: 'short1' },
    });
    expect(weak.body).toMatchObject({ msg: 'pwd_minLength', params: ['newPwd'] });
    const same = await call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
      token,
      form: { oldPwd: GOOD_PASSWORD, newPwd: GOOD_PASSWORD },
    });
    expect(same.body.msg).toBe('hint_pwdSameAsOld');

    const ok = await call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
      token,
      form: { oldPwd: GOOD_PASSWORD, newPwd: 'NewSecret456' },
    });
    expect(ok.body).toMatchObject({ code: 200, msg: 'hint_pwdChanged' });
    expect((await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: second })).status).toBe(
      401,
    );
    expect(
      (
        await call(t.app, 'POST', '/api/userInfo/login', {
          form: { userAccount: email, userPwd: GOOD_PASSWORD },
        })
      ).status,
    ).toBe(422);
    const login = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: 'NewSecret456' },
    });
    expect(login.status).toBe(200);
    const holdUntil = new Date(login.body.data.userInfo.withdrawHoldUntil as string).getTime();
    expect(holdUntil - t.clock.now().getTime()).toBeGreaterThan(23.9 * 3600_000);
  });

  it('sets the withdrawal password with the login password, then changes it with the old one', async () => {
    const { token } = await registerUser(t.app);
    expect((await call(t.app, 'GET', '/api/userInfo/isSetWithPwd', { token })).body).toMatchObject({
      data: { isSetWithPwd: 0 },
      isSetWithPwd: 0,
    });
    const noLogin = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { newPwd: '123456' },
    });
    expect(noLogin.body).toMatchObject({ msg: 'hint_loginPwdRequired', params: ['userPwd'] });
    const format = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { newPwd: '12345a', userPwd: GOOD_PASSWORD },
    });
    expect(format.body).toMatchObject({ msg: 'hint_withPwdFormat', params: ['newPwd'] });
    const set = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { newPwd: '123456', userPwd: GOOD_PASSWORD },
    });
    expect(set.body.data).toMatchObject({ isSetWithPwd: 1, withdrawHoldUntil: null });
    expect(
      (await call(t.app, 'GET', '/api/userInfo/isSetWithPwd', { token })).body.isSetWithPwd,
    ).toBe(1);

    const missingOld = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { newPwd: '654321' },
    });
    expect(missingOld.body.msg).toBe('hint_oldWithPwdRequired');
    const changed = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { oldPwd: '123456', newPwd: '654321' },
    });
    expect(changed.body.data.withdrawHoldUntil).not.toBeNull();
  });

  it('locks the withdrawal password for an hour after 5 wrong tries', async () => {
    const { token } = await registerUser(t.app);
    await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { newPwd: '123456', userPwd: GOOD_PASSWORD },
    });
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      messages.push(
        (
          await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
            token,
            form: { oldPwd: '000000', newPwd: '111111' },
          })
        ).body.msg,
      );
    }
    expect(messages).toEqual([
      'hint_withPwdWrong',
      'hint_withPwdWrong',
      'hint_withPwdWrong',
      'hint_withPwdWrong',
      'hint_withPwdLocked',
    ]);
    const locked = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { oldPwd: '123456', newPwd: '111111' },
    });
    expect(locked.body).toMatchObject({ msg: 'hint_withPwdLocked', params: [60] });
    t.clock.advance(3600_000 + 1000);
    const after = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { oldPwd: '123456', newPwd: '111111' },
    });
    expect(after.status).toBe(200);
  });
});

describe('live and demo', () => {
  it('switches the session between live and demo and values the right book', async () => {
    const { token } = await registerUser(t.app);
    const panelLive = await call(t.app, 'GET', '/api/userInfo/personCenterPanelData', { token });
    expect(panelLive.body.data).toMatchObject({
      accountType: 0,
      userBalanceConvert: '0.0000',
      currencyName: 'USDT',
      notReadMessageCount: 1,
    });
    const toDemo = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', { token });
    expect(toDemo.body.data.accountType).toBe(2);
    const panelDemo = await call(t.app, 'GET', '/api/userInfo/personCenterPanelData', { token });
    expect(panelDemo.body.data).toMatchObject({
      accountType: 2,
      userBalanceConvert: '100000.0000',
      unpricedCurrencies: [],
    });
    const back = await call(t.app, 'POST', '/api/userInfo/changeLoginModel', {
      token,
      form: { accountType: '0' },
    });
    expect(back.body.data.accountType).toBe(0);
    const invalid = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token,
      query: { accountType: '1' },
    });
    expect(invalid.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['accountType'] });
  });
});
