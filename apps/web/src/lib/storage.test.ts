import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OTHER_VALUE_DEFAULTS } from '@bourse/shared';
import {
  clearSession,
  getItem,
  getOtherValue,
  getToken,
  languagePackKey,
  removeItem,
  setItem,
  STORAGE_KEY,
} from './storage';

beforeEach(() => localStorage.clear());

describe('device storage', () => {
  it("uses the spec's keys", () => {
    expect(STORAGE_KEY).toMatchObject({
      token: 'uToken',
      userAccount: 'userAccount',
      userInfo: 'userInfo',
      platformCurrency: '$platformCurrency',
      bibiAssets: '$bibiAssets',
      otherValue: 'otherValue',
      tipsSet: '$tipsSet',
      switchSet: '$swichSet',
      locale: 'locale',
    });
    expect(languagePackKey('ar')).toBe('lang_ar');
  });

  it('keeps values as JSON in localStorage and reads them back', () => {
    setItem(STORAGE_KEY.userInfo, { id: 7, userAccount: 'a@b.co' });
    expect(JSON.parse(localStorage.getItem('userInfo')!)).toEqual({ id: 7, userAccount: 'a@b.co' });
    expect(getItem(STORAGE_KEY.userInfo)).toEqual({ id: 7, userAccount: 'a@b.co' });
    removeItem(STORAGE_KEY.userInfo);
    expect(localStorage.getItem('userInfo')).toBeNull();
    expect(getItem(STORAGE_KEY.userInfo)).toBeUndefined();
  });

  it('treats an unreadable value as missing', () => {
    localStorage.setItem('otherValue', '{not json');
    expect(getItem('otherValue')).toBeUndefined();
    expect(getOtherValue()).toEqual(OTHER_VALUE_DEFAULTS);
  });

  it("logs 'key不存在' when no key is given", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(getItem('')).toBeUndefined();
    setItem('', 1);
    removeItem('');
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn).toHaveBeenCalledWith('key不存在');
    warn.mockRestore();
  });

  it("fills otherValue with the spec's defaults under what the server sent", () => {
    setItem(STORAGE_KEY.otherValue, { app_decimal_no: 4, app_withdrawAll: 0 });
    expect(getOtherValue()).toEqual({
      ...OTHER_VALUE_DEFAULTS,
      app_decimal_no: 4,
      app_withdrawAll: 0,
    });
    expect(OTHER_VALUE_DEFAULTS.default_trade_currency_id).toBe(3);
  });

  it('clearing the session forgets the account and token but keeps device settings', () => {
    setItem(STORAGE_KEY.token, 'abc');
    setItem(STORAGE_KEY.userAccount, 'a@b.co');
    setItem(STORAGE_KEY.locale, 'de');
    expect(getToken()).toBe('abc');
    clearSession();
    expect(getToken()).toBeUndefined();
    expect(localStorage.getItem('uToken')).toBeNull();
    expect(localStorage.getItem('userAccount')).toBeNull();
    expect(getItem(STORAGE_KEY.locale)).toBe('de');
  });
});
