/**
 * Decimal arithmetic for money and prices. Values travel as plain decimal strings ("1234.5",
 * "-0.00000001"); arithmetic goes through big.js in strict mode, which throws if a JS number ever
 * reaches it, so a float can never slip into an amount. NUMERIC in the database, strings on the
 * wire, `Decimal` in between.
 */
import BigConstructor from 'big.js';
import type { Big, BigSource } from 'big.js';

/** A private big.js constructor, so no other library's settings can change ours. */
const Decimal = BigConstructor();
Decimal.DP = 40;
Decimal.RM = Decimal.roundDown;
Decimal.NE = -1e6;
Decimal.PE = 1e6;
Decimal.strict = true;

const ZERO = new Decimal('0');

export type DecimalString = string;
export type DecimalInput = DecimalString | Big;
export type Rounding = 'down' | 'up' | 'halfUp' | 'halfEven';

const ROUNDING: Record<Rounding, 0 | 1 | 2 | 3> = { down: 0, halfUp: 1, halfEven: 2, up: 3 };

/** Plain decimal: optional minus, no leading zeros, optional fraction, no exponent. */
const DECIMAL_PATTERN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** Digits allowed before the point (NUMERIC(38,18) in the database leaves 20). */
export const MAX_INTEGER_DIGITS = 20;
/** Digits allowed after the point in storage. */
export const MAX_SCALE = 18;

export function isDecimalString(value: unknown): value is DecimalString {
  return typeof value === 'string' && value.length <= 64 && DECIMAL_PATTERN.test(value);
}

function big(value: DecimalInput): Big {
  if (value instanceof Decimal) return value;
  if (typeof value !== 'string')
    throw new TypeError(`Not a decimal string: ${String(value)} (${typeof value})`);
  if (!isDecimalString(value))
    throw new TypeError(`Not a decimal string: ${JSON.stringify(value)}`);
  return new Decimal(value as BigSource);
}

/** The plain string of a value, without exponent and without trailing zeros. */
export function normalize(value: DecimalInput): DecimalString {
  const text = big(value).toFixed();
  return text === '-0' ? '0' : text;
}

export function add(a: DecimalInput, b: DecimalInput): DecimalString {
  return normalize(big(a).plus(big(b)));
}

export function sub(a: DecimalInput, b: DecimalInput): DecimalString {
  return normalize(big(a).minus(big(b)));
}

export function mul(a: DecimalInput, b: DecimalInput): DecimalString {
  return normalize(big(a).times(big(b)));
}

/** a / b rounded to `scale` decimals. Division by zero throws. */
export function div(
  a: DecimalInput,
  b: DecimalInput,
  scale: number,
  rounding: Rounding = 'down',
): DecimalString {
  const divisor = big(b);
  if (divisor.eq(ZERO)) throw new RangeError('Division by zero');
  return normalize(big(a).div(divisor).round(scale, ROUNDING[rounding]));
}

export function neg(a: DecimalInput): DecimalString {
  return normalize(big(a).times(new Decimal('-1')));
}

export function abs(a: DecimalInput): DecimalString {
  return normalize(big(a).abs());
}

/** -1, 0 or 1. */
export function cmp(a: DecimalInput, b: DecimalInput): -1 | 0 | 1 {
  return big(a).cmp(big(b)) as -1 | 0 | 1;
}

export const eq = (a: DecimalInput, b: DecimalInput): boolean => cmp(a, b) === 0;
export const gt = (a: DecimalInput, b: DecimalInput): boolean => cmp(a, b) > 0;
export const gte = (a: DecimalInput, b: DecimalInput): boolean => cmp(a, b) >= 0;
export const lt = (a: DecimalInput, b: DecimalInput): boolean => cmp(a, b) < 0;
export const lte = (a: DecimalInput, b: DecimalInput): boolean => cmp(a, b) <= 0;
export const isZero = (a: DecimalInput): boolean => big(a).eq(ZERO);
export const isNegative = (a: DecimalInput): boolean => big(a).lt(ZERO);
export const isPositive = (a: DecimalInput): boolean => big(a).gt(ZERO);

export function min(a: DecimalInput, b: DecimalInput): DecimalString {
  return lte(a, b) ? normalize(a) : normalize(b);
}

export function max(a: DecimalInput, b: DecimalInput): DecimalString {
  return gte(a, b) ? normalize(a) : normalize(b);
}

export function sum(values: readonly DecimalInput[]): DecimalString {
  let total = ZERO;
  for (const value of values) total = total.plus(big(value));
  return normalize(total);
}

/** Rounds to `scale` decimals and writes exactly that many ("1.5" at scale 2 is "1.50"). */
export function toScale(
  value: DecimalInput,
  scale: number,
  rounding: Rounding = 'down',
): DecimalString {
  const text = big(value).toFixed(scale, ROUNDING[rounding]);
  return /^-0(?:\.0+)?$/.test(text) ? text.slice(1) : text;
}

/** Number of digits after the point. */
export function scaleOf(value: DecimalString): number {
  const point = value.indexOf('.');
  return point < 0 ? 0 : value.length - point - 1;
}

export type DecimalProblem = 'format' | 'scale' | 'range' | 'sign';

export interface ParseDecimalOptions {
  /** At most this many decimals (the currency's scale). */
  maxScale?: number;
  /** 'positive' (> 0, the default for amounts), 'nonNegative' (>= 0) or 'any'. */
  sign?: 'positive' | 'nonNegative' | 'any';
  /** Inclusive bounds. */
  min?: DecimalString;
  max?: DecimalString;
}

export type ParseDecimalResult =
  { ok: true; value: DecimalString } | { ok: false; problem: DecimalProblem };

/**
 * Checks untrusted input meant to be an amount: a plain decimal string within the scale, sign and
 * bounds given. Returns the normalized value or the first problem found.
 */
export function parseDecimal(
  input: unknown,
  options: ParseDecimalOptions = {},
): ParseDecimalResult {
  if (!isDecimalString(input)) return { ok: false, problem: 'format' };
  const integerDigits = input.replace('-', '').split('.')[0]?.length ?? 0;
  if (integerDigits > MAX_INTEGER_DIGITS) return { ok: false, problem: 'range' };
  if (scaleOf(input) > Math.min(options.maxScale ?? MAX_SCALE, MAX_SCALE))
    return { ok: false, problem: 'scale' };
  const sign = options.sign ?? 'positive';
  if (sign === 'positive' && !isPositive(input)) return { ok: false, problem: 'sign' };
  if (sign === 'nonNegative' && isNegative(input)) return { ok: false, problem: 'sign' };
  if (options.min !== undefined && lt(input, options.min)) return { ok: false, problem: 'range' };
  if (options.max !== undefined && gt(input, options.max)) return { ok: false, problem: 'range' };
  return { ok: true, value: normalize(input) };
}
