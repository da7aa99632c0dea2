/**
 * The spot tab of the positions screen: what the user holds (quantity, the part resting sells
 * froze, average cost, value and result at the live price) with a shortcut to sell (in a sheet
 * here when the market no longer lists the product), the coins traded coin to coin (wallet
 * balances, with the average cost of what coin to coin bought), and the spot order history.
 */
import { lazy, Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import {
  SPOT_ORDER_STATUS,
  ORDER_DIRECTION,
  POSITION_TYPE,
  PRODUCT_TYPE,
  add,
  isPositive,
  mul,
  sub,
  toScale,
  type BibiAsset,
  type Holding,
  type ProductType,
} from '@bourse/shared';
import { fetchProduct } from '../../api/market';
import { ListStatus, listStateOf } from '../../components/status-views';
import { BottomSheet } from '../../components/bottom-sheet';
import { useLiveTicker } from '../../hooks/use-live-tickers';
import { useSubmit } from '../../hooks/use-submit';
import { navigateTo } from '../../lib/navigation';
import { money } from '../../lib/trade';
import { useBibiAssets, useHoldings, useSpotOrders } from './hooks';
import { OrderRows, priceScaleOf } from './order-list';
import { CardTitle, Line, PositionCard } from './parts';
import {
  heldProduct,
  priceText,
  quantityText,
  tradeScale,
  type TradableProduct,
} from './trading-api';

/** The spot form, loaded when a holding of a product the market no longer lists is sold. */
const SpotPanel = lazy(() => import('./spot-panel'));

/**
 * What is held of a product, its average cost and its last price: all of a spot holding (some of it
 * maybe frozen by resting sells), or the coins available and frozen of coin to coin.
 */
function HeldLines({
  row,
  price,
  priceScale,
}: {
  row: Holding | BibiAsset;
  price: string | undefined;
  priceScale: number;
}) {
  const { t } = useTranslation();
  const coin = 'bibiAmount' in row;
  return (
    <>
      <Line
        label={t(coin ? 'trade_available' : 'trade_quantity')}
        testId={
          coin ? `bibi-asset-${row.productCode}-available` : `holding-${row.productCode}-quantity`
        }
      >
        {quantityText(coin ? row.bibiAmount : row.quantity)}
      </Line>
      <Line label={t('position_frozen')}>
        {quantityText(coin ? row.frozenAmount : row.frozenQuantity)}
      </Line>
      <Line label={t('position_averageCost')}>
        {priceText(row.averageCost, Math.max(priceScale, 2))}
      </Line>
      <Line label={t('position_lastPrice')}>{priceText(price, priceScale)}</Line>
    </>
  );
}

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
  const scale = tradeScale();
  const price = live?.nowPrice ?? holding.nowPrice ?? undefined;
  const priceScale = priceScaleOf(price ?? holding.nowPrice);
  const value = price ? toScale(mul(holding.quantity, price), scale) : holding.marketValue;
  const pnl = value ? toScale(sub(value, holding.costAmount), scale) : holding.unrealizedPnl;
  return (
    <PositionCard
      testId={`holding-${holding.productCode}`}
      head={
        <CardTitle name={holding.productName || holding.productCode} code={holding.productCode}>
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
        </CardTitle>
      }
      result={{ value: pnl, currency: holding.currencyName, base: holding.costAmount }}
      foot={
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
      }
    >
      <HeldLines row={holding} price={price} priceScale={priceScale} />
      <Line label={t('position_cost')}>{money(holding.costAmount, scale)}</Line>
      <Line label={t('position_value')} testId={`holding-${holding.productCode}-value`}>
        {money(value, scale)}
      </Line>
    </PositionCard>
  );
}

/** A coin held coin to coin: what is available and frozen, its average cost and value now. */
function BibiAssetCard({ asset }: { asset: BibiAsset }) {
  const { t } = useTranslation();
  const live = useLiveTicker(PRODUCT_TYPE.crypto, asset.productCode);
  const scale = tradeScale();
  const price = live?.nowPrice;
  const priceScale = priceScaleOf(price ?? asset.averageCost);
  const held = add(asset.bibiAmount, asset.frozenAmount);
  return (
    <PositionCard
      testId={`bibi-asset-${asset.productCode}`}
      head={
        <CardTitle name={asset.productCode}>
          <Button
            size="small"
            fill="outline"
            data-testid={`bibi-asset-${asset.productCode}-trade`}
            onClick={() => navigateTo('bibi', { productCode: asset.productCode })}
          >
            {t('trade_bibiLink')}
          </Button>
        </CardTitle>
      }
    >
      <HeldLines row={asset} price={price} priceScale={priceScale} />
      <Line label={t('position_value')}>
        {money(price ? toScale(mul(held, price), scale) : undefined, scale)}
      </Line>
    </PositionCard>
  );
}

export function SpotHoldings() {
  const { t } = useTranslation();
  const holdings = useHoldings(true);
  const orders = useSpotOrders(
    'spot',
    'recent',
    { pageSize: 20 },
    { live: (rows) => rows.some((row) => row.status === SPOT_ORDER_STATUS.open) },
  );
  const held = (holdings.data ?? []).filter(
    (row) => row.positionType === POSITION_TYPE.spot && isPositive(row.quantity),
  );
  const coins = useBibiAssets(true);
  return (
    <div className="stack" style={{ gap: 8 }} data-testid="spot-holdings">
      <h2 className="section-title">{t('position_holdings')}</h2>
      <ListStatus
        list={listStateOf(holdings)}
        count={held.length}
        empty={{ title: t('position_noHoldings') }}
        skeletonRows={1}
      />
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
        <OrderRows list={orders} empty="trade_noOrders" />
      </div>
    </div>
  );
}
