/** How products and orders are shown: to users in their language, to operators with every text. */
import {
  cmp,
  earnApi,
  gt,
  EARN_ORDER_STATUS,
  nextDayInterest,
  normalize,
  sub,
  toScale,
  type ConsoleEarnOrder,
  type ConsoleEarnProduct,
  type EarnOrder,
  type EarnProduct,
  type LanguageKey,
} from '@bourse/shared';
import { pickLanguage } from '../../lib/i18n';
import type { OrderRow, ProductRow, ProductStatsRow } from './repo';

export function imageUrl(id: number | null, sha256: string | null): string {
  return id !== null && sha256 !== null ? `${earnApi.productImage.path}?id=${id}&v=${sha256}` : '';
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The terms every view of a product shows, amounts at the currency's scale. */
function productTerms(row: ProductRow) {
  const at = (value: string) => toScale(value, row.scale);
  return {
    id: row.id,
    kind: row.kind,
    image: imageUrl(row.image_id, row.image_sha256),
    currencyId: row.currency_id,
    currency: row.currency_name,
    scale: row.scale,
    termDays: row.term_days,
    dailyRate: normalize(row.daily_rate),
    rateTiers: [...row.rate_tiers]
      .sort((a, b) => cmp(a.minAmount, b.minAmount))
      .map((tier) => ({ minAmount: at(tier.minAmount), dailyRate: normalize(tier.dailyRate) })),
    minAmount: at(row.min_amount),
    maxAmount: row.max_amount === null ? null : at(row.max_amount),
    maxOrdersPerUser: row.max_orders_per_user,
    capacity: row.capacity === null ? null : at(row.capacity),
    remainingCapacity:
      row.capacity === null
        ? null
        : at(gt(row.capacity, row.held) ? sub(row.capacity, row.held) : '0'),
    minAuthLevel: row.min_auth_level,
    payout: row.payout,
    compounding: row.compounding,
    penaltyRate: normalize(row.penalty_rate),
    requiresReview: row.requires_review,
    status: row.status,
  };
}

export function productView(
  row: ProductRow,
  lang: LanguageKey,
  openOrders: number | null,
): EarnProduct {
  return {
    ...productTerms(row),
    name: pickLanguage(row.name, lang),
    description: pickLanguage(row.description, lang),
    openOrders,
  };
}

export function consoleProductView(row: ProductStatsRow): ConsoleEarnProduct {
  return {
    ...productTerms(row),
    name: row.name,
    description: row.description,
    held: toScale(row.held, row.scale),
    activeOrders: row.active_orders,
    pendingOrders: row.pending_orders,
    sort: row.sort,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

export function orderView(row: OrderRow, lang: LanguageKey): EarnOrder {
  const at = (value: string) => toScale(value, row.scale);
  const active = row.status === EARN_ORDER_STATUS.active;
  return {
    id: row.id,
    orderNo: row.order_no,
    kind: row.kind,
    productId: row.product_id,
    productName: pickLanguage(row.product_name, lang),
    image: imageUrl(row.image_id, row.image_sha256),
    currencyId: row.currency_id,
    currency: row.currency_name,
    scale: row.scale,
    amount: at(row.principal),
    balance: at(row.balance),
    dailyRate: normalize(row.daily_rate),
    termDays: row.term_days,
    payout: row.payout,
    compounding: row.compounding,
    penaltyRate: normalize(row.penalty_rate),
    status: row.status,
    firstDay: row.first_day,
    endDay: row.end_day,
    daysAccrued: row.days_accrued,
    interestPaid: at(row.interest_paid),
    // Held for maturity while active; once paid (or forfeited by a redemption) nothing is held.
    interestAccrued: at(active ? row.interest_accrued : '0'),
    expectedInterest: row.expected_interest === null ? null : at(row.expected_interest),
    nextInterest: at(
      active ? nextDayInterest(row.balance, row.daily_rate, row.carry, row.scale) : '0',
    ),
    penalty: row.penalty === null ? null : at(row.penalty),
    returned: row.returned === null ? null : at(row.returned),
    rejectReason: row.reject_reason,
    demo: row.book === 'demo',
    createTime: row.created_at.toISOString(),
    startTime: iso(row.started_at),
    endTime: iso(row.ended_at),
  };
}

export function consoleOrderView(row: OrderRow): ConsoleEarnOrder {
  return {
    ...orderView(row, 'en'),
    userId: row.user_id,
    userAccount: row.user_account ?? '',
    reviewTime: iso(row.reviewed_at),
  };
}
