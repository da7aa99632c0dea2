/**
 * The operator's session token, kept in this browser's local storage (a reload stays signed in;
 * the server ends the session after 8 hours without use). Components follow it with `useToken`;
 * how the last session ended (signed out, password changed, ended by the server) is kept until the
 * next sign-in, for the sign-in page to say.
 */
import { useSyncExternalStore } from 'react';

const TOKEN_KEY = 'bourse.console.token';
const listeners = new Set<() => void>();

function read(): string | undefined {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

let token = read();

export type SessionEnd = 'signedOut' | 'passwordChanged' | 'expired';
let ended: SessionEnd | undefined;

function changed(next: string | undefined): void {
  token = next;
  for (const listener of listeners) listener();
}

export function getToken(): string | undefined {
  return token;
}

export function setToken(next: string): void {
  ended = undefined;
  localStorage.setItem(TOKEN_KEY, next);
  changed(next);
}

/** The session is over: the sign-in guard shows the sign-in page, which says why. */
export function endSession(reason: SessionEnd): void {
  ended = reason;
  localStorage.removeItem(TOKEN_KEY);
  changed(undefined);
}

/** How the last session of this page ended, until the next sign-in. */
export function sessionEnd(): SessionEnd | undefined {
  return ended;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Signed out in another tab of the console: this one follows.
  const onStorage = (event: StorageEvent) => {
    if (event.key === TOKEN_KEY) changed(read());
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useToken(): string | undefined {
  return useSyncExternalStore(subscribe, getToken, () => undefined);
}
