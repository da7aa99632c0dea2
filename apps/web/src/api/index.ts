/** The app's request client, wired to device storage, the current language, toasts and routes. */
import { currentLanguage, loadAllMessages, translate } from '../i18n';
import { baseUrl } from '../lib/lines';
import { currentHref, redirectTo } from '../lib/navigation';
import { paths } from '../config/paths';
import { clearSession, getToken } from '../lib/storage';
import { showToast } from '../lib/toast';
import { ApiError, createClient } from './client';

export const api = createClient({
  baseUrl,
  token: getToken,
  language: currentLanguage,
  translate,
  toast: showToast,
  messagesReady: loadAllMessages,
  onUnauthorized() {
    clearSession();
    // To login, and back here after signing in again.
    const here = currentHref();
    if (here.split('?')[0] === paths.login) return;
    redirectTo('login', { redirect: here });
  },
});

/** Whether an error still needs telling (the client has shown or silenced all others). */
export function unhandledMessage(error: unknown): string | undefined {
  if (error instanceof ApiError)
    return error.handled ? undefined : translate(error.msg, error.params);
  return translate('net_error');
}

export { ApiError, showToast };
export type { Envelope, PagedEnvelope } from './client';
