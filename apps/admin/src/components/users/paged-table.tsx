/**
 * A table of one of a user's lists, paged on the server (usePaging: at most PAGE.maxSize rows a
 * page). Its query key starts with ['user', id], so an action on the user reads it again.
 */
import { Alert, Table } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { errorText } from '../../i18n';
import { usePaging } from '../../hooks/use-paging';

export interface PageInput {
  pageNum: number;
  pageSize: number;
}

export function PagedTable<T extends object>({
  queryKey,
  load,
  columns,
  rowKey,
  testId,
  expandable,
}: {
  /** What the list is, after ['user', id] or the like: the page is added to it. */
  queryKey: readonly unknown[];
  load(page: PageInput): Promise<{ rows: T[]; total: number }>;
  columns: TableColumnsType<T>;
  rowKey: TableProps<T>['rowKey'];
  testId: string;
  expandable?: TableProps<T>['expandable'];
}) {
  const paging = usePaging(10);
  const page = { pageNum: paging.pageNum, pageSize: paging.pageSize };
  const list = useQuery({
    queryKey: [...queryKey, page],
    queryFn: () => load(page),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      {list.isError && (
        <Alert type="error" showIcon message={errorText(list.error)} style={{ marginBottom: 16 }} />
      )}
      <Table<T>
        rowKey={rowKey}
        size="middle"
        columns={columns}
        dataSource={list.data?.rows}
        loading={list.isPending}
        pagination={paging.pagination(list.data?.total)}
        scroll={{ x: 'max-content' }}
        expandable={expandable}
        data-testid={testId}
      />
    </>
  );
}
