/**
 * The withdrawal queue (finance, admin): requests paged on the server, under review first, read
 * again every 15 s. A request opens in a drawer (components/withdrawal-review.tsx, loaded then)
 * with its destination in full, the amount, the fee and what was frozen, and the user's recent
 * activity, to mark paid or reject with a reason.
 */
import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  operatorsApi,
  WITHDRAW_STATUS,
  type ReviewedWithdraw,
  type WithdrawDestination,
} from '@bourse/shared';
import { api } from '../api';
import { errorText } from '../i18n';
import { formatAmount } from '../lib/format';
import { usePaging } from '../hooks/use-paging';
import { QueueToolbar, type StatusFilter } from '../components/queue-toolbar';
import { StatusTag } from '../components/status-tag';
import { Muted, OrderNo, TimeCell, UserCell } from '../components/cells';

const WithdrawalReview = lazy(() => import('../components/withdrawal-review'));

const QUEUE_REFRESH_MS = 15_000;

/** The destination on one line, for the table. */
function destinationLine(destination: WithdrawDestination): string {
  return destination.kind === 'bank'
    ? [destination.bankName, destination.cardNumber].filter(Boolean).join(' · ')
    : [destination.network, destination.address].filter(Boolean).join(' · ');
}

export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<StatusFilter>(WITHDRAW_STATUS.reviewing);
  const [userId, setUserId] = useState<number>();
  const [reviewing, setReviewing] = useState<ReviewedWithdraw>();
  const paging = usePaging();
  const input = {
    pageNum: paging.pageNum,
    pageSize: paging.pageSize,
    status: status === 'all' ? undefined : status,
    userId,
  };
  const list = useQuery({
    queryKey: ['withdrawals', input],
    queryFn: () => api.call(operatorsApi.withdrawals, input),
    placeholderData: keepPreviousData,
    refetchInterval: QUEUE_REFRESH_MS,
  });

  const columns: TableColumnsType<ReviewedWithdraw> = [
    { title: t('review.id'), dataIndex: 'id' },
    {
      title: t('review.orderNo'),
      dataIndex: 'orderNo',
      render: (orderNo: string) => <OrderNo value={orderNo} />,
    },
    {
      title: t('review.user'),
      render: (_, row) => <UserCell account={row.userAccount} id={row.userId} />,
    },
    {
      title: t('review.amount'),
      align: 'right',
      render: (_, row) => (
        <div style={{ lineHeight: 1.35, whiteSpace: 'nowrap' }}>
          <strong>{formatAmount(row.amount, row.currencyName)}</strong>
          <div>
            <Muted small>{t('withdrawals.feeShort', { fee: row.fee })}</Muted>
          </div>
        </div>
      ),
    },
    {
      title: t('withdrawals.destination'),
      // Cut to one line here (the drawer shows it whole); a column `ellipsis` would fix the
      // whole table's layout and squeeze the others.
      render: (_, row) => (
        <div
          style={{
            lineHeight: 1.35,
            maxWidth: 220,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
          title={destinationLine(row.destination)}
        >
          <div style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{row.channelName}</div>
          <Muted small>{destinationLine(row.destination)}</Muted>
        </div>
      ),
    },
    {
      title: t('review.submitted'),
      dataIndex: 'createTime',
      render: (iso: string) => <TimeCell iso={iso} />,
    },
    {
      title: t('review.status'),
      render: (_, row) => (
        <StatusTag kind="withdraw" status={row.status} reason={row.rejectReason} />
      ),
    },
    {
      title: '',
      align: 'right',
      render: (_, row) => (
        <Button
          type={row.status === WITHDRAW_STATUS.reviewing ? 'primary' : 'default'}
          ghost={row.status === WITHDRAW_STATUS.reviewing}
          size="small"
          onClick={() => setReviewing(row)}
          data-testid={`review-${row.id}`}
        >
          {row.status === WITHDRAW_STATUS.reviewing ? t('review.review') : t('review.view')}
        </Button>
      ),
    },
  ];

  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <QueueToolbar
        kind="withdraw"
        status={status}
        onStatus={(next) => {
          setStatus(next);
          paging.restart();
        }}
        onUser={(next) => {
          setUserId(next);
          paging.restart();
        }}
        onRefresh={() => void list.refetch()}
        refreshing={list.isFetching}
      />
      {list.isError && (
        <Alert type="error" showIcon message={errorText(list.error)} style={{ marginBottom: 16 }} />
      )}
      <Table<ReviewedWithdraw>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.rows}
        loading={list.isPending}
        pagination={paging.pagination(list.data?.total)}
        // Wider than the page (long accounts): the table scrolls, not the page.
        scroll={{ x: 'max-content' }}
        onRow={(row) => ({ onDoubleClick: () => setReviewing(row) })}
        data-testid="withdrawals-table"
      />
      {reviewing && (
        <Suspense fallback={null}>
          <WithdrawalReview record={reviewing} onClose={() => setReviewing(undefined)} />
        </Suspense>
      )}
    </div>
  );
}
