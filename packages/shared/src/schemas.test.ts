import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PAGE } from './constants';
import { decimalAmount, intField, optionalInt, pageQuery } from './schemas/common';
import { loginBody, regBody, sendPhoneCodeBody, updateUserWithPwdBody } from './schemas/account';
import { apiKeyCreateBody, withImpliedPermissions } from './schemas/api-keys';

/** The issues of a failed parse, as [path, message] pairs. */
function issuesOf(schema: z.ZodType, input: unknown): [string, string][] {
  const result = schema.safeParse(input);
  expect(result.success, 'parse was expected to fail').toBe(false);
  return (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);
}

function paths(schema: z.ZodType, input: unknown): string[] {
  return issuesOf(schema, input).map(([path]) => path);
}

function dataOf<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  expect(result.error?.issues ?? []).toEqual([]);
  return result.data as z.infer<T>;
}

describe('regBody', () => {
  const phoneForm = {
    regType: '0',
    userAccount: '13812345678',
    areaCode: '86',
    userPwd: 'abc12345',
    inviteCode: '',
    yzmCode: '',
  };

  it('coerces a form-style phone registration and drops empty optional fields', () => {
    expect(dataOf(regBody, phoneForm)).toEqual({
      regType: 0,
      userAccount: '13812345678',
      areaCode: '86',
      userPwd: 'abc12345',
    });
  });

  it('accepts an email registration without an area code', () => {
    expect(
      dataOf(regBody, {
        regType: '1',
        userAccount: ' first.last@example.com ',
        areaCode: '',
        userPwd: 'Passw0rd',
        inviteCode: 'ABCD1234',
        yzmCode: '123456',
      }),
    ).toEqual({
      regType: 1,
      userAccount: 'first.last@example.com',
      userPwd: 'Passw0rd',
      inviteCode: 'ABCD1234',
      yzmCode: '123456',
    });
  });

  it('accepts JSON numbers for regType', () => {
    expect(dataOf(regBody, { ...phoneForm, regType: 0 }).regType).toBe(0);
  });

  it('accepts a non-Chinese number with a foreign area code', () => {
    expect(
      dataOf(regBody, { ...phoneForm, areaCode: '+1', userAccount: '2025550123' }),
    ).toMatchObject({
      areaCode: '+1',
      userAccount: '2025550123',
    });
  });

  it('refuses an unknown regType', () => {
    expect(issuesOf(regBody, { ...phoneForm, regType: '2' })).toContainEqual([
      'regType',
      'hint_paramInvalid',
    ]);
    expect(paths(regBody, { ...phoneForm, regType: 'phone' })).toContain('regType');
  });

  it('requires an area code for a phone registration', () => {
    expect(issuesOf(regBody, { ...phoneForm, areaCode: '' })).toEqual([
      ['areaCode', 'hint_paramRequired'],
    ]);
    const { areaCode: _omitted, ...withoutAreaCode } = phoneForm;
    expect(issuesOf(regBody, withoutAreaCode)).toEqual([['areaCode', 'hint_paramRequired']]);
  });

  it('checks the phone number against the area code', () => {
    expect(issuesOf(regBody, { ...phoneForm, userAccount: '12345678901' })).toEqual([
      ['userAccount', 'hint_phoneInvalid'],
    ]);
    expect(issuesOf(regBody, { ...phoneForm, areaCode: '+86', userAccount: '1381234567' })).toEqual(
      [['userAccount', 'hint_phoneInvalid']],
    );
  });

  it('refuses an invalid email for an email registration', () => {
    expect(
      issuesOf(regBody, { ...phoneForm, regType: '1', userAccount: 'first..last@example.com' }),
    ).toEqual([['userAccount', 'hint_emailInvalid']]);
    expect(issuesOf(regBody, { ...phoneForm, regType: '1', userAccount: '13812345678' })).toEqual([
      ['userAccount', 'hint_emailInvalid'],
    ]);
  });

  it.each([
    ['abc1234', 'pwd_minLength'],
    ['12345678', 'pwd_needLetter'],
    ['abcd 1234', 'pwd_lettersDigitsOnly'],
    ['!!!', 'pwd_minLength'],
    ['a'.repeat(33), 'pwd_maxLength'],
  ])('reports the first broken password rule of %j as %s', (userPwd, message) => {
    expect(issuesOf(regBody, { ...phoneForm, userPwd })).toEqual([['userPwd', message]]);
  });

  it('refuses a bad area code, invitation code or verification code with their keys', () => {
    expect(issuesOf(regBody, { ...phoneForm, areaCode: 'abc' })).toContainEqual([
      'areaCode',
      'hint_areaCodeInvalid',
    ]);
    expect(issuesOf(regBody, { ...phoneForm, inviteCode: 'ab' })).toEqual([
      ['inviteCode', 'hint_inviteCodeInvalid'],
    ]);
    expect(issuesOf(regBody, { ...phoneForm, inviteCode: 'abc-1234' })).toEqual([
      ['inviteCode', 'hint_inviteCodeInvalid'],
    ]);
    expect(issuesOf(regBody, { ...phoneForm, yzmCode: '12345' })).toEqual([
      ['yzmCode', 'hint_codeFormat'],
    ]);
    expect(issuesOf(regBody, { ...phoneForm, yzmCode: '12345a' })).toEqual([
      ['yzmCode', 'hint_codeFormat'],
    ]);
  });

  it('names every missing required field', () => {
    expect(paths(regBody, {}).sort()).toEqual(['regType', 'userAccount', 'userPwd']);
  });

  it('refuses an account that is only spaces', () => {
    expect(paths(regBody, { ...phoneForm, userAccount: '   ' })).toContain('userAccount');
  });
});

