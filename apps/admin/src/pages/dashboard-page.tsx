/**
 * The dashboard, the console's first page for admin, finance and support: users, deposits and
 * withdrawals, trading volume and fees (today and 30 days, with charts), open interest, open
 * fast trades, the market feed, the lease and /ws. Three calls (consoleDashboardApi), each shown
 * to the roles it admits: support sees users and the running server, finance and admin the money
 * and the trading too. Every figure comes from the server; they refresh every 15 s while the page
 * is open and visible (TanStack Query pauses the interval in a hidden tab).
 */
import { Button, Card, Col, Row, Space, Statistic, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleDashboardApi } from '@bourse/shared';
import { api } from '../api';
import { errorText } from '../i18n';
import { mayCall } from '../lib/access';
import { formatTime } from '../lib/format';
import { useOperator } from '../app/operator';
import { PageLoading } from '../components/page-loading';
import { MoneySection, PendingCards } from '../components/dashboard/money-section';
import { TradingSection } from '../components/dashboard/trading-section';
import { SystemSection } from '../components/dashboard/system-section';

const REFRESH_MS = 15_000;
const KEY = 'dashboard';

/** One call's figures, refreshed every 15 s while the page is shown. */
function useFigures<T>(name: string, fetch: () => Promise<T>, enabled: boolean) {
  return useQuery({ queryKey: [KEY, name], queryFn: fetch, enabled, refetchInterval: REFRESH_MS });
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const operator = useOperator();
  const queryClient = useQueryClient();
  const seesMoney = mayCall(operator, consoleDashboardApi.money);
  const seesTrading = mayCall(operator, consoleDashboardApi.trading);
  const overview = useFigures('overview', () => api.call(consoleDashboardApi.overview), true);
  const money = useFigures('money', () => api.call(consoleDashboardApi.money), seesMoney);
  const trading = useFigures('trading', () => api.call(consoleDashboardApi.trading), seesTrading);

  const failed = [overview, money, trading].find((query) => query.isError);
  if (overview.isPending) return <PageLoading />;
  if (!overview.data) {
    return <Typography.Paragraph type="danger">{errorText(overview.error)}</Typography.Paragraph>;
  }
  const data = overview.data;
  // The oldest of the figures on screen.
  const asOf = [data.asOf, money.data?.asOf, trading.data?.asOf]
    .filter((value): value is string => Boolean(value))
    .sort()[0]!;
  const fetching = overview.isFetching || money.isFetching || trading.isFetching;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="dashboard">
      <Row justify="space-between" align="middle" gutter={[16, 8]}>
        <Col>
          <Space size={16} wrap>
            <Typography.Text strong data-testid="dashboard-as-of">
              {t('dashboard.asOf', { time: formatTime(asOf) })}
            </Typography.Text>
            <Typography.Text type="secondary">
              {t('dashboard.today', { time: formatTime(data.dayStart) })}
            </Typography.Text>
          </Space>
        </Col>
        <Col>
          <Space size={12}>
            <Typography.Text type="secondary">{t('dashboard.autoRefresh')}</Typography.Text>
            <Button
              icon={<ReloadOutlined />}
              loading={fetching}
              onClick={() => void queryClient.invalidateQueries({ queryKey: [KEY] })}
              data-testid="dashboard-refresh"
            >
              {t('common.refresh')}
            </Button>
          </Space>
        </Col>
      </Row>
      {failed?.error && (
        <Typography.Paragraph type="danger">{errorText(failed.error)}</Typography.Paragraph>
      )}
      <Row gutter={[16, 16]}>
        <Col flex="1.6 1 280px">
          <Card style={{ height: '100%' }} data-testid="card-users">
            <Statistic title={t('dashboard.users.total')} value={data.users.total} />
            <Space size={32} style={{ marginTop: 8, whiteSpace: 'nowrap' }}>
              <Statistic
                title={t('dashboard.users.newToday')}
                value={data.users.newToday}
                valueStyle={{ fontSize: 18 }}
                data-testid="users-new-today"
              />
              <Statistic
                title={t('dashboard.users.signedInToday')}
                value={data.users.signedInToday}
                valueStyle={{ fontSize: 18 }}
                data-testid="users-signed-in-today"
              />
            </Space>
          </Card>
        </Col>
        {money.data && <PendingCards data={money.data} />}
        {trading.data && (
          <Col flex="1 1 180px">
            <Card style={{ height: '100%' }} data-testid="card-open-fast">
              <Statistic
                title={t('dashboard.cards.openFastTrades')}
                value={trading.data.openFastTrades.reduce((n, row) => n + row.orders, 0)}
              />
              <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
                {trading.data.openFastTrades.length === 0
                  ? t('dashboard.cards.nothing')
                  : trading.data.openFastTrades
                      .map((row) => `${row.stake} ${row.currencyName}`)
                      .join(' · ')}
              </Typography.Text>
            </Card>
          </Col>
        )}
        <Col flex="1 1 180px">
          <Card style={{ height: '100%' }} data-testid="card-ws">
            <Statistic
              title={t('dashboard.cards.wsConnections')}
              value={data.instance.wsConnectionsAll}
            />
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
              {data.instance.clustered
                ? t('dashboard.cards.wsHintAll', {
                    count: data.instance.instances,
                    here: data.instance.wsConnections,
                  })
                : t('dashboard.cards.wsHint')}
            </Typography.Text>
          </Card>
        </Col>
      </Row>
      {money.data && <MoneySection data={money.data} />}
      {trading.data && <TradingSection data={trading.data} />}
      <SystemSection data={data} />
      <Typography.Text type="secondary">{t('dashboard.computed')}</Typography.Text>
    </Space>
  );
}
