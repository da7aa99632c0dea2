/**
 * The deposit queue (finance, admin): requests paged on the server, under review first, read
 * again every 15 s so a request another operator decided leaves the list. A request opens in a
 * drawer (components/deposit-review.tsx, loaded then) with its proof, its channel, amount and the
 * user's other deposits, to approve or reject with a reason.
 */
import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { operatorsApi, RECHARGE_STATUS, type ReviewedRecharge } from '@bourse/shared';
import { api } from '../api';
import { errorText } from '../i18n';
import { formatAmount } from '../lib/format';
import { usePaging } from '../hooks/use-paging';
import { ChannelCell } from '../components/channel-cell';
import { QueueToolbar, type StatusFilter } from '../components/queue-toolbar';
import { StatusTag } from '../components/status-tag';
import { OrderNo, TimeCell, UserCell } from '../components/cells';

const DepositReview = lazy(() => import('../components/deposit-review'));

const QUEUE_REFRESH_MS = 15_000;

export default function DepositsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<StatusFilter>(RECHARGE_STATUS.reviewing);
  const [userId, setUserId] = useState<number>();
  const [reviewing, setReviewing] = useState<ReviewedRecharge>();
  const paging = usePaging();
  const input = {
    pageNum: paging.pageNum,
    pageSize: paging.pageSize,
    status: status === 'all' ? undefined : status,
    userId,
  };
  const list = useQuery({
    queryKey: ['recharges', input],
    queryFn: () => api.call(operatorsApi.recharges, input),
    placeholderData: keepPreviousData,
    refetchInterval: QUEUE_REFRESH_MS,
  });

  const columns: TableColumnsType<ReviewedRecharge> = [
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
    { title: t('review.channel'), render: (_, row) => <ChannelCell record={row} /> },
    {
      title: t('review.amount'),
      align: 'right',
      render: (_, row) => (
        <strong style={{ whiteSpace: 'nowrap' }}>
          {formatAmount(row.amount, row.currencyName)}
        </strong>
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
        <StatusTag kind="recharge" status={row.status} reason={row.rejectReason} />
      ),
    },
    {
      title: '',
      align: 'right',
      render: (_, row) => (
        <Button
          type={row.status === RECHARGE_STATUS.reviewing ? 'primary' : 'default'}
          ghost={row.status === RECHARGE_STATUS.reviewing}
          size="small"
          onClick={() => setReviewing(row)}
          data-testid={`review-${row.id}`}
        >
          {row.status === RECHARGE_STATUS.reviewing ? t('review.review') : t('review.view')}
        </Button>
      ),
    },
  ];

  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <QueueToolbar
        kind="recharge"
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
      <Table<ReviewedRecharge>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.rows}
        loading={list.isPending}
        pagination={paging.pagination(list.data?.total)}
        // Wider than the page (long accounts): the table scrolls, not the page.
        scroll={{ x: 'max-content' }}
        onRow={(row) => ({ onDoubleClick: () => setReviewing(row) })}
        data-testid="deposits-table"
      />
      {reviewing && (
        <Suspense fallback={null}>
          <DepositReview record={reviewing} onClose={() => setReviewing(undefined)} />
        </Suspense>
      )}
    </div>
  );
}
