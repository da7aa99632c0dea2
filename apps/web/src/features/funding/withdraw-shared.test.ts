import { describe, expect, it } from 'vitest';
import { add, gt, lte, type WithdrawChannel } from '@bourse/shared';
import { withdrawableAmount, withdrawFee } from './withdraw-shared';

const channel = (overrides: Partial<WithdrawChannel> = {}): WithdrawChannel => ({
  id: 1,
  channelType: 2,
  channelName: 'USDT TRC20',
  currencyId: 3,
  currencyName: 'USDT',
  network: 'TRC20',
  feeRate: '0.01',
  fixedFee: '1',
  minAmount: '10',
  maxAmount: '50000',
  dailyLimit: '100000',
  dailyRemaining: '100000',
  scale: 2,
  remark: '',
  ...overrides,
});

describe('withdrawal fee', () => {
  it('is amount × rate + fixed fee, rounded up to the currency scale', () => {
    expect(withdrawFee('100', channel())).toBe('2.00');
    expect(withdrawFee('10.01', channel())).toBe('1.11');
    expect(withdrawFee('0.5', channel({ fixedFee: '0', feeRate: '0.003' }))).toBe('0.01');
    expect(withdrawFee('1', channel({ fixedFee: '0', feeRate: '0', scale: 8 }))).toBe('0.00000000');
  });
});

describe('withdrawable amount ("all")', () => {
  it('leaves room for the fee in the available balance', () => {
    const all = withdrawableAmount('102', channel());
    expect(all).toBe('100.00');
    expect(withdrawableAmount('101.5', channel())).toBe('99.50');
  });

  it('never lets amount plus the rounded-up fee exceed the balance', () => {
    const c = channel({ feeRate: '0.0033', fixedFee: '0.07', maxAmount: '1000000' });
    for (const available of ['10', '77.77', '1234.56', '0.08', '99999.99']) {
      const all = withdrawableAmount(available, c);
      expect(lte(add(all, withdrawFee(all, c)), available), `${available}: ${all}`).toBe(true);
      // …and one unit more would not fit.
      const more = add(all, '0.01');
      expect(gt(add(more, withdrawFee(more, c)), available), `${available}: ${more}`).toBe(true);
    }
  });

  it('is capped by the maximum and by what is left today, and is 0 when the fee eats it all', () => {
    expect(withdrawableAmount('1000000', channel())).toBe('50000.00');
    expect(withdrawableAmount('1000000', channel({ dailyRemaining: '300' }))).toBe('300.00');
    expect(withdrawableAmount('1', channel())).toBe('0');
    expect(withdrawableAmount('0', channel())).toBe('0');
  });
});
