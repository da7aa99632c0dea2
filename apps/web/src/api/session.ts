/**
 * The signed-in user on this device: token (`uToken`), account (`userAccount`) and `userInfo`,
 * refreshed from the server; sign-in and sign-out.
 */
import { accountApi, type SignedIn, type UserInfo } from '@bourse/shared';
import { api } from './index';
import { clearSession, getItem, getToken, setItem, STORAGE_KEY } from '../lib/storage';

export function storedUserInfo(): UserInfo | undefined {
  return getToken() ? getItem<UserInfo>(STORAGE_KEY.userInfo) : undefined;
}

export function isSignedIn(): boolean {
  return Boolean(getToken());
}

export function signIn(result: SignedIn): void {
  setItem(STORAGE_KEY.token, result.token);
  setItem(STORAGE_KEY.userAccount, result.userInfo.userAccount);
  setItem(STORAGE_KEY.userInfo, result.userInfo);
}

/** Keeps a fresh copy of the user (after a profile change or an account switch). */
export function storeUserInfo(userInfo: UserInfo): void {
  setItem(STORAGE_KEY.userInfo, userInfo);
}

/** Reads the user again; nothing to do when signed out. A revoked session answers 401. */
export async function refreshSignedInUser(): Promise<UserInfo | undefined> {
  if (!getToken()) return undefined;
  const userInfo = await api.call(accountApi.userInfo);
  storeUserInfo(userInfo);
  return userInfo;
}

/** Ends the session on the server, then forgets it here whatever the server said. */
export async function signOut(): Promise<void> {
  try {
    await api.call(accountApi.logout);
  } finally {
    clearSession();
  }
}
