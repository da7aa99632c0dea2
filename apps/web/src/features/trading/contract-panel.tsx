/**
 * The contract form of the quote detail (PRODUCT section 6, position type 1): long or short, a
 * leverage of the product's, market or limit entry, sized by quantity (lots) or by margin, with
 * shortcuts to a share of the available balance, optional take-profit and stop-loss, and the
 * preview of margin, fee and liquidation price worked out as the server does before a
 * confirmation. Visitors see the form and are sent to sign in when they place an order.
 */
import { useRef, useState } from 'react';
import { Button, Dialog, Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import {
  ORDER_DIRECTION,
  ORDER_TYPE,
  POSITION_TYPE,
  gt,
  normalize,
  parseDecimal,
  type TickerInfo,
} from '@bourse/shared';
import { showToast } from '../../api';
import { isSignedIn } from '../../api/session';
import { Field } from '../../components/field';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { useFees, useRefreshTrading, useTradeBalance } from './hooks';
import { Choices, Line, Shares, Sides, cleanAmount, closedReason, useSignIn } from './parts';
import {
  contractPreview,
  fillPrice,
  marginForShare,
  tpSlProblems,
  type ContractProblem,
} from './preview';
import {
  currencyName,
  currencyScale,
  feeRateOf,
  money,
  newRequestId,
  openContract,
  percentText,
  priceText,
  quantityText,
  tradeCurrencyId,
  type TradableProduct,
} from './trading-api';

export interface OrderPanelProps {
  product: TradableProduct;
  ticker: TickerInfo | undefined;
  /** 1 buy / long, 2 sell / short: the side to start with. */
  initialSide?: number;
}

type SizeMode = 'quantity' | 'margin';

const PROBLEM_KEY: Record<ContractProblem, string> = {
  step: 'hint_quantityStep',
  tooSmall: 'hint_orderTooSmall',
};

function defaultLeverage(leverages: readonly number[]): number {
  if (leverages.includes(10)) return 10;
  return leverages[0] ?? 1;
}

export default function ContractPanel({ product, ticker, initialSide }: OrderPanelProps) {
  const { t } = useTranslation();
  const signedIn = isSignedIn();
  const signIn = useSignIn();
  const refresh = useRefreshTrading();
  const leverages = product.leverages?.length ? product.leverages : [1];
  const [direction, setDirection] = useState<number>(initialSide ?? ORDER_DIRECTION.up);
  const [leverage, setLeverage] = useState(() => defaultLeverage(leverages));
  const [orderType, setOrderType] = useState<number>(ORDER_TYPE.market);
  const [limit, setLimit] = useState('');
  const [sizeMode, setSizeMode] = useState<SizeMode>('quantity');
  const [size, setSize] = useState('');
  const [takeProfit, setTakeProfit] = useState('');
  const [stopLoss, setStopLoss] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const currencyId = tradeCurrencyId();
  const scale = currencyScale(currencyId) ?? 4;
  const unit = currencyName(currencyId);
  const priceScale = product.priceScale;
  const step = normalize(product.standard || '1');
  const maintenanceRate = product.maintenanceRate ?? '0.005';
  const balance = useTradeBalance(signedIn);
  const available = balance.data?.amount;
  const fees = useFees();
  const feeRate = feeRateOf(fees.data, product.productType, POSITION_TYPE.contract, direction);
  // No preview (nor order) before the fee table is known: a missing rate is not a zero fee.
  const feeKnown = fees.data !== undefined;
  const closed = closedReason(product);

  const limitParsed = parseDecimal(limit, { maxScale: priceScale });
  const limitValue =
    orderType === ORDER_TYPE.limit && limitParsed.ok ? limitParsed.value : undefined;
  const current = ticker?.nowPrice;
  const fill =
    current === undefined ? undefined : fillPrice(direction, orderType, limitValue, current);
  const sizeParsed = parseDecimal(size, { maxScale: sizeMode === 'margin' ? scale : 18 });
  const takeProfitParsed = parseDecimal(takeProfit);
  const stopLossParsed = parseDecimal(stopLoss);

  const base = {
    direction,
    leverage,
    step,
    feeRate,
    maintenanceRate,
    priceScale,
    scale,
  };
  const result =
    fill && sizeParsed.ok && feeKnown
      ? contractPreview({
          ...base,
          price: fill.price,
          ...(sizeMode === 'quantity'
            ? { quantity: sizeParsed.value }
            : { margin: sizeParsed.value }),
        })
      : undefined;
  const preview = result?.ok ? result.preview : undefined;

  function priceProblem(): string | undefined {
    if (orderType !== ORDER_TYPE.limit) return undefined;
    if (!limit) return t('hint_limitPriceRequired');
    if (!limitParsed.ok)
      return limitParsed.problem === 'scale'
        ? translate('hint_priceDecimals', [priceScale])
        : t('trade_priceInvalid');
    return undefined;
  }

  function sizeProblem(): string | undefined {
    if (!size)
      return t(sizeMode === 'quantity' ? 'trade_quantityRequired' : 'trade_marginRequired');
    if (!sizeParsed.ok) {
      if (sizeParsed.problem === 'scale') return translate('hint_amountDecimals', [scale, unit]);
      // Zero (a share too small for one lot, or typed) buys nothing.
      if (sizeParsed.problem === 'sign') return translate('hint_orderTooSmall', [step]);
      return t('trade_amountInvalid');
    }
    if (result && !result.ok) return translate(PROBLEM_KEY[result.problem], [step]);
    if (available !== undefined && preview && gt(preview.total, available))
      return translate('hint_insufficientBalance');
    return undefined;
  }

  const tpSl = fill
    ? tpSlProblems(
        direction,
        fill.price,
        takeProfitParsed.ok ? takeProfitParsed.value : undefined,
        stopLossParsed.ok ? stopLossParsed.value : undefined,
        preview?.liquidationPrice,
        priceScale,
      )
    : {};
  const takeProfitError =
    takeProfit && !takeProfitParsed.ok
      ? t('trade_priceInvalid')
      : tpSl.takeProfit && translate(tpSl.takeProfit.key, tpSl.takeProfit.params);
  const stopLossError =
    stopLoss && !stopLossParsed.ok
      ? t('trade_priceInvalid')
      : tpSl.stopLoss && translate(tpSl.stopLoss.key, tpSl.stopLoss.params);

  const priceError = priceProblem();
  const sizeError = sizeProblem();
  const showPriceError = limit || touched ? priceError : undefined;
  const showSizeError = size || touched ? sizeError : undefined;

  function share(value: string) {
    if (available === undefined || !fill) return;
    const margin = marginForShare(available, value, { ...base, price: fill.price });
    setSizeMode('margin');
    setSize(margin === '0' ? '0' : normalize(margin));
    setTouched(true);
  }

  // One request id per confirmed order: a retry of the same order reuses it.
  const fillKey = JSON.stringify([
    product.productCode,
    direction,
    leverage,
    orderType,
    limitValue,
    sizeMode,
    size,
    takeProfit,
    stopLoss,
  ]);
  const request = useRef<{ key: string; id: string } | undefined>(undefined);
  function requestIdFor(key: string): string {
    if (request.current?.key !== key) request.current = { key, id: newRequestId('ct') };
    return request.current.id;
  }

  const place = useSubmit(async () => {
    if (!sizeParsed.ok) return;
    const position = await openContract({
      productType: product.productType,
      productCode: product.productCode,
      orderDirection: direction,
      leverage,
      orderType,
      price: limitValue,
      ...(sizeMode === 'quantity' ? { quantity: sizeParsed.value } : { margin: sizeParsed.value }),
      takeProfit: takeProfitParsed.ok ? takeProfitParsed.value : undefined,
      stopLoss: stopLossParsed.ok ? stopLossParsed.value : undefined,
      requestId: requestIdFor(fillKey),
    }).finally(() => {
      // Refused or placed, the form is in view again (the client has told why it was refused).
      setConfirming(false);
      refresh();
    });
    request.current = undefined;
    setSize('');
    setTakeProfit('');
    setStopLoss('');
    setTouched(false);
    showToast(t(position.status === 0 ? 'trade_limitPlaced' : 'trade_contractOpened'));
  });

  function submit() {
    if (!signedIn) {
      signIn();
      return;
    }
    setTouched(true);
    if (closed || priceError || sizeError || takeProfitError || stopLossError || !preview) return;
    setConfirming(true);
  }

  const long = direction === ORDER_DIRECTION.up;
  const sideText = t(long ? 'trade_long' : 'trade_short');
  const sizeUnit = sizeMode === 'quantity' ? t('trade_lotsUnit') : unit;
  return (
    <section
      className="card stack trade-panel"
      aria-label={t('trade_contractTitle')}
      data-testid="contract-panel"
    >
      <Sides
        value={direction}
        onChange={setDirection}
        labels={['trade_long', 'trade_short']}
        testId="contract-side"
      />
      <div className="stack" style={{ gap: 6 }}>
        <span className="muted trade-label">{t('trade_leverage')}</span>
        <Choices
          label={t('trade_leverage')}
          options={leverages.map((value) => ({ value, label: `${value}×` }))}
          value={leverage}
          onChange={setLeverage}
          testId="contract-leverage"
        />
      </div>
      <Choices
        label={t('trade_orderType')}
        options={[
          { value: ORDER_TYPE.market, label: t('trade_market') },
          { value: ORDER_TYPE.limit, label: t('trade_limit') },
        ]}
        value={orderType}
        onChange={setOrderType}
        testId="contract-type"
      />
      {orderType === ORDER_TYPE.limit && (
        <Field label={t('trade_limitPrice')} htmlFor="contract-price" error={showPriceError}>
          <Input
            id="contract-price"
            inputMode="decimal"
            autoComplete="off"
            placeholder={current ? priceText(current, priceScale) : ''}
            value={limit}
            maxLength={40}
            onChange={(value) => setLimit(cleanAmount(value))}
          />
        </Field>
      )}
      <Choices
        label={t('trade_sizeBy')}
        options={[
          { value: 'quantity' as SizeMode, label: t('trade_byQuantity') },
          { value: 'margin' as SizeMode, label: t('trade_byMargin') },
        ]}
        value={sizeMode}
        onChange={(mode) => {
          setSizeMode(mode);
          setSize('');
        }}
        testId="contract-size-mode"
      />
      <Field
        label={t(sizeMode === 'quantity' ? 'trade_quantity' : 'trade_margin')}
        htmlFor="contract-size"
        error={showSizeError}
      >
        <Input
          id="contract-size"
          inputMode="decimal"
          autoComplete="off"
          placeholder={
            sizeMode === 'quantity' ? translate('trade_lotSize', [quantityText(step)]) : ''
          }
          value={size}
          maxLength={40}
          onChange={(value) => setSize(cleanAmount(value))}
        />
        <span className="muted">{sizeUnit}</span>
      </Field>
      <Shares
        onPick={share}
        disabled={available === undefined || !fill || !feeKnown}
        testId="contract-share"
      />
      <div className="trade-pair">
        <Field
          label={t('trade_takeProfit')}
          htmlFor="contract-tp"
          error={takeProfitError || undefined}
        >
          <Input
            id="contract-tp"
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('trade_optional')}
            value={takeProfit}
            maxLength={40}
            onChange={(value) => setTakeProfit(cleanAmount(value))}
          />
        </Field>
        <Field label={t('trade_stopLoss')} htmlFor="contract-sl" error={stopLossError || undefined}>
          <Input
            id="contract-sl"
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('trade_optional')}
            value={stopLoss}
            maxLength={40}
            onChange={(value) => setStopLoss(cleanAmount(value))}
          />
        </Field>
      </div>

      <div className="trade-lines">
        <Line label={t('trade_available')} testId="contract-available">
          {available === undefined ? '- -' : `${money(available, scale)} ${unit}`}
        </Line>
        <Line label={t('trade_quantity')} testId="contract-quantity">
          {preview ? quantityText(preview.quantity) : '- -'}
        </Line>
        <Line label={t('trade_entryPrice')} testId="contract-entry">
          {fill ? priceText(fill.price, priceScale) : '- -'}
          {fill && !fill.rests && orderType === ORDER_TYPE.market ? ` · ${t('trade_market')}` : ''}
        </Line>
        <Line label={t('trade_margin')} testId="contract-margin">
          {preview ? `${money(preview.margin, scale)} ${unit}` : '- -'}
        </Line>
        <Line
          label={feeKnown ? translate('trade_feeRate', [percentText(feeRate)]) : t('trade_fee')}
          testId="contract-fee"
        >
          {preview ? `${money(preview.fee, scale)} ${unit}` : '- -'}
        </Line>
        <Line label={t('trade_liquidationPrice')} testId="contract-liquidation" strong>
          <span className="down">
            {preview ? priceText(preview.liquidationPrice, priceScale) : '- -'}
          </span>
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
        color={long ? 'success' : 'danger'}
        loading={place.pending}
        disabled={place.pending || Boolean(closed)}
        onClick={submit}
        data-testid="contract-submit"
      >
        {signedIn
          ? `${t(long ? 'trade_openLong' : 'trade_openShort')} · ${leverage}×`
          : t('account_login')}
      </Button>

      <Dialog
        visible={confirming}
        title={t('trade_confirmTitle')}
        closeOnMaskClick={!place.pending}
        onClose={() => setConfirming(false)}
        content={
          preview && (
            <div className="trade-lines" data-testid="contract-confirm">
              <Line label={product.productName || product.productCode}>
                <span className={long ? 'up' : 'down'}>
                  {sideText} · {leverage}×
                </span>
              </Line>
              <Line label={t('trade_orderType')}>
                {orderType === ORDER_TYPE.limit && limitValue
                  ? `${t('trade_limit')} ${priceText(limitValue, priceScale)}`
                  : t('trade_market')}
              </Line>
              <Line label={t('trade_quantity')}>{quantityText(preview.quantity)}</Line>
              <Line label={t('trade_margin')}>{`${money(preview.margin, scale)} ${unit}`}</Line>
              <Line label={t('trade_fee')}>{`${money(preview.fee, scale)} ${unit}`}</Line>
              <Line label={t('trade_liquidationPrice')}>
                {priceText(preview.liquidationPrice, priceScale)}
              </Line>
              {takeProfitParsed.ok && (
                <Line label={t('trade_takeProfit')}>
                  {priceText(takeProfitParsed.value, priceScale)}
                </Line>
              )}
              {stopLossParsed.ok && (
                <Line label={t('trade_stopLoss')}>
                  {priceText(stopLossParsed.value, priceScale)}
                </Line>
              )}
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
