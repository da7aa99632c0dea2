/**
 * The real-time channel (PRODUCT section 3): one WebSocket at /ws carrying JSON messages
 * `{ op, topic, seq, data }`. Public topics: `ticker:<type>:<code>`, `kline:<type>:<code>:<interval>`
 * and `tickers:<type>` (conflated to one message a second). Private topics (`orders`, `positions`,
 * `balances`, `notifications`, `service`) need `{ op: "auth", token }` first.
 *
 * A socket signed in with a session loses its private topics the moment that session ends (sign-out,
 * a password change, an account disabled, expiry): it gets `{ op: "error", msg, signedOut: true,
 * topics }` naming the hint key and the private topics it no longer receives, and stays open for
 * public topics. Ends are announced on every instance (`endSessions`, through Redis when there are
 * several), and every `sessionCheckMs` each instance also asks the database which of its signed-in
 * sockets' sessions are still live, which catches expiry and any announcement that was lost.
 *
 * Every message carries a sequence number: data messages the next number of their topic's sequence
 * (the same for every subscriber, so each message is encoded once for all of them), replies and
 * heartbeats the next number of the connection's own. A client that sees a gap in a topic knows it
 * missed something and re-reads it over REST. A consumer that cannot
 * keep up (more than `maxBufferedBytes` waiting) is disconnected rather than slowing everyone.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { PRODUCT_TYPES } from '@bourse/shared';
import type { SessionsEnded } from './cluster';
import type { TickEvent } from './engine';
import { CANDLE_INTERVALS, type CandleInterval } from './types';

/** An unmasked, unfragmented WebSocket text frame (RFC 6455 section 5.2), as a server sends. */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x81, length])
      : length < 65_536
        ? Buffer.from([0x81, 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x81, 127, 0, 0, 0, 0]), Buffer.alloc(4)]);
  if (length >= 65_536) header.writeUInt32BE(length, 6);
  return Buffer.concat([header, payload]);
}

export const PRIVATE_TOPICS = ['orders', 'positions', 'balances', 'notifications', 'service'];

export interface HubOptions {
  logger: FastifyBaseLogger;
  /** Whether a product exists, so a topic of an unknown one is refused rather than silent. */
  productExists?(productType: number, productCode: string): boolean;
  maxBufferedBytes?: number;
  maxSubscriptions?: number;
  heartbeatMs?: number;
  conflateMs?: number;
  /**
   * Of the given sessions, those that are no longer live, each with the hint key its sockets are
   * told (revoked or expired: `hint_sessionExpired`; the user disabled: `hint_accountDisabled`).
   */
  endedSessions?(sessionIds: number[]): Promise<Map<number, string>>;
  /** How often the sessions of signed-in sockets are checked (default 30 s). */
  sessionCheckMs?: number;
  /**
   * The customer-service visitor of a token (`{op:"auth", visitor}`), or null: a signed-out
   * visitor's socket hears its own conversation on topic `service` and nothing else private.
   */
  authenticateVisitor?(token: string): Promise<number | null>;
}

/** The private topic a visitor's socket may subscribe to. */
export const VISITOR_TOPIC = 'service';

/** Resolves a session token to its user and session; rejects or resolves null when there is none. */
export type Authenticate = (token: string) => Promise<{ userId: number; sessionId: number } | null>;

interface Connection {
  socket: WebSocket;
  authenticate: Authenticate;
  seq: number;
  topics: Set<string>;
  userId: number | null;
  /** The session the socket signed in with. */
  sessionId: number | null;
  /** The customer-service visitor the socket speaks for (signed out). */
  visitorId: number | null;
  alive: boolean;
  /** The message being handled: the next waits for it, so replies follow the requests' order. */
  queue: Promise<void>;
}

const MAX_MESSAGE_BYTES = 4096;

export class WsHub {
  private readonly connections = new Set<Connection>();
  private readonly subscribers = new Map<string, Set<Connection>>();
  /** The last sequence number sent on each topic. */
  private readonly topicSeq = new Map<string, number>();
  /** `tickers:<type>`: the latest ticker of each product that changed since the last send. */
  private readonly pendingTickers = new Map<number, Map<string, unknown>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly maxBufferedBytes: number;
  private readonly maxSubscriptions: number;
  /** Frames waiting for the end of the current turn, by connection. */
  private readonly pending = new Map<Connection, Buffer[]>();
  /** Messages delivered (for the benchmarks). */
  delivered = 0;

