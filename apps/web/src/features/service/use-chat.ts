/**
 * The chat's state: the messages read so far (newest page first, older pages as the user scrolls
 * up), the ones on their way (shown at once, replaced by the server's answer, marked when they
 * fail and sent again with the same request id), what the desk pushes on `/ws` (its replies, read
 * receipts, typing), and the receipts this side sends while the screen is open.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { subscribe, setVisitor } from '../../lib/realtime';
import { isSignedIn } from '../../api/session';
import {
  fetchMessages,
  markRead,
  newRequestId,
  sendMessage,
  sendTyping,
  storedVisitor,
  visitorToken,
  type ServiceEvent,
  type ServiceMessage,
} from './api';

/** A message of this side not answered yet (or refused: `failed`). */
export interface PendingMessage {
  requestId: string;
  content?: string;
  image?: string;
  failed: boolean;
}

const PAGE_SIZE = 20;
/** How long "typing" shows after the desk's last sign of it. */
const TYPING_SHOWN_MS = 4000;
/** At most one typing sign every this often while the user types. */
const TYPING_EVERY_MS = 3000;

function merged(list: ServiceMessage[], more: ServiceMessage[]): ServiceMessage[] {
  const byId = new Map(list.map((message) => [message.id, message]));
  for (const message of more) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export function useChat() {
  const [messages, setMessages] = useState<ServiceMessage[]>([]);
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [deskTyping, setDeskTyping] = useState(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastTypingSent = useRef(0);
  const readSent = useRef(0);
  const firstRead = useRef(false);
  const signedIn = isSignedIn();

  const loadNewest = useCallback(async () => {
    try {
      const page = await fetchMessages(undefined, PAGE_SIZE);
      setMessages((list) => merged(list, page.rows));
      // The first page tells whether there is history before it; later reads only add to the end.
      if (!firstRead.current) {
        firstRead.current = true;
        setHasOlder(page.total > page.rows.length);
      }
      setLoaded(true);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  const loadOlder = useCallback(async () => {
    const first = messages[0];
    if (!first || loadingOlder || !hasOlder) return;
    setLoadingOlder(true);
    try {
      const page = await fetchMessages(first.id, PAGE_SIZE);
      setMessages((list) => merged(list, page.rows));
      setHasOlder(page.rows.length === PAGE_SIZE);
    } finally {
      setLoadingOlder(false);
    }
  }, [messages, loadingOlder, hasOlder]);

  // The socket speaks for the visitor while signed out; the desk's events arrive as they happen.
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    void (async () => {
      if (!signedIn) setVisitor(storedVisitor() ?? (await visitorToken().catch(() => undefined)));
      if (cancelled) return;
      await loadNewest();
      if (cancelled) return;
      stop = subscribe(
        'service',
        (data) => {
          const event = data as ServiceEvent;
          if (event.type === 'message') {
            setMessages((list) => merged(list, [event.message]));
            if (event.message.sender === 'operator') setDeskTyping(false);
          } else if (event.type === 'read') {
            setMessages((list) =>
              list.map((message) =>
                message.sender === 'user' && message.id <= event.readUpTo && !message.read
                  ? { ...message, read: true }
                  : message,
              ),
            );
          } else if (event.type === 'typing') {
            setDeskTyping(true);
            clearTimeout(typingTimer.current);
            typingTimer.current = setTimeout(() => setDeskTyping(false), TYPING_SHOWN_MS);
          }
        },
        () => void loadNewest(),
      );
    })();
    return () => {
      cancelled = true;
      stop?.();
      clearTimeout(typingTimer.current);
    };
  }, [signedIn, loadNewest]);

  // The desk's messages on screen are read: the desk sees the receipt.
  const lastFromDesk = [...messages].reverse().find((message) => message.sender === 'operator');
  useEffect(() => {
    if (!lastFromDesk || lastFromDesk.id <= readSent.current || document.hidden) return;
    readSent.current = lastFromDesk.id;
    void markRead(lastFromDesk.id).catch(() => (readSent.current = 0));
  }, [lastFromDesk]);

  const deliver = useCallback(async (message: PendingMessage) => {
    setPending((list) => [
      ...list.filter((other) => other.requestId !== message.requestId),
      { ...message, failed: false },
    ]);
    try {
      const sent = await sendMessage({
        content: message.content,
        image: message.image,
        requestId: message.requestId,
      });
      setMessages((list) => merged(list, [sent]));
      setPending((list) => list.filter((other) => other.requestId !== message.requestId));
    } catch {
      setPending((list) =>
        list.map((other) =>
          other.requestId === message.requestId ? { ...other, failed: true } : other,
        ),
      );
    }
  }, []);

  const send = useCallback(
    (input: { content?: string; image?: string }) => {
      // What the user types next is a new message: the desk hears it at once.
      lastTypingSent.current = 0;
      return deliver({ ...input, requestId: newRequestId(), failed: false });
    },
    [deliver],
  );

  const typing = useCallback(() => {
    const now = Date.now();
    if (now - lastTypingSent.current < TYPING_EVERY_MS) return;
    lastTypingSent.current = now;
    void sendTyping().catch(() => undefined);
  }, []);

  return {
    messages,
    pending,
    loaded,
    failed,
    hasOlder,
    loadingOlder,
    deskTyping,
    signedIn,
    loadNewest,
    loadOlder,
    send,
    retry: deliver,
    typing,
  };
}
