/**
 * API keys (issue 20) through the HTTP calls, on PGlite and PostgreSQL: creating one (with and
 * without two-factor, the secret answered once and kept sealed, a notice emailed with the
 * anti-phishing code), listing without secrets, the limit of 30, changing and revoking; then calls
 * signed with a key as docs/api.md says (the signature is computed here with node:crypto, not with
 * the server's code): a balance read, a coin-to-coin order placed and cancelled with a trade key
 * and refused to a read key, and every refusal (wrong signature, timestamps outside the window on
 * either side, a signature used again, an address off the allow-list, a revoked or expired key, a
 * route not open to keys); a demo key acting on the demo book only; the usage log, and its pruning
 * after 30 days; the worked example of docs/api.md, byte for byte.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY } from '@bourse/shared';
import { verifyLedger } from '../src/ledger/verify';
import { ManualClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import type { CodeSender, NoticeMessage } from '../src/modules/account/code-sender';
import { hmacHex, signedPrefix } from '../src/modules/api-keys';
import {
  call,
  createTestApp,
  deposit,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  type CallResult,
  type TestApp,
} from './helpers';
import { ScriptedFeed } from './support/scripted-feed';

const KEY = 'c3'.repeat(32);
const NOW = Date.parse('2026-11-18T15:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const STEP_MS = 30_000;
const USDT = 3;
const BTC = 4;

let t: TestApp;
let feed: ScriptedFeed;
const notices: NoticeMessage[] = [];
/** Notices go here instead of a mail server. */
const codeSender: CodeSender = {
  delivers: () => false,
  send: async () => undefined,
  notify: async (message) => {
    notices.push(message);
  },
};

beforeAll(async () => {
  feed = new ScriptedFeed();
  t = await createTestApp({
    clock: new ManualClock(new Date(NOW)),
    env: { MARKET_FEED: 'simulated', MARKET_SEED: 'api-keys', TWO_FACTOR_KEY: KEY },
    catalogue: [DEFAULT_CATALOGUE.find((product) => product.code === 'BTCUSDT')!],
    history: { days: 2, minuteDays: 1 },
    feed: () => feed,
    codeSender,
  });
  feed.tick('BTCUSDT', '100000.00', NOW);
});
afterEach(async () => {
  await t.app.services.triggers!.idle();
});
afterAll(async () => {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await t.close();
});

// ---------------------------------------------------------------- helpers

type User = Awaited<ReturnType<typeof registerUser>>;

interface CreatedKey {
  id: number;
  apiKey: string;
  secret: string;
  permissions: string[];
  ipList: string[];
  accountType: 0 | 2;
  status: string;
  [field: string]: unknown;
}

const post = (url: string, token: string, form: Record<string, string>) =>
  call(t.app, 'POST', url, { token, form });

async function createKey(
  user: { token: string },
  form: Record<string, string> = {},
): Promise<CreatedKey> {
  const created = await post('/api/apiKey/create', user.token, {
    label: 'bot',
    permissions: 'read,trade',
    ...form,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data as CreatedKey;
}

let sequence = 0;
const requestId = () => `api-keys-${++sequence}-${Date.now()}`;

interface SignedOptions {
  query?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  /** The timestamp sent (default: the app's clock now). */
  timestamp?: number;
  recvWindow?: string;
  /** Overrides the signature sent. */
  signature?: string;
  /** The client's address (default 127.0.0.1). */
  ip?: string;
  /** The app called (default the file's). */
  app?: TestApp;
}

/**
 * A call signed with a key as docs/api.md says (hex HMAC-SHA256 with the secret over timestamp,
 * method, path with its raw query, and the raw body), ready to send, as many times as wanted.
 */
function prepare(
  key: { apiKey: string; secret: string },
  method: 'GET' | 'POST',
  pathname: string,
  options: SignedOptions = {},
): { signature: string; send: () => Promise<CallResult> } {
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  const url = `${pathname}${query}`;
  let body = '';
  const headers: Record<string, string> = {};
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  // The test clock stands still: each call moves it a millisecond on, so that two calls alike
  // are two signatures (a real client's clock does that for it).
  const app = options.app ?? t;
  if (options.timestamp === undefined) app.clock.advance(1);
  const timestamp = String(options.timestamp ?? app.clock.now().getTime());
  const signature =
    options.signature ??
    createHmac('sha256', key.secret)
      .update(timestamp + method + url + body)
      .digest('hex');
  headers['X-BOURSE-APIKEY'] = key.apiKey;
  headers['X-BOURSE-TIMESTAMP'] = timestamp;
  headers['X-BOURSE-SIGNATURE'] = signature;
  if (options.recvWindow !== undefined) headers['X-BOURSE-RECV-WINDOW'] = options.recvWindow;
  const send = async (): Promise<CallResult> => {
    const response = await app.app.inject({
      method,
      url,
      headers,
      payload: body || undefined,
      remoteAddress: options.ip ?? '127.0.0.1',
    });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };
  return { signature, send };
}

/** Sends a signed call once; its answer, with the signature it carried. */
async function signed(
  key: { apiKey: string; secret: string },
  method: 'GET' | 'POST',
  pathname: string,
  options: SignedOptions = {},
): Promise<CallResult & { signature: string; send: () => Promise<CallResult> }> {
  const request = prepare(key, method, pathname, options);
  return { ...(await request.send()), ...request };
}

/** The code an authenticator app shows for `secret` at the app's clock. */
const totpCode = (secret: string) =>
  new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: t.clock.now().getTime(),
  });

