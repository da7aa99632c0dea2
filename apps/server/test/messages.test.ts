/**
 * Site messages and notifications (messagesApi, consoleMessagesApi): operators compose
 * announcements and personal messages in several languages (the reader's language, English when
 * not written), their content sanitised on write; a message scheduled for later is invisible (and
 * not counted) until its time; lists filter by type and kind; marking read is idempotent and the
 * unread count (notReadMessageCount) follows; another user's message is not reachable; every
 * change is audited; roles gate the console calls. Notifications are written once by their
 * events (a deposit approved by finance, an identity approved by support, a new sign-in, a
 * password change) and pushed on the user's /ws `notifications` topic.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TOTP } from 'otpauth';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import {
  call,
  createTestApp,
  GOOD_PASSWORD,
  registerUser,
  testConfig,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** The seeded USDT TRC20 deposit channel. */
const RECHARGE_USDT_TRC20 = 2;

let t: TestApp;
let dir: string;
const tokens = { admin: '', support: '', finance: '', content: '' };
let sequence = 0;
const requestId = () => `msg-${Date.now()}-${++sequence}`;

const console_ = (method: 'GET' | 'POST', url: string, token: string, input?: unknown) =>
  method === 'GET'
    ? adminApiCall(t.app, method, url, { token, query: input as Record<string, string> })
    : adminApiCall(t.app, method, url, { token, json: input });

const list = (token: string, query: Record<string, string> = {}, lang = 'en') =>
  call(t.app, 'GET', '/api/siteMessage/list', {
    token,
    query,
    headers: { 'Accept-Language': lang },
  });

const unread = async (token: string) =>
  (await call(t.app, 'GET', '/api/siteMessage/notReadMessageCount', { token })).body
    .notReadMessageCount as number;

const notifications = (token: string) =>
  call(t.app, 'GET', '/api/notification/list', { token, query: { pageSize: '50' } });

