/**
 * A table of one of a user's lists, paged on the server (usePaging: at most PAGE.maxSize rows a
 * page). Its query key starts with ['user', id], so an action on the user reads it again.
 */
import { Alert } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { errorText } from '../../i18n';
import { usePagedQuery, type Page, type PageInput } from '../../hooks/use-paged-query';
import { DataTable } from '../data-table';

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
  load(page: PageInput): Promise<Page<T>>;
  columns: TableColumnsType<T>;
  rowKey: TableProps<T>['rowKey'];
  testId: string;
  expandable?: TableProps<T>['expandable'];
}) {
  const { list, table } = usePagedQuery({ key: queryKey, load, pageSize: 10 });
  return (
    <>
      {list.isError && (
        <Alert type="error" showIcon message={errorText(list.error)} style={{ marginBottom: 16 }} />
      )}
      <DataTable<T>
        rowKey={rowKey}
        columns={columns}
        {...table}
        scroll={{ x: 'max-content' }}
        expandable={expandable}
        testId={testId}
      />
    </>
  );
}
