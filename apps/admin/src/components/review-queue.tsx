/**
 * A review queue (finance, admin) of one kind of request: paged on the server, under review
 * first, read again every 15 s so a request another operator decided leaves the list. The columns
 * every request has frame the kind's own; a request opens in the kind's drawer (`Review`, loaded
 * then) to decide or reject it.
 */
import { Suspense, useState, type ComponentType } from 'react';
import { Alert, Button, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../i18n';
import { usePaging } from '../hooks/use-paging';
import {
  LIST_KEY,
  listRequests,
  PAGE,
  STATUSES,
  type RequestKind,
  type RequestOf,
} from '../lib/requests';
import { QueueToolbar, type StatusFilter } from './queue-toolbar';
import { StatusTag } from './status-tag';
import { OrderNo, TimeCell, UserCell } from './cells';

const QUEUE_REFRESH_MS = 15_000;

export function ReviewQueue<K extends RequestKind>({
  kind,
  columns,
  Review,
}: {
  kind: K;
  /** The kind's own columns, between the user and the time of the request. */
  columns(t: TFunction): TableColumnsType<RequestOf[K]>;
  Review: ComponentType<{ record: RequestOf[K]; onClose(): void }>;
}) {
  const { t } = useTranslation();
  const reviewing = STATUSES[kind].reviewing;
  const [status, setStatus] = useState<StatusFilter>(reviewing);
  const [userId, setUserId] = useState<number>();
  const [opened, setOpened] = useState<RequestOf[K]>();
  const paging = usePaging();
  const input = {
    pageNum: paging.pageNum,
    pageSize: paging.pageSize,
    status: status === 'all' ? undefined : status,
    userId,
  };
  const list = useQuery({
    queryKey: [LIST_KEY[kind], input],
    queryFn: () => listRequests(kind, input),
    placeholderData: keepPreviousData,
    refetchInterval: QUEUE_REFRESH_MS,
  });

  const allColumns: TableColumnsType<RequestOf[K]> = [
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
    ...columns(t),
    {
      title: t('review.submitted'),
      dataIndex: 'createTime',
      render: (iso: string) => <TimeCell iso={iso} />,
    },
    {
      title: t('review.status'),
      render: (_, row) => <StatusTag kind={kind} status={row.status} reason={row.rejectReason} />,
    },
    {
      title: '',
      align: 'right',
      render: (_, row) => (
        <Button
          type={row.status === reviewing ? 'primary' : 'default'}
          ghost={row.status === reviewing}
          size="small"
          onClick={() => setOpened(row)}
          data-testid={`review-${row.id}`}
        >
          {row.status === reviewing ? t('review.review') : t('review.view')}
        </Button>
      ),
    },
  ];

  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <QueueToolbar
        kind={kind}
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
      <Table<RequestOf[K]>
        rowKey="id"
        columns={allColumns}
        dataSource={list.data?.rows}
        loading={list.isPending}
        pagination={paging.pagination(list.data?.total)}
        // Wider than the page (long accounts): the table scrolls, not the page.
        scroll={{ x: 'max-content' }}
        onRow={(row) => ({ onDoubleClick: () => setOpened(row) })}
        data-testid={`${PAGE[kind]}-table`}
      />
      {opened && (
        <Suspense fallback={null}>
          <Review record={opened} onClose={() => setOpened(undefined)} />
        </Suspense>
      )}
    </div>
  );
}
