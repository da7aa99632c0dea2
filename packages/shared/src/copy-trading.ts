/**
 * Copy trading (issue 25): the rules the server applies and the app shows, one pure function each
 * (ARCHITECTURE rule 2: what is shown is what is applied).
 *
 * - Profit share above a high-water mark (`settleProfitShare`): each follower–trader relation keeps
 *   its cumulative realized net P&L of the copies and a mark that starts at 0. At a settlement, if
 *   the cumulative exceeds the mark, the trader is due rate × (cumulative − mark), rounded down at
 *   the currency's scale, and the mark rises to the cumulative; otherwise nothing is due and the
 *   mark stays. So losses are recovered before any share is due again, and the total ever due is
 *   (up to rounding per settlement) the rate × the highest cumulative ever settled.
 * - A share the follower's available balance cannot pay is owed and paid first next time
 *   (`payProfitShare`).
 * - The margin of one copy (`copyMargin`): a fixed margin, or the leader's margin × a ratio rounded
 *   down to the currency's scale; capped by what is left of the relation's budget and by the
 *   follower's available balance; refused under the product's minimum.
 * - A trader's statistics (`traderStats`), computed only from the trader's closed live contract
 *   positions (never entered by anyone): time-weighted ROI on the trader's equity, P&L, win rate,
 *   trades, average holding time and maximum drawdown over 7, 30, 90 days and since the start, and
 *   the equity curve (the chained index 1 · Π(1 + pnl / equity before the close)).
 */
import {
  add,
  div,
  gt,
  isNegative,
  isPositive,
  lt,
  min,
  mul,
  normalize,
  sub,
  toScale,
  type DecimalInput,
  type DecimalString,
} from './money';

// ---------------------------------------------------------------- codes

/** How a copy is sized: a fixed margin per copied trade (1), or a ratio of the leader's margin (2). */
export const COPY_MODE = { fixed: 1, ratio: 2 } as const;
export type CopyMode = (typeof COPY_MODE)[keyof typeof COPY_MODE];

/** A relation follows (1) or has ended (2, unfollowed). */
export const RELATION_STATUS = { active: 1, ended: 2 } as const;
export type RelationStatus = (typeof RELATION_STATUS)[keyof typeof RELATION_STATUS];

/** The books a relation copies into: the trader's positions are always live. */
export const COPY_BOOKS = ['live', 'demo'] as const;
export type CopyBook = (typeof COPY_BOOKS)[number];

