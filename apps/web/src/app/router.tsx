/**
 * The hash router. Only screens that exist are registered; every other path of the route table
 * (config/paths.ts) shows the not-found screen. Each screen is its own lazily loaded chunk.
 * Features never import each other: where a screen shows another feature's parts (the trading
 * forms on the quote detail, the fast trades on the positions screen), the app hands them in.
 */
import { lazy } from 'react';
import {
  createHashRouter,
  redirect,
  replace,
  type LoaderFunctionArgs,
  type RouteObject,
} from 'react-router';
import { getHref, paths, type RouteName } from '../config/paths';
import { isSignedIn } from '../api/session';
import { safeReturnPath, setNavigator } from '../lib/navigation';
import { loadChunk } from '../lib/chunks';
import { RouteErrorPage } from './route-error-page';
import { loadAllMessages } from '../i18n';
import { AppFrame } from './app-frame';
import { NotFoundPage } from './not-found-page';
import HomePage from '../features/home/home-page';
import type { HomeBlocks } from '../features/home/blocks';
import { HOME_LAYOUT_ROUTES, layoutRoute, selectedLayout, type HomeRoute } from '../lib/layout';

type Lazy = RouteObject['lazy'];

/**
 * A route's `lazy` that never rejects. react-router keeps a route whose `lazy` rejected marked as
 * still to load and then renders nothing in its place (a blank screen, not its errorElement);
 * so a screen whose code cannot load becomes a screen that throws that error when it renders,
 * which the route's errorElement shows as the reload prompt (spec section 8).
 */
function settled(load: () => Promise<React.ComponentType>): Lazy {
  return async () => {
    try {
      return { Component: await load() };
    } catch (error) {
      return {
        Component: () => {
          throw error;
        },
      };
    }
  };
}

/** A screen's chunk, with every bundled message (the first screen loads only its own). */
function screen(load: () => Promise<{ default: React.ComponentType }>): Lazy {
  return settled(async () => {
    const [{ default: Component }] = await Promise.all([loadChunk(load), loadAllMessages()]);
    return Component;
  });
}

/** A screen whose page gets parts of other features from the app. */
function screenWith<P extends object>(
  load: () => Promise<{ default: React.ComponentType<P> }>,
  props: P,
): Lazy {
  return settled(async () => {
    const [{ default: Page }] = await Promise.all([loadChunk(load), loadAllMessages()]);
    return () => <Page {...props} />;
  });
}

/** The contract and spot forms of the quote detail, each loaded when its mode is first chosen. */
const tradePanels = {
  contract: lazy(() => import('../features/trading/contract-panel')),
  spot: lazy(() => import('../features/trading/spot-panel')),
};

/** The deposit reward tiers on the deposit screen, shown before the user pays (issue 22). */
const depositRewards = lazy(() => import('../features/rewards/deposit-tiers'));

/** The recent fast trades and their countdown, on the positions screen's fast tab. */
const fastTrades = {
  List: lazy(() =>
    import('../features/market/fast-trade-list').then((module) => ({
      default: module.FastTradeList,
    })),
  ),
  Popup: lazy(() =>
    import('../features/market/fast-trade-countdown').then((module) => ({
      default: module.FastTradeCountdownPopup,
    })),
  ),
};

/**
 * Blocks of other features the home layouts show (issue 21), each loaded when first shown: the
 * app hands them in, since a feature never imports another.
 */
const homeBlocks: HomeBlocks = {
  // The news's texts are not the first screen's: it waits for every message before it shows
  // (home-k, the first screen, loads it only when scrolled to: features/home/when-visible.tsx).
  News: lazy(async () => {
    const [{ NewsBlock }] = await Promise.all([
      import('../features/content/news-block'),
      loadAllMessages(),
    ]);
    return { default: NewsBlock };
  }),
  // The notice shows the operator's lines only: no text of the app's own to wait for.
  Notice: lazy(() =>
    import('../features/content/notice-bar').then((module) => ({ default: module.NoticeBar })),
  ),
};

/**
 * The home layouts other than home-k (which comes with the app). Their texts are first-screen
 * texts (route-table-plugin.ts reads features/home), so a layout needs only its code: no wait for
 * every message before it shows.
 */
const HOME_LAYOUT_SCREENS: Record<
  Exclude<HomeRoute, 'home'>,
  () => Promise<{ default: React.ComponentType<{ blocks?: HomeBlocks }> }>
> = {
  homeDefault: () => import('../features/home/home-default-page'),
  homeJ: () => import('../features/home/home-j-page'),
  homeG: () => import('../features/home/home-g-page'),
  homeH: () => import('../features/home/home-h-page'),
};

function homeLayout(load: (typeof HOME_LAYOUT_SCREENS)['homeJ']): Lazy {
  return settled(async () => {
    const { default: Page } = await loadChunk(load);
    return () => <Page blocks={homeBlocks} />;
  });
}

