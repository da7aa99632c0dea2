/**
 * The real-time channel at /ws (PRODUCT section 3) against the real app listening on a local port,
 * with the `ws` client: topics, sequence numbers, authentication, errors, and what happens to a
 * consumer that cannot keep up (on a hub of its own with a tiny buffer limit).
 *
 * Prices move only when the test moves the app's manual clock; every wait is on a message or a
 * condition, with a timeout.
 */
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  isDecimalString,
  normalize,
  PRODUCT_TYPE,
  toScale,
  type ProductType,
} from '@bourse/shared';
import { ManualClock } from '../src/lib/clock';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import type { TickEvent } from '../src/market/engine';
import { candleStart } from '../src/market/price-store';
import { PRIVATE_TOPICS, textFrame, WsHub } from '../src/market/ws-hub';
import type { CatalogueProduct } from '../src/market/types';
import { advanceMarket, createTestApp, registerUser, type TestApp } from './helpers';

function pick(productType: ProductType, code: string): CatalogueProduct {
  const product = DEFAULT_CATALOGUE.find((p) => p.productType === productType && p.code === code);
  if (!product) throw new Error(`${code} is not in the default catalogue`);
  return product;
}

/** Wednesday 2026-11-18, 10:00 in New York: every session is open. */
const NOW = Date.parse('2026-11-18T15:00:00Z');
const TICK_MS = 100;
const WAIT_MS = 5000;

const silent = pino({ enabled: false }) as unknown as FastifyBaseLogger;

interface Message {
  op: string;
  seq: number;
  topic?: string;
  msg?: string;
  data?: any;
}

