/**
 * What every record screen (deposits, withdrawals, exchanges, balance changes) shares: its
 * records loaded page by page while the list scrolls, each record shown once, tabs that show
 * every record or those of one status (or type), the end of the list (loading, retry, no more)
 * and what shows when there is nothing.
 */
import { useState } from 'react';
import {
  useInfiniteQuery,
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { InfiniteScroll } from 'antd-mobile';
import { useTranslation } from '../i18n/react';
import { ChoiceRow } from './choice-row';
import {
  EmptyState,
  ErrorState,
  ListSkeleton,
  Refreshable,
  type EmptyStateProps,
} from './status-views';

export const RECORD_PAGE_SIZE = 20;

export interface RecordPage<Row> {
  rows: Row[];
  total: number;
}

/**
 * The records of a list, page after page, of every status or of the one chosen (`filter`, given
 * to `fetchPage`, undefined for all). A record made while paging shifts the later pages by one:
 * each shows once all the same.
 */
export function useRecordPages<Row extends { id: string | number }, Filter extends string | number>(
  queryKey: QueryKey,
  fetchPage: (
    page: { pageNum: number; pageSize: number },
    filter: Filter | undefined,
  ) => Promise<RecordPage<Row>>,
) {
  const [filter, setFilter] = useState<Filter | 'all'>('all');
  const records = useInfiniteQuery({
    queryKey: [...queryKey, filter],
    queryFn: ({ pageParam }) =>
      fetchPage(
        { pageNum: pageParam, pageSize: RECORD_PAGE_SIZE },
        filter === 'all' ? undefined : filter,
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      last.rows.length > 0 &&
      pages.reduce((count, page) => count + page.rows.length, 0) < last.total
        ? pages.length + 1
        : undefined,
  });
  const seen = new Set<Row['id']>();
  const rows = (records.data?.pages ?? [])
    .flatMap((page) => page.rows)
    .filter((row) => (seen.has(row.id) ? false : (seen.add(row.id), true)));
  return { records, rows, filter, setFilter } satisfies RecordPages<Row, Filter>;
}

export interface RecordPages<Row, Filter extends string | number> {
  records: UseInfiniteQueryResult<InfiniteData<RecordPage<Row>>>;
  rows: Row[];
  filter: Filter | 'all';
  setFilter: (filter: Filter | 'all') => void;
}

/**
 * The tabs choosing a list's filter, kept in view while the list scrolls: each value with the
 * translation key of its label; `label` is the key of what they choose.
 */
export function RecordTabs<Filter extends string | number>({
  list,
  label,
  filters,
  testId,
}: {
  list: Pick<RecordPages<unknown, Filter>, 'filter' | 'setFilter'>;
  label: string;
  filters: readonly (readonly [Filter | 'all', string])[];
  /** The test ids' stem of the tabs: `${testId}-all` and so on. */
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <ChoiceRow
      tabs
      className="market-tabs record-tabs"
      label={t(label)}
      options={filters.map(([value]) => value)}
      value={list.filter}
      onChange={list.setFilter}
      text={(value) => t(filters.find(([candidate]) => candidate === value)?.[1] ?? '')}
      optionTestId={testId}
    />
  );
}

/** What shows instead of records: a title, what to do about it, and a button to do it. */
export type NoRecords = EmptyStateProps;

/**
 * The records (`children`), then the end of the list, which loads the next page when scrolled
 * into view; `empty` instead once it is known there are none, grey rows while the first page
 * loads, and the error state with a retry when it failed. Pulling the list down loads it again.
 * With a `className`, records and end are wrapped in one box (a card).
 */
export function RecordList<Row, Filter extends string | number>({
  list: { records, rows },
  empty,
  endTestId,
  className,
  testId,
  children,
}: {
  list: RecordPages<Row, Filter>;
  empty: NoRecords;
  endTestId?: string;
  className?: string;
  testId?: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const refresh = () => records.refetch();
  if (records.isPending) return <ListSkeleton />;
  if (records.isError && rows.length === 0) {
    return (
      <Refreshable onRefresh={refresh}>
        <ErrorState onRetry={() => void refresh()} />
      </Refreshable>
    );
  }
  if (records.isSuccess && rows.length === 0) {
    return (
      <Refreshable onRefresh={refresh}>
        <EmptyState {...empty} />
      </Refreshable>
    );
  }
  const content = (
    <>
      {children}
      <InfiniteScroll
        hasMore={records.hasNextPage}
        loadMore={async () => {
          const result = await records.fetchNextPage();
          if (result.isError) throw result.error;
        }}
      >
        {(hasMore, failed, retry) => (
          <div className="record-end" data-testid={endTestId}>
            {failed || (records.isError && rows.length === 0) ? (
              <button
                type="button"
                className="link"
                onClick={() => (failed ? retry() : void records.refetch())}
              >
                {t('common_retry')}
              </button>
            ) : hasMore || records.isFetching ? (
              t('common_loading')
            ) : (
              t('record_noMore')
            )}
          </div>
        )}
      </InfiniteScroll>
    </>
  );
  return (
    <Refreshable onRefresh={refresh}>
      {className || testId ? (
        <div className={className} data-testid={testId}>
          {content}
        </div>
      ) : (
        content
      )}
    </Refreshable>
  );
}
