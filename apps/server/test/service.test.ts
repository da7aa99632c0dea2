/**
 * Customer service (serviceApi, consoleServiceApi): a visitor's and a user's conversations, each
 * read only by its own person (messages and images); images decoded and stored re-encoded, a
 * non-image, a truncated one and one too large in pixels refused; a send retried with its request
 * id answered once; history paged back by id; the inbox's states, assignment and closing (audited);
 * an operator's reply pushed on /ws to the user's and the visitor's sockets, a user's message
 * pushed to the console's stream; a visitor's conversation linked to the account they sign in to;
 * canned replies and external lines (validated URLs) kept by the console; visitor identities
 * unused for the keep days forgotten. With Redis, two
 * instances: a visitor's socket on one hears a reply sent through the other, and a console's stream
 * on one hears a message sent through the other.
 */
import { randomBytes } from 'node:crypto';
import { SERVICE_VISITOR_KEEP_DAYS } from '@bourse/shared';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { sha256 } from '../src/lib/secrets';
import {
  call,
  createTestApp,
  createTestDatabase,
  onPostgres,
  registerUser,
  testConfig,
  type TestApp,
  type TestDatabase,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';
import { openEventStream, type EventStreamReader } from './support/event-stream';
import { REDIS_URL, redisAvailable } from './support/redis';
import { flatJpeg, flatPng, HTML } from './support/test-images';

const PASSWORD = 'quiet harbour lantern';
let t: TestApp;
let dir: string;
let base: string;
const tokens = { admin: '', support: '', finance: '' };
const operatorIds = { support: 0 };
let sequence = 0;
const closers: (() => void)[] = [];

const requestId = () => `svc-${Date.now()}-${++sequence}`;
const dataUrl = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;

function send(who: { token?: string; visitorToken?: string }, fields: Record<string, unknown>) {
  return call(t.app, 'POST', '/api/service/send', {
    token: who.token,
    json: {
      requestId: requestId(),
      ...(who.visitorToken ? { visitorToken: who.visitorToken } : {}),
      ...fields,
    },
  });
}

function messages(
  who: { token?: string; visitorToken?: string },
  query: Record<string, string> = {},
) {
  return call(t.app, 'GET', '/api/service/messages', {
    token: who.token,
    query: { ...(who.visitorToken ? { visitorToken: who.visitorToken } : {}), ...query },
  });
}

async function newVisitor(): Promise<string> {
  const result = await call(t.app, 'POST', '/api/service/visitor');
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data.visitorToken as string;
}

const desk = (
  method: 'GET' | 'POST',
  url: string,
  token: string,
  input?: Record<string, unknown>,
) =>
  method === 'GET'
    ? adminApiCall(t.app, method, `/service${url}`, {
        token,
        query: Object.fromEntries(Object.entries(input ?? {}).map(([k, v]) => [k, String(v)])),
      })
    : adminApiCall(t.app, method, `/service${url}`, { token, json: input ?? {} });

/** A socket that keeps every message it gets. */
class Socket {
  readonly messages: { op: string; topic?: string; data?: any; msg?: string }[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => this.messages.push(JSON.parse(String(raw))));
  }

  /** A socket signed in with `auth` (a session's token, or a visitor's). */
  static async open(auth: Record<string, string>, at = base): Promise<Socket> {
    const socket = await Socket.connect(at);
    expect((await socket.request({ op: 'auth', ...auth })).op).toBe('authed');
    expect(await socket.request({ op: 'subscribe', topic: 'service' })).toMatchObject({
      op: 'subscribed',
    });
    return socket;
  }

  static async connect(at = base): Promise<Socket> {
    const ws = new WebSocket(`${at.replace('http', 'ws')}/ws`);
    const socket = new Socket(ws);
    closers.push(() => ws.close());
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return socket;
  }

  async request(message: Record<string, unknown>) {
    const from = this.messages.length;
    this.ws.send(JSON.stringify(message));
    let reply: (typeof this.messages)[number] | undefined;
    await expect
      .poll(
        () => (reply = this.messages.slice(from).find((m) => m.op !== 'ping' && m.op !== 'data')),
      )
      .toBeDefined();
    return reply!;
  }

  service() {
    return this.messages.filter((m) => m.op === 'data' && m.topic === 'service').map((m) => m.data);
  }
}

