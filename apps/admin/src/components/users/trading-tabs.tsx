/**
 * A user's trading on their page: orders of each kind (contracts, fast trades, spot, coin-to-coin)
 * and what is open now (resting and open contracts, holdings). Read-only: the console has no lever
 * over an order, a price or an outcome (PRODUCT section 1).
 */
import { useState } from 'react';
import { Segmented, Space, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  consoleUsersApi,
  USER_ORDER_KINDS,
  type ConsoleUserHolding,
  type ConsoleUserOrder,
  type UserOrderKind,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted } from '../cells';
import { bookColumn, numColumn, orderNoColumn, timeColumn } from './columns';
import { BookFilterSwitch, bookOf } from './money-tabs';
import { PagedTable } from './paged-table';
import { Num, SignedAmount } from './user-cells';

/** Status names of each kind, by code (consoleUserOrder's status). */
type OrderStatus = 'resting' | 'open' | 'closed' | 'cancelled' | 'won' | 'lost' | 'tie' | 'filled';
const STATUS_NAMES: Record<UserOrderKind, readonly OrderStatus[]> = {
  contract: ['resting', 'open', 'closed', 'cancelled'],
  fastTrade: ['open', 'won', 'lost', 'tie'],
  spot: ['resting', 'filled', 'cancelled'],
  coin: ['resting', 'filled', 'cancelled'],
};
const STATUS_COLOURS: Record<string, string> = {
  resting: 'processing',
  open: 'processing',
  won: 'success',
  filled: 'success',
  lost: 'error',
};

function orderColumns(kind: UserOrderKind, t: TFunction): TableColumnsType<ConsoleUserOrder> {
  const fast = kind === 'fastTrade';
  const contract = kind === 'contract';
  return [
    orderNoColumn(t),
    timeColumn(t('users.time'), 'createTime'),
    bookColumn(t),
    { title: t('users.orders.product'), dataIndex: 'productCode' },
    {
      title: t('users.orders.direction'),
      dataIndex: 'direction',
      render: (direction: number) => (
        <Tag color={direction === 1 ? 'green' : 'red'} bordered={false}>
          {t(
            `users.orders.side.${fast ? 'fast' : contract ? 'contract' : 'spot'}.${direction === 1 ? 'buy' : 'sell'}`,
          )}
        </Tag>
      ),
    },
    ...(fast
      ? []
      : [
          {
            title: t('users.orders.type'),
            dataIndex: 'orderType',
            render: (type: number | null) =>
              type === 2 ? t('users.orders.limit') : t('users.orders.market'),
          },
        ]),
    {
      title: fast ? t('users.orders.stake') : t('users.orders.quantity'),
      align: 'right',
      render: (_, row) => (
        <Num value={fast ? `${row.quantity} ${row.currencyName}` : row.quantity} />
      ),
    },
    ...(contract
      ? [
          {
            title: t('users.orders.leverage'),
            dataIndex: 'leverage',
            align: 'right' as const,
            render: (value: number | null) => (value === null ? '–' : `${value}×`),
          },
        ]
      : []),
    {
      title: fast || contract ? t('users.orders.entry') : t('users.orders.fill'),
      align: 'right',
      render: (_, row) => (
        <div style={{ lineHeight: 1.35 }}>
          <Num value={row.entryPrice} />
          {row.limitPrice !== null && (
            <div>
              <Muted small>{t('users.orders.limitAt', { price: row.limitPrice })}</Muted>
            </div>
          )}
        </div>
      ),
    },
    ...(fast || contract ? [numColumn<ConsoleUserOrder>(t('users.orders.exit'), 'exitPrice')] : []),
    numColumn(t('users.orders.fee'), 'fee'),
    {
      title: t('users.orders.pnl'),
      align: 'right',
      render: (_, row) =>
        row.pnl === null ? (
          <Muted>–</Muted>
        ) : (
          <SignedAmount value={row.pnl} currency={row.currencyName} />
        ),
    },
    {
      title: t('review.status'),
      dataIndex: 'status',
      render: (status: number) => {
        const name = STATUS_NAMES[kind][status];
        if (!name) return <Tag>{status}</Tag>;
        return (
          <Tag color={STATUS_COLOURS[name] ?? 'default'}>{t(`users.orders.status.${name}`)}</Tag>
        );
      },
    },
    timeColumn(t('users.orders.closed'), 'closeTime'),
  ];
}

function OrdersTable({
  userId,
  kind,
  book,
  open,
  testId,
}: {
  userId: number;
  kind: UserOrderKind;
  book?: 'live' | 'demo';
  open?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <PagedTable<ConsoleUserOrder>
      key={`${kind}:${book ?? 'all'}:${String(open)}`}
      queryKey={['user', userId, 'orders', kind, book, open]}
      load={(page) => api.call(consoleUsersApi.orders, { id: userId, kind, book, open, ...page })}
      rowKey="id"
      columns={orderColumns(kind, t)}
      testId={testId}
    />
  );
}

export function OrdersTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<UserOrderKind>('contract');
  const [book, setBook] = useState<'all' | 'live' | 'demo'>('all');
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Space size={16} wrap>
        <Segmented<UserOrderKind>
          value={kind}
          onChange={setKind}
          options={USER_ORDER_KINDS.map((value) => ({
            value,
            label: t(`users.orders.kind.${value}`),
          }))}
          data-testid="order-kind"
        />
        <BookFilterSwitch value={book} onChange={setBook} />
      </Space>
      <OrdersTable userId={userId} kind={kind} book={bookOf(book)} testId="user-orders" />
    </Space>
  );
}

export function PositionsTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<ConsoleUserHolding> = [
    bookColumn(t),
    {
      title: t('users.orders.kindLabel'),
      dataIndex: 'positionType',
      render: (type: number) => t(`users.orders.kind.${type === 3 ? 'coin' : 'spot'}`),
    },
    { title: t('users.orders.product'), dataIndex: 'productCode' },
    numColumn(t('users.orders.quantity'), 'quantity'),
    numColumn(t('users.positions.frozen'), 'frozenQuantity'),
    numColumn(t('users.positions.cost'), 'cost'),
    timeColumn(t('users.positions.updated'), 'updateTime'),
  ];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('users.positions.contracts')}
      </Typography.Title>
      <OrdersTable userId={userId} kind="contract" open testId="user-open-contracts" />
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('users.positions.holdings')}
      </Typography.Title>
      <PagedTable<ConsoleUserHolding>
        queryKey={['user', userId, 'holdings']}
        load={(page) => api.call(consoleUsersApi.holdings, { id: userId, ...page })}
        rowKey={(row) => `${row.book}:${row.positionType}:${row.productCode}`}
        columns={columns}
        testId="user-holdings"
      />
    </Space>
  );
}
