/**
 * A user's money on their page: balances per book and currency, the ledger postings of their
 * accounts with the journal entry of each (type, reference, request id), their deposits and
 * withdrawals. Read-only: no balance is edited here or anywhere in the console.
 */
import { useState } from 'react';
import { Alert, Segmented, Space, Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleUsersApi,
  type ConsoleLedgerPosting,
  type ConsoleUserBalance,
  type ReviewedRecharge,
  type ReviewedWithdraw,
} from '@bourse/shared';
import { api } from '../../api';
import { errorText } from '../../i18n';
import { formatAmount } from '../../lib/format';
import { AmountWithFee, Muted, OrderNo } from '../cells';
import { bookColumn, numColumn, requestColumns, timeColumn } from './columns';
import { PagedTable } from './paged-table';
import { Num, SignedAmount } from './user-cells';

type BookFilter = 'all' | 'live' | 'demo';

/** All, live or demo. */
export function BookFilterSwitch({
  value,
  onChange,
}: {
  value: BookFilter;
  onChange(book: BookFilter): void;
}) {
  const { t } = useTranslation();
  return (
    <Segmented<BookFilter>
      value={value}
      onChange={onChange}
      options={[
        { value: 'all', label: t('common.all') },
        { value: 'live', label: t('users.book.live') },
        { value: 'demo', label: t('users.book.demo') },
      ]}
      data-testid="book-filter"
    />
  );
}

export const bookOf = (filter: BookFilter) => (filter === 'all' ? undefined : filter);

export function BalancesTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const balances = useQuery({
    queryKey: ['user', userId, 'balances'],
    queryFn: () => api.call(consoleUsersApi.balances, { id: userId }),
  });
  const amount = (kind: 'available' | 'frozen' | 'margin' | 'staked' | 'loan') =>
    numColumn<ConsoleUserBalance>(t(`users.balances.${kind}`), kind);
  const columns: TableColumnsType<ConsoleUserBalance> = [
    bookColumn(t),
    { title: t('users.currency'), dataIndex: 'currencyName' },
    amount('available'),
    amount('frozen'),
    amount('margin'),
    amount('staked'),
    amount('loan'),
  ];
  return (
    <>
      {balances.isError && <Alert type="error" showIcon message={errorText(balances.error)} />}
      <Table<ConsoleUserBalance>
        rowKey={(row) => `${row.book}:${row.currencyId}`}
        size="middle"
        columns={columns}
        dataSource={balances.data}
        loading={balances.isPending}
        pagination={false}
        data-testid="user-balances"
      />
    </>
  );
}

export function LedgerTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [book, setBook] = useState<BookFilter>('all');
  const columns: TableColumnsType<ConsoleLedgerPosting> = [
    timeColumn(t('users.time'), 'createTime'),
    {
      title: t('users.ledger.entry'),
      render: (_, row) => (
        <span style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
          #{row.entryId}
          <Muted>·{row.line}</Muted>
        </span>
      ),
    },
    bookColumn(t),
    {
      title: t('users.ledger.account'),
      render: (_, row) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {row.currencyName}{' '}
          <Muted>{t(`users.balances.${row.accountKind}`, row.accountKind)}</Muted>
        </span>
      ),
    },
    {
      title: t('users.ledger.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (value: string) => <SignedAmount value={value} />,
    },
    numColumn(t('users.ledger.balanceAfter'), 'balanceAfter'),
    {
      title: t('users.ledger.type'),
      dataIndex: 'entryType',
      render: (type: string) => <Tag style={{ fontFamily: 'monospace' }}>{type}</Tag>,
    },
    {
      title: t('users.ledger.reference'),
      render: (_, row) =>
        row.refType ? (
          <span style={{ whiteSpace: 'nowrap' }}>
            {row.refType} <Muted>#{row.refId}</Muted>
          </span>
        ) : (
          <Muted>–</Muted>
        ),
    },
    {
      title: t('users.ledger.requestId'),
      dataIndex: 'requestId',
      render: (value: string | null) => (value ? <OrderNo value={value} /> : <Muted>–</Muted>),
    },
  ];
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <BookFilterSwitch value={book} onChange={setBook} />
      <PagedTable<ConsoleLedgerPosting>
        key={book}
        queryKey={['user', userId, 'ledger', book]}
        load={(page) =>
          api.call(consoleUsersApi.ledger, { id: userId, book: bookOf(book), ...page })
        }
        rowKey={(row) => `${row.entryId}:${row.line}`}
        columns={columns}
        testId="user-ledger"
      />
    </Space>
  );
}

export function DepositsTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const columns = requestColumns<ReviewedRecharge>(
    t,
    'recharge',
    [
      {
        title: t('review.amount'),
        align: 'right',
        render: (_, row) => <Num value={formatAmount(row.amount, row.currencyName)} />,
      },
    ],
    { title: t('review.reviewed'), dataIndex: 'reviewTime' },
  );
  return (
    <PagedTable<ReviewedRecharge>
      queryKey={['user', userId, 'recharges']}
      load={(page) => api.call(consoleUsersApi.recharges, { id: userId, ...page })}
      rowKey="id"
      columns={columns}
      testId="user-deposits"
    />
  );
}

export function WithdrawalsTab({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const columns = requestColumns<ReviewedWithdraw>(
    t,
    'withdraw',
    [
      {
        title: t('review.amount'),
        align: 'right',
        render: (_, row) => (
          <AmountWithFee fee={row.fee}>
            <Num value={formatAmount(row.amount, row.currencyName)} />
          </AmountWithFee>
        ),
      },
      {
        title: t('withdrawals.destination'),
        render: (_, row) => (
          <div style={{ lineHeight: 1.35, maxWidth: 360 }}>
            <div>{t(`withdrawals.kind.${row.destination.kind}`)}</div>
            <span style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>
              {destinationText(row.destination)}
            </span>
          </div>
        ),
      },
    ],
    { title: t('withdrawals.closed'), dataIndex: 'closeTime' },
  );
  return (
    <PagedTable<ReviewedWithdraw>
      queryKey={['user', userId, 'withdrawals']}
      load={(page) => api.call(consoleUsersApi.withdrawals, { id: userId, ...page })}
      rowKey="id"
      columns={columns}
      testId="user-withdrawals"
    />
  );
}

/** A withdrawal's destination on one line: the card or address in full, as it is paid. */
function destinationText(destination: ReviewedWithdraw['destination']): string {
  const { kind: _kind, ...fields } = destination;
  return Object.values(fields)
    .filter((value) => typeof value === 'string' && value !== '')
    .join(' · ');
}
