/**
 * Quote detail (tab 2, where trading happens): the product's live price, the day's statistics,
 * its candles, the favourite toggle, the market's open or closed state, and the order panel in
 * the modes the product allows (its `PositionType`): fast trade (with the user's recent fast
 * trades), contract and spot. The contract and spot forms belong to the trading feature: the app
 * hands them in (`panels`) and each loads when its mode is first chosen. `?mode=` and `?side=`
 * open a mode and a side directly.
 */
import { Suspense, useState, type ComponentType } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { StarFill, StarOutline } from 'antd-mobile-icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/react';
import { POSITION_TYPE, PRODUCT_TYPE, formatAmount } from '@bourse/shared';
import {
  addOption,
  delOption,
  fetchProduct,
  type CandleInterval,
  type Product,
  type TickerInfo,
} from '../../api/market';
import { showToast } from '../../api';
import { isSignedIn } from '../../api/session';
import { ChoiceRow } from '../../components/choice-row';
import { HeaderIconButton } from '../../components/header-icon-button';
import { changeClass, formatChangeRate } from '../../components/quote-row';
import { SimulatedLabel } from '../../components/simulated-label';
import { useLiveTicker } from '../../hooks/use-live-tickers';
import { useSubmit } from '../../hooks/use-submit';
import { navigateTo } from '../../lib/navigation';
import { CandleChart, CandleChartPlaceholder } from './candle-chart';
import { fetchFastTradeOptions } from './fast-trade-api';
import { FastTradePanel } from './fast-trade-panel';
import { IntervalTabs } from './interval-tabs';
import { OrderBookView } from './order-book';
import { useProductQuery } from './use-product-query';

/** What an order form of another feature gets: the product, its live price, a side to start. */
export interface OrderPanelProps {
  product: Product;
  ticker: TickerInfo | undefined;
  initialSide?: number;
}

/** The order forms the app hands in (trading feature), loaded when their mode is chosen. */
export interface TradePanels {
  contract?: ComponentType<OrderPanelProps>;
  spot?: ComponentType<OrderPanelProps>;
}

type Mode = 'fast' | 'contract' | 'spot';

const MODE_LABEL: Record<Mode, string> = {
  fast: 'fast_title',
  contract: 'trade_contractTitle',
  spot: 'trade_spotTitle',
};

/** The position types a product allows (0 fast, 1 contract, 2 spot, 3 coin-to-coin). */
function positionTypesOf(product: Product | null | undefined): number[] | undefined {
  return (product as { PositionType?: number[] } | null | undefined)?.PositionType;
}

/** The modes a product allows, in tab order; fast while its options are still loading too. */
function useModes(product: Product | null | undefined, panels: TradePanels): Mode[] {
  const positionTypes = positionTypesOf(product);
  const fastOffered = positionTypes?.includes(POSITION_TYPE.fast) ?? false;
  const options = useQuery({
    queryKey: ['fastTradeOptions', product?.productType, product?.productCode],
    queryFn: () => fetchFastTradeOptions(product!.productType, product!.productCode),
    enabled: Boolean(product) && fastOffered,
    retry: false,
  });
  if (!product) return [];
  const modes: Mode[] = [];
  if (fastOffered && (options.isPending || (options.data?.length ?? 0) > 0)) modes.push('fast');
  if (panels.contract && positionTypes?.includes(POSITION_TYPE.contract)) modes.push('contract');
  if (
    panels.spot &&
    positionTypes?.includes(POSITION_TYPE.spot) &&
    (product.productType === PRODUCT_TYPE.usStock || product.productType === PRODUCT_TYPE.crypto)
  )
    modes.push('spot');
  return modes;
}

