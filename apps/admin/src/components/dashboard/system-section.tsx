/**
 * The dashboard's running server: the market feed per product type (its sources, products in
 * session, the last tick and how long ago it came), the instance holding the market lease and
 * this instance's /ws connections.
 */
import { Card, Col, Descriptions, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DashboardFeedType, DashboardOverview } from '@bourse/shared';
import { formatTime } from '../../lib/format';
import { FigureTable, type FigureColumn } from './figure-table';
import { lagText } from './figures';

/** Late: no tick for this long while some product of the type is in session. */
const LATE_MS = 60_000;

function Lag({ row }: { row: DashboardFeedType }) {
  const { t } = useTranslation();
  if (row.lagMs === null) return <Tag>{t('dashboard.feed.none')}</Tag>;
  const state = row.openProducts === 0 ? 'closed' : row.lagMs > LATE_MS ? 'stale' : 'live';
  const color = { closed: 'default', stale: 'error', live: 'success' }[state];
  return (
    <Space size={6}>
      <span style={{ whiteSpace: 'nowrap' }}>{lagText(t, row.lagMs)}</span>
      <Tag color={color}>{t(`dashboard.feed.${state}`)}</Tag>
    </Space>
  );
}

function FeedCard({ feed }: { feed: DashboardOverview['feed'] }) {
  const { t } = useTranslation();
  const columns: FigureColumn<DashboardFeedType>[] = [
    {
      key: 'type',
      title: t('dashboard.feed.type'),
      render: (row) => t(`dashboard.productTypes.${row.productType}` as 'dashboard.productTypes.1'),
    },
    {
      key: 'sources',
      title: t('dashboard.feed.sources'),
      render: (row) => row.sources.map((source) => <Tag key={source}>{source}</Tag>),
    },
    {
      key: 'products',
      title: t('dashboard.feed.products'),
      align: 'right',
      render: (row) =>
        t('dashboard.feed.productsValue', { open: row.openProducts, total: row.products }),
    },
    {
      key: 'lastTick',
      title: t('dashboard.feed.lastTick'),
      render: (row) => <span style={{ whiteSpace: 'nowrap' }}>{formatTime(row.lastTickTime)}</span>,
    },
    {
      key: 'product',
      title: t('dashboard.feed.product'),
      render: (row) => row.lastTickProduct ?? '–',
    },
    {
      key: 'price',
      title: t('dashboard.feed.price'),
      align: 'right',
      render: (row) => row.lastTickPrice ?? '–',
    },
    {
      key: 'sequence',
      title: t('dashboard.feed.sequence'),
      align: 'right',
      render: (row) => (
        <Typography.Text type="secondary" style={{ fontFamily: 'monospace', fontSize: 12 }}>
          {row.lastTickSequence ?? '–'}
        </Typography.Text>
      ),
    },
    { key: 'lag', title: t('dashboard.feed.lag'), render: (row) => <Lag row={row} /> },
  ];
  return (
    <Card
      size="small"
      title={t('dashboard.feed.title')}
      style={{ height: '100%' }}
      extra={
        feed.running && (
          <Space size={4}>
            <Tag>{`${t('dashboard.feed.name')}: ${feed.name ?? '–'}`}</Tag>
            <Tag color={feed.simulated ? 'warning' : 'blue'}>
              {t(feed.simulated ? 'dashboard.feed.simulated' : 'dashboard.feed.real')}
            </Tag>
            <Tag color={feed.leader ? 'success' : 'default'}>
              {t(feed.leader ? 'dashboard.feed.leader' : 'dashboard.feed.follower')}
            </Tag>
          </Space>
        )
      }
      data-testid="feed-card"
    >
      {feed.running ? (
        <FigureTable
          columns={columns}
          rows={feed.productTypes}
          rowKey={(row) => String(row.productType)}
          testId="feed-table"
        />
      ) : (
        <Typography.Text type="secondary">{t('dashboard.feed.off')}</Typography.Text>
      )}
    </Card>
  );
}

export function SystemSection({ data }: { data: DashboardOverview }) {
  const { t } = useTranslation();
  const lease = data.lease;
  return (
    <Row gutter={16}>
      <Col span={17}>
        <FeedCard feed={data.feed} />
      </Col>
      <Col span={7}>
        <Card
          size="small"
          title={t('dashboard.instance.title')}
          style={{ height: '100%' }}
          data-testid="instance-card"
        >
          <Descriptions column={1} size="small" layout="vertical">
            <Descriptions.Item label={t('dashboard.instance.clustered')}>
              {t(
                data.instance.clustered
                  ? 'dashboard.instance.clusteredYes'
                  : 'dashboard.instance.clusteredNo',
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('dashboard.instance.lease')}>
              {lease ? (
                <Typography.Text code style={{ wordBreak: 'break-all' }}>
                  {lease.holder}
                </Typography.Text>
              ) : (
                t('dashboard.instance.noLease')
              )}
            </Descriptions.Item>
            {lease && (
              <Descriptions.Item label={t('dashboard.instance.leaseExpires')}>
                <Space size={6}>
                  {formatTime(lease.expiresAt)}
                  {lease.expired && <Tag color="error">{t('dashboard.instance.leaseExpired')}</Tag>}
                </Space>
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('dashboard.instance.ws')}>
              {data.instance.wsConnections}
            </Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
    </Row>
  );
}
