import { describe, expect, it } from 'vitest';
import {
  accrueDay,
  earnAddDays,
  earnDay,
  earnDaysBetween,
  earnTermDays,
  expectedInterest,
  interestSchedule,
  rateForAmount,
  redemptionPenalty,
  redemptionQuote,
  withinEarnBounds,
} from './earn';
import { add, gt, mul, sum, toScale } from './money';

/** A small deterministic generator (the tests must be reproducible). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('rateForAmount', () => {
  const product = {
    dailyRate: '0.001',
    rateTiers: [
      { minAmount: '1000', dailyRate: '0.0012' },
      { minAmount: '10000', dailyRate: '0.0015' },
    ],
  };
  it('picks the tier with the largest minimum at or below the amount', () => {
    expect(rateForAmount('999.99', product)).toBe('0.001');
    expect(rateForAmount('1000', product)).toBe('0.0012');
    expect(rateForAmount('9999', product)).toBe('0.0012');
    expect(rateForAmount('10000', product)).toBe('0.0015');
    expect(rateForAmount('5', { dailyRate: '0.002', rateTiers: [] })).toBe('0.002');
  });
  it('does not depend on the order the tiers are listed in', () => {
    const reversed = { ...product, rateTiers: [...product.rateTiers].reverse() };
    expect(rateForAmount('20000', reversed)).toBe('0.0015');
  });
});

describe('daily interest with the remainder carried', () => {
  it('pays the rounded-down figure and carries the rest', () => {
    // 100.01 × 0.0012 = 0.120012: 0.12 paid, 0.000012 carried (scale 2).
    expect(accrueDay('100.01', '0.0012', '0', 2)).toEqual({ interest: '0.12', carry: '0.000012' });
    // 10 × 0.00037 = 0.0037 a day at scale 2: nothing on day 1, 0.01 once the carry reaches it.
    const schedule = interestSchedule({ amount: '10', dailyRate: '0.00037', days: 6, scale: 2 });
    expect(schedule).toEqual(['0', '0', '0.01', '0', '0', '0.01']);
  });

  it('adds up over any number of days to principal × rate × days rounded down once', () => {
    const next = random(23);
    for (let round = 0; round < 300; round += 1) {
      const scale = [0, 2, 4, 6, 8][Math.floor(next() * 5)]!;
      const amount = toScale(String(Math.floor(next() * 1e9) / 1e3), scale);
      const dailyRate = toScale(String(next() / 50), 8);
      const days = 1 + Math.floor(next() * 400);
      const schedule = interestSchedule({ amount, dailyRate, days, scale });
      const once = toScale(mul(mul(amount, dailyRate), String(days)), scale, 'down');
      expect(sum(schedule)).toBe(sum([once]));
      expect(expectedInterest({ amount, dailyRate, days, scale })).toBe(sum([once]));
      // Every prefix too: what is paid by day k is principal × rate × k rounded down once.
      let paid = '0';
      schedule.forEach((interest, index) => {
        paid = add(paid, interest);
        const byThen = toScale(mul(mul(amount, dailyRate), String(index + 1)), scale, 'down');
        expect(paid).toBe(sum([byThen]));
      });
    }
  });

  it('compounds: each day earns on the balance with the interest before it', () => {
    const schedule = interestSchedule({
      amount: '1000',
      dailyRate: '0.01',
      days: 3,
      scale: 2,
      compounding: true,
    });
    // 1000 → 10; 1010 → 10.10; 1020.10 → 10.201 = 10.20, 0.001 carried.
    expect(schedule).toEqual(['10', '10.1', '10.2']);
    expect(
      expectedInterest({ amount: '1000', dailyRate: '0.01', days: 3, scale: 2, compounding: true }),
    ).toBe('30.3');
    expect(
      gt(
        expectedInterest({
          amount: '1000',
          dailyRate: '0.01',
          days: 30,
          scale: 2,
          compounding: true,
        }),
        expectedInterest({ amount: '1000', dailyRate: '0.01', days: 30, scale: 2 }),
      ),
    ).toBe(true);
  });

  it('refuses a term beyond the longest and a scale that is not a currency scale', () => {
    expect(() => expectedInterest({ amount: '1', dailyRate: '0.1', days: 3651, scale: 2 })).toThrow(
      RangeError,
    );
    expect(() => accrueDay('1', '0.1', '0', 19)).toThrow(RangeError);
  });
});

describe('redemption', () => {
  it('charges the penalty rate per day left, rounded down, at most the balance', () => {
    // 1000 × 0.0005 × 7 = 3.5
    expect(redemptionPenalty('1000', '0.0005', 7, 2)).toBe('3.5');
    // 333.33 × 0.0003 × 10 = 0.99999 → 0.99
    expect(redemptionPenalty('333.33', '0.0003', 10, 2)).toBe('0.99');
    expect(redemptionPenalty('100', '0.5', 30, 2)).toBe('100');
    expect(redemptionPenalty('100', '0', 30, 2)).toBe('0');
    expect(redemptionPenalty('100', '0.01', 0, 2)).toBe('0');
  });

  it('quotes the days left from today to the last interest day', () => {
    const quote = redemptionQuote({
      balance: '1000',
      penaltyRate: '0.001',
      endDay: '2026-02-10',
      today: '2026-02-01',
      scale: 2,
      accruedUnpaid: '4.5',
    });
    expect(quote).toEqual({ remainingDays: 9, penalty: '9', returned: '991', forfeited: '4.5' });
    // On the last day, or after it, nothing is left: no penalty.
    expect(
      redemptionQuote({
        balance: '10',
        penaltyRate: '0.1',
        endDay: '2026-02-10',
        today: '2026-02-10',
        scale: 2,
      }),
    ).toMatchObject({ remainingDays: 0, penalty: '0', returned: '10' });
    // Flexible: no end, no penalty whatever the rate.
    expect(
      redemptionQuote({
        balance: '10',
        penaltyRate: '0.1',
        endDay: null,
        today: '2026-02-01',
        scale: 2,
      }),
    ).toEqual({ remainingDays: 0, penalty: '0', returned: '10', forfeited: '0' });
  });
});

describe('UTC days', () => {
  it('counts days in UTC, across months and leap days', () => {
    expect(earnDay(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
    expect(earnAddDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(earnAddDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(earnDaysBetween('2026-01-30', '2026-03-02')).toBe(31);
    expect(earnTermDays('2026-01-31', 30)).toEqual({
      firstDay: '2026-02-01',
      endDay: '2026-03-02',
    });
    expect(earnTermDays('2026-01-31', null)).toEqual({ firstDay: '2026-02-01', endDay: null });
  });

  it('checks an amount against the bounds of a product', () => {
    expect(withinEarnBounds('10', { minAmount: '10', maxAmount: '20' })).toBe(true);
    expect(withinEarnBounds('20.01', { minAmount: '10', maxAmount: '20' })).toBe(false);
    expect(withinEarnBounds('9.99', { minAmount: '10', maxAmount: null })).toBe(false);
    expect(withinEarnBounds('1000000', { minAmount: '10', maxAmount: null })).toBe(true);
  });
});