/** One queued step of the fan-out (open a copy, close it, mirror the leader's TP/SL). */
export const TASK_KINDS = ['open', 'close', 'tpsl'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** A task: pending (queued or waiting for a retry), done, failed (with its reason), skipped. */
export const TASK_STATUS = { pending: 0, done: 1, failed: 2, skipped: 3 } as const;
export type TaskStatus = (typeof TASK_STATUS)[keyof typeof TASK_STATUS];

/** A lead trader: active (1), or suspended by an operator (2: no new follows, no new copies). */
export const TRADER_STATUS = { active: 1, suspended: 2 } as const;
export type TraderStatus = (typeof TRADER_STATUS)[keyof typeof TRADER_STATUS];

/** An application to lead: pending (0), approved (1), rejected (2, with the reason). */
export const APPLICATION_STATUS = { pending: 0, approved: 1, rejected: 2 } as const;
export type ApplicationStatus = (typeof APPLICATION_STATUS)[keyof typeof APPLICATION_STATUS];

/** Unfollowing: close the copies at market now (1), or keep them as ordinary positions (2). */
export const CLOSE_MODE = { closeNow: 1, keep: 2 } as const;
export type CloseMode = (typeof CLOSE_MODE)[keyof typeof CLOSE_MODE];

/** Why a settlement ran: the daily one (1) or the follower unfollowing (2). */
export const SETTLEMENT_REASON = { daily: 1, unfollow: 2 } as const;
export type SettlementReason = (typeof SETTLEMENT_REASON)[keyof typeof SETTLEMENT_REASON];

/** How the trader list sorts (each in the chosen period; drawdown: the smallest first). */
export const COPY_SORT = ['roi', 'pnl', 'followers', 'drawdown'] as const;
export type CopySort = (typeof COPY_SORT)[number];

/** The statistics' windows: the last 7, 30, 90 days, or since the first trade. */
export const COPY_PERIOD = ['7', '30', '90', 'all'] as const;
export type CopyPeriod = (typeof COPY_PERIOD)[number];

/** The days of each window (null: since the start). */
export const COPY_PERIOD_DAYS: Record<CopyPeriod, number | null> = {
  '7': 7,
  '30': 30,
  '90': 90,
  all: null,
};

/** The console's settings (site_setting `copyTrade`) and their defaults. */
export interface CopyTradeSettings {
  /** The highest profit-share rate a trader may set (0.3 = 30 %). */
  maxProfitShareRate: DecimalString;
  /** Closed live contract positions a user needs to apply to lead. */
  minClosedTrades: number;
  /** A trader's current positions are shown only once opened this many minutes ago. */
  positionDelayMinutes: number;
}

export const COPY_TRADE_DEFAULTS: CopyTradeSettings = {
  maxProfitShareRate: '0.3',
  minClosedTrades: 10,
  positionDelayMinutes: 5,
};

/** The identity feature (identity_requirement) that gates applying to lead. */
export const COPY_LEADER_FEATURE = 'copyLeader';

/** Bounds of what a trader, a follower and the console state. */
export const COPY_LIMITS = {
  titleMax: 64,
  descriptionMax: 2000,
  /** Profit-share rates: fractions with at most 4 decimals, at most 1. */
  rateScale: 4,
  rateMax: '1',
  /** A ratio of the leader's margin: at most 4 decimals, from 0.01 to 100. */
  ratioScale: 4,
  ratioMin: '0.01',
  ratioMax: '100',
  /** The follower's own TP/SL, as a fraction of a copy's margin (0.5 = 50 %). */
  tpSlScale: 4,
  tpMax: '100',
  slMax: '1',
  /** Open copies one relation may hold at once. */
  maxOpenMax: 1000,
  /** Followers one trader may take (their own limit and the console's cap). */
  maxFollowersMax: 100_000,
  minClosedTradesMax: 100_000,
  positionDelayMinutesMax: 1440,
  /** Scale of ROI, win rate, drawdown and the equity index. */
  statsScale: 8,
  /** Points of the equity curve a profile carries (thinned evenly beyond that). */
  curvePointsMax: 500,
  /** Days of income a trader's dashboard lists. */
  incomeDaysMax: 90,
} as const;

// ---------------------------------------------------------------- profit share

export interface ProfitShareInput {
  /** The relation's cumulative realized net P&L of its copies (after fees). */
  cumPnl: DecimalInput;
  /** Its high-water mark ('0' at the start). */
  hwm: DecimalInput;
  /** The trader's share of the P&L above the mark (0.3 = 30 %). */
  rate: DecimalInput;
  /** The currency's decimals: the share is rounded down to them. */
  scale: number;
}

export interface ProfitShare {
  /** What the trader is due ('0' when the cumulative is not above the mark). */
  share: DecimalString;
  /** The mark after the settlement: the cumulative when it was above, else unchanged. */
  hwmAfter: DecimalString;
}

/** One settlement of a relation: the share above the high-water mark, and the new mark. */
export function settleProfitShare({ cumPnl, hwm, rate, scale }: ProfitShareInput): ProfitShare {
  if (!gt(cumPnl, hwm)) return { share: '0', hwmAfter: normalize(hwm) };
  const share = normalize(toScale(mul(sub(cumPnl, hwm), rate), scale, 'down'));
  return { share, hwmAfter: normalize(cumPnl) };
}

export interface ProfitSharePayment {
  /** Paid now (at most the follower's available balance). */
  paid: DecimalString;
  /** Still owed after this payment, paid first at the next settlement. */
  owedAfter: DecimalString;
}

/**
 * Pays what was owed before and the new share from the follower's available balance: as much as
 * there is, the rest stays owed.
 */
export function payProfitShare({
  share,
  owed,
  available,
}: {
  share: DecimalInput;
  owed: DecimalInput;
  available: DecimalInput;
}): ProfitSharePayment {
  const due = add(owed, share);
  const paid = isPositive(available) ? min(due, available) : '0';
  return { paid, owedAfter: sub(due, paid) };
}

// ---------------------------------------------------------------- the margin of a copy

export interface CopyMarginInput {
  mode: CopyMode;
  /** The fixed margin (fixed mode). */
  amount?: DecimalInput | null;
  /** The ratio of the leader's margin (ratio mode). */
  ratio?: DecimalInput | null;
  /** The leader's margin of the position being copied. */
  leaderMargin: DecimalInput;
  /** The relation's budget less the margin of its open copies. */
  budgetLeft: DecimalInput;
  /** The follower's available balance in the currency (fees apart: the trading service checks). */
  available: DecimalInput;
  /** The product's smallest margin, when it has one. */
  minMargin?: DecimalInput | null;
  /** The currency's decimals. */
  scale: number;
}

export type CopyMarginResult =
  | {
      ok: true;
      margin: DecimalString;
      /** What the settings asked before the caps. */
      wanted: DecimalString;
      /** Which cap made the margin smaller than wanted (null: none). */
      cappedBy: 'budget' | 'available' | null;
    }
  | {
      ok: false;
      /** hint_copyMarginBelowMin, hint_copyBudgetExceeded or hint_copyBalanceShort. */
      hint: CopyMarginRefusal;
      wanted: DecimalString;
    };

export type CopyMarginRefusal =
  'hint_copyMarginBelowMin' | 'hint_copyBudgetExceeded' | 'hint_copyBalanceShort';

/** The margin of one copy, or why none can be opened. */
export function copyMargin(input: CopyMarginInput): CopyMarginResult {
  const raw =
    input.mode === COPY_MODE.fixed
      ? normalize(input.amount ?? '0')
      : mul(input.leaderMargin, input.ratio ?? '0');
  const wanted = normalize(toScale(raw, input.scale, 'down'));
  const floor =
    input.minMargin !== undefined && input.minMargin !== null && isPositive(input.minMargin)
      ? input.minMargin
      : null;
  const tooSmall = (value: DecimalInput) =>
    !isPositive(value) || (floor !== null && lt(value, floor));
  if (tooSmall(wanted)) return { ok: false, hint: 'hint_copyMarginBelowMin', wanted };
  let margin = wanted;
  let cappedBy: 'budget' | 'available' | null = null;
  if (lt(input.budgetLeft, margin)) {
    margin = isNegative(input.budgetLeft) ? '0' : normalize(input.budgetLeft);
    cappedBy = 'budget';
  }
  if (lt(input.available, margin)) {
    margin = isNegative(input.available) ? '0' : normalize(input.available);
    cappedBy = 'available';
  }
  margin = normalize(toScale(margin, input.scale, 'down'));
  if (tooSmall(margin))
    return {
      ok: false,
      hint: cappedBy === 'budget' ? 'hint_copyBudgetExceeded' : 'hint_copyBalanceShort',
      wanted,
    };
  return { ok: true, margin, wanted, cappedBy };
}

/**
 * The follower's own take-profit and stop-loss prices of a copy, from fractions of its margin:
 * the price where the P&L reaches +tpRate × margin (or −slRate × margin), rounded toward the
 * entry (so the trigger is never beyond what was asked) at the product's price scale. Long (1)
 * or short (2).
 */
export function copyTpSlPrices({
  direction,
  entryPrice,
  quantity,
  margin,
  tpRate,
  slRate,
  priceScale,
}: {
  direction: 1 | 2;
  entryPrice: DecimalInput;
  quantity: DecimalInput;
  margin: DecimalInput;
  tpRate?: DecimalInput | null;
  slRate?: DecimalInput | null;
  priceScale: number;
}): { takeProfit: DecimalString | null; stopLoss: DecimalString | null } {
  if (!isPositive(quantity)) return { takeProfit: null, stopLoss: null };
  const move = (rate: DecimalInput) => div(mul(margin, rate), quantity, 18, 'down');
  const sign = direction === 1 ? 1 : -1;
  const at = (offset: DecimalString, towardEntryIsDown: boolean) => {
    const price = sign > 0 ? add(entryPrice, offset) : sub(entryPrice, offset);
    return normalize(toScale(price, priceScale, towardEntryIsDown ? 'down' : 'up'));
  };
  let takeProfit: DecimalString | null = null;
  let stopLoss: DecimalString | null = null;
  if (tpRate !== undefined && tpRate !== null && isPositive(tpRate)) {
    // Long: above the entry, rounded down toward it; short: below, rounded up toward it.
    takeProfit = at(move(tpRate), sign > 0);
  }
  if (slRate !== undefined && slRate !== null && isPositive(slRate)) {
    // Long: below the entry, rounded up toward it; short: above, rounded down toward it.
    stopLoss = at(mul(move(slRate), '-1'), sign < 0);
    if (!isPositive(stopLoss)) stopLoss = null;
  }
  return { takeProfit, stopLoss };
}

/**
 * What is wrong with a follower's settings against the trader's limits (null: nothing): a fixed
 * amount outside the trader's minimum and maximum copy amount, or a budget below one copy.
 */
export function followSettingsProblem({
  mode,
  amount,
  budget,
  minCopyAmount,
  maxCopyAmount,
}: {
  mode: CopyMode;
  amount?: DecimalInput | null;
  budget: DecimalInput;
  minCopyAmount: DecimalInput;
  maxCopyAmount?: DecimalInput | null;
}): 'hint_copyAmountRange' | 'hint_copyBudgetBelowAmount' | 'hint_copyBudgetBelowMin' | null {
  if (mode === COPY_MODE.fixed) {
    const value = amount ?? '0';
    if (
      lt(value, minCopyAmount) ||
      (maxCopyAmount !== undefined && maxCopyAmount !== null && gt(value, maxCopyAmount))
    )
      return 'hint_copyAmountRange';
    if (lt(budget, value)) return 'hint_copyBudgetBelowAmount';
    return null;
  }
  if (lt(budget, minCopyAmount)) return 'hint_copyBudgetBelowMin';
  return null;
}

// ---------------------------------------------------------------- a trader's statistics

/** One closed live contract position of the trader. */
export interface TraderTrade {
  /** The position's id: orders closes of the same instant. */
  id?: number | string;
  openedAt: Date | string;
  closedAt: Date | string;
  /** Net realized P&L after the open and close fees. */
  pnl: DecimalInput;
  margin?: DecimalInput;
  /** The trader's equity in the trade currency just before the close (available + margin). */
  equityBefore: DecimalInput;
}

export interface TraderWindowStats {
  period: CopyPeriod;
  /** Time-weighted return: Π(1 + pnl / equityBefore) − 1 over the window's closes. */
  roi: DecimalString;
  pnl: DecimalString;
  /** Closes with a P&L above 0 / closes ('0' without a close). */
  winRate: DecimalString;
  trades: number;
  avgHoldSeconds: number;
  /** The largest fall of the window's equity index from a peak, as a fraction of the peak. */
  maxDrawdown: DecimalString;
}

export interface EquityPoint {
  /** The close's time (ISO). */
  time: string;
  /** The chained index 1 · Π(1 + r) after that close. */
  index: DecimalString;
}

export interface TraderStats {
  windows: Record<CopyPeriod, TraderWindowStats>;
  /** Since the start, one point per close (thinned evenly to COPY_LIMITS.curvePointsMax). */
  curve: EquityPoint[];
}

const DAY_MS = 86_400_000;
/** Internal precision of the chained index. */
const INDEX_SCALE = 18;

const timeOf = (value: Date | string) =>
  value instanceof Date ? value.getTime() : Date.parse(value);

/** The return of one close on the equity before it (0 when that equity is not positive). */
function returnOf(trade: TraderTrade): DecimalString {
  if (!isPositive(trade.equityBefore)) return '0';
  return div(trade.pnl, trade.equityBefore, INDEX_SCALE, 'down');
}

/** The index after one more close: never below 0. */
function chain(index: DecimalString, r: DecimalString): DecimalString {
  const next = normalize(toScale(mul(index, add('1', r)), INDEX_SCALE, 'down'));
  return isNegative(next) ? '0' : next;
}

function windowStats(
  period: CopyPeriod,
  trades: readonly { trade: TraderTrade; closed: number; opened: number; r: DecimalString }[],
): TraderWindowStats {
  const scale = COPY_LIMITS.statsScale;
  let index = '1';
  let peak = '1';
  let drawdown = '0';
  let pnl = '0';
  let wins = 0;
  let held = 0;
  for (const { trade, closed, opened, r } of trades) {
    index = chain(index, r);
    if (gt(index, peak)) peak = index;
    else if (isPositive(peak)) {
      const fall = div(sub(peak, index), peak, INDEX_SCALE, 'down');
      if (gt(fall, drawdown)) drawdown = fall;
    }
    pnl = add(pnl, trade.pnl);
    if (isPositive(trade.pnl)) wins += 1;
    held += Math.max(0, Math.floor((closed - opened) / 1000));
  }
  const count = trades.length;
  return {
    period,
    roi: toScale(sub(index, '1'), scale, 'down'),
    pnl,
    winRate: toScale(count === 0 ? '0' : div(String(wins), String(count), scale, 'down'), scale),
    trades: count,
    avgHoldSeconds: count === 0 ? 0 : Math.floor(held / count),
    maxDrawdown: toScale(drawdown, scale, 'down'),
  };
}

/** Evenly chosen points, the first and the last always among them. */
function thin<T>(points: readonly T[], most: number): T[] {
  if (points.length <= most) return [...points];
  const picked: T[] = [];
  for (let i = 0; i < most; i += 1)
    picked.push(points[Math.round((i * (points.length - 1)) / (most - 1))]!);
  return picked;
}

/** Numbers by value, anything else by its text; an absent id first. */
function compareIds(a: number | string | undefined, b: number | string | undefined): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a ?? ''), String(b ?? '')];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A trader's statistics from their closed live contract positions, as of `now` (closes after it
 * are left out). Deterministic: the closes are taken in time order (then id), whatever the order
 * given.
 */
export function traderStats(
  trades: readonly TraderTrade[],
  now: Date,
  curvePointsMax: number = COPY_LIMITS.curvePointsMax,
): TraderStats {
  const nowMs = now.getTime();
  const rows = trades
    .map((trade) => ({
      trade,
      closed: timeOf(trade.closedAt),
      opened: timeOf(trade.openedAt),
      r: returnOf(trade),
    }))
    .filter((row) => row.closed <= nowMs)
    .sort((a, b) => a.closed - b.closed || compareIds(a.trade.id, b.trade.id));
  const windows = Object.fromEntries(
    COPY_PERIOD.map((period) => {
      const days = COPY_PERIOD_DAYS[period];
      const from = days === null ? -Infinity : nowMs - days * DAY_MS;
      return [
        period,
        windowStats(period, days === null ? rows : rows.filter((row) => row.closed > from)),
      ];
    }),
  ) as Record<CopyPeriod, TraderWindowStats>;
  let index = '1';
  const curve = rows.map((row) => {
    index = chain(index, row.r);
    return {
      time: new Date(row.closed).toISOString(),
      index: toScale(index, COPY_LIMITS.statsScale, 'down'),
    };
  });
  return { windows, curve: thin(curve, Math.max(2, curvePointsMax)) };
}
