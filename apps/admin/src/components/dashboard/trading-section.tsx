/**
 * The dashboard's trading (admin, finance), live book: today's trades, volume and fees per kind
 * beside their 30-day totals; the 30 days as charts (lightweight-charts, loaded once the charts
 * scroll into view, so the page's first figures do not wait for it); open contract interest per
 * product and the fast trades not yet settled.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Card, Col, Empty, Row, Segmented, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type {
  DashboardOpenInterest,
  DashboardTrading,
  DashboardTradingSeries,
} from '@bourse/shared';
import { FigureTable, type FigureColumn } from './figure-table';
import { grouped, total } from './figures';
import { WhenVisible } from './when-visible';

const TradingChart = lazy(() => import('./trading-chart'));

/** Colours of the kinds, in the charts and beside their names. */
export const KIND_COLORS = ['#1677ff', '#fa8c16', '#52c41a', '#722ed1'] as const;

const CHART_HEIGHT = 260;

function KindName({ kind }: { kind: number }) {
  const { t } = useTranslation();
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <span
        style={{
          display: 'inline-block',
          width: 10,
          height: 10,
          borderRadius: 2,
          background: KIND_COLORS[kind],
          marginInlineEnd: 8,
        }}
      />
      {t(`dashboard.kinds.${kind}` as 'dashboard.kinds.0')}
    </span>
  );
}

function TodayTable({ series }: { series: DashboardTradingSeries[] }) {
  const { t } = useTranslation();
  const columns: FigureColumn<DashboardTradingSeries>[] = [
    {
      key: 'kind',
      title: t('dashboard.trading.kind'),
      render: (row) => <KindName kind={row.positionType} />,
    },
    {
      key: 'currency',
      title: t('dashboard.trading.currency'),
      width: 100,
      render: (row) => row.currencyName,
    },
    {
      key: 'trades',
      title: t('dashboard.trading.trades'),
      align: 'right',
      render: (row) => row.today.trades,
    },
    {
      key: 'volume',
      title: t('dashboard.trading.volume'),
      align: 'right',
      render: (row) => <strong>{grouped(row.today.volume)}</strong>,
    },
    {
      key: 'fees',
      title: t('dashboard.trading.fees'),
      align: 'right',
      render: (row) => grouped(row.today.fees),
    },
    {
      key: 'volume30',
      title: t('dashboard.trading.volume30'),
      align: 'right',
      render: (row) => grouped(total(row.days.map((day) => day.volume))),
    },
    {
      key: 'fees30',
      title: t('dashboard.trading.fees30'),
      align: 'right',
      render: (row) => grouped(total(row.days.map((day) => day.fees))),
    },
  ];
  return (
    <FigureTable
      columns={columns}
      rows={series}
      rowKey={(row) => `${row.positionType}:${row.currencyId}`}
      testId="trading-table"
    />
  );
}

function Charts({ data }: { data: DashboardTrading }) {
  const { t } = useTranslation();
  const currencies = [...new Set(data.series.map((row) => row.currencyName))];
  const [chosen, setChosen] = useState<string>();
  const currency = chosen && currencies.includes(chosen) ? chosen : currencies[0];
  const shown = useMemo(
    () => data.series.filter((row) => row.currencyName === currency),
    [data.series, currency],
  );
  const placeholder = (
    <div style={{ height: CHART_HEIGHT, display: 'grid', placeItems: 'center' }}>
      <Spin tip={t('dashboard.trading.chartLoading')}>
        <div style={{ width: 160 }} />
      </Spin>
    </div>
  );
  const chart = (field: 'volume' | 'fees', title: string) => (
    <Col span={12}>
      <Typography.Text strong>{title}</Typography.Text>
      <WhenVisible placeholder={placeholder}>
        <Suspense fallback={placeholder}>
          <TradingChart
            series={shown}
            field={field}
            colors={KIND_COLORS}
            height={CHART_HEIGHT}
            testId={`chart-${field}`}
          />
        </Suspense>
      </WhenVisible>
    </Col>
  );
  return (
    <Card
      size="small"
      title={t('dashboard.trading.chartsTitle')}
      extra={
        currencies.length > 1 && (
          <Segmented options={currencies} value={currency} onChange={(value) => setChosen(value)} />
        )
      }
      data-testid="trading-charts"
    >
      {shown.length === 0 ? (
        <Empty description={t('dashboard.trading.noTrades')} />
      ) : (
        <>
          <Row gutter={24}>
            {chart('volume', `${t('dashboard.trading.volumeChart')} (${currency})`)}
            {chart('fees', `${t('dashboard.trading.feesChart')} (${currency})`)}
          </Row>
          <div style={{ display: 'flex', gap: 24, marginTop: 12 }}>
            {[0, 1, 2, 3].map((kind) => (
              <KindName key={kind} kind={kind} />
            ))}
          </div>
        </>
      )}
    </Card>
  );
}

