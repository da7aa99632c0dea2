/**
 * Spot and coin-to-coin orders as rows: side, product, type, quantity, the limit or the fill with
 * its value, fee and result; a resting order can be cancelled (its frozen funds or coins return),
 * a filled one shows the tick that filled it.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import {
  ORDER_DIRECTION,
  ORDER_TYPE,
  SPOT_ORDER_STATUS,
  cmp,
  formatDateTime,
  scaleOf,
  type SpotOrder,
} from '@bourse/shared';
import { showToast } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { currencyScale, money, signedMoney, tradeCurrencyId } from '../../lib/trade';
import { useRefreshTrading } from './hooks';
import { CardFoot, EvidenceToggle, Line, TickCard } from './parts';
import {
  SPOT_STATUS_LABEL,
  cancelSpotOrder,
  priceText,
  quantityText,
  type SpotKind,
} from './trading-api';

/** Decimals of a price as the server sent it ("67012.50" has 2). */
export function priceScaleOf(price: string | null | undefined, fallback = 2): number {
  return price ? scaleOf(price) : fallback;
}

export function kindOf(order: SpotOrder): SpotKind {
  return order.positionType === 3 ? 'bibi' : 'spot';
}

export function OrderRow({ order }: { order: SpotOrder }) {
  const { t } = useTranslation();
  const refresh = useRefreshTrading();
  const [open, setOpen] = useState(false);
  const scale = currencyScale(tradeCurrencyId()) ?? 4;
  const buy = order.orderDirection === ORDER_DIRECTION.up;
  const resting = order.status === SPOT_ORDER_STATUS.open;
  const filled = order.status === SPOT_ORDER_STATUS.filled;
  const priceScale = priceScaleOf(order.limitPrice ?? order.fillPrice);
  const cancel = useSubmit(async () => {
    await cancelSpotOrder(kindOf(order), order.id).finally(refresh);
    showToast(t('trade_orderCancelled'));
  });
  const result = order.realizedPnl;
  return (
    <div className="order-row" data-testid={`order-${order.id}`} data-status={order.status}>
      <div className="row" style={{ gap: 6, minWidth: 0 }}>
        <span className={`side-tag ${buy ? 'up' : 'down'}`}>
          {t(buy ? 'trade_buy' : 'trade_sell')}
        </span>
        <strong className="ellipsis">{order.productCode}</strong>
        <span className="muted" style={{ fontSize: 12 }}>
          {t(order.orderType === ORDER_TYPE.limit ? 'trade_limit' : 'trade_market')}
        </span>
        <span className="spacer" />
        <span
          className={`status-tag${filled ? ' status-done' : ''}`}
          data-testid={`order-${order.id}-status`}
        >
          {t(SPOT_STATUS_LABEL[order.status] ?? 'trade_status_resting')}
        </span>
      </div>
      <div className="trade-grid">
        <Line label={t('trade_quantity')}>{quantityText(order.quantity)}</Line>
        {order.limitPrice && (
          <Line label={t('trade_limitPrice')}>{priceText(order.limitPrice, priceScale)}</Line>
        )}
        {filled && (
          <>
            <Line label={t('trade_fillPrice')} testId={`order-${order.id}-fill`}>
              {priceText(order.fillPrice, priceScale)}
            </Line>
            <Line label={t('trade_amount')}>{money(order.amount, scale)}</Line>
            <Line label={t('trade_fee')}>{money(order.fee, scale)}</Line>
            {result !== null && (
              <Line label={t('trade_realizedPnl')}>
                <span className={cmp(result, '0') > 0 ? 'up' : cmp(result, '0') < 0 ? 'down' : ''}>
                  {signedMoney(result, scale)}
                </span>
              </Line>
            )}
          </>
        )}
      </div>
      <CardFoot time={formatDateTime(order.fillTime ?? order.createTime)}>
        {filled && order.fill && (
          <EvidenceToggle
            open={open}
            onToggle={() => setOpen(!open)}
            testId={`order-${order.id}-evidence-toggle`}
          />
        )}
        {resting && (
          <Button
            size="mini"
            fill="outline"
            color="warning"
            loading={cancel.pending}
            disabled={cancel.pending}
            onClick={() => void cancel.submit()}
            data-testid={`order-${order.id}-cancel`}
          >
            {t('common_cancel')}
          </Button>
        )}
      </CardFoot>
      {open && order.fill && (
        <TickCard
          title={t('trade_fillTick')}
          tick={order.fill}
          priceScale={priceScale}
          testId={`order-${order.id}-tick`}
        />
      )}
    </div>
  );
}

/** A list of orders, or the empty text. */
export function OrderRows({
  orders,
  loaded,
  empty,
}: {
  orders: readonly SpotOrder[];
  loaded: boolean;
  empty: string;
}) {
  const { t } = useTranslation();
  if (loaded && orders.length === 0) return <p className="muted empty-note">{t(empty)}</p>;
  return (
    <>
      {orders.map((order) => (
        <OrderRow key={`${order.positionType}:${order.id}`} order={order} />
      ))}
    </>
  );
}
