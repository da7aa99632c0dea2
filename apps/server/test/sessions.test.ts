/**
 * The session stack both kinds share (src/auth/sessions.ts), driven directly: each kind's table,
 * what its sessions carry, its expiry and idle rules, what bars its owners, and the /ws check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../src/auth/sessions';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import { createTestApp, GOOD_PASSWORD, registerUser, type TestApp } from './helpers';

const HOUR_MS = 3600_000;
const OPERATOR = 'keeper';
const OPERATOR_PASSWORD = 'Lantern0fDusk42';
const client = { ip: '203.0.113.9', userAgent: 'sessions-test' };

interface Row {
  id: number;
  password_hash: string;
}
type UserRow = Row & { status: number; account_type: 0 | 2; last_login_at: Date | null };
type OperatorRow = Row & { disabled: boolean; username: string };

let t: TestApp;
let users: SessionStore<'user', UserRow>;
let operators: SessionStore<'operator', OperatorRow>;

beforeAll(async () => {
  t = await createTestApp();
  await ensureFirstAdmin(t.db, t.clock, OPERATOR, OPERATOR_PASSWORD);
  users = new SessionStore(t, 'user');
  operators = new SessionStore(t, 'operator');
});

afterAll(async () => {
  await t.close();
});

const userRow = async (id: number) =>
  (await t.db.query<UserRow>('SELECT * FROM app_user WHERE id = $1', [id])).rows[0]!;
const operatorRow = async () =>
  (await t.db.query<OperatorRow>('SELECT * FROM operator WHERE username = $1', [OPERATOR]))
    .rows[0]!;

describe('users', () => {
  it('keeps a session 24 h after its last use, carrying its book, and records the sign-in', async () => {
    const user = await userRow((await registerUser(t.app)).userId);
    const opened = await users.open(t.db, user, { account_type: 2 }, client);
    expect(opened.token).toMatch(/^[\w-]{43}$/);
    expect((await userRow(user.id)).last_login_at).toEqual(opened.at);

    const live = await users.resolve(opened.token);
    expect(live).toMatchObject({
      id: user.id,
      session_id: opened.sessionId,
      session_account_type: 2,
    });
    await users.carry(t.db, opened.sessionId, 'account_type', 0);
    expect((await users.resolve(opened.token)).session_account_type).toBe(0);

    // Used every 23 hours, it lives on; left alone for 24 hours, it ends.
    for (let day = 0; day < 3; day++) {
      t.clock.advance(23 * HOUR_MS);
      await expect(users.resolve(opened.token)).resolves.toMatchObject({ id: user.id });
    }
    t.clock.advance(24 * HOUR_MS);
    await expect(users.resolve(opened.token)).rejects.toMatchObject({ key: 'hint_sessionExpired' });
  });

  it('ends one session or all, and tells the /ws check which ended and why', async () => {
    const user = await userRow((await registerUser(t.app)).userId);
    const a = await users.open(t.db, user, { account_type: 0 }, client);
    const b = await users.open(t.db, user, { account_type: 0 }, client);
    const c = await users.open(t.db, user, { account_type: 0 }, client);
    expect(await users.end(t.db, a.sessionId)).toBe(true);
    expect(await users.end(t.db, a.sessionId)).toBe(false);
    await expect(users.resolve(a.token)).rejects.toMatchObject({ key: 'hint_unauthorized' });

    const ended = await users.endedSessions([a.sessionId, b.sessionId, c.sessionId, 0]);
    expect([...ended]).toEqual([
      [a.sessionId, 'hint_sessionExpired'],
      [0, 'hint_sessionExpired'],
    ]);
    // All the user's live sessions: b, c and the one registration opened.
    const all = await users.endAll(t.db, user.id);
    expect(all).toHaveLength(3);
    expect(all).toEqual(expect.arrayContaining([b.sessionId, c.sessionId]));
    await expect(users.resolve(c.token)).rejects.toMatchObject({ key: 'hint_unauthorized' });

    const d = await users.open(t.db, user, { account_type: 0 }, client);
    await t.db.query('UPDATE app_user SET status = 1 WHERE id = $1', [user.id]);
    await expect(users.resolve(d.token)).rejects.toMatchObject({ key: 'hint_accountDisabled' });
    expect((await users.endedSessions([d.sessionId])).get(d.sessionId)).toBe(
      'hint_accountDisabled',
    );
    await expect(
      users.checkSignIn('email:sessions-test', await userRow(user.id), GOOD_PASSWORD),
    ).rejects.toMatchObject({ key: 'hint_accountDisabled', status: 403 });
  });
});

describe('operators', () => {
  it('ends a session after 8 idle hours, and 24 hours after sign-in however used', async () => {
    const operator = await operators.checkSignIn(OPERATOR, await operatorRow(), OPERATOR_PASSWORD);
    const idle = await operators.open(t.db, operator, {}, client);
    const busy = await operators.open(t.db, operator, {}, client);
    for (let hour = 7; hour < 24; hour += 7) {
      t.clock.advance(7 * HOUR_MS);
      await expect(operators.resolve(busy.token)).resolves.toMatchObject({ username: OPERATOR });
    }
    await expect(operators.resolve(idle.token)).rejects.toMatchObject({
      key: 'hint_sessionExpired',
    });
    // 24 hours in, used 3 hours ago: the 24 hours since sign-in end it.
    t.clock.advance(3 * HOUR_MS);
    await expect(operators.resolve(busy.token)).rejects.toMatchObject({
      key: 'hint_sessionExpired',
    });
  });

  it('counts wrong passwords per identifier, known or not, under the operators’ keys', async () => {
    for (let i = 0; i < 5; i++) {
      await expect(
        operators.checkSignIn('nobody-here', undefined, 'Wrong1234'),
      ).rejects.toMatchObject({ key: i < 4 ? 'hint_loginFailed' : 'hint_accountLocked' });
    }
    const { rows } = await t.db.query<{ key: string }>(
      "SELECT key FROM attempt_limit WHERE key LIKE '%nobody-here'",
    );
    expect(rows).toEqual([{ key: 'operator-login:nobody-here' }]);
    await operators.clearSignInLock('nobody-here');
    await expect(
      operators.checkSignIn('nobody-here', undefined, 'Wrong1234'),
    ).rejects.toMatchObject({ key: 'hint_loginFailed' });
  });
});
