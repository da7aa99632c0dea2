/**
 * The money figures a user is shown before confirming and the server then moves: one function
 * each, called by both ends (ARCHITECTURE rule 2), so what the app shows is what is frozen or
 * paid. Before, the withdrawal fee was written twice: the server rounded the rate part and added
 * the fixed fee after, the app added first and rounded after, so a fixed fee finer than the
 * currency froze an amount the app never showed.
 *
 * Every result is at the currency's scale, which the caller passes from the currency itself:
 * there is no default scale.
 */
import {
  add,
  div,
  gt,
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

function checkScale(scale: number): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > 18)
    throw new RangeError(`A currency's scale is a whole number from 0 to 18, not ${scale}`);
}

/** The smallest amount of a currency with `scale` decimals: "0.01" for 2, "1" for 0. */
export function unitOf(scale: number): DecimalString {
  checkScale(scale);
  return scale === 0 ? '1' : `0.${'0'.repeat(scale - 1)}1`;
}

/**
 * The largest amount at `scale`, at most `cap`, whose total (`totalOf`) fits within `budget`;
 * '0' when none does. It starts from `estimate` rounded down and steps down one unit at a time
 * while rounding up a fee still takes the total over (a step or two at most).
 */
function largestWithin(
  budget: DecimalInput,
  estimate: DecimalInput,
  cap: DecimalInput,
  scale: number,
  totalOf: (amount: DecimalString) => DecimalString,
): DecimalString {
  const unit = unitOf(scale);
  let amount = toScale(min(estimate, cap), scale, 'down');
  for (let step = 0; step < 4 && isPositive(amount) && gt(totalOf(amount), budget); step += 1)
    amount = sub(amount, unit);
  return isPositive(amount) && !gt(totalOf(amount), budget) ? toScale(amount, scale) : '0';
}

// ---------------------------------------------------------------- withdrawals

export interface WithdrawalFeeTerms {
  /** Part of the amount taken as fee ("0.001" is 0.1 %). */
  feeRate: DecimalInput;
  /** Added to every withdrawal, in the currency; at most the currency's scale (operators' rule). */
  fixedFee: DecimalInput;
}

/** The fee of a withdrawal of `amount`: amount × rate + fixed fee, rounded up to the currency. */
export function withdrawalFee(
  amount: DecimalInput,
  terms: WithdrawalFeeTerms,
  scale: number,
): DecimalString {
  checkScale(scale);
  return toScale(add(mul(amount, terms.feeRate), terms.fixedFee), scale, 'up');
}

export interface WithdrawalLimits extends WithdrawalFeeTerms {
  maxAmount: DecimalInput;
  /** What is left of today's limit for this user and channel. */
  dailyRemaining: DecimalInput;
}

/**
 * The most that can be withdrawn from `available`: amount plus its fee within the balance, and
 * the amount within the channel's maximum and today's remaining limit. '0' when nothing can.
 */
export function withdrawableAmount(
  available: DecimalInput,
  channel: WithdrawalLimits,
  scale: number,
): DecimalString {
  const room = sub(available, channel.fixedFee);
  if (!isPositive(room)) return '0';
  return largestWithin(
    available,
    div(room, add('1', channel.feeRate), scale + 2, 'down'),
    min(channel.maxAmount, channel.dailyRemaining),
    scale,
    (amount) => add(amount, withdrawalFee(amount, channel, scale)),
  );
}

// ---------------------------------------------------------------- fast trades

export interface FastTradeTerms {
  /** The fee rate of the chosen direction. */
  feeRate: DecimalInput;
  payoutRate: DecimalInput;
  lossRate: DecimalInput;
}

export interface FastTradeAmounts {
  /** stake × fee rate, rounded up: charged when the order is placed. */
  fee: DecimalString;
  /** What leaves the balance when the order is placed: stake + fee. */
  total: DecimalString;
  /** The profit of a win: stake × payout rate, rounded down. */
  profit: DecimalString;
  /** What a win brings back: stake + profit. */
  payout: DecimalString;
  /** What a loss costs: stake × loss rate rounded up, at most the stake. */
  loss: DecimalString;
}

/** What a settled fast trade wins or loses: the part of the amounts that settlement uses. */
export function fastTradeResults(
  stake: DecimalInput,
  terms: Pick<FastTradeTerms, 'payoutRate' | 'lossRate'>,
  scale: number,
): Pick<FastTradeAmounts, 'profit' | 'loss'> {
  checkScale(scale);
  const lossRaw = toScale(mul(stake, terms.lossRate), scale, 'up');
  return {
    profit: toScale(mul(stake, terms.payoutRate), scale, 'down'),
    loss: lt(lossRaw, stake) ? lossRaw : normalize(stake),
  };
}

export function fastTradeAmounts(
  stake: DecimalInput,
  terms: FastTradeTerms,
  scale: number,
): FastTradeAmounts {
  const { profit, loss } = fastTradeResults(stake, terms, scale);
  const fee = toScale(mul(stake, terms.feeRate), scale, 'up');
  return { fee, total: add(stake, fee), profit, payout: add(stake, profit), loss };
}

/** The largest stake, at most `maxStake`, that pays its fee out of `budget`; '0' when none does. */
export function largestFastTradeStake(
  budget: DecimalInput,
  feeRate: DecimalInput,
  maxStake: DecimalInput,
  scale: number,
): DecimalString {
  if (!isPositive(budget)) return '0';
  return largestWithin(
    budget,
    div(budget, add('1', feeRate), scale + 2, 'down'),
    maxStake,
    scale,
    (stake) => add(stake, toScale(mul(stake, feeRate), scale, 'up')),
  );
}

// ---------------------------------------------------------------- currency exchange (balanceConvert)

export interface ExchangeAmounts {
  /** amount × fee rate, rounded up, in the currency given. */
  fee: DecimalString;
  /** (amount − fee) × rate, rounded down, in the currency received. */
  receiveAmount: DecimalString;
}

/** What an exchange of `amount` takes as fee and gives in the other currency at `rate`. */
export function exchangeAmounts(
  amount: DecimalInput,
  terms: { feeRate: DecimalInput; rate: DecimalInput },
  fromScale: number,
  toScaleOfReceived: number,
): ExchangeAmounts {
  checkScale(fromScale);
  checkScale(toScaleOfReceived);
  const fee = toScale(mul(amount, terms.feeRate), fromScale, 'up');
  return {
    fee,
    receiveAmount: toScale(mul(sub(amount, fee), terms.rate), toScaleOfReceived, 'down'),
  };
}