  constructor(private readonly options: HubOptions) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    this.maxSubscriptions = options.maxSubscriptions ?? 200;
    const heartbeat = setInterval(() => this.heartbeat(), options.heartbeatMs ?? 20_000);
    const conflate = setInterval(() => this.sendTickers(), options.conflateMs ?? 1000);
    const sessions = setInterval(
      () =>
        void this.checkSessions().catch((error: unknown) =>
          this.options.logger.error({ err: error }, 'checking WebSocket sessions failed'),
        ),
      options.sessionCheckMs ?? 30_000,
    );
    heartbeat.unref();
    conflate.unref();
    sessions.unref();
    this.timers.push(heartbeat, conflate, sessions);
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  accept(socket: WebSocket, authenticate: Authenticate): void {
    const connection: Connection = {
      socket,
      authenticate,
      seq: 0,
      topics: new Set(),
      userId: null,
      sessionId: null,
      visitorId: null,
      alive: true,
      queue: Promise.resolve(),
    };
    this.connections.add(connection);
    socket.on('pong', () => (connection.alive = true));
    socket.on('message', (raw, isBinary) => {
      const text =
        isBinary || (raw as Buffer).length > MAX_MESSAGE_BYTES
          ? null
          : (raw as Buffer).toString('utf8');
      // One message at a time, in the order they came: `auth` and `subscribe` sent together must
      // find the connection signed in (auth waits for the database).
      connection.queue = connection.queue
        .then(() =>
          text === null
            ? this.reply(connection, { op: 'error', msg: 'hint_badRequest' })
            : this.handle(connection, text),
        )
        .catch((error: unknown) =>
          this.options.logger.error({ err: error }, 'WebSocket message failed'),
        );
    });
    socket.on('close', () => this.drop(connection));
    socket.on('error', () => this.drop(connection));
    this.reply(connection, { op: 'welcome' });
  }

  private drop(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    for (const topic of connection.topics) this.subscribers.get(topic)?.delete(connection);
  }

