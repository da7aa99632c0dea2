/**
 * The buy and sell form of spot (position type 2, on the quote detail) and coin-to-coin (3, on
 * the bibi screen): market or limit, a quantity in whole lots with shortcuts to a share of the
 * money available (buys) or of what is held (sells), the fee and the total before a confirmation.
 * A halted product takes sells only: the buy side says why (PRODUCT section 1, rule 8).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SPOT_ORDER_STATUS,
  ORDER_DIRECTION,
  POSITION_TYPE,
  gt,
  max,
  normalize,
  parseDecimal,
  sub,
  isMultipleOf,
  spotPreview,
  spotQuantityForShare,
  type TickerInfo,
} from '@bourse/shared';
import { showToast } from '../../api';
import { isSignedIn } from '../../api/session';
import { AmountField } from '../../components/amount-field';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { currencyName, currencyScale, money, tradeCurrencyId } from '../../lib/trade';
import type { OrderPanelProps } from './contract-panel';
import { useBibiAssets, useFeeRate, useHoldings, useTradeBalance } from './hooks';
import {
  FeeLine,
  OrderConfirm,
  OrderPriceFields,
  SubmitOrder,
  useOrderFlow,
  useOrderPrice,
} from './order-form';
import { Line, Shares, Sides, closedReason } from './parts';
import { placeSpotOrder, priceText, quantityText, type SpotKind } from './trading-api';

/** The coin or share a product trades: BTC of BTCUSDT, AAPL of AAPL. */
export function baseAsset(productCode: string): string {
  return productCode.endsWith('USDT') && productCode.length > 4
    ? productCode.slice(0, -4)
    : productCode;
}

/** How much of the product the user can sell now (held less what resting sells froze). */
export function useSellable(kind: SpotKind, productType: number, productCode: string) {
  const signedIn = isSignedIn();
  const holdings = useHoldings(signedIn && kind === 'spot');
  const assets = useBibiAssets(signedIn && kind === 'bibi');
  if (!signedIn) return undefined;
  if (kind === 'bibi') {
    if (!assets.data) return undefined;
    const asset = assets.data.find((row) => row.productCode === productCode);
    return asset ? normalize(asset.bibiAmount) : '0';
  }
  if (!holdings.data) return undefined;
  const holding = holdings.data.find(
    (row) =>
      row.productCode === productCode &&
      row.productType === productType &&
      row.positionType === POSITION_TYPE.spot,
  );
  return holding ? max(sub(holding.quantity, holding.frozenQuantity), '0') : '0';
}

