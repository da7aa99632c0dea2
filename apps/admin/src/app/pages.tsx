/**
 * The console's pages, in menu order: each names the call it is built on, and the route table's
 * roles of that call decide who sees it in the menu and who may open it (lib/access.ts). Pages
 * load lazily, so the sign-in screen carries none of them.
 */
import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import {
  AccountBookOutlined,
  ApiOutlined,
  AuditOutlined,
  BankOutlined,
  ClusterOutlined,
  ControlOutlined,
  CopyOutlined,
  CreditCardOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DollarOutlined,
  DownloadOutlined,
  FundOutlined,
  GiftOutlined,
  IdcardOutlined,
  LinkOutlined,
  MessageOutlined,
  NotificationOutlined,
  LayoutOutlined,
  PercentageOutlined,
  ReadOutlined,
  RocketOutlined,
  SafetyCertificateOutlined,
  ShareAltOutlined,
  ShopOutlined,
  SlidersOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  UploadOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { matchPath } from 'react-router';
import {
  consoleContentApi,
  consoleCopyTradingApi,
  consoleDashboardApi,
  consoleEarnApi,
  consoleIdentityApi,
  consoleLoansApi,
  consoleMessagesApi,
  consoleNewSharesApi,
  consoleReferralApi,
  consoleRewardsApi,
  consoleServiceApi,
  consoleSettingsApi,
  consoleSystemApi,
  consoleUsersApi,
  operatorsApi,
  type Route,
} from '@bourse/shared';

export type PageKey =
  | 'dashboard'
  | 'deposits'
  | 'withdrawals'
  | 'identity'
  | 'service'
  | 'serviceCanned'
  | 'serviceLines'
  | 'users'
  | 'user'
  | 'products'
  | 'fees'
  | 'fastTrade'
  | 'channels'
  | 'currencies'
  | 'switches'
  | 'otherValue'
  | 'layouts'
  | 'apiLines'
  | 'identityRequirements'
  | 'audit'
  | 'operators'
  | 'ledger'
  | 'system'
  | 'account'
  | 'content'
  | 'messages'
  | 'referral'
  | 'rewards'
  | 'earn'
  | 'loans'
  | 'newShares'
  | 'copyTrade';
export type MenuGroup =
  'overview' | 'review' | 'users' | 'content' | 'settings' | 'records' | 'platform' | 'self';

export interface ConsolePage {
  key: PageKey;
  /** The hash route (`#/deposits`). */
  path: string;
  group: MenuGroup;
  /** The call the page shows: its roles decide who may see the page. */
  route: Route;
  icon: ReactNode;
  component: LazyExoticComponent<ComponentType>;
  /**
   * A page reached from another one (a detail, `/users/:id`): not in the menu, where the page it
   * belongs to is marked while it is open.
   */
  parent?: PageKey;
}

export const consolePages: readonly ConsolePage[] = [
  {
    key: 'dashboard',
    path: '/dashboard',
    group: 'overview',
    route: consoleDashboardApi.overview,
    icon: <DashboardOutlined />,
    component: lazy(() => import('../pages/dashboard-page')),
  },
  {
    key: 'deposits',
    path: '/deposits',
    group: 'review',
    route: operatorsApi.recharges,
    icon: <DownloadOutlined />,
    component: lazy(() => import('../pages/deposits-page')),
  },
  {
    key: 'withdrawals',
    path: '/withdrawals',
    group: 'review',
    route: operatorsApi.withdrawals,
    icon: <UploadOutlined />,
    component: lazy(() => import('../pages/withdrawals-page')),
  },
  {
    key: 'identity',
    path: '/identity',
    group: 'review',
    route: consoleIdentityApi.identityRecords,
    icon: <IdcardOutlined />,
    component: lazy(() => import('../pages/identity-page')),
  },
  {
    key: 'loans',
    path: '/loans',
    group: 'review',
    route: consoleLoansApi.orders,
    icon: <CreditCardOutlined />,
    component: lazy(() => import('../pages/loans/loans-page')),
  },
  {
    key: 'service',
    path: '/service',
    group: 'review',
    route: consoleServiceApi.conversations,
    icon: <CustomerServiceOutlined />,
    component: lazy(() => import('../pages/service/inbox-page')),
  },
  {
    key: 'serviceCanned',
    path: '/service/canned',
    group: 'review',
    route: consoleServiceApi.saveCannedReply,
    icon: <MessageOutlined />,
    component: lazy(() => import('../pages/service/canned-page')),
  },

  {
    key: 'users',
    path: '/users',
    group: 'users',
    route: consoleUsersApi.users,
    icon: <TeamOutlined />,
    component: lazy(() => import('../pages/users-page')),
  },
  {
    key: 'user',
    path: '/users/:id',
    group: 'users',
    route: consoleUsersApi.user,
    icon: <UserOutlined />,
    component: lazy(() => import('../pages/user-page')),
    parent: 'users',
  },
  {
    key: 'content',
    path: '/content',
    group: 'content',
    route: consoleContentApi.contentList,
    icon: <ReadOutlined />,
    component: lazy(() => import('../pages/content/content-page')),
  },
  {
    key: 'messages',
    path: '/messages',
    group: 'content',
    route: consoleMessagesApi.messages,
    icon: <NotificationOutlined />,
    component: lazy(() => import('../pages/messages/messages-page')),
  },
  {
    key: 'referral',
    path: '/referral',
    group: 'users',
    route: consoleReferralApi.terms,
    icon: <ShareAltOutlined />,
    component: lazy(() => import('../pages/referral/referral-page')),
  },
  {
    key: 'rewards',
    path: '/rewards',
    group: 'users',
    route: consoleRewardsApi.campaigns,
    icon: <GiftOutlined />,
    component: lazy(() => import('../pages/rewards/rewards-page')),
  },
  {
    key: 'earn',
    path: '/earn',
    group: 'users',
    route: consoleEarnApi.products,
    icon: <FundOutlined />,
    component: lazy(() => import('../pages/earn/earn-page')),
  },
  {
    key: 'newShares',
    path: '/new-shares',
    group: 'users',
    route: consoleNewSharesApi.offerings,
    icon: <RocketOutlined />,
    component: lazy(() => import('../pages/new-shares/new-shares-page')),
  },
  {
    key: 'copyTrade',
    path: '/copy-trade',
    group: 'users',
    route: consoleCopyTradingApi.traders,
    icon: <CopyOutlined />,
    component: lazy(() => import('../pages/copy-trade/copy-trade-page')),
  },
  {
    key: 'products',
    path: '/settings/products',
    group: 'settings',
    route: operatorsApi.products,
    icon: <ShopOutlined />,
    component: lazy(() => import('../pages/settings/products-page')),
  },
  {
    key: 'fees',
    path: '/settings/fees',
    group: 'settings',
    route: operatorsApi.fees,
    icon: <PercentageOutlined />,
    component: lazy(() => import('../pages/settings/fees-page')),
  },
  {
    key: 'fastTrade',
    path: '/settings/fast-trade',
    group: 'settings',
    route: operatorsApi.fastTradeOptions,
    icon: <ThunderboltOutlined />,
    component: lazy(() => import('../pages/settings/fast-trade-page')),
  },
  {
    key: 'channels',
    path: '/settings/channels',
    group: 'settings',
    route: operatorsApi.withdrawChannels,
    icon: <BankOutlined />,
    component: lazy(() => import('../pages/settings/channels-page')),
  },
  {
    key: 'currencies',
    path: '/settings/currencies',
    group: 'settings',
    route: consoleSettingsApi.currencies,
    icon: <DollarOutlined />,
    component: lazy(() => import('../pages/settings/currencies-page')),
  },
  {
    key: 'identityRequirements',
    path: '/settings/identity',
    group: 'settings',
    // A setting of admins (support reads the levels through the API, and users in the app).
    route: consoleIdentityApi.saveIdentityRequirement,
    icon: <SafetyCertificateOutlined />,
    component: lazy(() => import('../pages/settings/identity-requirements-page')),
  },
  {
    key: 'serviceLines',
    path: '/settings/service-lines',
    group: 'settings',
    // An admin's setting: the app's service page lists these lines.
    route: consoleServiceApi.saveLine,
    icon: <LinkOutlined />,
    component: lazy(() => import('../pages/service/lines-page')),
  },

  {
    key: 'switches',
    path: '/settings/switches',
    group: 'settings',
    route: consoleSettingsApi.switches,
    icon: <ControlOutlined />,
    component: lazy(() => import('../pages/settings/switches-page')),
  },
  {
    key: 'otherValue',
    path: '/settings/other-value',
    group: 'settings',
    route: consoleSettingsApi.otherValue,
    icon: <SlidersOutlined />,
    component: lazy(() => import('../pages/settings/other-value-page')),
  },
  {
    key: 'layouts',
    path: '/settings/layouts',
    group: 'settings',
    route: consoleSettingsApi.layout,
    icon: <LayoutOutlined />,
    component: lazy(() => import('../pages/settings/layouts-page')),
  },
  {
    key: 'apiLines',
    path: '/settings/api-lines',
    group: 'settings',
    route: consoleSettingsApi.apiLines,
    icon: <ApiOutlined />,
    component: lazy(() => import('../pages/settings/api-lines-page')),
  },
  {
    key: 'audit',
    path: '/audit',
    group: 'records',
    route: operatorsApi.audit,
    icon: <AuditOutlined />,
    component: lazy(() => import('../pages/audit-page')),
  },
  {
    key: 'operators',
    path: '/operators',
    group: 'platform',
    route: operatorsApi.operators,
    icon: <IdcardOutlined />,
    component: lazy(() => import('../pages/operators-page')),
  },
  {
    key: 'ledger',
    path: '/ledger',
    group: 'platform',
    route: consoleSystemApi.ledgerRuns,
    icon: <AccountBookOutlined />,
    component: lazy(() => import('../pages/ledger-page')),
  },
  {
    key: 'system',
    path: '/system',
    group: 'platform',
    route: consoleSystemApi.systemInfo,
    icon: <ClusterOutlined />,
    component: lazy(() => import('../pages/system-page')),
  },
  {
    key: 'account',
    path: '/account',
    group: 'self',
    route: operatorsApi.me,
    icon: <UserOutlined />,
    component: lazy(() => import('../pages/account-page')),
  },
];

export const MENU_GROUPS: readonly MenuGroup[] = [
  'overview',
  'review',
  'users',
  'content',
  'settings',
  'records',
  'platform',
  'self',
];

/** The page at a path (`/users/42` is the `user` page). */
export function pageAt(pathname: string): ConsolePage | undefined {
  return consolePages.find((page) => matchPath(page.path, pathname) !== null);
}

/** The menu entry marked while a page is open: its own, or its parent's. */
export function menuPageOf(page: ConsolePage): ConsolePage {
  return consolePages.find((other) => other.key === page.parent) ?? page;
}
