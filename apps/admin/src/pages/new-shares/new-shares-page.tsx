/**
 * New shares and new coins (admin, finance): the offerings, newest first, of a product type or a
 * status, each with its terms, window and times and its book so far (subscribers, lots asked,
 * funds frozen). An offering is created and changed in offering-editor.tsx until its window
 * opens; its subscriptions are watched in a drawer; once allocated, the allocation as published
 * (rule, seed, input, result) is shown and recomputed in the browser. Until the allocation runs
 * an offering may be cancelled with the reason its subscribers read (every hold released at
 * once). Nothing here sets an allocation or a price: the rule and the feed do. Every change is in
 * the audit log.
 */
import { Fragment, useState } from 'react';
import { App, Button, Select, Space, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  OFFERING_STATUS,
  consoleNewSharesApi,
  normalize,
  offeringCancelBody,
  type ConsoleOffering,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, ToolbarRow } from '../../components/cells';
import { DataTable, ListError } from '../../components/data-table';
import { RefreshButton } from '../../components/list-controls';
import { ReasonDialog } from '../../components/reason-dialog';
import { percent } from '../../components/settings/parts';
import { formatAmount, formatTime } from '../../lib/format';
import { AllocationDrawer } from './allocation-drawer';
import { OfferingEditor } from './offering-editor';
import {
  OfferingStatusTag,
  PAGE_SIZE,
  allocated,
  cancellable,
  editable,
  nameOf,
  phaseOf,
} from './parts';
import { SubscriptionsDrawer } from './subscriptions-drawer';

/**
 * The list reads itself again this often while shown: windows open and close, subscriptions come
 * in and allocations run by the clock.
 */
const REFRESH_MS = 5_000;
/** The reason's bound in offeringCancelBody (the schema checks it before sending). */
const CANCEL_REASON_MAX = 500;

type Opened =
  | { kind: 'edit'; offering?: ConsoleOffering }
  | { kind: 'subscriptions' | 'allocation' | 'cancel'; offering: ConsoleOffering };

function TypeSelect({ value, onChange }: { value?: number; onChange(value?: number): void }) {
  const { t } = useTranslation();
  return (
    <Select
      allowClear
      style={{ width: 160 }}
      placeholder={t('newShares.allTypes')}
      value={value}
      onChange={onChange}
      options={[1, 2].map((type) => ({ value: type, label: t(`newShares.type.${type as 1}`) }))}
      data-testid="new-shares-type"
    />
  );
}

function StatusSelect({ value, onChange }: { value?: number; onChange(value?: number): void }) {
  const { t } = useTranslation();
  return (
    <Select
      allowClear
      style={{ width: 190 }}
      placeholder={t('newShares.allStatuses')}
      value={value}
      onChange={onChange}
      options={Object.values(OFFERING_STATUS).map((status) => ({
        value: status,
        label: t(`newShares.status.${status}`),
      }))}
      data-testid="new-shares-status"
    />
  );
}

/** An offering's four times, one a line, each after its label. */
function Times({ row }: { row: ConsoleOffering }) {
  const { t } = useTranslation();
  const times = [
    ['subscribeStart', row.subscribeStart],
    ['subscribeEnd', row.subscribeEnd],
    ['allocationTime', row.allocationTime],
    ['listingTime', row.listingTime],
  ] as const;
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'auto auto',
        columnGap: 8,
        lineHeight: 1.5,
        whiteSpace: 'nowrap',
      }}
    >
      {times.map(([field, iso]) => (
        <Fragment key={field}>
          <Muted small>{t(`newShares.field.${field}`)}</Muted>
          <span style={{ fontSize: 12 }} data-testid={`new-share-${field}-${row.id}`}>
            {formatTime(iso)}
          </span>
        </Fragment>
      ))}
    </div>
  );
}

