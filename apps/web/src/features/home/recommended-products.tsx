/** m-quolist: the recommended products, live, with the simulated-data label when it applies. */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { PRODUCT_TYPES } from '@bourse/shared';
import { fetchRecommended, type Product } from '../../api/market';
import { QuoteRow } from '../../components/quote-row';
import { SimulatedLabel } from '../../components/simulated-label';
import { useLiveTickers } from '../../hooks/use-live-tickers';
import { navigateTo } from '../../lib/navigation';

export function RecommendedProducts() {
  const { t } = useTranslation();
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
  const rows = recommended.data?.rows ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="card" style={{ padding: 0, overflow: 'hidden' }} data-testid="recommended">
      <div className="row" style={{ padding: '12px 16px 0' }}>
        <strong>{t('market_recommended')}</strong>
        <span className="spacer" />
        <button type="button" className="link" onClick={() => navigateTo('quotes')}>
          {t('market_more')}
        </button>
      </div>
      <SimulatedLabel simulated={rows.some((row) => row.simulated)} />
      {rows.map((product) => (
        <QuoteRow
          key={product.id}
          product={product}
          ticker={live.get(`${product.productType}:${product.productCode}`) ?? product.tickerInfo}
          onOpen={open}
        />
      ))}
    </section>
  );
}
