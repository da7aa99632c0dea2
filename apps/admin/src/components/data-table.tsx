/** The console's table: rows keyed by `id` unless told, middle-sized, with its test id. */
import { Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { errorText } from '../i18n';

export function DataTable<T extends object>({
  testId,
  rowKey = 'id',
  ...props
}: TableProps<T> & { testId: string }) {
  return <Table<T> rowKey={rowKey} size="middle" {...props} data-testid={testId} />;
}

/** A list's failure above its table, in red (nothing while it has none). */
export function ListError({ error }: { error: unknown }) {
  return error ? (
    <Typography.Paragraph type="danger">{errorText(error)}</Typography.Paragraph>
  ) : null;
}
