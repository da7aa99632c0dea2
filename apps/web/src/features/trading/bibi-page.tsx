/**
 * Coin-to-coin (quoteDetail/bibi, `?productCode=BTCUSDT`): the pair's live price, the buy and sell
 * form, the user's coins of the pair and USDT, the user's own resting orders laid out like an order
 * book (sells above the price, buys below, each to cancel) and the pair's recent fills. A pair
 * the market no longer lists still opens for a user who holds its coin, to sell it.
 */
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/react';
import {
  ORDER_DIRECTION,
  PRODUCT_TYPE,
  SPOT_ORDER_STATUS,
  cmp,
  normalize,
  type SpotOrder,
} from '@bourse/shared';
import { fetchProduct } from '../../api/market';
import { isSignedIn } from '../../api/session';
import { EmptyState, ListStatus } from '../../components/status-views';
import { PageHeader } from '../../components/page-header';
import { changeClass, formatChangeRate } from '../../components/quote-row';
import { SimulatedLabel } from '../../components/simulated-label';
import { useLiveTicker } from '../../hooks/use-live-tickers';
import { navigateTo } from '../../lib/navigation';
import { currencyName, money, tradeCurrencyId } from '../../lib/trade';
import { useBibiAssets, useBook, useSpotOrders, useTradeBalance, useTradingPush } from './hooks';
import { CancelOrderButton, OrderRows } from './order-list';
import { Line } from './parts';
import SpotPanel, { baseAsset } from './spot-panel';
import { heldProduct, priceText, quantityText, tradeScale } from './trading-api';

/** The pair of `?productCode=`, and the side `?side=` opens the form on (buy when none). */
function usePair(): { productCode: string; side: number | undefined } {
  const [search] = useSearchParams();
  const code = (search.get('productCode') ?? '').toUpperCase();
  const side = Number(search.get('side'));
  return {
    productCode: /^[A-Z0-9.]{1,16}$/.test(code) ? code : 'BTCUSDT',
    side: side === ORDER_DIRECTION.up || side === ORDER_DIRECTION.down ? side : undefined,
  };
}

/** One of the user's resting orders in the book: price, quantity, cancel. */
function BookRow({ order, priceScale }: { order: SpotOrder; priceScale: number }) {
  const buy = order.orderDirection === ORDER_DIRECTION.up;
  return (
    <div className={`book-row ${buy ? 'book-buy' : 'book-sell'}`} data-testid={`book-${order.id}`}>
      <span className={buy ? 'up' : 'down'}>{priceText(order.limitPrice, priceScale)}</span>
      <span>{quantityText(order.quantity)}</span>
      <CancelOrderButton kind="bibi" id={order.id} fill="none" testId={`book-${order.id}-cancel`} />
    </div>
  );
}

function MyBook({
  productCode,
  price,
  priceScale,
}: {
  productCode: string;
  price: string | undefined;
  priceScale: number;
}) {
  const { t } = useTranslation();
  const resting = useSpotOrders(
    'bibi',
    'book',
    { status: SPOT_ORDER_STATUS.open, productCode, pageSize: 100 },
    { live: (rows) => rows.length > 0 },
  );
  const rows = [...resting.rows].sort((a, b) => cmp(b.limitPrice ?? '0', a.limitPrice ?? '0'));
  const sells = rows.filter((row) => row.orderDirection === ORDER_DIRECTION.down);
  const buys = rows.filter((row) => row.orderDirection === ORDER_DIRECTION.up);
  return (
    <section className="card stack my-book" style={{ gap: 4 }} data-testid="bibi-book">
      <strong className="card-title">{t('trade_myBook')}</strong>
      <div className="book-row book-head muted">
        <span>{t('trade_price')}</span>
        <span>{t('trade_quantity')}</span>
        <span />
      </div>
      {sells.map((order) => (
        <BookRow key={order.id} order={order} priceScale={priceScale} />
      ))}
      <div className="book-price" data-testid="bibi-book-price">
        {price ? priceText(price, priceScale) : '- -'}
      </div>
      {buys.map((order) => (
        <BookRow key={order.id} order={order} priceScale={priceScale} />
      ))}
      <ListStatus
        list={resting}
        count={rows.length}
        empty={{ title: t('trade_noRestingOrders') }}
        skeletonRows={1}
      />
    </section>
  );
}

