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

/** Every other screen, by its route's name: each is its own chunk, loaded when first opened. */
const SCREENS: Partial<Record<RouteName, () => Promise<{ default: React.ComponentType }>>> = {
  quotes: () => import('../features/market/quotes-page'),
  quoteSearch: () => import('../features/market/search-page'),
  favorite: () => import('../features/market/favorite-page'),
  kline: () => import('../features/market/kline-page'),
  bibi: () => import('../features/trading/bibi-page'),
  bibiOrder: () => import('../features/trading/orders-page'),
  accountDetail: () => import('../features/assets/account-detail-page'),
  recharge: () => import('../features/wallet/recharge-page'),
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
  login: () => import('../features/account/login-page'),
  register: () => import('../features/account/register-page'),
  userInfo: () => import('../features/account/user-info-page'),
  change: () => import('./security-centre-page'),
  privacy: () => import('../features/account/privacy-page'),
  authentication: () => import('../features/identity/authentication-page'),
  authentication1: () => import('../features/identity/authentication1-page'),
  language: () => import('../features/settings/language-page'),
  line: () => import('../features/settings/line-page'),
  networkError: () => import('../features/settings/network-error-page'),
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
      { path: paths.entry, loader: () => replace(paths.home) },
      { path: paths.entryAlias, loader: () => replace(paths.home) },
      // The first screen comes with the app itself: one round trip less before it shows.
      { path: paths.home, Component: HomePage },
      {
        path: paths.quoteDetail,
        ...guard('quoteDetail'),
        lazy: screenWith(() => import('../features/market/quote-detail-page'), {
          panels: tradePanels,
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