export default function QuoteDetailPage({ panels = {} }: { panels?: TradePanels }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { productType, productCode } = useProductQuery();
  const [search, setSearch] = useSearchParams();
  const [interval, setCandleInterval] = useState<CandleInterval>('15m');
  const queryKey = ['product', productType, productCode];
  const product = useQuery({ queryKey, queryFn: () => fetchProduct(productType, productCode) });
  const live = useLiveTicker(productType, productCode);
  const ticker = live ?? product.data?.tickerInfo ?? undefined;
  const data = product.data;
  const modes = useModes(data, panels);
  const asked = search.get('mode') as Mode | null;
  const mode = asked && modes.includes(asked) ? asked : modes[0];
  const side = Number(search.get('side')) || undefined;
  const Panel = mode === 'contract' ? panels.contract : mode === 'spot' ? panels.spot : undefined;

  function chooseMode(next: Mode) {
    const query = new URLSearchParams(search);
    query.set('mode', next);
    query.delete('side');
    setSearch(query, { replace: true });
  }

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
  // Every figure as the price is shown: the product's decimals and the thousands separator
  // (volumes to 4 decimals, turnover to 2).
  const stats: [string, string | undefined, number][] = [
    ['market_open', ticker?.dayOpen, scale],
    ['market_high', ticker?.dayMax, scale],
    ['market_low', ticker?.dayMin, scale],
    ['market_prevClose', ticker?.prevDayClose, scale],
    ['market_volume', ticker?.dayVolume, 4],
    ['market_amount', ticker?.tradeAmount, 2],
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
        <HeaderIconButton
          aria-pressed={Boolean(data?.isOption)}
          label={t(data?.isOption ? 'market_removeFavorite' : 'market_addFavorite')}
          testId="favorite-toggle"
          disabled={!data || favourite.pending}
          onClick={() => void favourite.submit()}
        >
          {data?.isOption ? <StarFill color="var(--accent)" /> : <StarOutline />}
        </HeaderIconButton>
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
        {stats.map(([label, value, decimals]) => (
          <div key={label}>
            <dt className="muted">{t(label)}</dt>
            <dd data-testid={`stat-${label}`}>{formatAmount(value, { decimals })}</dd>
          </div>
        ))}
      </dl>
      <IntervalTabs value={interval} onChange={setCandleInterval} />
      {data ? (
        <CandleChart
          productType={productType}
          productCode={productCode}
          interval={interval}
          priceScale={scale}
        />
      ) : (
        <CandleChartPlaceholder />
      )}
      {/* The links come before the modes: the order panel below them grows as it loads, and
          nothing under it moves. */}
      <div className="trade-links">
        <button
          type="button"
          className="link"
          data-testid="open-kline"
          onClick={() => navigateTo('kline', { productType, productCode })}
        >
          {t('market_fullChart')}
        </button>
        {data && (
          <>
            <button
              type="button"
              className="link"
              data-testid="open-positions"
              onClick={() =>
                navigateTo(
                  'contractPosition',
                  mode === 'spot' || mode === 'contract' ? { tab: mode } : { tab: 'fast' },
                )
              }
            >
              {t('trade_myPositions')}
            </button>
            <button
              type="button"
              className="link"
              data-testid="open-orders"
              onClick={() => navigateTo('bibiOrder')}
            >
              {t('trade_myOrders')}
            </button>
            {productType === PRODUCT_TYPE.crypto &&
              positionTypesOf(data)?.includes(POSITION_TYPE.coinToCoin) && (
                <button
                  type="button"
                  className="link"
                  data-testid="open-bibi"
                  onClick={() => navigateTo('bibi', { productCode })}
                >
                  {t('trade_bibiLink')}
                </button>
              )}
          </>
        )}
      </div>
      {data && modes.length > 1 && (
        <ChoiceRow
          options={modes}
          value={mode}
          onChange={chooseMode}
          text={(candidate) => t(MODE_LABEL[candidate])}
          tabs
          className="market-tabs trade-modes"
          label={t('trade_modes')}
          testId="trade-modes"
          optionTestId="trade-mode"
        />
      )}
      {data && mode === 'fast' && (
        <FastTradePanel
          productType={productType}
          productCode={productCode}
          positionTypes={positionTypesOf(data)}
        />
      )}
      {data && Panel && (
        <Suspense
          fallback={
            <div className="card trade-panel muted" aria-busy="true">
              {t('common_loading')}
            </div>
          }
        >
          <Panel
            // A fresh form for another product or mode.
            key={`${mode}:${productType}:${productCode}:${side ?? ''}`}
            product={data}
            ticker={ticker}
            initialSide={side}
          />
        </Suspense>
      )}
      {/* Last on the page: the book grows as its levels arrive, and nothing under it moves. */}
      {data && (
        <OrderBookView productType={productType} productCode={productCode} priceScale={scale} />
      )}
    </div>
  );
}
