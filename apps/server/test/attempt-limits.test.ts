/**
 * Lock-outs hold against bursts: every guess is counted before its secret is checked, so however
 * many arrive at once, at most the limit of them are ever verified (docs/adr/0006). The real argon2
 * verification runs; the test only counts its calls.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as secrets from '../src/lib/secrets';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import {
  call,
  createTestApp,
  createTestDatabase,
  GOOD_PASSWORD,
  registerUser,
  type TestApp,
} from './helpers';
import { adminApiCall } from './support/admin-api';

const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/lib/secrets', async (importOriginal) => {
  const real = await importOriginal<typeof secrets>();
  return {
    ...real,
    verifyPassword: async (hash: string, password: string) => {
      verifications.count += 1;
      return real.verifyPassword(hash, password);
    },
    spendPasswordCheck: async (password: string) => {
      verifications.count += 1;
      return real.spendPasswordCheck(password);
    },
  };
});

let t: TestApp;
const OPERATOR = 'gatekeeper';
const OPERATOR_PASSWORD = 'Tower0fKeys77';

beforeAll(async () => {
  t = await createTestApp();
  await ensureFirstAdmin(t.db, t.clock, OPERATOR, OPERATOR_PASSWORD);
});

afterAll(async () => {
  await t.close();
});

beforeEach(() => {
  verifications.count = 0;
});

const burst = <T>(count: number, send: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, i) => send(i)));

describe('login lock under parallel guesses', () => {
  it('verifies exactly 5 of 30 parallel wrong guesses, then refuses the right password', async () => {
    const { email } = await registerUser(t.app);
    verifications.count = 0;
    const answers = await burst(30, () =>
      call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: email, userPwd: 'Wrong1234' },
      }),
    );
    expect(verifications.count).toBe(5);
    expect(answers.filter((a) => a.body.msg === 'hint_loginFailed')).toHaveLength(4);
    expect(answers.filter((a) => a.body.msg === 'hint_accountLocked')).toHaveLength(26);
    const right = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: GOOD_PASSWORD },
    });
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ msg: 'hint_accountLocked', params: [15] });
    expect(verifications.count).toBe(5);
  });

  it('refuses the right password sent last in a burst of 17 wrong ones', async () => {
    const { email } = await registerUser(t.app);
    verifications.count = 0;
    const answers = await burst(18, (i) =>
      call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: email, userPwd: i === 17 ? GOOD_PASSWORD : `Wrong${1000 + i}` },
      }),
    );
    expect(verifications.count).toBe(5);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(0);
    expect(answers[17]!.body.msg).toBe('hint_accountLocked');
  });

  it('counts guesses at an account that does not exist the same way', async () => {
    const answers = await burst(20, () =>
      call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: 'nobody-at-all@example.com', userPwd: 'Wrong1234' },
      }),
    );
    expect(verifications.count).toBe(5);
    expect(answers.filter((a) => a.body.msg === 'hint_accountLocked')).toHaveLength(16);
  });

  it('starts a new window once the lock has ended', async () => {
    const { email } = await registerUser(t.app);
    await burst(10, () =>
      call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: email, userPwd: 'Wrong1234' },
      }),
    );
    t.clock.advance(15 * 60_000 + 1000);
    verifications.count = 0;
    const answers = await burst(10, () =>
      call(t.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: email, userPwd: 'Wrong1234' },
      }),
    );
    expect(verifications.count).toBe(5);
    expect(answers.filter((a) => a.body.msg === 'hint_accountLocked')).toHaveLength(6);
    t.clock.advance(15 * 60_000 + 1000);
    const right = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: email, userPwd: GOOD_PASSWORD },
    });
    expect(right.status).toBe(200);
  });

  it('holds the same way for operators', async () => {
    const answers = await burst(30, () =>
      adminApiCall(t.app, 'POST', '/auth/login', {
        json: { username: OPERATOR, password: 'Wrong1234' },
      }),
    );
    expect(verifications.count).toBe(5);
    expect(answers.filter((a) => a.body.msg === 'hint_accountLocked')).toHaveLength(26);
    const right = await adminApiCall(t.app, 'POST', '/auth/login', {
      json: { username: OPERATOR, password: OPERATOR_PASSWORD },
    });
    expect(right.status).toBe(429);
    expect(right.body.msg).toBe('hint_accountLocked');
    expect(verifications.count).toBe(5);
  });
});

describe('several instances on one database', () => {
  it('verifies exactly 5 of 30 guesses spread over two instances', async () => {
    const database = await createTestDatabase();
    const first = await createTestApp({ database });
    const second = await createTestApp({ database });
    try {
      const { email } = await registerUser(first.app);
      verifications.count = 0;
      const answers = await burst(30, (i) =>
        call((i % 2 ? first : second).app, 'POST', '/api/userInfo/login', {
          form: { userAccount: email, userPwd: 'Wrong1234' },
        }),
      );
      expect(verifications.count).toBe(5);
      expect(answers.filter((a) => a.body.msg === 'hint_accountLocked')).toHaveLength(26);
      const right = await call(second.app, 'POST', '/api/userInfo/login', {
        form: { userAccount: email, userPwd: GOOD_PASSWORD },
      });
      expect(right.body.msg).toBe('hint_accountLocked');
    } finally {
      await first.close();
      await second.close();
      await database.dispose();
    }
  });
});

describe('password checks of a signed-in user under parallel guesses', () => {
  it('verifies exactly 5 of 29 parallel wrong withdrawal passwords', async () => {
    const { token } = await registerUser(t.app);
    const set = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { newPwd: '123456', userPwd: GOOD_PASSWORD },
    });
    expect(set.status).toBe(200);
    verifications.count = 0;
    const answers = await burst(29, (i) =>
      call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
        token,
        form: { oldPwd: String(100000 + i), newPwd: '654321' },
      }),
    );
    expect(verifications.count).toBe(5);
    expect(answers.filter((a) => a.body.msg === 'hint_withPwdWrong')).toHaveLength(4);
    expect(answers.filter((a) => a.body.msg === 'hint_withPwdLocked')).toHaveLength(25);
    const right = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token,
      form: { oldPwd: '123456', newPwd: '654321' },
    });
    expect(right.body).toMatchObject({ msg: 'hint_withPwdLocked', params: [60] });
    expect(verifications.count).toBe(5);
  });

  it('verifies exactly 5 of 30 parallel wrong login passwords when changing it', async () => {
    const { token } = await registerUser(t.app);
    verifications.count = 0;
    await burst(30, (i) =>
      call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
        token,
        form: { oldPwd: `Wrong${1000 + i}`, newPwd: 'Another987' },
      }),
    );
    expect(verifications.count).toBe(5);
    const right = await call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
      token,
      form: { oldPwd: GOOD_PASSWORD, newPwd: 'Another987' },
    });
    expect(right.body.msg).toBe('hint_accountLocked');
  });
});
