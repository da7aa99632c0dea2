/**
 * Earn (admin, finance): lock-mining and staking products (written in product-editor.tsx, closed to
 * new orders and opened again: open orders keep the terms they were placed with), the queue of
 * orders waiting for review (approve: interest from the next UTC day; reject with the reason the
 * user reads: the stake returns at once), every order, and the report per product of what is held
 * and paid (computed from the orders, never typed). Every change is in the audit log.
 */
import { useState } from 'react';
import { App, Button, Input, Segmented, Select, Space, Tabs, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  EARN_ORDER_STATUS,
  consoleEarnApi,
  type ConsoleEarnOrder,
  type ConsoleEarnProduct,
  type EarnKind,
  type EarnReportRow,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, OrderNo, TimeCell, ToolbarRow, UserCell } from '../../components/cells';
import { DataTable, ListError } from '../../components/data-table';
import { RejectDialog } from '../../components/reject-dialog';
import { percent } from '../../components/settings/parts';
import { currentLanguage, errorText } from '../../i18n';
import { ProductEditor } from './product-editor';

const PAGE_SIZE = 20;

const nameOf = (texts: Record<string, string>, language: string) =>
  texts[language] || texts.en || Object.values(texts)[0] || '';

const STATUS_COLOR: Record<number, string> = {
  0: 'gold',
  1: 'green',
  2: 'blue',
  3: 'red',
  4: 'default',
};

const STATUS_KEY = {
  0: 'earn.status.0',
  1: 'earn.status.1',
  2: 'earn.status.2',
  3: 'earn.status.3',
  4: 'earn.status.4',
} as const;

const statusKey = (status: number) =>
  STATUS_KEY[status as keyof typeof STATUS_KEY] ?? STATUS_KEY[0];

/** A term: its days, or flexible. */
function Term({ days }: { days: number | null }) {
  const { t } = useTranslation();
  return <>{days === null ? t('earn.flexible') : t('earn.days', { days })}</>;
}

/** An amount and its currency. */
function Amount({ value, currency, testId }: { value: string; currency: string; testId?: string }) {
  return (
    <span data-testid={testId}>
      {value} {currency}
    </span>
  );
}

type ReportAmount = 'amountHeld' | 'interestPaid' | 'interestAccrued' | 'penalties';

/** A report column of one amount in the product's currency (`testName`: its cells' test id). */
function amountColumn(title: string, field: ReportAmount, width: number, testName?: string) {
  return {
    title,
    key: field,
    width,
    align: 'end' as const,
    render: (_: unknown, row: EarnReportRow) => (
      <Amount
        value={row[field]}
        currency={row.currency}
        testId={testName && `earn-report-${testName}-${row.productId}`}
      />
    ),
  };
}

/** The filter by kind (financial or staking) a list starts from page 1 with. */
function KindSelect({
  width,
  value,
  onChange,
  testId,
}: {
  width: number;
  value?: EarnKind;
  onChange: (value?: EarnKind) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Select
      allowClear
      style={{ width }}
      placeholder={t('earn.field.kind')}
      value={value}
      onChange={onChange}
      options={(['financial', 'staking'] as const).map((kind) => ({
        value: kind,
        label: t(`earn.kind.${kind}`),
      }))}
      data-testid={testId}
    />
  );
}

/** Runs a console call: on success says `done` and refreshes every earn list, else says why. */
function useEarnAction() {
  const { message: toast } = App.useApp();
  const queryClient = useQueryClient();
  return async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
      void toast.success(done);
      await queryClient.invalidateQueries({ queryKey: ['earn'] });
    } catch (error) {
      void toast.error(errorText(error));
    }
  };
}

