/**
 * The settlements report: per UTC day and currency of a book, the settlements run, the shares
 * due, paid and left owed, and the relations active at the day's end; then per relation what it
 * has paid its trader so far, what it still owes and the mark a next share starts above. Every
 * figure is computed by the settlement rule; nothing here is typed.
 */
import { useState } from 'react';
import { Segmented, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  consoleCopyTradingApi,
  isPositive,
  type ConsoleRelation,
  type CopyBook,
  type CopyReportRow,
} from '@bourse/shared';
import { api } from '../../api';
import { Muted, ToolbarRow, UserCell } from '../../components/cells';
import { DataTable, ListError } from '../../components/data-table';
import { formatAmount } from '../../lib/format';
import { BookTag, CopyTable, Pnl, RelationStatusTag, percentOf, useCopyList } from './parts';

function DaysTable() {
  const { t } = useTranslation();
  const [book, setBook] = useState<CopyBook>('live');
  const { list, paging, restart } = useCopyList('report', { book }, (input) =>
    api.call(consoleCopyTradingApi.report, input),
  );
  const amount = (field: 'share' | 'paid' | 'owed', title: string) => ({
    title,
    key: field,
    align: 'end' as const,
    render: (_: unknown, row: CopyReportRow) => (
      <span
        style={{ whiteSpace: 'nowrap' }}
        data-testid={`copy-report-${field}-${row.day}-${row.currency}`}
      >
        {formatAmount(row[field], row.currency)}
      </span>
    ),
  });
  const columns = [
    {
      title: t('copyTrade.settlements.field.day'),
      key: 'day',
      render: (_: unknown, row: CopyReportRow) => (
        <span style={{ whiteSpace: 'nowrap' }} data-testid={`copy-report-day-${row.day}`}>
          {row.day}
        </span>
      ),
    },
    {
      title: t('copyTrade.settlements.field.settlements'),
      key: 'settlements',
      align: 'end' as const,
      render: (_: unknown, row: CopyReportRow) => (
        <span data-testid={`copy-report-settlements-${row.day}-${row.currency}`}>
          {row.settlements}
        </span>
      ),
    },
    amount('share', t('copyTrade.settlements.field.share')),
    amount('paid', t('copyTrade.settlements.field.paid')),
    amount('owed', t('copyTrade.settlements.field.owed')),
    {
      title: t('copyTrade.settlements.field.relations'),
      key: 'relations',
      align: 'end' as const,
      dataIndex: 'relations',
    },
  ];
  return (
    <div data-testid="copy-report">
      <ToolbarRow>
        <Space wrap>
          <Typography.Text strong>{t('copyTrade.settlements.days')}</Typography.Text>
          <Segmented
            value={book}
            onChange={(value) => {
              setBook(value as CopyBook);
              restart();
            }}
            options={[
              { value: 'live', label: t('copyTrade.book.live') },
              { value: 'demo', label: t('copyTrade.book.demo') },
            ]}
            data-testid="copy-report-book"
          />
        </Space>
      </ToolbarRow>
      <ListError error={list.error} />
      <DataTable<CopyReportRow>
        testId="copy-report-table"
        rowKey={(row) => `${row.day} ${row.book} ${row.currency}`}
        columns={columns}
        paging={paging}
        emptyText={t('copyTrade.settlements.empty')}
      />
    </div>
  );
}

function PerRelationTable() {
  const { t } = useTranslation();
  const { paging } = useCopyList('relations', {}, (input) =>
    api.call(consoleCopyTradingApi.relations, input),
  );
  const columns = [
    {
      title: t('copyTrade.settlements.field.relation'),
      key: 'relation',
      render: (_: unknown, row: ConsoleRelation) => (
        <Space size={4}>
          <span>{t('copyTrade.settlements.relationLine', { id: row.id })}</span>
          <BookTag book={row.book} />
          <RelationStatusTag status={row.status} />
        </Space>
      ),
    },
    {
      title: t('copyTrade.settlements.field.follower'),
      key: 'follower',
      render: (_: unknown, row: ConsoleRelation) => (
        <UserCell account={row.followerAccount} id={row.followerId} />
      ),
    },
    {
      title: t('copyTrade.settlements.field.trader'),
      key: 'trader',
      render: (_: unknown, row: ConsoleRelation) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span>{row.traderName}</span>
          <Muted small>{percentOf(row.profitShareRate)}</Muted>
        </Space>
      ),
    },
    {
      title: t('copyTrade.settlements.field.cumPnl'),
      key: 'cumPnl',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleRelation) => (
        <Pnl value={row.cumPnl} currency={row.currency} />
      ),
    },
    {
      title: t('copyTrade.settlements.field.hwm'),
      key: 'hwm',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleRelation) => (
        <span style={{ whiteSpace: 'nowrap' }} data-testid={`copy-settled-hwm-${row.id}`}>
          {formatAmount(row.hwm, row.currency)}
        </span>
      ),
    },
    {
      title: t('copyTrade.settlements.field.paid'),
      key: 'paid',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleRelation) => (
        <span style={{ whiteSpace: 'nowrap' }} data-testid={`copy-settled-paid-${row.id}`}>
          {formatAmount(row.sharePaid, row.currency)}
        </span>
      ),
    },
    {
      title: t('copyTrade.settlements.field.owed'),
      key: 'owed',
      align: 'end' as const,
      render: (_: unknown, row: ConsoleRelation) =>
        isPositive(row.owed) ? (
          <Typography.Text type="danger" style={{ whiteSpace: 'nowrap' }}>
            {formatAmount(row.owed, row.currency)}
          </Typography.Text>
        ) : (
          <Muted>{formatAmount(row.owed, row.currency)}</Muted>
        ),
    },
  ];
  return (
    <div data-testid="copy-settled-relations" style={{ marginTop: 24 }}>
      <ToolbarRow>
        <Typography.Text strong>{t('copyTrade.settlements.rows')}</Typography.Text>
      </ToolbarRow>
      <CopyTable<ConsoleRelation>
        testId="copy-settled-relations-table"
        columns={columns}
        paging={paging}
        emptyText={t('copyTrade.relations.empty')}
      />
    </div>
  );
}

export function SettlementsTab() {
  const { t } = useTranslation();
  return (
    <div data-testid="copy-settlements">
      <Typography.Paragraph type="secondary">
        {t('copyTrade.settlements.help')}
      </Typography.Paragraph>
      <DaysTable />
      <PerRelationTable />
    </div>
  );
}
