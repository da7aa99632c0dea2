/**
 * An offering's subscriptions, newest first, in a drawer over the offerings: the book's figures
 * (subscribers, lots asked of those offered, funds frozen now), then each subscription with its
 * user, the opaque public id its line carries in the published allocation, the lots asked and
 * what they froze, and once allocated the lots allocated, paid and refunded. Filtered by status
 * or a user. Nothing here changes a subscription: users change or cancel their own while the
 * window is open.
 */
import { useState } from 'react';
import { Descriptions, Drawer, Input, Select, Space, Tooltip } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  SUBSCRIPTION_STATUS,
  consoleNewSharesApi,
  type ConsoleOffering,
  type ConsoleSubscription,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, OrderNo, TimeCell, ToolbarRow, UserCell } from '../../components/cells';
import { DataTable, ListError } from '../../components/data-table';
import { formatAmount } from '../../lib/format';
import { PAGE_SIZE, SubscriptionStatusTag } from './parts';

/** An amount of the subscription's currency, or '–' before the allocation has set it. */
function Money({
  value,
  row,
  testId,
}: {
  value: string | null;
  row: ConsoleSubscription;
  testId: string;
}) {
  return (
    <span data-testid={testId}>{value === null ? '–' : formatAmount(value, row.currency)}</span>
  );
}

export function SubscriptionsDrawer({
  offering,
  onClose,
}: {
  offering: ConsoleOffering;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [status, setStatus] = useState<number>();
  const [account, setAccount] = useState('');
  const [userAccount, setUserAccount] = useState<string>();
  const input = {
    offeringId: offering.id,
    pageNum,
    pageSize: PAGE_SIZE,
    status,
    userAccount,
  };
  const list = useQuery({
    queryKey: ['newShares', 'subscriptions', input],
    queryFn: () => api.call(consoleNewSharesApi.subscriptions, input),
    placeholderData: keepPreviousData,
  });

  const columns = [
    {
      title: t('newShares.subs.field.user'),
      key: 'user',
      render: (_: unknown, row: ConsoleSubscription) => (
        <UserCell account={row.userAccount} id={row.userId} />
      ),
    },
    {
      title: (
        <Tooltip title={t('newShares.subs.publicIdHelp')}>
          {t('newShares.subs.field.publicId')}
        </Tooltip>
      ),
      key: 'publicId',
      render: (_: unknown, row: ConsoleSubscription) => (
        <Space direction="vertical" size={0}>
          <span data-testid={`new-share-sub-public-${row.id}`}>
            <OrderNo value={row.publicId} />
          </span>
          <Muted small>{row.orderNo}</Muted>
        </Space>
      ),
    },
    {
      title: t('newShares.subs.field.lots'),
      key: 'lots',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleSubscription) => (
        <span data-testid={`new-share-sub-lots-${row.id}`}>{row.lots}</span>
      ),
    },
    {
      title: t('newShares.subs.field.frozen'),
      key: 'frozen',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleSubscription) => (
        <Money value={row.frozen} row={row} testId={`new-share-sub-frozen-${row.id}`} />
      ),
    },
    {
      title: t('newShares.subs.field.status'),
      key: 'status',
      render: (_: unknown, row: ConsoleSubscription) => (
        <SubscriptionStatusTag status={row.status} testId={`new-share-sub-status-${row.id}`} />
      ),
    },
    {
      title: t('newShares.subs.field.allocated'),
      key: 'allocated',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleSubscription) => (
        <span data-testid={`new-share-sub-allocated-${row.id}`}>{row.allocatedLots ?? '–'}</span>
      ),
    },
    {
      title: t('newShares.subs.field.paid'),
      key: 'paid',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleSubscription) => (
        <Money value={row.paid} row={row} testId={`new-share-sub-paid-${row.id}`} />
      ),
    },
    {
      title: t('newShares.subs.field.refunded'),
      key: 'refunded',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleSubscription) => (
        <Money value={row.refunded} row={row} testId={`new-share-sub-refunded-${row.id}`} />
      ),
    },
    {
      title: t('newShares.subs.field.updated'),
      key: 'updated',
      render: (_: unknown, row: ConsoleSubscription) => <TimeCell iso={row.updateTime} />,
    },
  ];

  return (
    <Drawer
      open
      width={1160}
      title={t('newShares.subs.title', { code: offering.code })}
      onClose={onClose}
      destroyOnHidden
      data-testid="new-share-subscriptions"
    >
      <Descriptions size="small" column={3} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('newShares.subs.subscribers')}>
          <span data-testid="new-share-subs-subscribers">{offering.subscribers}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('newShares.subs.requested')}>
          <span data-testid="new-share-subs-requested">
            {offering.lotsRequested} / {offering.lotsOffered}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('newShares.subs.frozen')}>
          <span data-testid="new-share-subs-frozen">
            {formatAmount(offering.frozen, offering.currency)}
          </span>
        </Descriptions.Item>
      </Descriptions>
      <ToolbarRow>
        <Space wrap>
          <Select
            allowClear
            style={{ width: 170 }}
            placeholder={t('newShares.allStatuses')}
            value={status}
            onChange={(value?: number) => {
              setStatus(value);
              setPageNum(1);
            }}
            options={Object.values(SUBSCRIPTION_STATUS).map((value) => ({
              value,
              label: t(`newShares.subs.status.${value}`),
            }))}
            data-testid="new-share-subs-status"
          />
          <Input.Search
            allowClear
            style={{ width: 260 }}
            placeholder={t('newShares.subs.searchUser')}
            value={account}
            onChange={(event) => setAccount(event.target.value)}
            onSearch={(value) => {
              setUserAccount(value.trim() || undefined);
              setPageNum(1);
            }}
            data-testid="new-share-subs-user"
          />
        </Space>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<ConsoleSubscription>
        testId="new-share-subs-table"
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('newShares.subs.empty')}
        scroll={{ x: 'max-content' }}
      />
    </Drawer>
  );
}