// The chosen home layout, when it is not home-k, starts loading with the app (the choice is read
// from the device, no request): its code travels while the launch calls do, not after them.
{
  const chosen = HOME_LAYOUT_ROUTES[selectedLayout().home];
  if (chosen !== 'home') void HOME_LAYOUT_SCREENS[chosen]().catch(() => undefined);
}

/** Every other screen, by its route's name: each is its own chunk, loaded when first opened. */
const SCREENS: Partial<Record<RouteName, () => Promise<{ default: React.ComponentType }>>> = {
  quotes: () => import('../features/market/quotes-page'),
  quoteSearch: () => import('../features/market/search-page'),
  favorite: () => import('../features/market/favorite-page'),
  kline: () => import('../features/market/kline-page'),
  bibi: () => import('../features/trading/bibi-page'),
  bibiOrder: () => import('../features/trading/orders-page'),
  accountDetail: () => import('../features/assets/account-detail-page'),
  rechargeDetail: () => import('../features/wallet/recharge-detail-page'),
  rechargeRecord: () => import('../features/wallet/recharge-record-page'),
  linePay: () => import('../features/wallet/line-pay-page'),
  withdraw: () => import('../features/wallet/withdraw-page'),
  withdrawRecord: () => import('../features/wallet/withdraw-record-page'),
  exchange: () => import('../features/wallet/exchange-page'),
  changeRecord: () => import('../features/wallet/exchange-record-page'),
  accountRecord: () => import('../features/assets/account-record-page'),
  assetsComponent: () => import('../features/assets/assets-component-page'),
  bankCards: () => import('../features/payment-methods/bank-card-list-page'),
  bindBankCard: () => import('../features/payment-methods/bind-bank-card-page'),
  wallets: () => import('../features/payment-methods/wallets-page'),
  bindAddress: () => import('../features/payment-methods/bind-address-page'),
  me: () => import('../features/account/me-page'),
  meDefault: () => import('../features/account/me-default-page'),
  meF: () => import('../features/account/me-f-page'),
  meJ: () => import('../features/account/me-j-page'),
  meG: () => import('../features/account/me-g-page'),
  meH: () => import('../features/account/me-h-page'),
  meE: () => import('../features/account/me-e-page'),
  quoteListComponent: () => import('../features/home/quote-list-component-page'),
  previewImage: () => import('../features/system/preview-image-page'),
  chooseLocation: () => import('../features/system/choose-location-page'),
  openLocation: () => import('../features/system/open-location-page'),
  login: () => import('../features/account/login-page'),
  register: () => import('../features/account/register-page'),
  userInfo: () => import('../features/account/user-info-page'),
  change: () => import('./security-centre-page'),
  privacy: () => import('../features/account/privacy-page'),
  authentication: () => import('../features/identity/authentication-page'),
  authentication1: () => import('../features/identity/authentication1-page'),
  service: () => import('../features/service/service-page'),
  messages: () => import('../features/messages/msg-list-page'),
  messageDetail: () => import('../features/messages/msg-detail-page'),
  notifications: () => import('../features/messages/notify-list-page'),
  team: () => import('../features/referral/team-page'),
  share: () => import('../features/referral/share-page'),
  welfare: () => import('../features/rewards/welfare-page'),
  award: () => import('../features/rewards/award-page'),
  lockMining: () => import('../features/earn/lock-mining-page'),
  lockMiningProducts: () => import('../features/earn/lock-mining-products-page'),
  lockMiningDetail: () => import('../features/earn/lock-mining-detail-page'),
  lockMiningOrders: () => import('../features/earn/lock-mining-orders-page'),
  pledgeList: () => import('../features/earn/pledge-list-page'),
  pledgeDetail: () => import('../features/earn/pledge-detail-page'),
  pledgeBuy: () => import('../features/earn/pledge-buy-page'),
  pledgeOrders: () => import('../features/earn/pledge-orders-page'),
  pledgeInterest: () => import('../features/earn/pledge-interest-page'),
  loan: () => import('../features/loans/loan-page'),
  loanBuy: () => import('../features/loans/loan-buy-page'),
  loanDetail: () => import('../features/loans/loan-detail-page'),
  loanRepay: () => import('../features/loans/loan-repay-page'),
  newShares: () => import('../features/new-shares/new-shares-page'),
  newShareDetail: () => import('../features/new-shares/new-share-detail-page'),
  newShareHistory: () => import('../features/new-shares/new-share-history-page'),
  newShareAllocation: () => import('../features/new-shares/new-share-allocation-page'),
  followOrder: () => import('../features/copy-trading/trader-list-page'),
  copyTrader: () => import('../features/copy-trading/trader-page'),
  copyFollow: () => import('../features/copy-trading/follow-page'),
  copyMine: () => import('../features/copy-trading/my-copies-page'),
  copyCopies: () => import('../features/copy-trading/copies-page'),
  copySettlements: () => import('../features/copy-trading/settlements-page'),
  copyLead: () => import('../features/copy-trading/lead-page'),
  copyLeadProfile: () => import('../features/copy-trading/lead-profile-page'),
  copyLeadDashboard: () => import('../features/copy-trading/lead-dashboard-page'),
  language: () => import('../features/settings/language-page'),
  line: () => import('../features/settings/line-page'),
  networkError: () => import('../features/settings/network-error-page'),
  qa: () => import('../features/content/qa-page'),
  richText: () => import('../features/content/rich-text-page'),
  activity: () => import('../features/content/activity-page'),
  activityDetail: () => import('../features/content/activity-detail-page'),
  newsComponent: () => import('../features/content/news-page'),
};

