/**
 * The launch flow of spec section 4: site info, tips, fee settings, the language pack and the
 * platform currencies, plus switches and, when signed in, the user. The first screen renders at
 * once from what the device kept; these calls refresh it behind. If the language pack or the
 * switches cannot be loaded, the network-error page offers a retry. The first pop-up is shown
 * once per version, on the home screen (app-frame.tsx).
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
  siteInfoQuery,
  tipsQuery,
  type PopUp,
} from '../api/launch';
import { refreshSignedInUser } from '../api/session';
import { currentLocale } from '../i18n';
import { redirectTo } from '../lib/navigation';

/** How the launch reads what screens also read (the app passes its query cache's fetches). */
export interface SharedReads {
  siteInfo(): Promise<unknown>;
  tips(): Promise<unknown>;
}

/**
 * Runs the launch calls; resolves false when the app cannot start (network-error page). The site
 * info and the tips are read through `shared`, so a screen reading them meanwhile shares the call.
 */
export async function launch(
  shared: SharedReads = { siteInfo: loadSiteInfo, tips: loadTips },
): Promise<boolean> {
  const [language, switches] = await Promise.allSettled([
    loadLanguagePack(currentLocale()),
    loadSwitches(),
    shared.siteInfo(),
    shared.tips(),
    loadFeeSettings(),
    loadPlatformCurrencies(),
    refreshSignedInUser(),
  ]);
  return language.status === 'fulfilled' && switches.status === 'fulfilled';
}

/**
 * The pop-up waiting to be shown. It shows on the home screen only: not over a deep link, and
 * never over login or register (it would take their taps); it waits until the user reaches home.
 */
let pending: PopUp | undefined;
const popUpListeners = new Set<() => void>();

function setPendingPopUp(next: PopUp | undefined): void {
  pending = next;
  for (const listener of popUpListeners) listener();
}

export function subscribePopUp(listener: () => void): () => void {
  popUpListeners.add(listener);
  return () => popUpListeners.delete(listener);
}

export function currentPopUp(): PopUp | undefined {
  return pending;
}

/** The user dismissed the pop-up: it counts as seen for its version. */
export function dismissPopUp(): void {
  if (pending) markPopUpSeen(pending);
  setPendingPopUp(undefined);
}

/** The pop-up to show, read beside the launch calls rather than after them. */
async function readPopUp(): Promise<PopUp | undefined> {
  try {
    return await loadNewPopUp();
  } catch {
    // No pop-up this time; the next launch tries again.
    return undefined;
  }
}

let running: Promise<void> | undefined;

/** Starts the launch flow unless it is already running (React may run start-up effects twice). */
export function startLaunch(queryClient: QueryClient): void {
  running ??= runLaunch(queryClient).finally(() => {
    running = undefined;
  });
}

async function runLaunch(queryClient: QueryClient): Promise<void> {
  // Shown once it is here (on home only), without waiting for the rest of the launch: a launch
  // that fails leaves home for the network-error page, where no pop-up shows.
  const popUp = readPopUp().then(setPendingPopUp);
  const startedAt = Date.now();
  const ok = await launch({
    siteInfo: () => queryClient.fetchQuery({ ...siteInfoQuery, staleTime: 0 }),
    tips: () => queryClient.fetchQuery({ ...tipsQuery, staleTime: 0 }),
  });
  if (!ok) {
    redirectTo('networkError');
    return;
  }
  // Screen data kept from before this launch is read again under the new language pack, lines
  // and switches; what was read during it (the first screen's calls) is current and stays, and a
  // call still travelling is not cancelled.
  void queryClient.invalidateQueries(
    {
      predicate: (query) =>
        query.state.fetchStatus === 'idle' && query.state.dataUpdatedAt < startedAt,
    },
    { cancelRefetch: false },
  );
  await popUp;
}
