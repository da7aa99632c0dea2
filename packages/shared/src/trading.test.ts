/**
 * The order previews against the figures the server's contract tests settle on
 * (apps/server/test/contracts.test.ts): the same margin, fee, quantity and liquidation price.
 */
import { describe, expect, it } from 'vitest';
import {
  cappedResult,
  contractPreview,
  fillPrice,
  floorToStep,
  isMultipleOf,
  liquidationPrice,
  marginForShare,
  spotPreview,
  spotQuantityForShare,
  tpSlProblems,
  unrealizedPnl,
} from './trading';
import { lte } from './money';

const BTC = {
  step: '0.0001',
  feeRate: '0.0005',
  maintenanceRate: '0.005',
  priceScale: 2,
  scale: 4,
};

describe('contract preview', () => {
  it('sizes by quantity: margin, fee and liquidation as the server opens them', () => {
    const result = contractPreview({
      ...BTC,
      direction: 1,
      leverage: 10,
      price: '100000.00',
      quantity: '0.01',
    });
    expect(result).toEqual({
      ok: true,
      preview: {
        quantity: '0.01',
        notional: '1000',
        margin: '100.0000',
        fee: '0.5000',
        total: '100.5',
        liquidationPrice: '90500.00',
      },
    });
  });

  it('sizes by margin in whole lots, a short liquidating above the entry', () => {
    const result = contractPreview({
      ...BTC,
      direction: 2,
      leverage: 10,
      price: '100000.00',
      margin: '100.5',
    });
    expect(result.ok && result.preview).toMatchObject({
      quantity: '0.01',
      margin: '100.0000',
      liquidationPrice: '109500.00',
    });
  });

  it('rounds the margin and the fee up to the currency scale', () => {
    const result = contractPreview({
      ...BTC,
      direction: 1,
      leverage: 3,
      price: '100000.01',
      quantity: '0.0001',
    });
    // 10.000001 ÷ 3 = 3.3333336…, fee 10.000001 × 0.0005 = 0.0050000005.
    expect(result.ok && result.preview).toMatchObject({ margin: '3.3334', fee: '0.0051' });
  });

  it('refuses a quantity off the lot size, and a margin below one lot', () => {
    expect(
      contractPreview({ ...BTC, direction: 1, leverage: 10, price: '100000', quantity: '0.00015' }),
    ).toEqual({ ok: false, problem: 'step' });
    expect(
      contractPreview({ ...BTC, direction: 1, leverage: 10, price: '100000', margin: '0.5' }),
    ).toEqual({ ok: false, problem: 'tooSmall' });
  });

  it('puts the liquidation where equity meets the maintenance margin, towards the entry', () => {
    expect(liquidationPrice(1, '100000', '0.01', '100', '0.005', 2)).toBe('90500.00');
    expect(liquidationPrice(2, '100000', '0.01', '100', '0.005', 2)).toBe('109500.00');
    expect(liquidationPrice(1, '100000', '0.03', '100.0001', '0.005', 2)).toBe('97166.67');
    expect(liquidationPrice(2, '100000', '0.03', '100.0001', '0.005', 2)).toBe('102833.33');
    expect(liquidationPrice(1, '100000', '0.01', '10', '0.005', 2)).toBe('99500.00');
    // 1×: only the maintenance margin stands between the entry and zero.
    expect(liquidationPrice(1, '100', '1', '100', '0.005', 2)).toBe('0.50');
  });

  it('fills a limit the price has reached at once, and rests any other', () => {
    expect(fillPrice(1, 2, '99000', '100000')).toEqual({ price: '99000', rests: true });
    expect(fillPrice(1, 2, '101000', '100000')).toEqual({ price: '100000', rests: false });
    expect(fillPrice(2, 2, '101000', '100000')).toEqual({ price: '101000', rests: true });
    expect(fillPrice(2, 2, '99000', '100000')).toEqual({ price: '100000', rests: false });
    expect(fillPrice(1, 1, '99000', '100000')).toEqual({ price: '100000', rests: false });
  });

  it('computes the unrealized result like the position list, the loss capped at the margin', () => {
    expect(unrealizedPnl(1, '100000', '100500', '0.01', '100', 4)).toBe('5.0000');
    expect(unrealizedPnl(2, '100000', '100500', '0.01', '100', 4)).toBe('-5.0000');
    expect(unrealizedPnl(2, '100000', '102000', '0.01', '10', 4)).toBe('-10.0000');
  });

  it('caps the result at the margin without rounding it (what the assets total adds up)', () => {
    expect(cappedResult(1, '100000', '100000.55', '0.0001', '100')).toBe('0.000055');
    expect(cappedResult(2, '100000', '102000', '0.01', '10')).toBe('-10');
    expect(cappedResult(1, '100000', '99000', '0.01', '10')).toBe('-10');
  });

  it('finds the margin of a share of the balance that still pays its fee', () => {
    const input = { ...BTC, direction: 1, leverage: 10, price: '100000' };
    const margin = marginForShare('1000', '1', input);
    const result = contractPreview({ ...input, margin });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(lte(result.preview.total, '1000')).toBe(true);
    // 1000 ÷ (1 + 10 × 0.0005) = 995.0248…: 0.0995 BTC, margin 995, fee 4.975.
    expect(margin).toBe('995.0248');
    expect(result.preview).toMatchObject({ quantity: '0.0995', margin: '995.0000', fee: '4.9750' });
    expect(marginForShare('1000', '0.25', input)).toBe('248.7562');
    // Not even a lot: nothing to enter.
    expect(marginForShare('0.5', '1', input)).toBe('0');
  });
});

