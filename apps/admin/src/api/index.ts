/** The console's request client, wired to the session token and the console's language. */
import { requestLanguage } from '../i18n';
import { endSession, getToken } from '../lib/session';
import { createClient, type ApiError } from './client';

/**
 * Refusals saying the operator must do something before any other call: choose a password (an
 * admin reset it), or set up two-factor (an admin gave them a role that requires it meanwhile).
 */
const STEP_REQUIRED = new Set(['hint_pwdChangeRequired', 'hint_twoFactorSetupRequired']);
const stepListeners = new Set<() => void>();

/**
 * Calls `listener` whenever a call is refused because the operator has a step to take first (the
 * sign-in guard reads the operator again and takes them there); answers the unsubscription.
 */
export function onStepRequired(listener: () => void): () => void {
  stepListeners.add(listener);
  return () => void stepListeners.delete(listener);
}

export const api = createClient({
  token: getToken,
  language: requestLanguage,
  // The session ended (expired, signed out, password changed): back to the sign-in page, which
  // the router shows whenever there is no token.
  onUnauthorized: () => {
    if (getToken()) endSession('expired');
  },
  onRefused: (error: ApiError) => {
    if (STEP_REQUIRED.has(error.msg)) for (const listener of stepListeners) listener();
  },
});

export { ApiError } from './client';
