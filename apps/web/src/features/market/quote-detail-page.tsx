/**
 * Quote detail (tab 2, where trading happens): the product's live price, the day's statistics,
 * its candles, the favourite toggle, the market's open or closed state, and the fast-trade panel
 * with the user's recent fast trades.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { StarFill, StarOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '@bourse/shared';
import { addOption, delOption, fetchProduct, type CandleInterval } from '../../api/market';
import { showToast } from '../../api';
import { isSignedIn } from '../../api/session';
import { changeClass, formatChangeRate } from '../../components/quote-row';
import { SimulatedLabel } from '../../components/simulated-label';
import { useLiveTicker } from '../../hooks/use-live-tickers';
import { useSubmit } from '../../hooks/use-submit';
import { navigateTo } from '../../lib/navigation';
import { CandleChart } from './candle-chart';
import { FastTradePanel } from './fast-trade-panel';
import { IntervalTabs } from './interval-tabs';
import { useProductQuery } from './use-product-query';

export default function QuoteDetailPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { productType, productCode } = useProductQuery();
  const [interval, setCandleInterval] = useState<CandleInterval>('15m');
  const queryKey = ['product', productType, productCode];
  const product = useQuery({ queryKey, queryFn: () => fetchProduct(productType, productCode) });
  const live = useLiveTicker(productType, productCode);
  const ticker = live ?? product.data?.tickerInfo ?? undefined;
  const data = product.data;

  const favourite = useSubmit(async () => {
    if (!data) return;
    if (!isSignedIn()) {
      navigateTo('login');
      return;
    }
    if (data.isOption) await delOption(data);
    else await addOption(data);
    showToast(t(data.isOption ? 'market_favoriteRemoved' : 'market_favoriteAdded'));
    await queryClient.invalidateQueries({ queryKey });
    await queryClient.invalidateQueries({ queryKey: ['products'] });
  });

  if (product.isSuccess && !data) {
    return (
      <div className="page page-center" data-testid="quote-detail-page">
        <p className="muted">{t('hint_productUnknown')}</p>
        <button type="button" className="button-primary" onClick={() => navigateTo('quotes')}>
          {t('tab_quotes')}
        </button>
      </div>
    );
  }

  const direction = changeClass(ticker?.changeRate);
  const scale = data?.priceScale ?? 2;
  const stats: [string, string | undefined][] = [
    ['market_open', ticker?.dayOpen],
    ['market_high', ticker?.dayMax],
    ['market_low', ticker?.dayMin],
    ['market_prevClose', ticker?.prevDayClose],
    ['market_volume', ticker?.dayVolume],
    ['market_amount', ticker?.tradeAmount],
  ];
  return (
    <div className="page" data-testid="quote-detail-page">
      <header className="home-header">
        <div className="stack" style={{ gap: 2, minWidth: 0 }}>
          <strong className="ellipsis" style={{ fontSize: 18 }} data-testid="detail-name">
            {data?.productName ?? productCode}
          </strong>
          <span className="muted" style={{ fontSize: 12 }}>
            {productCode}
          </span>
        </div>
        <span className="spacer" />
        <button
          type="button"
          className="icon-button"
          aria-pressed={Boolean(data?.isOption)}
          aria-label={t(data?.isOption ? 'market_removeFavorite' : 'market_addFavorite')}
          data-testid="favorite-toggle"
          disabled={!data || favourite.pending}
          onClick={() => void favourite.submit()}
        >
          {data?.isOption ? <StarFill color="var(--accent)" /> : <StarOutline />}
        </button>
      </header>
      <SimulatedLabel simulated={data?.simulated} />
      {data && !data.marketOpen && (
        <div className="market-closed" role="status" data-testid="market-closed">
          {t('market_closedNotice')}
        </div>
      )}
      <section className="detail-price">
        <span className={`balance ${direction}`} data-testid="detail-price">
          {ticker ? formatAmount(ticker.nowPrice, { decimals: scale }) : '- -'}
        </span>
        <span className={direction}>
          {ticker
            ? `${formatAmount(ticker.changePrice, { decimals: scale })}  ${formatChangeRate(ticker.changeRate)}`
            : ''}
        </span>
      </section>
      <dl className="detail-stats">
        {stats.map(([label, value]) => (
          <div key={label}>
            <dt className="muted">{t(label)}</dt>
            <dd>{value ?? '- -'}</dd>
          </div>
        ))}
      </dl>
      <IntervalTabs value={interval} onChange={setCandleInterval} />
      {data && (
        <CandleChart
          productType={productType}
          productCode={productCode}
          interval={interval}
          priceScale={scale}
        />
      )}
      <div className="page-body">
        <button
          type="button"
          className="link"
          data-testid="open-kline"
          onClick={() => navigateTo('kline', { productType, productCode })}
        >
          {t('market_fullChart')}
        </button>
      </div>
      {data && (
        <FastTradePanel
          productType={productType}
          productCode={productCode}
          positionTypes={(data as { PositionType?: number[] }).PositionType}
        />
      )}
    </div>
  );
}
