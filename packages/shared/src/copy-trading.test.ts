/**
 * The rules of copy trading (copy-trading.ts): the profit share above the high-water mark against
 * a plain model in bigint minor units for random P&L sequences, then one sequence worked out by
 * hand; the margin of a copy and its own TP/SL prices; a trader's statistics on a small set worked
 * out by hand.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COPY_MODE,
  copyMargin,
  copyTpSlPrices,
  followSettingsProblem,
  payProfitShare,
  settleProfitShare,
  traderStats,
  type TraderTrade,
} from './copy-trading';
import { add, isNegative, lte, mul, sub } from './money';

/** Minor units (an integer) as a decimal string at `scale`. */
function decimalOf(minor: bigint, scale: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const whole = scale === 0 ? digits : digits.slice(0, -scale);
  const fraction = scale === 0 ? '' : digits.slice(-scale).replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative && text !== '0' ? `-${text}` : text;
}

/** The rule as a plain model: minor units of the currency, the rate in ten-thousandths. */
function modelSettle(cum: bigint, hwm: bigint, rateBp: bigint) {
  if (cum <= hwm) return { share: 0n, hwmAfter: hwm };
  return { share: ((cum - hwm) * rateBp) / 10_000n, hwmAfter: cum };
}

const RATE_SCALE = 4;

