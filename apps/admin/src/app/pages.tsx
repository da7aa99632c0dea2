/**
 * The console's pages, in menu order: each names the call it is built on, and the route table's
 * roles of that call decide who sees it in the menu and who may open it (lib/access.ts). Pages
 * load lazily, so the sign-in screen carries none of them.
 */
import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { AuditOutlined, DownloadOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { operatorsApi, type Route } from '@bourse/shared';

export type PageKey = 'deposits' | 'withdrawals' | 'audit' | 'account';
export type MenuGroup = 'review' | 'records' | 'self';

export interface ConsolePage {
  key: PageKey;
  /** The hash route (`#/deposits`). */
  path: string;
  group: MenuGroup;
  /** The call the page shows: its roles decide who may see the page. */
  route: Route;
  icon: ReactNode;
  component: LazyExoticComponent<ComponentType>;
}

export const consolePages: readonly ConsolePage[] = [
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
    key: 'audit',
    path: '/audit',
    group: 'records',
    route: operatorsApi.audit,
    icon: <AuditOutlined />,
    component: lazy(() => import('../pages/audit-page')),
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

export const MENU_GROUPS: readonly MenuGroup[] = ['review', 'records', 'self'];

export function pageAt(pathname: string): ConsolePage | undefined {
  return consolePages.find((page) => page.path === pathname);
}