function ProductsTable() {
  const { t } = useTranslation();
  const act = useEarnAction();
  const language = currentLanguage();
  const [pageNum, setPageNum] = useState(1);
  const [kind, setKind] = useState<EarnKind>();
  const [editing, setEditing] = useState<ConsoleEarnProduct | EarnKind>();
  const list = useQuery({
    queryKey: ['earn', 'products', pageNum, kind],
    queryFn: () => api.call(consoleEarnApi.products, { pageNum, pageSize: PAGE_SIZE, kind }),
    placeholderData: keepPreviousData,
  });

  const setStatus = (row: ConsoleEarnProduct, status: 0 | 1) =>
    act(
      () => api.call(consoleEarnApi.productStatus, { id: row.id, status }),
      t(status === 1 ? 'earn.opened' : 'earn.closed'),
    );

  const columns = [
    {
      title: t('earn.field.name'),
      key: 'name',
      render: (_: unknown, row: ConsoleEarnProduct) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid={`earn-product-row-${row.id}`}>
            {nameOf(row.name, language)}
          </Typography.Text>
          <Muted small>
            {t(`earn.kind.${row.kind}`)} · <Term days={row.termDays} /> ·{' '}
            {row.compounding ? t('earn.compounding') : t(`earn.payout.${row.payout}`)}
          </Muted>
        </Space>
      ),
    },
    {
      title: t('earn.field.dailyRate'),
      key: 'rate',
      width: 150,
      render: (_: unknown, row: ConsoleEarnProduct) => (
        <Space direction="vertical" size={0}>
          <span data-testid={`earn-product-rate-${row.id}`}>{percent(row.dailyRate)}</span>
          {row.rateTiers.length > 0 && (
            <Muted small>{t('earn.tierCount', { count: row.rateTiers.length })}</Muted>
          )}
        </Space>
      ),
    },
    {
      title: t('earn.field.bounds'),
      key: 'bounds',
      width: 200,
      render: (_: unknown, row: ConsoleEarnProduct) =>
        `${row.minAmount} – ${row.maxAmount ?? '∞'} ${row.currency}`,
    },
    {
      title: t('earn.field.held'),
      key: 'held',
      width: 210,
      align: 'end' as const,
      render: (_: unknown, row: ConsoleEarnProduct) => (
        <span data-testid={`earn-product-held-${row.id}`}>
          {row.held}
          {row.capacity !== null ? ` / ${row.capacity}` : ''} {row.currency}
        </span>
      ),
    },
    {
      title: t('earn.field.orders'),
      key: 'orders',
      width: 130,
      render: (_: unknown, row: ConsoleEarnProduct) =>
        t('earn.ordersCount', { active: row.activeOrders, pending: row.pendingOrders }),
    },
    {
      title: t('earn.field.status'),
      key: 'status',
      width: 100,
      render: (_: unknown, row: ConsoleEarnProduct) => (
        <Tag
          color={row.status === 1 ? 'green' : 'default'}
          data-testid={`earn-product-status-${row.id}`}
        >
          {t(row.status === 1 ? 'earn.open' : 'earn.closedTag')}
        </Tag>
      ),
    },
    {
      title: '',
      key: 'actions',
      width: 180,
      render: (_: unknown, row: ConsoleEarnProduct) => (
        <Space>
          <Button
            size="small"
            onClick={() => setEditing(row)}
            data-testid={`earn-product-edit-${row.id}`}
          >
            {t('earn.edit')}
          </Button>
          <Button
            size="small"
            danger={row.status === 1}
            onClick={() => void setStatus(row, row.status === 1 ? 0 : 1)}
            data-testid={`earn-product-toggle-${row.id}`}
          >
            {t(row.status === 1 ? 'earn.close' : 'earn.reopen')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="earn-products">
      <ToolbarRow>
        <Space wrap>
          <KindSelect
            width={180}
            value={kind}
            onChange={(value) => {
              setKind(value);
              setPageNum(1);
            }}
            testId="earn-products-kind"
          />
          <Typography.Text type="secondary">{t('earn.help')}</Typography.Text>
        </Space>
        <Space>
          <Button
            icon={<PlusOutlined />}
            onClick={() => setEditing('staking')}
            data-testid="earn-new-staking"
          >
            {t('earn.newStaking')}
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing('financial')}
            data-testid="earn-new-financial"
          >
            {t('earn.newFinancial')}
          </Button>
        </Space>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<ConsoleEarnProduct>
        testId="earn-products-table"
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('earn.noProducts')}
      />
      {editing && (
        <ProductEditor
          product={typeof editing === 'string' ? undefined : editing}
          kind={typeof editing === 'string' ? editing : editing.kind}
          onClose={() => setEditing(undefined)}
        />
      )}
    </div>
  );
}