function waitUntil(condition: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (condition()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out: ${what}`));
      setTimeout(check, 5);
    };
    check();
  });
}

/**
 * A client that keeps every message and checks the sequence numbers as they arrive: replies and
 * heartbeats count up by one per connection from 1; data messages count up by one per topic.
 */
class Client {
  readonly messages: Message[] = [];
  readonly problems: string[] = [];
  closed = false;
  private ownSeq = 0;
  private readonly topicSeq = new Map<string, number>();

  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw: RawData) => this.receive(raw));
    socket.on('close', () => (this.closed = true));
  }

  static async open(url: string): Promise<Client> {
    const socket = new WebSocket(url);
    const client = new Client(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  private receive(raw: RawData): void {
    const message = JSON.parse(raw.toString()) as Message;
    this.messages.push(message);
    if (message.op === 'data') {
      const topic = message.topic!;
      const previous = this.topicSeq.get(topic);
      if (previous !== undefined && message.seq !== previous + 1) {
        this.problems.push(`${topic}: seq ${message.seq} after ${previous}`);
      }
      this.topicSeq.set(topic, message.seq);
    } else {
      if (message.seq !== this.ownSeq + 1) {
        this.problems.push(`${message.op}: seq ${message.seq} after ${this.ownSeq}`);
      }
      this.ownSeq = message.seq;
    }
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message from index `from` on that matches, waiting for it if needed. */
  async next(predicate: (message: Message) => boolean, from = 0): Promise<Message> {
    let found: Message | undefined;
    await waitUntil(
      () => (found = this.messages.slice(from).find(predicate)) !== undefined,
      'a matching message',
    );
    return found!;
  }

  /** Sends a request and waits for the reply of that op (or an error). */
  async request(message: unknown, replyOp: string): Promise<Message> {
    const from = this.messages.length;
    this.send(message);
    return this.next((m) => m.op === replyOp || m.op === 'error', from);
  }

  /** Replies and heartbeats: the connection's own sequence. */
  own(): Message[] {
    return this.messages.filter((m) => m.op !== 'data');
  }

  data(topic: string, from = 0): Message[] {
    return this.messages.slice(from).filter((m) => m.op === 'data' && m.topic === topic);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    this.socket.close();
    return closed;
  }
}

// ------------------------------------------------------------------------------- the app's /ws

describe('/ws on the app', () => {
  let t: TestApp;
  let base: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: { MARKET_FEED: 'simulated', MARKET_TICK_MS: String(TICK_MS) },
      clock: new ManualClock(new Date(NOW)),
      catalogue: [
        pick(PRODUCT_TYPE.usStock, 'AAPL'),
        pick(PRODUCT_TYPE.crypto, 'BTCUSDT'),
        pick(PRODUCT_TYPE.crypto, 'ETHUSDT'),
        pick(PRODUCT_TYPE.forex, 'EURUSD'),
      ],
      history: { days: 10, minuteDays: 1 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    base = `127.0.0.1:${port}`;
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) {
      expect(client.problems).toEqual([]);
      await client.close();
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  async function connect(): Promise<Client> {
    const client = await Client.open(`ws://${base}/ws`);
    clients.push(client);
    await client.next((m) => m.op === 'welcome');
    return client;
  }

  /** Moves the clock; resolves once the feed made the ticks now due (the last instant's time). */
  function advance(ms: number): Promise<{ time: number; events: TickEvent[] }> {
    return advanceMarket(t, ms, TICK_MS, WAIT_MS);
  }

  const tickerTime = (m: Message) => m.data?.tickerInfo?.time as number | undefined;

  it('welcomes a connection with the first number of its sequence', async () => {
    const client = await connect();
    expect(client.messages[0]).toEqual({ op: 'welcome', seq: 1 });
    const pong = await client.request({ op: 'ping' }, 'pong');
    // The next number of the connection's own sequence (a heartbeat may have come in between).
    expect(pong).toEqual({ op: 'pong', seq: client.own().indexOf(pong) + 1 });
    expect(pong.seq).toBeGreaterThanOrEqual(2);
  });

  it('streams a ticker as ticks happen', async () => {
    const client = await connect();
    const topic = 'ticker:2:BTCUSDT';
    expect(await client.request({ op: 'subscribe', topic }, 'subscribed')).toMatchObject({
      op: 'subscribed',
      topic,
    });
    const from = client.messages.length;
    const { time, events } = await advance(1000);
    await client.next((m) => m.topic === topic && tickerTime(m) === time, from);
    const data = client.data(topic, from);
    const ticks = events.filter((e) => e.tick.productCode === 'BTCUSDT').map((e) => e.tick);
    expect(ticks).toHaveLength(10);
    expect(data).toHaveLength(10);
    for (const [index, message] of data.entries()) {
      const tick = ticks[index]!;
      expect(message.data).toMatchObject({
        productType: 2,
        productCode: 'BTCUSDT',
        tickerInfo: {
          nowPrice: toScale(tick.price, 2),
          time: tick.time,
          sequence: tick.sequence,
          source: 'simulated',
        },
      });
      expect(isDecimalString(message.data.tickerInfo.dayMax)).toBe(true);
      if (index > 0) expect(message.seq).toBe(data[index - 1]!.seq + 1);
    }
    // Only the topic asked for.
    expect(client.messages.slice(from).filter((m) => m.op !== 'ping' && m.topic !== topic)).toEqual(
      [],
    );
  });

  it('streams the growing candle of a k-line topic', async () => {
    const client = await connect();
    const topic = 'kline:2:BTCUSDT:1m';
    const hourly = 'kline:2:ETHUSDT:1h';
    await client.request({ op: 'subscribe', topic }, 'subscribed');
    await client.request({ op: 'subscribe', topic: hourly }, 'subscribed');
    const from = client.messages.length;
    const { time, events } = await advance(500);
    const btc = events.filter((e) => e.tick.productCode === 'BTCUSDT').map((e) => e.tick);
    await client.next(
      (m) => m.topic === topic && m.data.candle.close === normalize(btc.at(-1)!.price),
      from,
    );
    await client.next((m) => m.topic === hourly, from);
    const candles = client.data(topic, from);
    expect(candles).toHaveLength(5);
    for (const [index, message] of candles.entries()) {
      expect(message.data).toMatchObject({
        productType: 2,
        productCode: 'BTCUSDT',
        interval: '1m',
        candle: { openTime: candleStart('1m', time), close: normalize(btc[index]!.price) },
      });
    }
    expect(t.app.services.marketEngine!.store.state('2:BTCUSDT')!.candles['1m']).toEqual(
      candles.at(-1)!.data.candle,
    );
    expect(client.data(hourly, from).at(-1)!.data).toMatchObject({
      productCode: 'ETHUSDT',
      interval: '1h',
      candle: { openTime: candleStart('1h', time) },
    });
  });

  it("conflates a type's tickers into lists", async () => {
    const client = await connect();
    const topic = 'tickers:2';
    await client.request({ op: 'subscribe', topic }, 'subscribed');
    const from = client.messages.length;
    const { time } = await advance(1000);
    const message = await client.next(
      (m) =>
        m.topic === topic &&
        (m.data.tickers as { tickerInfo: { time: number } }[]).some(
          (ticker) => ticker.tickerInfo.time === time,
        ),
      from,
    );
    expect(message.data.productType).toBe(2);
    const tickers = message.data.tickers as { productCode: string; tickerInfo: any }[];
    // One entry per product (its latest), never one per tick.
    expect(tickers.map((ticker) => ticker.productCode).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    for (const ticker of tickers) {
      expect(ticker.tickerInfo.time).toBe(time);
      expect(isDecimalString(ticker.tickerInfo.nowPrice)).toBe(true);
    }
    // Twenty ticks made at most a couple of list messages.
    expect(client.data(topic, from).length).toBeLessThanOrEqual(2);
  });

  it('answers unknown topics and malformed messages with an error and stays usable', async () => {
    const client = await connect();
    for (const topic of [
      'nonsense',
      'ticker:9:BTCUSDT',
      'ticker:2:btc-usdt',
      'ticker:2:BTCUSDT:extra',
      'kline:2:BTCUSDT:7m',
      'kline:2:BTCUSDT',
      'tickers:2:BTCUSDT',
      'tickers:5',
      '',
    ]) {
      expect(await client.request({ op: 'subscribe', topic }, 'subscribed'), topic).toMatchObject({
        op: 'error',
        topic,
        msg: 'hint_topicUnknown',
      });
    }
    for (const bad of ['{not json', '"a string"', '{"op":"dance"}', '[]', 'null']) {
      expect(await client.request(bad, 'never'), bad).toMatchObject({
        op: 'error',
        msg: 'hint_badRequest',
      });
    }
    const from = client.messages.length;
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await client.next((m) => m.op === 'error', from)).toMatchObject({
      msg: 'hint_badRequest',
    });
    expect(await client.request({ op: 'ping' }, 'pong')).toMatchObject({ op: 'pong' });
    expect(client.closed).toBe(false);
  });

  it('opens private topics only after auth with a real session token', async () => {
    const user = await registerUser(t.app);
    const client = await connect();
    expect(await client.request({ op: 'subscribe', topic: 'orders' }, 'subscribed')).toMatchObject({
      op: 'error',
      topic: 'orders',
      msg: 'hint_unauthorized',
    });
    for (const token of ['not-a-session', 42, 'x'.repeat(300)]) {
      expect(await client.request({ op: 'auth', token }, 'authed')).toMatchObject({
        op: 'error',
        msg: 'hint_unauthorized',
      });
    }
    expect(await client.request({ op: 'subscribe', topic: 'orders' }, 'subscribed')).toMatchObject({
      op: 'error',
      msg: 'hint_unauthorized',
    });
    expect(await client.request({ op: 'auth', token: user.token }, 'authed')).toMatchObject({
      op: 'authed',
    });
    for (const topic of PRIVATE_TOPICS) {
      expect(await client.request({ op: 'subscribe', topic }, 'subscribed')).toMatchObject({
        op: 'subscribed',
        topic,
      });
    }
    // A session that ended no longer authenticates.
    const loggedOut = await t.app.inject({
      method: 'POST',
      url: '/api/userInfo/loginOut',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(loggedOut.statusCode).toBe(200);
    const other = await connect();
    expect(await other.request({ op: 'auth', token: user.token }, 'authed')).toMatchObject({
      op: 'error',
      msg: 'hint_unauthorized',
    });
  });

  it("handles a connection's messages in order: auth then subscribe sent together", async () => {
    const user = await registerUser(t.app);
    const client = await connect();
    const from = client.messages.length;
    client.send({ op: 'auth', token: user.token });
    client.send({ op: 'subscribe', topic: 'orders' });
    client.send({ op: 'ping' });
    await client.next((m) => m.op === 'pong', from);
    expect(
      client.messages
        .slice(from)
        .map((m) => m.op)
        .filter((op) => op !== 'ping'),
    ).toEqual(['authed', 'subscribed', 'pong']);
  });

  it('stops the data of a topic on unsubscribe', async () => {
    const client = await connect();
    await client.request({ op: 'subscribe', topic: 'ticker:2:BTCUSDT' }, 'subscribed');
    await client.request({ op: 'subscribe', topic: 'ticker:2:ETHUSDT' }, 'subscribed');
    let step = await advance(300);
    await client.next((m) => m.topic === 'ticker:2:ETHUSDT' && tickerTime(m) === step.time);
    expect(client.data('ticker:2:BTCUSDT').length).toBe(3);

    expect(
      await client.request({ op: 'unsubscribe', topic: 'ticker:2:BTCUSDT' }, 'unsubscribed'),
    ).toMatchObject({ op: 'unsubscribed', topic: 'ticker:2:BTCUSDT' });
    const from = client.messages.length;
    step = await advance(300);
    await client.next((m) => m.topic === 'ticker:2:ETHUSDT' && tickerTime(m) === step.time, from);
    // Whatever the server wrote in that burst is in before the reply to a later ping.
    await client.request({ op: 'ping' }, 'pong');
    expect(client.data('ticker:2:ETHUSDT', from)).toHaveLength(3);
    expect(client.data('ticker:2:BTCUSDT', from)).toHaveLength(0);
  });

  it('keeps every sequence contiguous under a burst of ticks, for every connection', async () => {
    const topics = ['ticker:2:BTCUSDT', 'ticker:2:ETHUSDT', 'kline:2:BTCUSDT:1m', 'ticker:1:AAPL'];
    const both = [await connect(), await connect()];
    for (const client of both) {
      for (const topic of topics) await client.request({ op: 'subscribe', topic }, 'subscribed');
    }
    const from = both.map((client) => client.messages.length);
    // A minute of ticks at once: 600 per product, all made in one turn.
    const { time } = await advance(60_000);
    for (const [index, client] of both.entries()) {
      await client.next(
        (m) => m.topic === 'ticker:2:ETHUSDT' && tickerTime(m) === time,
        from[index],
      );
      await client.request({ op: 'ping' }, 'pong');
      for (const topic of topics) {
        const data = client.data(topic, from[index]);
        expect(data, topic).toHaveLength(600);
        data.forEach((message, i) => {
          if (i > 0) expect(message.seq).toBe(data[i - 1]!.seq + 1);
        });
      }
      expect(client.closed).toBe(false);
    }
    // Both connections saw the same numbers on the same topics.
    for (const topic of topics) {
      expect(both[0]!.data(topic, from[0]).map((m) => m.seq)).toEqual(
        both[1]!.data(topic, from[1]).map((m) => m.seq),
      );
    }
  });

  it('lets a client that reconnects start afresh and re-read the ticker over REST', async () => {
    const first = await connect();
    const topic = 'ticker:2:BTCUSDT';
    await first.request({ op: 'subscribe', topic }, 'subscribed');
    const step = await advance(200);
    const last = await first.next((m) => m.topic === topic && tickerTime(m) === step.time);
    for (let i = 0; i < 3; i++) await first.request({ op: 'ping' }, 'pong');
    const firstSeq = first.own().at(-1)!.seq;
    expect(firstSeq).toBeGreaterThanOrEqual(5);
    await first.close();

    const again = await connect();
    expect(again.messages[0]).toEqual({ op: 'welcome', seq: 1 });
    const subscribed = await again.request({ op: 'subscribe', topic }, 'subscribed');
    expect(subscribed).toMatchObject({
      op: 'subscribed',
      seq: again.own().indexOf(subscribed) + 1,
    });
    // Its own numbers start again from 1, whatever the last connection reached.
    expect(subscribed.seq).toBeLessThan(firstSeq);
    // What it missed is read over REST: the same ticker the stream last sent.
    const response = await fetch(`http://${base}/api/cryptocurrencyProduct/list`);
    const body = (await response.json()) as { rows: { productCode: string; tickerInfo: any }[] };
    const rest = body.rows.find((row) => row.productCode === 'BTCUSDT')!;
    expect(rest.tickerInfo).toEqual(last.data.tickerInfo);
    // And the stream carries on from there.
    const from = again.messages.length;
    const next = await advance(100);
    const message = await again.next((m) => m.topic === topic && tickerTime(m) === next.time, from);
    expect(message.data.tickerInfo.sequence).toBe(rest.tickerInfo.sequence + 1);
    expect(message.seq).toBe(last.seq + 1);
  });
});

// ------------------------------------------------------------------------- the hub on its own

/** The text of a server frame (unmasked, final, text). */
/** The text payloads of the unmasked frames in one write (the hub writes a burst at once). */
function payloadsOf(chunk: Buffer): string[] {
  const payloads: string[] = [];
  let at = 0;
  while (at < chunk.length) {
    expect(chunk[at]).toBe(0x81);
    const short = chunk[at + 1]! & 0x7f;
    const [length, header] =
      short === 126
        ? [chunk.readUInt16BE(at + 2), 4]
        : short === 127
          ? [chunk.readUInt32BE(at + 6), 10]
          : [short, 2];
    payloads.push(chunk.subarray(at + header, at + header + length).toString('utf8'));
    at += header + length;
  }
  return payloads;
}

/**
 * Enough of a `ws` socket for the hub, over a pretend TCP socket: what it is written goes to a peer
 * that reads at once, unless the peer `stalled`, when it waits (bufferedAmount).
 */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  readonly sent: Message[] = [];
  terminated = false;
  stalled = false;
  pings = 0;
  private waiting = 0;

  readonly _socket = {
    write: (chunk: Buffer) => {
      for (const payload of payloadsOf(chunk)) this.sent.push(JSON.parse(payload) as Message);
      if (this.stalled) this.waiting += chunk.length;
      return true;
    },
  };

  get bufferedAmount(): number {
    return this.waiting;
  }
  send(data: string | Buffer): void {
    this._socket.write(textFrame(data.toString()));
  }
  ping(): void {
    this.pings += 1;
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
    this.emit('close');
  }
  close(): void {
    this.readyState = 3;
    this.emit('close');
  }
  receive(message: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(message)), false);
  }
}

