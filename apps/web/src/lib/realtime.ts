/**
 * The app's one WebSocket to `/ws` (PRODUCT section 3): topics are subscribed by whoever needs
 * them and released when the last listener goes; the socket reconnects with backoff and
 * subscribes again. Data messages carry their topic's sequence number: a gap in a topic, or a
 * reconnect, tells that topic's listeners to re-read what they show over REST (`onResync`).
 * Private topics (the user's orders, positions, balances) are subscribed once the socket has
 * signed in with the stored token. When that session ends (signed out here or elsewhere, a password
 * change, expiry) the server drops them and says so (`signedOut`): their listeners re-read over
 * REST, and the next private subscription signs in again with whatever token is stored then.
 */
import { baseUrl } from './lines';
import { getToken } from './storage';

/** Topics the server sends only to a signed-in connection, about that user. */
const PRIVATE_TOPICS = new Set(['orders', 'positions', 'balances', 'notifications', 'service']);

type Listener = (data: unknown) => void;

interface Topic {
  listeners: Set<Listener>;
  resyncs: Set<() => void>;
  /** The last sequence number seen on this connection (0: none yet). */
  lastSeq: number;
}

const topics = new Map<string, Topic>();
let socket: WebSocket | undefined;
let retryDelayMs = 1000;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let closeTimer: ReturnType<typeof setTimeout> | undefined;
/** Whether the current socket has signed in (private topics can be subscribed). */
let authed = false;
/** The token the current socket signed in (or is signing in) with. */
let authToken: string | undefined;

function socketUrl(): string {
  const base = baseUrl() || window.location.origin;
  const url = new URL('/ws', base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

function send(message: Record<string, unknown>): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

/** Signs the socket in with the stored token, unless it did with that token already. */
function signIn(): void {
  const token = getToken();
  if (!token || token === authToken || socket?.readyState !== WebSocket.OPEN) return;
  authToken = token;
  authed = false;
  send({ op: 'auth', token });
}

/** Subscribes now, or for a private topic once the socket has signed in. */
function sendSubscribe(name: string): void {
  if (PRIVATE_TOPICS.has(name)) {
    // Signed in since the socket opened (or as someone else): sign in first.
    signIn();
    if (!authed) return;
  }
  send({ op: 'subscribe', topic: name });
}

function resync(topic: Topic): void {
  for (const listener of topic.resyncs) listener();
}

function resyncAll(): void {
  for (const topic of topics.values()) resync(topic);
}

function connect(): void {
  if (socket || topics.size === 0) return;
  const current = new WebSocket(socketUrl());
  socket = current;
  authed = false;
  authToken = undefined;
  for (const topic of topics.values()) topic.lastSeq = 0;
  current.onopen = () => {
    retryDelayMs = 1000;
    signIn();
    for (const name of topics.keys()) sendSubscribe(name);
  };
  current.onmessage = (event) => {
    let message: {
      op?: string;
      topic?: string;
      seq?: number;
      data?: unknown;
      signedOut?: boolean;
      topics?: unknown;
    };
    try {
      message = JSON.parse(String(event.data)) as typeof message;
    } catch {
      return;
    }
    if (message.op === 'authed' && socket === current) {
      authed = true;
      for (const name of topics.keys()) if (PRIVATE_TOPICS.has(name)) sendSubscribe(name);
      return;
    }
    if (message.op === 'error' && message.signedOut === true && socket === current) {
      authed = false;
      authToken = undefined;
      const dropped = Array.isArray(message.topics) ? message.topics : [];
      for (const name of dropped) {
        const topic = typeof name === 'string' ? topics.get(name) : undefined;
        if (topic) resync(topic);
      }
      return;
    }
    if (message.op !== 'data' || !message.topic) return;
    const topic = topics.get(message.topic);
    if (!topic) return;
    if (typeof message.seq === 'number') {
      const gap = topic.lastSeq > 0 && message.seq !== topic.lastSeq + 1;
      topic.lastSeq = message.seq;
      if (gap) resync(topic);
    }
    for (const listener of topic.listeners) listener(message.data);
  };
  current.onclose = () => {
    if (socket !== current) return;
    socket = undefined;
    if (topics.size === 0) return;
    // Back again later; what was missed meanwhile is read over REST when it is.
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect();
      resyncAll();
    }, retryDelayMs);
    retryDelayMs = Math.min(retryDelayMs * 2, 30_000);
  };
}

/** Listens to a topic until the returned function is called. */
export function subscribe(name: string, listener: Listener, onResync?: () => void): () => void {
  let topic = topics.get(name);
  if (!topic) {
    topic = { listeners: new Set(), resyncs: new Set(), lastSeq: 0 };
    topics.set(name, topic);
    sendSubscribe(name);
  }
  topic.listeners.add(listener);
  if (onResync) topic.resyncs.add(onResync);
  if (closeTimer) clearTimeout(closeTimer);
  closeTimer = undefined;
  connect();
  return () => {
    const current = topics.get(name);
    if (!current) return;
    current.listeners.delete(listener);
    if (onResync) current.resyncs.delete(onResync);
    if (current.listeners.size > 0) return;
    topics.delete(name);
    send({ op: 'unsubscribe', topic: name });
    if (topics.size === 0 && !closeTimer) {
      // Screens hand topics to each other when navigating: close only if none comes back soon.
      closeTimer = setTimeout(() => {
        closeTimer = undefined;
        if (topics.size > 0) return;
        if (retryTimer) clearTimeout(retryTimer);
        socket?.close();
        socket = undefined;
      }, 5000);
    }
  };
}