  private async handle(connection: Connection, text: string): Promise<void> {
    let message: { op?: unknown; topic?: unknown; token?: unknown; visitor?: unknown } | null;
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      message = null;
    }
    // `null`, numbers and strings are JSON too, but not messages.
    if (typeof message !== 'object' || message === null) {
      this.reply(connection, { op: 'error', msg: 'hint_badRequest' });
      return;
    }
    const topic = typeof message.topic === 'string' ? message.topic : '';
    switch (message.op) {
      case 'ping':
        this.reply(connection, { op: 'pong' });
        return;
      case 'auth': {
        if (typeof message.visitor === 'string' && message.token === undefined) {
          const visitorId =
            message.visitor.length <= 256
              ? await (this.options.authenticateVisitor?.(message.visitor) ?? null)?.catch(
                  () => null,
                )
              : null;
          connection.visitorId = visitorId ?? null;
          this.reply(
            connection,
            visitorId ? { op: 'authed' } : { op: 'error', msg: 'hint_unauthorized' },
          );
          return;
        }
        const user =
          typeof message.token === 'string' && message.token.length <= 256
            ? await connection.authenticate(message.token).catch(() => null)
            : null;
        connection.userId = user?.userId ?? null;
        connection.sessionId = user?.sessionId ?? null;
        this.reply(connection, user ? { op: 'authed' } : { op: 'error', msg: 'hint_unauthorized' });
        return;
      }
      case 'subscribe': {
        const problem = this.checkTopic(connection, topic);
        if (problem) {
          this.reply(connection, { op: 'error', topic, msg: problem });
          return;
        }
        if (!connection.topics.has(topic)) {
          connection.topics.add(topic);
          let set = this.subscribers.get(topic);
          if (!set) this.subscribers.set(topic, (set = new Set()));
          set.add(connection);
        }
        this.reply(connection, { op: 'subscribed', topic });
        return;
      }
      case 'unsubscribe':
        connection.topics.delete(topic);
        this.subscribers.get(topic)?.delete(connection);
        this.reply(connection, { op: 'unsubscribed', topic });
        return;
      default:
        this.reply(connection, { op: 'error', msg: 'hint_badRequest' });
    }
  }

  private checkTopic(connection: Connection, topic: string): string | null {
    if (connection.topics.has(topic)) return null;
    if (connection.topics.size >= this.maxSubscriptions) return 'hint_tooManySubscriptions';
    if (PRIVATE_TOPICS.includes(topic))
      return connection.userId || (topic === VISITOR_TOPIC && connection.visitorId)
        ? null
        : 'hint_unauthorized';
    const [kind, type, code, interval, ...rest] = topic.split(':');
    const typeOk = PRODUCT_TYPES.includes(Number(type) as never);
    if (kind === 'tickers' && typeOk && code === undefined) return null;
    const codeOk =
      code !== undefined &&
      /^[A-Z0-9.]{1,16}$/.test(code) &&
      (this.options.productExists?.(Number(type), code) ?? true);
    if (kind === 'ticker' && typeOk && codeOk && interval === undefined) return null;
    if (
      kind === 'kline' &&
      typeOk &&
      codeOk &&
      CANDLE_INTERVALS.includes(interval as CandleInterval) &&
      rest.length === 0
    ) {
      return null;
    }
    return 'hint_topicUnknown';
  }

  /** Sends one of this connection's own messages (replies, heartbeats). */
  private reply(connection: Connection, message: Record<string, unknown>): void {
    connection.seq += 1;
    this.write(connection, JSON.stringify({ ...message, seq: connection.seq }));
  }

  private write(connection: Connection, text: string): void {
    this.writeFrame(connection, textFrame(text));
  }

  /**
   * Queues a frame for a connection. Frames are built once per message, not once per subscriber,
   * and every frame a connection gets within one turn of the event loop (a tick burst) leaves in
   * one write at the end of the turn: one system call per connection instead of one per message,
   * which is most of the cost of fan-out. They go straight to the TCP socket: the server never
   * compresses nor fragments (perMessageDeflate is off), so ws has nothing queued they could
   * overtake, and replies take the same path, so order is kept.
   */
  private writeFrame(connection: Connection, frame: Buffer): void {
    const socket = connection.socket;
    if (socket.readyState !== socket.OPEN) return;
    let frames = this.pending.get(connection);
    if (!frames) {
      // Only what earlier turns sent counts against the bound: this turn's burst is still here.
      if (socket.bufferedAmount > this.maxBufferedBytes) {
        this.options.logger.info(
          { buffered: socket.bufferedAmount },
          'slow WebSocket consumer dropped',
        );
        this.drop(connection);
        socket.terminate();
        return;
      }
      this.pending.set(connection, (frames = []));
      if (this.pending.size === 1) queueMicrotask(() => this.flushPending());
    }
    frames.push(frame);
    this.delivered += 1;
  }

  private flushPending(): void {
    for (const [connection, frames] of this.pending) {
      const raw = (connection.socket as unknown as { _socket?: { write(data: Buffer): boolean } })
        ._socket;
      if (!raw || connection.socket.readyState !== connection.socket.OPEN) continue;
      raw.write(frames.length === 1 ? frames[0]! : Buffer.concat(frames));
    }
    this.pending.clear();
  }

  /** Sends `data` to every subscriber of `topic`, serialising it once. */
  publish(topic: string, data: unknown): void {
    const set = this.subscribers.get(topic);
    if (!set || set.size === 0) return;
    const seq = (this.topicSeq.get(topic) ?? 0) + 1;
    this.topicSeq.set(topic, seq);
    const frame = textFrame(
      `{"op":"data","topic":${JSON.stringify(topic)},"seq":${seq},"data":${JSON.stringify(data)}}`,
    );
    for (const connection of set) this.writeFrame(connection, frame);
  }

  /**
   * Sends `data` on a private topic to the connections of one user that subscribed to it. Each
   * user's topic counts its own sequence, so a gap means that user missed a message.
   */
  publishToUser(userId: number, topic: string, data: unknown): void {
    const set = this.subscribers.get(topic);
    if (!set || set.size === 0 || !PRIVATE_TOPICS.includes(topic)) return;
    let frame: Buffer | undefined;
    for (const connection of set) {
      if (connection.userId !== userId) continue;
      if (!frame) {
        const key = `${topic}#${userId}`;
        const seq = (this.topicSeq.get(key) ?? 0) + 1;
        this.topicSeq.set(key, seq);
        frame = textFrame(
          `{"op":"data","topic":${JSON.stringify(topic)},"seq":${seq},"data":${JSON.stringify(data)}}`,
        );
      }
      this.writeFrame(connection, frame);
    }
  }

  /** Sends `data` on the visitor topic to the sockets of one customer-service visitor. */
  publishToVisitor(visitorId: number, data: unknown): void {
    const set = this.subscribers.get(VISITOR_TOPIC);
    if (!set || set.size === 0) return;
    let frame: Buffer | undefined;
    for (const connection of set) {
      if (connection.visitorId !== visitorId || connection.userId) continue;
      if (!frame) {
        const key = `${VISITOR_TOPIC}#visitor:${visitorId}`;
        const seq = (this.topicSeq.get(key) ?? 0) + 1;
        this.topicSeq.set(key, seq);
        frame = textFrame(
          `{"op":"data","topic":"${VISITOR_TOPIC}","seq":${seq},"data":${JSON.stringify(data)}}`,
        );
      }
      this.writeFrame(connection, frame);
    }
  }

  /**
   * Signs out every socket of these sessions, on this instance: each is told why and which
   * private topics it no longer receives, and stops receiving them at once.
   */
  endSessions(event: SessionsEnded): void {
    const ended = new Set(event.sessionIds);
    for (const connection of this.connections)
      if (connection.sessionId !== null && ended.has(connection.sessionId))
        this.signOut(connection, event.msg);
  }

  /** Asks which sessions of signed-in sockets ended (expired, or an announcement lost). */
  async checkSessions(): Promise<void> {
    if (!this.options.endedSessions) return;
    const ids = new Set<number>();
    for (const connection of this.connections)
      if (connection.sessionId !== null) ids.add(connection.sessionId);
    if (ids.size === 0) return;
    const ended = await this.options.endedSessions([...ids]);
    for (const connection of this.connections) {
      const msg = connection.sessionId === null ? undefined : ended.get(connection.sessionId);
      if (msg) this.signOut(connection, msg);
    }
  }

  private signOut(connection: Connection, msg: string): void {
    const dropped: string[] = [];
    for (const topic of connection.topics) {
      if (!PRIVATE_TOPICS.includes(topic)) continue;
      connection.topics.delete(topic);
      this.subscribers.get(topic)?.delete(connection);
      dropped.push(topic);
    }
    connection.userId = null;
    connection.sessionId = null;
    this.reply(connection, { op: 'error', msg, signedOut: true, topics: dropped });
  }

  /** Fans a tick out to its ticker and k-line topics and queues it for the conflated lists. */
  onTick(event: TickEvent): void {
    const { product, ticker, candles } = event;
    const base = `${product.product_type}:${product.product_code}`;
    this.publish(`ticker:${base}`, {
      productType: product.product_type,
      productCode: product.product_code,
      tickerInfo: ticker,
    });
    for (const interval of CANDLE_INTERVALS) {
      const candle = candles[interval];
      if (candle && this.subscribers.get(`kline:${base}:${interval}`)?.size) {
        this.publish(`kline:${base}:${interval}`, {
          productType: product.product_type,
          productCode: product.product_code,
          interval,
          candle,
        });
      }
    }
    if (this.subscribers.get(`tickers:${product.product_type}`)?.size) {
      let pending = this.pendingTickers.get(product.product_type);
      if (!pending) this.pendingTickers.set(product.product_type, (pending = new Map()));
      pending.set(product.product_code, { productCode: product.product_code, tickerInfo: ticker });
    }
  }

  private sendTickers(): void {
    for (const [productType, pending] of this.pendingTickers) {
      if (pending.size === 0) continue;
      this.publish(`tickers:${productType}`, { productType, tickers: [...pending.values()] });
      pending.clear();
    }
  }

  private heartbeat(): void {
    for (const connection of this.connections) {
      if (!connection.alive) {
        this.drop(connection);
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
      this.reply(connection, { op: 'ping' });
    }
  }

  close(): void {
    for (const timer of this.timers) clearInterval(timer);
    for (const connection of this.connections)
      connection.socket.close(1001, 'server shutting down');
    this.connections.clear();
    this.subscribers.clear();
  }
}