/** Orders: the review queue (status 0, oldest first) or every order, filtered. */
function OrdersTable({ queue }: { queue: boolean }) {
  const { t } = useTranslation();
  const { message: toast } = App.useApp();
  const queryClient = useQueryClient();
  const [pageNum, setPageNum] = useState(1);
  const [kind, setKind] = useState<EarnKind>();
  const [status, setStatus] = useState<number>();
  const [account, setAccount] = useState('');
  const [userAccount, setUserAccount] = useState<string>();
  const [rejecting, setRejecting] = useState<ConsoleEarnOrder>();
  const shownStatus = queue ? EARN_ORDER_STATUS.pending : status;
  const list = useQuery({
    queryKey: ['earn', 'orders', queue, pageNum, kind, shownStatus, userAccount],
    queryFn: () =>
      api.call(consoleEarnApi.orders, {
        pageNum,
        pageSize: PAGE_SIZE,
        kind,
        status: shownStatus,
        userAccount,
      }),
    placeholderData: keepPreviousData,
  });

  const act = useEarnAction();
  const approve = (row: ConsoleEarnOrder) =>
    act(() => api.call(consoleEarnApi.approveOrder, { id: row.id }), t('earn.approved'));

  const columns = [
    {
      title: t('earn.field.user'),
      key: 'user',
      width: 200,
      render: (_: unknown, row: ConsoleEarnOrder) => (
        <UserCell account={row.userAccount} id={row.userId} />
      ),
    },
    {
      title: t('earn.field.order'),
      key: 'order',
      render: (_: unknown, row: ConsoleEarnOrder) => (
        <Space direction="vertical" size={0}>
          <span>{row.productName}</span>
          <OrderNo value={row.orderNo} />
          {row.demo && <Tag>{t('earn.demo')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('earn.field.amount'),
      key: 'amount',
      width: 170,
      align: 'end' as const,
      render: (_: unknown, row: ConsoleEarnOrder) => (
        <Amount value={row.amount} currency={row.currency} testId={`earn-order-amount-${row.id}`} />
      ),
    },
    {
      title: t('earn.field.terms'),
      key: 'terms',
      width: 190,
      render: (_: unknown, row: ConsoleEarnOrder) => (
        <Space direction="vertical" size={0}>
          <span>
            {percent(row.dailyRate)} · <Term days={row.termDays} />
          </span>
          <Muted small>
            {t('earn.paidSoFar', { amount: row.interestPaid, currency: row.currency })}
          </Muted>
        </Space>
      ),
    },
    {
      title: t('earn.field.status'),
      key: 'status',
      width: 130,
      render: (_: unknown, row: ConsoleEarnOrder) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATUS_COLOR[row.status]} data-testid={`earn-order-status-${row.id}`}>
            {t(statusKey(row.status))}
          </Tag>
          {row.rejectReason && <Muted small>{row.rejectReason}</Muted>}
        </Space>
      ),
    },
    {
      title: t('earn.field.time'),
      key: 'time',
      width: 160,
      render: (_: unknown, row: ConsoleEarnOrder) => <TimeCell iso={row.createTime} />,
    },
    {
      title: '',
      key: 'actions',
      width: 180,
      render: (_: unknown, row: ConsoleEarnOrder) =>
        row.status === EARN_ORDER_STATUS.pending ? (
          <Space>
            <Button
              size="small"
              type="primary"
              onClick={() => void approve(row)}
              data-testid={`earn-order-approve-${row.id}`}
            >
              {t('earn.approve')}
            </Button>
            <Button
              size="small"
              danger
              onClick={() => setRejecting(row)}
              data-testid={`earn-order-reject-${row.id}`}
            >
              {t('earn.reject')}
            </Button>
          </Space>
        ) : null,
    },
  ];

  return (
    <div data-testid={queue ? 'earn-queue' : 'earn-orders'}>
      <ToolbarRow>
        <Space wrap>
          <KindSelect
            width={160}
            value={kind}
            onChange={(value) => {
              setKind(value);
              setPageNum(1);
            }}
          />
          {!queue && (
            <Select
              allowClear
              style={{ width: 160 }}
              placeholder={t('earn.field.status')}
              value={status}
              onChange={(value?: number) => {
                setStatus(value);
                setPageNum(1);
              }}
              options={Object.values(EARN_ORDER_STATUS).map((value) => ({
                value,
                label: t(statusKey(value)),
              }))}
            />
          )}
          <Input.Search
            allowClear
            style={{ width: 260 }}
            placeholder={t('earn.searchUser')}
            value={account}
            onChange={(event) => setAccount(event.target.value)}
            onSearch={(value) => {
              setUserAccount(value.trim() || undefined);
              setPageNum(1);
            }}
          />
          {queue && <Typography.Text type="secondary">{t('earn.queueHelp')}</Typography.Text>}
        </Space>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<ConsoleEarnOrder>
        testId={queue ? 'earn-queue-table' : 'earn-orders-table'}
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t(queue ? 'earn.queueEmpty' : 'earn.noOrders')}
      />
      <RejectDialog
        open={Boolean(rejecting)}
        title={t('earn.rejectTitle')}
        reasons={t('earn.reasons', { returnObjects: true })}
        onReject={async (reason) => {
          await api.call(consoleEarnApi.rejectOrder, { id: rejecting!.id, reason });
          void toast.success(t('earn.rejected'));
          await queryClient.invalidateQueries({ queryKey: ['earn'] });
          setRejecting(undefined);
        }}
        onClose={() => setRejecting(undefined)}
      />
    </div>
  );
}

