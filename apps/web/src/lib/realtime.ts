/**
 * The app's one WebSocket to `/ws` (PRODUCT section 3): topics are subscribed by whoever needs
 * them and released when the last listener goes; the socket reconnects with backoff and
 * subscribes again. Data messages carry their topic's sequence number: a gap in a topic, or a
 * reconnect, tells that topic's listeners to re-read what they show over REST (`onResync`).
 * Private topics (the user's orders, positions, balances) are subscribed once the socket has
 * signed in with the stored token. When that session ends (signed out here or elsewhere, a password
 * change, expiry) the server drops them and says so (`signedOut`): their listeners re-read over
 * REST, and the next private subscription signs in again with whatever token is stored then.
 *
 * The private topics' messages only say that something changed (read it again), so one sent
 * before a subscription was live is lost for good: what a screen read before then may be stale.
 * So when the server confirms such a subscription (`subscribed`: a new one, after a reconnect, or
 * after signing in again), its listeners re-read once; and a listener that joins a topic already
 * live is told from when on its data may have missed something (the confirmation, or the topic's
 * last message, which other listeners or none heard), so a screen that starts listening after a
 * possible missed change re-reads, and one whose data was read since does not. A topic whose last
 * listener goes stays subscribed a while, so the next screen (navigating hands topics over) finds
 * it live instead of starting a new subscription that would make it read again. Public topics'
 * messages carry the new state itself (the next one repairs a missed one): they re-read on a gap
 * and when subscribed again after a reconnect.
 */
import { baseUrl } from './lines';
import { getToken } from './storage';

/** Topics the server sends only to a signed-in connection, about that user. */
const PRIVATE_TOPICS = new Set(['orders', 'positions', 'balances', 'notifications', 'service']);

type Listener = (data: unknown) => void;
/**
 * Told that the topic's data may have changed unseen: what was read before `since` (a
 * `Date.now()` moment) may be stale; what was asked for after it is not.
 */
export type Resync = (since: number) => void;

interface Topic {
  listeners: Set<Listener>;
  resyncs: Set<Resync>;
  /** The last sequence number seen on this connection (0: none yet). */
  lastSeq: number;
  /** The server confirmed the subscription on this connection: every message since comes. */
  live: boolean;
  /** When it did, or when the topic's last message came, whichever is later. */
  since: number;
  /** The server confirmed it on an earlier connection: confirmed again, it follows a reconnect. */
  confirmedBefore: boolean;
  /** Set while the topic has no listener: it is released when this fires. */
  releaseTimer?: ReturnType<typeof setTimeout>;
}

/** How long a topic whose last listener went stays subscribed, for the next screen to take over. */
const LINGER_MS = 5000;

const topics = new Map<string, Topic>();
let socket: WebSocket | undefined;
let retryDelayMs = 1000;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** Resyncs due, each with the latest moment it was given, run together in a task of their own. */
const dueResyncs = new Map<Resync, number>();
let resyncTimer: ReturnType<typeof setTimeout> | undefined;
/** Whether the current socket has signed in (private topics can be subscribed). */
let authed = false;
/** The token the current socket signed in (or is signing in) with (`visitor:…` for a visitor). */
let authToken: string | undefined;
/**
 * A signed-out customer-service visitor's token (features/service): with no session stored, the
 * socket signs in as that visitor, which the server lets hear the topic `service` only.
 */
let visitorToken: string | undefined;

/** Sets (or clears) the visitor the socket speaks for while no session is stored. */
export function setVisitor(token: string | undefined): void {
  visitorToken = token;
  for (const name of topics.keys()) if (PRIVATE_TOPICS.has(name)) sendSubscribe(name);
}

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
  const session = getToken();
  const token = session ?? (visitorToken ? `visitor:${visitorToken}` : undefined);
  if (!token || token === authToken || socket?.readyState !== WebSocket.OPEN) return;
  authToken = token;
  authed = false;
  // Signing in again (as someone else, perhaps): the private topics are live again once the
  // server confirms them for this session.
  for (const [name, topic] of topics) if (PRIVATE_TOPICS.has(name)) topic.live = false;
  send(session ? { op: 'auth', token: session } : { op: 'auth', visitor: visitorToken });
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

/**
 * Has these listeners re-read what they show. Deferred to a task of its own, so one listener of
 * several topics confirmed together (the trading screens' orders, positions and balances) reads
 * once, after all of them.
 */
