/**
 * A list the server sends page by page (`{ rows, total }` a page), for a screen that shows the
 * first page and a "more" button: the rows so far, whether they are loaded, whether there are more
 * and how to get them.
 */
import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';

export interface PagedRows<T> {
  rows: T[];
  /** The first page has arrived (so no rows means none). */
  loaded: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

export function usePagedRows<T>({
  queryKey,
  fetchPage,
  pageSize,
  refreshMs,
}: {
  queryKey: QueryKey;
  fetchPage: (pageNum: number) => Promise<{ rows: T[]; total: number }>;
  pageSize: number;
  /** How often to read the list again while it shows these rows (of its first page), if at all. */
  refreshMs?: (rows: readonly T[]) => number | false;
}): PagedRows<T> {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.length * pageSize < last.total ? pages.length + 1 : undefined,
    refetchInterval:
      refreshMs && ((current) => refreshMs(current.state.data?.pages[0]?.rows ?? [])),
  });
  return {
    rows: query.data?.pages.flatMap((page) => page.rows) ?? [],
    loaded: query.isSuccess,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
