/**
 * The contract form of the quote detail (PRODUCT section 6, position type 1): long or short, a
 * leverage of the product's, market or limit entry, sized by quantity (lots) or by margin, with
 * shortcuts to a share of the available balance, optional take-profit and stop-loss, and the
 * preview of margin, fee and liquidation price worked out as the server does before a
 * confirmation. Visitors see the form and are sent to sign in when they place an order.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CONTRACT_STATUS,
  ORDER_DIRECTION,
  ORDER_TYPE,
  POSITION_TYPE,
  gt,
  normalize,
  parseDecimal,
  type TickerInfo,
  contractPreview,
  marginForShare,
  type ContractProblem,
  type OpenContractBody,
} from '@bourse/shared';
import { showToast } from '../../api';
import { AmountField } from '../../components/amount-field';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { currencyName, currencyScale, money, tradeCurrencyId } from '../../lib/trade';
import { useFeeRate, useTradeBalance } from './hooks';
import {
  FeeLine,
  OrderConfirm,
  OrderPriceFields,
  SubmitOrder,
  useOrderFlow,
  useOrderPrice,
} from './order-form';
import { Choices, Line, Shares, Sides, closedReason, useTpSl } from './parts';
import { openContract, priceText, quantityText, type TradableProduct } from './trading-api';

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
  const flow = useOrderFlow('ct');
  const leverages = product.leverages?.length ? product.leverages : [1];
  const [direction, setDirection] = useState<number>(initialSide ?? ORDER_DIRECTION.up);
  const [leverage, setLeverage] = useState(() => defaultLeverage(leverages));
  const [sizeMode, setSizeMode] = useState<SizeMode>('quantity');
  const [size, setSize] = useState('');
  const [takeProfit, setTakeProfit] = useState('');
  const [stopLoss, setStopLoss] = useState('');

  const currencyId = tradeCurrencyId();
  const scale = currencyScale(currencyId) ?? 4;
  const unit = currencyName(currencyId);
  const priceScale = product.priceScale;
  const step = normalize(product.standard || '1');
  const maintenanceRate = product.maintenanceRate ?? '0.005';
  const balance = useTradeBalance(flow.signedIn);
  const available = balance.data?.amount;
  const fee = useFeeRate(product.productType, POSITION_TYPE.contract, direction);
  const closed = closedReason(product);

  const price = useOrderPrice(direction, priceScale, ticker?.nowPrice);
  const { orderType, limitValue, fill } = price;
  const sizeParsed = parseDecimal(size, { maxScale: sizeMode === 'margin' ? scale : 18 });

  const base = {
    direction,
    leverage,
    step,
    feeRate: fee.rate,
    maintenanceRate,
    priceScale,
    scale,
  };
  const result =
    fill && sizeParsed.ok && fee.known
      ? contractPreview({
          ...base,
          price: fill.price,
          ...(sizeMode === 'quantity'
            ? { quantity: sizeParsed.value }
            : { margin: sizeParsed.value }),
        })
      : undefined;
  const preview = result?.ok ? result.preview : undefined;

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

  const levels = useTpSl(
    takeProfit,
    stopLoss,
    fill && {
      direction,
      reference: fill.price,
      liquidation: preview?.liquidationPrice,
      priceScale,
    },
  );

  const sizeError = sizeProblem();
  const showSizeError = size || flow.touched ? sizeError : undefined;

  function share(value: string) {
    if (available === undefined || !fill) return;
    const margin = marginForShare(available, value, { ...base, price: fill.price });
    setSizeMode('margin');
    setSize(margin === '0' ? '0' : normalize(margin));
    flow.setTouched(true);
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

  const place = useSubmit(async () => {
    if (!sizeParsed.ok) return;
    const position = await flow.send(fillKey, (requestId) =>
      openContract({
        productType: product.productType,
        productCode: product.productCode,
        // The form's choices are the codes of the body (long or short, market or limit).
        orderDirection: direction as OpenContractBody['orderDirection'],
        leverage,
        orderType: orderType as OpenContractBody['orderType'],
        price: limitValue,
        ...(sizeMode === 'quantity'
          ? { quantity: sizeParsed.value }
          : { margin: sizeParsed.value }),
        takeProfit: levels.takeProfit,
        stopLoss: levels.stopLoss,
        requestId,
      }),
    );
    setSize('');
    setTakeProfit('');
    setStopLoss('');
    showToast(
      t(position.status === CONTRACT_STATUS.pending ? 'trade_limitPlaced' : 'trade_contractOpened'),
    );
  });

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
      <OrderPriceFields price={price} prefix="contract" touched={flow.touched} />
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
      <AmountField
        label={t(sizeMode === 'quantity' ? 'trade_quantity' : 'trade_margin')}
        id="contract-size"
        error={showSizeError}
        placeholder={
          sizeMode === 'quantity' ? translate('trade_lotSize', [quantityText(step)]) : ''
        }
        value={size}
        onChange={setSize}
      >
        <span className="muted">{sizeUnit}</span>
      </AmountField>
      <Shares
        onPick={share}
        disabled={available === undefined || !fill || !fee.known}
        testId="contract-share"
      />
      <div className="trade-pair">
        <AmountField
          label={t('trade_takeProfit')}
          id="contract-tp"
          error={levels.takeProfitError}
          placeholder={t('trade_optional')}
          value={takeProfit}
          onChange={setTakeProfit}
        />
        <AmountField
          label={t('trade_stopLoss')}
          id="contract-sl"
          error={levels.stopLossError}
          placeholder={t('trade_optional')}
          value={stopLoss}
          onChange={setStopLoss}
        />
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
        <FeeLine fee={fee} amount={preview?.fee} scale={scale} unit={unit} testId="contract-fee" />
        <Line label={t('trade_liquidationPrice')} testId="contract-liquidation" strong>
          <span className="down">
            {preview ? priceText(preview.liquidationPrice, priceScale) : '- -'}
          </span>
        </Line>
      </div>
      <SubmitOrder
        flow={flow}
        place={place}
        closed={closed}
        ready={
          !price.error &&
          !sizeError &&
          !levels.takeProfitError &&
          !levels.stopLossError &&
          preview !== undefined
        }
        up={long}
        testId="contract-submit"
      >
        {`${t(long ? 'trade_openLong' : 'trade_openShort')} · ${leverage}×`}
      </SubmitOrder>

      <OrderConfirm
        flow={flow}
        place={place}
        testId="contract-confirm"
        product={product}
        up={long}
        side={
          <>
            {sideText} · {leverage}×
          </>
        }
        price={price}
      >
        {preview && (
          <>
            <Line label={t('trade_quantity')}>{quantityText(preview.quantity)}</Line>
            <Line label={t('trade_margin')}>{`${money(preview.margin, scale)} ${unit}`}</Line>
            <Line label={t('trade_fee')}>{`${money(preview.fee, scale)} ${unit}`}</Line>
            <Line label={t('trade_liquidationPrice')}>
              {priceText(preview.liquidationPrice, priceScale)}
            </Line>
            {levels.takeProfit !== undefined && (
              <Line label={t('trade_takeProfit')}>{priceText(levels.takeProfit, priceScale)}</Line>
            )}
            {levels.stopLoss !== undefined && (
              <Line label={t('trade_stopLoss')}>{priceText(levels.stopLoss, priceScale)}</Line>
            )}
          </>
        )}
      </OrderConfirm>
    </section>
  );
}