export default function SpotPanel({
  product,
  ticker,
  initialSide,
  kind = 'spot',
}: Omit<OrderPanelProps, 'ticker'> & {
  /** The live price (nothing else of the ticker is read). */
  ticker: Pick<TickerInfo, 'nowPrice'> | undefined;
  kind?: SpotKind;
}) {
  const { t } = useTranslation();
  const prefix = kind === 'bibi' ? 'bibi' : 'spot';
  const flow = useOrderFlow(prefix);
  const [direction, setDirection] = useState<number>(initialSide ?? ORDER_DIRECTION.up);
  const [quantity, setQuantity] = useState('');

  const currencyId = tradeCurrencyId();
  const scale = currencyScale(currencyId) ?? 4;
  const unit = currencyName(currencyId);
  const coin = baseAsset(product.productCode);
  const priceScale = product.priceScale;
  const step = normalize(product.standard || '1');
  const buy = direction === ORDER_DIRECTION.up;
  const positionType = kind === 'bibi' ? POSITION_TYPE.coinToCoin : POSITION_TYPE.spot;
  const fee = useFeeRate(product.productType, positionType, direction);
  const balance = useTradeBalance(flow.signedIn);
  const cash = balance.data?.amount;
  const sellable = useSellable(kind, product.productType, product.productCode);
  const available = buy ? cash : sellable;
  // A halted product takes no buy; its sells stay open (PRODUCT section 1, rule 8).
  const closed = closedReason(product, buy);

  const price = useOrderPrice(direction, priceScale, ticker?.nowPrice);
  const { orderType, limitValue, fill } = price;
  const quantityParsed = parseDecimal(quantity);
  const preview =
    fill && quantityParsed.ok && fee.known
      ? spotPreview(direction, fill.price, quantityParsed.value, fee.rate, scale)
      : undefined;

  function quantityProblem(): string | undefined {
    if (!quantity) return t('trade_quantityRequired');
    if (!quantityParsed.ok)
      return quantityParsed.problem === 'sign'
        ? translate('hint_orderTooSmall', [step])
        : t('trade_amountInvalid');
    if (!isMultipleOf(quantityParsed.value, step)) return translate('hint_quantityStep', [step]);
    if (buy && cash !== undefined && preview && gt(preview.total, cash))
      return translate('hint_insufficientBalance');
    if (!buy && sellable !== undefined && gt(quantityParsed.value, sellable))
      return translate('hint_insufficientHolding', [quantityText(sellable), coin]);
    return undefined;
  }

  const quantityError = quantityProblem();
  const showQuantityError = quantity || flow.touched ? quantityError : undefined;

  function share(value: string) {
    if (available === undefined || !fill) return;
    setQuantity(
      spotQuantityForShare(direction, value, available, fill.price, step, fee.rate, scale),
    );
    flow.setTouched(true);
  }

  const fillKey = JSON.stringify([product.productCode, direction, orderType, limitValue, quantity]);

  const place = useSubmit(async () => {
    if (!quantityParsed.ok) return;
    const order = await flow.send(fillKey, (requestId) =>
      placeSpotOrder(kind, {
        productType: product.productType,
        productCode: product.productCode,
        orderDirection: direction,
        orderType,
        price: limitValue,
        quantity: quantityParsed.value,
        requestId,
      }),
    );
    setQuantity('');
    showToast(
      t(order.status === SPOT_ORDER_STATUS.open ? 'trade_limitPlaced' : 'trade_orderFilled'),
    );
  });

  const availableText =
    available === undefined
      ? '- -'
      : buy
        ? `${money(available, scale)} ${unit}`
        : `${quantityText(available)} ${coin}`;
  return (
    <section
      className="card stack trade-panel"
      aria-label={t(kind === 'bibi' ? 'trade_bibiTitle' : 'trade_spotTitle')}
      data-testid={`${prefix}-panel`}
    >
      <Sides
        value={direction}
        onChange={(side) => {
          setDirection(side);
          setQuantity('');
          flow.setTouched(false);
        }}
        labels={['trade_buy', 'trade_sell']}
        testId={`${prefix}-side`}
      />
      <OrderPriceFields price={price} prefix={prefix} touched={flow.touched} unit={unit} />
      <AmountField
        label={t('trade_quantity')}
        id={`${prefix}-quantity`}
        error={showQuantityError}
        placeholder={translate('trade_lotSize', [quantityText(step)])}
        value={quantity}
        onChange={setQuantity}
      >
        <span className="muted">{coin}</span>
      </AmountField>
      <Shares
        onPick={share}
        disabled={available === undefined || !fill || !fee.known}
        testId={`${prefix}-share`}
      />
      <div className="trade-lines">
        <Line
          label={t(buy ? 'trade_available' : 'trade_availableToSell')}
          testId={`${prefix}-available`}
        >
          {availableText}
        </Line>
        <Line label={t('trade_price')} testId={`${prefix}-fill-price`}>
          {fill ? priceText(fill.price, priceScale) : '- -'}
        </Line>
        <Line label={t('trade_amount')} testId={`${prefix}-amount`}>
          {preview ? `${money(preview.amount, scale)} ${unit}` : '- -'}
        </Line>
        <FeeLine
          fee={fee}
          amount={preview?.fee}
          scale={scale}
          unit={unit}
          testId={`${prefix}-fee`}
        />
        <Line
          label={t(buy ? 'trade_totalPay' : 'trade_totalReceive')}
          testId={`${prefix}-total`}
          strong
        >
          {preview ? `${money(preview.total, scale)} ${unit}` : '- -'}
        </Line>
      </div>
      <SubmitOrder
        flow={flow}
        place={place}
        closed={closed}
        ready={!price.error && !quantityError && preview !== undefined}
        up={buy}
        testId={`${prefix}-submit`}
      >
        {`${t(buy ? 'trade_buy' : 'trade_sell')} ${coin}`}
      </SubmitOrder>

      <OrderConfirm
        flow={flow}
        place={place}
        testId={`${prefix}-confirm`}
        product={product}
        up={buy}
        side={t(buy ? 'trade_buy' : 'trade_sell')}
        price={price}
      >
        {preview && quantityParsed.ok && (
          <>
            <Line label={t('trade_quantity')}>
              {quantityText(quantityParsed.value)} {coin}
            </Line>
            <Line label={t('trade_amount')}>{`${money(preview.amount, scale)} ${unit}`}</Line>
            <Line label={t('trade_fee')}>{`${money(preview.fee, scale)} ${unit}`}</Line>
            <Line label={t(buy ? 'trade_totalPay' : 'trade_totalReceive')} strong>
              {`${money(preview.total, scale)} ${unit}`}
            </Line>
          </>
        )}
      </OrderConfirm>
    </section>
  );
}