async function compose(fields: Record<string, unknown>, token = tokens.content) {
  const result = await console_('POST', '/messages/save', token, {
    typeId: 2,
    kind: 1,
    title: { en: 'Maintenance tonight', fr: 'Maintenance ce soir' },
    content: { en: '<p>From <b>22:00</b> UTC.</p>', fr: '<p>À partir de <b>22 h</b> UTC.</p>' },
    ...fields,
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as { id: number; readCount: number; published: boolean };
}

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-messages-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['support', 'finance', 'content'] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `msg-${role}`, password: 'steady orchard lamp', roles: [role] },
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, `msg-${role}`, 'steady orchard lamp');
  }
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('site messages', () => {
  it('lists the types in the reader language', async () => {
    const user = await registerUser(t.app);
    const en = await call(t.app, 'GET', '/api/siteMessageType/list', { token: user.token });
    expect(en.body.rows!.map((row: { name: string }) => row.name)).toEqual([
      'System',
      'Announcements',
      'Activities',
    ]);
    const zh = await call(t.app, 'GET', '/api/siteMessageType/list', {
      token: user.token,
      headers: { 'Accept-Language': 'zh-CN' },
    });
    expect(zh.body.rows![1].name).toBe('公告');
  });

  it('shows an announcement in the reader language, English otherwise, sanitised', async () => {
    const user = await registerUser(t.app);
    // The welcome message is the new user's first, personal and unread.
    expect(await unread(user.token)).toBe(1);
    const sent = await compose({
      content: {
        en: '<p onclick="steal()">Hello<script>alert(1)</script> <a href="javascript:alert(1)">x</a></p>',
        fr: '<p>Bonjour</p>',
      },
    });
    const en = await list(user.token, { kind: '1' });
    expect(en.body.total).toBe(1);
    const row = en.body.rows![0];
    expect(row).toMatchObject({
      id: sent.id,
      typeId: 2,
      typeName: 'Announcements',
      kind: 1,
      title: 'Maintenance tonight',
      readFlag: 0,
    });
    expect(row.content).toContain('Hello');
    expect(row.content).not.toMatch(/script|onclick|javascript/i);
    const fr = await list(user.token, { kind: '1' }, 'fr');
    expect(fr.body.rows![0]).toMatchObject({
      title: 'Maintenance ce soir',
      content: '<p>Bonjour</p>',
    });
    const de = await list(user.token, { kind: '1' }, 'de');
    expect(de.body.rows![0].title).toBe('Maintenance tonight');
    expect(await unread(user.token)).toBe(2);
  });

  it('filters by type and kind, and marks read once', async () => {
    const user = await registerUser(t.app);
    const personal = await compose({
      kind: 2,
      typeId: 1,
      userAccount: user.email,
      title: { en: 'Your account' },
      content: { en: '<p>Hello you</p>' },
    });
    await compose({ typeId: 3, title: { en: 'Spring activity' }, content: { en: '<p>Join</p>' } });
    const mine = await list(user.token, { kind: '2' });
    expect(mine.body.rows!.map((row: { id: number }) => row.id)).toContain(personal.id);
    expect(mine.body.rows!.every((row: { kind: number }) => row.kind === 2)).toBe(true);
    const activities = await list(user.token, { typeId: '3' });
    expect(activities.body.rows!.every((row: { typeId: number }) => row.typeId === 3)).toBe(true);
    expect(activities.body.rows![0].title).toBe('Spring activity');

    const before = await unread(user.token);
    for (let i = 0; i < 2; i++) {
      const marked = await call(t.app, 'POST', '/api/siteMessage/markReadFlag', {
        token: user.token,
        form: { id: String(personal.id) },
      });
      expect(marked.body).toMatchObject({ code: 200, data: { id: personal.id, readFlag: 1 } });
    }
    expect(await unread(user.token)).toBe(before - 1);
    const detail = await call(t.app, 'GET', '/api/siteMessage/detail', {
      token: user.token,
      query: { id: String(personal.id) },
    });
    expect(detail.body.data).toMatchObject({ title: 'Your account', readFlag: 1 });
    const counted = await console_('GET', '/messages', tokens.support, {
      kind: '2',
      userId: String(user.userId),
    });
    expect(counted.body.rows!.find((row: { id: number }) => row.id === personal.id)).toMatchObject({
      readCount: 1,
      audience: 1,
      userAccount: user.email,
    });
  });

  it("keeps another user's message out of reach", async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const personal = await compose({
      kind: 2,
      userAccount: String(owner.userId),
      title: { en: 'Private' },
      content: { en: '<p>Only for the owner</p>' },
    });
    const seen = await list(other.token, { kind: '2' });
    expect(seen.body.rows!.map((row: { id: number }) => row.id)).not.toContain(personal.id);
    const detail = await call(t.app, 'GET', '/api/siteMessage/detail', {
      token: other.token,
      query: { id: String(personal.id) },
    });
    expect(detail.status).toBe(404);
    const marked = await call(t.app, 'POST', '/api/siteMessage/markReadFlag', {
      token: other.token,
      form: { id: String(personal.id) },
    });
    expect(marked.status).toBe(404);
    expect(marked.body.msg).toBe('hint_notFound');
  });

  it('shows a scheduled message only from its time, and a withdrawn one no more', async () => {
    const user = await registerUser(t.app);
    const base = await unread(user.token);
    const at = new Date(t.clock.now().getTime() + 60 * 60 * 1000);
    const scheduled = await compose({ title: { en: 'Later' }, publishTime: at.toISOString() });
    expect(scheduled.published).toBe(false);
    const ids = async () =>
      (await list(user.token, { pageSize: '50' })).body.rows!.map((row: { id: number }) => row.id);
    expect(await ids()).not.toContain(scheduled.id);
    expect(await unread(user.token)).toBe(base);
    t.clock.advance(60 * 60 * 1000);
    expect(await ids()).toContain(scheduled.id);
    expect(await unread(user.token)).toBe(base + 1);

    const withdrawn = await console_('POST', '/messages/withdraw', tokens.content, {
      id: scheduled.id,
    });
    expect(withdrawn.body).toMatchObject({ code: 200, data: { withdrawn: true } });
    const again = await console_('POST', '/messages/withdraw', tokens.content, {
      id: scheduled.id,
    });
    expect(again.body.msg).toBe('hint_48');
    expect(await ids()).not.toContain(scheduled.id);
    expect(await unread(user.token)).toBe(base);
  });

  it('does not count announcements published before the user joined', async () => {
    const early = await compose({ title: { en: 'Old news' } });
    t.clock.advance(1000);
    const user = await registerUser(t.app);
    const rows = (await list(user.token, { kind: '1', pageSize: '50' })).body.rows!;
    expect(rows.find((row: { id: number }) => row.id === early.id)).toMatchObject({ readFlag: 1 });
    expect(await unread(user.token)).toBe(1);
  });

  it('refuses bad input with translated keys, and gates and audits the console', async () => {
    const noEnglish = await console_('POST', '/messages/save', tokens.content, {
      typeId: 2,
      kind: 1,
      title: { fr: 'Seulement' },
      content: { fr: '<p>x</p>' },
    });
    expect(noEnglish.status).toBe(400);
    expect(noEnglish.body.msg).toBe('hint_langEnglishRequired');
    const noUser = await console_('POST', '/messages/save', tokens.support, {
      typeId: 1,
      kind: 2,
      userAccount: 'nobody@example.com',
      title: { en: 'x' },
      content: { en: '<p>x</p>' },
    });
    expect(noUser.body).toMatchObject({ msg: 'hint_userNotFound', params: ['userAccount'] });
    const noType = await console_('POST', '/messages/save', tokens.content, {
      typeId: 999,
      kind: 1,
      title: { en: 'x' },
      content: { en: '<p>x</p>' },
    });
    expect(noType.body.msg).toBe('hint_messageTypeUnknown');
    const finance = await console_('POST', '/messages/save', tokens.finance, {
      typeId: 2,
      kind: 1,
      title: { en: 'x' },
      content: { en: '<p>x</p>' },
    });
    expect(finance.status).toBe(403);
    const supportType = await console_('POST', '/messages/types/save', tokens.support, {
      name: { en: 'Promotions' },
      sort: 4,
    });
    expect(supportType.status).toBe(403);

    const type = await console_('POST', '/messages/types/save', tokens.content, {
      name: { en: 'Promotions', zh: '促销' },
      sort: 4,
    });
    expect(type.body.data).toMatchObject({ name: { en: 'Promotions', zh: '促销' }, enabled: true });
    const sent = await compose({ typeId: type.body.data.id, title: { en: 'Sale' } });
    const audit = await console_('GET', '/audit', tokens.admin, {
      targetType: 'site_message',
      targetId: String(sent.id),
    });
    expect(audit.body.rows!.map((row: { action: string }) => row.action)).toEqual([
      'message.create',
    ]);
    const typeAudit = await console_('GET', '/audit', tokens.admin, {
      targetType: 'site_message_type',
      targetId: String(type.body.data.id),
    });
    expect(typeAudit.body.rows).toHaveLength(1);
  });
});

