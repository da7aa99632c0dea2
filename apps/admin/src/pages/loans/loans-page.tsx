/**
 * Loans (finance, admin): the review queue of applications (each opens in a drawer with its
 * answers and images, to lend an amount up to the one asked or reject with a reason), every loan
 * (of a status, a user, overdue), the products (created, changed for new applications only, closed
 * and reopened; product-editor.tsx) and the report, computed from the loans: lent, outstanding,
 * interest due and earned, overdue. Every change is in the audit log.
 */
import { useState } from 'react';
import {
  App,
  Button,
  Checkbox,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  consoleLoansApi,
  LOAN_STATUS,
  type ConsoleLoanOrder,
  type ConsoleLoanProduct,
  type LoanReportRow,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, OrderNo, TimeCell, ToolbarRow, UserCell } from '../../components/cells';
import { DataTable, ListError } from '../../components/data-table';
import { percent } from '../../components/settings/parts';
import { currentLanguage, errorText } from '../../i18n';
import { formatAmount } from '../../lib/format';
import { LoanReview } from './loan-review';
import { LoanStatus } from './loan-status';
import { ProductEditor } from './product-editor';

const PAGE_SIZE = 20;
/** Applications wait for a decision: the queue reads itself every few seconds while shown. */
const QUEUE_REFRESH_MS = 5_000;

const nameOf = (texts: Record<string, string>, language: string) =>
  texts[language] || texts.en || Object.values(texts)[0] || '';