describe('settleProfitShare', () => {
  it('matches the plain model for random P&L sequences, and keeps its promises', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 2, 6, 8),
        fc.bigInt({ min: 0n, max: 10_000n }),
        fc.array(
          fc.record({
            pnl: fc.bigInt({ min: -1_000_000_000n, max: 1_000_000_000n }),
            settle: fc.boolean(),
          }),
          { maxLength: 60 },
        ),
        (scale, rateBp, steps) => {
          const rate = decimalOf(rateBp, RATE_SCALE);
          let cum = 0n;
          let modelHwm = 0n;
          let hwm = '0';
          let paid = 0n;
          let rises = 0n;
          let highestSettled = 0n;
          for (const step of steps) {
            cum += step.pnl;
            if (!step.settle) continue;
            const model = modelSettle(cum, modelHwm, rateBp);
            const result = settleProfitShare({ cumPnl: decimalOf(cum, scale), hwm, rate, scale });
            // Exactly the model.
            expect(result.share).toBe(decimalOf(model.share, scale));
            expect(result.hwmAfter).toBe(decimalOf(model.hwmAfter, scale));
            // Never negative; the mark never falls.
            expect(isNegative(result.share)).toBe(false);
            expect(lte(hwm, result.hwmAfter)).toBe(true);
            // A share only above the mark: losses are recovered first.
            if (cum <= modelHwm) expect(result.share).toBe('0');
            if (model.hwmAfter > modelHwm) rises += 1n;
            if (cum > highestSettled) highestSettled = cum;
            paid += model.share;
            modelHwm = model.hwmAfter;
            hwm = result.hwmAfter;
          }
          // The mark is the highest cumulative ever settled (0 at least), and everything paid is
          // the rate × that mark, less under one minor unit per settlement that raised the mark
          // (each rounds down once).
          expect(modelHwm).toBe(highestSettled);
          const exact = highestSettled * rateBp; // in ten-thousandths of a minor unit
          expect(paid * 10_000n <= exact).toBe(true);
          expect(exact - paid * 10_000n <= rises * 9_999n).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('pays 30 % above the mark along a sequence worked out by hand', () => {
    const rate = '0.3';
    const scale = 2;
    // day  cumulative  mark before  above the mark  share (rounded down)  mark after
    //  1     100.00        0.00          100.00      30.00                  100.00
    //  2      60.00      100.00           —           0 (a loss of 40)      100.00
    //  3      90.00      100.00           —           0 (not yet recovered) 100.00
    //  4     150.00      100.00           50.00      15.00                  150.00
    //  5     -20.00      150.00           —           0                     150.00
    //  6     150.00      150.00           —           0 (equal, not above)  150.00
    //  7     150.07      150.00            0.07       0.021 → 0.02           150.07
    // Paid in all: 30 + 15 + 0.02 = 45.02, and 0.3 × 150.07 = 45.021.
    const days: [string, string, string][] = [
      ['100', '30', '100'],
      ['60', '0', '100'],
      ['90', '0', '100'],
      ['150', '15', '150'],
      ['-20', '0', '150'],
      ['150', '0', '150'],
      ['150.07', '0.02', '150.07'],
    ];
    let hwm = '0';
    let total = '0';
    for (const [cumPnl, share, hwmAfter] of days) {
      const result = settleProfitShare({ cumPnl, hwm, rate, scale });
      expect(result, `cumulative ${cumPnl}`).toEqual({ share, hwmAfter });
      hwm = result.hwmAfter;
      total = add(total, result.share);
    }
    expect(total).toBe('45.02');
    expect(sub(mul(rate, hwm), total)).toBe('0.001');
  });

  it('pays what the balance allows and keeps the rest owed, paid first next time', () => {
    expect(payProfitShare({ share: '15', owed: '0', available: '100' })).toEqual({
      paid: '15',
      owedAfter: '0',
    });
    expect(payProfitShare({ share: '15', owed: '0', available: '4.5' })).toEqual({
      paid: '4.5',
      owedAfter: '10.5',
    });
    expect(payProfitShare({ share: '2', owed: '10.5', available: '20' })).toEqual({
      paid: '12.5',
      owedAfter: '0',
    });
    expect(payProfitShare({ share: '0', owed: '3', available: '-1' })).toEqual({
      paid: '0',
      owedAfter: '3',
    });
  });
});

describe('copyMargin', () => {
  const base = { leaderMargin: '100', budgetLeft: '1000', available: '1000', scale: 2 };

  it('takes the fixed amount, or the ratio of the leader margin rounded down', () => {
    expect(copyMargin({ ...base, mode: COPY_MODE.fixed, amount: '10' })).toEqual({
      ok: true,
      margin: '10',
      wanted: '10',
      cappedBy: null,
    });
    // 33.333 × 0.5 = 16.6665 → 16.66 at two decimals.
    expect(
      copyMargin({ ...base, mode: COPY_MODE.ratio, ratio: '0.5', leaderMargin: '33.333' }),
    ).toEqual({ ok: true, margin: '16.66', wanted: '16.66', cappedBy: null });
  });

  it('caps by the budget left and by the available balance', () => {
    expect(copyMargin({ ...base, mode: COPY_MODE.fixed, amount: '10', budgetLeft: '5' })).toEqual({
      ok: true,
      margin: '5',
      wanted: '10',
      cappedBy: 'budget',
    });
    expect(
      copyMargin({
        ...base,
        mode: COPY_MODE.fixed,
        amount: '10',
        budgetLeft: '5',
        available: '3.456',
      }),
    ).toEqual({ ok: true, margin: '3.45', wanted: '10', cappedBy: 'available' });
  });

  it("refuses under the product's minimum, naming what made it too small", () => {
    const fixed = { ...base, mode: COPY_MODE.fixed, amount: '10' } as const;
    expect(copyMargin({ ...fixed, minMargin: '20' })).toMatchObject({
      ok: false,
      hint: 'hint_copyMarginBelowMin',
    });
    expect(copyMargin({ ...fixed, budgetLeft: '0' })).toMatchObject({
      ok: false,
      hint: 'hint_copyBudgetExceeded',
    });
    expect(copyMargin({ ...fixed, budgetLeft: '4', minMargin: '5' })).toMatchObject({
      ok: false,
      hint: 'hint_copyBudgetExceeded',
    });
    expect(copyMargin({ ...fixed, available: '-2' })).toMatchObject({
      ok: false,
      hint: 'hint_copyBalanceShort',
    });
    // 0.01 × 0.1 = 0.001: nothing at two decimals.
    expect(
      copyMargin({ ...base, mode: COPY_MODE.ratio, ratio: '0.1', leaderMargin: '0.01' }),
    ).toMatchObject({ ok: false, hint: 'hint_copyMarginBelowMin', wanted: '0' });
  });
});

describe('copyTpSlPrices', () => {
  // Margin 20 on 2 units: +50 % of the margin is a move of 5, −25 % a move of 2.5.
  const terms = { entryPrice: '100', quantity: '2', margin: '20', tpRate: '0.5', slRate: '0.25' };

  it('puts the prices on the right side of the entry, rounded toward it', () => {
    expect(copyTpSlPrices({ ...terms, direction: 1, priceScale: 2 })).toEqual({
      takeProfit: '105',
      stopLoss: '97.5',
    });
    expect(copyTpSlPrices({ ...terms, direction: 2, priceScale: 2 })).toEqual({
      takeProfit: '95',
      stopLoss: '102.5',
    });
    expect(copyTpSlPrices({ ...terms, direction: 1, priceScale: 0 })).toEqual({
      takeProfit: '105',
      stopLoss: '98',
    });
    expect(copyTpSlPrices({ ...terms, direction: 2, priceScale: 0 })).toEqual({
      takeProfit: '95',
      stopLoss: '102',
    });
    expect(
      copyTpSlPrices({ ...terms, tpRate: null, slRate: undefined, direction: 1, priceScale: 2 }),
    ).toEqual({ takeProfit: null, stopLoss: null });
  });
});

describe('followSettingsProblem', () => {
  const limits = { minCopyAmount: '10', maxCopyAmount: '100' };
  it("checks a fixed amount against the trader's limits and the budget", () => {
    const fixed = { ...limits, mode: COPY_MODE.fixed, budget: '500' } as const;
    expect(followSettingsProblem({ ...fixed, amount: '50' })).toBeNull();
    expect(followSettingsProblem({ ...fixed, amount: '5' })).toBe('hint_copyAmountRange');
    expect(followSettingsProblem({ ...fixed, amount: '101' })).toBe('hint_copyAmountRange');
    expect(followSettingsProblem({ ...fixed, amount: '101', maxCopyAmount: null })).toBeNull();
    expect(followSettingsProblem({ ...fixed, amount: '50', budget: '40' })).toBe(
      'hint_copyBudgetBelowAmount',
    );
    const ratio = { ...limits, mode: COPY_MODE.ratio, budget: '9' } as const;
    expect(followSettingsProblem(ratio)).toBe('hint_copyBudgetBelowMin');
    expect(followSettingsProblem({ ...ratio, budget: '10' })).toBeNull();
  });
});

describe('traderStats', () => {
  const now = new Date('2026-03-31T00:00:00.000Z');
  const hour = 3_600_000;
  const closeAt = (iso: string, heldHours: number) => ({
    closedAt: iso,
    openedAt: new Date(Date.parse(iso) - heldHours * hour).toISOString(),
  });
  // id  closed        held   pnl   equity before  return   index after
  //  E  2025-10-01    4 h     50      500          +0.1     1.1
  //  A  2026-01-10    1 h    100     1000          +0.1     1.21   (the peak)
  //  B  2026-03-10    2 h   -220     1100          -0.2     0.968  (0.242 below the peak: 20 %)
  //  C  2026-03-28    0.5 h   88      880          +0.1     1.0648
  //  F  2026-04-02 (after now: left out)
  const trades: TraderTrade[] = [
    { id: 3, ...closeAt('2026-03-10T12:00:00.000Z', 2), pnl: '-220', equityBefore: '1100' },
    { id: 5, ...closeAt('2026-04-02T00:00:00.000Z', 1), pnl: '999', equityBefore: '1000' },
    { id: 1, ...closeAt('2025-10-01T00:00:00.000Z', 4), pnl: '50', equityBefore: '500' },
    { id: 4, ...closeAt('2026-03-28T00:00:00.000Z', 0.5), pnl: '88', equityBefore: '880' },
    { id: 2, ...closeAt('2026-01-10T00:00:00.000Z', 1), pnl: '100', equityBefore: '1000' },
  ];

  it('computes every window from the closes, worked out by hand', () => {
    const stats = traderStats(trades, now);
    // Since the start: E A B C. 1.1 × 1.1 × 0.8 × 1.1 = 1.0648; 3 wins of 4; holds 4 + 1 + 2 +
    // 0.5 = 7.5 h over 4 = 6750 s; from the peak 1.21 down to 0.968 is 20 %.
    expect(stats.windows.all).toEqual({
      period: 'all',
      roi: '0.06480000',
      pnl: '18',
      winRate: '0.75000000',
      trades: 4,
      avgHoldSeconds: 6750,
      maxDrawdown: '0.20000000',
    });
    // 90 days (from 2025-12-31): A B C. 1.1 × 0.8 × 1.1 = 0.968; 2 of 3; 3.5 h / 3 = 4200 s.
    expect(stats.windows['90']).toEqual({
      period: '90',
      roi: '-0.03200000',
      pnl: '-32',
      winRate: '0.66666666',
      trades: 3,
      avgHoldSeconds: 4200,
      maxDrawdown: '0.20000000',
    });
    // 30 days (from 2026-03-01): B C. 0.8 × 1.1 = 0.88; the window starts at 1, falls to 0.8.
    expect(stats.windows['30']).toEqual({
      period: '30',
      roi: '-0.12000000',
      pnl: '-132',
      winRate: '0.50000000',
      trades: 2,
      avgHoldSeconds: 4500,
      maxDrawdown: '0.20000000',
    });
    // 7 days (from 2026-03-24): C alone.
    expect(stats.windows['7']).toEqual({
      period: '7',
      roi: '0.10000000',
      pnl: '88',
      winRate: '1.00000000',
      trades: 1,
      avgHoldSeconds: 1800,
      maxDrawdown: '0.00000000',
    });
    expect(stats.curve).toEqual([
      { time: '2025-10-01T00:00:00.000Z', index: '1.10000000' },
      { time: '2026-01-10T00:00:00.000Z', index: '1.21000000' },
      { time: '2026-03-10T12:00:00.000Z', index: '0.96800000' },
      { time: '2026-03-28T00:00:00.000Z', index: '1.06480000' },
    ]);
  });

  it('is the same whatever the order given, and thins a long curve evenly', () => {
    expect(traderStats([...trades].reverse(), now)).toEqual(traderStats(trades, now));
    const thin = traderStats(trades, now, 2).curve;
    expect(thin.map((point) => point.index)).toEqual(['1.10000000', '1.06480000']);
  });

  it('answers zeros without a close', () => {
    expect(traderStats([], now).windows.all).toEqual({
      period: 'all',
      roi: '0.00000000',
      pnl: '0',
      winRate: '0.00000000',
      trades: 0,
      avgHoldSeconds: 0,
      maxDrawdown: '0.00000000',
    });
    expect(traderStats([], now).curve).toEqual([]);
  });
});