describe('loginBody', () => {
  it('trims the account, keeps the password exactly and drops an empty area code', () => {
    expect(
      dataOf(loginBody, {
        userAccount: '  user@example.com ',
        userPwd: ' pass word ',
        areaCode: '',
      }),
    ).toEqual({ userAccount: 'user@example.com', userPwd: ' pass word ' });
  });

  it('does not apply the registration password rules (existing passwords still sign in)', () => {
    expect(
      dataOf(loginBody, { userAccount: '13812345678', userPwd: 'short', areaCode: '+86' }),
    ).toEqual({
      userAccount: '13812345678',
      userPwd: 'short',
      areaCode: '+86',
    });
  });

  it('refuses missing or invalid fields with their paths', () => {
    expect(paths(loginBody, { userAccount: 'user@example.com', userPwd: '' })).toEqual(['userPwd']);
    expect(paths(loginBody, { userAccount: '', userPwd: 'x' })).toEqual(['userAccount']);
    expect(paths(loginBody, { userPwd: 'x' })).toEqual(['userAccount']);
    expect(paths(loginBody, { userAccount: 'a', userPwd: 'x'.repeat(65) })).toEqual(['userPwd']);
    expect(issuesOf(loginBody, { userAccount: 'a', userPwd: 'x', areaCode: '0' })).toEqual([
      ['areaCode', 'hint_areaCodeInvalid'],
    ]);
  });
});

describe('updateUserWithPwdBody', () => {
  it('accepts six digits and treats empty optional passwords as absent', () => {
    expect(dataOf(updateUserWithPwdBody, { newPwd: '123456', oldPwd: '', userPwd: '' })).toEqual({
      newPwd: '123456',
    });
    expect(dataOf(updateUserWithPwdBody, { newPwd: '123456', oldPwd: '   ' })).toEqual({
      newPwd: '123456',
    });
  });

  it('keeps the current withdrawal password or the login password when given', () => {
    expect(dataOf(updateUserWithPwdBody, { newPwd: '654321', oldPwd: ' 123456 ' })).toEqual({
      newPwd: '654321',
      oldPwd: '123456',
    });
    expect(dataOf(updateUserWithPwdBody, { newPwd: '654321', userPwd: ' login pwd ' })).toEqual({
      newPwd: '654321',
      userPwd: ' login pwd ',
    });
  });

  it.each(['12345', '1234567', 'abcdef', '12345a', '', '１２３４５６'])(
    'refuses the new withdrawal password %j with hint_withPwdFormat',
    (newPwd) => {
      expect(issuesOf(updateUserWithPwdBody, { newPwd })).toEqual([
        ['newPwd', 'hint_withPwdFormat'],
      ]);
    },
  );

  it('requires the new password', () => {
    expect(paths(updateUserWithPwdBody, {})).toEqual(['newPwd']);
  });
});

