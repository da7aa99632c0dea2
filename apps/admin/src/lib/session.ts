/**
 * The operator's session token, kept in this browser's local storage (a reload stays signed in;
 * the server ends the session after 8 hours without use). Components follow it with `useToken`.
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

function changed(next: string | undefined): void {
  token = next;
  for (const listener of listeners) listener();
}

export function getToken(): string | undefined {
  return token;
}

export function setToken(next: string): void {
  localStorage.setItem(TOKEN_KEY, next);
  changed(next);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
  changed(undefined);
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
