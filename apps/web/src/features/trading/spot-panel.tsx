/**
 * The buy and sell form of spot (position type 2, on the quote detail) and coin-to-coin (3, on
 * the bibi screen): market or limit, a quantity in whole lots with shortcuts to a share of the
 * money available (buys) or of what is held (sells), the fee and the total before a confirmation.
 * A halted product takes sells only: the buy side says why (PRODUCT section 1, rule 8).
 */
import { useState } from 'react';
import { useTranslation } from '../../i18n/react';
import {
  SPOT_ORDER_STATUS,
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
import type { OrderPanelProps } from './contract-panel';
import { useBibiAssets, useHoldings } from './hooks';
import { OrderPanel, useOrderForm } from './order-form';
import { Line, closedReason } from './parts';
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
  const form = useOrderForm({
    name: kind === 'bibi' ? 'bibi' : 'spot',
    product,
    nowPrice: ticker?.nowPrice,
    initialSide,
    positionType: kind === 'bibi' ? POSITION_TYPE.coinToCoin : POSITION_TYPE.spot,
  });
  const { flow, direction, scale, step, fee, price, up: buy } = form;
  const [quantity, setQuantity] = useState('');

  const coin = baseAsset(product.productCode);
  const cash = form.cash;
  const sellable = useSellable(kind, product.productType, product.productCode);
  const available = buy ? cash : sellable;
  // A halted product takes no buy; its sells stay open (PRODUCT section 1, rule 8).
  const closed = closedReason(product, buy);

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

  const totalLabel = t(buy ? 'trade_totalPay' : 'trade_totalReceive');
  return (
    <OrderPanel
      form={form}
      label={t(kind === 'bibi' ? 'trade_bibiTitle' : 'trade_spotTitle')}
      sides={['trade_buy', 'trade_sell']}
      onSide={(side) => {
        form.setDirection(side);
        setQuantity('');
        flow.setTouched(false);
      }}
      priceUnit={form.unit}
      available={{
        label: t(buy ? 'trade_available' : 'trade_availableToSell'),
        value: available,
        text:
          buy || available === undefined
            ? form.money(available)
            : `${quantityText(available)} ${coin}`,
      }}
      onShare={(share, held, at) =>
        setQuantity(spotQuantityForShare(direction, share, held, at, step, fee.rate, scale))
      }
      lines={
        <>
          <Line label={t('trade_price')} testId={`${form.name}-fill-price`}>
            {fill ? priceText(fill.price, form.priceScale) : '- -'}
          </Line>
          <Line label={t('trade_amount')} testId={`${form.name}-amount`}>
            {form.money(preview?.amount)}
          </Line>
        </>
      }
      fee={preview?.fee}
      total={{ label: totalLabel, testId: `${form.name}-total`, value: form.money(preview?.total) }}
      place={place}
      closed={closed}
      ready={!quantityError && preview !== undefined}
      submitText={`${t(buy ? 'trade_buy' : 'trade_sell')} ${coin}`}
      confirmSide={t(buy ? 'trade_buy' : 'trade_sell')}
      confirm={
        preview &&
        quantityParsed.ok && (
          <>
            <Line label={t('trade_quantity')}>
              {quantityText(quantityParsed.value)} {coin}
            </Line>
            <Line label={t('trade_amount')}>{form.money(preview.amount)}</Line>
            <Line label={t('trade_fee')}>{form.money(preview.fee)}</Line>
            <Line label={totalLabel} strong>
              {form.money(preview.total)}
            </Line>
          </>
        )
      }
    >
      <AmountField
        label={t('trade_quantity')}
        id={`${form.name}-quantity`}
        error={showQuantityError}
        placeholder={translate('trade_lotSize', [quantityText(step)])}
        value={quantity}
        onChange={setQuantity}
      >
        <span className="muted">{coin}</span>
      </AmountField>
    </OrderPanel>
  );
}
