/**
 * What the contract and the spot order forms share: what a form starts from (`useOrderForm`: the
 * side, the trade currency, the fee rate, the money available, the price) and its frame
 * (`OrderPanel`): the sides, market or limit and the limit price, the shortcuts to a share of what
 * is available, the preview with the fee line, the submit button with the closed notice, the
 * confirmation with the order's summary, and the flow around an order (a visitor signs in first,
 * errors show once it was tried, one request id per order, the trading screens read again after).
 * Each form adds its size fields and its own lines.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { ORDER_DIRECTION, ORDER_TYPE, fillPrice, normalize, parseDecimal } from '@bourse/shared';
import { isSignedIn } from '../../api/session';
import { AmountField } from '../../components/amount-field';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ShareButtons } from '../../components/share-buttons';
import { translate } from '../../i18n';
import { currencyName, money, percentText, tradeCurrencyId, useRequestId } from '../../lib/trade';
import { useFeeRate, useRefreshTrading, useTradeBalance } from './hooks';
import { Choices, Line, Sides, useSignIn } from './parts';
import { priceText, tradeScale, type TradableProduct } from './trading-api';

/**
 * Around an order: a visitor is sent to sign in, the errors show once an order was tried, the
 * confirmation opens when the order is fine, and the order goes out with one request id for as
 * long as it stays the same (a retry reuses it). Refused or placed, the form is in view again and
 * the trading screens read again.
 */
function useOrderFlow(requestPrefix: string) {
  const signedIn = isSignedIn();
  const signIn = useSignIn();
  const refresh = useRefreshTrading();
  const request = useRequestId(requestPrefix);
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return {
    signedIn,
    touched,
    setTouched,
    confirming,
    cancel: () => setConfirming(false),
    /** The submit button: sign in, or show the errors and confirm when the order is `ready`. */
    submit(ready: boolean) {
      if (!signedIn) {
        signIn();
        return;
      }
      setTouched(true);
      if (ready) setConfirming(true);
    },
    /** Sends the order described by `key` with its request id (the client tells a refusal). */
    async send<T>(key: string, order: (requestId: string) => Promise<T>): Promise<T> {
      const result = await order(request.idFor(key)).finally(() => {
        setConfirming(false);
        refresh();
      });
      request.reset();
      setTouched(false);
      return result;
    },
  };
}

type OrderFlow = ReturnType<typeof useOrderFlow>;

/** The submit of a form (see `useSubmit`): the order after its confirmation. */
interface Place {
  pending: boolean;
  submit: () => Promise<void>;
}

/** Market or limit, the limit price as typed and what is wrong with it, and the fill price now. */
function useOrderPrice(direction: number, priceScale: number, current: string | undefined) {
  const { t } = useTranslation();
  const [orderType, setOrderType] = useState<number>(ORDER_TYPE.market);
  const [limit, setLimit] = useState('');
  const limitParsed = parseDecimal(limit, { maxScale: priceScale });
  const limitValue =
    orderType === ORDER_TYPE.limit && limitParsed.ok ? limitParsed.value : undefined;
  const fill =
    current === undefined ? undefined : fillPrice(direction, orderType, limitValue, current);

  function problem(): string | undefined {
    if (orderType !== ORDER_TYPE.limit) return undefined;
    if (!limit) return t('hint_limitPriceRequired');
    if (!limitParsed.ok)
      return limitParsed.problem === 'scale'
        ? translate('hint_priceDecimals', [priceScale])
        : t('trade_priceInvalid');
    return undefined;
  }

  return {
    orderType,
    setOrderType,
    limit,
    setLimit,
    limitValue,
    fill,
    current,
    priceScale,
    error: problem(),
  };
}

type OrderPrice = ReturnType<typeof useOrderPrice>;

