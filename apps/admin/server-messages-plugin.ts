/**
 * The server's texts in the console: the locale files of @bourse/shared hold every text of the
 * user app and the server's refusals. The console shows only the refusals (`hint_…`), the field
 * labels they name (`field_…`) and the network failures (`net_…`), so the build keeps those keys
 * of each locale it bundles and drops the rest (about three quarters of each file).
 */
import type { Plugin } from 'vite';

const LOCALE_FILE = /[\\/]packages[\\/]shared[\\/]locales[\\/][a-z]+\.json$/;
export const SERVER_KEY = /^(hint|field|net)_/;

export function serverMessagesPlugin(): Plugin {
  return {
    name: 'bourse-server-messages',
    enforce: 'pre',
    transform(code, id) {
      if (!LOCALE_FILE.test(id.split('?')[0]!)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const kept = Object.fromEntries(
        Object.entries(messages).filter(([key]) => SERVER_KEY.test(key)),
      );
      return { code: JSON.stringify(kept), map: null };
    },
  };
}