function LoansTable({ queue }: { queue: boolean }) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [status, setStatus] = useState<number | undefined>(
    queue ? LOAN_STATUS.reviewing : undefined,
  );
  const [overdue, setOverdue] = useState(false);
  const [userId, setUserId] = useState<number | null>(null);
  const [user, setUser] = useState<number>();
  const [opened, setOpened] = useState<ConsoleLoanOrder>();
  const input = {
    pageNum,
    pageSize: PAGE_SIZE,
    status: queue ? LOAN_STATUS.reviewing : status,
    overdue: overdue || undefined,
    userId: user,
  };
  const list = useQuery({
    queryKey: ['loans', 'orders', input],
    queryFn: () => api.call(consoleLoansApi.orders, input),
    placeholderData: keepPreviousData,
    refetchInterval: queue ? QUEUE_REFRESH_MS : false,
    refetchOnWindowFocus: true,
  });
  const columns = [
    {
      title: t('loans.field.orderNo'),
      key: 'orderNo',
      render: (_: unknown, row: ConsoleLoanOrder) => <OrderNo value={row.orderNo} />,
    },
    {
      title: t('loans.field.user'),
      key: 'user',
      render: (_: unknown, row: ConsoleLoanOrder) => (
        <Space direction="vertical" size={0}>
          <UserCell account={row.userAccount} id={row.userId} />
          {row.book === 'demo' && <Tag color="purple">{t('loans.book.demo')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('loans.field.product'),
      key: 'product',
      render: (_: unknown, row: ConsoleLoanOrder) => (
        <Space direction="vertical" size={0}>
          <span>{row.productName}</span>
          <Muted small>
            {t('loans.termsLine', {
              days: row.termDays,
              rate: percent(row.dailyRate),
              overdue: percent(row.overdueDailyRate),
            })}
          </Muted>
        </Space>
      ),
    },
    {
      title: queue ? t('loans.field.asked') : t('loans.field.lent'),
      key: 'amount',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleLoanOrder) =>
        formatAmount(row.approvedAmount ?? row.amount, row.currencyName),
    },
    ...(queue
      ? []
      : [
          {
            title: t('loans.field.totalDue'),
            key: 'due',
            align: 'end' as const,
            render: (_: unknown, row: ConsoleLoanOrder) =>
              row.status === LOAN_STATUS.active ? (
                <span data-testid={`loan-due-${row.id}`}>
                  {formatAmount(row.totalDue, row.currencyName)}
                </span>
              ) : (
                '–'
              ),
          },
          {
            title: t('loans.field.dueDate'),
            key: 'dueDate',
            render: (_: unknown, row: ConsoleLoanOrder) => row.dueDate ?? '–',
          },
        ]),
    {
      title: t('loans.field.submitted'),
      key: 'created',
      render: (_: unknown, row: ConsoleLoanOrder) => <TimeCell iso={row.createTime} />,
    },
    {
      title: t('loans.field.status'),
      key: 'status',
      render: (_: unknown, row: ConsoleLoanOrder) => <LoanStatus loan={row} />,
    },
    {
      title: '',
      key: 'actions',
      align: 'right' as const,
      render: (_: unknown, row: ConsoleLoanOrder) => (
        <Button
          size="small"
          type={row.status === LOAN_STATUS.reviewing ? 'primary' : 'default'}
          ghost={row.status === LOAN_STATUS.reviewing}
          onClick={() => setOpened(row)}
          data-testid={`loan-open-${row.id}`}
        >
          {row.status === LOAN_STATUS.reviewing ? t('loans.review') : t('loans.view')}
        </Button>
      ),
    },
  ];
  return (
    <div data-testid={queue ? 'loans-queue' : 'loans-all'}>
      <ToolbarRow>
        <Space wrap>
          {!queue && (
            <>
              <Select
                allowClear
                style={{ width: 170 }}
                placeholder={t('loans.allStatuses')}
                value={status}
                onChange={(value?: number) => {
                  setStatus(value);
                  setPageNum(1);
                }}
                options={Object.values(LOAN_STATUS).map((value) => ({
                  value,
                  label: t(`loans.status.${String(value) as '0'}`),
                }))}
                data-testid="loans-status"
              />
              <Checkbox
                checked={overdue}
                onChange={(event) => {
                  setOverdue(event.target.checked);
                  setPageNum(1);
                }}
                data-testid="loans-overdue"
              >
                {t('loans.overdueOnly')}
              </Checkbox>
            </>
          )}
          <Space.Compact>
            <InputNumber<number>
              min={1}
              max={2_147_483_647}
              precision={0}
              placeholder={t('loans.userId')}
              value={userId}
              onChange={setUserId}
              onPressEnter={() => {
                setUser(userId ?? undefined);
                setPageNum(1);
              }}
              style={{ width: 140 }}
            />
            <Button
              onClick={() => {
                setUser(userId ?? undefined);
                setPageNum(1);
              }}
            >
              {t('common.search')}
            </Button>
          </Space.Compact>
        </Space>
        <Button
          icon={<ReloadOutlined />}
          loading={list.isFetching}
          onClick={() => void list.refetch()}
          aria-label={t('common.refresh')}
        />
      </ToolbarRow>
      <Typography.Paragraph type="secondary">{t('loans.help')}</Typography.Paragraph>
      <ListError error={list.error} />
      <DataTable<ConsoleLoanOrder>
        testId={queue ? 'loans-queue-table' : 'loans-table'}
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={queue ? t('loans.queueEmpty') : t('loans.empty')}
        scroll={{ x: 'max-content' }}
      />
      {opened && <LoanReview loan={opened} onClose={() => setOpened(undefined)} />}
    </div>
  );
}

function ProductsTable() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const language = currentLanguage();
  const [pageNum, setPageNum] = useState(1);
  const [editing, setEditing] = useState<ConsoleLoanProduct | 'new'>();
  const list = useQuery({
    queryKey: ['loans', 'products', pageNum],
    queryFn: () => api.call(consoleLoansApi.products, { pageNum, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const setStatus = async (row: ConsoleLoanProduct, status: number) => {
    try {
      await api.call(consoleLoansApi.productStatus, { id: row.id, status });
      void message.success(t(status === 1 ? 'loans.products.opened' : 'loans.products.closed'));
      await queryClient.invalidateQueries({ queryKey: ['loans'] });
    } catch (error) {
      void message.error(errorText(error));
    }
  };
  const columns = [
    {
      title: t('loans.products.name'),
      key: 'name',
      render: (_: unknown, row: ConsoleLoanProduct) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid={`loan-product-row-${row.id}`}>
            {nameOf(row.name, language)}
          </Typography.Text>
          <Muted small>
            {t(`loans.settlement.${String(row.settlement) as '1'}`)}
            {row.interestFreeDays > 0
              ? ` · ${t('loans.freeDays', { days: row.interestFreeDays })}`
              : ''}
          </Muted>
        </Space>
      ),
    },
    {
      title: t('loans.products.range'),
      key: 'range',
      render: (_: unknown, row: ConsoleLoanProduct) =>
        `${row.minAmount} – ${row.maxAmount} ${row.currencyName}`,
    },
    {
      title: t('loans.field.terms'),
      key: 'terms',
      render: (_: unknown, row: ConsoleLoanProduct) => (
        <span data-testid={`loan-product-terms-${row.id}`}>
          {t('loans.termsLine', {
            days: row.termDays,
            rate: percent(row.dailyRate),
            overdue: percent(row.overdueDailyRate),
          })}
        </span>
      ),
    },
    {
      title: t('loans.products.openLoans'),
      key: 'open',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleLoanProduct) => row.openLoans,
    },
    {
      title: t('loans.field.status'),
      key: 'status',
      render: (_: unknown, row: ConsoleLoanProduct) => (
        <Tag
          color={row.status === 1 ? 'green' : 'default'}
          data-testid={`loan-product-status-${row.id}`}
        >
          {t(row.status === 1 ? 'loans.products.statusOpen' : 'loans.products.statusClosed')}
        </Tag>
      ),
    },
    {
      title: '',
      key: 'actions',
      render: (_: unknown, row: ConsoleLoanProduct) => (
        <Space>
          <Button
            size="small"
            onClick={() => setEditing(row)}
            data-testid={`loan-product-edit-${row.id}`}
          >
            {t('loans.products.edit')}
          </Button>
          {row.status === 1 ? (
            <Popconfirm
              title={t('loans.products.closeTitle')}
              description={t('loans.products.closeHelp')}
              okText={t('loans.products.close')}
              cancelText={t('common.cancel')}
              okButtonProps={
                { danger: true, 'data-testid': `loan-product-close-ok-${row.id}` } as ButtonProps
              }
              onConfirm={() => setStatus(row, 0)}
            >
              <Button size="small" danger data-testid={`loan-product-close-${row.id}`}>
                {t('loans.products.close')}
              </Button>
            </Popconfirm>
          ) : (
            <Button
              size="small"
              onClick={() => void setStatus(row, 1)}
              data-testid={`loan-product-open-${row.id}`}
            >
              {t('loans.products.open')}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="loans-products">
      <ToolbarRow>
        <Typography.Text type="secondary">{t('loans.products.help')}</Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="loan-product-new"
        >
          {t('loans.products.new')}
        </Button>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<ConsoleLoanProduct>
        testId="loan-products-table"
        columns={columns}
        paging={{ list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum }}
        emptyText={t('loans.products.empty')}
      />
      {editing && (
        <ProductEditor
          product={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
        />
      )}
    </div>
  );
}

function ReportTable() {
  const { t } = useTranslation();
  const report = useQuery({
    queryKey: ['loans', 'report'],
    queryFn: () => api.call(consoleLoansApi.report, {}),
  });
  const money = (field: keyof LoanReportRow) => ({
    title: t(`loans.report.${field as 'disbursed'}`),
    key: field,
    align: 'end' as const,
    render: (_: unknown, row: LoanReportRow) => (
      <span data-testid={`loan-report-${row.book}-${row.currencyName}-${field}`}>
        {formatAmount(String(row[field]), row.currencyName)}
      </span>
    ),
  });
  const count = (field: keyof LoanReportRow, label: string) => ({
    title: t(`loans.report.${label as 'active'}`),
    key: field,
    align: 'end' as const,
    render: (_: unknown, row: LoanReportRow) => String(row[field]),
  });
  const columns = [
    {
      title: t('loans.field.book'),
      key: 'book',
      render: (_: unknown, row: LoanReportRow) => (
        <Tag color={row.book === 'demo' ? 'purple' : 'blue'}>{t(`loans.book.${row.book}`)}</Tag>
      ),
    },
    {
      title: t('loans.editor.currency'),
      key: 'currency',
      render: (_: unknown, row: LoanReportRow) => row.currencyName,
    },
    money('disbursed'),
    money('outstanding'),
    money('interestDue'),
    money('interestEarned'),
    money('principalRepaid'),
    count('activeCount', 'active'),
    count('overdueCount', 'overdue'),
    money('overduePrincipal'),
    count('reviewingCount', 'reviewing'),
    count('repaidCount', 'repaid'),
  ];
  return (
    <div data-testid="loans-report">
      <ToolbarRow>
        <Typography.Text type="secondary">{t('loans.report.help')}</Typography.Text>
        <Button
          icon={<ReloadOutlined />}
          loading={report.isFetching}
          onClick={() => void report.refetch()}
          aria-label={t('common.refresh')}
        />
      </ToolbarRow>
      <ListError error={report.error} />
      <DataTable<LoanReportRow>
        testId="loans-report-table"
        rowKey={(row) => `${row.book}-${row.currencyId}`}
        columns={columns}
        dataSource={report.data?.rows}
        loading={report.isPending}
        pagination={false}
        emptyText={t('loans.report.empty')}
        scroll={{ x: 'max-content' }}
      />
    </div>
  );
}

export default function LoansPage() {
  const { t } = useTranslation();
  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }} data-testid="loans-page">
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'queue',
            label: <span data-testid="loans-tab-queue">{t('loans.tab.queue')}</span>,
            children: <LoansTable queue />,
          },
          {
            key: 'loans',
            label: <span data-testid="loans-tab-loans">{t('loans.tab.loans')}</span>,
            children: <LoansTable queue={false} />,
          },
          {
            key: 'products',
            label: <span data-testid="loans-tab-products">{t('loans.tab.products')}</span>,
            children: <ProductsTable />,
          },
          {
            key: 'report',
            label: <span data-testid="loans-tab-report">{t('loans.tab.report')}</span>,
            children: <ReportTable />,
          },
        ]}
      />
    </div>
  );
}