/** The market / limit choice and, for a limit, its price (the price now as the placeholder). */
function OrderPriceFields({
  price,
  prefix,
  touched,
  unit,
}: {
  price: OrderPrice;
  /** Of the test ids and the field id: contract, spot, bibi. */
  prefix: string;
  touched: boolean;
  /** Shown after the limit price. */
  unit?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Choices<number>
        label={t('trade_orderType')}
        options={[ORDER_TYPE.market, ORDER_TYPE.limit]}
        text={(type) => t(type === ORDER_TYPE.limit ? 'trade_limit' : 'trade_market')}
        value={price.orderType}
        onChange={price.setOrderType}
        testId={`${prefix}-type`}
      />
      {price.orderType === ORDER_TYPE.limit && (
        <AmountField
          label={t('trade_limitPrice')}
          id={`${prefix}-price`}
          error={price.limit || touched ? price.error : undefined}
          placeholder={price.current ? priceText(price.current, price.priceScale) : ''}
          value={price.limit}
          onChange={price.setLimit}
        >
          {unit && <span className="muted">{unit}</span>}
        </AmountField>
      )}
    </>
  );
}

/** The fee of an order with its currency, the rate in the label once the fee table is known. */
function FeeLine({
  fee,
  amount,
  scale,
  unit,
  testId,
}: {
  /** The rate, as `useFeeRate` tells it. */
  fee: { rate: string; known: boolean };
  /** Not known before there is a preview. */
  amount: string | undefined;
  scale: number;
  unit: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Line
      label={fee.known ? translate('trade_feeRate', [percentText(fee.rate)]) : t('trade_fee')}
      testId={testId}
    >
      {amount === undefined ? '- -' : `${money(amount, scale)} ${unit}`}
    </Line>
  );
}

/**
 * Why no order can be placed now (when none can), and the button that signs a visitor in, or
 * shows the form's errors and, when the order is `ready`, its confirmation.
 */
function SubmitOrder({
  flow,
  place,
  closed,
  ready,
  up,
  testId,
  children,
}: {
  flow: OrderFlow;
  place: Place;
  /** The translation key of `closedReason`. */
  closed: string | undefined;
  ready: boolean;
  up: boolean;
  testId: string;
  /** The label for a signed-in user. */
  children: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {closed && (
        <div className="market-closed" role="status" style={{ margin: 0 }}>
          {t(closed)}
        </div>
      )}
      <Button
        block
        size="large"
        color={up ? 'success' : 'danger'}
        loading={place.pending}
        disabled={place.pending || Boolean(closed)}
        onClick={() => flow.submit(!closed && ready)}
        data-testid={testId}
      >
        {flow.signedIn ? children : t('account_login')}
      </Button>
    </>
  );
}

/**
 * The confirmation of an order: the product and the side, how it is priced, then the lines of its
 * kind (`children`, nothing while the order cannot be shown) and, at market, the note on slippage.
 */
function OrderConfirm({
  flow,
  place,
  testId,
  product,
  up,
  side,
  price,
  children,
}: {
  flow: OrderFlow;
  place: Place;
  testId: string;
  product: { productName: string; productCode: string };
  up: boolean;
  side: React.ReactNode;
  price: OrderPrice;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      visible={flow.confirming}
      title={t('trade_confirmTitle')}
      pending={place.pending}
      onClose={flow.cancel}
      onConfirm={() => void place.submit()}
      content={
        children && (
          <div className="trade-lines" data-testid={testId}>
            <Line label={product.productName || product.productCode}>
              <span className={up ? 'up' : 'down'}>{side}</span>
            </Line>
            <Line label={t('trade_orderType')}>
              {price.orderType === ORDER_TYPE.limit && price.limitValue
                ? `${t('trade_limit')} ${priceText(price.limitValue, price.priceScale)}`
                : t('trade_market')}
            </Line>
            {children}
            {price.orderType === ORDER_TYPE.market && (
              <p className="muted trade-note">{t('trade_marketNote')}</p>
            )}
          </div>
        )
      }
    />
  );
}

/**
 * What an order form starts from: its flow, the side (`initialSide` first), the trade currency
 * with its scale, the product's lot and decimals, the fee rate of the side, the money available
 * and the price.
 */
