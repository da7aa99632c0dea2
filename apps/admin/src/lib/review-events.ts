/**
 * The review queues' changes as the server pushes them (operatorsApi.reviewEvents, a server-sent
 * event stream read with fetch, which sends the session's token as every call does): each change
 * of a queue this operator reads has the console read that queue again at once, so a request
 * another operator decided leaves the list, and a new one appears, within a second. While the
 * stream is down the queues fall back to reading themselves every few seconds; it reconnects on
 * its own (3 s, then longer) until the session ends.
 */
import { useSyncExternalStore } from 'react';
import { operatorsApi, requestHeaders } from '@bourse/shared';
import { requestLanguage } from '../i18n';

/** `live`: the stream is open; `off`: it is not (yet, or any more). */
export type LiveState = 'live' | 'off';

let state: LiveState = 'off';
const listeners = new Set<() => void>();

function setState(next: LiveState): void {
  if (state === next) return;
  state = next;
  for (const listener of listeners) listener();
}

/** Whether queue changes arrive as they happen (the queues then read themselves rarely). */
export function useReviewLive(): LiveState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}

export interface QueueEvent {
  queue: string;
  id: number;
  /** What changed, for queues whose pages show more than a list (`service`: the inbox). */
  data?: unknown;
}

const queueListeners = new Set<(event: QueueEvent) => void>();

/**
 * Hears every queue event of the console's one stream while it is open (the customer-service
 * inbox shows typing and plays a sound); answers the unsubscription. One stream serves every page.
 */
export function onQueueEvent(listener: (event: QueueEvent) => void): () => void {
  queueListeners.add(listener);
  return () => void queueListeners.delete(listener);
}

/** The events of a chunk of the stream's text, and what is left of an event not yet whole. */
export function parseEvents(buffer: string): {
  events: { event: string; data: string }[];
  rest: string;
} {
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events = blocks.flatMap((block) => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'event') event = value;
      else if (name === 'data') data.push(value);
    }
    return data.length > 0 ? [{ event, data: data.join('\n') }] : [];
  });
  return { events, rest };
}

const FIRST_RETRY_MS = 3_000;
const LAST_RETRY_MS = 30_000;

/**
 * Keeps the stream open for the session `token` and hands each queue change to `onQueue`; also
 * `onReconnect` after a reconnection (changes may have been missed meanwhile). Answers the stop.
 */
export function watchReviewQueues(
  token: string,
  onQueue: (event: QueueEvent) => void,
  onReconnect: () => void,
): () => void {
  let stopped = false;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let retryMs = FIRST_RETRY_MS;
  let opened = 0;

  async function connect(): Promise<void> {
    controller = new AbortController();
    let response: Response;
    try {
      response = await fetch(operatorsApi.reviewEvents.path, {
        headers: { ...requestHeaders(requestLanguage(), token), Accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
      });
    } catch {
      return retry();
    }
    // Signed out, or a role without queues: nothing to wait for (the console's calls say the rest).
    if (response.status === 401 || response.status === 403) return stop();
    if (!response.ok || !response.body) return retry();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const parsed = parseEvents(buffer + value);
        buffer = parsed.rest;
        for (const { event, data } of parsed.events) {
          if (event === 'ready') {
            setState('live');
            retryMs = FIRST_RETRY_MS;
            if (opened++ > 0) onReconnect();
          } else if (event === 'queue') {
            const queueEvent = JSON.parse(data) as QueueEvent;
            onQueue(queueEvent);
            for (const listener of queueListeners) listener(queueEvent);
          }
        }
      }
    } catch {
      // The connection broke (or the watch stopped).
    }
    retry();
  }

  function retry(): void {
    setState('off');
    if (stopped) return;
    timer = setTimeout(() => void connect(), retryMs);
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  }

  function stop(): void {
    stopped = true;
    clearTimeout(timer);
    controller?.abort();
    setState('off');
  }

  void connect();
  return stop;
}
