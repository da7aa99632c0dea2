/**
 * Pieces of the lock-mining and staking screens: a product's card and terms, an order's state and
 * card, and a label with its value. Rates are shown as the percentages of the one published figure
 * (or the tiers a product publishes); amounts at the currency's decimals.
 */
import { Button } from 'antd-mobile';
import {
  EARN_ORDER_STATUS,
  earnDay,
  earnTermEnded,
  formatDateTime,
  formatMessage,
  type EarnKind,
  type EarnOrder,
  type EarnProduct,
} from '@bourse/shared';
import { LabelRow, type LabelRowProps } from '../../components/label-row';
import { Num } from '../../components/status-views';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { money, percentText } from '../../lib/trade';
import { productImageSource } from './api';
import '../../components/card-list.css';
import './earn.css';

export const STATUS_KEY: Record<number, string> = {
  [EARN_ORDER_STATUS.pending]: 'earn_status0',
  [EARN_ORDER_STATUS.active]: 'earn_status1',
  [EARN_ORDER_STATUS.completed]: 'earn_status2',
  [EARN_ORDER_STATUS.rejected]: 'earn_status3',
  [EARN_ORDER_STATUS.redeemed]: 'earn_status4',
};

const LINE_CLASSES = { row: 'er-line', strong: 'er-line-strong', value: 'er-line-value' };

/** A label and its value on one line; figures and dates stay one left-to-right island. */
export function Line(props: LabelRowProps) {
  return <LabelRow {...props} classes={LINE_CLASSES} />;
}

/** "30 days", or "Flexible" for a product without a term. */
export function termText(termDays: number | null): string {
  return termDays === null ? translate('earn_flexible') : translate('earn_days', [termDays]);
}

/** How the product pays its interest. */
export function payoutText(product: Pick<EarnProduct, 'payout' | 'compounding'>): string {
  if (product.compounding) return translate('earn_payoutCompound');
  return translate(product.payout === 'maturity' ? 'earn_payoutMaturity' : 'earn_payoutDaily');
}

/** An amount with its currency: "1,000.00 USDT". */
export function amountText(value: string, product: Pick<EarnProduct, 'scale' | 'currency'>) {
  return `${money(value, product.scale)} ${product.currency}`;
}

/** The colour of a state's tag (completed and redeemed stay plain). */
const STATUS_TONE: Record<number, string> = {
  [EARN_ORDER_STATUS.pending]: 'accent',
  [EARN_ORDER_STATUS.active]: 'success',
  [EARN_ORDER_STATUS.rejected]: 'danger',
};

/** The early-redemption penalty per day left, or none (flexible, or a zero rate). */
export function PenaltyLine({
  product,
}: {
  product: Pick<EarnProduct, 'termDays' | 'penaltyRate'>;
}) {
  const { t } = useTranslation();
  return (
    <Line
      label={t('earn_penalty')}
      value={
        product.termDays === null || product.penaltyRate === '0'
          ? t('earn_noPenalty')
          : formatMessage(t('earn_penaltyRate'), [percentText(product.penaltyRate)])
      }
      number={false}
    />
  );
}

export function EarnStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const tone = STATUS_TONE[status];
  return (
    <span
      className={tone ? `list-tag list-tag-${tone}` : 'list-tag'}
      data-testid="earn-status"
      data-status={status}
    >
      {t(STATUS_KEY[status] ?? 'earn_status0')}
    </span>
  );
}

/** A product in a list: its name, image, published daily rate, term and smallest amount. */
export function ProductCard({
  product,
  onOpen,
  action,
}: {
  product: EarnProduct;
  onOpen: () => void;
  action: string;
}) {
  const { t } = useTranslation();
  const tiers = product.rateTiers.length > 0;
  return (
    <li className="card er-product" data-testid={`earn-product-${product.id}`}>
      <div className="er-product-head">
        {product.image && (
          <img className="er-product-image" src={productImageSource(product.image)} alt="" />
        )}
        <strong className="er-product-name">{product.name}</strong>
        <span className="list-tag">{termText(product.termDays)}</span>
      </div>
      <div className="er-product-figures">
        <div className="er-figure">
          <span className="muted">{t('earn_dailyRate')}</span>
          <strong className="er-rate" data-testid={`earn-product-${product.id}-rate`}>
            <Num>{percentText(product.dailyRate)}</Num>
            {tiers && <span className="er-rate-up">{t('earn_tiered')}</span>}
          </strong>
        </div>
        <div className="er-figure er-figure-end">
          <span className="muted">{t('earn_minAmount')}</span>
          <Num>{amountText(product.minAmount, product)}</Num>
        </div>
      </div>
      <div className="er-product-foot">
        <span className="muted er-small">{payoutText(product)}</span>
        <Button
          size="small"
          color="primary"
          data-testid={`earn-product-${product.id}-open`}
          onClick={onOpen}
        >
          {action}
        </Button>
      </div>
    </li>
  );
}

