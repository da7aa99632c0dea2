import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LOGIN_FILE, ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { verifyLedger } from '../src/ledger/verify';
import type { Router } from '../src/http/router';
import type { ConsoleEvents } from '../src/modules/admin/console-events';
import { adminApiRoutes } from '../src/modules/admin/routes';
import type { AdminService, OperatorContext } from '../src/modules/admin/service';
import {
  call,
  createTestApp,
  GOOD_PASSWORD,
  registerUser,
  testConfig,
  type CallResult,
  type TestApp,
} from './helpers';
import { adminApiCall, enrolTwoFactor, operatorReady } from './support/admin-api';

let t: TestApp;
let dir: string;
let adminPassword: string;
let adminToken: string;

const OPERATOR_PASSWORD = 'correct horse battery';
/** A 1×1 PNG. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const adminCall = (
  method: 'GET' | 'POST',
  url: string,
  options: Parameters<typeof call>[3] = {},
): Promise<CallResult> => adminApiCall(t.app, method, url, options);

const signIn = (username: string, password: string) => operatorReady(t.app, username, password);

let operatorSequence = 0;
/** Creates an operator through the API (as the seeded admin) and signs it in. */
async function newOperator(
  roles: string[],
): Promise<{ id: number; username: string; token: string }> {
  operatorSequence += 1;
  const username = `op${operatorSequence}-${roles.join('-')}`;
  const created = await adminCall('POST', '/operators/create', {
    token: adminToken,
    json: { username, password: OPERATOR_PASSWORD, roles },
  });
  if (created.status !== 200) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  return {
    id: created.body.data.id,
    username,
    token: await signIn(username, OPERATOR_PASSWORD),
  };
}

interface AuditEntry {
  id: number;
  operatorId: number;
  operatorName: string;
  action: string;
  targetType: string;
  targetId: string | null;
  before: any;
  after: any;
  ip: string | null;
  createTime: string;
}

async function auditOf(query: Record<string, string>): Promise<AuditEntry[]> {
  const result = await adminCall('GET', '/audit', {
    token: adminToken,
    query: { pageSize: '100', ...query },
  });
  expect(result.status).toBe(200);
  return result.body.rows as AuditEntry[];
}

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-admin-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  adminPassword = seeded.password!;
  adminToken = await signIn(ADMIN_USERNAME, adminPassword);
});

