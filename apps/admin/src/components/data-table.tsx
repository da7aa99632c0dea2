/** The console's table: rows keyed by `id` unless told, middle-sized, with its test id. */
import { Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { errorText } from '../i18n';

/**
 * A list the server answers a page of a fixed size at a time, the page number kept by the caller:
 * the query of the page shown (its rows and the list's total once answered).
 */
export interface FixedPaging<T> {
  list: { data?: { rows: T[]; total: number }; isPending: boolean };
  pageNum: number;
  pageSize: number;
  onChange(pageNum: number): void;
}

export function DataTable<T extends object>({
  testId,
  rowKey = 'id',
  paging,
  emptyText,
  ...props
}: TableProps<T> & {
  testId: string;
  /** The rows, loading and pagination of a list paged on the server (instead of those props). */
  paging?: FixedPaging<T>;
  /** What an empty table says (instead of `locale`). */
  emptyText?: string;
}) {
  return (
    <Table<T>
      rowKey={rowKey}
      size="middle"
      {...(paging && {
        dataSource: paging.list.data?.rows,
        loading: paging.list.isPending,
        pagination: {
          current: paging.pageNum,
          pageSize: paging.pageSize,
          total: paging.list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: paging.onChange,
        },
      })}
      {...(emptyText !== undefined && { locale: { emptyText } })}
      {...props}
      data-testid={testId}
    />
  );
}

/** A list's failure above its table, in red (nothing while it has none). */
export function ListError({ error }: { error: unknown }) {
  return error ? (
    <Typography.Paragraph type="danger">{errorText(error)}</Typography.Paragraph>
  ) : null;
}
