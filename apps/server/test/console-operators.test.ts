/**
 * The console's operator calls (consoleOperatorsApi) and the rules around them: an operator who
 * must choose a password (never changed, or reset by an admin) may call nothing but me,
 * changePassword and logout; operators list and end their own sessions, admins anyone's; no admin
 * disables their own account and the last admin keeps the role; the audit log filters by date and
 * exports as CSV.
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
  operatorReady,
  operatorSignIn,
} from './support/admin-api';
import { parseCsv } from './support/csv';

let t: TestApp;
let dir: string;
let admin: string;
let adminId: number;

const FIRST = 'first password of the desk';
const CHOSEN = 'chosen password of the desk';

const as = (token: string) => ({
  get: (url: string, query: Record<string, string> = {}): Promise<CallResult> =>
    adminApiCall(t.app, 'GET', url, { token, query }),
  post: (url: string, json: unknown = {}): Promise<CallResult> =>
    adminApiCall(t.app, 'POST', url, { token, json }),
});

let sequence = 0;
/** An operator made by the admin, signed in once with the admin's password (not yet chosen). */
async function newOperator(
  roles: string[],
): Promise<{ id: number; username: string; token: string }> {
  sequence += 1;
  const username = `desk${sequence}-${roles.join('-')}`;
  const created = await as(admin).post('/operators/create', { username, password: FIRST, roles });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return {
    id: created.body.data.id,
    username,
    token: await operatorSignIn(t.app, username, FIRST),
  };
}

/** The CSV export as the server sends it. */
async function exportCsv(token: string, query: Record<string, string>) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/admin-api/audit/export',
    query,
    headers: { authorization: `Bearer ${token}` },
  });
  return response;
}

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-console-operators-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  // The seeded admin, too, must choose a password first.
  const first = await operatorSignIn(t.app, ADMIN_USERNAME, seeded.password!);
  const refused = await as(first).get('/operators');
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ code: 403, msg: 'hint_pwdChangeRequired' });
  admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  adminId = (await as(admin).get('/auth/me')).body.data.id;
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the first password', () => {
  it('must be chosen before any call but me, changePassword and logout; the input is not read first', async () => {
    const desk = await newOperator(['finance']);
    const me = await as(desk.token).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data.pwdChangeTime).toBeNull();
    for (const [method, url] of [
      ['GET', '/recharges'],
      ['GET', '/auth/sessions'],
      // Bad input: still the password's refusal, not a 400.
      ['POST', '/recharges/approve'],
      ['GET', '/audit'],
    ] as const) {
      const refused = await adminApiCall(t.app, method, url, {
        token: desk.token,
        ...(method === 'POST' ? { json: { id: 'not a number' } } : {}),
      });
      expect(refused.status, url).toBe(403);
      expect(refused.body, url).toMatchObject({ code: 403, msg: 'hint_pwdChangeRequired' });
    }
    await changeOwnPassword(t.app, desk.token, FIRST, CHOSEN);
    // Finance sets two-factor up next (operator-two-factor.test.ts), then may work.
    const token = await operatorReady(t.app, desk.username, CHOSEN);
    expect((await as(token).get('/recharges')).status).toBe(200);
    // A role the route does not name is still refused as such.
    expect((await as(token).get('/operators')).body.msg).toBe('hint_forbidden');
    // Signing out is allowed before the change too.
    const other = await newOperator(['support']);
    expect((await as(other.token).post('/auth/logout')).status).toBe(200);
  });

  it("is to be chosen again after an admin's reset, whether the admin gave one or not", async () => {
    const desk = await newOperator(['support']);
    await changeOwnPassword(t.app, desk.token, FIRST, CHOSEN);
    for (const body of [{ id: desk.id }, { id: desk.id, password: 'given by the admin 1' }]) {
      const reset = await as(admin).post('/operators/resetPassword', body);
      expect(reset.status).toBe(200);
      expect(reset.body.data.operator.pwdChangeTime).toBeNull();
      const password = (reset.body.data.password as string | undefined) ?? 'given by the admin 1';
      const token = await operatorSignIn(t.app, desk.username, password);
      expect((await as(token).get('/auth/sessions')).body.msg).toBe('hint_pwdChangeRequired');
      await changeOwnPassword(t.app, token, password, `${CHOSEN} again`);
      const ready = await operatorSignIn(t.app, desk.username, `${CHOSEN} again`);
      expect((await as(ready).get('/auth/sessions')).status).toBe(200);
    }
  });
});