async function stream(token: string, at = base): Promise<EventStreamReader> {
  const reader = await openEventStream(`${at}/admin-api/review/events`, token);
  closers.push(() => reader.close());
  return reader;
}

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-service-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['support', 'finance'] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `svc-${role}`, password: PASSWORD, roles: [role] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    if (role === 'support') operatorIds.support = created.body.data.id;
    tokens[role] = await operatorReady(t.app, `svc-${role}`, PASSWORD);
  }
});

afterAll(async () => {
  for (const close of closers) close();
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe(`customer service (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('a visitor chats without an account; an unknown visitor token is refused', async () => {
    const visitorToken = await newVisitor();
    expect((await messages({ visitorToken })).body).toMatchObject({ rows: [], total: 0 });
    const sent = await send({ visitorToken }, { content: '  Hello, can you help?  ' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({
      sender: 'user',
      content: 'Hello, can you help?',
      image: false,
      read: false,
    });
    const listed = await messages({ visitorToken });
    expect(listed.body.rows!.map((m: { content: string }) => m.content)).toEqual([
      'Hello, can you help?',
    ]);

    const unknown = await messages({ visitorToken: 'x'.repeat(43) });
    expect(unknown.status).toBe(403);
    expect(unknown.body.msg).toBe('hint_visitorUnknown');
    const none = await call(t.app, 'GET', '/api/service/messages');
    expect(none.status).toBe(403);
    const empty = await send({ visitorToken }, { content: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('hint_serviceMessageEmpty');
  });

  it('forgets visitor identities left unused for the keep days, never one that wrote', async () => {
    const idle = await newVisitor();
    const wrote = await newVisitor();
    const recent = await newVisitor();
    expect((await send({ visitorToken: wrote }, { content: 'Still there?' })).status).toBe(200);
    const aged = new Date(t.clock.now().getTime() - (SERVICE_VISITOR_KEEP_DAYS + 1) * 86_400_000);
    await t.db.query('UPDATE service_visitor SET created_at = $1 WHERE token_hash = ANY($2)', [
      aged,
      [idle, wrote].map(sha256),
    ]);
    // Known until a new visitor comes, which forgets the aged one that never wrote.
    expect((await messages({ visitorToken: idle })).status).toBe(200);
    await newVisitor();
    const forgotten = await messages({ visitorToken: idle });
    expect(forgotten.status).toBe(403);
    expect(forgotten.body.msg).toBe('hint_visitorUnknown');
    const kept = await messages({ visitorToken: wrote });
    expect(kept.body.rows!.map((m: { content: string }) => m.content)).toEqual(['Still there?']);
    expect((await messages({ visitorToken: recent })).status).toBe(200);
  });

  it('stores images re-encoded and refuses non-images, truncated and oversized ones', async () => {
    const user = await registerUser(t.app);
    const png = await flatPng(320, 200);
    const fromPng = await send(user, { image: dataUrl('image/png', png) });
    expect(fromPng.status, JSON.stringify(fromPng.body)).toBe(200);
    expect(fromPng.body.data).toMatchObject({
      image: true,
      content: null,
      imageWidth: 320,
      imageHeight: 200,
    });
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/service/image?id=${fromPng.body.data.id}`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(stored.rawPayload).metadata()).format).toBe('jpeg');

    const jpeg = await flatJpeg(640, 480);
    const fromJpeg = await send(user, { image: jpeg.toString('base64') });
    expect(fromJpeg.status, JSON.stringify(fromJpeg.body)).toBe(200);
    const jpegStored = await t.app.inject({
      method: 'GET',
      url: `/api/service/image?id=${fromJpeg.body.data.id}`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    // Re-encoded: never the bytes as received.
    expect(Buffer.compare(jpegStored.rawPayload, jpeg)).not.toBe(0);

    // Noise compresses badly, so cutting the file cuts into its scan.
    const pixels = Buffer.alloc(200 * 150 * 3);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (Math.imul(i + 1, 2654435761) >>> 24) & 255;
    const noisy = await sharp(pixels, { raw: { width: 200, height: 150, channels: 3 } })
      .jpeg()
      .toBuffer();
    const bomb = await sharp(Buffer.alloc(3000 * 3000), {
      raw: { width: 3000, height: 3000, channels: 1 },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    for (const [data, msg, status] of [
      [HTML, 'hint_imageFormat', 415],
      [noisy.subarray(0, Math.floor(noisy.length * 0.6)), 'hint_imageFormat', 415],
      [bomb, 'hint_proofDimensions', 422],
      [await flatPng(3300, 100), 'hint_proofDimensions', 422],
    ] as const) {
      const refused = await send(user, { image: dataUrl('image/png', data) });
      expect(refused.status, JSON.stringify(refused.body)).toBe(status);
      expect(refused.body.msg).toBe(msg);
    }
    // Nothing of the refused images was written.
    expect((await messages(user)).body.total).toBe(2);
  });

  it('a person reads only their own conversation and images', async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const visitorToken = await newVisitor();
    const picture = await send(owner, { image: dataUrl('image/png', await flatPng(40, 40)) });
    expect(picture.status).toBe(200);
    await send(owner, { content: 'my account number is private' });
    expect((await messages(other)).body).toMatchObject({ rows: [], total: 0 });
    expect((await messages({ visitorToken })).body.total).toBe(0);
    for (const who of [{ token: other.token }, { visitorToken }]) {
      const image = await call(t.app, 'GET', '/api/service/image', {
        token: who.token,
        query: { id: String(picture.body.data.id), ...(who.visitorToken ? { visitorToken } : {}) },
      });
      expect(image.status).toBe(404);
    }
    // The desk reads every conversation's images.
    const deskImage = await t.app.inject({
      method: 'GET',
      url: `/admin-api/service/image?id=${picture.body.data.id}`,
      headers: { authorization: `Bearer ${tokens.support}` },
    });
    expect(deskImage.statusCode).toBe(200);
  });

  it('answers a retried send once and refuses its request id for another message', async () => {
    const user = await registerUser(t.app);
    const id = requestId();
    const first = await send(user, { content: 'once', requestId: id });
    const again = await send(user, { content: 'once', requestId: id });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await messages(user)).body.total).toBe(1);
    const reused = await send(user, { content: 'something else', requestId: id });
    expect(reused.status).toBe(409);
    expect(reused.body.msg).toBe('hint_requestIdReused');
  });

  it('pages the history back by id, oldest first within a page', async () => {
    const user = await registerUser(t.app);
    for (let i = 1; i <= 12; i += 1) await send(user, { content: `message ${i}` });
    const newest = await messages(user, { pageSize: '5' });
    expect(newest.body.total).toBe(12);
    const texts = (page: typeof newest) =>
      page.body.rows!.map((m: { content: string }) => m.content);
    expect(texts(newest)).toEqual([
      'message 8',
      'message 9',
      'message 10',
      'message 11',
      'message 12',
    ]);
    const older = await messages(user, {
      pageSize: '5',
      beforeId: String(newest.body.rows![0].id),
    });
    expect(texts(older)).toEqual(['message 3', 'message 4', 'message 5', 'message 6', 'message 7']);
    const oldest = await messages(user, {
      pageSize: '5',
      beforeId: String(older.body.rows![0].id),
    });
    expect(texts(oldest)).toEqual(['message 1', 'message 2']);
  });

  it('pushes a reply to the user’s socket and the user’s message to the console, with receipts', async () => {
    const user = await registerUser(t.app);
    const socket = await Socket.open({ token: user.token });
    const events = await stream(tokens.support);
    await expect.poll(() => events.events.some((e) => e.event === 'ready')).toBe(true);
    expect(events.events.find((e) => e.event === 'ready')!.data.queues).toContain('service');

    const asked = await send(user, { content: 'Where is my deposit?' });
    const conversationId = asked.body.data.conversationId as number;
    await expect
      .poll(() =>
        events.events.some(
          (e) =>
            e.event === 'queue' &&
            e.data.queue === 'service' &&
            e.data.id === conversationId &&
            e.data.data?.sender === 'user',
        ),
      )
      .toBe(true);

    const fresh = await desk('GET', '/conversations', tokens.support, { state: 'new' });
    expect(fresh.body.rows!.map((c: { id: number }) => c.id)).toContain(conversationId);
    const listed = fresh.body.rows!.find((c: { id: number }) => c.id === conversationId);
    expect(listed).toMatchObject({
      userId: user.userId,
      unread: 1,
      lastMessage: 'Where is my deposit?',
      lastSender: 'user',
    });

    const typing = await desk('POST', '/typing', tokens.support, { conversationId });
    expect(typing.status).toBe(200);
    await expect.poll(() => socket.service().some((d) => d.type === 'typing')).toBe(true);

    const replied = await desk('POST', '/send', tokens.support, {
      conversationId,
      content: 'It is on its way.',
      requestId: requestId(),
    });
    expect(replied.status, JSON.stringify(replied.body)).toBe(200);
    await expect
      .poll(
        () =>
          socket.service().find((d) => d.type === 'message' && d.message.sender === 'operator')
            ?.message,
      )
      .toMatchObject({
        sender: 'operator',
        content: 'It is on its way.',
        operatorName: null,
      });
    // Replying read the user's message: its receipt reaches the app.
    await expect
      .poll(() => socket.service().find((d) => d.type === 'read')?.readUpTo)
      .toBe(asked.body.data.id);
    const mine = await desk('GET', '/conversations', tokens.support, { state: 'mine' });
    expect(mine.body.rows!.find((c: { id: number }) => c.id === conversationId)).toMatchObject({
      operatorId: operatorIds.support,
      unread: 0,
    });
    // The user's own message read by the desk, in the history.
    const history = await messages(user);
    expect(history.body.rows!.map((m: { read: boolean }) => m.read)).toEqual([true, false]);
    // The app reads the desk's messages without the operator's (sign-in) name; the console with it.
    expect(history.body.rows![1].operatorName).toBeNull();
    const deskHistory = await desk('GET', '/messages', tokens.support, { id: conversationId });
    expect(deskHistory.body.rows![1].operatorName).toBe('svc-support');

    // The user reads the reply: the console hears it and sees the position.
    const read = await call(t.app, 'POST', '/api/service/read', {
      token: user.token,
      form: { upToId: String(replied.body.data.id) },
    });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    await expect
      .poll(() => events.events.some((e) => e.event === 'queue' && e.data.data?.type === 'read'))
      .toBe(true);
    const conversation = await desk('GET', '/conversation', tokens.support, { id: conversationId });
    expect(conversation.body.data.personReadUpTo).toBe(replied.body.data.id);

    // The user types (the app's form-encoded call, no field): the console hears it.
    const typed = await call(t.app, 'POST', '/api/service/typing', { token: user.token, form: {} });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    await expect
      .poll(() =>
        events.events.some(
          (e) =>
            e.event === 'queue' && e.data.id === conversationId && e.data.data?.type === 'typing',
        ),
      )
      .toBe(true);

    // The user writes again: the conversation waits for an answer.
    await send(user, { content: 'Thanks!' });
    const waiting = await desk('GET', '/conversations', tokens.support, { state: 'waiting' });
    expect(waiting.body.rows!.map((c: { id: number }) => c.id)).toContain(conversationId);
  });

  it('a visitor’s socket hears the reply; signing in links the conversation to the account', async () => {
    const visitorToken = await newVisitor();
    // A token the server never issued opens nothing.
    const stranger = await Socket.connect();
    expect(await stranger.request({ op: 'auth', visitor: 'x'.repeat(43) })).toMatchObject({
      op: 'error',
      msg: 'hint_unauthorized',
    });
    expect(await stranger.request({ op: 'subscribe', topic: 'service' })).toMatchObject({
      op: 'error',
      msg: 'hint_unauthorized',
    });
    const socket = await Socket.open({ visitor: visitorToken });
    const asked = await send({ visitorToken }, { content: 'I cannot sign in' });
    const conversationId = asked.body.data.conversationId as number;
    // A visitor's socket is refused the users' private topics.
    expect(await socket.request({ op: 'subscribe', topic: 'balances' })).toMatchObject({
      op: 'error',
      msg: 'hint_unauthorized',
    });
    await desk('POST', '/send', tokens.support, {
      conversationId,
      content: 'Try resetting your password.',
      requestId: requestId(),
    });
    await expect
      .poll(
        () =>
          socket.service().find((d) => d.type === 'message' && d.message.sender === 'operator')
            ?.message.content,
      )
      .toBe('Try resetting your password.');

    const user = await registerUser(t.app);
    const linked = await messages({ token: user.token, visitorToken });
    expect(linked.body.rows!.map((m: { content: string }) => m.content)).toEqual([
      'I cannot sign in',
      'Try resetting your password.',
    ]);
    const conversation = await desk('GET', '/conversation', tokens.support, { id: conversationId });
    expect(conversation.body.data).toMatchObject({ userId: user.userId, visitorId: null });
    expect((await messages({ visitorToken })).body.total).toBe(0);
  });

  it('takes, assigns, releases and closes conversations, audited; finance has no inbox', async () => {
    const user = await registerUser(t.app);
    const asked = await send(user, { content: 'A question' });
    const id = asked.body.data.conversationId as number;
    const took = await desk('POST', '/take', tokens.admin, { id });
    expect(took.body.data.operatorName).toBe(ADMIN_USERNAME);
    expect((await desk('POST', '/take', tokens.admin, { id })).body.msg).toBe('hint_48');
    const assigned = await desk('POST', '/assign', tokens.admin, {
      id,
      operatorId: operatorIds.support,
    });
    expect(assigned.body.data.operatorName).toBe('svc-support');
    const agents = await desk('GET', '/agents', tokens.support);
    expect(agents.body.rows!.map((a: { username: string }) => a.username)).toContain('svc-support');
    expect(agents.body.rows!.map((a: { username: string }) => a.username)).not.toContain(
      'svc-finance',
    );
    const toFinance = await desk('POST', '/assign', tokens.admin, { id, operatorId: 999_999 });
    expect(toFinance.body.msg).toBe('hint_operatorNotFound');
    expect(
      (await desk('POST', '/release', tokens.support, { id })).body.data.operatorId,
    ).toBeNull();
    const closed = await desk('POST', '/close', tokens.support, { id });
    expect(closed.body.data.closed).toBe(true);
    expect(
      (await desk('GET', '/conversations', tokens.support, { state: 'closed' })).body.rows!.map(
        (c: { id: number }) => c.id,
      ),
    ).toContain(id);
    // The user's next message opens it again, for anyone to take.
    await send(user, { content: 'One more thing' });
    const reopened = await desk('GET', '/conversation', tokens.support, { id });
    expect(reopened.body.data).toMatchObject({ closed: false, operatorId: null });

    const audit = await adminApiCall(t.app, 'GET', '/audit', {
      token: tokens.admin,
      query: { targetType: 'serviceConversation', pageSize: '50' },
    });
    const actions = (audit.body.rows ?? [])
      .filter((row: { targetId: string }) => row.targetId === String(id))
      .map((row: { action: string }) => row.action);
    expect(actions.sort()).toEqual([
      'service.assign',
      'service.assign',
      'service.assign',
      'service.close',
    ]);

    const refused = await desk('GET', '/conversations', tokens.finance, { state: 'new' });
    expect(refused.status).toBe(403);
  });

  it('keeps canned replies and external lines, with validated addresses', async () => {
    const saved = await desk('POST', '/canned/save', tokens.support, {
      title: 'Greeting',
      language: 'ar',
      content: 'مرحبا، كيف يمكنني مساعدتك؟',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const changed = await desk('POST', '/canned/save', tokens.support, {
      id: saved.body.data.id,
      title: 'Greeting',
      language: 'ar',
      content: 'أهلا بك',
    });
    expect(changed.body.data.content).toBe('أهلا بك');
    const missing = await desk('POST', '/canned/save', tokens.support, {
      id: 999_999,
      title: 'x',
      language: 'en',
      content: 'x',
    });
    expect(missing.body.msg).toBe('hint_cannedReplyNotFound');
    expect((await desk('GET', '/canned', tokens.support)).body.rows).toHaveLength(1);
    expect(
      (await desk('POST', '/canned/delete', tokens.support, { id: saved.body.data.id })).body.msg,
    ).toBe('hint_success');
    expect(
      (await desk('POST', '/canned/delete', tokens.support, { id: saved.body.data.id })).body.msg,
    ).toBe('hint_48');

    for (const [kind, url] of [
      ['telegram', 'https://example.com/bourse'],
      ['whatsapp', 'http://wa.me/123'],
      ['web', 'javascript:alert(1)'],
      ['web', 'https://user:pw@example.com'],
    ]) {
      const refused = await desk('POST', '/lines/save', tokens.admin, { kind, label: 'x', url });
      expect(refused.status, `${kind} ${url}`).toBe(400);
      expect(refused.body.msg).toBe('hint_serviceLineUrl');
    }
    const telegram = await desk('POST', '/lines/save', tokens.admin, {
      kind: 'telegram',
      label: 'Telegram',
      url: 'https://t.me/bourse_support',
    });
    expect(telegram.status, JSON.stringify(telegram.body)).toBe(200);
    await desk('POST', '/lines/save', tokens.admin, {
      kind: 'web',
      label: 'Help centre',
      url: 'https://help.example.com/',
      enabled: false,
    });
    const lines = await call(t.app, 'GET', '/api/service/lines');
    expect(lines.body.rows).toEqual([
      {
        id: telegram.body.data.id,
        kind: 'telegram',
        label: 'Telegram',
        url: 'https://t.me/bourse_support',
      },
    ]);
    expect(
      (
        await desk('POST', '/lines/save', tokens.support, {
          kind: 'web',
          label: 'x',
          url: 'https://a.b',
        })
      ).status,
    ).toBe(403);
  });
});

