/**
 * What the copy-trading page's tabs share: the page size, statuses as tags, a rate as a percent
 * (statistics carry 8 decimals; two are shown), a signed P&L in green or red, a holding time in
 * words, an identity level, the action runner that says done or why not and reads every
 * copy-trading list again, a tab's list (its page, query and status filter), and the help, failure
 * and table under a tab's toolbar.
 */
import { useState, type ReactNode } from 'react';
import { App, Select, Tag, Typography, type TableProps } from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  APPLICATION_STATUS,
  RELATION_STATUS,
  TRADER_STATUS,
  isNegative,
  isPositive,
  mul,
  normalize,
  toScale,
} from '@bourse/shared';
import { DataTable, ListError, type FixedPaging } from '../../components/data-table';
import { errorText } from '../../i18n';

export const PAGE_SIZE = 20;
/** The query key every copy-trading list starts with (one invalidation reads them all again). */
export const COPY_KEY = 'copyTrade';

/** A fraction as a percent to two decimals, rounded half up (0.123456 → 12.35 %). */
export function percentOf(rate: string): string {
  return `${normalize(toScale(mul(rate, '100'), 2, 'halfUp'))} %`;
}

/** A rate typed in percent (30 → 0.3), as the schema's fraction; '' when nothing is typed. */
export function fractionOf(percentText: string | null | undefined): string {
  const typed = (percentText ?? '').trim();
  if (!/^\d+(\.\d+)?$/.test(typed)) return typed;
  // 4 decimals of the fraction are 2 of the percent: finer digits go to the schema, refused.
  return normalize(mul(typed, '0.01'));
}

/** A fraction as the percent the settings form shows (0.3 → "30"). */
export function percentInput(rate: string): string {
  return normalize(mul(rate, '100'));
}

/** A signed amount, green above zero, red below (as trading screens show P&L). */
export function Pnl({
  value,
  currency,
  testId,
}: {
  value: string;
  currency?: string;
  testId?: string;
}) {
  const color = isPositive(value) ? '#389e0d' : isNegative(value) ? '#cf1322' : undefined;
  return (
    <span style={{ color, whiteSpace: 'nowrap' }} data-testid={testId}>
      {isPositive(value) ? '+' : ''}
      {value}
      {currency ? ` ${currency}` : ''}
    </span>
  );
}

const APPLICATION_COLOR: Record<number, string> = {
  [APPLICATION_STATUS.pending]: 'gold',
  [APPLICATION_STATUS.approved]: 'green',
  [APPLICATION_STATUS.rejected]: 'red',
};

export function ApplicationStatusTag({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={APPLICATION_COLOR[status] ?? 'default'} data-testid={testId}>
      {t(`copyTrade.applications.status.${String(status) as '0'}`)}
    </Tag>
  );
}

export function TraderStatusTag({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={status === TRADER_STATUS.active ? 'green' : 'red'} data-testid={testId}>
      {t(`copyTrade.traders.status.${String(status) as '1'}`)}
    </Tag>
  );
}

export function RelationStatusTag({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={status === RELATION_STATUS.active ? 'processing' : 'default'} data-testid={testId}>
      {t(`copyTrade.relations.status.${String(status) as '1'}`)}
    </Tag>
  );
}

/** A book: nothing for live (the usual one), a purple tag for demo. */
export function BookTag({ book }: { book: string }) {
  const { t } = useTranslation();
  return book === 'demo' ? <Tag color="purple">{t('copyTrade.book.demo')}</Tag> : null;
}

/** A user's identity level: −1 none, 0 basic, 1 advanced. */
export function LevelTag({ level, testId }: { level: number; testId?: string }) {
  const { t } = useTranslation();
  const key = level >= 1 ? '1' : level === 0 ? '0' : 'none';
  return (
    <Tag color={level >= 1 ? 'green' : level === 0 ? 'blue' : 'default'} data-testid={testId}>
      {t(`copyTrade.level.${key}`)}
    </Tag>
  );
}

/** A holding time in whole units, the two largest (2 d 4 h, 3 h 12 min, 45 s). */
export function useDuration() {
  const { t } = useTranslation();
  return (seconds: number) => {
    const units = [
      ['d', 86_400],
      ['h', 3_600],
      ['m', 60],
      ['s', 1],
    ] as const;
    const parts: string[] = [];
    let left = Math.max(0, Math.floor(seconds));
    for (const [unit, size] of units) {
      const count = Math.floor(left / size);
      left -= count * size;
      if (count > 0 || (unit === 's' && parts.length === 0))
        parts.push(t(`copyTrade.duration.${unit}`, { count }));
      if (parts.length === 2) break;
    }
    return parts.join(' ');
  };
}

/** Runs a console call: on success says `done` and reads the lists again, else says why. */
export function useCopyAction() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
      void message.success(done);
      await queryClient.invalidateQueries({ queryKey: [COPY_KEY] });
    } catch (error) {
      void message.error(errorText(error));
    }
  };
}

/**
 * A tab's list: the page shown (back to the first with `restart` when a filter changes, or through
 * `filterWith(setFilter)`, which sets the filter too), and its query under COPY_KEY and `name`
 * with the filters and the page, the last page kept while the next loads, read again every
 * `refreshMs` when given.
 */
export function useCopyList<I extends object, R>(
  name: string,
  filters: I,
  load: (input: I & { pageNum: number; pageSize: number }) => Promise<R>,
  refreshMs?: number,
) {
  const [pageNum, setPageNum] = useState(1);
  const input = { ...filters, pageNum, pageSize: PAGE_SIZE };
  const list = useQuery({
    queryKey: [COPY_KEY, name, input],
    queryFn: () => load(input),
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  });
  const restart = () => setPageNum(1);
  return {
    list,
    paging: { list, pageNum, pageSize: PAGE_SIZE, onChange: setPageNum },
    restart,
    filterWith:
      <V,>(setFilter: (value: V) => void) =>
      (value: V) => {
        setFilter(value);
        restart();
      },
  };
}

/** A filter by one of a list's statuses, or all of them (cleared). */
export function StatusFilter({
  statuses,
  label,
  placeholder,
  width,
  value,
  onChange,
  testId,
}: {
  statuses: Record<string, number>;
  label(status: number): string;
  placeholder: string;
  width: number;
  value?: number;
  onChange(status?: number): void;
  testId?: string;
}) {
  return (
    <Select
      allowClear
      style={{ width }}
      placeholder={placeholder}
      value={value}
      onChange={onChange}
      options={Object.values(statuses).map((status) => ({ value: status, label: label(status) }))}
      data-testid={testId}
    />
  );
}

/** Under a tab's toolbar: what the list is (in grey, if told), its failure if any, its table. */
export function CopyTable<T extends object>({
  help,
  testId,
  paging,
  columns,
  emptyText,
  rowKey,
}: {
  help?: ReactNode;
  testId: string;
  paging: FixedPaging<T> & { list: { error: unknown } };
  columns: TableProps<T>['columns'];
  emptyText: string;
  rowKey?: string;
}) {
  return (
    <>
      {help !== undefined && <Typography.Paragraph type="secondary">{help}</Typography.Paragraph>}
      <ListError error={paging.list.error} />
      <DataTable<T>
        testId={testId}
        rowKey={rowKey}
        columns={columns}
        paging={paging}
        emptyText={emptyText}
        scroll={{ x: 'max-content' }}
      />
    </>
  );
}
