/**
 * Properties of the shared money figures over many random amounts, rates, fixed fees and scales:
 * each result is at the currency's scale, rounds the way that never favours the platform by more
 * than one unit (fees up by less than a unit, payouts down), and the largest amounts are the
 * largest that fit. The server tests check that the server freezes exactly these figures.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  exchangeAmounts,
  fastTradeAmounts,
  largestFastTradeStake,
  unitOf,
  withdrawableAmount,
  withdrawalFee,
} from './amounts';
import { add, cmp, gt, lt, mul, scaleOf, sub, toScale } from './money';

const RUNS = 2000;

/** A decimal of `scale` decimals from its count of smallest units. */
function fromUnits(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

const scaleArb = fc.integer({ min: 0, max: 8 });
/** An amount at `scale`, from one unit up to about a billion. */
const amountAt = (scale: number, minUnits = 1n) =>
  fc
    .bigInt({ min: minUnits, max: 10n ** BigInt(9 + scale) })
    .map((units) => fromUnits(units, scale));
/** A rate from 0 to 0.2 with up to 6 decimals. */
const rateArb = fc.bigInt({ min: 0n, max: 200_000n }).map((units) => fromUnits(units, 6));
const payoutRateArb = fc.bigInt({ min: 0n, max: 2_000_000n }).map((units) => fromUnits(units, 6));

describe('unitOf', () => {
  it('is one smallest unit of the scale', () => {
    expect(unitOf(0)).toBe('1');
    expect(unitOf(2)).toBe('0.01');
    expect(unitOf(8)).toBe('0.00000001');
    expect(() => unitOf(-1)).toThrow(RangeError);
    expect(() => unitOf(19)).toThrow(RangeError);
    expect(() => unitOf(1.5)).toThrow(RangeError);
  });
});

describe('withdrawalFee', () => {
  it('is the exact fee rounded up to the currency, by less than one unit', () => {
    fc.assert(
      fc.property(
        scaleArb.chain((scale) =>
          fc.tuple(fc.constant(scale), amountAt(scale), rateArb, amountAt(scale, 0n)),
        ),
        ([scale, amount, feeRate, fixedFee]) => {
          const fee = withdrawalFee(amount, { feeRate, fixedFee }, scale);
          const exact = add(mul(amount, feeRate), fixedFee);
          expect(scaleOf(fee)).toBe(scale);
          expect(lt(fee, exact)).toBe(false);
          expect(lt(sub(fee, exact), unitOf(scale))).toBe(true);
          // With a fixed fee at the currency's scale, rounding the rate part alone agrees.
          expect(cmp(fee, add(toScale(mul(amount, feeRate), scale, 'up'), fixedFee))).toBe(0);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('keeps a fixed fee finer than the currency at the currency (0.005 on 2 decimals)', () => {
    expect(withdrawalFee('10', { feeRate: '0.01', fixedFee: '0.005' }, 2)).toBe('0.11');
    expect(withdrawalFee('10', { feeRate: '0', fixedFee: '0' }, 2)).toBe('0.00');
  });
});

describe('withdrawableAmount', () => {
  it('is the largest amount whose total fits the balance, within the limits', () => {
    fc.assert(
      fc.property(
        scaleArb.chain((scale) =>
          fc.tuple(
            fc.constant(scale),
            amountAt(scale),
            rateArb,
            amountAt(scale, 0n),
            amountAt(scale),
            amountAt(scale, 0n),
          ),
        ),
        ([scale, available, feeRate, fixedFee, maxAmount, dailyRemaining]) => {
          const channel = { feeRate, fixedFee, maxAmount, dailyRemaining };
          const amount = withdrawableAmount(available, channel, scale);
          const cap = lt(maxAmount, dailyRemaining) ? maxAmount : dailyRemaining;
          const total = (value: string) => add(value, withdrawalFee(value, channel, scale));
          if (amount === '0') {
            // Nothing fits: not even one unit, or the limits leave nothing.
            expect(gt(cap, '0') && !gt(total(unitOf(scale)), available)).toBe(false);
            return;
          }
          expect(scaleOf(amount)).toBe(scale);
          expect(gt(total(amount), available)).toBe(false);
          expect(gt(amount, cap)).toBe(false);
          const next = add(amount, unitOf(scale));
          expect(gt(next, cap) || gt(total(next), available)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('fastTradeAmounts', () => {
  it('rounds the fee and a loss up, a profit down, each by less than one unit', () => {
    fc.assert(
      fc.property(
        scaleArb.chain((scale) =>
          fc.tuple(fc.constant(scale), amountAt(scale), rateArb, payoutRateArb, payoutRateArb),
        ),
        ([scale, stake, feeRate, payoutRate, lossRate]) => {
          const amounts = fastTradeAmounts(stake, { feeRate, payoutRate, lossRate }, scale);
          const unit = unitOf(scale);
          const exactFee = mul(stake, feeRate);
          expect(lt(amounts.fee, exactFee)).toBe(false);
          expect(lt(sub(amounts.fee, exactFee), unit)).toBe(true);
          const exactProfit = mul(stake, payoutRate);
          expect(gt(amounts.profit, exactProfit)).toBe(false);
          expect(lt(sub(exactProfit, amounts.profit), unit)).toBe(true);
          expect(cmp(amounts.total, add(stake, amounts.fee))).toBe(0);
          expect(cmp(amounts.payout, add(stake, amounts.profit))).toBe(0);
          // A loss never takes more than the stake.
          expect(gt(amounts.loss, stake)).toBe(false);
          expect(lt(amounts.loss, mul(stake, lossRate)) && lt(amounts.loss, stake)).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('gives the largest stake that pays its fee out of the budget', () => {
    fc.assert(
      fc.property(
        scaleArb.chain((scale) =>
          fc.tuple(fc.constant(scale), amountAt(scale), rateArb, amountAt(scale)),
        ),
        ([scale, budget, feeRate, maxStake]) => {
          const stake = largestFastTradeStake(budget, feeRate, maxStake, scale);
          const total = (value: string) =>
            fastTradeAmounts(value, { feeRate, payoutRate: '0', lossRate: '0' }, scale).total;
          if (stake === '0') {
            expect(gt(total(unitOf(scale)), budget)).toBe(true);
            return;
          }
          expect(gt(total(stake), budget)).toBe(false);
          expect(gt(stake, maxStake)).toBe(false);
          const next = add(stake, unitOf(scale));
          expect(gt(next, maxStake) || gt(total(next), budget)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('exchangeAmounts', () => {
  it('takes the fee rounded up and gives the rest at the rate rounded down', () => {
    fc.assert(
      fc.property(
        fc
          .tuple(scaleArb, scaleArb)
          .chain(([from, to]) =>
            fc.tuple(fc.constant(from), fc.constant(to), amountAt(from), rateArb, payoutRateArb),
          ),
        ([fromScale, receivedScale, amount, feeRate, rate]) => {
          const { fee, receiveAmount } = exchangeAmounts(
            amount,
            { feeRate, rate },
            fromScale,
            receivedScale,
          );
          expect(scaleOf(fee)).toBe(fromScale);
          expect(scaleOf(receiveAmount)).toBe(receivedScale);
          expect(lt(fee, mul(amount, feeRate))).toBe(false);
          const exact = mul(sub(amount, fee), rate);
          expect(gt(receiveAmount, exact)).toBe(false);
          expect(lt(sub(exact, receiveAmount), unitOf(receivedScale))).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('examples the withdraw form shows', () => {
  const channel = {
    feeRate: '0.01',
    fixedFee: '1',
    maxAmount: '50000',
    dailyRemaining: '100000',
  };

  it('charges amount × rate + fixed fee, rounded up to the currency scale', () => {
    expect(withdrawalFee('100', channel, 2)).toBe('2.00');
    expect(withdrawalFee('10.01', channel, 2)).toBe('1.11');
    expect(withdrawalFee('0.5', { feeRate: '0.003', fixedFee: '0' }, 2)).toBe('0.01');
    expect(withdrawalFee('1', { feeRate: '0', fixedFee: '0' }, 8)).toBe('0.00000000');
  });

  it('leaves room for the fee in "all", capped by the maximum and by what is left today', () => {
    expect(withdrawableAmount('102', channel, 2)).toBe('100.00');
    expect(withdrawableAmount('101.5', channel, 2)).toBe('99.50');
    expect(withdrawableAmount('1000000', channel, 2)).toBe('50000.00');
    expect(withdrawableAmount('1000000', { ...channel, dailyRemaining: '300' }, 2)).toBe('300.00');
    expect(withdrawableAmount('1', channel, 2)).toBe('0');
    expect(withdrawableAmount('0', channel, 2)).toBe('0');
  });
});
