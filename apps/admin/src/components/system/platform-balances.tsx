/**
 * The platform accounts' balances of a book, read from the ledger (each the sum of its shards),
 * paged on the server: the other side of every user's money, so with the users' balances they
 * sum to zero per currency.
 */
import { useState } from 'react';
import { Segmented, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { consoleSystemApi, PLATFORM_BOOKS, type PlatformBalance } from '@bourse/shared';
import { api } from '../../api';
import { usePagedQuery } from '../../hooks/use-paged-query';
import { DataTable, ListError } from '../data-table';

type Book = (typeof PLATFORM_BOOKS)[number];

export function PlatformBalances() {
  const { t } = useTranslation();
  const [book, setBook] = useState<Book>('live');
  const { paging, list, table } = usePagedQuery({
    key: ['platformBalances'],
    input: { book },
    load: (input) => api.call(consoleSystemApi.platformBalances, input),
  });

  const columns: TableColumnsType<PlatformBalance> = [
    {
      title: t('ledger.kind'),
      dataIndex: 'kind',
      render: (kind: PlatformBalance['kind']) => (
        <span>
          {t(`ledger.kinds.${kind}`)}{' '}
          <Typography.Text type="secondary" code>
            {kind}
          </Typography.Text>
        </span>
      ),
    },
    { title: t('ledger.currency'), dataIndex: 'currencyName', width: 140 },
    {
      title: t('ledger.balance'),
      dataIndex: 'balance',
      align: 'right',
      render: (balance: string) => (
        <span style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }} data-testid="balance">
          {balance}
        </span>
      ),
    },
    { title: t('ledger.shards'), dataIndex: 'shards', width: 110, align: 'right' },
  ];

  return (
    <>
      <div
        style={{
          display: 'flex',
          gap: 16,
          alignItems: 'center',
          justifyContent: 'space-between',
          marginBottom: 12,
        }}
      >
        <Typography.Text type="secondary" style={{ maxWidth: 860 }}>
          {t('ledger.platformExplain')}
        </Typography.Text>
        <Segmented<Book>
          value={book}
          onChange={(value) => {
            setBook(value);
            paging.restart();
          }}
          options={PLATFORM_BOOKS.map((value) => ({ value, label: t(`ledger.books.${value}`) }))}
          data-testid="book-switch"
        />
      </div>
      <ListError error={list.error} />
      <DataTable<PlatformBalance>
        rowKey={(row) => `${row.book}:${row.kind}:${row.currencyId}`}
        columns={columns}
        {...table}
        testId="platform-balances"
      />
    </>
  );
}