function OpenInterest({ rows }: { rows: DashboardOpenInterest[] }) {
  const { t } = useTranslation();
  const side = (name: 'long' | 'short'): FigureColumn<DashboardOpenInterest>[] => [
    {
      key: `${name}Quantity`,
      title: `${t(`dashboard.interest.${name}`)} · ${t('dashboard.interest.quantity')}`,
      align: 'right',
      render: (row) => grouped(name === 'long' ? row.longQuantity : row.shortQuantity),
    },
    {
      key: `${name}Notional`,
      title: `${t(`dashboard.interest.${name}`)} · ${t('dashboard.interest.notional')}`,
      align: 'right',
      render: (row) => grouped(name === 'long' ? row.longNotional : row.shortNotional),
    },
  ];
  const columns: FigureColumn<DashboardOpenInterest>[] = [
    {
      key: 'product',
      title: t('dashboard.interest.product'),
      render: (row) => (
        <div style={{ lineHeight: 1.35 }}>
          <div>{row.productCode}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`dashboard.productTypes.${row.productType}` as 'dashboard.productTypes.1')}
          </Typography.Text>
        </div>
      ),
    },
    {
      key: 'positions',
      title: t('dashboard.interest.positions'),
      align: 'right',
      render: (row) => row.positions,
    },
    ...side('long'),
    ...side('short'),
    {
      key: 'margin',
      title: t('dashboard.interest.margin'),
      align: 'right',
      render: (row) => `${grouped(row.margin)} ${row.currencyName}`,
    },
  ];
  return (
    <FigureTable
      columns={columns}
      rows={rows}
      rowKey={(row) => `${row.productType}:${row.productCode}:${row.currencyName}`}
      empty={t('dashboard.interest.empty')}
      testId="interest-table"
    />
  );
}

export function TradingSection({ data }: { data: DashboardTrading }) {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'grid', gap: 16 }}>
      <Card title={t('dashboard.trading.title')} size="small">
        <TodayTable series={data.series} />
        <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0', fontSize: 12 }}>
          {t('dashboard.trading.liveOnly')}
        </Typography.Paragraph>
      </Card>
      <Charts data={data} />
      <Row gutter={16}>
        <Col span={16}>
          <Card title={t('dashboard.interest.title')} size="small" style={{ height: '100%' }}>
            <OpenInterest rows={data.openInterest} />
          </Card>
        </Col>
        <Col span={8}>
          <Card title={t('dashboard.fast.title')} size="small" style={{ height: '100%' }}>
            <FigureTable
              rows={data.openFastTrades}
              rowKey={(row) => row.currencyName}
              empty={t('dashboard.fast.empty')}
              testId="open-fast-table"
              columns={[
                {
                  key: 'currency',
                  title: t('dashboard.money.currency'),
                  render: (row) => row.currencyName,
                },
                {
                  key: 'orders',
                  title: t('dashboard.fast.orders'),
                  align: 'right',
                  render: (row) => row.orders,
                },
                {
                  key: 'stake',
                  title: t('dashboard.fast.stake'),
                  align: 'right',
                  render: (row) => grouped(row.stake),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
