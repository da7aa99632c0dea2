/**
 * The spot tab of the positions screen: what the user holds (quantity, the part resting sells
 * froze, average cost, value and result at the live price) with a shortcut to sell (in a sheet
 * here when the market no longer lists the product), the coins traded coin to coin (wallet
 * balances, with the average cost of what coin to coin bought), and the spot order history.
 */
import { lazy, Suspense, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import {
  SPOT_ORDER_STATUS,
  ORDER_DIRECTION,
  POSITION_TYPE,
  PRODUCT_TYPE,
  add,
  cmp,
  isPositive,
  mul,
  sub,
  toScale,
  type BibiAsset,
  type Holding,
  type ProductType,
} from '@bourse/shared';
import { fetchProduct } from '../../api/market';
import { BottomSheet } from '../../components/bottom-sheet';
import { useLiveTicker } from '../../hooks/use-live-tickers';
import { useSubmit } from '../../hooks/use-submit';
import { navigateTo } from '../../lib/navigation';
import { currencyScale, money, signedMoney, tradeCurrencyId } from '../../lib/trade';
import { useBibiAssets, useBook, useHoldings } from './hooks';
import { OrderRows, priceScaleOf } from './order-list';
import { Line } from './parts';
import {
  LIVE_REFRESH_MS,
  TRADING_KEY,
  fetchSpotOrders,
  heldProduct,
  priceText,
  quantityText,
  returnRate,
  type TradableProduct,
} from './trading-api';

/** The spot form, loaded when a holding of a product the market no longer lists is sold. */
const SpotPanel = lazy(() => import('./spot-panel'));

function HoldingCard({ holding }: { holding: Holding }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const live = useLiveTicker(holding.productType, holding.productCode);
  const [unlisted, setUnlisted] = useState<TradableProduct>();
  // The sell shortcut opens the quote detail on the sell side. A product the operator hid is not
  // there, but what the user holds of it still sells (PRODUCT section 1, rule 8): in a sheet here.
  const sell = useSubmit(async () => {
    const listed = await queryClient.fetchQuery({
      queryKey: ['product', holding.productType, holding.productCode],
      queryFn: () => fetchProduct(holding.productType as ProductType, holding.productCode),
    });
    if (listed)
      navigateTo('quoteDetail', {
        productType: holding.productType,
        productCode: holding.productCode,
        mode: 'spot',
        side: ORDER_DIRECTION.down,
      });
    else
      setUnlisted(
        heldProduct({
          productType: holding.productType,
          productCode: holding.productCode,
          productName: holding.productName,
          quantities: [holding.quantity, holding.frozenQuantity],
          price: holding.nowPrice ?? holding.averageCost,
        }),
      );
  });
  const scale = currencyScale(tradeCurrencyId()) ?? 4;
  const price = live?.nowPrice ?? holding.nowPrice ?? undefined;
  const priceScale = priceScaleOf(price ?? holding.nowPrice);
  const value = price ? toScale(mul(holding.quantity, price), scale) : holding.marketValue;
  const pnl = value ? toScale(sub(value, holding.costAmount), scale) : holding.unrealizedPnl;
  const rate = pnl ? returnRate(pnl, holding.costAmount) : undefined;
  const sign = pnl ? cmp(pnl, '0') : 0;
  const pnlClass = sign > 0 ? 'up' : sign < 0 ? 'down' : '';
  return (
    <article className="position-card" data-testid={`holding-${holding.productCode}`}>
      <div className="row" style={{ gap: 6, minWidth: 0 }}>
        <strong className="ellipsis">{holding.productName || holding.productCode}</strong>
        <span className="muted" style={{ fontSize: 12 }}>
          {holding.productCode}
        </span>
        <span className="spacer" />
        <Button
          size="small"
          color="danger"
          fill="outline"
          loading={sell.pending}
          disabled={sell.pending}
          data-testid={`holding-${holding.productCode}-sell`}
          onClick={() => void sell.submit()}
        >
          {t('trade_sell')}
        </Button>
      </div>
      <div className="position-pnl">
        <span className="muted">{t('position_unrealizedPnl')}</span>
        <strong className={pnlClass} data-testid={`holding-${holding.productCode}-pnl`}>
          {signedMoney(pnl, scale)} {holding.currencyName}
        </strong>
        {rate && (
          <span className={pnlClass} style={{ fontSize: 12 }}>
            {rate}
          </span>
        )}
      </div>
      <div className="trade-grid">
        <Line label={t('trade_quantity')} testId={`holding-${holding.productCode}-quantity`}>
          {quantityText(holding.quantity)}
        </Line>
        <Line label={t('position_frozen')}>{quantityText(holding.frozenQuantity)}</Line>
        <Line label={t('position_averageCost')}>
          {priceText(holding.averageCost, Math.max(priceScale, 2))}
        </Line>
        <Line label={t('position_lastPrice')}>{priceText(price, priceScale)}</Line>
        <Line label={t('position_cost')}>{money(holding.costAmount, scale)}</Line>
        <Line label={t('position_value')} testId={`holding-${holding.productCode}-value`}>
          {money(value, scale)}
        </Line>
      </div>
      <BottomSheet
        visible={Boolean(unlisted)}
        onClose={() => setUnlisted(undefined)}
        onMaskClick={() => setUnlisted(undefined)}
        destroyOnClose
        bodyClassName="trade-sheet"
      >
        {unlisted && (
          <Suspense fallback={<p className="muted">{t('common_loading')}</p>}>
            <SpotPanel
              product={unlisted}
              ticker={price ? { nowPrice: price } : undefined}
              initialSide={ORDER_DIRECTION.down}
            />
          </Suspense>
        )}
      </BottomSheet>
    </article>
  );
}

/** A coin held coin to coin: what is available and frozen, its average cost and value now. */
function BibiAssetCard({ asset }: { asset: BibiAsset }) {
  const { t } = useTranslation();
  const live = useLiveTicker(PRODUCT_TYPE.crypto, asset.productCode);
  const scale = currencyScale(tradeCurrencyId()) ?? 4;
  const price = live?.nowPrice;
  const priceScale = priceScaleOf(price ?? asset.averageCost);
  const held = add(asset.bibiAmount, asset.frozenAmount);
  return (
    <article className="position-card" data-testid={`bibi-asset-${asset.productCode}`}>
      <div className="row" style={{ gap: 6, minWidth: 0 }}>
        <strong className="ellipsis">{asset.productCode}</strong>
        <span className="spacer" />
        <Button
          size="small"
          fill="outline"
          data-testid={`bibi-asset-${asset.productCode}-trade`}
          onClick={() => navigateTo('bibi', { productCode: asset.productCode })}
        >
          {t('trade_bibiLink')}
        </Button>
      </div>
      <div className="trade-grid">
        <Line label={t('trade_available')} testId={`bibi-asset-${asset.productCode}-available`}>
          {quantityText(asset.bibiAmount)}
        </Line>
        <Line label={t('position_frozen')}>{quantityText(asset.frozenAmount)}</Line>
        <Line label={t('position_averageCost')}>
          {priceText(asset.averageCost, Math.max(priceScale, 2))}
        </Line>
        <Line label={t('position_lastPrice')}>{priceText(price, priceScale)}</Line>
        <Line label={t('position_value')}>
          {money(price ? toScale(mul(held, price), scale) : undefined, scale)}
        </Line>
      </div>
    </article>
  );
}

export function SpotHoldings() {
  const { t } = useTranslation();
  const book = useBook();
  const holdings = useHoldings(true);
  const orders = useQuery({
    queryKey: [TRADING_KEY.spotOrders, 'recent', book],
    queryFn: () => fetchSpotOrders('spot', { pageSize: 20 }),
    refetchInterval: (query) =>
      query.state.data?.rows.some((row) => row.status === SPOT_ORDER_STATUS.open)
        ? LIVE_REFRESH_MS
        : false,
  });
  const held = (holdings.data ?? []).filter(
    (row) => row.positionType === POSITION_TYPE.spot && isPositive(row.quantity),
  );
  const coins = useBibiAssets(true);
  return (
    <div className="stack" style={{ gap: 8 }} data-testid="spot-holdings">
      <h2 className="section-title">{t('position_holdings')}</h2>
      {holdings.isSuccess && held.length === 0 && (
        <p className="muted empty-note">{t('position_noHoldings')}</p>
      )}
      {held.map((holding) => (
        <HoldingCard key={`${holding.productType}:${holding.productCode}`} holding={holding} />
      ))}
      {(coins.data?.length ?? 0) > 0 && (
        <>
          <h2 className="section-title">{t('position_bibiAssets')}</h2>
          {coins.data!.map((asset) => (
            <BibiAssetCard key={asset.productCode} asset={asset} />
          ))}
        </>
      )}
      <h2 className="section-title">{t('position_spotOrders')}</h2>
      <div className="card order-list">
        <OrderRows
          orders={orders.data?.rows ?? []}
          loaded={orders.isSuccess}
          empty="trade_noOrders"
        />
      </div>
    </div>
  );
}