function ReportTable() {
  const { t } = useTranslation();
  const [book, setBook] = useState<'live' | 'demo'>('live');
  const report = useQuery({
    queryKey: ['earn', 'report', book],
    queryFn: () => api.call(consoleEarnApi.report, { demo: book === 'demo' }),
  });
  const columns = [
    {
      title: t('earn.field.name'),
      key: 'name',
      render: (_: unknown, row: EarnReportRow) => (
        <Space direction="vertical" size={0}>
          <span>{row.name}</span>
          <Muted small>
            {t(`earn.kind.${row.kind}`)} · {t(row.status === 1 ? 'earn.open' : 'earn.closedTag')}
          </Muted>
        </Space>
      ),
    },
    {
      title: t('earn.report.orders'),
      key: 'orders',
      width: 230,
      render: (_: unknown, row: EarnReportRow) =>
        t('earn.report.ordersLine', {
          pending: row.pendingOrders,
          active: row.activeOrders,
          completed: row.completedOrders,
          redeemed: row.redeemedOrders,
        }),
    },
    amountColumn(t('earn.report.held'), 'amountHeld', 180, 'held'),
    amountColumn(t('earn.report.paid'), 'interestPaid', 180, 'paid'),
    amountColumn(t('earn.report.accrued'), 'interestAccrued', 160),
    amountColumn(t('earn.report.penalties'), 'penalties', 150),
  ];
  return (
    <div data-testid="earn-report">
      <ToolbarRow>
        <Space wrap>
          <Segmented
            value={book}
            onChange={(value) => setBook(value as 'live' | 'demo')}
            options={[
              { value: 'live', label: t('earn.report.live') },
              { value: 'demo', label: t('earn.report.demo') },
            ]}
            data-testid="earn-report-book"
          />
          <Typography.Text type="secondary">{t('earn.report.help')}</Typography.Text>
        </Space>
      </ToolbarRow>
      <ListError error={report.error} />
      <DataTable<EarnReportRow>
        testId="earn-report-table"
        rowKey="productId"
        columns={columns}
        dataSource={report.data}
        loading={report.isPending}
        pagination={false}
        emptyText={t('earn.noProducts')}
      />
    </div>
  );
}

export default function EarnPage() {
  const { t } = useTranslation();
  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }} data-testid="earn-page">
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'products',
            label: <span data-testid="earn-tab-products">{t('earn.tab.products')}</span>,
            children: <ProductsTable />,
          },
          {
            key: 'queue',
            label: <span data-testid="earn-tab-queue">{t('earn.tab.queue')}</span>,
            children: <OrdersTable queue />,
          },
          {
            key: 'orders',
            label: <span data-testid="earn-tab-orders">{t('earn.tab.orders')}</span>,
            children: <OrdersTable queue={false} />,
          },
          {
            key: 'report',
            label: <span data-testid="earn-tab-report">{t('earn.tab.report')}</span>,
            children: <ReportTable />,
          },
        ]}
      />
    </div>
  );
}