export function useOrderForm({
  name,
  requestPrefix = name,
  product,
  nowPrice,
  initialSide,
  positionType,
}: {
  /** Of the test ids and the field ids: contract, spot, bibi. */
  name: string;
  /** Of the request ids (the name when not given). */
  requestPrefix?: string;
  product: TradableProduct;
  nowPrice: string | undefined;
  initialSide: number | undefined;
  positionType: number;
}) {
  const flow = useOrderFlow(requestPrefix);
  const [direction, setDirection] = useState<number>(initialSide ?? ORDER_DIRECTION.up);
  const currencyId = tradeCurrencyId();
  const scale = tradeScale();
  const unit = currencyName(currencyId);
  const priceScale = product.priceScale;
  const fee = useFeeRate(product.productType, positionType, direction);
  const balance = useTradeBalance(flow.signedIn);
  const price = useOrderPrice(direction, priceScale, nowPrice);
  return {
    name,
    product,
    flow,
    direction,
    setDirection,
    /** Buy or long. */
    up: direction === ORDER_DIRECTION.up,
    scale,
    unit,
    priceScale,
    step: normalize(product.standard || '1'),
    fee,
    /** The balance of the trade currency (signed in). */
    cash: balance.data?.amount,
    price,
    /** An amount of the trade currency with its unit, or - - while it is not known. */
    money: (amount: string | undefined) =>
      amount === undefined ? '- -' : `${money(amount, scale)} ${unit}`,
  };
}

export type OrderForm = ReturnType<typeof useOrderForm>;

/**
 * The frame of an order form: the sides, what comes `before` the price (the leverage), market or
 * limit, the size fields (`children`), the shortcuts to a share of what is `available`, what
 * comes `after` them, the preview (what is `available`, the `lines` of the kind, the fee and the
 * `total`), the submit button and the confirmation with the `confirm` lines.
 */
export function OrderPanel({
  form,
  label,
  sides,
  onSide = form.setDirection,
  before,
  priceUnit,
  children,
  available,
  onShare,
  after,
  lines,
  fee,
  total,
  place,
  closed,
  ready,
  submitText,
  confirmSide,
  confirm,
}: {
  form: OrderForm;
  /** The form's accessible name. */
  label: string;
  /** Translation keys of the buy (long) and sell (short) sides. */
  sides: readonly [string, string];
  onSide?: (side: number) => void;
  before?: React.ReactNode;
  /** Shown after the limit price. */
  priceUnit?: string;
  children: React.ReactNode;
  available: { label: string; value: string | undefined; text: string };
  /** A share of what is available was picked: `price` is the fill price now. */
  onShare: (share: string, available: string, price: string) => void;
  after?: React.ReactNode;
  lines: React.ReactNode;
  /** The fee of the order, once there is a preview. */
  fee: string | undefined;
  total: { label: string; testId: string; value: React.ReactNode };
  place: Place;
  /** The translation key of `closedReason`. */
  closed: string | undefined;
  /** The size and the rest of the form are fine (the price is checked here). */
  ready: boolean;
  submitText: string;
  confirmSide: React.ReactNode;
  /** The lines of the confirmation; nothing while the order cannot be shown. */
  confirm: React.ReactNode;
}) {
  const { name, flow, price } = form;
  return (
    <section className="card stack trade-panel" aria-label={label} data-testid={`${name}-panel`}>
      <Sides value={form.direction} onChange={onSide} labels={sides} testId={`${name}-side`} />
      {before}
      <OrderPriceFields price={price} prefix={name} touched={flow.touched} unit={priceUnit} />
      {children}
      <ShareButtons
        className="trade-shares"
        onPick={(share) => {
          if (available.value === undefined || !price.fill) return;
          onShare(share, available.value, price.fill.price);
          flow.setTouched(true);
        }}
        disabled={available.value === undefined || !price.fill || !form.fee.known}
        testId={`${name}-share`}
      />
      {after}
      <div className="trade-lines">
        <Line label={available.label} testId={`${name}-available`}>
          {available.text}
        </Line>
        {lines}
        <FeeLine
          fee={form.fee}
          amount={fee}
          scale={form.scale}
          unit={form.unit}
          testId={`${name}-fee`}
        />
        <Line label={total.label} testId={total.testId} strong>
          {total.value}
        </Line>
      </div>
      <SubmitOrder
        flow={flow}
        place={place}
        closed={closed}
        ready={!price.error && ready}
        up={form.up}
        testId={`${name}-submit`}
      >
        {submitText}
      </SubmitOrder>
      <OrderConfirm
        flow={flow}
        place={place}
        testId={`${name}-confirm`}
        product={form.product}
        up={form.up}
        side={confirmSide}
        price={price}
      >
        {confirm}
      </OrderConfirm>
    </section>
  );
}