describe('sessions', () => {
  it('an operator lists their own live sessions, the current one marked, and ends one', async () => {
    const desk = await newOperator(['content']);
    await changeOwnPassword(t.app, desk.token, FIRST, CHOSEN);
    const one = await operatorSignIn(t.app, desk.username, CHOSEN);
    t.clock.advance(60_000);
    const two = await adminApiCall(t.app, 'POST', '/auth/login', {
      json: { username: desk.username, password: CHOSEN },
      headers: { 'user-agent': 'Desk browser 2' },
    });
    const twoToken = two.body.data.token as string;
    const list = await as(one).get('/auth/sessions', { pageSize: '10' });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    const rows = list.body.rows as Array<Record<string, unknown>>;
    expect(rows.map((row) => row.current)).toEqual([false, true]);
    expect(rows[0]).toMatchObject({
      operatorId: desk.id,
      ip: '127.0.0.1',
      userAgent: 'Desk browser 2',
    });
    expect(rows[0]!.createTime).toBe(t.clock.now().toISOString());
    // Paged on the server.
    const second = await as(one).get('/auth/sessions', { pageNum: '2', pageSize: '1' });
    expect(second.body).toMatchObject({ total: 2 });
    expect((second.body.rows as Array<{ current: boolean }>)[0]!.current).toBe(true);

    // Ending the other session: its next call is refused at once, this one lives on.
    const ended = await as(one).post('/auth/sessions/revoke', { id: rows[0]!.id });
    expect(ended.status).toBe(200);
    expect((await as(twoToken).get('/auth/me')).status).toBe(401);
    expect((await as(one).get('/auth/me')).status).toBe(200);
    expect((await as(one).post('/auth/sessions/revoke', { id: rows[0]!.id })).body).toMatchObject({
      msg: 'hint_sessionNotFound',
    });
    // Not another operator's session.
    const adminSessions = await as(admin).get('/auth/sessions');
    const adminSession = (adminSessions.body.rows as Array<{ id: number }>)[0]!.id;
    const foreign = await as(one).post('/auth/sessions/revoke', { id: adminSession });
    expect(foreign.status).toBe(404);
    expect(foreign.body.msg).toBe('hint_sessionNotFound');
    expect((await as(admin).get('/auth/me')).status).toBe(200);

    const [entry] = (
      await as(admin).get('/audit', {
        action: 'operator.revokeSession',
        operatorId: String(desk.id),
      })
    ).body.rows as Array<Record<string, unknown>>;
    expect(entry).toMatchObject({
      targetType: 'operator_session',
      targetId: String(rows[0]!.id),
      before: { operatorId: desk.id, open: true },
      after: { operatorId: desk.id, open: false },
    });
  });

  it("an admin lists and ends any operator's sessions; other roles may not", async () => {
    const desk = await newOperator(['finance']);
    await changeOwnPassword(t.app, desk.token, FIRST, CHOSEN);
    const token = await operatorReady(t.app, desk.username, CHOSEN);
    const list = await as(admin).get('/operators/sessions', { operatorId: String(desk.id) });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    const session = (list.body.rows as Array<{ id: number; current: boolean }>)[0]!;
    expect(session.current).toBe(false);

    // A finance operator may neither list nor end another's sessions (nor, through their own
    // call, an admin's).
    expect(
      (await as(token).get('/operators/sessions', { operatorId: String(adminId) })).status,
    ).toBe(403);
    const refused = await as(token).post('/operators/sessions/revoke', { id: session.id });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('hint_forbidden');
    // Refused before the input is read.
    expect((await as(token).post('/operators/sessions/revoke', { id: 'x' })).status).toBe(403);

    const unknown = await as(admin).get('/operators/sessions', { operatorId: '999999' });
    expect(unknown.body.msg).toBe('hint_operatorNotFound');
    const ended = await as(admin).post('/operators/sessions/revoke', { id: session.id });
    expect(ended.status).toBe(200);
    const next = await as(token).get('/recharges');
    expect(next.status).toBe(401);
    expect(next.body.code).toBe(401);
    expect(
      (await as(admin).get('/operators/sessions', { operatorId: String(desk.id) })).body.total,
    ).toBe(0);
  });
});

describe('operator accounts', () => {
  it('no admin disables their own account; the last admin keeps the role', async () => {
    const self = await as(admin).post('/operators/update', { id: adminId, disabled: true });
    expect(self.status).toBe(422);
    expect(self.body).toMatchObject({ msg: 'hint_operatorSelf', params: ['disabled'] });
    const demote = await as(admin).post('/operators/update', { id: adminId, roles: ['finance'] });
    expect(demote.body.msg).toBe('hint_operatorLastAdmin');
    // With a second admin, the other may be disabled, but still not oneself.
    const second = await newOperator(['admin']);
    await changeOwnPassword(t.app, second.token, FIRST, CHOSEN);
    const secondToken = await operatorReady(t.app, second.username, CHOSEN);
    expect(
      (await as(secondToken).post('/operators/update', { id: second.id, disabled: true })).body.msg,
    ).toBe('hint_operatorSelf');
    const disabled = await as(admin).post('/operators/update', { id: second.id, disabled: true });
    expect(disabled.status).toBe(200);
    expect((await as(secondToken).get('/auth/me')).status).toBe(401);
    const me = await as(admin).get('/auth/me');
    expect(me.body.data.disabled).toBe(false);
  });
});