async function userWithTwoFactor() {
  const user = await registerUser(t.app);
  const setup = await post('/api/userSecurity/twoFactor/setup', user.token, {
    userPwd: GOOD_PASSWORD,
  });
  const secret = setup.body.data.secret as string;
  const enabled = await post('/api/userSecurity/twoFactor/enable', user.token, {
    code: totpCode(secret),
  });
  expect(enabled.status).toBe(200);
  t.clock.advance(STEP_MS);
  return { ...user, secret };
}

async function usage(user: { token: string }, query: Record<string, string> = {}) {
  const result = await call(t.app, 'GET', '/api/apiKey/usage', {
    token: user.token,
    query: { pageSize: '100', ...query },
  });
  expect(result.status).toBe(200);
  return result.body.rows as {
    keyId: number;
    method: string;
    path: string;
    ip: string;
    status: number;
    msg: string;
    time: string;
  }[];
}

// ---------------------------------------------------------------- managing keys

describe(`API keys (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('creates a key whose secret is answered once and kept sealed, and emails a notice', async () => {
    const user = await registerUser(t.app);
    await post('/api/userSecurity/setAntiPhishing', user.token, {
      code: 'Blue Heron 7',
      userPwd: GOOD_PASSWORD,
    });
    notices.length = 0;
    const key = await createKey(user, {
      label: 'grid bot',
      permissions: 'read',
      ipList: '203.0.113.7, 10.0.0.0/8\n2001:db8::/32',
    });
    expect(key.apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(key.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(key).toMatchObject({
      label: 'grid bot',
      permissions: ['read'],
      ipList: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'],
      accountType: 0,
      status: 'active',
      expireTime: null,
      lastUsedTime: null,
      revokeTime: null,
    });

    const { rows } = await t.db.query<{ secret_sealed: string; api_key: string }>(
      'SELECT secret_sealed, api_key FROM api_key WHERE id = $1',
      [key.id],
    );
    expect(rows[0]!.api_key).toBe(key.apiKey);
    expect(rows[0]!.secret_sealed).toMatch(/^v1\./);
    expect(rows[0]!.secret_sealed).not.toContain(key.secret);
    // Nowhere else in the database either.
    const dump = await t.db.query<{ text: string }>(
      `SELECT row_to_json(k)::text AS text FROM api_key k`,
    );
    expect(dump.rows.some((row) => row.text.includes(key.secret))).toBe(false);

    expect(notices).toEqual([
      expect.objectContaining({
        target: user.email,
        subjectKey: 'email_apiKeyCreatedSubject',
        bodyKey: 'email_apiKeyCreatedBody',
        antiPhishingCode: 'Blue Heron 7',
        params: ['grid bot', 'read', key.apiKey.slice(0, 8)],
      }),
    ]);
    // The secret is in no log line.
    expect(JSON.stringify(t.logs)).not.toContain(key.secret);
  });

  it('lists keys without any secret, newest first', async () => {
    const user = await registerUser(t.app);
    const first = await createKey(user, { label: 'first' });
    const second = await createKey(user, { label: 'second', permissions: 'trade' });
    const list = await call(t.app, 'GET', '/api/apiKey/list', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.rows!.map((row) => row.label)).toEqual(['second', 'first']);
    expect(list.body.rows![0]).not.toHaveProperty('secret');
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(first.secret);
    expect(text).not.toContain(second.secret);
    expect(list.body.rows![1]).toMatchObject({
      apiKey: first.apiKey,
      permissions: ['read', 'trade'],
    });
    // Trade includes read: a key asked for trade alone reads too.
    expect(list.body.rows![0]).toMatchObject({
      apiKey: second.apiKey,
      permissions: ['read', 'trade'],
    });
  });

  it('refuses bad input with the field named', async () => {
    const user = await registerUser(t.app);
    const create = (form: Record<string, string>) =>
      post('/api/apiKey/create', user.token, { label: 'x', ...form });
    expect((await create({ permissions: 'withdraw' })).body).toMatchObject({
      msg: 'hint_apiKeyPermissions',
      params: ['permissions'],
    });
    expect((await create({ ipList: '1.2.3.4, not-an-address' })).body).toMatchObject({
      msg: 'hint_ipListInvalid',
      params: ['ipList'],
    });
    const many = Array.from({ length: 31 }, (_, i) => `192.0.2.${i + 1}`).join(',');
    expect((await create({ ipList: many })).body.msg).toBe('hint_ipListInvalid');
    expect((await create({ expireDays: '366' })).body).toMatchObject({
      msg: 'hint_paramOutOfRange',
      params: ['expireDays'],
    });
    expect((await post('/api/apiKey/create', user.token, {})).body).toMatchObject({
      msg: 'hint_paramRequired',
      params: ['label'],
    });
    // JSON lists work as the form's text does.
    const json = await call(t.app, 'POST', '/api/apiKey/create', {
      token: user.token,
      json: { label: 'json', permissions: ['trade', 'read'], ipList: ['::1'] },
    });
    expect(json.body.data).toMatchObject({ permissions: ['read', 'trade'], ipList: ['::1'] });
  });

  it('asks a two-factor code to create and change a key once two-factor is on', async () => {
    const user = await userWithTwoFactor();
    const missing = await post('/api/apiKey/create', user.token, { label: 'bot' });
    expect(missing.body).toMatchObject({
      msg: 'hint_twoFactorRequired',
      params: ['twoFactorCode'],
    });
    const right = totpCode(user.secret);
    const wrong = await post('/api/apiKey/create', user.token, {
      label: 'bot',
      twoFactorCode: right === '000000' ? '111111' : '000000',
    });
    expect(wrong.body).toMatchObject({ msg: 'hint_twoFactorWrong', params: ['twoFactorCode'] });
    const created = await post('/api/apiKey/create', user.token, {
      label: 'bot',
      twoFactorCode: right,
    });
    expect(created.status).toBe(200);
    t.clock.advance(STEP_MS);

    const id = String(created.body.data.id);
    const change = await post('/api/apiKey/update', user.token, { id, label: 'renamed' });
    expect(change.body.msg).toBe('hint_twoFactorRequired');
    const changed = await post('/api/apiKey/update', user.token, {
      id,
      label: 'renamed',
      twoFactorCode: totpCode(user.secret),
    });
    expect(changed.body.data).toMatchObject({ label: 'renamed' });
    t.clock.advance(STEP_MS);
    // Revoking takes nothing but the session: whoever holds the account can always stop a key.
    expect((await post('/api/apiKey/revoke', user.token, { id })).status).toBe(200);
  });

  it('allows 30 live keys per user; a revoked one makes room', async () => {
    const user = await registerUser(t.app);
    const keys: CreatedKey[] = [];
    for (let i = 0; i < API_KEY.maxLiveKeys; i++)
      keys.push(await createKey(user, { label: `k${i}` }));
    const refused = await post('/api/apiKey/create', user.token, { label: 'one more' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ msg: 'hint_apiKeyLimit', params: [30] });
    await post('/api/apiKey/revoke', user.token, { id: String(keys[0]!.id) });
    expect((await post('/api/apiKey/create', user.token, { label: 'one more' })).status).toBe(200);
  });

  it("changes a key's label and allow-list, never another user's or a revoked one", async () => {
    const user = await registerUser(t.app);
    const other = await registerUser(t.app);
    const key = await createKey(user, { ipList: '192.0.2.1' });
    notices.length = 0;
    const renamed = await post('/api/apiKey/update', user.token, {
      id: String(key.id),
      label: 'renamed',
    });
    // The allow-list is kept when not sent.
    expect(renamed.body.data).toMatchObject({ label: 'renamed', ipList: ['192.0.2.1'] });
    expect(notices.map((notice) => notice.subjectKey)).toEqual(['email_apiKeyChangedSubject']);
    // An empty list: any address.
    const cleared = await post('/api/apiKey/update', user.token, {
      id: String(key.id),
      ipList: '',
    });
    expect(cleared.body.data).toMatchObject({ label: 'renamed', ipList: [] });

    const nothing = await post('/api/apiKey/update', user.token, { id: String(key.id) });
    expect(nothing.body).toMatchObject({ msg: 'hint_paramRequired', params: ['label'] });
    const notTheirs = await post('/api/apiKey/update', other.token, {
      id: String(key.id),
      label: 'mine',
    });
    expect(notTheirs.status).toBe(404);
    expect((await post('/api/apiKey/revoke', other.token, { id: String(key.id) })).status).toBe(
      404,
    );

    notices.length = 0;
    const revoked = await post('/api/apiKey/revoke', user.token, { id: String(key.id) });
    expect(revoked.body).toMatchObject({ msg: 'hint_success', data: { status: 'revoked' } });
    expect(notices.map((notice) => notice.subjectKey)).toEqual(['email_apiKeyRevokedSubject']);
    const again = await post('/api/apiKey/revoke', user.token, { id: String(key.id) });
    expect(again.body).toMatchObject({ msg: 'hint_48', data: { status: 'revoked' } });
    const change = await post('/api/apiKey/update', user.token, {
      id: String(key.id),
      label: 'back',
    });
    expect(change.body.msg).toBe('hint_apiKeyRevoked');
  });
});

// ---------------------------------------------------------------- calls signed with a key

describe('calls signed with a key', () => {
  let trader: User;
  let tradeKey: CreatedKey;
  let readKey: CreatedKey;

  beforeAll(async () => {
    trader = await registerUser(t.app);
    await deposit(t.db, trader.userId, '10000');
    tradeKey = await createKey(trader, { label: 'trader', permissions: 'read,trade' });
    readKey = await createKey(trader, { label: 'reader', permissions: 'read' });
  });

  it("reads the user's balance and info with a read key, the session's book", async () => {
    const balance = await signed(readKey, 'GET', '/api/userInfo/userBalance', {
      query: { currencyId: String(USDT) },
    });
    expect(balance.status, JSON.stringify(balance.body)).toBe(200);
    expect(balance.body.data).toMatchObject({ currencyId: USDT, amount: '10000.0000' });
    const info = await signed(readKey, 'GET', '/api/userInfo/getUserInfo');
    expect(info.body.data).toMatchObject({ id: trader.userId, accountType: 0 });
    // Market data too (a public route open to keys).
    const candles = await signed(readKey, 'GET', '/api/kline/list', {
      query: { productType: '2', productCode: 'BTCUSDT', interval: '1m' },
    });
    expect(candles.status).toBe(200);
  });

  it('places and cancels a coin-to-coin order with a trade key; a read key may not', async () => {
    const order = { productCode: 'BTCUSDT', orderType: 2, price: '90000', quantity: '0.0100' };
    const refused = await signed(readKey, 'POST', '/api/bibiTradeOrder/buy', {
      json: { ...order, requestId: requestId() },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ msg: 'hint_apiKeyPermission', params: ['trade'] });

    const placed = await signed(tradeKey, 'POST', '/api/bibiTradeOrder/buy', {
      json: { ...order, requestId: requestId() },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const id = placed.body.data.id as number;
    // The order is the user's: their session sees it, frozen money and all.
    const list = await call(t.app, 'GET', '/api/bibiTradeOrder/list', { token: trader.token });
    expect(list.body.rows!.map((row) => row.id)).toContain(id);
    const frozen = await call(t.app, 'GET', '/api/userInfo/userBalance', {
      token: trader.token,
      query: { currencyId: String(USDT) },
    });
    expect(frozen.body.data.frozenAmount).not.toBe('0.0000');

    // A form body is signed as sent, too.
    const cancelled = await signed(tradeKey, 'POST', '/api/bibiTradeOrder/cancel', {
      form: { id: String(id) },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const after = await signed(readKey, 'GET', '/api/userInfo/userBalance', {
      query: { currencyId: String(USDT) },
    });
    expect(after.body.data).toMatchObject({ amount: '10000.0000', frozenAmount: '0.0000' });
  });

  it('refuses a wrong signature, and a body changed after signing', async () => {
    const wrong = await signed(readKey, 'GET', '/api/userInfo/getUserInfo', {
      signature: 'ab'.repeat(32),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.msg).toBe('hint_apiKeySignature');
    // Signed with the other key's secret.
    const otherSecret = await signed(
      { apiKey: readKey.apiKey, secret: tradeKey.secret },
      'GET',
      '/api/userInfo/getUserInfo',
    );
    expect(otherSecret.body.msg).toBe('hint_apiKeySignature');
    // The query is covered: the same signature on another query is refused.
    const timestamp = t.clock.now().getTime();
    const good = await signed(readKey, 'GET', '/api/userInfo/userBalance', {
      query: { currencyId: '3' },
      timestamp,
    });
    const moved = await signed(readKey, 'GET', '/api/userInfo/userBalance', {
      query: { currencyId: '4' },
      timestamp,
      signature: good.signature,
    });
    expect(moved.body.msg).toBe('hint_apiKeySignature');
  });

  it('refuses a timestamp outside the receive window, on either side', async () => {
    const now = t.clock.now().getTime();
    const late = await signed(readKey, 'GET', '/api/userInfo/getUserInfo', {
      timestamp: now - 5001,
    });
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ msg: 'hint_apiKeyTimestamp', params: [5000] });
    const early = await signed(readKey, 'GET', '/api/userInfo/getUserInfo', {
      timestamp: now + 5001,
    });
    expect(early.body.msg).toBe('hint_apiKeyTimestamp');
    // Within the window, and within a wider window the request names.
    expect(
      (await signed(readKey, 'GET', '/api/userInfo/getUserInfo', { timestamp: now - 5000 })).status,
    ).toBe(200);
    const wide = await signed(readKey, 'GET', '/api/userInfo/getUserInfo', {
      timestamp: now - 30_000,
      recvWindow: '60000',
    });
    expect(wide.status).toBe(200);
    const tooWide = await signed(readKey, 'GET', '/api/userInfo/getUserInfo', {
      recvWindow: '60001',
    });
    expect(tooWide.body).toMatchObject({
      msg: 'hint_apiKeyHeader',
      params: ['X-BOURSE-RECV-WINDOW'],
    });
    const noTime = await t.app.inject({
      url: '/api/userInfo/getUserInfo',
      headers: { 'X-BOURSE-APIKEY': readKey.apiKey, 'X-BOURSE-SIGNATURE': 'ab'.repeat(32) },
    });
    expect(noTime.json()).toMatchObject({
      msg: 'hint_apiKeyHeader',
      params: ['X-BOURSE-TIMESTAMP'],
    });
  });

  it('refuses a signature used again', async () => {
    const first = await signed(readKey, 'GET', '/api/userInfo/getUserInfo');
    expect(first.status).toBe(200);
    const replayed = await first.send();
    expect(replayed.status).toBe(401);
    expect(replayed.body.msg).toBe('hint_apiKeySignatureReused');
    // The same order sent three times at once: one is placed, the others refused.
    const order = prepare(tradeKey, 'POST', '/api/bibiTradeOrder/buy', {
      json: {
        productCode: 'BTCUSDT',
        orderType: 2,
        price: '1000',
        quantity: '0.0100',
        requestId: requestId(),
      },
    });
    const answers = await Promise.all([order.send(), order.send(), order.send()]);
    expect(answers.map((answer) => answer.body.msg).sort()).toEqual([
      'hint_apiKeySignatureReused',
      'hint_apiKeySignatureReused',
      'hint_success',
    ]);
    const placed = answers.find((answer) => answer.status === 200)!;
    await signed(tradeKey, 'POST', '/api/bibiTradeOrder/cancel', {
      form: { id: String(placed.body.data.id) },
    });
  });

  it('accepts calls only from the addresses of its allow-list', async () => {
    const key = await createKey(trader, { ipList: '10.0.0.0/8,2001:db8::1', permissions: 'read' });
    const outside = await signed(key, 'GET', '/api/userInfo/getUserInfo', { ip: '192.0.2.9' });
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ msg: 'hint_apiKeyAddress', params: ['192.0.2.9'] });
    for (const ip of ['10.1.2.3', '::ffff:10.9.9.9', '2001:db8::1'])
      expect((await signed(key, 'GET', '/api/userInfo/getUserInfo', { ip })).status, ip).toBe(200);
  });

  it('refuses routes not open to keys, whatever the permission', async () => {
    for (const [method, url] of [
      ['POST', '/api/userWithdraw/outMoney'],
      ['POST', '/api/balanceConvertRecord/balanceConvert'],
      ['POST', '/api/apiKey/create'],
      ['GET', '/api/apiKey/list'],
      ['GET', '/api/userSecurity/sessions'],
      ['POST', '/api/userInfo/updateUserPwd'],
      ['GET', '/api/userRecharge/list'],
      ['GET', '/admin-api/auth/me'],
    ] as const) {
      const refused = await signed(tradeKey, method, url, method === 'POST' ? { form: {} } : {});
      expect(refused.status, url).toBe(403);
      expect(refused.body.msg, url).toBe('hint_apiKeyRouteClosed');
    }
  });

  it('refuses an unknown key, a revoked key at once, and an expired key', async () => {
    const unknown = await signed(
      { apiKey: 'x'.repeat(64), secret: 'y' },
      'GET',
      '/api/userInfo/getUserInfo',
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body.msg).toBe('hint_apiKeyUnknown');

    const key = await createKey(trader, { permissions: 'read' });
    expect((await signed(key, 'GET', '/api/userInfo/getUserInfo')).status).toBe(200);
    await post('/api/apiKey/revoke', trader.token, { id: String(key.id) });
    const revoked = await signed(key, 'GET', '/api/userInfo/getUserInfo');
    expect(revoked.status).toBe(401);
    expect(revoked.body.msg).toBe('hint_apiKeyRevoked');

    const shortLived = await createKey(trader, { permissions: 'read', expireDays: '1' });
    expect(shortLived.expireTime).toBe(new Date(t.clock.now().getTime() + DAY_MS).toISOString());
    expect((await signed(shortLived, 'GET', '/api/userInfo/getUserInfo')).status).toBe(200);
    t.clock.advance(DAY_MS);
    const expired = await signed(shortLived, 'GET', '/api/userInfo/getUserInfo');
    expect(expired.status).toBe(401);
    expect(expired.body.msg).toBe('hint_apiKeyExpired');
    // The trader's session idled out meanwhile: sign in again for what follows.
    const login = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: trader.email, userPwd: GOOD_PASSWORD },
    });
    trader.token = login.body.data.token;
    const list = await call(t.app, 'GET', '/api/apiKey/list', {
      token: trader.token,
      query: { pageSize: '100' },
    });
    const statuses = Object.fromEntries(list.body.rows!.map((row) => [row.id, row.status]));
    expect(statuses).toMatchObject({
      [key.id]: 'revoked',
      [shortLived.id]: 'expired',
      [readKey.id]: 'active',
    });
  });

  it('logs every call of a known key, accepted or refused, for its user', async () => {
    const key = await createKey(trader, { permissions: 'read' });
    await signed(key, 'GET', '/api/userInfo/userBalance', { query: { currencyId: String(BTC) } });
    const usedAt = t.clock.now().toISOString();
    await signed(key, 'GET', '/api/userInfo/getUserInfo', { signature: 'cd'.repeat(32) });
    await signed(key, 'POST', '/api/bibiTradeOrder/buy', { json: {} });
    await signed(key, 'GET', '/api/userWithdraw/list');
    const rows = await usage(trader, { keyId: String(key.id) });
    expect(
      rows.map((row) => [row.method, row.path, row.status, row.msg, row.ip, row.keyId]),
    ).toEqual([
      ['GET', '/api/userWithdraw/list', 403, 'hint_apiKeyRouteClosed', '127.0.0.1', key.id],
      ['POST', '/api/bibiTradeOrder/buy', 403, 'hint_apiKeyPermission', '127.0.0.1', key.id],
      ['GET', '/api/userInfo/getUserInfo', 401, 'hint_apiKeySignature', '127.0.0.1', key.id],
      ['GET', '/api/userInfo/userBalance', 200, 'hint_success', '127.0.0.1', key.id],
    ]);
    // A handler's refusal is logged with its own key: an order the book refuses.
    const bad = await signed(tradeKey, 'POST', '/api/bibiTradeOrder/buy', {
      json: { productCode: 'BTCUSDT', orderType: 1, quantity: '0', requestId: requestId() },
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    const [last] = await usage(trader, { keyId: String(tradeKey.id) });
    expect(last).toMatchObject({ status: bad.status, msg: bad.body.msg });
    // The key's last accepted call.
    const list = await call(t.app, 'GET', '/api/apiKey/list', {
      token: trader.token,
      query: { pageSize: '100' },
    });
    const row = list.body.rows!.find((entry) => entry.id === key.id)!;
    expect(row.lastUsedTime).toBe(usedAt);
    // Another user sees none of it.
    const stranger = await registerUser(t.app);
    expect(await usage(stranger)).toEqual([]);
    expect(await usage(stranger, { keyId: String(key.id) })).toEqual([]);
  });

  it('keeps the usage log 30 days, pruning older calls as new ones are written', async () => {
    const key = await createKey(trader, { permissions: 'read' });
    await signed(key, 'GET', '/api/userInfo/getUserInfo');
    const old = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM api_key_usage WHERE api_key_id = $1',
      [key.id],
    );
    expect(old.rows[0]!.count).toBe(1);
    t.clock.advance(API_KEY.usageKeepDays * DAY_MS + 1000);
    const login = await call(t.app, 'POST', '/api/userInfo/login', {
      form: { userAccount: trader.email, userPwd: GOOD_PASSWORD },
    });
    trader.token = login.body.data.token;
    // Older than 30 days: not listed even before it is deleted.
    expect(await usage(trader, { keyId: String(key.id) })).toEqual([]);
    await signed(key, 'GET', '/api/userInfo/getUserInfo');
    const { rows } = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM api_key_usage WHERE created_at < $1',
      [new Date(t.clock.now().getTime() - API_KEY.usageKeepDays * DAY_MS)],
    );
    expect(rows[0]!.count).toBe(0);
    expect(await usage(trader, { keyId: String(key.id) })).toHaveLength(1);
    // The signatures seen are pruned the same way.
    const signatures = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM api_key_signature WHERE expires_at < $1',
      [t.clock.now()],
    );
    expect(signatures.rows[0]!.count).toBe(0);
  });
});

describe('a demo key', () => {
  it('acts on the demo book only', async () => {
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, '500');
    const demo = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    expect(demo.status).toBe(200);
    const key = await createKey(user, { permissions: 'read,trade' });
    expect(key.accountType).toBe(2);
    // Back to live: the key stays a demo key.
    await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '0' },
    });

    const balance = await signed(key, 'GET', '/api/userInfo/userBalance', {
      query: { currencyId: String(USDT) },
    });
    expect(balance.body.data.amount).toBe('100000.0000');
    const info = await signed(key, 'GET', '/api/userInfo/getUserInfo');
    expect(info.body.data.accountType).toBe(2);

    feed.tick('BTCUSDT', '100000.00', t.clock.now().getTime());
    const bought = await signed(key, 'POST', '/api/bibiTradeOrder/buy', {
      json: { productCode: 'BTCUSDT', orderType: 1, quantity: '0.0100', requestId: requestId() },
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    // The live book is untouched; the demo book has the order.
    const live = await call(t.app, 'GET', '/api/userInfo/userBalance', {
      token: user.token,
      query: { currencyId: String(USDT) },
    });
    expect(live.body.data).toMatchObject({ amount: '500.0000', frozenAmount: '0.0000' });
    const liveOrders = await call(t.app, 'GET', '/api/bibiTradeOrder/list', { token: user.token });
    expect(liveOrders.body.rows).toEqual([]);
    const demoOrders = await signed(key, 'GET', '/api/bibiTradeOrder/list');
    expect(demoOrders.body.rows!.map((row) => row.id)).toEqual([bought.body.data.id]);
  });
});

describe("a key's request budget", () => {
  it("counts its calls, and its user's, against the general budget; the refusal is logged", async () => {
    const small = await createTestApp({
      env: { TWO_FACTOR_KEY: KEY, RATE_LIMIT_GLOBAL_PER_MINUTE: '5' },
      codeSender,
    });
    try {
      const user = await registerUser(small.app);
      const created = await call(small.app, 'POST', '/api/apiKey/create', {
        token: user.token,
        form: { label: 'busy bot' },
      });
      const key = created.body.data as CreatedKey;
      // Each call from another address, so that only the key's and its user's budgets count:
      // the key creation was the user's first call of the minute.
      const answers: CallResult[] = [];
      for (let i = 1; i <= 5; i++)
        answers.push(
          await signed(key, 'GET', '/api/userInfo/getUserInfo', {
            app: small,
            ip: `192.0.2.${i}`,
          }),
        );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429]);
      expect(answers[4]!.body.msg).toBe('hint_tooManyRequests');
      // (The user's budget is spent too: the log is read from the database.)
      const { rows } = await small.db.query<{ status: number; msg: string }>(
        'SELECT status, msg FROM api_key_usage WHERE api_key_id = $1 ORDER BY id',
        [key.id],
      );
      expect(rows.map((row) => row.status)).toEqual([200, 200, 200, 200, 429]);
      expect(rows[4]!.msg).toBe('hint_tooManyRequests');
    } finally {
      await small.close();
    }
  });
});

describe('the API reference', () => {
  it('documents the key scheme and marks the calls a key may make', async () => {
    const response = await t.app.inject({ url: '/api/docs/json' });
    const document = response.json();
    const schemes = document.components.securitySchemes;
    expect(schemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-BOURSE-APIKEY' });
    expect(schemes.apiKey.description).toContain('HMAC-SHA256');
    expect(schemes.apiKeySignature.name).toBe('X-BOURSE-SIGNATURE');
    const buy = document.paths['/api/bibiTradeOrder/buy'].post;
    expect(buy['x-api-key-permission']).toBe('trade');
    expect(buy.security).toEqual([
      { bearer: [] },
      { apiKey: [], apiKeyTimestamp: [], apiKeySignature: [] },
    ]);
    const kline = document.paths['/api/kline/list'].get;
    expect(kline['x-api-key-permission']).toBe('read');
    expect(kline.security).toEqual([{ apiKey: [], apiKeyTimestamp: [], apiKeySignature: [] }]);
    const withdraw = document.paths['/api/userWithdraw/outMoney'].post;
    expect(withdraw.security).toEqual([{ bearer: [] }]);
    expect(withdraw).not.toHaveProperty('x-api-key-permission');
  });
});

// ---------------------------------------------------------------- the worked example

describe("docs/api.md's signing example", () => {
  it('is reproduced byte for byte', () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const docs = readFileSync(path.join(here, '../../../docs/api.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## API keys'));
    const field = (name: string) => {
      const match = new RegExp(`^- ${name}: \`([^\`]*)\`$`, 'm').exec(section);
      expect(match, name).not.toBeNull();
      return match![1]!;
    };
    const secret = field('secret');
    const timestamp = field('timestamp');
    const method = field('method');
    const url = field('path and query');
    const body = field('body');
    const text = field('signed text');
    const signature = field('signature');
    expect(text).toBe(`${timestamp}${method}${url}${body}`);
    expect(createHmac('sha256', secret).update(text).digest('hex')).toBe(signature);
    // The server's own signing gives the same.
    expect(hmacHex(secret, [signedPrefix(timestamp, method, url), Buffer.from(body)])).toBe(
      signature,
    );
    // And the GET beside it, whose query is signed.
    const read = `${timestamp}GET/api/userInfo/userBalance?currencyId=3`;
    const readSignature = createHmac('sha256', secret).update(read).digest('hex');
    expect(section).toContain(`\`${read}\`, giving\n\`${readSignature}\``);
  });
});
