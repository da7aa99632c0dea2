/**
 * The one string schema of text input (`safeString`) and what is built on it: control characters
 * and lone surrogates are refused with `hint_textInvalidCharacters`, lengths before anything else.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  decimalAmount,
  exactText,
  hasForbiddenCharacters,
  optionalText,
  requestId,
  safeString,
  text,
  TEXT_INVALID_CHARACTERS,
  withoutForbiddenCharacters,
} from './schemas/common';
import { loginBody, regBody } from './schemas/account';
import { bankCardBody, inMoneyBody, walletAddressBody } from './schemas/wallet';
import { productListQuery } from './schemas/market';
import { contractListQuery } from './schemas/trading';
import { appConfigQuery } from './schemas/launch';

function issuesOf(schema: z.ZodType, input: unknown): { path: string; message: string }[] {
  const result = schema.safeParse(input);
  expect(result.success, 'parse was expected to fail').toBe(false);
  return (result.error?.issues ?? []).map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  }));
}

const C0 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code));
const DEL_C1 = Array.from({ length: 0x21 }, (_, index) => String.fromCharCode(0x7f + index));

describe('hasForbiddenCharacters', () => {
  it('finds every C0 control, DEL and C1 control in a single-line text', () => {
    for (const char of [...C0, ...DEL_C1])
      expect(hasForbiddenCharacters(`a${char}b`), char.charCodeAt(0).toString(16)).toBe(true);
  });

  it('lets a multi-line text have line feeds, carriage returns and tabs, and nothing else', () => {
    expect(hasForbiddenCharacters('one\r\ntwo\tthree\n', 'multiLine')).toBe(false);
    for (const char of [...C0, ...DEL_C1].filter((c) => !'\n\r\t'.includes(c)))
      expect(hasForbiddenCharacters(`a${char}b`, 'multiLine')).toBe(true);
  });

  it('finds lone surrogates but not pairs', () => {
    expect(hasForbiddenCharacters('a\ud800')).toBe(true);
    expect(hasForbiddenCharacters('\udc00a')).toBe(true);
    expect(hasForbiddenCharacters('\udc00\ud800')).toBe(true);
    expect(hasForbiddenCharacters('emoji 😀 and 𝄞', 'multiLine')).toBe(false);
  });

  it('lets ordinary text of any script through', () => {
    for (const value of ['Zoë Ångström', '张伟', 'محمد', 'Ромашка', ' spaces ', '\u00a0\u00ad'])
      expect(hasForbiddenCharacters(value)).toBe(false);
  });
});

describe('withoutForbiddenCharacters', () => {
  it('drops what a field of its kind refuses and keeps the rest, pairs included', () => {
    expect(withoutForbiddenCharacters('Probe\u0000/1.0 \ud800(\u001b[31m)\u0085 😀')).toBe(
      'Probe/1.0 ([31m) 😀',
    );
    expect(withoutForbiddenCharacters('a\nb\tc\u0000', 'multiLine')).toBe('a\nb\tc');
    expect(withoutForbiddenCharacters('a\nb', 'singleLine')).toBe('ab');
    // The pattern is global: every occurrence goes, call after call.
    expect(withoutForbiddenCharacters('\u0000x\u0000')).toBe('x');
    expect(withoutForbiddenCharacters('\u0000y\u0000')).toBe('y');
  });
});

describe('safeString', () => {
  it('refuses a bad character with its key and keeps further checks', () => {
    const schema = safeString(16).regex(/^[a-z]+$/, { error: 'hint_paramInvalid' });
    expect(issuesOf(schema, 'ab\u0000')[0]).toEqual({
      path: '',
      message: TEXT_INVALID_CHARACTERS,
    });
    expect(issuesOf(schema, 'AB')).toEqual([{ path: '', message: 'hint_paramInvalid' }]);
    expect(schema.parse('ab')).toBe('ab');
  });

  it('refuses an overlong text by its length alone, without reading its content', () => {
    const issues = safeString(64).safeParse('\u0000'.repeat(100_000)).error!.issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'too_big', maximum: 64 });
  });

  it('refuses what is not a string', () => {
    for (const value of [1, true, null, ['a'], { a: 'b' }])
      expect(safeString(8).safeParse(value).success).toBe(false);
  });
});

describe('the text builders', () => {
  it('text and optionalText refuse controls inside but still trim the edges', () => {
    expect(text(10).parse('  word \n')).toBe('word');
    expect(issuesOf(text(10), 'a\u0000b')[0]!.message).toBe(TEXT_INVALID_CHARACTERS);
    expect(issuesOf(text(10), 'a\nb')[0]!.message).toBe(TEXT_INVALID_CHARACTERS);
    expect(text(20, 1, 'multiLine').parse(' line one\nline two ')).toBe('line one\nline two');
    expect(issuesOf(optionalText(10), 'a\ud800')[0]!.message).toBe(TEXT_INVALID_CHARACTERS);
    expect(optionalText(10).parse('   ')).toBeUndefined();
  });

  it('exactText keeps the text as sent but refuses controls', () => {
    expect(exactText(8).parse(' pw d ')).toBe(' pw d ');
    expect(issuesOf(exactText(8), 'pw\u007f')[0]!.message).toBe(TEXT_INVALID_CHARACTERS);
    expect(exactText(8).safeParse('').success).toBe(false);
  });

  it('amounts and request ids go through it too', () => {
    expect(issuesOf(decimalAmount(), '1\u0000')[0]!.message).toBe(TEXT_INVALID_CHARACTERS);
    expect(issuesOf(requestId, 'abcdefgh\u0000')[0]!.message).toBe(TEXT_INVALID_CHARACTERS);
  });
});

describe('request schemas', () => {
  it('name the field of a refused character', () => {
    const cases: [z.ZodType, Record<string, unknown>, string][] = [
      [loginBody, { userAccount: 'a\u0000@b.co', userPwd: 'x' }, 'userAccount'],
      [loginBody, { userAccount: 'a@b.co', userPwd: 'pass\u0000' }, 'userPwd'],
      [regBody, { regType: 1, userAccount: 'a@b.co', userPwd: 'abc12345\ud800' }, 'userPwd'],
      [
        walletAddressBody,
        { currencyId: 3, network: 'TRC20', address: 'T1', remark: 'home\u0085' },
        'remark',
      ],
      [productListQuery, { keyWords: 'btc\u001b' }, 'keyWords'],
      [contractListQuery, { status: '0\u0000' }, 'status'],
      [appConfigQuery, { pagePath: 'home\u0000' }, 'pagePath'],
    ];
    for (const [schema, input, field] of cases)
      expect(issuesOf(schema, input)[0]).toEqual({ path: field, message: TEXT_INVALID_CHARACTERS });
  });

  it('let a deposit remark span lines but not carry other controls', () => {
    const deposit = {
      channelId: 1,
      amount: '10',
      requestId: 'request-0001',
      remark: 'paid from\r\nmy account',
    };
    expect(inMoneyBody.parse(deposit).remark).toBe('paid from\r\nmy account');
    expect(issuesOf(inMoneyBody, { ...deposit, remark: 'a\u0000' })[0]!.path).toBe('remark');
  });

  it('check bank card field names and text values', () => {
    expect(bankCardBody.parse({ bankName: 'Bank\tof Tests', cardNumber: 6222 })).toEqual({
      bankName: 'Bank\tof Tests',
      cardNumber: 6222,
    });
    expect(issuesOf(bankCardBody, { bankName: 'a\u0000' })).toEqual([
      { path: 'bankName', message: TEXT_INVALID_CHARACTERS },
    ]);
    expect(issuesOf(bankCardBody, { bankName: '\ud800' })[0]!.message).toBe(
      TEXT_INVALID_CHARACTERS,
    );
    const [key] = bankCardBody.safeParse({ 'bank\u0000': 'x' }).error!.issues;
    expect(key).toMatchObject({ code: 'invalid_key' });
  });
});
