/**
 * The dashboard's tables: a few rows of figures, drawn as antd's small table looks but without
 * its Table (with pagination and select, 80 KB gzip): the dashboard is the first page most
 * operators open, and it keeps the console's first load within its budget (bench/admin-size.mjs).
 */
import type { CSSProperties, ReactNode } from 'react';
import { Typography } from 'antd';

export interface FigureColumn<T> {
  key: string;
  title: ReactNode;
  align?: 'left' | 'right';
  width?: number;
  render: (row: T) => ReactNode;
}

const cell: CSSProperties = {
  padding: '8px 8px',
  borderBottom: '1px solid #f0f0f0',
  verticalAlign: 'middle',
};

export function FigureTable<T>({
  columns,
  rows,
  rowKey,
  empty,
  testId,
  rowTestId,
}: {
  columns: FigureColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  empty?: ReactNode;
  testId?: string;
  rowTestId?: (row: T) => string;
}) {
  return (
    <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: 14 }} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th
              key={column.key}
              style={{
                ...cell,
                background: '#fafafa',
                fontWeight: 600,
                textAlign: column.align ?? 'left',
                width: column.width,
              }}
            >
              {column.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={columns.length} style={{ ...cell, textAlign: 'center', padding: 16 }}>
              <Typography.Text type="secondary">{empty}</Typography.Text>
            </td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId?.(row)}>
              {columns.map((column) => (
                <td key={column.key} style={{ ...cell, textAlign: column.align ?? 'left' }}>
                  {column.render(row)}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
