/**
 * `useTranslation` for the screens, on the app's message store (store.ts). The build resolves
 * `react-i18next` to this module (vite.config.ts), so the screens keep their import; they use
 * `t(key)` and `i18n.exists(key)`, which this gives with the same results. A screen renders again
 * when messages arrive or the language changes.
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
