/**
 * What the contract and the spot order forms share: market or limit and the limit price, the fee
 * line, the submit button with the closed notice, the confirmation with the order's summary, and
 * the flow around an order (a visitor signs in first, errors show once it was tried, one request
 * id per order, the trading screens read again after it).
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { ORDER_TYPE, parseDecimal, fillPrice } from '@bourse/shared';
import { isSignedIn } from '../../api/session';
import { AmountField } from '../../components/amount-field';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { translate } from '../../i18n';
import { money, percentText, useRequestId } from '../../lib/trade';
import { useRefreshTrading } from './hooks';
import { Choices, Line, useSignIn } from './parts';
import { priceText } from './trading-api';

/**
 * Around an order: a visitor is sent to sign in, the errors show once an order was tried, the
 * confirmation opens when the order is fine, and the order goes out with one request id for as
 * long as it stays the same (a retry reuses it). Refused or placed, the form is in view again and
 * the trading screens read again.
 */
export function useOrderFlow(requestPrefix: string) {
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

export type OrderFlow = ReturnType<typeof useOrderFlow>;

/** The submit of a form (see `useSubmit`): the order after its confirmation. */
interface Place {
  pending: boolean;
  submit: () => Promise<void>;
}

/** Market or limit, the limit price as typed and what is wrong with it, and the fill price now. */
export function useOrderPrice(direction: number, priceScale: number, current: string | undefined) {
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

export type OrderPrice = ReturnType<typeof useOrderPrice>;

/** The market / limit choice and, for a limit, its price (the price now as the placeholder). */
export function OrderPriceFields({
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
      <Choices
        label={t('trade_orderType')}
        options={[
          { value: ORDER_TYPE.market, label: t('trade_market') },
          { value: ORDER_TYPE.limit, label: t('trade_limit') },
        ]}
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
export function FeeLine({
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
export function SubmitOrder({
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
export function OrderConfirm({
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