describe('the audit log', () => {
  it('filters by a date range: at or after from, before to', async () => {
    const start = t.clock.now();
    t.clock.advance(3600_000);
    const desk = await newOperator(['content']);
    const created = (
      await as(admin).get('/audit', { action: 'operator.create', targetId: String(desk.id) })
    ).body.rows as Array<{ createTime: string }>;
    const at = created[0]!.createTime;
    const inside = await as(admin).get('/audit', {
      action: 'operator.create',
      from: at,
      to: new Date(Date.parse(at) + 1).toISOString(),
    });
    expect(inside.body.total).toBe(1);
    expect(inside.body.rows![0]).toMatchObject({ targetId: String(desk.id) });
    const before = await as(admin).get('/audit', {
      action: 'operator.create',
      from: start.toISOString(),
      to: at,
    });
    expect(
      (before.body.rows as Array<{ targetId: string }>).map((row) => row.targetId),
    ).not.toContain(String(desk.id));
    const offset = await as(admin).get('/audit', {
      action: 'operator.create',
      from: at.replace('Z', '+00:00'),
    });
    expect(offset.body.total).toBe(1);
    for (const bad of ['yesterday', '2026-13-40T00:00:00Z', '2026-11-27']) {
      const refused = await as(admin).get('/audit', { from: bad });
      expect(refused.status, bad).toBe(400);
      expect(refused.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['from'] });
    }
  });

  it('exports the filtered log as CSV: UTF-8 with a BOM, before and after as JSON, admins only', async () => {
    const desk = await newOperator(['support']);
    // A value with a comma, quotes, Chinese and a leading "=" (a spreadsheet formula).
    await as(admin).post('/operators/update', { id: desk.id, roles: ['support', 'content'] });
    const response = await exportCsv(admin, { targetType: 'operator', targetId: String(desk.id) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual([
      'id',
      'time',
      'operatorId',
      'operatorName',
      'action',
      'targetType',
      'targetId',
      'ip',
      'before',
      'after',
    ]);
    // Newest first: the update, then the creation (the sign-ins are of the session, not the operator).
    expect(rows.slice(1).map((row) => row[4])).toEqual(['operator.update', 'operator.create']);
    const update = rows[1]!;
    expect(update[3]).toBe('admin');
    expect(update[6]).toBe(String(desk.id));
    expect(JSON.parse(update[8]!)).toMatchObject({ roles: ['support'] });
    expect(JSON.parse(update[9]!)).toMatchObject({ roles: ['support', 'content'] });
    expect(rows[2]![8]).toBe('');

    // Every filter of the list applies, the date range too.
    const none = await exportCsv(admin, {
      targetType: 'operator',
      targetId: String(desk.id),
      to: '2000-01-01T00:00:00Z',
    });
    expect(parseCsv(none.rawPayload.subarray(3).toString('utf8'))).toHaveLength(1);

    // The export is itself audited.
    const exported = (await as(admin).get('/audit', { action: 'audit.export' })).body
      .rows as Array<{
      after: { rows: number; filter: Record<string, string> };
    }>;
    expect(exported[0]!.after).toMatchObject({ rows: 0, filter: { targetId: String(desk.id) } });
    expect(exported[1]!.after.rows).toBe(2);

    // Other roles: refused, as an envelope.
    await changeOwnPassword(t.app, desk.token, FIRST, CHOSEN);
    const support = await operatorSignIn(t.app, desk.username, CHOSEN);
    const refused = await exportCsv(support, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 403, msg: 'hint_forbidden' });
  });

  it('writes a cell a spreadsheet would run as a formula as text', async () => {
    // What operators and users type reaches the log (a reject reason, an address): the writer
    // alone is checked here, with such values.
    const { auditCsv } = await import('../src/modules/admin/audit-csv');
    const csv = auditCsv([
      {
        id: 1,
        operatorId: 1,
        operatorName: 'admin',
        action: 'recharge.reject',
        targetType: 'recharge',
        targetId: '7',
        before: { status: 0 },
        after: { status: 2, reason: '=HYPERLINK("x"), 金额不符' },
        ip: '-1',
        createTime: '2026-11-27T00:00:00.000Z',
      },
    ]);
    const [, row] = parseCsv(csv.slice(1));
    expect(row![7]).toBe("'-1");
    expect(JSON.parse(row![9]!)).toEqual({ status: 2, reason: '=HYPERLINK("x"), 金额不符' });
  });
});
