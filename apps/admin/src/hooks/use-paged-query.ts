/**
 * A list paged on the server: usePaging's page and size, the call of that page (the page added to
 * `input`, the query key `[...key, page]`, the last page kept while the next one loads), and the
 * table's props wired to both (rows, loading, pagination).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePaging } from './use-paging';

export interface PageInput {
  pageNum: number;
  pageSize: number;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

export function usePagedQuery<T, I extends object = Record<never, never>>({
  key,
  input,
  load,
  pageSize,
  refetchInterval,
}: {
  /** What the list is: the page (with `input`) is added to it. */
  key: readonly unknown[];
  /** The call's filters, sent with the page. */
  input?: I;
  load(page: I & PageInput): Promise<Page<T>>;
  /** The first page size (usePaging's default without one). */
  pageSize?: number;
  /** Read again every so many ms while this says so (false: not). */
  refetchInterval?(data: Page<T> | undefined): number | false;
}) {
  const paging = usePaging(pageSize);
  const page = { ...(input as I), pageNum: paging.pageNum, pageSize: paging.pageSize };
  const list = useQuery<Page<T>>({
    queryKey: [...key, page],
    queryFn: () => load(page),
    placeholderData: keepPreviousData,
    refetchInterval: refetchInterval && ((query) => refetchInterval(query.state.data)),
  });
  return {
    paging,
    list,
    /** The Table's rows, loading and pagination. */
    table: {
      dataSource: list.data?.rows,
      loading: list.isPending,
      pagination: paging.pagination(list.data?.total),
    },
  };
}
