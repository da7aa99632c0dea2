/** The console's request client, wired to the session token and the console's language. */
import { requestLanguage } from '../i18n';
import { endSession, getToken } from '../lib/session';
import { createClient } from './client';

export const api = createClient({
  token: getToken,
  language: requestLanguage,
  // The session ended (expired, signed out, password changed): back to the sign-in page, which
  // the router shows whenever there is no token.
  onUnauthorized: () => {
    if (getToken()) endSession('expired');
  },
});

export { ApiError } from './client';
