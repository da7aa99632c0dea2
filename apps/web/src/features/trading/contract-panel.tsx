/**
 * The contract form of the quote detail (PRODUCT section 6, position type 1): long or short, a
 * leverage of the product's, market or limit entry, sized by quantity (lots) or by margin, with
 * shortcuts to a share of the available balance, optional take-profit and stop-loss, and the
 * preview of margin, fee and liquidation price worked out as the server does before a
 * confirmation. Visitors see the form and are sent to sign in when they place an order.
 */
import { useState } from 'react';
import { useTranslation } from '../../i18n/react';
import {
  CONTRACT_STATUS,
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
import { OrderPanel, useOrderForm } from './order-form';
import { Choices, LEVEL_LABEL, LEVELS, LevelFields, Line, closedReason, useTpSl } from './parts';
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
  const form = useOrderForm({
    name: 'contract',
    requestPrefix: 'ct',
    product,
    nowPrice: ticker?.nowPrice,
    initialSide,
    positionType: POSITION_TYPE.contract,
  });
  const { flow, direction, scale, unit, priceScale, step, fee, price } = form;
  const leverages = product.leverages?.length ? product.leverages : [1];
  const [leverage, setLeverage] = useState(() => defaultLeverage(leverages));
  const [sizeMode, setSizeMode] = useState<SizeMode>('quantity');
  const [size, setSize] = useState('');

  const maintenanceRate = product.maintenanceRate ?? '0.005';
  const available = form.cash;
  const closed = closedReason(product);

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
    { takeProfit: '', stopLoss: '' },
    fill && {
      direction,
      reference: fill.price,
      liquidation: preview?.liquidationPrice,
      priceScale,
    },
  );

  const sizeError = sizeProblem();
  const showSizeError = size || flow.touched ? sizeError : undefined;

  function share(value: string, cash: string, at: string) {
    const margin = marginForShare(cash, value, { ...base, price: at });
    setSizeMode('margin');
    setSize(margin === '0' ? '0' : normalize(margin));
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
    levels.typed.takeProfit,
    levels.typed.stopLoss,
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
    levels.clear();
    showToast(
      t(position.status === CONTRACT_STATUS.pending ? 'trade_limitPlaced' : 'trade_contractOpened'),
    );
  });

  const long = form.up;
  const sideText = t(long ? 'trade_long' : 'trade_short');
  const sizeUnit = sizeMode === 'quantity' ? t('trade_lotsUnit') : unit;
  return (
    <OrderPanel
      form={form}
      label={t('trade_contractTitle')}
      sides={['trade_long', 'trade_short']}
      before={
        <div className="stack" style={{ gap: 6 }}>
          <span className="muted trade-label">{t('trade_leverage')}</span>
          <Choices
            label={t('trade_leverage')}
            options={leverages}
            text={(value) => `${value}×`}
            value={leverage}
            onChange={setLeverage}
            testId="contract-leverage"
          />
        </div>
      }
      available={{ label: t('trade_available'), value: available, text: form.money(available) }}
      onShare={share}
      after={
        <div className="trade-pair">
          <LevelFields
            levels={levels}
            ids={{ takeProfit: 'contract-tp', stopLoss: 'contract-sl' }}
            placeholder={t('trade_optional')}
          />
        </div>
      }
      lines={
        <>
          <Line label={t('trade_quantity')} testId="contract-quantity">
            {preview ? quantityText(preview.quantity) : '- -'}
          </Line>
          <Line label={t('trade_entryPrice')} testId="contract-entry">
            {fill ? priceText(fill.price, priceScale) : '- -'}
            {fill && !fill.rests && orderType === ORDER_TYPE.market
              ? ` · ${t('trade_market')}`
              : ''}
          </Line>
          <Line label={t('trade_margin')} testId="contract-margin">
            {form.money(preview?.margin)}
          </Line>
        </>
      }
      fee={preview?.fee}
      total={{
        label: t('trade_liquidationPrice'),
        testId: 'contract-liquidation',
        value: (
          <span className="down">
            {preview ? priceText(preview.liquidationPrice, priceScale) : '- -'}
          </span>
        ),
      }}
      place={place}
      closed={closed}
      ready={
        !sizeError && !levels.errors.takeProfit && !levels.errors.stopLoss && preview !== undefined
      }
      submitText={`${t(long ? 'trade_openLong' : 'trade_openShort')} · ${leverage}×`}
      confirmSide={
        <>
          {sideText} · {leverage}×
        </>
      }
      confirm={
        preview && (
          <>
            <Line label={t('trade_quantity')}>{quantityText(preview.quantity)}</Line>
            <Line label={t('trade_margin')}>{form.money(preview.margin)}</Line>
            <Line label={t('trade_fee')}>{form.money(preview.fee)}</Line>
            <Line label={t('trade_liquidationPrice')}>
              {priceText(preview.liquidationPrice, priceScale)}
            </Line>
            {LEVELS.map(
              (level) =>
                levels[level] !== undefined && (
                  <Line key={level} label={t(LEVEL_LABEL[level])}>
                    {priceText(levels[level], priceScale)}
                  </Line>
                ),
            )}
          </>
        )
      }
    >
      <Choices<SizeMode>
        label={t('trade_sizeBy')}
        options={['quantity', 'margin']}
        text={(mode) => t(mode === 'quantity' ? 'trade_byQuantity' : 'trade_byMargin')}
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
    </OrderPanel>
  );
}