/** Everything a product states before buying: rates, term, bounds, capacity, payout, penalty. */
export function ProductTerms({ product, demo }: { product: EarnProduct; demo: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="er-terms" data-testid={`earn-product-${product.id}-terms`}>
      <Line label={t('earn_dailyRate')} value={percentText(product.dailyRate)} strong />
      {product.rateTiers.length > 0 && (
        <div className="er-tiers" data-testid="earn-tiers">
          <span className="muted er-small">{t('earn_rateTiers')}</span>
          {product.rateTiers.map((tier) => (
            <Line
              key={tier.minAmount}
              label={formatMessage(t('earn_tierFrom'), [amountText(tier.minAmount, product)])}
              value={percentText(tier.dailyRate)}
            />
          ))}
        </div>
      )}
      <Line label={t('earn_term')} value={termText(product.termDays)} number={false} />
      <Line
        label={t('earn_limits')}
        value={
          product.maxAmount === null
            ? formatMessage(t('earn_fromAmount'), [amountText(product.minAmount, product)])
            : `${money(product.minAmount, product.scale)} – ${amountText(product.maxAmount, product)}`
        }
      />
      {product.remainingCapacity !== null && !demo && (
        <Line
          label={t('earn_capacityLeft')}
          value={amountText(product.remainingCapacity, product)}
          testId="earn-capacity"
        />
      )}
      {product.maxOrdersPerUser !== null && (
        <Line label={t('earn_ordersPerUser')} value={String(product.maxOrdersPerUser)} />
      )}
      <Line label={t('earn_payout')} value={payoutText(product)} number={false} />
      <PenaltyLine product={product} />
      {product.minAuthLevel >= 0 && !demo && (
        <Line
          label={t('earn_identity')}
          value={t(product.minAuthLevel === 0 ? 'earn_levelBasic' : 'earn_levelAdvanced')}
          number={false}
        />
      )}
      {product.requiresReview && !demo && <p className="er-note">{t('earn_reviewNote')}</p>}
      {product.description && <p className="er-description">{product.description}</p>}
    </div>
  );
}

/** An order: its product, state, figures and (while active) what it may still do. */
export function OrderCard({
  order,
  onRedeem,
  onRecords,
}: {
  order: EarnOrder;
  onRedeem?: () => void;
  onRecords?: () => void;
}) {
  const { t } = useTranslation();
  const active = order.status === EARN_ORDER_STATUS.active;
  const figures = { scale: order.scale, currency: order.currency };
  return (
    <li className="card er-order" data-testid={`earn-order-${order.id}`}>
      <div className="er-order-head">
        <strong className="er-product-name">{order.productName}</strong>
        <EarnStatusTag status={order.status} />
      </div>
      <Line label={t('earn_orderNo')} value={order.orderNo} />
      <Line label={t('earn_principal')} value={amountText(order.amount, figures)} strong />
      {order.compounding && order.balance !== order.amount && (
        <Line label={t('earn_stake')} value={amountText(order.balance, figures)} />
      )}
      <Line label={t('earn_dailyRate')} value={percentText(order.dailyRate)} />
      <Line label={t('earn_term')} value={termText(order.termDays)} number={false} />
      {order.firstDay && (
        <Line
          label={t('earn_period')}
          value={order.endDay ? `${order.firstDay} – ${order.endDay}` : `${order.firstDay} –`}
        />
      )}
      <Line
        label={t('earn_interestPaid')}
        value={amountText(order.interestPaid, figures)}
        testId={`earn-order-${order.id}-paid`}
      />
      {order.payout === 'maturity' && active && (
        <Line
          label={t('earn_interestAccrued')}
          value={amountText(order.interestAccrued, figures)}
        />
      )}
      {order.expectedInterest !== null && (
        <Line
          label={t('earn_expectedInterest')}
          value={amountText(order.expectedInterest, figures)}
        />
      )}
      {active && (
        <Line label={t('earn_nextInterest')} value={amountText(order.nextInterest, figures)} />
      )}
      {order.penalty !== null && (
        <Line label={t('earn_penaltyAmount')} value={amountText(order.penalty, figures)} />
      )}
      {order.returned !== null && (
        <Line label={t('earn_returned')} value={amountText(order.returned, figures)} />
      )}
      {order.rejectReason && (
        <p className="er-warning">{formatMessage(t('earn_rejectReason'), [order.rejectReason])}</p>
      )}
      {order.status === EARN_ORDER_STATUS.pending && (
        <p className="er-note">{t('earn_pendingNote')}</p>
      )}
      <div className="er-order-foot">
        <Num className="muted er-small er-order-time">{formatDateTime(order.createTime)}</Num>
        <span className="spacer" />
        {onRecords && (
          <Button
            size="small"
            fill="outline"
            data-testid={`earn-order-${order.id}-records`}
            onClick={onRecords}
          >
            {t('earn_records')}
          </Button>
        )}
        {active && onRedeem && !earnTermEnded(order.endDay, earnDay(new Date())) && (
          <Button
            size="small"
            color="warning"
            fill="outline"
            data-testid={`earn-order-${order.id}-redeem`}
            onClick={onRedeem}
          >
            {t('earn_redeem')}
          </Button>
        )}
      </div>
    </li>
  );
}

/** The orders screen of a kind (route names of config/paths.ts). */
export const ORDERS_ROUTE: Record<EarnKind, 'lockMiningOrders' | 'pledgeOrders'> = {
  financial: 'lockMiningOrders',
  staking: 'pledgeOrders',
};