describe('sendPhoneCodeBody', () => {
  it('defaults the purpose to reg and trims the phone', () => {
    expect(dataOf(sendPhoneCodeBody, { areaCode: '86', phone: '13812345678' })).toEqual({
      areaCode: '86',
      phone: '13812345678',
      purpose: 'reg',
    });
    expect(
      dataOf(sendPhoneCodeBody, { areaCode: '+86', phone: ' 13812345678 ', purpose: '' }),
    ).toEqual({ areaCode: '+86', phone: '13812345678', purpose: 'reg' });
  });

  it('refuses an unknown purpose', () => {
    expect(
      issuesOf(sendPhoneCodeBody, { areaCode: '86', phone: '13812345678', purpose: 'login' }),
    ).toEqual([['purpose', 'hint_paramInvalid']]);
  });

  it('checks the phone against the area code', () => {
    expect(issuesOf(sendPhoneCodeBody, { areaCode: '86', phone: '12345678901' })).toEqual([
      ['phone', 'hint_phoneInvalid'],
    ]);
    expect(issuesOf(sendPhoneCodeBody, { areaCode: '44', phone: '123' })).toEqual([
      ['phone', 'hint_phoneInvalid'],
    ]);
    expect(dataOf(sendPhoneCodeBody, { areaCode: '44', phone: '7911123456' }).phone).toBe(
      '7911123456',
    );
  });

  it('refuses a missing or invalid area code', () => {
    expect(issuesOf(sendPhoneCodeBody, { areaCode: '+0', phone: '13812345678' })).toEqual([
      ['areaCode', 'hint_areaCodeInvalid'],
    ]);
    expect(paths(sendPhoneCodeBody, { phone: '13812345678' })).toEqual(['areaCode']);
    expect(paths(sendPhoneCodeBody, { areaCode: '86' })).toEqual(['phone']);
  });
});

describe('pageQuery', () => {
  it('applies the defaults', () => {
    expect(PAGE).toMatchObject({ defaultSize: 10, maxSize: 100 });
    expect(dataOf(pageQuery, {})).toEqual({ pageNum: 1, pageSize: 10 });
    expect(dataOf(pageQuery, { pageNum: '', pageSize: '' })).toEqual({ pageNum: 1, pageSize: 10 });
    expect(dataOf(pageQuery, { pageNum: null, pageSize: null })).toEqual({
      pageNum: 1,
      pageSize: 10,
    });
  });

  it('coerces query-string numbers', () => {
    expect(dataOf(pageQuery, { pageNum: '2', pageSize: '30' })).toEqual({
      pageNum: 2,
      pageSize: 30,
    });
    expect(dataOf(pageQuery, { pageNum: 3, pageSize: 50 })).toEqual({ pageNum: 3, pageSize: 50 });
    expect(dataOf(pageQuery, { pageSize: '100' })).toEqual({ pageNum: 1, pageSize: 100 });
  });

  it.each([
    ['pageSize above 100', { pageSize: '101' }, 'pageSize'],
    ['pageSize 0', { pageSize: '0' }, 'pageSize'],
    ['pageNum 0', { pageNum: '0' }, 'pageNum'],
    ['negative pageNum', { pageNum: '-1' }, 'pageNum'],
    ['fractional pageNum', { pageNum: '1.5' }, 'pageNum'],
    ['fractional JSON pageSize', { pageSize: 2.5 }, 'pageSize'],
    ['pageNum with letters', { pageNum: '2a' }, 'pageNum'],
    ['pageNum beyond 100000', { pageNum: '100001' }, 'pageNum'],
    ['pageNum with spaces', { pageNum: ' 2' }, 'pageNum'],
  ])('refuses %s', (_label, input, path) => {
    expect(paths(pageQuery, input)).toEqual([path]);
  });
});

