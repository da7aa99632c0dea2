/** Where login may send the user back to after signing in. */
import { describe, expect, it } from 'vitest';
import { paths } from '../config/paths';
import { safeReturnPath } from './navigation';

describe('safeReturnPath', () => {
  it('returns to a screen of this app with its query', () => {
    expect(safeReturnPath(paths.accountDetail)).toBe(paths.accountDetail);
    expect(safeReturnPath(`${paths.rechargeDetail}?id=12`)).toBe(`${paths.rechargeDetail}?id=12`);
    expect(safeReturnPath(paths.assetsComponent)).toBe(paths.assetsComponent);
  });

  it('goes home instead of to login, register, another site or nowhere', () => {
    for (const value of [
      paths.login,
      `${paths.login}?redirect=/pages/user/accountDetail`,
      paths.register,
      'https://evil.example.com/pages/x',
      '//evil.example.com/pages/x',
      '/pages/../../x',
      'javascript:alert(1)',
      '',
      null,
      undefined,
    ]) {
      expect(safeReturnPath(value)).toBe(paths.home);
    }
  });
});
