/**
 * The platform accounts' balances of a book, read from the ledger (each the sum of its shards),
 * paged on the server: the other side of every user's money, so with the users' balances they
 * sum to zero per currency.
 */
import { useState } from 'react';
import { Segmented, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleSystemApi, PLATFORM_BOOKS, type PlatformBalance } from '@bourse/shared';
import { api } from '../../api';
import { errorText } from '../../i18n';
import { usePaging } from '../../hooks/use-paging';

type Book = (typeof PLATFORM_BOOKS)[number];

export function PlatformBalances() {
  const { t } = useTranslation();
  const [book, setBook] = useState<Book>('live');
  const paging = usePaging(20);
  const input = { book, pageNum: paging.pageNum, pageSize: paging.pageSize };
  const list = useQuery({
    queryKey: ['platformBalances', input],
    queryFn: () => api.call(consoleSystemApi.platformBalances, input),
    placeholderData: keepPreviousData,
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
      {list.isError && (
        <Typography.Paragraph type="danger">{errorText(list.error)}</Typography.Paragraph>
      )}
      <Table<PlatformBalance>
        rowKey={(row) => `${row.book}:${row.kind}:${row.currencyId}`}
        size="middle"
        columns={columns}
        dataSource={list.data?.rows}
        loading={list.isPending}
        pagination={paging.pagination(list.data?.total)}
        data-testid="platform-balances"
      />
    </>
  );
}