afterAll(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the seeded admin', () => {
  it('is created once at first start, its password printed and kept private in the data dir', async () => {
    expect(adminPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    const config = testConfig({ DATA_DIR: path.join(dir, 'data') });
    const file = path.join(config.dataDir, ADMIN_LOGIN_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    // A later start creates nothing and prints no password, only where the file is.
    const again = await adminLogin(config, t.db, t.clock);
    expect(again).toEqual({
      username: ADMIN_USERNAME,
      file,
      created: false,
      fileExists: true,
      retired: false,
    });
    // Another data dir (no password file) on the same database: still nothing new, no file.
    const elsewhere = testConfig({ DATA_DIR: path.join(dir, 'other') });
    const other = await adminLogin(elsewhere, t.db, t.clock);
    expect(other).toMatchObject({ created: false, fileExists: false });
    expect(other.password).toBeUndefined();
    await expect(stat(path.join(elsewhere.dataDir, ADMIN_LOGIN_FILE))).rejects.toThrow();
    const admins = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM operator WHERE 'admin' = ANY (roles)`,
    );
    expect(admins.rows[0]!.n).toBe(1);

    const me = await adminCall('GET', '/auth/me', { token: adminToken });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ username: 'admin', roles: ['admin'], disabled: false });
    expect(JSON.stringify(me.body)).not.toContain('argon2');
  });
});

describe('operator sessions', () => {
  it('signs in, answers me, signs out, and every step is audited', async () => {
    const operator = await newOperator(['support']);
    const login = await adminCall('POST', '/auth/login', {
      form: { username: operator.username.toUpperCase(), password: OPERATOR_PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ code: 200, msg: 'hint_success' });
    const token = login.body.data.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.body.data.operator).toMatchObject({ username: operator.username });

    const me = await adminCall('GET', '/auth/me', { token });
    expect(me.body.data).toMatchObject({ id: operator.id, roles: ['support'] });
    // The token is stored as its hash only.
    const stored = await t.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM operator_session WHERE operator_id = $1',
      [operator.id],
    );
    expect(stored.rows.map((row) => row.token_hash)).not.toContain(token);

    const out = await adminCall('POST', '/auth/logout', { token });
    expect(out.body).toMatchObject({ code: 200, msg: 'hint_success' });
    const after = await adminCall('GET', '/auth/me', { token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 401, msg: 'hint_unauthorized' });
    expect((await adminCall('POST', '/auth/logout', { token })).status).toBe(401);

    const entries = await auditOf({ operatorId: String(operator.id) });
    const logins = entries.filter((entry) => entry.action === 'auth.login');
    // Three in newOperator (the first sign-in, then one after each change of password), this one.
    expect(logins).toHaveLength(4);
    expect(logins[0]).toMatchObject({
      operatorName: operator.username,
      targetType: 'operator_session',
      ip: '127.0.0.1',
      createTime: t.clock.now().toISOString(),
    });
    expect(logins[0]!.after).toEqual({ lastLoginTime: t.clock.now().toISOString() });
    const logout = entries.find((entry) => entry.action === 'auth.logout');
    expect(logout).toMatchObject({
      operatorId: operator.id,
      before: { open: true },
      after: { open: false },
    });
  });

  it('answers 401 without a session and refuses an expired one', async () => {
    for (const [method, url] of [
      ['GET', '/auth/me'],
      ['GET', '/operators'],
      ['GET', '/recharges'],
      ['POST', '/recharges/approve'],
      ['GET', '/audit'],
    ] as const) {
      const result = await adminCall(method, url);
      expect(result.status, url).toBe(401);
      expect(result.body.code).toBe(401);
    }
    const operator = await newOperator(['content']);
    t.clock.advance(8 * 3600_000 + 1000);
    const expired = await adminCall('GET', '/auth/me', { token: operator.token });
    expect(expired.body).toMatchObject({ code: 401, msg: 'hint_sessionExpired' });
    adminToken = await signIn(ADMIN_USERNAME, adminPassword);
  });

  it('locks an operator name after 5 failed sign-ins, whether or not it exists', async () => {
    const operator = await newOperator(['support']);
    const bodies = [];
    for (let i = 0; i < 5; i++) {
      const result = await adminCall('POST', '/auth/login', {
        json: { username: operator.username, password: 'wrong password!' },
      });
      bodies.push(result.body);
    }
    expect(bodies.slice(0, 4).map((body) => body.msg)).toEqual(Array(4).fill('hint_loginFailed'));
    expect(bodies[4]).toMatchObject({ msg: 'hint_accountLocked', params: [15] });
    const locked = await adminCall('POST', '/auth/login', {
      json: { username: operator.username, password: OPERATOR_PASSWORD },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toBe('hint_accountLocked');

    for (let i = 0; i < 5; i++) {
      await adminCall('POST', '/auth/login', {
        json: { username: 'nobody-here', password: 'wrong password!' },
      });
    }
    expect(
      (
        await adminCall('POST', '/auth/login', {
          json: { username: 'nobody-here', password: 'wrong password!' },
        })
      ).body.msg,
    ).toBe('hint_accountLocked');

    t.clock.advance(15 * 60_000 + 1000);
    const open = await adminCall('POST', '/auth/login', {
      json: { username: operator.username, password: OPERATOR_PASSWORD },
    });
    expect(open.status).toBe(200);
    // Failed sign-ins write no audit entry of the operator; the successful ones do.
    const entries = await auditOf({ operatorId: String(operator.id), action: 'auth.login' });
    // Three in newOperator (the first sign-in, then one after each change of password), this one.
    expect(entries).toHaveLength(4);
    adminToken = await signIn(ADMIN_USERNAME, adminPassword);
  });

  it('never accepts a user token on /admin-api, nor an operator token on /api', async () => {
    const user = await registerUser(t.app);
    const asUser = await adminCall('GET', '/auth/me', { token: user.token });
    expect(asUser.status).toBe(401);
    expect(asUser.body.code).toBe(401);
    expect((await adminCall('GET', '/recharges', { token: user.token })).status).toBe(401);

    const asOperator = await call(t.app, 'GET', '/api/userInfo/getUserInfo', {
      token: adminToken,
    });
    expect(asOperator.status).toBe(401);
    expect(asOperator.body.code).toBe(401);
    const balance = await call(t.app, 'GET', '/api/userInfo/userBalance', { token: adminToken });
    expect(balance.status).toBe(401);
    // An operator cannot sign in on the user side with its operator credentials either.
    const userLogin = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: 'admin@bourse.local', userPwd: adminPassword },
    });
    expect(userLogin.status).not.toBe(200);
  });

  it('lets an operator change its own password, which ends its sessions', async () => {
    const operator = await newOperator(['content']);
    const wrong = await adminCall('POST', '/auth/changePassword', {
      token: operator.token,
      json: { oldPassword: 'not the password', newPassword: 'a brand new secret' },
    });
    expect(wrong.body).toMatchObject({ msg: 'hint_pwdWrong', params: ['oldPassword'] });
    const short = await adminCall('POST', '/auth/changePassword', {
      token: operator.token,
      json: { oldPassword: OPERATOR_PASSWORD, newPassword: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ msg: 'hint_paramTooShort', params: ['newPassword', 12] });
    const changed = await adminCall('POST', '/auth/changePassword', {
      token: operator.token,
      json: { oldPassword: OPERATOR_PASSWORD, newPassword: 'a brand new secret' },
    });
    expect(changed.body).toMatchObject({ code: 200, msg: 'hint_pwdChanged' });
    expect((await adminCall('GET', '/auth/me', { token: operator.token })).status).toBe(401);
    await signIn(operator.username, 'a brand new secret');
    const [entry] = await auditOf({
      operatorId: String(operator.id),
      action: 'operator.changePassword',
    });
    expect(entry).toMatchObject({ targetType: 'operator', targetId: String(operator.id) });
    // newOperator chose a first password already (an operator must, before any other call).
    expect(entry!.before).toEqual({ pwdChangeTime: t.clock.now().toISOString() });
    expect(entry!.after).toEqual({ pwdChangeTime: t.clock.now().toISOString(), sessionsEnded: 1 });
    expect(JSON.stringify(entry)).not.toContain('brand new');
  });
});

describe('roles', () => {
  it('gates every call by role: finance reviews money, admin manages operators and reads the audit log', async () => {
    const finance = await newOperator(['finance']);
    const support = await newOperator(['support']);
    const content = await newOperator(['content']);
    const cases: [string, string, Record<string, number>][] = [
      ['GET', '/recharges', { admin: 200, finance: 200, support: 403, content: 403 }],
      ['GET', '/withdrawals', { admin: 200, finance: 200, support: 403, content: 403 }],
      ['GET', '/operators', { admin: 200, finance: 403, support: 403, content: 403 }],
      ['GET', '/audit', { admin: 200, finance: 403, support: 403, content: 403 }],
      ['GET', '/auth/me', { admin: 200, finance: 200, support: 200, content: 200 }],
    ];
    const tokens: Record<string, string> = {
      admin: adminToken,
      finance: finance.token,
      support: support.token,
      content: content.token,
    };
    for (const [method, url, expected] of cases) {
      for (const [role, status] of Object.entries(expected)) {
        const result = await adminCall(method as 'GET', url, { token: tokens[role] });
        expect(result.status, `${role} ${url}`).toBe(status);
        expect(result.body.code, `${role} ${url}`).toBe(status);
        if (status === 403) expect(result.body.msg).toBe('hint_forbidden');
      }
    }
    // Changes are refused before their input is even read, and change nothing.
    for (const url of ['/recharges/approve', '/recharges/reject', '/withdrawals/pay']) {
      const result = await adminCall('POST', url, { token: support.token, json: { id: 1 } });
      expect(result.status, url).toBe(403);
    }
    const create = await adminCall('POST', '/operators/create', {
      token: finance.token,
      json: { username: 'sneaky', password: OPERATOR_PASSWORD, roles: ['admin'] },
    });
    expect(create.body).toMatchObject({ code: 403, msg: 'hint_forbidden' });
    const promote = await adminCall('POST', '/operators/update', {
      token: finance.token,
      json: { id: finance.id, roles: ['admin', 'finance'] },
    });
    expect(promote.status).toBe(403);
    const me = await adminCall('GET', '/auth/me', { token: finance.token });
    expect(me.body.data.roles).toEqual(['finance']);
  });

  it('offers no call that sets a balance, a price or an outcome', async () => {
    const urls: string[] = [];
    const recorder = {
      handle: (route: { path: string }) => urls.push(route.path.slice('/admin-api'.length)),
    };
    adminApiRoutes(
      recorder as unknown as Router<OperatorContext>,
      {} as AdminService,
      t.config,
      {} as ConsoleEvents,
    );
    expect(urls).toContain('/recharges/approve');
    expect(
      urls.filter((url) => /balance|price|outcome|ledger|credit|debit|settle|adjust/i.test(url)),
    ).toEqual([]);
    for (const url of ['/users/setBalance', '/balance/adjust', '/ledger/post']) {
      const result = await adminCall('POST', url, {
        token: adminToken,
        json: { userId: 1, amount: '1000' },
      });
      expect(result.status).toBe(404);
    }
  });
});

describe('operator accounts', () => {
  it('creates operators with checked input, lists them without secrets, and audits the creation', async () => {
    const bad: [Record<string, unknown>, string, unknown[]][] = [
      [
        { username: 'ok-name', password: 'short', roles: ['finance'] },
        'hint_paramTooShort',
        ['password', 12],
      ],
      [
        { username: 'x', password: OPERATOR_PASSWORD, roles: ['finance'] },
        'hint_operatorNameInvalid',
        ['username'],
      ],
      [
        { username: 'has space', password: OPERATOR_PASSWORD, roles: ['finance'] },
        'hint_operatorNameInvalid',
        ['username'],
      ],
      [
        { username: 'ok-name', password: OPERATOR_PASSWORD, roles: ['root'] },
        'hint_operatorRoleInvalid',
        ['roles.0'],
      ],
      [
        { username: 'ok-name', password: OPERATOR_PASSWORD, roles: [] },
        'hint_paramOutOfRange',
        ['roles'],
      ],
      [{ username: 'ok-name', password: OPERATOR_PASSWORD }, 'hint_paramRequired', ['roles']],
    ];
    for (const [body, key, params] of bad) {
      const result = await adminCall('POST', '/operators/create', {
        token: adminToken,
        json: body,
      });
      expect(result.status, key).toBe(400);
      expect(result.body).toMatchObject({ code: 500, msg: key, params });
    }

    // A form body: roles as a repeated field, or comma-separated.
    const request = {
      method: 'POST' as const,
      url: '/admin-api/operators/create',
      headers: {
        authorization: `Bearer ${adminToken}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `username=Cashier.One&password=${encodeURIComponent(OPERATOR_PASSWORD)}&roles=support&roles=finance`,
    };
    const created = (await t.app.inject(request)).json();
    expect(created).toMatchObject({
      code: 200,
      data: { username: 'cashier.one', roles: ['finance', 'support'], disabled: false },
    });
    const comma = await adminCall('POST', '/operators/create', {
      token: adminToken,
      form: { username: 'editor-one', password: OPERATOR_PASSWORD, roles: 'content,support' },
    });
    expect(comma.body.data.roles).toEqual(['support', 'content']);

    const taken = await adminCall('POST', '/operators/create', {
      token: adminToken,
      json: { username: 'CASHIER.ONE', password: OPERATOR_PASSWORD, roles: ['finance'] },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('hint_operatorNameTaken');

    const list = await adminCall('GET', '/operators', {
      token: adminToken,
      query: { pageSize: '100' },
    });
    expect(list.body.total).toBe(list.body.rows!.length);
    expect(list.body.rows!.map((row: any) => row.username)).toContain('cashier.one');
    expect(JSON.stringify(list.body)).not.toMatch(/argon2|password_hash|hash/);

    const [entry] = await auditOf({
      action: 'operator.create',
      targetId: String(created.data.id),
    });
    expect(entry).toMatchObject({
      operatorName: 'admin',
      targetType: 'operator',
      before: null,
      after: { username: 'cashier.one', roles: ['finance', 'support'], disabled: false },
    });
    expect(JSON.stringify(entry)).not.toContain(OPERATOR_PASSWORD);
  });

  it('changes roles, disables and enables, with before and after in the audit log', async () => {
    const operator = await newOperator(['support']);
    const promote = await adminCall('POST', '/operators/update', {
      token: adminToken,
      json: { id: operator.id, roles: ['finance', 'support'] },
    });
    expect(promote.body).toMatchObject({ code: 200, msg: 'hint_success' });
    expect(promote.body.data.roles).toEqual(['finance', 'support']);
    // The new role counts at once, in the session already open: finance needs two-factor first.
    const first = await adminCall('GET', '/recharges', { token: operator.token });
    expect(first.body).toMatchObject({ code: 403, msg: 'hint_twoFactorSetupRequired' });
    await enrolTwoFactor(t.app, operator.token, operator.username, OPERATOR_PASSWORD);
    expect((await adminCall('GET', '/recharges', { token: operator.token })).status).toBe(200);

    // The same change again: nothing to do, nothing audited.
    const same = await adminCall('POST', '/operators/update', {
      token: adminToken,
      form: { id: String(operator.id), roles: 'support,finance' },
    });
    expect(same.body).toMatchObject({ code: 200, msg: 'hint_48' });
    const updates = await auditOf({ action: 'operator.update', targetId: String(operator.id) });
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      operatorName: 'admin',
      before: { username: operator.username, roles: ['support'], disabled: false },
      after: { username: operator.username, roles: ['finance', 'support'], disabled: false },
    });

    const disable = await adminCall('POST', '/operators/update', {
      token: adminToken,
      form: { id: String(operator.id), disabled: '1' },
    });
    expect(disable.body.data.disabled).toBe(true);
    expect((await adminCall('GET', '/auth/me', { token: operator.token })).status).toBe(401);
    const refused = await adminCall('POST', '/auth/login', {
      json: { username: operator.username, password: OPERATOR_PASSWORD },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('hint_accountDisabled');

    await adminCall('POST', '/operators/update', {
      token: adminToken,
      json: { id: operator.id, disabled: false },
    });
    await signIn(operator.username, OPERATOR_PASSWORD);

    const entries = await auditOf({ action: 'operator.update', targetId: String(operator.id) });
    expect(entries.map((entry) => [entry.before.disabled, entry.after.disabled])).toEqual([
      [true, false],
      [false, true],
      [false, false],
    ]);
    expect(entries[1]!.after.sessionsEnded).toBe(1);

    const unknown = await adminCall('POST', '/operators/update', {
      token: adminToken,
      json: { id: 999_999, disabled: true },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('hint_operatorNotFound');
    const empty = await adminCall('POST', '/operators/update', {
      token: adminToken,
      json: { id: operator.id },
    });
    expect(empty.status).toBe(400);
  });

  it('keeps at least one enabled admin', async () => {
    const me = (await adminCall('GET', '/auth/me', { token: adminToken })).body.data;
    const others = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM operator WHERE 'admin' = ANY (roles) AND NOT disabled AND id <> $1`,
      [me.id],
    );
    expect(others.rows[0]!.n).toBe(0);
    for (const [change, hint] of [
      [{ disabled: true }, 'hint_operatorSelf'],
      [{ roles: ['finance'] }, 'hint_operatorLastAdmin'],
    ] as const) {
      const result = await adminCall('POST', '/operators/update', {
        token: adminToken,
        json: { id: me.id, ...change },
      });
      expect(result.status).toBe(422);
      expect(result.body.msg).toBe(hint);
    }
    // With a second admin, the first may step down (and the second restores it).
    const second = await newOperator(['admin']);
    const stepDown = await adminCall('POST', '/operators/update', {
      token: adminToken,
      json: { id: me.id, roles: ['finance'] },
    });
    expect(stepDown.status).toBe(200);
    expect((await adminCall('GET', '/operators', { token: adminToken })).status).toBe(403);
    const restore = await adminCall('POST', '/operators/update', {
      token: second.token,
      json: { id: me.id, roles: ['admin'] },
    });
    expect(restore.status).toBe(200);
    expect((await adminCall('GET', '/operators', { token: adminToken })).status).toBe(200);
    await adminCall('POST', '/operators/update', {
      token: adminToken,
      json: { id: second.id, disabled: true },
    });
  });

  it('resets a password: a given or generated one, ending sessions and lifting a lock', async () => {
    const operator = await newOperator(['content']);
    for (let i = 0; i < 5; i++) {
      await adminCall('POST', '/auth/login', {
        json: { username: operator.username, password: 'wrong password!' },
      });
    }
    const reset = await adminCall('POST', '/operators/resetPassword', {
      token: adminToken,
      json: { id: operator.id },
    });
    expect(reset.body.code).toBe(200);
    const generated = reset.body.data.password as string;
    expect(generated).toMatch(/^[A-Za-z0-9]{16}$/);
    expect((await adminCall('GET', '/auth/me', { token: operator.token })).status).toBe(401);
    const old = await adminCall('POST', '/auth/login', {
      json: { username: operator.username, password: OPERATOR_PASSWORD },
    });
    expect(old.body.msg).toBe('hint_loginFailed');
    await signIn(operator.username, generated);

    const chosen = await adminCall('POST', '/operators/resetPassword', {
      token: adminToken,
      form: { id: String(operator.id), password: 'chosen by the admin' },
    });
    expect(chosen.body.data).not.toHaveProperty('password');
    await signIn(operator.username, 'chosen by the admin');
    const short = await adminCall('POST', '/operators/resetPassword', {
      token: adminToken,
      json: { id: operator.id, password: 'too short' },
    });
    expect(short.body).toMatchObject({ msg: 'hint_paramTooShort', params: ['password', 12] });

    const entries = await auditOf({
      action: 'operator.resetPassword',
      targetId: String(operator.id),
    });
    expect(entries).toHaveLength(2);
    // A reset leaves the operator to choose a password again (signIn above chose one).
    expect(entries[1]).toMatchObject({
      operatorName: 'admin',
      before: { pwdChangeTime: expect.any(String) },
      after: { pwdChangeTime: null, generated: true, sessionsEnded: 1 },
    });
    expect(entries[0]!.after).toMatchObject({ generated: false, sessionsEnded: 1 });
    expect(JSON.stringify(entries)).not.toContain(generated);
    expect(JSON.stringify(entries)).not.toContain('chosen by the admin');
  });
});

describe('the audit log', () => {
  it('is paged, newest first, filtered by operator, action and target', async () => {
    const all = await adminCall('GET', '/audit', {
      token: adminToken,
      query: { pageNum: '1', pageSize: '3' },
    });
    expect(all.body.rows).toHaveLength(3);
    expect(all.body.total).toBeGreaterThan(10);
    const ids = all.body.rows!.map((row: any) => row.id as number);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const next = await adminCall('GET', '/audit', {
      token: adminToken,
      query: { pageNum: '2', pageSize: '3' },
    });
    expect(next.body.rows![0].id).toBeLessThan(ids[2]!);

    const creations = await auditOf({ action: 'operator.create' });
    expect(creations.length).toBeGreaterThan(3);
    expect(creations.every((entry) => entry.action === 'operator.create')).toBe(true);
    const byAdmin = await auditOf({ operatorId: String(creations[0]!.operatorId) });
    expect(byAdmin.every((entry) => entry.operatorName === 'admin')).toBe(true);
    const bad = await adminCall('GET', '/audit', {
      token: adminToken,
      query: { operatorId: 'x' },
    });
    expect(bad.status).toBe(400);
  });

  it('is append-only in the database', async () => {
    await expect(t.db.query(`UPDATE audit_log SET action = 'nothing'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(t.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    await expect(t.db.query(`DELETE FROM operator WHERE username = 'admin'`)).rejects.toThrow(
      /never deleted/,
    );
  });
});

describe('deposit and withdrawal review', () => {
  let finance: { id: number; username: string; token: string };
  let user: { token: string; userId: number };

  async function balance(): Promise<{ amount: string; frozenAmount: string }> {
    const result = await call(t.app, 'GET', '/api/userInfo/userBalance', {
      token: user.token,
      query: { currencyId: '3' },
    });
    return result.body.data;
  }

  async function recharge(amount: string, requestId: string): Promise<number> {
    const channels = await call(t.app, 'GET', '/api/rechargeChannelConfig/list', {
      token: user.token,
      query: { currencyId: '3' },
    });
    const channel = (channels.body.data as any[]).find((row) => row.network === 'TRC20');
    const result = await call(t.app, 'POST', '/api/userRecharge/inMoney', {
      token: user.token,
      json: {
        channelId: channel.id,
        amount,
        proofImage: `data:image/png;base64,${PNG_BASE64}`,
        requestId,
      },
    });
    if (result.status !== 200) throw new Error(`recharge failed: ${JSON.stringify(result.body)}`);
    return result.body.data.id as number;
  }

  async function withdraw(amount: string, requestId: string): Promise<number> {
    const channels = await call(t.app, 'GET', '/api/withdrawChannelConfig/list', {
      token: user.token,
      query: { currencyId: '3' },
    });
    const channel = (channels.body.data as any[]).find((row) => row.network === 'TRC20');
    const addresses = await call(t.app, 'GET', '/api/userWalletAddress/list', {
      token: user.token,
      query: { currencyId: '3' },
    });
    const result = await call(t.app, 'POST', '/api/userWithdraw/outMoney', {
      token: user.token,
      json: {
        channelId: channel.id,
        amount,
        withPwd: '135790',
        addressId: addresses.body.rows![0].id,
        requestId,
      },
    });
    if (result.status !== 200) throw new Error(`withdraw failed: ${JSON.stringify(result.body)}`);
    return result.body.data.id as number;
  }

  beforeAll(async () => {
    finance = await newOperator(['finance']);
    user = await registerUser(t.app);
    const withPwd = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token: user.token,
      form: { newPwd: '135790', userPwd: GOOD_PASSWORD },
    });
    expect(withPwd.status).toBe(200);
    const address = await call(t.app, 'POST', '/api/userWalletAddress/addUserWalletAddress', {
      token: user.token,
      form: { currencyId: '3', network: 'TRC20', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' },
    });
    expect(address.status).toBe(200);
  });

  it('approves a deposit once: the user is credited through the ledger, and it is audited', async () => {
    const id = await recharge('100', 'admin-test-recharge-1');
    const listed = await adminCall('GET', '/recharges', {
      token: finance.token,
      query: { status: '0', userId: String(user.userId) },
    });
    expect(listed.body.total).toBe(1);
    expect(listed.body.rows![0]).toMatchObject({
      id,
      userId: user.userId,
      status: 0,
      amount: '100.0000',
    });

    const proof = await t.app.inject({
      method: 'GET',
      url: `/admin-api/recharges/proof?id=${id}`,
      headers: { authorization: `Bearer ${finance.token}` },
    });
    expect(proof.statusCode).toBe(200);
    // Stored re-encoded (lib/images): the uploaded 1×1 PNG comes back as a 1×1 JPEG.
    expect(proof.headers['content-type']).toBe('image/jpeg');
    expect(proof.headers['cache-control']).toBe('private, no-store');
    expect(proof.headers['x-content-type-options']).toBe('nosniff');
    expect(proof.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await sharp(proof.rawPayload).metadata()).toMatchObject({
      format: 'jpeg',
      width: 1,
      height: 1,
    });
    const noProof = await adminCall('GET', '/recharges/proof', {
      token: finance.token,
      query: { id: '999999' },
    });
    expect(noProof.status).toBe(404);

    expect(await balance()).toMatchObject({ amount: '0.0000' });
    const approve = await adminCall('POST', '/recharges/approve', {
      token: finance.token,
      form: { id: String(id) },
    });
    expect(approve.body).toMatchObject({ code: 200, msg: 'hint_success' });
    expect(approve.body.data).toMatchObject({ id, status: 1 });
    expect(await balance()).toMatchObject({ amount: '100.0000', frozenAmount: '0.0000' });

    // A second click credits nothing more; rejecting it now is refused.
    const again = await adminCall('POST', '/recharges/approve', {
      token: finance.token,
      json: { id },
    });
    expect(again.body).toMatchObject({ code: 200, msg: 'hint_48' });
    const reject = await adminCall('POST', '/recharges/reject', {
      token: finance.token,
      json: { id, reason: 'too late' },
    });
    expect(reject.status).toBe(409);
    expect(reject.body.msg).toBe('hint_reviewClosed');
    expect(await balance()).toMatchObject({ amount: '100.0000' });

    const entries = await auditOf({ targetType: 'recharge', targetId: String(id) });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operatorId: finance.id,
      operatorName: finance.username,
      action: 'recharge.approve',
      before: { status: 0 },
      after: { status: 1 },
      ip: '127.0.0.1',
      createTime: t.clock.now().toISOString(),
    });
    const credits = await t.db.query<{ entry_type: string; amount: string }>(
      `SELECT e.entry_type, p.amount FROM ledger_posting p JOIN ledger_entry e ON e.id = p.entry_id
       JOIN ledger_account a ON a.id = p.account_id
       WHERE e.book = 'live' AND a.owner_type = 'user' AND a.owner_id = $1`,
      [user.userId],
    );
    expect(credits.rows).toEqual([{ entry_type: 'recharge', amount: '100.000000000000000000' }]);
    expect((await verifyLedger(t.db)).problems).toEqual([]);
  });

  it('rejects a deposit with its reason: nothing is credited, and it is audited', async () => {
    const id = await recharge('50', 'admin-test-recharge-2');
    const missing = await adminCall('POST', '/recharges/reject', {
      token: finance.token,
      json: { id },
    });
    expect(missing.body).toMatchObject({ msg: 'hint_paramRequired', params: ['reason'] });
    const reject = await adminCall('POST', '/recharges/reject', {
      token: finance.token,
      json: { id, reason: 'No payment received' },
    });
    expect(reject.body).toMatchObject({ code: 200, msg: 'hint_success' });
    expect(reject.body.data).toMatchObject({ status: 2, rejectReason: 'No payment received' });
    const again = await adminCall('POST', '/recharges/reject', {
      token: finance.token,
      json: { id, reason: 'No payment received' },
    });
    expect(again.body.msg).toBe('hint_48');
    const approve = await adminCall('POST', '/recharges/approve', {
      token: finance.token,
      json: { id },
    });
    expect(approve.status).toBe(409);
    expect(await balance()).toMatchObject({ amount: '100.0000' });

    const entries = await auditOf({ targetType: 'recharge', targetId: String(id) });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'recharge.reject',
      operatorName: finance.username,
      before: { status: 0, rejectReason: null },
      after: { status: 2, rejectReason: 'No payment received' },
    });
  });

  it('pays a withdrawal: the frozen amount and fee leave the account, and it is audited', async () => {
    const id = await withdraw('30', 'admin-test-withdraw-1');
    expect(await balance()).toMatchObject({ amount: '69.0000', frozenAmount: '31.0000' });
    const listed = await adminCall('GET', '/withdrawals', {
      token: finance.token,
      query: { status: '0', userId: String(user.userId) },
    });
    expect(listed.body.rows!.map((row: any) => row.id)).toEqual([id]);
    // Operators see the destination they pay, unmasked.
    expect(listed.body.rows![0].destination).toMatchObject({
      address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
    });

    const pay = await adminCall('POST', '/withdrawals/pay', {
      token: finance.token,
      json: { id },
    });
    expect(pay.body).toMatchObject({ code: 200, msg: 'hint_success' });
    expect(pay.body.data).toMatchObject({ id, status: 1 });
    expect(await balance()).toMatchObject({ amount: '69.0000', frozenAmount: '0.0000' });
    const again = await adminCall('POST', '/withdrawals/pay', {
      token: finance.token,
      json: { id },
    });
    expect(again.body.msg).toBe('hint_48');
    const reject = await adminCall('POST', '/withdrawals/reject', {
      token: finance.token,
      json: { id, reason: 'changed my mind' },
    });
    expect(reject.status).toBe(409);
    expect(await balance()).toMatchObject({ amount: '69.0000', frozenAmount: '0.0000' });

    const entries = await auditOf({ targetType: 'withdraw', targetId: String(id) });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'withdraw.pay',
      operatorId: finance.id,
      before: { status: 0 },
      after: { status: 1 },
    });
    expect((await verifyLedger(t.db)).problems).toEqual([]);
  });

  it('rejects a withdrawal with its reason: the funds are released at once, and it is audited', async () => {
    const id = await withdraw('20', 'admin-test-withdraw-2');
    expect(await balance()).toMatchObject({ amount: '48.0000', frozenAmount: '21.0000' });
    const reject = await adminCall('POST', '/withdrawals/reject', {
      token: finance.token,
      form: { id: String(id), reason: 'Address on a sanctions list' },
    });
    expect(reject.body).toMatchObject({ code: 200, msg: 'hint_success' });
    expect(reject.body.data).toMatchObject({
      status: 2,
      rejectReason: 'Address on a sanctions list',
    });
    expect(await balance()).toMatchObject({ amount: '69.0000', frozenAmount: '0.0000' });
    const again = await adminCall('POST', '/withdrawals/reject', {
      token: finance.token,
      json: { id, reason: 'Address on a sanctions list' },
    });
    expect(again.body.msg).toBe('hint_48');
    const pay = await adminCall('POST', '/withdrawals/pay', {
      token: finance.token,
      json: { id },
    });
    expect(pay.status).toBe(409);
    expect(await balance()).toMatchObject({ amount: '69.0000', frozenAmount: '0.0000' });

    const entries = await auditOf({ targetType: 'withdraw', targetId: String(id) });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'withdraw.reject',
      operatorName: finance.username,
      before: { status: 0 },
      after: { status: 2, rejectReason: 'Address on a sanctions list' },
    });
    expect((await verifyLedger(t.db)).problems).toEqual([]);
  });

  it('lets no other role review, and a refused review moves nothing', async () => {
    const support = await newOperator(['support']);
    const id = await recharge('10', 'admin-test-recharge-3');
    const refused = await adminCall('POST', '/recharges/approve', {
      token: support.token,
      json: { id },
    });
    expect(refused.body).toMatchObject({ code: 403, msg: 'hint_forbidden' });
    expect(await balance()).toMatchObject({ amount: '69.0000' });
    expect(await auditOf({ targetType: 'recharge', targetId: String(id) })).toEqual([]);
    // An admin may review too.
    const approve = await adminCall('POST', '/recharges/approve', {
      token: adminToken,
      json: { id },
    });
    expect(approve.body.msg).toBe('hint_success');
    expect(await balance()).toMatchObject({ amount: '79.0000' });
  });
});

