/**
 * The figures of the copy-trading screens, worked out on decimal strings: statistics as signed
 * percentages, holding times, the equity curve as the chart's points, and the preview of one
 * copied trade — its margin by the shared `copyMargin` (the function the server sizes each copy
 * with) and its opening fee by the shared `feeOn` at the fee table's rate.
 */
import {
  COPY_MODE,
  POSITION_TYPE,
  add,
  copyMargin,
  feeOn,
  isDecimalString,
  isNegative,
  isPositive,
  isZero,
  mul,
  normalize,
  toScale,
  type CopyMarginResult,
  type CopyMode,
  type FeeSetting,
} from '@bourse/shared';

// ------------------------------------------------------------------ percentages

/** A fraction as a percentage at `decimals` places, rounded toward zero: "0.12345" → "12.34%". */
export function fractionPercent(fraction: string, decimals = 2): string {
  if (!isDecimalString(fraction)) return '- -';
  return `${toScale(mul(fraction, '100'), decimals, 'down')}%`;
}

/** The percentage shown of a fraction (for its tone): "-0.00004" shows, and is toned, as 0.00. */
export function shownPercent(fraction: string, decimals = 2): string {
  return isDecimalString(fraction) ? toScale(mul(fraction, '100'), decimals, 'down') : fraction;
}

/** A return with its sign: "+12.34%", "-3.10%", "0.00%". */
export function signedPercent(fraction: string, decimals = 2): string {
  const text = fractionPercent(fraction, decimals);
  if (!isDecimalString(fraction)) return text;
  return isPositive(toScale(mul(fraction, '100'), decimals, 'down')) ? `+${text}` : text;
}

/** The tone of a figure: up, down, or none for zero. */
export function toneOf(value: string | null | undefined): 'up' | 'down' | undefined {
  if (!isDecimalString(value) || isZero(value)) return undefined;
  return isNegative(value) ? 'down' : 'up';
}

// ------------------------------------------------------------------ holding time

/** A holding time as its two largest units: days and hours, hours and minutes, or minutes. */
export function holdParts(seconds: number): { unit: 'd' | 'h' | 'm'; value: number; rest: number } {
  const whole = Math.max(0, Math.floor(seconds));
  if (whole >= 86_400)
    return {
      unit: 'd',
      value: Math.floor(whole / 86_400),
      rest: Math.floor((whole % 86_400) / 3600),
    };
  if (whole >= 3600)
    return { unit: 'h', value: Math.floor(whole / 3600), rest: Math.floor((whole % 3600) / 60) };
  return { unit: 'm', value: Math.floor(whole / 60), rest: whole % 60 };
}

// ------------------------------------------------------------------ the equity curve

export interface CurvePoint {
  /** The close's time (ISO). */
  time: string;
  /** The equity index after it (1 at the start). */
  index: string;
}

/**
 * The chart's points: seconds since the epoch, strictly increasing (the chart refuses two points
 * at one time: closes in the same second keep the last index of that second), values as numbers
 * for drawing only.
 */
export function chartPoints(points: readonly CurvePoint[]): { time: number; value: number }[] {
  const out: { time: number; value: number }[] = [];
  for (const point of points) {
    const ms = Date.parse(point.time);
    if (!Number.isFinite(ms) || !isDecimalString(point.index)) continue;
    const time = Math.floor(ms / 1000);
    const value = Number(point.index);
    const last = out[out.length - 1];
    if (last && time <= last.time) last.value = value;
    else out.push({ time, value });
  }
  return out;
}

/** An index of the chart (1 = the start) as the return it stands for: "+12.34%". */
export function indexReturnText(index: number): string {
  if (!Number.isFinite(index)) return '';
  return signedPercent(normalize((index - 1).toFixed(6)));
}

// ------------------------------------------------------------------ one copied trade

/** The fee table's contract rate for a product type and direction ('0' when none). */
export function contractFeeRate(
  fees: readonly FeeSetting[] | undefined,
  productType: number,
  direction: number,
): string {
  const row = fees?.find(
    (fee) =>
      fee.productType === productType &&
      fee.PositionType === POSITION_TYPE.contract &&
      fee.exType === direction,
  );
  return row && isDecimalString(row.feeRate) ? normalize(row.feeRate) : '0';
}

export interface CopyPreviewInput {
  mode: CopyMode;
  amount: string | undefined;
  ratio: string | undefined;
  /** The budget less the margin of the open copies. */
  budgetLeft: string;
  /** The follower's available balance (undefined while it loads: not a cap yet). */
  available: string | undefined;
  /** The example the preview sizes: the trader's latest position. */
  leader: { margin: string; leverage: number } | null;
  feeRate: string;
  scale: number;
}

export type CopyPreview =
  | {
      ok: true;
      margin: string;
      wanted: string;
      cappedBy: 'budget' | 'available' | null;
      /**
       * The opening fee at most: on margin × the leader's leverage (the lots rounded down make it
       * less); null without an example of the leader's leverage.
       */
      fee: string | null;
      total: string | null;
    }
  | { ok: false; hint: string; wanted: string }
  | undefined;

/**
 * What one copied trade would take from the balance: its margin as the server sizes it
 * (`copyMargin`), and its opening fee at most, on the margin times the leader's leverage (the
 * server opens whole lots, so the notional, and its fee, can only be smaller). Undefined when
 * there is nothing to size (ratio mode without an example of the leader's margin).
 */
export function copyPreview(input: CopyPreviewInput): CopyPreview {
  const example = input.leader;
  if (input.mode === COPY_MODE.ratio && (!example || !input.ratio)) return undefined;
  if (input.mode === COPY_MODE.fixed && !input.amount) return undefined;
  const result: CopyMarginResult = copyMargin({
    mode: input.mode,
    amount: input.amount ?? null,
    ratio: input.ratio ?? null,
    leaderMargin: example?.margin ?? '0',
    budgetLeft: input.budgetLeft,
    available: input.available ?? input.budgetLeft,
    scale: input.scale,
  });
  if (!result.ok) return result;
  const fee = example
    ? normalize(feeOn(mul(result.margin, String(example.leverage)), input.feeRate, input.scale))
    : null;
  return {
    ok: true,
    margin: result.margin,
    wanted: result.wanted,
    cappedBy: result.cappedBy,
    fee,
    total: fee === null ? null : normalize(add(result.margin, fee)),
  };
}
