/**
 * The hash router. Only screens that exist are registered; every other path of the route table
 * (config/paths.ts) shows the not-found screen. Each screen is its own lazily loaded chunk.
 * Features never import each other: where a screen shows another feature's parts (the trading
 * forms on the quote detail, the fast trades on the positions screen), the app hands them in.
 */
import { lazy } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { setNavigator } from '../lib/navigation';
import { AppFrame } from './app-frame';
import { NotFoundPage } from './not-found-page';
import HomePage from '../features/home/home-page';

type Lazy = RouteObject['lazy'];

function screen(load: () => Promise<{ default: React.ComponentType }>): Lazy {
  return async () => ({ Component: (await load()).default });
}

/** A screen whose page gets parts of other features from the app. */
function screenWith<P extends object>(
  load: () => Promise<{ default: React.ComponentType<P> }>,
  props: P,
): Lazy {
  return async () => {
    const { default: Page } = await load();
    return { Component: () => <Page {...props} /> };
  };
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

export const routes: RouteObject[] = [
  {
    element: <AppFrame />,
    children: [
      { path: paths.entry, element: <Navigate to={paths.home} replace /> },
      { path: paths.entryAlias, element: <Navigate to={paths.home} replace /> },
      // The first screen comes with the app itself: one round trip less before it shows.
      { path: paths.home, Component: HomePage },
      { path: paths.quotes, lazy: screen(() => import('../features/market/quotes-page')) },
      { path: paths.quoteSearch, lazy: screen(() => import('../features/market/search-page')) },
      { path: paths.favorite, lazy: screen(() => import('../features/market/favorite-page')) },
      {
        path: paths.quoteDetail,
        lazy: screenWith(() => import('../features/market/quote-detail-page'), {
          panels: tradePanels,
        }),
      },
      { path: paths.kline, lazy: screen(() => import('../features/market/kline-page')) },
      { path: paths.bibi, lazy: screen(() => import('../features/trading/bibi-page')) },
      {
        path: paths.contractPosition,
        lazy: screenWith(() => import('../features/trading/positions-page'), { fast: fastTrades }),
      },
      { path: paths.bibiOrder, lazy: screen(() => import('../features/trading/orders-page')) },
      {
        path: paths.accountDetail,
        lazy: screen(() => import('../features/assets/account-detail-page')),
      },
      { path: paths.recharge, lazy: screen(() => import('../features/wallet/recharge-page')) },
      {
        path: paths.rechargeDetail,
        lazy: screen(() => import('../features/wallet/recharge-detail-page')),
      },
      {
        path: paths.rechargeRecord,
        lazy: screen(() => import('../features/wallet/recharge-record-page')),
      },
      { path: paths.linePay, lazy: screen(() => import('../features/wallet/line-pay-page')) },
      { path: paths.withdraw, lazy: screen(() => import('../features/wallet/withdraw-page')) },
      {
        path: paths.withdrawRecord,
        lazy: screen(() => import('../features/wallet/withdraw-record-page')),
      },
      { path: paths.exchange, lazy: screen(() => import('../features/wallet/exchange-page')) },
      {
        path: paths.changeRecord,
        lazy: screen(() => import('../features/wallet/exchange-record-page')),
      },
      {
        path: paths.accountRecord,
        lazy: screen(() => import('../features/assets/account-record-page')),
      },
      {
        path: paths.assetsComponent,
        lazy: screen(() => import('../features/assets/assets-component-page')),
      },
      {
        path: paths.bankCards,
        lazy: screen(() => import('../features/payment-methods/bank-card-list-page')),
      },
      {
        path: paths.bindBankCard,
        lazy: screen(() => import('../features/payment-methods/bind-bank-card-page')),
      },
      {
        path: paths.wallets,
        lazy: screen(() => import('../features/payment-methods/wallets-page')),
      },
      {
        path: paths.bindAddress,
        lazy: screen(() => import('../features/payment-methods/bind-address-page')),
      },
      { path: paths.me, lazy: screen(() => import('../features/account/me-page')) },
      { path: paths.login, lazy: screen(() => import('../features/account/login-page')) },
      { path: paths.register, lazy: screen(() => import('../features/account/register-page')) },
      { path: paths.userInfo, lazy: screen(() => import('../features/account/user-info-page')) },
      { path: paths.change, lazy: screen(() => import('../features/account/password-page')) },
      { path: paths.privacy, lazy: screen(() => import('../features/account/privacy-page')) },
      { path: paths.language, lazy: screen(() => import('../features/settings/language-page')) },
      { path: paths.line, lazy: screen(() => import('../features/settings/line-page')) },
      {
        path: paths.networkError,
        lazy: screen(() => import('../features/settings/network-error-page')),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createHashRouter(routes);
setNavigator(
  router,
  routes[0]!.children!.flatMap((route) => (route.path && route.path !== '*' ? [route.path] : [])),
);