function Balances({ productCode, priceScale }: { productCode: string; priceScale: number }) {
  const { t } = useTranslation();
  const assets = useBibiAssets(true);
  const balance = useTradeBalance(true);
  const currencyId = tradeCurrencyId();
  const scale = tradeScale();
  const coin = baseAsset(productCode);
  const asset = assets.data?.find((row) => row.productCode === productCode);
  return (
    <section className="card stack" style={{ gap: 6 }} data-testid="bibi-balances">
      <strong className="card-title">{t('trade_myAssets')}</strong>
      <Line label={`${coin} · ${t('wallet_available')}`} testId="bibi-coin-available">
        {assets.data ? quantityText(normalize(asset?.bibiAmount ?? '0')) : '- -'}
      </Line>
      <Line label={`${coin} · ${t('wallet_frozen')}`} testId="bibi-coin-frozen">
        {assets.data ? quantityText(normalize(asset?.frozenAmount ?? '0')) : '- -'}
      </Line>
      {asset && (
        <Line label={t('position_averageCost')}>{priceText(asset.averageCost, priceScale)}</Line>
      )}
      <Line label={`${currencyName(currencyId)} · ${t('wallet_available')}`} testId="bibi-usdt">
        {balance.data ? money(balance.data.amount, scale) : '- -'}
      </Line>
    </section>
  );
}

export default function BibiPage() {
  useTradingPush(useBook() !== undefined);
  const { t } = useTranslation();
  const { productCode, side } = usePair();
  const signedIn = isSignedIn();
  const product = useQuery({
    queryKey: ['product', PRODUCT_TYPE.crypto, productCode],
    queryFn: () => fetchProduct(PRODUCT_TYPE.crypto, productCode),
  });
  const live = useLiveTicker(PRODUCT_TYPE.crypto, productCode);
  const assets = useBibiAssets(signedIn);
  const asset = signedIn ? assets.data?.find((row) => row.productCode === productCode) : undefined;
  // A pair the operator hid is no longer listed, but the coins the user holds of it still sell
  // and its resting orders still cancel here (PRODUCT section 1, rule 8).
  const data =
    product.data ??
    (product.isSuccess && asset
      ? heldProduct({
          productType: PRODUCT_TYPE.crypto,
          productCode,
          quantities: [asset.bibiAmount, asset.frozenAmount],
          price: asset.averageCost,
        })
      : undefined);
  const ticker = live ?? data?.tickerInfo ?? undefined;
  const priceScale = data?.priceScale ?? 2;
  const fills = useSpotOrders(
    'bibi',
    'fills',
    { status: SPOT_ORDER_STATUS.filled, productCode, pageSize: 10 },
    { enabled: signedIn },
  );
  const direction = changeClass(ticker?.changeRate);
  return (
    <div className="page" data-testid="bibi-page">
      <PageHeader
        title={t('trade_bibiTitle')}
        right={
          <button
            type="button"
            className="link"
            style={{ fontSize: 13 }}
            onClick={() => navigateTo('bibiOrder', { kind: 'bibi' })}
          >
            {t('trade_myOrders')}
          </button>
        }
      />
      {product.isSuccess && !data ? (
        <EmptyState title={t('hint_productUnknown')} />
      ) : (
        <>
          <SimulatedLabel simulated={product.data?.simulated} />
          <section className="detail-price bibi-price">
            <strong style={{ fontSize: 16 }}>
              {baseAsset(productCode)}/{currencyName(tradeCurrencyId())}
            </strong>
            <span className={`balance ${direction}`} data-testid="bibi-price">
              {ticker ? priceText(ticker.nowPrice, priceScale) : '- -'}
            </span>
            <span dir="ltr" className={direction}>
              {formatChangeRate(ticker?.changeRate)}
            </span>
          </section>
          {data && (
            <SpotPanel
              key={`${productCode}:${side ?? ''}`}
              product={data}
              ticker={ticker}
              kind="bibi"
              initialSide={side}
            />
          )}
          {signedIn && (
            <div className="bibi-sections">
              <Balances productCode={productCode} priceScale={priceScale} />
              <MyBook productCode={productCode} price={ticker?.nowPrice} priceScale={priceScale} />
              <section className="card stack order-list" style={{ gap: 0 }}>
                <strong className="card-title">{t('trade_recentFills')}</strong>
                <OrderRows list={fills} empty="trade_noFills" />
              </section>
            </div>
          )}
        </>
      )}
    </div>
  );
}