describe('take-profit and stop-loss', () => {
  it('keeps them on the right side of the entry and the stop before the liquidation', () => {
    expect(tpSlProblems(1, '100000', '101000', '99000', '90500.00', 2)).toEqual({});
    expect(tpSlProblems(1, '100000', '99000', '101000', '90500.00', 2)).toEqual({
      takeProfit: { key: 'hint_takeProfitAbove', params: ['100000.00'] },
      stopLoss: { key: 'hint_stopLossBelow', params: ['100000.00'] },
    });
    expect(tpSlProblems(2, '100000', '101000', '99000', '109500.00', 2)).toEqual({
      takeProfit: { key: 'hint_takeProfitBelow', params: ['100000.00'] },
      stopLoss: { key: 'hint_stopLossAbove', params: ['100000.00'] },
    });
    expect(tpSlProblems(1, '100000', undefined, '90000', '90500.00', 2)).toEqual({
      stopLoss: { key: 'hint_stopLossBeyondLiquidation', params: ['90500.00'] },
    });
    expect(tpSlProblems(1, '100000', '100000.001', undefined, undefined, 2)).toEqual({
      takeProfit: { key: 'hint_priceDecimals', params: [2] },
    });
  });
});

describe('spot preview', () => {
  it('adds the fee to a buy and takes it from a sell', () => {
    expect(spotPreview(1, '100000', '0.01', '0.001', 4)).toEqual({
      amount: '1000.0000',
      fee: '1.0000',
      total: '1001',
    });
    expect(spotPreview(2, '100000', '0.01', '0.001', 4)).toEqual({
      amount: '1000.0000',
      fee: '1.0000',
      total: '999',
    });
    expect(spotPreview(1, '230.55', '3', '0.001', 4)).toEqual({
      amount: '691.6500',
      fee: '0.6917',
      total: '692.3417',
    });
  });

  it('turns a share into whole lots: of the money for a buy, of the holding for a sell', () => {
    expect(spotQuantityForShare(1, '1', '1000', '100000', '0.0001', '0.001', 4)).toBe('0.0099');
    expect(spotQuantityForShare(1, '0.5', '1000', '100000', '0.0001', '0.001', 4)).toBe('0.0049');
    expect(spotQuantityForShare(2, '0.5', '0.0125', '100000', '0.0001', '0.001', 4)).toBe('0.0062');
    expect(spotQuantityForShare(1, '1', '100', '230.55', '1', '0.001', 4)).toBe('0');
  });

  it('checks lots', () => {
    expect(isMultipleOf('0.0125', '0.0001')).toBe(true);
    expect(isMultipleOf('0.01255', '0.0001')).toBe(false);
    expect(floorToStep('7.9', '1')).toBe('7');
  });
});
