/** The full-screen chart of a product: every interval, moving averages, paging back in time. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { fetchProduct, type CandleInterval } from '../../api/market';
import { PageHeader } from '../../components/page-header';
import { SimulatedLabel } from '../../components/simulated-label';
import { CandleChart } from './candle-chart';
import { IntervalTabs } from './interval-tabs';
import { useProductQuery } from './use-product-query';

export default function KlinePage() {
  const { t } = useTranslation();
  const { productType, productCode } = useProductQuery();
  const [interval, setCandleInterval] = useState<CandleInterval>('1h');
  const product = useQuery({
    queryKey: ['product', productType, productCode],
    queryFn: () => fetchProduct(productType, productCode),
  });
  return (
    <div className="page" data-testid="kline-page">
      <PageHeader title={product.data?.productName ?? productCode} />
      <SimulatedLabel simulated={product.data?.simulated} />
      <IntervalTabs value={interval} onChange={setCandleInterval} />
      {product.data ? (
        <CandleChart
          productType={productType}
          productCode={productCode}
          interval={interval}
          priceScale={product.data.priceScale}
          height={Math.max(320, window.innerHeight - 200)}
        />
      ) : (
        <p className="muted page-body">
          {t(product.isSuccess ? 'hint_productUnknown' : 'common_loading')}
        </p>
      )}
    </div>
  );
}
