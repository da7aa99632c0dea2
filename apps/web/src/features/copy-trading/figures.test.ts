import { describe, expect, it } from 'vitest';
import { copyMargin } from '@bourse/shared';
import {
  chartPoints,
  contractFeeRate,
  copyPreview,
  fractionPercent,
  holdParts,
  indexReturnText,
  signedPercent,
  toneOf,
} from './figures';

describe('copy-trading figures', () => {
  it('shows fractions as percentages rounded toward zero, returns with their sign', () => {
    expect(fractionPercent('0.12345678')).toBe('12.34%');
    expect(fractionPercent('0')).toBe('0.00%');
    expect(signedPercent('0.12345678')).toBe('+12.34%');
    expect(signedPercent('-0.031')).toBe('-3.10%');
    // Less than a hundredth of a percent shows as no change, without a sign.
    expect(signedPercent('0.00004')).toBe('0.00%');
    expect(fractionPercent('abc')).toBe('- -');
    expect(toneOf('1.5')).toBe('up');
    expect(toneOf('-0.01')).toBe('down');
    expect(toneOf('0.00')).toBeUndefined();
  });

  it('splits a holding time into its two largest units', () => {
    expect(holdParts(59)).toEqual({ unit: 'm', value: 0, rest: 59 });
    expect(holdParts(3 * 3600 + 10 * 60 + 5)).toEqual({ unit: 'h', value: 3, rest: 10 });
    expect(holdParts(2 * 86_400 + 5 * 3600)).toEqual({ unit: 'd', value: 2, rest: 5 });
  });

  it('makes the curve strictly increasing in time, the last index of a second kept', () => {
    const points = chartPoints([
      { time: '2026-01-01T00:00:00.100Z', index: '1.01' },
      { time: '2026-01-01T00:00:00.900Z', index: '1.02' },
      { time: '2026-01-01T00:00:05.000Z', index: '0.99' },
      { time: 'not a time', index: '3' },
    ]);
    const second = Date.parse('2026-01-01T00:00:00Z') / 1000;
    expect(points).toEqual([
      { time: second, value: 1.02 },
      { time: second + 5, value: 0.99 },
    ]);
    expect(indexReturnText(1.1234)).toBe('+12.34%');
    expect(indexReturnText(0.9)).toBe('-10.00%');
  });

  it('finds the contract fee rate of a product type and direction', () => {
    const fees = [
      { id: 1, remark: '', feeRate: '0.0005', productType: 2, PositionType: 1, exType: 1 },
      { id: 2, remark: '', feeRate: '0.0007', productType: 2, PositionType: 1, exType: 2 },
      { id: 3, remark: '', feeRate: '0.002', productType: 2, PositionType: 2, exType: 1 },
    ];
    expect(contractFeeRate(fees, 2, 2)).toBe('0.0007');
    expect(contractFeeRate(fees, 2, 1)).toBe('0.0005');
    expect(contractFeeRate(fees, 1, 1)).toBe('0');
  });

  it('previews one copy with the margin copyMargin gives and the fee on margin × leverage', () => {
    const leader = { margin: '250', leverage: 10 };
    const preview = copyPreview({
      mode: 2,
      amount: undefined,
      ratio: '0.5',
      budgetLeft: '1000',
      available: '5000',
      leader,
      feeRate: '0.0005',
      scale: 2,
    });
    const shared = copyMargin({
      mode: 2,
      ratio: '0.5',
      leaderMargin: '250',
      budgetLeft: '1000',
      available: '5000',
      scale: 2,
    });
    expect(shared.ok && shared.margin).toBe('125');
    // 125 × 10 × 0.0005 = 0.625, rounded up at the currency's scale.
    expect(preview).toEqual({
      ok: true,
      margin: '125',
      wanted: '125',
      cappedBy: null,
      fee: '0.63',
      total: '125.63',
    });
  });

  it('shows the cap and the refusal copyMargin gives', () => {
    const base = {
      mode: 1 as const,
      amount: '100',
      ratio: undefined,
      leader: { margin: '10', leverage: 5 },
      feeRate: '0.001',
      scale: 2,
    };
    const capped = copyPreview({ ...base, budgetLeft: '60', available: '1000' });
    expect(capped).toMatchObject({ ok: true, margin: '60', wanted: '100', cappedBy: 'budget' });
    const refused = copyPreview({ ...base, budgetLeft: '0', available: '1000' });
    expect(refused).toMatchObject({ ok: false, hint: 'hint_copyBudgetExceeded' });
    // Without an example of the leader's trade: a fixed copy's margin, no fee; a ratio, nothing.
    expect(
      copyPreview({ ...base, leader: null, budgetLeft: '500', available: undefined }),
    ).toMatchObject({ ok: true, margin: '100', fee: null, total: null });
    expect(
      copyPreview({
        ...base,
        mode: 2,
        ratio: '1',
        leader: null,
        budgetLeft: '500',
        available: '1',
      }),
    ).toBeUndefined();
  });
});