export default function NewSharesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [pageNum, setPageNum] = useState(1);
  const [productType, setProductType] = useState<number>();
  const [status, setStatus] = useState<number>();
  const [opened, setOpened] = useState<Opened>();
  const input = { pageNum, pageSize: PAGE_SIZE, productType, status };
  const list = useQuery({
    queryKey: ['newShares', 'offerings', input],
    queryFn: () => api.call(consoleNewSharesApi.offerings, input),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
  });
  const fetchedAt = list.dataUpdatedAt;
  // A drawer shows the offering as the list last read it (its book's figures move on).
  const current = (offering: ConsoleOffering) =>
    list.data?.rows.find((row) => row.id === offering.id) ?? offering;

  const columns = [
    {
      title: t('newShares.field.offering'),
      key: 'offering',
      render: (_: unknown, row: ConsoleOffering) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid={`new-share-row-${row.id}`}>
            {row.code}
          </Typography.Text>
          <span>{nameOf(row.name)}</span>
          <Muted small>{t(`newShares.type.${row.productType as 1}`)}</Muted>
        </Space>
      ),
    },
    {
      title: t('newShares.field.price'),
      key: 'price',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleOffering) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span data-testid={`new-share-price-${row.id}`}>
            {formatAmount(row.price, row.currency)}
          </span>
          {normalize(row.feeRate) !== '0' && (
            <Muted small>{t('newShares.feeLine', { rate: percent(row.feeRate) })}</Muted>
          )}
        </Space>
      ),
    },
    {
      title: t('newShares.field.offered'),
      key: 'offered',
      render: (_: unknown, row: ConsoleOffering) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span data-testid={`new-share-offered-${row.id}`}>
            {t('newShares.lotsLine', { lots: row.lotsOffered, size: row.lotSize })}
          </span>
          <Muted small>{t('newShares.perUserLine', { min: row.minLots, max: row.maxLots })}</Muted>
          {row.lockUpDays > 0 && (
            <Muted small>{t('newShares.lockLine', { days: row.lockUpDays })}</Muted>
          )}
        </Space>
      ),
    },
    {
      title: t('newShares.field.times'),
      key: 'times',
      render: (_: unknown, row: ConsoleOffering) => <Times row={row} />,
    },
    {
      title: t('newShares.field.status'),
      key: 'status',
      render: (_: unknown, row: ConsoleOffering) => (
        <Space direction="vertical" size={2} style={{ maxWidth: 160 }}>
          <OfferingStatusTag
            phase={phaseOf(row, fetchedAt)}
            testId={`new-share-status-${row.id}`}
          />
          {row.cancelReason && (
            <Muted small>
              <span data-testid={`new-share-reason-${row.id}`}>{row.cancelReason}</span>
            </Muted>
          )}
        </Space>
      ),
    },
    {
      title: t('newShares.field.book'),
      key: 'book',
      render: (_: unknown, row: ConsoleOffering) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span data-testid={`new-share-subscribers-${row.id}`}>
            {t('newShares.subscribersLine', { count: row.subscribers })}
          </span>
          <span data-testid={`new-share-requested-${row.id}`}>
            {t('newShares.requestedLine', { lots: row.lotsRequested })}
          </span>
          <Muted small>
            <span data-testid={`new-share-frozen-${row.id}`}>
              {t('newShares.frozenLine', { amount: row.frozen, currency: row.currency })}
            </span>
          </Muted>
        </Space>
      ),
    },
    {
      title: '',
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, row: ConsoleOffering) => {
        const phase = phaseOf(row, fetchedAt);
        const edit = (
          <Button
            size="small"
            disabled={!editable(phase)}
            onClick={() => setOpened({ kind: 'edit', offering: row })}
            data-testid={`new-share-edit-${row.id}`}
          >
            {t('newShares.edit')}
          </Button>
        );
        return (
          <Space direction="vertical" size={4}>
            {editable(phase) ? (
              edit
            ) : (
              <Tooltip title={t('newShares.editLocked')}>
                <span>{edit}</span>
              </Tooltip>
            )}
            <Button
              size="small"
              onClick={() => setOpened({ kind: 'subscriptions', offering: row })}
              data-testid={`new-share-subscriptions-${row.id}`}
            >
              {t('newShares.subscriptions')}
            </Button>
            {allocated(phase) && (
              <Button
                size="small"
                type="primary"
                ghost
                onClick={() => setOpened({ kind: 'allocation', offering: row })}
                data-testid={`new-share-allocation-${row.id}`}
              >
                {t('newShares.allocation')}
              </Button>
            )}
            {cancellable(phase) && (
              <Button
                size="small"
                danger
                onClick={() => setOpened({ kind: 'cancel', offering: row })}
                data-testid={`new-share-cancel-${row.id}`}
              >
                {t('newShares.cancel')}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  const cancelling = opened?.kind === 'cancel' ? opened.offering : undefined;
  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }} data-testid="new-shares-page">
      <ToolbarRow>
        <Space wrap>
          <TypeSelect
            value={productType}
            onChange={(value) => {
              setProductType(value);
              setPageNum(1);
            }}
          />
          <StatusSelect
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPageNum(1);
            }}
          />
          <RefreshButton list={list} />
        </Space>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setOpened({ kind: 'edit' })}
          data-testid="new-share-new"
        >
          {t('newShares.new')}
        </Button>
      </ToolbarRow>
      <Typography.Paragraph type="secondary">{t('newShares.help')}</Typography.Paragraph>
      <ListError error={list.error} />
      <DataTable<ConsoleOffering>
        testId="new-shares-table"
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('newShares.empty')}
        scroll={{ x: 'max-content' }}
      />
      {opened?.kind === 'edit' && (
        <OfferingEditor offering={opened.offering} onClose={() => setOpened(undefined)} />
      )}
      {opened?.kind === 'subscriptions' && (
        <SubscriptionsDrawer
          offering={current(opened.offering)}
          onClose={() => setOpened(undefined)}
        />
      )}
      {opened?.kind === 'allocation' && (
        <AllocationDrawer offering={opened.offering} onClose={() => setOpened(undefined)} />
      )}
      <ReasonDialog
        open={Boolean(cancelling)}
        title={t('newShares.cancelDialog.title', { code: cancelling?.code ?? '' })}
        okText={t('newShares.cancelDialog.ok')}
        testId="new-share-cancel"
        reasonTestId="new-share-cancel-reason"
        schema={offeringCancelBody}
        body={(reason) => ({ id: cancelling?.id, reason })}
        onSubmit={async (body) => {
          await api.call(consoleNewSharesApi.cancelOffering, body);
          void message.success(t('newShares.cancelDialog.done'));
          await queryClient.invalidateQueries({ queryKey: ['newShares'] });
        }}
        onClose={() => setOpened(undefined)}
        label={t('newShares.cancelDialog.reason')}
        help={t('newShares.cancelDialog.help')}
        maxLength={CANCEL_REASON_MAX}
        placeholder={t('newShares.cancelDialog.placeholder')}
      >
        <Typography.Paragraph type="warning" data-testid="new-share-cancel-effects">
          {t('newShares.cancelDialog.effects')}
        </Typography.Paragraph>
      </ReasonDialog>
    </div>
  );
}
