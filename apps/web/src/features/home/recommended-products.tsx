/**
 * m-quolist: the recommended products, live, with the simulated-data label when it applies; and
 * the market-first layouts' movers, tiles of the same products and prices.
 */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { formatAmount, PRODUCT_TYPES } from '@bourse/shared';
import { fetchRecommended, type Product, type TickerInfo } from '../../api/market';
import { changeClass, formatChangeRate, QuoteRow } from '../../components/quote-row';
import { SimulatedLabel } from '../../components/simulated-label';
import { useLiveTickers } from '../../hooks/use-live-tickers';
import { navigateTo } from '../../lib/navigation';

/** The recommended products with their live tickers (one query and one subscription shared). */
function useRecommended() {
  const queryClient = useQueryClient();
  const recommended = useQuery({ queryKey: ['recommended'], queryFn: fetchRecommended });
  const resync = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: ['recommended'] }),
    [queryClient],
  );
  const live = useLiveTickers(PRODUCT_TYPES, resync);
  const open = useCallback((product: Product) => {
    navigateTo('quoteDetail', {
      productType: product.productType,
      productCode: product.productCode,
    });
  }, []);
  const tickerOf = (product: Product): TickerInfo | null | undefined =>
    live.get(`${product.productType}:${product.productCode}`) ?? product.tickerInfo;
  return { rows: recommended.data?.rows ?? [], pending: recommended.isPending, tickerOf, open };
}

/**
 * The list's place while it loads (about six rows): what follows it does not jump when it
 * arrives, and the blocks below the first screen (the news) stay below it until scrolled to.
 */
export function QuoteListPlace() {
  return (
    <section
      className="card"
      style={{ minHeight: 400 }}
      aria-hidden="true"
      data-testid="recommended-pending"
    />
  );
}

export function RecommendedProducts({
  limit,
  title = 'market_recommended',
  flat = false,
}: {
  /** At most this many products (all by default). */
  limit?: number;
  /** Translation key of the heading. */
  title?: string;
  /** Without its card (inside a layout's own section). */
  flat?: boolean;
}) {
  const { t } = useTranslation();
  const { rows, pending, tickerOf, open } = useRecommended();
  if (rows.length === 0) return pending ? <QuoteListPlace /> : null;
  const shown = limit === undefined ? rows : rows.slice(0, limit);
  return (
    <section
      className={flat ? 'quote-block' : 'card quote-block'}
      style={flat ? undefined : { padding: 0, overflow: 'hidden' }}
      data-testid="recommended"
    >
      <div className="row" style={{ padding: '12px 16px 0' }}>
        <strong>{t(title)}</strong>
        <span className="spacer" />
        <button type="button" className="link" onClick={() => navigateTo('quotes')}>
          {t('market_more')}
        </button>
      </div>
      <SimulatedLabel simulated={rows.some((row) => row.simulated)} />
      {shown.map((product) => (
        <QuoteRow key={product.id} product={product} ticker={tickerOf(product)} onOpen={open} />
      ))}
    </section>
  );
}

/** The first products as tiles: name, price and the day's change, coloured. */
export function MarketMovers({ count = 3 }: { count?: number }) {
  const { rows, tickerOf, open } = useRecommended();
  if (rows.length === 0) return <div className="movers movers-pending" aria-hidden="true" />;
  return (
    <section className="movers" data-testid="market-movers">
      {rows.slice(0, count).map((product) => {
        const ticker = tickerOf(product);
        const direction = changeClass(ticker?.changeRate);
        return (
          <button
            key={product.id}
            type="button"
            className={`mover mover-${direction}`}
            onClick={() => open(product)}
            data-testid={`mover-${product.productCode}`}
          >
            <span className="mover-name ellipsis">{product.productName}</span>
            <span dir="ltr" className="mover-price">
              {ticker?.nowPrice
                ? formatAmount(ticker.nowPrice, { decimals: product.priceScale })
                : '- -'}
            </span>
            <span dir="ltr" className={`quote-change ${direction}`}>
              {formatChangeRate(ticker?.changeRate)}
            </span>
          </button>
        );
      })}
    </section>
  );
}
