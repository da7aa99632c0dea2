import { beforeEach, describe, expect, it } from 'vitest';
import { SWITCH, SWITCH_OFF } from '@bourse/shared';
import { setItem, STORAGE_KEY } from '../../lib/storage';
import { money, moneyAsSent, shortRate } from './wallet-format';

beforeEach(() => {
  setItem(STORAGE_KEY.otherValue, { app_decimal_no: 2 });
  setItem(STORAGE_KEY.switchSet, {});
});

describe('how the wallet screens write amounts and rates', () => {
  it('writes an amount in its currency decimals, grouped unless the switch is off', () => {
    const written = () => [money('1234.5', 2), money('0.00012345', 8)];
    expect(written()).toEqual(['1,234.50', '0.00012345']);
    setItem(STORAGE_KEY.switchSet, { [SWITCH.thousandsSeparator]: SWITCH_OFF });
    expect(written()).toEqual(['1234.50', '0.00012345']);
  });

  it("writes amounts as the server sent them, with at least the app's decimals", () => {
    expect(['100000.0000', '5', '0.0002'].map(moneyAsSent)).toEqual([
      '100,000.0000',
      '5.00',
      '0.0002',
    ]);
  });

  it('keeps 8 significant digits of a rate after its leading zeros', () => {
    expect(['0.000008929849513283', '1.50000000', '2', 'oops'].map(shortRate)).toEqual([
      '0.0000089298495',
      '1.5',
      '2',
      '- -',
    ]);
  });
});
