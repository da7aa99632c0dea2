/**
 * A user's page (`#/users/:id`): the profile and the support actions, then tabs of what the
 * operator's roles may read (the route table's roles of each call): balances, ledger, deposits and
 * withdrawals (finance too), orders, positions, the security state (with an admin's reset of a
 * lost two-factor), sessions and the login history (support, admin). Every list is paged on the
 * server.
 */
import type { ReactNode } from 'react';
import { Alert, Card, Result, Spin, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { consoleUsersApi, type Route } from '@bourse/shared';
import { api } from '../api';
import { useOperator } from '../app/operator';
import { errorText } from '../i18n';
import { mayCall } from '../lib/access';
import {
  BalancesTab,
  DepositsTab,
  LedgerTab,
  WithdrawalsTab,
} from '../components/users/money-tabs';
import { OrdersTab, PositionsTab } from '../components/users/trading-tabs';
import { LoginHistoryTab, SessionsTab } from '../components/users/session-tabs';
import { SecurityTab } from '../components/users/security-tab';
import { UserProfile } from '../components/users/user-profile';

type TabKey =
  | 'balances'
  | 'ledger'
  | 'orders'
  | 'positions'
  | 'deposits'
  | 'withdrawals'
  | 'security'
  | 'sessions'
  | 'logins'
  | 'loginHistory';

export default function UserPage() {
  const { t } = useTranslation();
  const operator = useOperator();
  const userId = Number(useParams().id);
  const valid = Number.isInteger(userId) && userId > 0;
  const detail = useQuery({
    queryKey: ['user', userId, 'detail'],
    queryFn: () => api.call(consoleUsersApi.user, { id: userId }),
    enabled: valid,
  });

  if (!valid) return <Result status="404" title={t('notFound.title')} />;
  if (detail.isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (detail.isError) return <Alert type="error" showIcon message={errorText(detail.error)} />;

  const tabs: { key: TabKey; route: Route; children: ReactNode }[] = [
    { key: 'balances', route: consoleUsersApi.balances, children: <BalancesTab userId={userId} /> },
    { key: 'ledger', route: consoleUsersApi.ledger, children: <LedgerTab userId={userId} /> },
    { key: 'orders', route: consoleUsersApi.orders, children: <OrdersTab userId={userId} /> },
    {
      key: 'positions',
      route: consoleUsersApi.orders,
      children: <PositionsTab userId={userId} />,
    },
    {
      key: 'deposits',
      route: consoleUsersApi.recharges,
      children: <DepositsTab userId={userId} />,
    },
    {
      key: 'withdrawals',
      route: consoleUsersApi.withdrawals,
      children: <WithdrawalsTab userId={userId} />,
    },
    {
      key: 'security',
      route: consoleUsersApi.security,
      children: <SecurityTab userId={userId} account={detail.data.userAccount} />,
    },
    {
      key: 'sessions',
      route: consoleUsersApi.sessions,
      children: <SessionsTab userId={userId} history={false} />,
    },
    {
      key: 'logins',
      route: consoleUsersApi.sessions,
      children: <SessionsTab userId={userId} history />,
    },
    {
      key: 'loginHistory',
      route: consoleUsersApi.loginHistory,
      children: <LoginHistoryTab userId={userId} />,
    },
  ];

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <UserProfile user={detail.data} />
      <Card styles={{ body: { paddingTop: 8 } }}>
        <Tabs
          destroyOnHidden
          items={tabs
            .filter((tab) => mayCall(operator, tab.route))
            .map((tab) => ({
              key: tab.key,
              label: <span data-testid={`tab-${tab.key}`}>{t(`users.tabs.${tab.key}`)}</span>,
              children: tab.children,
            }))}
        />
      </Card>
    </div>
  );
}
