/**
 * The dashboard's deposits and withdrawals (admin, finance): the requests under review as cards,
 * and per currency what waits and what was approved or paid today.
 */
import { Card, Col, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DashboardCurrencyMoney, DashboardMoney } from '@bourse/shared';
import { FigureTable, type FigureColumn } from './figure-table';
import { grouped, money } from './figures';

type Side = 'depositsPending' | 'withdrawalsPending';

/** The requests waiting for a decision: how many, and how much in each currency. */
export function PendingCards({ data }: { data: DashboardMoney }) {
  const { t } = useTranslation();
  const card = (side: Side) => {
    const waiting = data.currencies.filter((row) => row[side] > 0);
    return (
      <Col flex="1 1 180px">
        <Card style={{ height: '100%' }} data-testid={`card-${side}`}>
          <Statistic
            title={t(`dashboard.cards.${side}`)}
            value={data.currencies.reduce((n, row) => n + row[side], 0)}
          />
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
            {waiting.length === 0
              ? t('dashboard.cards.nothing')
              : waiting.map((row) => money(row[`${side}Amount`], row.currencyName)).join(' · ')}
          </Typography.Text>
        </Card>
      </Col>
    );
  };
  return (
    <>
      {card('depositsPending')}
      {card('withdrawalsPending')}
    </>
  );
}

/** A count and its amount in one cell. */
function CountAmount({ count, amount }: { count: number; amount: string }) {
  const { t } = useTranslation();
  return (
    <div style={{ lineHeight: 1.4, whiteSpace: 'nowrap' }}>
      <Typography.Text strong={count > 0} type={count > 0 ? undefined : 'secondary'}>
        {grouped(amount)}
      </Typography.Text>
      <div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('dashboard.money.count', { count })}
        </Typography.Text>
      </div>
    </div>
  );
}

export function MoneySection({ data }: { data: DashboardMoney }) {
  const { t } = useTranslation();
  /** A count and its amount (the row's `field` and `${field}Amount`). */
  const pair = (
    key: string,
    field:
      'depositsPending' | 'depositsApprovedToday' | 'withdrawalsPending' | 'withdrawalsPaidToday',
  ): FigureColumn<DashboardCurrencyMoney> => ({
    key,
    title: t(`dashboard.money.${key}` as 'dashboard.money.depositsPending'),
    align: 'right',
    render: (row) => <CountAmount count={row[field]} amount={row[`${field}Amount`]} />,
  });
  const columns: FigureColumn<DashboardCurrencyMoney>[] = [
    {
      key: 'currency',
      title: t('dashboard.money.currency'),
      width: 120,
      render: (row) => row.currencyName,
    },
    pair('depositsPending', 'depositsPending'),
    pair('depositsApproved', 'depositsApprovedToday'),
    pair('withdrawalsPending', 'withdrawalsPending'),
    pair('withdrawalsPaid', 'withdrawalsPaidToday'),
    {
      key: 'fee',
      title: t('dashboard.money.fee'),
      align: 'right',
      render: (row) => grouped(row.withdrawalsPaidTodayFee),
    },
  ];
  return (
    <Card title={t('dashboard.money.title')} size="small">
      <FigureTable
        columns={columns}
        rows={data.currencies}
        rowKey={(row) => String(row.currencyId)}
        rowTestId={(row) => `money-${row.currencyName}`}
        testId="money-table"
      />
    </Card>
  );
}
