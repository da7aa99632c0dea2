/**
 * The console's user pages (consoleUsersApi): support finds users by account prefix or exactly,
 * by id and by invite code, paged and sorted on the server; reads a user's profile, balances,
 * ledger postings with their journal entries, orders, deposits, withdrawals, sessions and login
 * history; disables a user (their session is refused at once), ends every session, and lifts the
 * withdrawal-password lock (the user may try again), each in the audit log. Finance reads what
 * concerns money and nothing else; content reads nothing; no call changes a balance.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import {
  call,
  createTestApp,
  deposit,
  GOOD_PASSWORD,
  registerUser,
  testConfig,
  uniqueEmail,
  type CallResult,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

let t: TestApp;
let dir: string;
let adminToken: string;
const tokens: Record<'support' | 'finance' | 'content', string> = {
  support: '',
  finance: '',
  content: '',
};

const OPERATOR_PASSWORD = 'patient harbour lantern';
const WITHDRAWAL_PASSWORD = '135790';

const adminCall = (
  method: 'GET' | 'POST',
  url: string,
  options: Parameters<typeof call>[3] = {},
): Promise<CallResult> => adminApiCall(t.app, method, url, options);

const get = (url: string, token: string, query: Record<string, string> = {}) =>
  adminCall('GET', url, { token, query });
const post = (url: string, token: string, json: unknown) => adminCall('POST', url, { token, json });

async function auditOf(targetId: number) {
  const result = await get('/audit', adminToken, {
    targetType: 'user',
    targetId: String(targetId),
    pageSize: '100',
  });
  expect(result.status).toBe(200);
  return result.body.rows as { action: string; operatorName: string; before: any; after: any }[];
}

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-console-users-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  adminToken = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['support', 'finance', 'content'] as const) {
    const username = `users-${role}`;
    const created = await post('/operators/create', adminToken, {
      username,
      password: OPERATOR_PASSWORD,
      roles: [role],
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, username, OPERATOR_PASSWORD);
  }
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('finding users', () => {
  it('finds by account prefix or exactly, by id and by invite code, paged and sorted', async () => {
    const prefix = `findme${Date.now().toString(36)}`;
    const users = [];
    for (let i = 0; i < 3; i += 1)
      users.push(await registerUser(t.app, `${prefix}${i}@example.com`));
    const search = (query: Record<string, string>) =>
      get('/users', tokens.support, { pageSize: '2', ...query });

    const first = await search({ keyWords: prefix.toUpperCase() });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(3);
    // Newest first by default, two to a page.
    expect(first.body.rows!.map((row) => row.id)).toEqual([users[2]!.userId, users[1]!.userId]);
    const second = await search({ keyWords: prefix, pageNum: '2' });
    expect(second.body.rows!.map((row) => row.id)).toEqual([users[0]!.userId]);
    const oldest = await search({ keyWords: prefix, sortField: 'createTime', sortOrder: 'asc' });
    expect(oldest.body.rows![0].id).toBe(users[0]!.userId);
    // Never a secret in a row.
    expect(Object.keys(first.body.rows![0])).not.toContain('passwordHash');

    const exact = await search({ keyWords: `${prefix}1@example.com`, exact: 'true' });
    expect(exact.body.rows!.map((row) => row.id)).toEqual([users[1]!.userId]);
    expect((await search({ keyWords: prefix, exact: 'true' })).body.total).toBe(0);

    const byId = await search({ keyWords: String(users[0]!.userId), field: 'id' });
    expect(byId.body.rows!.map((row) => row.userAccount)).toEqual([users[0]!.email]);
    const detail = await get('/users/detail', tokens.support, { id: String(users[0]!.userId) });
    const byCode = await search({
      keyWords: detail.body.data.inviteCode.toLowerCase(),
      field: 'inviteCode',
    });
    expect(byCode.body.rows!.map((row) => row.id)).toEqual([users[0]!.userId]);

    // `%` is text like any other, and bad input is refused on its field.
    expect((await search({ keyWords: '%' })).body.total).toBe(0);
    const badId = await search({ keyWords: 'abc', field: 'id' });
    expect(badId.status).toBe(400);
    expect(badId.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['keyWords'] });
    const tooBig = await search({ pageSize: '1000' });
    expect(tooBig.status).toBe(400);
    expect((await search({ sortField: 'password' })).status).toBe(400);
  });
});

describe("a user's page", () => {
  let user: { token: string; userId: number; email: string };

  beforeAll(async () => {
    const inviter = await registerUser(t.app);
    const inviterInfo = await get('/users/detail', tokens.support, {
      id: String(inviter.userId),
    });
    const registered = await call(t.app, 'POST', '/api/userInfo/reg', {
      form: {
        regType: '1',
        userAccount: uniqueEmail('invited'),
        userPwd: GOOD_PASSWORD,
        inviteCode: inviterInfo.body.data.inviteCode,
      },
      // Another browser than the inviter's: the same one would be refused as self-referral.
      headers: { 'user-agent': 'Invited friend browser' },
    });
    expect(registered.status).toBe(200);
    user = {
      token: registered.body.data.token,
      userId: registered.body.data.userInfo.id,
      email: registered.body.data.userInfo.userAccount,
    };
    await deposit(t.db, user.userId, '125.5');
  });

  it('shows the profile with its inviter, the balances per book and the ledger postings', async () => {
    const detail = await get('/users/detail', tokens.finance, { id: String(user.userId) });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      id: user.userId,
      userAccount: user.email,
      status: 0,
      withdrawPasswordSet: false,
      withdrawLock: { failures: 0, lockedUntil: null },
      activeSessions: 1,
    });
    expect(detail.body.data.inviter).toMatchObject({ id: expect.any(Number) });
    const missing = await get('/users/detail', tokens.support, { id: '999999' });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('hint_notFound');

    const balances = await get('/users/balances', tokens.finance, { id: String(user.userId) });
    expect(balances.status).toBe(200);
    const live = (balances.body.data as any[]).find(
      (line) => line.book === 'live' && line.currencyId === 3,
    );
    expect(live).toMatchObject({ available: '125.5000', frozen: '0.0000' });
    // The demo book's grant at registration.
    expect((balances.body.data as any[]).some((line) => line.book === 'demo')).toBe(true);

    const ledger = await get('/users/ledger', tokens.finance, {
      id: String(user.userId),
      book: 'live',
    });
    expect(ledger.status).toBe(200);
    expect(ledger.body.total).toBe(1);
    expect(ledger.body.rows![0]).toMatchObject({
      book: 'live',
      accountKind: 'available',
      amount: '125.5000',
      balanceAfter: '125.5000',
      entryType: 'recharge',
      entryId: expect.any(Number),
    });
    const demo = await get('/users/ledger', tokens.support, {
      id: String(user.userId),
      book: 'demo',
      pageSize: '1',
    });
    expect(demo.body.rows).toHaveLength(1);
  });

  it('lists orders, holdings, deposits, withdrawals, sessions and sign-ins, each paged', async () => {
    const id = String(user.userId);
    for (const kind of ['contract', 'fastTrade', 'spot', 'coin']) {
      const orders = await get('/users/orders', tokens.support, { id, kind });
      expect(orders.status, kind).toBe(200);
      expect(orders.body).toMatchObject({ rows: [], total: 0 });
    }
    expect((await get('/users/orders', tokens.support, { id, kind: 'other' })).status).toBe(400);
    expect((await get('/users/holdings', tokens.support, { id })).body.total).toBe(0);
    expect((await get('/users/recharges', tokens.finance, { id })).body.total).toBe(0);
    expect((await get('/users/withdrawals', tokens.support, { id })).body.total).toBe(0);

    // A second sign-in: two sessions live, both in the login history.
    const login = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { regType: '1', userAccount: user.email, userPwd: GOOD_PASSWORD },
      headers: { 'user-agent': 'ConsoleTest/1.0' },
    });
    expect(login.status).toBe(200);
    const sessions = await get('/users/sessions', tokens.support, { id, active: 'true' });
    expect(sessions.body.total).toBe(2);
    expect(sessions.body.rows![0]).toMatchObject({
      active: true,
      userAgent: 'ConsoleTest/1.0',
      revokeTime: null,
    });
    expect(sessions.body.rows![0].ip).toEqual(expect.any(String));
  });

  it('ends every session at once, audited, and the login history keeps them', async () => {
    const id = String(user.userId);
    const ended = await post('/users/endSessions', tokens.support, { id: user.userId });
    expect(ended.status).toBe(200);
    expect(ended.body.data).toEqual({ sessionsEnded: 2 });
    const refused = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: user.token });
    expect(refused.status).toBe(401);
    expect((await get('/users/sessions', tokens.support, { id, active: 'true' })).body.total).toBe(
      0,
    );
    const history = await get('/users/sessions', tokens.support, { id });
    expect(history.body.total).toBe(2);
    expect(history.body.rows!.every((row) => !row.active && row.revokeTime !== null)).toBe(true);
    const again = await post('/users/endSessions', tokens.support, { id: user.userId });
    expect(again.body.data).toEqual({ sessionsEnded: 0 });

    const audit = await auditOf(user.userId);
    expect(audit.filter((entry) => entry.action === 'user.endSessions')).toHaveLength(2);
    expect(audit.find((entry) => entry.action === 'user.endSessions')).toMatchObject({
      operatorName: 'users-support',
    });
  });

  it('disables a user (the session is refused at once) and enables them again', async () => {
    const login = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { regType: '1', userAccount: user.email, userPwd: GOOD_PASSWORD },
    });
    const token = login.body.data.token as string;
    const disabled = await post('/users/status', tokens.support, {
      id: user.userId,
      disabled: true,
    });
    expect(disabled.status).toBe(200);
    const refused = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token });
    expect(refused.status).toBe(401);
    const detail = await get('/users/detail', tokens.support, { id: String(user.userId) });
    expect(detail.body.data).toMatchObject({ status: 1, activeSessions: 0 });
    const listed = await get('/users', tokens.support, { keyWords: user.email, status: '1' });
    expect(listed.body.rows!.map((row) => row.id)).toEqual([user.userId]);

    const enabled = await post('/users/status', tokens.support, {
      id: user.userId,
      disabled: false,
    });
    expect(enabled.status).toBe(200);
    const back = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { regType: '1', userAccount: user.email, userPwd: GOOD_PASSWORD },
    });
    expect(back.status).toBe(200);
    user.token = back.body.data.token;
    const actions = (await auditOf(user.userId)).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['user.disable', 'user.enable']));
  });

  it('lifts the withdrawal-password lock: the user may try again', async () => {
    const set = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token: user.token,
      form: { newPwd: WITHDRAWAL_PASSWORD, userPwd: GOOD_PASSWORD },
    });
    expect(set.status).toBe(200);
    const tryOld = (oldPwd: string) =>
      call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
        token: user.token,
        form: { oldPwd, newPwd: '975310' },
      });
    // Nothing to lift yet.
    const nothing = await post('/users/resetWithdrawLock', tokens.support, { id: user.userId });
    expect(nothing.body.data).toEqual({ changed: false });
    for (let i = 0; i < 4; i += 1)
      expect((await tryOld('000000')).body.msg).toBe('hint_withPwdWrong');
    expect((await tryOld('000000')).body.msg).toBe('hint_withPwdLocked');
    expect((await tryOld(WITHDRAWAL_PASSWORD)).body.msg).toBe('hint_withPwdLocked');
    const locked = await get('/users/detail', tokens.support, { id: String(user.userId) });
    expect(locked.body.data.withdrawLock.failures).toBe(5);
    expect(locked.body.data.withdrawLock.lockedUntil).toEqual(expect.any(String));

    const reset = await post('/users/resetWithdrawLock', tokens.support, { id: user.userId });
    expect(reset.status).toBe(200);
    expect(reset.body.data).toEqual({ changed: true });
    const after = await get('/users/detail', tokens.support, { id: String(user.userId) });
    expect(after.body.data.withdrawLock).toEqual({ failures: 0, lockedUntil: null });
    // The user tries again: a wrong one is only wrong, the right one passes.
    expect((await tryOld('000000')).body.msg).toBe('hint_withPwdWrong');
    const changed = await tryOld(WITHDRAWAL_PASSWORD);
    expect(changed.status).toBe(200);

    const entry = (await auditOf(user.userId)).find(
      (row) => row.action === 'user.resetWithdrawLock',
    );
    expect(entry).toMatchObject({
      before: { failures: 5, lockedUntil: expect.any(String) },
      after: { failures: 0, lockedUntil: null },
    });
  });

  it('changes no balance: the ledger is as the deposit left it', async () => {
    const balances = await get('/users/balances', tokens.support, { id: String(user.userId) });
    const live = (balances.body.data as any[]).find(
      (line) => line.book === 'live' && line.currencyId === 3,
    );
    expect(live).toMatchObject({ available: '125.5000', frozen: '0.0000' });
    expect(
      (await get('/users/ledger', tokens.support, { id: String(user.userId), book: 'live' })).body
        .total,
    ).toBe(1);
  });
});

describe("a user's sockets", () => {
  it('are signed out on every private topic when support ends the sessions', async () => {
    const user = await registerUser(t.app);
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

    const ended = await post('/users/endSessions', tokens.support, { id: user.userId });
    expect(ended.body.data).toEqual({ sessionsEnded: 1 });
    await expect
      .poll(() => messages.find((m) => m.op === 'error' && m.signedOut === true))
      .toMatchObject({ msg: 'hint_sessionExpired' });
    ws.close();
  });
});

describe('who may call', () => {
  it('answers 401 signed out and 403 to roles the route does not name, before reading input', async () => {
    const user = await registerUser(t.app);
    const id = String(user.userId);
    const reads: [string, Record<string, string>][] = [
      ['/users', {}],
      ['/users/detail', { id }],
      ['/users/balances', { id }],
      ['/users/ledger', { id }],
      ['/users/recharges', { id }],
      ['/users/withdrawals', { id }],
    ];
    const supportReads: [string, Record<string, string>][] = [
      ['/users/orders', { id, kind: 'contract' }],
      ['/users/holdings', { id }],
      ['/users/sessions', { id }],
    ];
    const actions = ['/users/endSessions', '/users/resetWithdrawLock', '/users/status'];

    for (const [url, query] of [...reads, ...supportReads]) {
      expect((await get(url, '', query)).status, url).toBe(401);
      expect((await get(url, user.token, query)).status, url).toBe(401);
      expect((await get(url, tokens.content, query)).status, url).toBe(403);
      expect((await get(url, tokens.support, query)).status, url).toBe(200);
      expect((await get(url, adminToken, query)).status, url).toBe(200);
    }
    for (const [url, query] of reads)
      expect((await get(url, tokens.finance, query)).status).toBe(200);
    for (const [url, query] of supportReads) {
      const refused = await get(url, tokens.finance, query);
      expect(refused.status, url).toBe(403);
      expect(refused.body.code).toBe(403);
    }
    for (const url of actions) {
      for (const token of [tokens.finance, tokens.content]) {
        // 403 even for a body the schema refuses: the role is checked first.
        const refused = await post(url, token, { id: 'not a number' });
        expect(refused.status, url).toBe(403);
      }
      expect((await post(url, tokens.support, { id: 'not a number' })).status, url).toBe(400);
    }
    // Nothing was done by the refused calls.
    expect(await auditOf(user.userId)).toEqual([]);
    const session = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: user.token });
    expect(session.status).toBe(200);
  });
});