function scheduleResync(resyncs: Iterable<Resync>, since: number): void {
  for (const resync of resyncs)
    dueResyncs.set(resync, Math.max(since, dueResyncs.get(resync) ?? 0));
  if (resyncTimer || dueResyncs.size === 0) return;
  resyncTimer = setTimeout(() => {
    resyncTimer = undefined;
    const due = [...dueResyncs];
    dueResyncs.clear();
    for (const [resync, moment] of due) {
      // Unless it stopped listening meanwhile.
      if ([...topics.values()].some((topic) => topic.resyncs.has(resync))) resync(moment);
    }
  }, 0);
}

function resync(topic: Topic): void {
  scheduleResync(topic.resyncs, Date.now());
}

/** Unsubscribes a topic nobody listens to, and closes the socket when none is left. */
function release(name: string): void {
  const topic = topics.get(name);
  if (!topic || topic.listeners.size > 0) return;
  if (topic.releaseTimer) clearTimeout(topic.releaseTimer);
  topics.delete(name);
  send({ op: 'unsubscribe', topic: name });
  if (topics.size > 0) return;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = undefined;
  socket?.close();
  socket = undefined;
}

function connect(): void {
  if (socket || topics.size === 0) return;
  const current = new WebSocket(socketUrl());
  socket = current;
  authed = false;
  authToken = undefined;
  for (const topic of topics.values()) {
    topic.lastSeq = 0;
    topic.live = false;
  }
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
    if (message.op === 'subscribed' && socket === current && message.topic) {
      const topic = topics.get(message.topic);
      if (!topic || topic.live) return;
      topic.live = true;
      topic.since = Date.now();
      const again = topic.confirmedBefore;
      topic.confirmedBefore = true;
      // What was read before the subscription was live may have missed a change: a private
      // topic's message only says that something changed, and none came to this socket; a public
      // topic's listeners missed the messages of the time the socket was down.
      if (again || PRIVATE_TOPICS.has(message.topic)) scheduleResync(topic.resyncs, topic.since);
      return;
    }
    if (message.op === 'error' && message.signedOut === true && socket === current) {
      authed = false;
      authToken = undefined;
      const dropped = Array.isArray(message.topics) ? message.topics : [];
      for (const name of dropped) {
        const topic = typeof name === 'string' ? topics.get(name) : undefined;
        if (!topic) continue;
        topic.live = false;
        resync(topic);
      }
      return;
    }
    if (message.op !== 'data' || !message.topic) return;
    const topic = topics.get(message.topic);
    if (!topic) return;
    // Also when nobody listens (a lingering topic): a listener that joins later was not told.
    topic.since = Date.now();
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
    // Topics nobody listens to any more are not taken back.
    for (const [name, topic] of topics) {
      topic.live = false;
      if (topic.listeners.size === 0) {
        if (topic.releaseTimer) clearTimeout(topic.releaseTimer);
        topics.delete(name);
      }
    }
    if (topics.size === 0) return;
    // Back again later; what was missed meanwhile is read over REST once the server confirms
    // the subscriptions again.
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect();
    }, retryDelayMs);
    retryDelayMs = Math.min(retryDelayMs * 2, 30_000);
  };
}

/**
 * Listens to a topic until the returned function is called. `onResync` is told when what the
 * listener shows may have missed some of the topic's news (see above), with the moment before which
 * a read may be stale.
 */
export function subscribe(name: string, listener: Listener, onResync?: Resync): () => void {
  let topic = topics.get(name);
  if (!topic) {
    topic = {
      listeners: new Set(),
      resyncs: new Set(),
      lastSeq: 0,
      live: false,
      since: 0,
      confirmedBefore: false,
    };
    topics.set(name, topic);
    sendSubscribe(name);
  } else if (!topic.live) {
    // Not subscribed on this connection (signed out, or the server refused it): ask again. A
    // request already on its way is answered twice; the second answer changes nothing.
    sendSubscribe(name);
  } else if (onResync && PRIVATE_TOPICS.has(name)) {
    // Live already: this listener's data may predate a change the topic told others, or told
    // nobody while it lingered. The listener knows when it read it.
    scheduleResync([onResync], topic.since);
  }
  if (topic.releaseTimer) clearTimeout(topic.releaseTimer);
  topic.releaseTimer = undefined;
  topic.listeners.add(listener);
  if (onResync) topic.resyncs.add(onResync);
  connect();
  return () => {
    const current = topics.get(name);
    if (!current || !current.listeners.has(listener)) return;
    current.listeners.delete(listener);
    if (onResync) current.resyncs.delete(onResync);
    if (current.listeners.size > 0 || current.releaseTimer) return;
    // Screens hand topics to each other when navigating: release it only if none takes it soon.
    current.releaseTimer = setTimeout(() => release(name), LINGER_MS);
  };
}
