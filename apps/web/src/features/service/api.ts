/**
 * The customer-service calls (serviceApi) and who they speak for: the signed-in user, else a
 * visitor whose token the server issued and the device keeps (`serviceVisitor`). A signed-in
 * call that still carries a stored visitor token links that visitor's conversation to the
 * account; the token is then dropped, so signing out later starts a new guest chat.
 */
import {
  isServiceLineUrl,
  serviceApi as routes,
  type ServiceLine,
  type ServiceMessage,
} from '@bourse/shared';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../api';
import { isSignedIn } from '../../api/session';
import { setVisitor } from '../../lib/realtime';
import { getItem, removeItem, setItem, STORAGE_KEY } from '../../lib/storage';

export type { ServiceLine, ServiceMessage } from '@bourse/shared';

export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function storedVisitor(): string | undefined {
  return getItem<string>(STORAGE_KEY.serviceVisitor) || undefined;
}

let issuing: Promise<string> | undefined;

/** The visitor token of a signed-out device, asked of the server the first time. */
export async function visitorToken(fresh = false): Promise<string> {
  const stored = fresh ? undefined : storedVisitor();
  if (stored) return stored;
  issuing ??= api
    .call(routes.visitor)
    .then(({ visitorToken: token }) => {
      setItem(STORAGE_KEY.serviceVisitor, token);
      // The socket speaks for the new visitor too (a replaced token included).
      if (!isSignedIn()) setVisitor(token);
      return token;
    })
    .finally(() => (issuing = undefined));
  return issuing;
}

/** What identifies a signed-out caller (and, once, links a guest chat to the account). */
async function identity(): Promise<{ visitorToken?: string }> {
  if (isSignedIn()) {
    const stored = storedVisitor();
    return stored ? { visitorToken: stored } : {};
  }
  return { visitorToken: await visitorToken() };
}

/**
 * Makes a call as the current person; a visitor token the server no longer knows is replaced
 * once and the call made again. After a signed-in call, a guest chat is linked: its token goes.
 */
async function asPerson<T>(call: (who: { visitorToken?: string }) => Promise<T>): Promise<T> {
  const who = await identity();
  try {
    const result = await call(who);
    if (isSignedIn() && who.visitorToken) removeItem(STORAGE_KEY.serviceVisitor);
    return result;
  } catch (error) {
    if (!(error instanceof ApiError) || error.msg !== 'hint_visitorUnknown') throw error;
    removeItem(STORAGE_KEY.serviceVisitor);
    if (isSignedIn()) return call({});
    return call({ visitorToken: await visitorToken(true) });
  }
}

export function fetchMessages(beforeId?: number, pageSize = 20) {
  return asPerson((who) =>
    api.call(routes.messages, { ...who, beforeId, pageSize }, { catchError: true }),
  );
}

export function sendMessage(input: { content?: string; image?: string; requestId: string }) {
  return asPerson((who) => api.call(routes.send, { ...who, ...input }, { catchError: true }));
}

export function markRead(upToId: number) {
  return asPerson((who) => api.call(routes.read, { ...who, upToId }, { catchError: true }));
}

export function sendTyping() {
  return asPerson((who) => api.call(routes.typing, { ...who }, { catchError: true }));
}

/** An image of the person's own conversation, as a Blob. */
export function fetchImage(id: number): Promise<Blob> {
  return asPerson((who) => api.call(routes.image, { ...who, id }, { catchError: true }));
}

/** The desk's external lines; only https addresses of the kind's hosts are shown. */
export function useServiceLines() {
  return useQuery({
    queryKey: ['serviceLines'],
    queryFn: async (): Promise<ServiceLine[]> => {
      const { rows } = await api.call(routes.lines);
      return rows.filter((line) => isServiceLineUrl(line.kind, line.url));
    },
    staleTime: 60_000,
  });
}

/** What the desk pushes on `/ws` topic `service`. */
export type ServiceEvent =
  | { type: 'message'; message: ServiceMessage }
  | { type: 'read'; readUpTo: number }
  | { type: 'typing' };
