/**
 * The launch flow of spec section 4: site info, tips, fee settings, the language pack and the
 * platform currencies, plus switches and, when signed in, the user. The first screen renders at
 * once from what the device kept; these calls refresh it behind. If the language pack or the
 * switches cannot be loaded, the network-error page offers a retry. The first pop-up is shown
 * once per version.
 */
import type { QueryClient } from '@tanstack/react-query';
import {
  loadFeeSettings,
  loadLanguagePack,
  loadNewPopUp,
  loadPlatformCurrencies,
  loadSiteInfo,
  loadSwitches,
  loadTips,
  markPopUpSeen,
} from '../api/launch';
import { refreshSignedInUser } from '../api/session';
import { currentLocale, translate } from '../i18n';
import { redirectTo } from '../lib/navigation';

/** Runs the launch calls; resolves false when the app cannot start (network-error page). */
export async function launch(): Promise<boolean> {
  const [language, switches] = await Promise.allSettled([
    loadLanguagePack(currentLocale()),
    loadSwitches(),
    loadSiteInfo(),
    loadTips(),
    loadFeeSettings(),
    loadPlatformCurrencies(),
    refreshSignedInUser(),
  ]);
  return language.status === 'fulfilled' && switches.status === 'fulfilled';
}

let popUpOpen = false;

async function showPopUp(): Promise<void> {
  if (popUpOpen) return;
  popUpOpen = true;
  try {
    await showNewPopUp();
  } catch {
    // No pop-up this time; the next launch tries again.
  } finally {
    popUpOpen = false;
  }
}

async function showNewPopUp(): Promise<void> {
  const popUp = await loadNewPopUp();
  if (!popUp) return;
  // The dialog loads only when there is a pop-up to show; it counts as seen once dismissed.
  const { Dialog } = await import('../lib/antd-render');
  await Dialog.alert({
    title: popUp.title,
    content: popUp.content,
    confirmText: translate('common_gotIt'),
  });
  markPopUpSeen(popUp);
}

let running: Promise<void> | undefined;

/** Starts the launch flow unless it is already running (React may run start-up effects twice). */
export function startLaunch(queryClient: QueryClient): void {
  running ??= launch()
    .then(async (ok) => {
      if (!ok) {
        redirectTo('networkError');
        return;
      }
      void queryClient.invalidateQueries();
      void showPopUp();
    })
    .finally(() => {
      running = undefined;
    });
}