/**
 * The screens of signed-in users. Their guard decides from the stored session, before the screen
 * loads or calls anything: signed out, the user goes to login, and back here after signing in.
 */
export const PROTECTED: ReadonlySet<RouteName> = new Set<RouteName>([
  'accountDetail',
  'recharge',
  'rechargeDetail',
  'rechargeRecord',
  'linePay',
  'withdraw',
  'withdrawRecord',
  'exchange',
  'changeRecord',
  'accountRecord',
  'assetsComponent',
  'bankCards',
  'bindBankCard',
  'wallets',
  'bindAddress',
  'userInfo',
  'change',
  'authentication',
  'authentication1',
  'bibiOrder',
  'contractPosition',
  'messages',
  'messageDetail',
  'notifications',
  'team',
  'share',
  'welfare',
  'award',
  'lockMiningOrders',
  'pledgeOrders',
  'pledgeInterest',
  'loan',
  'loanBuy',
  'loanDetail',
  'loanRepay',
  'newShareHistory',
  'copyFollow',
  'copyMine',
  'copyCopies',
  'copySettlements',
  'copyLead',
  'copyLeadProfile',
  'copyLeadDashboard',
]);

/** The path and query a loader was asked for, as the hash router names it. */
function requested({ request }: LoaderFunctionArgs): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

function requireSignIn(args: LoaderFunctionArgs) {
  if (isSignedIn()) return null;
  return redirect(getHref('login', { redirect: requested(args) }));
}

/** Login and register are for signed-out users: a signed-in user goes where login would send. */
function signedOutOnly({ request }: LoaderFunctionArgs) {
  if (!isSignedIn()) return null;
  return redirect(safeReturnPath(new URL(request.url).searchParams.get('redirect')));
}

/** A screen's guard, and the reload prompt when its code cannot load. */
function guard(name: RouteName): Pick<RouteObject, 'loader' | 'errorElement'> {
  const errorElement = <RouteErrorPage />;
  if (PROTECTED.has(name)) return { loader: requireSignIn, errorElement };
  if (name === 'login' || name === 'register') return { loader: signedOutOnly, errorElement };
  return { errorElement };
}

export const routes: RouteObject[] = [
  {
    element: <AppFrame />,
    children: [
      // The entry goes home from the router's first navigation, not from a component mounted
      // later: a launch that fails fast sends the app to the network-error page, and a redirect
      // rendered after it would take the app back home.
      // The entry opens the home layout the operator chose (lib/layout.ts), read from the device.
      { path: paths.entry, loader: () => replace(paths[layoutRoute('home')]) },
      { path: paths.entryAlias, loader: () => replace(paths[layoutRoute('home')]) },
      // The first screen comes with the app itself: one round trip less before it shows.
      { path: paths.home, element: <HomePage blocks={homeBlocks} /> },
      ...Object.entries(HOME_LAYOUT_SCREENS).map(([name, load]) => ({
        path: paths[name as RouteName],
        errorElement: <RouteErrorPage />,
        lazy: homeLayout(load),
      })),
      {
        path: paths.quoteDetail,
        ...guard('quoteDetail'),
        lazy: screenWith(() => import('../features/market/quote-detail-page'), {
          panels: tradePanels,
        }),
      },
      {
        path: paths.recharge,
        ...guard('recharge'),
        lazy: screenWith(() => import('../features/wallet/recharge-page'), {
          DepositRewards: depositRewards,
        }),
      },
      {
        path: paths.contractPosition,
        ...guard('contractPosition'),
        lazy: screenWith(() => import('../features/trading/positions-page'), { fast: fastTrades }),
      },
      ...Object.entries(SCREENS).map(([name, load]) => ({
        path: paths[name as RouteName],
        ...guard(name as RouteName),
        lazy: screen(load),
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createHashRouter(routes);
setNavigator(
  router,
  routes[0]!.children!.flatMap((route) => (route.path && route.path !== '*' ? [route.path] : [])),
);
