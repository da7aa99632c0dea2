/**
 * `useTranslation` for the screens, on the app's message store (store.ts): `t(key)` and
 * `i18n.exists(key)`, the only parts of i18next the screens ever used (i18next and react-i18next
 * weighed 14 KB gzip on a first screen budgeted at 160 KB). A screen renders again when messages
 * arrive or the language changes.
 */
import { useSyncExternalStore } from 'react';
import { messageStore, type TFunction } from './store';

const i18n = {
  exists: (key: string) => messageStore.exists(key),
  get language() {
    return messageStore.language;
  },
};

export function useTranslation(): { t: TFunction; i18n: typeof i18n; ready: true } {
  const t = useSyncExternalStore(messageStore.subscribe, messageStore.translator);
  return { t, i18n, ready: true };
}
