/**
 * A WebSocket signed in with a session stops receiving anything private the moment that session
 * ends: signed out, every session ended by a password change, the account disabled by an
 * operator, or expired. The socket is told why (`error` with a hint key, `signedOut`, the topics
 * it lost) and stays open for public topics. With several instances the end reaches sockets on
 * every instance through Redis.
 *
 * Private data is produced the real way: an exchange made through another live session of the
 * same user, which tells that user's `balances` topic. A socket of a live session receives it,
 * which shows the socket of the ended one would have, had it not been signed out.
 */
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { div } from '@bourse/shared';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import type { RateSource } from '../src/modules/assets/rates';
import {
  call,
  createTestApp,
  createTestDatabase,
  deposit,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';
import { REDIS_URL, redisAvailable } from './support/redis';

const USDT = 3;
const BTC = 4;
const PRICES: Record<number, string> = { [USDT]: '1', [BTC]: '50000' };
const rates: RateSource = {
  rate: (from, to) => (PRICES[from] && PRICES[to] ? div(PRICES[from], PRICES[to], 18) : null),
};

interface Message {
  op: string;
  topic?: string;
  msg?: string;
  signedOut?: boolean;
  topics?: string[];
  data?: unknown;
}

/** A socket that keeps every message it gets. */
class Socket {
  readonly messages: Message[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => this.messages.push(JSON.parse(String(raw)) as Message));
  }

  static async open(base: string, token?: string, topics: string[] = []): Promise<Socket> {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/ws`);
    const socket = new Socket(ws);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    if (token) expect((await socket.request({ op: 'auth', token })).op).toBe('authed');
    for (const topic of topics)
      expect(await socket.request({ op: 'subscribe', topic })).toMatchObject({
        op: 'subscribed',
        topic,
      });
    return socket;
  }

  /** Sends a message and waits for its reply (or an error). */
  async request(message: Record<string, unknown>): Promise<Message> {
    const from = this.messages.length;
    this.ws.send(JSON.stringify(message));
    let reply: Message | undefined;
    await expect
      .poll(() => (reply = this.messages.slice(from).find((m) => m.op !== 'ping')))
      .toBeDefined();
    return reply!;
  }

  data(topic: string): Message[] {
    return this.messages.filter((m) => m.op === 'data' && m.topic === topic);
  }

  signOuts(): Message[] {
    return this.messages.filter((m) => m.op === 'error' && m.signedOut === true);
  }

  close(): void {
    this.ws.close();
  }
}

async function login(app: TestApp['app'], email: string, password = GOOD_PASSWORD) {
  const result = await call(app, 'POST', '/api/userInfo/login', {
    json: { userAccount: email, userPwd: password },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data.token as string;
}

let exchanges = 0;
/** An exchange through `token`'s session: the user's `balances` topic hears of both currencies. */
async function exchange(app: TestApp['app'], token: string): Promise<void> {
  const quote = await call(app, 'GET', '/api/balanceConvertRecord/quote', {
    token,
    query: { fromCurrencyId: String(USDT), toCurrencyId: String(BTC), amount: '10' },
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const done = await call(app, 'POST', '/api/balanceConvertRecord/balanceConvert', {
    token,
    json: { quoteId: quote.body.data.quoteId, requestId: `ws-sessions-${++exchanges}` },
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
}

/** A user with USDT to exchange, signed in twice: two sessions. */
async function twoSessions(app: TestApp['app'], db: TestApp['db']) {
  const user = await registerUser(app);
  await deposit(db, user.userId, '1000');
  return { ...user, first: user.token, second: await login(app, user.email) };
}

const PRIVATE = ['balances', 'orders'];

function expectSignedOut(socket: Socket, msg: string): void {
  expect(socket.signOuts()).toEqual([
    expect.objectContaining({ op: 'error', msg, signedOut: true, topics: PRIVATE }),
  ]);
}

describe(`WebSocket sessions on one instance (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: TestApp;
  let base: string;
  const sockets: Socket[] = [];
  const open = async (token?: string, topics: string[] = []) => {
    const socket = await Socket.open(base, token, topics);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    t = await createTestApp({
      rates,
      env: { SESSION_TTL_HOURS: '1', WS_SESSION_CHECK_MS: '1000' },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t?.close();
  });

  it('signs out the sockets of a session that signs out, and only those', async () => {
    const user = await twoSessions(t.app, t.db);
    const ended = await open(user.first, [...PRIVATE, 'tickers:2']);
    const live = await open(user.second, PRIVATE);
    const out = await call(t.app, 'POST', '/api/userInfo/loginOut', { token: user.first });
    expect(out.status).toBe(200);
    await expect.poll(() => ended.signOuts().length).toBe(1);
    expectSignedOut(ended, 'hint_sessionExpired');

    await exchange(t.app, user.second);
    await expect.poll(() => live.data('balances').length).toBe(2);
    expect(ended.data('balances')).toEqual([]);
    expect(live.signOuts()).toEqual([]);
    // The socket stays open, keeps its public topic, and cannot take a private one back.
    expect(await ended.request({ op: 'subscribe', topic: 'balances' })).toMatchObject({
      op: 'error',
      msg: 'hint_unauthorized',
    });
    expect(await ended.request({ op: 'subscribe', topic: 'tickers:2' })).toMatchObject({
      op: 'subscribed',
    });
    expect(await ended.request({ op: 'auth', token: user.first })).toMatchObject({
      op: 'error',
      msg: 'hint_unauthorized',
    });
  });

  it('signs out every socket of the user when the password changes', async () => {
    const user = await twoSessions(t.app, t.db);
    const first = await open(user.first, PRIVATE);
    const second = await open(user.second, PRIVATE);
    const changed = await call(t.app, 'POST', '/api/userInfo/updateUserPwd', {
      token: user.second,
      json: { oldPwd: GOOD_PASSWORD, newPwd: 'Another42pass' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expect.poll(() => first.signOuts().length + second.signOuts().length).toBe(2);
    expectSignedOut(first, 'hint_sessionExpired');
    expectSignedOut(second, 'hint_sessionExpired');

    const third = await login(t.app, user.email, 'Another42pass');
    const fresh = await open(third, PRIVATE);
    await exchange(t.app, third);
    await expect.poll(() => fresh.data('balances').length).toBe(2);
    expect(first.data('balances')).toEqual([]);
    expect(second.data('balances')).toEqual([]);
  });

  it('signs out, at the next check, the sockets of a user disabled outside the API', async () => {
    const user = await twoSessions(t.app, t.db);
    const socket = await open(user.first, PRIVATE);
    const other = await twoSessions(t.app, t.db);
    const bystander = await open(other.first, PRIVATE);
    await t.db.query('UPDATE app_user SET status = 1 WHERE id = $1', [user.userId]);
    // Found by the periodic check (WS_SESSION_CHECK_MS, 1 s here).
    await expect.poll(() => socket.signOuts().length, { timeout: 5000 }).toBe(1);
    expectSignedOut(socket, 'hint_accountDisabled');
    await exchange(t.app, other.second);
    await expect.poll(() => bystander.data('balances').length).toBe(2);
    expect(bystander.signOuts()).toEqual([]);
  });

  it('signs out the sockets of a session that expires', async () => {
    const user = await twoSessions(t.app, t.db);
    const socket = await open(user.first, PRIVATE);
    // Two hours later (sessions last one hour here): the next check finds it expired.
    t.clock.advance(2 * 3_600_000);
    await expect.poll(() => socket.signOuts().length, { timeout: 5000 }).toBe(1);
    expectSignedOut(socket, 'hint_sessionExpired');
  });
});

// ------------------------------------------------------------------- two instances, one Redis

const redis = await redisAvailable('two-instance tests');

describe.runIf(redis)('WebSocket sessions on two instances', () => {
  let database: TestDatabase;
  const apps: TestApp[] = [];
  const bases: string[] = [];
  const sockets: Socket[] = [];
  const open = async (base: string, token: string) => {
    const socket = await Socket.open(base, token, PRIVATE);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const prefix = `bourse-test-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 2; i++) {
      const t = await createTestApp({
        database,
        rates,
        // The periodic check is far off: what signs sockets out here is the announcement.
        env: { REDIS_URL, REDIS_PREFIX: prefix, WS_SESSION_CHECK_MS: '600000' },
      });
      apps.push(t);
      bases.push(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    }
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const t of apps) await t.close();
    await database?.dispose();
  });

  it('signs out, on the other instance, the socket of a session ended here', async () => {
    const [one, two] = apps as [TestApp, TestApp];
    const user = await twoSessions(one.app, one.db);
    const ended = await open(bases[1]!, user.first);
    const live = await open(bases[1]!, user.second);
    const out = await call(one.app, 'POST', '/api/userInfo/loginOut', { token: user.first });
    expect(out.status).toBe(200);
    await expect.poll(() => ended.signOuts().length).toBe(1);
    expectSignedOut(ended, 'hint_sessionExpired');
    await exchange(two.app, user.second);
    await expect.poll(() => live.data('balances').length).toBe(2);
    expect(ended.data('balances')).toEqual([]);
  });

  it('signs out the sockets on both instances when an operator disables the user on one', async () => {
    const [one, two] = apps as [TestApp, TestApp];
    await ensureFirstAdmin(one.db, one.clock, 'admin', 'ws sessions admin password');
    const admin = await operatorReady(one.app, 'admin', 'ws sessions admin password');
    const created = await adminApiCall(one.app, 'POST', '/operators/create', {
      token: admin,
      json: { username: 'helpdesk', password: 'Helpdesk desk 2048', roles: ['support'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const support = await operatorReady(two.app, 'helpdesk', 'Helpdesk desk 2048');
    const user = await twoSessions(one.app, one.db);
    const here = await open(bases[0]!, user.first);
    const there = await open(bases[1]!, user.second);

    // A finance operator may not; support may, through either instance.
    const finance = await adminApiCall(one.app, 'POST', '/operators/create', {
      token: admin,
      json: { username: 'cashier', password: 'Cashier desk 4096', roles: ['finance'] },
    });
    expect(finance.status).toBe(200);
    const cashier = await operatorReady(one.app, 'cashier', 'Cashier desk 4096');
    const refused = await adminApiCall(one.app, 'POST', '/users/status', {
      token: cashier,
      json: { id: user.userId, disabled: 1 },
    });
    expect(refused.status).toBe(403);

    const disabled = await adminApiCall(two.app, 'POST', '/users/status', {
      token: support,
      json: { id: user.userId, disabled: 1 },
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(disabled.body.data).toEqual({ changed: true, status: 1 });
    await expect.poll(() => here.signOuts().length + there.signOuts().length).toBe(2);
    expectSignedOut(here, 'hint_accountDisabled');
    expectSignedOut(there, 'hint_accountDisabled');
    // Every session ended, and signing in is refused until the account is enabled again.
    for (const token of [user.first, user.second])
      expect((await call(one.app, 'GET', '/api/userInfo/getUserInfo', { token })).status).toBe(401);
    const signIn = await call(one.app, 'POST', '/api/userInfo/login', {
      json: { userAccount: user.email, userPwd: GOOD_PASSWORD },
    });
    expect(signIn.body.msg).toBe('hint_accountDisabled');
    const again = await adminApiCall(one.app, 'POST', '/users/status', {
      token: admin,
      json: { id: user.userId, disabled: 1 },
    });
    expect(again.body).toMatchObject({ msg: 'hint_48', data: { changed: false, status: 1 } });
    const enabled = await adminApiCall(one.app, 'POST', '/users/status', {
      token: admin,
      json: { id: user.userId, disabled: 0 },
    });
    expect(enabled.body.data).toEqual({ changed: true, status: 0 });
    await login(one.app, user.email);
    const audit = await adminApiCall(one.app, 'GET', '/audit', {
      token: admin,
      query: { targetType: 'user', targetId: String(user.userId) },
    });
    expect(audit.body.rows).toEqual([
      expect.objectContaining({
        action: 'user.enable',
        before: { status: 1 },
        after: { status: 0, sessionsEnded: 0 },
      }),
      expect.objectContaining({
        action: 'user.disable',
        operatorName: 'helpdesk',
        before: { status: 0 },
        after: { status: 1, sessionsEnded: 2 },
      }),
    ]);
    const unknown = await adminApiCall(one.app, 'POST', '/users/status', {
      token: admin,
      json: { id: 99_999_999, disabled: 1 },
    });
    expect(unknown.status).toBe(404);
  });

  it('signs out the sockets on both instances when the password changes on one', async () => {
    const [one, two] = apps as [TestApp, TestApp];
    const user = await twoSessions(one.app, one.db);
    const here = await open(bases[0]!, user.first);
    const there = await open(bases[1]!, user.second);
    const changed = await call(two.app, 'POST', '/api/userInfo/updateUserPwd', {
      token: user.second,
      json: { oldPwd: GOOD_PASSWORD, newPwd: 'Another42pass' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expect.poll(() => here.signOuts().length + there.signOuts().length).toBe(2);
    expectSignedOut(here, 'hint_sessionExpired');
    expectSignedOut(there, 'hint_sessionExpired');
  });
});
