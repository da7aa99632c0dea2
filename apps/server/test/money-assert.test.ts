/**
 * The assertion services make before moving money: a figure at the currency's scale with the
 * sign it must have passes; anything else is a broken invariant (AssertionError), never a hint.
 */
import { describe, expect, it } from 'vitest';
import { AssertionError } from '../src/lib/errors';
import { assertAmount } from '../src/lib/money-assert';

describe('assertAmount', () => {
  it('passes a figure at the scale with its sign', () => {
    expect(() => assertAmount('1.2500', 'fee', 4)).not.toThrow();
    expect(() => assertAmount('0', 'fee', 2, 'nonNegative')).not.toThrow();
    expect(() => assertAmount('0.00', 'fee', 2, 'nonNegative')).not.toThrow();
  });

  it('refuses more decimals than the currency, a wrong sign, and what is not a decimal', () => {
    for (const [value, scale, sign] of [
      ['0.10005', 4, 'nonNegative'],
      ['0', 2, 'positive'],
      ['-0.01', 2, 'nonNegative'],
      ['1e3', 2, 'positive'],
      ['NaN', 2, 'positive'],
    ] as const) {
      expect(() => assertAmount(value, 'fee', scale, sign), value).toThrow(AssertionError);
    }
  });
});
