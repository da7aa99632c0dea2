/** Search every market by code or by name in any language. */
import { useCallback, useEffect, useState } from 'react';
import { SearchBar } from 'antd-mobile';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { PRODUCT_TYPES, UI } from '@bourse/shared';
import { fetchProducts, PRODUCT_LISTS, PRODUCT_TYPE_LABEL, type Product } from '../../api/market';
import { PageHeader } from '../../components/page-header';
import { QuoteRow } from '../../components/quote-row';
import { SimulatedLabel } from '../../components/simulated-label';
import { useLiveTickers } from '../../hooks/use-live-tickers';
import { navigateTo } from '../../lib/navigation';

export default function SearchPage() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [keyWords, setKeyWords] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyWords(text.trim()), UI.debounceMs);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useQueries({
    queries: PRODUCT_TYPES.map((type) => ({
      queryKey: ['search', type, keyWords],
      queryFn: () => fetchProducts(PRODUCT_LISTS[type], 1, 20, keyWords),
      enabled: keyWords.length > 0,
    })),
  });
  const live = useLiveTickers(keyWords ? PRODUCT_TYPES : []);
  const open = useCallback((product: Product) => {
    navigateTo('quoteDetail', {
      productType: product.productType,
      productCode: product.productCode,
    });
  }, []);
  const found = results.some((result) => (result.data?.rows.length ?? 0) > 0);
  const done = results.every((result) => !result.isFetching);
  return (
    <div className="page" data-testid="search-page">
      <PageHeader title={t('market_search')} />
      <SimulatedLabel
        simulated={results.some((result) => result.data?.rows.some((row) => row.simulated))}
      />
      <div style={{ padding: 12 }}>
        <SearchBar
          placeholder={t('market_searchPlaceholder')}
          value={text}
          onChange={setText}
          autoFocus
          data-testid="search-input"
        />
      </div>
      {PRODUCT_TYPES.map((type, index) => {
        const rows = results[index]?.data?.rows ?? [];
        if (rows.length === 0) return null;
        return (
          <section key={type}>
            <h2 className="section-title">{t(PRODUCT_TYPE_LABEL[type])}</h2>
            {rows.map((product) => (
              <QuoteRow
                key={product.id}
                product={product}
                ticker={live.get(`${type}:${product.productCode}`) ?? product.tickerInfo}
                onOpen={open}
              />
            ))}
          </section>
        );
      })}
      {keyWords && done && !found && (
        <p
          className="muted"
          style={{ textAlign: 'center', padding: 32 }}
          data-testid="search-empty"
        >
          {t('market_noResults')}
        </p>
      )}
    </div>
  );
}