/** Lets the event loop turn: the hub's burst ends and its frames are written. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the hub', () => {
  const hubs: WsHub[] = [];
  afterEach(() => {
    for (const hub of hubs.splice(0)) hub.close();
  });

  function hubWith(options: Partial<ConstructorParameters<typeof WsHub>[0]> = {}): WsHub {
    const hub = new WsHub({ logger: silent, heartbeatMs: 3_600_000, ...options });
    hubs.push(hub);
    return hub;
  }

  async function fakeSubscriber(hub: WsHub, topics: string[]): Promise<FakeSocket> {
    const socket = new FakeSocket();
    hub.accept(socket as unknown as WebSocket, async () => null);
    for (const topic of topics) socket.receive({ op: 'subscribe', topic });
    await waitUntil(
      () => socket.sent.filter((m) => m.op === 'subscribed').length === topics.length,
      'subscribed',
    );
    return socket;
  }

  it('drops a consumer that cannot keep up, and only that one', async () => {
    const hub = hubWith({ maxBufferedBytes: 1024 });
    const topic = 'ticker:2:BTCUSDT';
    const slow = await fakeSubscriber(hub, [topic]);
    const fast = await fakeSubscriber(hub, [topic]);
    const other = await fakeSubscriber(hub, ['ticker:2:ETHUSDT']);
    expect(hub.connectionCount).toBe(3);
    const payload = { blob: 'x'.repeat(400) };

    // A burst larger than the limit reaches everyone: it leaves whole at the end of the turn.
    slow.stalled = true;
    for (let n = 1; n <= 10; n++) hub.publish(topic, { n, ...payload });
    await nextTurn();
    for (const socket of [slow, fast]) {
      expect(socket.sent.filter((m) => m.op === 'data').map((m) => m.data.n)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
      ]);
    }
    // The fast peer took it all; the stalled one still has it waiting, past the limit.
    expect(fast.bufferedAmount).toBe(0);
    expect(slow.bufferedAmount).toBeGreaterThan(1024);

    hub.publish(topic, { n: 11, ...payload });
    expect(slow.terminated).toBe(true);
    await nextTurn();
    expect(slow.sent.at(-1)).toMatchObject({ data: { n: 10 } });
    expect(fast.sent.at(-1)).toMatchObject({ op: 'data', data: { n: 11 } });
    expect(fast.terminated).toBe(false);
    expect(hub.connectionCount).toBe(2);

    hub.publish(topic, { n: 12 });
    hub.publish('ticker:2:ETHUSDT', { n: 1 });
    await nextTurn();
    expect(fast.sent.filter((m) => m.op === 'data').map((m) => m.data.n)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(slow.sent.filter((m) => m.op === 'data')).toHaveLength(10);
    expect(other.sent.filter((m) => m.op === 'data')).toHaveLength(1);
    expect(other.terminated).toBe(false);
  });

  it('refuses subscriptions beyond the limit', async () => {
    const hub = hubWith({ maxSubscriptions: 2 });
    const socket = await fakeSubscriber(hub, ['ticker:2:BTCUSDT', 'ticker:2:ETHUSDT']);
    socket.receive({ op: 'subscribe', topic: 'tickers:2' });
    await waitUntil(() => socket.sent.some((m) => m.op === 'error'), 'the refusal');
    expect(socket.sent.at(-1)).toMatchObject({
      op: 'error',
      topic: 'tickers:2',
      msg: 'hint_tooManySubscriptions',
    });
  });

  it('pings, and cuts a connection that stopped answering', async () => {
    const hub = hubWith({ heartbeatMs: 20 });
    const answering = await fakeSubscriber(hub, []);
    const silentPeer = await fakeSubscriber(hub, []);
    const originalPing = answering.ping.bind(answering);
    answering.ping = () => {
      originalPing();
      queueMicrotask(() => answering.emit('pong'));
    };
    await waitUntil(() => silentPeer.terminated, 'the silent peer cut off', 2000);
    expect(silentPeer.pings).toBeGreaterThanOrEqual(1);
    expect(answering.terminated).toBe(false);
    expect(answering.sent.some((m) => m.op === 'ping')).toBe(true);
    expect(hub.connectionCount).toBe(1);
  });

  it('drops a real socket whose peer stopped reading while others keep receiving', async () => {
    const hub = hubWith({ maxBufferedBytes: 256 * 1024 });
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    server.on('connection', (socket) => hub.accept(socket, async () => null));
    const { port } = server.address() as AddressInfo;
    const topic = 'ticker:2:BTCUSDT';
    try {
      const slow = await Client.open(`ws://127.0.0.1:${port}`);
      const fast = await Client.open(`ws://127.0.0.1:${port}`);
      for (const client of [slow, fast]) {
        await client.next((m) => m.op === 'welcome');
        await client.request({ op: 'subscribe', topic }, 'subscribed');
      }
      // The slow peer stops reading: the kernel's buffers fill, then the server's.
      (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
      const blob = 'x'.repeat(32 * 1024);
      let sent = 0;
      while (hub.connectionCount === 2 && sent < 5000) {
        hub.publish(topic, { n: sent, blob });
        sent += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(hub.connectionCount).toBe(1);
      for (let extra = 0; extra < 10; extra++) hub.publish(topic, { n: sent++, blob });
      await waitUntil(() => fast.data(topic).length === sent, 'everything reaches the fast peer');
      expect(fast.data(topic).map((m) => m.data.n)).toEqual(
        Array.from({ length: sent }, (_, i) => i),
      );
      expect(fast.problems).toEqual([]);
      expect(fast.closed).toBe(false);
      // Once it reads again, the slow peer finds its connection cut.
      (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
      await waitUntil(() => slow.closed, 'the slow peer sees the end');
      expect(slow.data(topic).length).toBeLessThan(sent);
      await fast.close();
    } finally {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
