/**
 * The buy and sell form of spot (position type 2, on the quote detail) and coin-to-coin (3, on
 * the bibi screen): market or limit, a quantity in whole lots with shortcuts to a share of the
 * money available (buys) or of what is held (sells), the fee and the total before a confirmation.
 */
import { useRef, useState } from 'react';
import { Button, Dialog, Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import {
  ORDER_DIRECTION,
  ORDER_TYPE,
  POSITION_TYPE,
  gt,
  max,
  normalize,
  parseDecimal,
  sub,
} from '@bourse/shared';
import { showToast } from '../../api';
import { isSignedIn } from '../../api/session';
import { Field } from '../../components/field';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import type { OrderPanelProps } from './contract-panel';
import { useBibiAssets, useFees, useHoldings, useRefreshTrading, useTradeBalance } from './hooks';
import { Choices, Line, Shares, Sides, cleanAmount, closedReason, useSignIn } from './parts';
import { fillPrice, isMultipleOf, spotPreview, spotQuantityForShare } from './preview';
import {
  currencyName,
  currencyScale,
  feeRateOf,
  money,
  newRequestId,
  percentText,
  placeSpotOrder,
  priceText,
  quantityText,
  tradeCurrencyId,
  type SpotKind,
} from './trading-api';

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
}: OrderPanelProps & { kind?: SpotKind }) {
  const { t } = useTranslation();
  const signedIn = isSignedIn();
  const signIn = useSignIn();
  const refresh = useRefreshTrading();
  const [direction, setDirection] = useState<number>(initialSide ?? ORDER_DIRECTION.up);
  const [orderType, setOrderType] = useState<number>(ORDER_TYPE.market);
  const [limit, setLimit] = useState('');
  const [quantity, setQuantity] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const currencyId = tradeCurrencyId();
  const scale = currencyScale(currencyId) ?? 4;
  const unit = currencyName(currencyId);
  const coin = baseAsset(product.productCode);
  const priceScale = product.priceScale;
  const step = normalize(product.standard || '1');
  const buy = direction === ORDER_DIRECTION.up;
  const positionType = kind === 'bibi' ? POSITION_TYPE.coinToCoin : POSITION_TYPE.spot;
  const fees = useFees();
  const feeRate = feeRateOf(fees.data, product.productType, positionType, direction);
  // No preview (nor order) before the fee table is known: a missing rate is not a zero fee.
  const feeKnown = fees.data !== undefined;
  const balance = useTradeBalance(signedIn);
  const cash = balance.data?.amount;
  const sellable = useSellable(kind, product.productType, product.productCode);
  const available = buy ? cash : sellable;
  const closed = closedReason(product);
  const prefix = kind === 'bibi' ? 'bibi' : 'spot';

  const limitParsed = parseDecimal(limit, { maxScale: priceScale });
  const limitValue =
    orderType === ORDER_TYPE.limit && limitParsed.ok ? limitParsed.value : undefined;
  const current = ticker?.nowPrice;
  const fill =
    current === undefined ? undefined : fillPrice(direction, orderType, limitValue, current);
  const quantityParsed = parseDecimal(quantity);
  const preview =
    fill && quantityParsed.ok && feeKnown
      ? spotPreview(direction, fill.price, quantityParsed.value, feeRate, scale)
      : undefined;

  function priceProblem(): string | undefined {
    if (orderType !== ORDER_TYPE.limit) return undefined;
    if (!limit) return t('hint_limitPriceRequired');
    if (!limitParsed.ok)
      return limitParsed.problem === 'scale'
        ? translate('hint_priceDecimals', [priceScale])
        : t('trade_priceInvalid');
    return undefined;
  }

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

  const priceError = priceProblem();
  const quantityError = quantityProblem();
  const showPriceError = limit || touched ? priceError : undefined;
  const showQuantityError = quantity || touched ? quantityError : undefined;

  function share(value: string) {
    if (available === undefined || !fill) return;
    setQuantity(
      spotQuantityForShare(direction, value, available, fill.price, step, feeRate, scale),
    );
    setTouched(true);
  }

  const fillKey = JSON.stringify([product.productCode, direction, orderType, limitValue, quantity]);
  const request = useRef<{ key: string; id: string } | undefined>(undefined);
  function requestIdFor(key: string): string {
    if (request.current?.key !== key) request.current = { key, id: newRequestId(prefix) };
    return request.current.id;
  }

  const place = useSubmit(async () => {
    if (!quantityParsed.ok) return;
    const order = await placeSpotOrder(kind, {
      productType: product.productType,
      productCode: product.productCode,
      orderDirection: direction,
      orderType,
      price: limitValue,
      quantity: quantityParsed.value,
      requestId: requestIdFor(fillKey),
    }).finally(() => {
      // Refused or placed, the form is in view again (the client has told why it was refused).
      setConfirming(false);
      refresh();
    });
    request.current = undefined;
    setQuantity('');
    setTouched(false);
    showToast(t(order.status === 0 ? 'trade_limitPlaced' : 'trade_orderFilled'));
  });

  function submit() {
    if (!signedIn) {
      signIn();
      return;
    }
    setTouched(true);
    if (closed || priceError || quantityError || !preview) return;
    setConfirming(true);
  }

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
          setTouched(false);
        }}
        labels={['trade_buy', 'trade_sell']}
        testId={`${prefix}-side`}
      />
      <Choices
        label={t('trade_orderType')}
        options={[
          { value: ORDER_TYPE.market, label: t('trade_market') },
          { value: ORDER_TYPE.limit, label: t('trade_limit') },
        ]}
        value={orderType}
        onChange={setOrderType}
        testId={`${prefix}-type`}
      />
      {orderType === ORDER_TYPE.limit && (
        <Field label={t('trade_limitPrice')} htmlFor={`${prefix}-price`} error={showPriceError}>
          <Input
            id={`${prefix}-price`}
            inputMode="decimal"
            autoComplete="off"
            placeholder={current ? priceText(current, priceScale) : ''}
            value={limit}
            maxLength={40}
            onChange={(value) => setLimit(cleanAmount(value))}
          />
          <span className="muted">{unit}</span>
        </Field>
      )}
      <Field label={t('trade_quantity')} htmlFor={`${prefix}-quantity`} error={showQuantityError}>
        <Input
          id={`${prefix}-quantity`}
          inputMode="decimal"
          autoComplete="off"
          placeholder={translate('trade_lotSize', [quantityText(step)])}
          value={quantity}
          maxLength={40}
          onChange={(value) => setQuantity(cleanAmount(value))}
        />
        <span className="muted">{coin}</span>
      </Field>
      <Shares
        onPick={share}
        disabled={available === undefined || !fill || !feeKnown}
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
        <Line
          label={feeKnown ? translate('trade_feeRate', [percentText(feeRate)]) : t('trade_fee')}
          testId={`${prefix}-fee`}
        >
          {preview ? `${money(preview.fee, scale)} ${unit}` : '- -'}
        </Line>
        <Line
          label={t(buy ? 'trade_totalPay' : 'trade_totalReceive')}
          testId={`${prefix}-total`}
          strong
        >
          {preview ? `${money(preview.total, scale)} ${unit}` : '- -'}
        </Line>
      </div>
      {closed && (
        <div className="market-closed" role="status" style={{ margin: 0 }}>
          {t(closed)}
        </div>
      )}
      <Button
        block
        size="large"
        color={buy ? 'success' : 'danger'}
        loading={place.pending}
        disabled={place.pending || Boolean(closed)}
        onClick={submit}
        data-testid={`${prefix}-submit`}
      >
        {signedIn ? `${t(buy ? 'trade_buy' : 'trade_sell')} ${coin}` : t('account_login')}
      </Button>

      <Dialog
        visible={confirming}
        title={t('trade_confirmTitle')}
        closeOnMaskClick={!place.pending}
        onClose={() => setConfirming(false)}
        content={
          preview &&
          quantityParsed.ok && (
            <div className="trade-lines" data-testid={`${prefix}-confirm`}>
              <Line label={product.productName || product.productCode}>
                <span className={buy ? 'up' : 'down'}>{t(buy ? 'trade_buy' : 'trade_sell')}</span>
              </Line>
              <Line label={t('trade_orderType')}>
                {orderType === ORDER_TYPE.limit && limitValue
                  ? `${t('trade_limit')} ${priceText(limitValue, priceScale)}`
                  : t('trade_market')}
              </Line>
              <Line label={t('trade_quantity')}>
                {quantityText(quantityParsed.value)} {coin}
              </Line>
              <Line label={t('trade_amount')}>{`${money(preview.amount, scale)} ${unit}`}</Line>
              <Line label={t('trade_fee')}>{`${money(preview.fee, scale)} ${unit}`}</Line>
              <Line label={t(buy ? 'trade_totalPay' : 'trade_totalReceive')} strong>
                {`${money(preview.total, scale)} ${unit}`}
              </Line>
              {orderType === ORDER_TYPE.market && (
                <p className="muted trade-note">{t('trade_marketNote')}</p>
              )}
            </div>
          )
        }
        actions={[
          [
            {
              key: 'cancel',
              text: t('common_cancel'),
              disabled: place.pending,
              onClick: () => setConfirming(false),
            },
            {
              key: 'confirm',
              text: t('common_confirm'),
              bold: true,
              disabled: place.pending,
              onClick: () => void place.submit(),
            },
          ],
        ]}
      />
    </section>
  );
}
