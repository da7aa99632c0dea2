/**
 * Spot and coin-to-coin orders as rows: side, product, type, quantity, the limit or the fill with
 * its value, fee and result; a resting order can be cancelled (its frozen funds or coins return),
 * a filled one shows the tick that filled it.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import {
  ORDER_DIRECTION,
  ORDER_TYPE,
  SPOT_ORDER_STATUS,
  formatDateTime,
  scaleOf,
  type SpotOrder,
} from '@bourse/shared';
import { showToast } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { ListStatus, type ListState } from '../../components/status-views';
import { money, signedMoney } from '../../lib/trade';
import { useRefreshTrading } from './hooks';
import { CardFoot, CardTitle, EvidenceToggle, Line, TickCard, signClass } from './parts';
import {
  SPOT_STATUS_LABEL,
  cancelSpotOrder,
  priceText,
  quantityText,
  tradeScale,
  type SpotKind,
} from './trading-api';

/** Decimals of a price as the server sent it ("67012.50" has 2). */
export function priceScaleOf(price: string | null | undefined, fallback = 2): number {
  return price ? scaleOf(price) : fallback;
}

export function kindOf(order: SpotOrder): SpotKind {
  return order.positionType === 3 ? 'bibi' : 'spot';
}

/** Cancels a resting order: what it froze returns. */
export function CancelOrderButton({
  kind,
  id,
  fill,
  testId,
}: {
  kind: SpotKind;
  id: number;
  fill: 'none' | 'outline';
  testId: string;
}) {
  const { t } = useTranslation();
  const refresh = useRefreshTrading();
  const cancel = useSubmit(async () => {
    await cancelSpotOrder(kind, id).finally(refresh);
    showToast(t('trade_orderCancelled'));
  });
  return (
    <Button
      size="mini"
      fill={fill}
      color="warning"
      loading={cancel.pending}
      disabled={cancel.pending}
      onClick={() => void cancel.submit()}
      data-testid={testId}
    >
      {t('common_cancel')}
    </Button>
  );
}

export function OrderRow({ order }: { order: SpotOrder }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const scale = tradeScale();
  const buy = order.orderDirection === ORDER_DIRECTION.up;
  const resting = order.status === SPOT_ORDER_STATUS.open;
  const filled = order.status === SPOT_ORDER_STATUS.filled;
  const priceScale = priceScaleOf(order.limitPrice ?? order.fillPrice);
  const result = order.realizedPnl;
  return (
    <div className="order-row" data-testid={`order-${order.id}`} data-status={order.status}>
      <CardTitle
        badge={
          <span className={`side-tag ${buy ? 'up' : 'down'}`}>
            {t(buy ? 'trade_buy' : 'trade_sell')}
          </span>
        }
        name={order.productCode}
        code={t(order.orderType === ORDER_TYPE.limit ? 'trade_limit' : 'trade_market')}
      >
        <span
          className={`status-tag${filled ? ' status-done' : ''}`}
          data-testid={`order-${order.id}-status`}
        >
          {t(SPOT_STATUS_LABEL[order.status] ?? 'trade_status_resting')}
        </span>
      </CardTitle>
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
                <span dir="ltr" className={signClass(result)}>
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
          <CancelOrderButton
            kind={kindOf(order)}
            id={order.id}
            fill="outline"
            testId={`order-${order.id}-cancel`}
          />
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

/** A list of orders; grey rows while it loads, the error or the empty state when it has none. */
export function OrderRows({
  list,
  empty,
}: {
  list: { rows: readonly SpotOrder[] } & ListState;
  empty: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ListStatus list={list} count={list.rows.length} empty={{ title: t(empty) }} />
      {list.rows.map((order) => (
        <OrderRow key={`${order.positionType}:${order.id}`} order={order} />
      ))}
    </>
  );
}