describe('channels', () => {
  const usdtChannel = {
    channelType: 2,
    channelName: 'USDT (TRC20) main',
    currencyId: 3,
    network: 'TRC20',
    depositAddress: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
    minAmount: '5',
    maxAmount: '1000',
  };

  it('lets finance replace a deposit address, audited, and users see it at once', async () => {
    const finance = await newOperator(['finance']);
    const created = await adminCall('POST', '/channels/recharge/save', {
      token: finance.token,
      json: usdtChannel,
    });
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    const updated = await adminCall('POST', '/channels/recharge/save', {
      token: finance.token,
      json: { ...usdtChannel, id, depositAddress: 'TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy' },
    });
    expect(updated.body.data.deposit_address).toBe('TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy');
    const seen = await call(t.app, 'GET', '/api/rechargeChannelConfig/list');
    expect((seen.body.data as any[]).find((c) => c.id === id).depositAddress).toBe(
      'TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy',
    );
    const entries = await auditOf({ targetType: 'rechargeChannel', targetId: String(id) });
    expect(entries.map((e) => e.action)).toEqual([
      'rechargeChannel.update',
      'rechargeChannel.create',
    ]);
    expect(entries[0]).toMatchObject({
      before: { deposit_address: usdtChannel.depositAddress },
      after: { deposit_address: 'TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy' },
    });
    const hidden = await adminCall('POST', '/channels/recharge/save', {
      token: finance.token,
      json: { ...usdtChannel, id, isVisible: 0 },
    });
    expect(hidden.status).toBe(200);
    const after = await call(t.app, 'GET', '/api/rechargeChannelConfig/list');
    expect((after.body.data as any[]).some((c) => c.id === id)).toBe(false);
    const all = await adminCall('GET', '/channels/recharge?pageSize=100', { token: finance.token });
    expect((all.body.rows as any[]).some((c) => c.id === id)).toBe(true);
  });

  it('lists each kind of channel a page at a time, in the order users see them', async () => {
    const finance = await newOperator(['finance']);
    for (const kind of ['recharge', 'withdraw'] as const) {
      const all = await adminCall('GET', `/channels/${kind}?pageSize=100`, {
        token: finance.token,
      });
      expect(all.status).toBe(200);
      const rows = all.body.rows as { id: number; sort: number }[];
      expect(all.body.total).toBe(rows.length);
      expect(rows.length).toBeGreaterThan(1);
      const ordered = [...rows].sort((a, b) => a.sort - b.sort || a.id - b.id);
      expect(rows.map((row) => row.id)).toEqual(ordered.map((row) => row.id));
      const second = await adminCall('GET', `/channels/${kind}?pageNum=2&pageSize=1`, {
        token: finance.token,
      });
      expect(second.body.total).toBe(rows.length);
      expect((second.body.rows as { id: number }[]).map((row) => row.id)).toEqual([rows[1]!.id]);
      const tooLarge = await adminCall('GET', `/channels/${kind}?pageSize=100000`, {
        token: finance.token,
      });
      expect(tooLarge.status).toBe(400);
    }
  });

  it('refuses a bad address, a network the currency lacks, and other roles', async () => {
    const finance = await newOperator(['finance']);
    const support = await newOperator(['support']);
    const badAddress = await adminCall('POST', '/channels/recharge/save', {
      token: finance.token,
      json: { ...usdtChannel, depositAddress: '0x52908400098527886E0F7030069857D2E4169EE7' },
    });
    expect(badAddress.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['depositAddress'] });
    const badNetwork = await adminCall('POST', '/channels/recharge/save', {
      token: finance.token,
      json: { ...usdtChannel, network: 'SOL' },
    });
    expect(badNetwork.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['network'] });
    const forbidden = await adminCall('POST', '/channels/recharge/save', {
      token: support.token,
      json: usdtChannel,
    });
    expect(forbidden.body).toMatchObject({ code: 403 });
  });

  it('lowers withdrawal fees at once, and raises them only after the notice', async () => {
    const finance = await newOperator(['finance']);
    const channel = {
      channelType: 2,
      channelName: 'USDT (TRC20) cheap',
      currencyId: 3,
      network: 'TRC20',
      feeRate: '0.001',
      fixedFee: '2',
      minAmount: '10',
      maxAmount: '1000',
      dailyLimit: '5000',
    };
    const created = await adminCall('POST', '/channels/withdraw/save', {
      token: finance.token,
      json: channel,
    });
    const id = created.body.data.id as number;
    const lower = await adminCall('POST', '/channels/withdraw/save', {
      token: finance.token,
      json: { ...channel, id, fixedFee: '1' },
    });
    expect(lower.status).toBe(200);
    const raise = await adminCall('POST', '/channels/withdraw/save', {
      token: finance.token,
      json: { ...channel, id, fixedFee: '1.5' },
    });
    // Announced, not applied (withdraw-terms.test.ts has the whole rule).
    expect(raise.status).toBe(200);
    expect(raise.body.data.pendingChanges).toEqual([
      expect.objectContaining({ term: 'fixedFee', oldValue: '1', newValue: '1.5' }),
    ]);
    const rateRaise = await adminCall('POST', '/channels/withdraw/save', {
      token: finance.token,
      json: { ...channel, id, fixedFee: '1', feeRate: '0.002' },
    });
    expect(rateRaise.status).toBe(200);
    expect(rateRaise.body.data.pendingChanges).toEqual([
      expect.objectContaining({ term: 'feeRate', newValue: '0.002' }),
    ]);
    const { rows } = await t.db.query<{ fixed_fee: string }>(
      'SELECT fixed_fee FROM withdraw_channel WHERE id = $1',
      [id],
    );
    expect(Number(rows[0]!.fixed_fee)).toBe(1);
  });
});