describe('notifications', () => {
  async function inMoney(token: string, amount: string) {
    const result = await call(t.app, 'POST', '/api/userRecharge/inMoney', {
      token,
      json: {
        channelId: RECHARGE_USDT_TRC20,
        amount,
        proofImage: `data:image/png;base64,${PNG_BASE64}`,
        requestId: requestId(),
      },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body.data.id as number;
  }

  it('writes a deposit approval once, pushes it on /ws, and marks read', async () => {
    const user = await registerUser(t.app);
    const approvedId = await inMoney(user.token, '250');
    const rejectedId = await inMoney(user.token, '80');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = new WebSocket(`${address.replace('http', 'ws')}/ws`);
    const messages: { op: string; topic?: string; data?: any }[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    try {
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ op: 'auth', token: user.token }));
      socket.send(JSON.stringify({ op: 'subscribe', topic: 'notifications' }));
      await expect.poll(() => messages.some((m) => m.op === 'subscribed')).toBe(true);
      const before = await unread(user.token);
      for (let i = 0; i < 2; i++) {
        const approved = await console_('POST', '/recharges/approve', tokens.finance, {
          id: approvedId,
        });
        expect(approved.status).toBe(200);
      }
      await console_('POST', '/recharges/reject', tokens.finance, {
        id: rejectedId,
        reason: 'No payment received',
      });
      await expect
        .poll(() => messages.filter((m) => m.op === 'data' && m.topic === 'notifications'))
        .toEqual([
          expect.objectContaining({
            data: expect.objectContaining({
              type: 'depositApproved',
              params: ['250.0000', 'USDT', expect.any(String)],
              link: { route: 'rechargeDetail', query: { id: String(approvedId) } },
            }),
          }),
          expect.objectContaining({
            data: expect.objectContaining({
              type: 'depositRejected',
              params: ['80.0000', 'USDT', expect.any(String), 'No payment received'],
            }),
          }),
        ]);
      const rows = (await notifications(user.token)).body.rows!;
      expect(rows.filter((row: { type: string }) => row.type === 'depositApproved')).toHaveLength(
        1,
      );
      expect(rows[0]).toMatchObject({ type: 'depositRejected', readFlag: 0 });
      expect(await unread(user.token)).toBe(before + 2);
      const count = await call(t.app, 'GET', '/api/notification/unreadCount', {
        token: user.token,
      });
      expect(count.body.data.count).toBeGreaterThanOrEqual(2);

      const one = await call(t.app, 'POST', '/api/notification/markRead', {
        token: user.token,
        form: { id: String(rows[0].id) },
      });
      expect(one.body.data).toEqual({ changed: 1 });
      const twice = await call(t.app, 'POST', '/api/notification/markRead', {
        token: user.token,
        form: { id: String(rows[0].id) },
      });
      expect(twice.body.data).toEqual({ changed: 0 });
      const all = await call(t.app, 'POST', '/api/notification/markRead', {
        token: user.token,
        form: {},
      });
      expect(all.status).toBe(200);
      expect(
        (await call(t.app, 'GET', '/api/notification/unreadCount', { token: user.token })).body.data
          .count,
      ).toBe(0);
      const other = await registerUser(t.app);
      const foreign = await call(t.app, 'POST', '/api/notification/markRead', {
        token: other.token,
        form: { id: String(rows[1].id) },
      });
      expect(foreign.status).toBe(404);
      expect(
        (await notifications(other.token)).body.rows!.map((row: { type: string }) => row.type),
      ).not.toContain('depositApproved');
    } finally {
      socket.close();
    }
  });

  it('tells of an identity approval and a new sign-in, and a password change', async () => {
    const user = await registerUser(t.app);
    const applied = await call(t.app, 'POST', '/api/userAuthRecord/userAuthApply', {
      token: user.token,
      json: {
        authLevel: 0,
        realName: 'Ada Lovelace',
        idType: 0,
        idNumber: '11010519491231002X',
        requestId: requestId(),
      },
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    for (let i = 0; i < 2; i++)
      await console_('POST', '/identity/approve', tokens.support, { id: applied.body.data.id });
    const signedIn = await call(t.app, 'POST', '/api/userInfo/login', {
      json: { userAccount: user.email, userPwd: GOOD_PASSWORD },
      headers: {
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      },
    });
    expect(signedIn.status).toBe(200);
    const changed = await call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
      token: user.token,
      form: { oldPwd: GOOD_PASSWORD, newPwd: 'NewSecret456' },
    });
    expect(changed.status).toBe(200);
    const again = await call(t.app, 'POST', '/api/userInfo/login', {
      json: { userAccount: user.email, userPwd: 'NewSecret456' },
    });
    const rows = (await notifications(again.body.data.token)).body.rows! as {
      type: string;
      params: string[];
      link: unknown;
    }[];
    expect(rows.map((row) => row.type)).toEqual([
      'newSignIn',
      'passwordChanged',
      'newSignIn',
      'identityApproved',
    ]);
    expect(rows[2]!.params[0]).toMatch(/Chrome 131/);
    expect(rows[3]).toMatchObject({ params: [], link: { route: 'authentication', query: {} } });
  });

  it('tells of a withdrawal paid and one rejected with its reason, and an API key created', async () => {
    const user = await registerUser(t.app);
    const depositId = await inMoney(user.token, '300');
    await console_('POST', '/recharges/approve', tokens.finance, { id: depositId });
    const withPwd = await call(t.app, 'POST', '/api/userInfo/updateUserWithPwd', {
      token: user.token,
      form: { newPwd: '246810', userPwd: GOOD_PASSWORD },
    });
    expect(withPwd.status).toBe(200);
    const now = t.clock.now();
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO user_wallet_address (user_id, currency_id, network, address, created_at, updated_at)
       VALUES ($1, 3, 'TRC20', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', $2, $2) RETURNING id`,
      [user.userId, now],
    );
    const withdraw = async (amount: string) => {
      const result = await call(t.app, 'POST', '/api/userWithdraw/outMoney', {
        token: user.token,
        json: {
          channelId: 2,
          amount,
          addressId: rows[0]!.id,
          withPwd: '246810',
          requestId: requestId(),
        },
      });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      return result.body.data.id as number;
    };
    const paid = await withdraw('40');
    const rejected = await withdraw('25');
    expect((await console_('POST', '/withdrawals/pay', tokens.finance, { id: paid })).status).toBe(
      200,
    );
    expect(
      (
        await console_('POST', '/withdrawals/reject', tokens.finance, {
          id: rejected,
          reason: 'Address on a sanctions list',
        })
      ).status,
    ).toBe(200);
    const key = await call(t.app, 'POST', '/api/apiKey/create', {
      token: user.token,
      form: { label: 'my bot', permissions: 'read' },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    const listed = (await notifications(user.token)).body.rows! as {
      type: string;
      params: string[];
    }[];
    expect(listed.slice(0, 3)).toMatchObject([
      { type: 'apiKeyCreated', params: ['my bot'] },
      {
        type: 'withdrawRejected',
        params: ['25.0000', 'USDT', expect.any(String), 'Address on a sanctions list'],
      },
      { type: 'withdrawPaid', params: ['40.0000', 'USDT', expect.any(String)] },
    ]);
  });

  it('tells of two-factor turned on and off', async () => {
    const user = await registerUser(t.app);
    const setup = await call(t.app, 'POST', '/api/userSecurity/twoFactor/setup', {
      token: user.token,
      form: { userPwd: GOOD_PASSWORD },
    });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const code = (steps: number) =>
      new TOTP({
        secret: setup.body.data.secret,
        digits: 6,
        period: 30,
        algorithm: 'SHA1',
      }).generate({ timestamp: t.clock.now().getTime() + steps * 30_000 });
    const on = await call(t.app, 'POST', '/api/userSecurity/twoFactor/enable', {
      token: user.token,
      form: { code: code(0) },
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    t.clock.advance(30_000);
    const off = await call(t.app, 'POST', '/api/userSecurity/twoFactor/disable', {
      token: user.token,
      form: { code: code(0) },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const types = (await notifications(user.token)).body.rows!.map(
      (row: { type: string }) => row.type,
    );
    expect(types).toEqual(['twoFactorChanged', 'twoFactorChanged']);
  });
});