describe('intField / optionalInt', () => {
  it('parses integer text and refuses other text', () => {
    expect(intField().parse('-42')).toBe(-42);
    expect(intField().parse(7)).toBe(7);
    expect(intField(0, 9).safeParse('10').success).toBe(false);
    expect(intField().safeParse('1e3').success).toBe(false);
    expect(intField().safeParse('12345678901').success).toBe(false);
    expect(intField().safeParse('').success).toBe(false);
  });

  it('treats empty text as absent in optionalInt', () => {
    const schema = z.object({ configType: optionalInt(0, 9) });
    expect(dataOf(schema, { configType: '' })).toEqual({});
    expect(dataOf(schema, { configType: '0' })).toEqual({ configType: 0 });
    expect(paths(schema, { configType: '10' })).toEqual(['configType']);
  });
});

describe('decimalAmount', () => {
  const body = z.object({ amount: decimalAmount({ maxScale: 2, max: '1000000' }) });

  it('returns the normalized decimal text', () => {
    expect(decimalAmount().parse('12.50')).toBe('12.5');
    expect(decimalAmount().parse(' 12.5 ')).toBe('12.5');
    expect(decimalAmount().parse('12345678901234567890.123456789012345678')).toBe(
      '12345678901234567890.123456789012345678',
    );
    expect(dataOf(body, { amount: '1000000.00' })).toEqual({ amount: '1000000' });
  });

  it('refuses JSON numbers with hint_amountAsText', () => {
    expect(issuesOf(body, { amount: 12.5 })).toEqual([['amount', 'hint_amountAsText']]);
    expect(issuesOf(body, { amount: 12 })).toEqual([['amount', 'hint_amountAsText']]);
  });

  it.each([
    ['abc', 'hint_amount_format'],
    ['', 'hint_amount_format'],
    ['1e3', 'hint_amount_format'],
    ['1,000', 'hint_amount_format'],
    ['1.234', 'hint_amount_scale'],
    ['0', 'hint_amount_sign'],
    ['-5', 'hint_amount_sign'],
    ['1000000.01', 'hint_amount_range'],
    ['123456789012345678901', 'hint_amount_range'],
  ])('refuses %j with %s on the field path', (amount, message) => {
    expect(issuesOf(body, { amount })).toEqual([['amount', message]]);
  });

  it('refuses missing amounts and text longer than 64 characters', () => {
    expect(paths(body, {})).toEqual(['amount']);
    expect(paths(body, { amount: '1'.repeat(65) })).toEqual(['amount']);
    expect(paths(body, { amount: null })).toEqual(['amount']);
  });

  it('honours the sign option', () => {
    expect(decimalAmount({ sign: 'nonNegative' }).parse('0')).toBe('0');
    expect(decimalAmount({ sign: 'any' }).parse('-1.50')).toBe('-1.5');
  });
});

describe('API key permissions', () => {
  it("reads trade as including read, in the permissions' order", () => {
    expect(withImpliedPermissions(['trade'])).toEqual(['read', 'trade']);
    expect(withImpliedPermissions(['trade', 'read'])).toEqual(['read', 'trade']);
    expect(withImpliedPermissions(['read'])).toEqual(['read']);
    expect(withImpliedPermissions([])).toEqual([]);
  });

  it('creates a key asked for trade alone with read too, and read alone by default', () => {
    expect(apiKeyCreateBody.parse({ label: 'bot', permissions: 'trade' }).permissions).toEqual([
      'read',
      'trade',
    ]);
    expect(apiKeyCreateBody.parse({ label: 'bot' }).permissions).toEqual(['read']);
    expect(apiKeyCreateBody.safeParse({ label: 'bot', permissions: 'withdraw' }).success).toBe(
      false,
    );
  });
});
