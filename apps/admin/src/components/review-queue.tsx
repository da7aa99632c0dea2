/**
 * A review queue (finance, admin) of one kind of request: paged on the server, under review
 * first, read again the moment the server says the queue changed (a request submitted or
 * decided by anyone, on any instance: lib/review-events.ts), so a request another operator
 * decided leaves the list for everyone at once; without that stream, every 3 s while the console
 * is in view (and at once when it comes back into view). The
 * columns every request has frame the kind's own; a request opens in the kind's drawer (`Review`,
 * loaded then) to decide or reject it. Keyboard: ↑/↓ (or k/j) choose a request, Enter opens it,
 * r reads the queue again; in the drawer a approves (or pays), x rejects, Esc closes.
 */
import { Suspense, useState, type ComponentType } from 'react';
import { Alert, Button, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../i18n';
import { usePaging } from '../hooks/use-paging';
import { useShortcuts } from '../hooks/use-shortcuts';
import {
  LIST_KEY,
  listRequests,
  PAGE,
  STATUSES,
  type RequestKind,
  type RequestOf,
} from '../lib/requests';
import { useReviewLive } from '../lib/review-events';
import { QueueToolbar, type StatusFilter } from './queue-toolbar';
import { StatusTag } from './status-tag';
import { OrderNo, TimeCell, UserCell } from './cells';
import './review-queue.css';

/** Without the server's events: a few operators reading one page of 20 rows, near-live. */
const QUEUE_REFRESH_MS = 3_000;
/** With them: read now and then all the same, in case an event was lost. */
const QUEUE_LIVE_REFRESH_MS = 60_000;

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
  // The row chosen with the keyboard (its index on the page shown).
  const [chosen, setChosen] = useState(0);
  const paging = usePaging();
  const input = {
    pageNum: paging.pageNum,
    pageSize: paging.pageSize,
    status: status === 'all' ? undefined : status,
    userId,
  };
  const live = useReviewLive();
  const list = useQuery({
    queryKey: [LIST_KEY[kind], input],
    queryFn: () => listRequests(kind, input),
    placeholderData: keepPreviousData,
    refetchInterval: live === 'live' ? QUEUE_LIVE_REFRESH_MS : QUEUE_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
  const rows = list.data?.rows ?? [];
  const current = Math.min(chosen, Math.max(rows.length - 1, 0));
  const move = (step: number) => setChosen(Math.max(0, Math.min(rows.length - 1, current + step)));
  const openChosen = () => {
    const row = rows[current];
    if (row) setOpened(row);
  };
  useShortcuts(
    {
      ArrowDown: () => move(1),
      j: () => move(1),
      ArrowUp: () => move(-1),
      k: () => move(-1),
      Enter: openChosen,
      r: () => void list.refetch(),
    },
    // The drawer has its own keys while it is open.
    !opened,
  );

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
        live={live === 'live'}
      />
      {list.isError && (
        <Alert type="error" showIcon message={errorText(list.error)} style={{ marginBottom: 16 }} />
      )}
      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
        {t('review.keys')}
      </Typography.Text>
      <Table<RequestOf[K]>
        rowKey="id"
        columns={allColumns}
        dataSource={list.data?.rows}
        rowClassName={(_, index) => (index === current ? 'queue-row-chosen' : '')}
        loading={list.isPending}
        pagination={paging.pagination(list.data?.total)}
        // Wider than the page (long accounts): the table scrolls, not the page.
        scroll={{ x: 'max-content' }}
        onRow={(row, index) => ({
          onClick: () => setChosen(index ?? 0),
          onDoubleClick: () => setOpened(row),
          'aria-selected': index === current,
        })}
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
