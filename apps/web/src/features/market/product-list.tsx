/**
 * A live, virtualized, endlessly scrolling list of products: pages of 50 from a list call, prices
 * kept current by the conflated `tickers:<type>` topics. A thousand rows scroll smoothly because
 * only the visible ones are drawn.
 */
import { useCallback, useMemo, useRef } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from '../../i18n/react';
import { PRODUCT_TYPES } from '@bourse/shared';
import { fetchProducts, type Product, type ProductListRoute } from '../../api/market';
import { QuoteRow } from '../../components/quote-row';
import { SimulatedLabel } from '../../components/simulated-label';
import { ListStatus, listStateOf, Refreshable } from '../../components/status-views';
import { useLiveTickers } from '../../hooks/use-live-tickers';
import { navigateTo } from '../../lib/navigation';

const PAGE_SIZE = 50;
const ROW_HEIGHT = 64;

export function ProductList({
  list,
  productTypes = PRODUCT_TYPES,
  keyWords,
  emptyText,
}: {
  list: ProductListRoute;
  productTypes?: readonly number[];
  keyWords?: string;
  emptyText?: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queryKey = useMemo(() => ['products', list.path, keyWords ?? ''], [list, keyWords]);
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchProducts(list, pageParam, PAGE_SIZE, keyWords),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined,
  });
  const resync = useCallback(
    () => void queryClient.invalidateQueries({ queryKey }),
    [queryClient, queryKey],
  );
  const live = useLiveTickers(productTypes, resync);
  const rows = useMemo(() => query.data?.pages.flatMap((page) => page.rows) ?? [], [query.data]);

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];
  if (last && last.index >= rows.length - 10 && query.hasNextPage && !query.isFetchingNextPage) {
    void query.fetchNextPage();
  }

  const open = useCallback((product: Product) => {
    navigateTo('quoteDetail', {
      productType: product.productType,
      productCode: product.productCode,
    });
  }, []);

  return (
    <>
      <SimulatedLabel simulated={rows.some((row) => row.simulated)} />
      <div className="quote-head" aria-hidden="true">
        <span>{t('market_name')}</span>
        <span>{t('market_lastPrice')}</span>
        <span style={{ textAlign: 'center' }}>{t('market_change')}</span>
      </div>
      <div className="quote-list" ref={scroller} data-testid="quote-list">
        <Refreshable onRefresh={() => query.refetch()}>
          <ListStatus
            list={listStateOf(query)}
            count={rows.length}
            empty={{ title: emptyText ?? t('common_noData') }}
            skeletonRows={6}
          />
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const product = rows[item.index]!;
              return (
                <div
                  key={product.id}
                  style={{
                    position: 'absolute',
                    top: 0,
                    insetInlineStart: 0,
                    width: '100%',
                    transform: `translateY(${item.start}px)`,
                  }}
                >
                  <QuoteRow
                    product={product}
                    ticker={
                      live.get(`${product.productType}:${product.productCode}`) ??
                      product.tickerInfo
                    }
                    onOpen={open}
                  />
                </div>
              );
            })}
          </div>
        </Refreshable>
      </div>
    </>
  );
}