describe('customer service limits', () => {
  let own: TestApp;
  beforeAll(async () => {
    own = await createTestApp();
  });
  afterAll(async () => {
    await own?.close();
  });

  it('refuses a 61st message a minute from one address with 429', async () => {
    const user = await registerUser(own.app);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) {
      const sent = await call(own.app, 'POST', '/api/service/send', {
        token: user.token,
        json: { content: `flood ${i}`, requestId: `flood-${Date.now()}-${i}` },
      });
      statuses.push(sent.status);
      if (sent.status === 429) expect(sent.body.msg).toBe('hint_tooManyRequests');
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.at(-1)).toBe(429);
  });
});

// ------------------------------------------------------------------- two instances, one Redis

const redis = await redisAvailable('two-instance service tests');

describe.runIf(redis)('customer service on two instances', () => {
  let database: TestDatabase;
  const apps: TestApp[] = [];
  const bases: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const prefix = `bourse-test-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 2; i++) {
      const instance = await createTestApp({ database, env: { REDIS_URL, REDIS_PREFIX: prefix } });
      apps.push(instance);
      bases.push(await instance.app.listen({ port: 0, host: '127.0.0.1' }));
    }
  });
  afterAll(async () => {
    for (const instance of apps) await instance.close();
    await database?.dispose();
  });

  it("a visitor's socket on one instance hears a reply sent through the other, and the reverse", async () => {
    const [one, two] = apps as [TestApp, TestApp];
    const seeded = await adminLogin(
      testConfig({ DATA_DIR: path.join(dir, 'two-instances') }),
      one.db,
      one.clock,
    );
    const admin = await operatorReady(one.app, ADMIN_USERNAME, seeded.password!);
    const console2 = await stream(admin, bases[1]);
    await expect.poll(() => console2.events.some((e) => e.event === 'ready')).toBe(true);

    const issued = await call(two.app, 'POST', '/api/service/visitor');
    const visitorToken = issued.body.data.visitorToken as string;
    const socket = await Socket.open({ visitor: visitorToken }, bases[1]);
    const asked = await call(one.app, 'POST', '/api/service/send', {
      json: { visitorToken, content: 'Hello from instance one', requestId: `two-${Date.now()}` },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const conversationId = asked.body.data.conversationId as number;
    // The console on the other instance hears the visitor's message.
    await expect
      .poll(() =>
        console2.events.some(
          (e) =>
            e.event === 'queue' && e.data.id === conversationId && e.data.data?.sender === 'user',
        ),
      )
      .toBe(true);
    const replied = await adminApiCall(one.app, 'POST', '/service/send', {
      token: admin,
      json: {
        conversationId,
        content: 'Answered from instance one',
        requestId: `two-r-${Date.now()}`,
      },
    });
    expect(replied.status, JSON.stringify(replied.body)).toBe(200);
    await expect
      .poll(
        () =>
          socket.service().find((d) => d.type === 'message' && d.message.sender === 'operator')
            ?.message.content,
      )
      .toBe('Answered from instance one');
  });
});
