import { beforeEach, describe, expect, it } from 'vitest';
import { setItem, STORAGE_KEY } from './storage';
import {
  cleanAmount,
  currencyName,
  currencyScale,
  newRequestId,
  percentText,
  signedMoney,
  tickTime,
} from './trade';

beforeEach(() => localStorage.clear());

describe('what the trading screens share', () => {
  it('keeps digits and one decimal point of what is typed in an amount', () => {
    expect(cleanAmount('1,5')).toBe('1.5');
    expect(cleanAmount('12a.3.4')).toBe('12.34');
    expect(cleanAmount('abc')).toBe('');
  });

  it('shows tick times to the millisecond, with or without the day', () => {
    const ms = Date.UTC(2024, 0, 2, 3, 4, 5, 6);
    expect(tickTime(ms)).toBe('2024/01/02 03:04:05.006');
    expect(tickTime(ms, { day: false })).toBe('03:04:05.006');
    expect(tickTime(Number.NaN)).toBe('- -');
  });

  it('gives a new request id with its prefix each time', () => {
    const id = newRequestId('ft');
    expect(id).toMatch(/^ft-[0-9a-f]{32}$/);
    expect(newRequestId('ft')).not.toBe(id);
  });

  it('reads scale and name of a currency from what launch stored', () => {
    setItem(STORAGE_KEY.platformCurrency, [{ id: 7, currencyName: 'EUR', scale: 2 }]);
    expect(currencyScale(7)).toBe(2);
    expect(currencyName(7)).toBe('EUR');
    expect(currencyScale(8)).toBeUndefined();
    // An unknown currency id shows as '- -' (spec section 3), not as USDT.
    expect(currencyName(8)).toBe('- -');
    expect(currencyName(3)).toBe('- -');
    expect(currencyName(undefined)).toBe('- -');
  });

  it('shows rates as percentages and results with their sign', () => {
    expect(percentText('0.0005')).toBe('0.05%');
    expect(signedMoney('12.5', 2)).toBe('+12.50');
    expect(signedMoney('-10', 2)).toBe('-10.00');
    expect(signedMoney('0', 2)).toBe('0.00');
  });
});
