/**
 * What the fast-trade panel, its countdown and the recent-trades list share: the calls, the
 * server clock as seen from the device, the preview of fee and payout (decimal strings only) and
 * durations as text. The trade currency, its balance, amounts at its scale and tick times are in
 * `lib/trade`, shared with the other kinds of trading.
 */
import {
  FAST_TRADE_STATUS,
  ORDER_DIRECTION,
  fastTradeAmounts,
  tradingApi as routes,
  type AddFastTradeOrderBody,
  type FastTradeAmounts,
  type FastTradeOption,
  type FastTradeOrder,
} from '@bourse/shared';
import { api, ApiError } from '../../api';
import { translate } from '../../i18n';

export type { FastTradeOption, FastTradeOrder } from '@bourse/shared';

/** The options of a product, or null when the operator switched fast trades off. */
export async function fetchFastTradeOptions(
  productType: number,
  productCode: string,
): Promise<FastTradeOption[] | null> {
  try {
    return await api.call(
      routes.fastTradeOptions,
      { productType, productCode },
      { catchError: true },
    );
  } catch (error) {
    if (error instanceof ApiError && error.msg === 'hint_fastTradeDisabled') return null;
    throw error;
  }
}

export async function fetchRiskAccepted(): Promise<boolean> {
  const status = await api.call(routes.fastTradeRiskStatus);
  return Boolean(status?.accepted);
}

export async function acceptRisk(): Promise<void> {
  await api.call(routes.acceptFastTradeRisk);
}

export async function placeFastTrade(body: AddFastTradeOrderBody): Promise<FastTradeOrder> {
  const order = await api.call(routes.placeFastTrade, body, { catchError: true });
  learnServerClock(order, Date.now());
  return order;
}

export async function fetchFastTrades(pageSize = 10): Promise<FastTradeOrder[]> {
  const { rows } = await api.call(routes.fastTrades, { pageNum: 1, pageSize });
  return rows ?? [];
}

export function fetchFastTrade(id: number): Promise<FastTradeOrder> {
  return api.call(routes.fastTrade, { id });
}

// ------------------------------------------------------------------ server clock

/**
 * How far the server's clock is ahead of the device's (ms). An order is created at the server's
 * `expiresAt − duration`, its entry tick (`entry.time`) stamped at or just before that, and the
 * answer arrives a moment later: that moment on the device gives the offset, off by the answer's
 * travel time only (the entry tick's own time could be up to a tick older).
 */
let serverOffsetMs = 0;

export function learnServerClock(order: FastTradeOrder, receivedAt: number): void {
  const created = order.expiresAt - order.durationSeconds * 1000;
  if (!Number.isFinite(created)) return;
  serverOffsetMs = created - receivedAt;
}

/** Now on the server's clock, as well as the device can tell. */
export function serverNow(): number {
  return Date.now() + serverOffsetMs;
}

/** Whole seconds left until `expiresAt` (0 once it has passed). */
export function secondsLeft(expiresAt: number, now = serverNow()): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

// ------------------------------------------------------------------ texts and the preview

/** "30 s", "1 min", "5 min", "1 h" (whole units only, else seconds). */
export function durationText(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return translate('fast_hours', [seconds / 3600]);
  if (seconds >= 60 && seconds % 60 === 0) return translate('fast_minutes', [seconds / 60]);
  return translate('fast_seconds', [seconds]);
}

export function feeRateOf(option: FastTradeOption, direction: number): string {
  return direction === ORDER_DIRECTION.down ? option.feeRateDown : option.feeRateUp;
}

/** What placing `stake` costs and what it can bring back: the server's own figures (shared). */
export function previewOf(
  stake: string,
  option: FastTradeOption,
  direction: number,
  scale: number,
): FastTradeAmounts {
  return fastTradeAmounts(
    stake,
    {
      feeRate: feeRateOf(option, direction),
      payoutRate: option.payoutRate,
      lossRate: option.lossRate,
    },
    scale,
  );
}

/** Translation keys (`fast_status_` and the status's name) and colours of the statuses. */
export const FAST_STATUS_LABEL: Record<number, string> = Object.fromEntries(
  Object.entries(FAST_TRADE_STATUS).map(([name, code]) => [code, `fast_status_${name}`]),
);

export const FAST_STATUS_COLOR: Record<number, string> = {
  0: 'var(--accent)',
  1: 'var(--success)',
  2: 'var(--danger)',
  3: 'var(--text-muted)',
};

export const FAST_TRADES_KEY = 'fastTrades';
