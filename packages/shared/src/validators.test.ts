import { describe, expect, it } from 'vitest';
import {
  PASSWORD_PROBLEM,
  PASSWORD_RULES,
  isAmount,
  isAreaCode,
  isCarNumber,
  isDate,
  isDigits,
  isEmail,
  isDocumentNumber,
  isIdCard,
  isJsonString,
  isLandline,
  isLetters,
  isMobile,
  isNumber,
  isPassword,
  isPhone,
  isPhoneForAreaCode,
  isPrice,
  isUrl,
  isVerificationCode,
  isWithdrawalPassword,
  normalizeAreaCode,
  passwordProblems,
} from './validators';

/** Full-width (U+FF10…) and Arabic-Indic (U+0660…) digits: "digits" to \p{Nd}, never to the rules. */
const fullWidth = (digits: string) =>
  digits.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
const arabicIndic = (digits: string) =>
  digits.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));

describe('isPhone', () => {
  it.each(['13812345678', '13012345678', '19912345678', '15000000000'])(
    'accepts the 11-digit mobile %s',
    (value) => {
      expect(isPhone(value)).toBe(true);
    },
  );

  it.each([
    '+86 13812345678',
    '86-13812345678',
    '+8613812345678',
    '+1 20255501234',
    '8613812345678',
  ])('accepts an 11-digit number with an area-code prefix: %s', (value) => {
    expect(isPhone(value)).toBe(true);
  });

  it("accepts any 11-digit number (the spec's second alternative)", () => {
    expect(isPhone('12345678901')).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['10 digits', '1381234567'],
    ['prefix too long (5 digits)', '+12345 13812345678'],
    ['16 digits in a row', '1234567890123456'],
    ['letters', '1381234567a'],
    ['inner spaces', '138 1234 5678'],
    ['leading space', ' 13812345678'],
    ['trailing space', '13812345678 '],
    ['trailing newline', '13812345678\n'],
    ['double separator', '+86  13812345678'],
    ['full-width digits', fullWidth('13812345678')],
    ['Arabic-Indic digits', arabicIndic('13812345678')],
    ['very long', '1'.repeat(10_000)],
  ])('refuses %s', (_label, value) => {
    expect(isPhone(value)).toBe(false);
  });
});

describe('isMobile', () => {
  it.each(['1234', '2025550123', '12345678901234'])('accepts %s (4 to 14 digits)', (value) => {
    expect(isMobile(value)).toBe(true);
  });

  it.each(['', '123', '123456789012345', '+2025550123', '202 555 0123', fullWidth('2025550123')])(
    'refuses %j',
    (value) => {
      expect(isMobile(value)).toBe(false);
    },
  );
});

describe('isAreaCode / normalizeAreaCode', () => {
  it.each(['1', '+1', '86', '+86', '+852', '1234', '+1234'])('accepts %s', (value) => {
    expect(isAreaCode(value)).toBe(true);
  });

  it.each([
    '',
    '+',
    '0',
    '+0',
    '086',
    '12345',
    '+12345',
    '++86',
    '86 ',
    ' 86',
    '8a',
    fullWidth('86'),
  ])('refuses %j', (value) => {
    expect(isAreaCode(value)).toBe(false);
  });

  it('drops a leading plus only', () => {
    expect(normalizeAreaCode('+86')).toBe('86');
    expect(normalizeAreaCode('86')).toBe('86');
    expect(normalizeAreaCode('+852')).toBe('852');
  });
});

describe('isPhoneForAreaCode', () => {
  it('applies the 11-digit 1[3-9] rule for 86, with or without the plus', () => {
    expect(isPhoneForAreaCode('86', '13812345678')).toBe(true);
    expect(isPhoneForAreaCode('+86', '19912345678')).toBe(true);
    expect(isPhoneForAreaCode('86', '12345678901')).toBe(false);
    expect(isPhoneForAreaCode('+86', '1381234567')).toBe(false);
    expect(isPhoneForAreaCode('86', '138123456789')).toBe(false);
    expect(isPhoneForAreaCode('86', '+86 13812345678')).toBe(false);
    expect(isPhoneForAreaCode('86', '')).toBe(false);
  });

  it('uses the national-number rule (4 to 14 digits) for other area codes (documented deviation)', () => {
    expect(isPhoneForAreaCode('1', '2025550123')).toBe(true);
    expect(isPhoneForAreaCode('+44', '7911123456')).toBe(true);
    expect(isPhoneForAreaCode('+852', '91234567')).toBe(true);
    expect(isPhoneForAreaCode('1', '123')).toBe(false);
    expect(isPhoneForAreaCode('1', '123456789012345')).toBe(false);
    expect(isPhoneForAreaCode('44', '7911 123456')).toBe(false);
    expect(isPhoneForAreaCode('44', fullWidth('7911123456'))).toBe(false);
  });

  it('does not treat 860 or 8 as China', () => {
    expect(isPhoneForAreaCode('860', '2025550123')).toBe(true);
    expect(isPhoneForAreaCode('8', '12345678901')).toBe(true);
  });
});

describe('passwordProblems / isPassword', () => {
  it('uses the agreed translation keys and bounds', () => {
    expect(PASSWORD_PROBLEM).toEqual({
      minLength: 'pwd_minLength',
      needLetter: 'pwd_needLetter',
      lettersAndDigitsOnly: 'pwd_lettersDigitsOnly',
      maxLength: 'pwd_maxLength',
    });
    expect(PASSWORD_RULES).toEqual({ minLength: 8, maxLength: 32 });
  });

  it.each(['abc12345', 'abcdefgh', 'ABCDEFGH', 'Passw0rd', 'a1234567', 'a'.repeat(32)])(
    'accepts %s',
    (value) => {
      expect(passwordProblems(value)).toEqual([]);
      expect(isPassword(value)).toBe(true);
    },
  );

  it.each([
    ['', ['pwd_minLength', 'pwd_needLetter']],
    ['abc1234', ['pwd_minLength']],
    ['12345678', ['pwd_needLetter']],
    ['1234567', ['pwd_minLength', 'pwd_needLetter']],
    ['abcd 1234', ['pwd_lettersDigitsOnly']],
    ['abcd_1234', ['pwd_lettersDigitsOnly']],
    ['!', ['pwd_minLength', 'pwd_needLetter', 'pwd_lettersDigitsOnly']],
    ['1234 5678', ['pwd_needLetter', 'pwd_lettersDigitsOnly']],
    ['密码密码密码密码', ['pwd_needLetter', 'pwd_lettersDigitsOnly']],
    ['abcdéfgh', ['pwd_lettersDigitsOnly']],
    [`abcd${fullWidth('1234')}`, ['pwd_lettersDigitsOnly']],
    ['        ', ['pwd_needLetter', 'pwd_lettersDigitsOnly']],
    ['a'.repeat(33), ['pwd_maxLength']],
    ['1'.repeat(33), ['pwd_needLetter', 'pwd_maxLength']],
    [`${'a'.repeat(32)}!`, ['pwd_lettersDigitsOnly', 'pwd_maxLength']],
    ['!'.repeat(40), ['pwd_needLetter', 'pwd_lettersDigitsOnly', 'pwd_maxLength']],
  ])('reports every broken rule of %j in the spec order', (value, expected) => {
    expect(passwordProblems(value)).toEqual(expected);
    expect(isPassword(value)).toBe(false);
  });

  it('handles a very long password', () => {
    expect(passwordProblems('a'.repeat(100_000))).toEqual(['pwd_maxLength']);
  });
});

describe('isWithdrawalPassword', () => {
  it('accepts six digits', () => {
    expect(isWithdrawalPassword('123456')).toBe(true);
    expect(isWithdrawalPassword('000000')).toBe(true);
  });

  it.each([
    '',
    '12345',
    '1234567',
    '12345a',
    '123 456',
    ' 123456',
    '123456 ',
    '123456\n',
    fullWidth('123456'),
    arabicIndic('123456'),
  ])('refuses %j', (value) => {
    expect(isWithdrawalPassword(value)).toBe(false);
  });
});

describe('isIdCard', () => {
  it.each([
    ['15 digits', '110105491231002'],
    ['18 digits', '110105194912310021'],
    ['17 digits plus X', '11010519491231002X'],
  ])('accepts %s', (_label, value) => {
    expect(isIdCard(value)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['14 digits', '11010549123100'],
    ['16 digits', '1101054912310021'],
    ['17 digits', '11010519491231002'],
    ['19 digits', '1101051949123100211'],
    ['15 digits plus X', '110105491231002X'],
    ['X not last', '1101051949123100X1'],
    ['other letter last', '11010519491231002Y'],
    ['spaces', '110105 194912310021'],
    ['full-width digits', fullWidth('110105194912310021')],
  ])('refuses %s', (_label, value) => {
    expect(isIdCard(value)).toBe(false);
  });
});

describe('isDocumentNumber', () => {
  it.each(['AB123', 'E12345678', 'p1234567', 'A1B2C3D4E5F6G7H8I9J0'])('accepts %s', (value) => {
    expect(isDocumentNumber(value)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['4 characters', 'AB12'],
    ['21 characters', 'A1B2C3D4E5F6G7H8I9J0K'],
    ['a space', 'E1234 5678'],
    ['a sign', 'E-12345678'],
    ['full-width', fullWidth('E12345678')],
  ])('refuses %s', (_label, value) => {
    expect(isDocumentNumber(value)).toBe(false);
  });
});

describe('isPrice', () => {
  it.each(['1', '10', '1.5', '1.50', '12345.67', '0', '0.5', '0.05', '0.00', '0.0'])(
    'accepts %s',
    (value) => {
      expect(isPrice(value)).toBe(true);
    },
  );

  it.each([
    '01',
    '00',
    '00.5',
    '.5',
    '1.',
    '1.234',
    '0.001',
    '-1',
    '-0.5',
    '+1',
    '1e2',
    '1,000',
    ' 1',
    '1 ',
    '',
    fullWidth('12'),
  ])('refuses %j', (value) => {
    expect(isPrice(value)).toBe(false);
  });
});

describe('isEmail', () => {
  it.each([
    'abc@example.com',
    'abc123@example.com',
    'ABC@EXAMPLE.COM',
    '123456@qq.com',
    '中文@qq.com',
    '张三123@example.com.cn',
    'user@mail.example.co.uk',
    'user@my-domain.com',
    'first.last@example.com',
    'first_last+tag@example.com',
    'a@b.co',
    `${'a'.repeat(64)}@example.com`,
  ])('accepts %s', (value) => {
    expect(isEmail(value)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['no @', 'abc.example.com'],
    ['nothing before @', '@example.com'],
    ['nothing after @', 'abc@'],
    ['two @', 'a@b@example.com'],
    ['missing TLD', 'user@localhost'],
    ['missing TLD, longer', 'user@example'],
    ['double dot in local part', 'first..last@example.com'],
    ['double dot in domain', 'user@example..com'],
    ['local part starting with a dot', '.user@example.com'],
    ['local part ending with a dot', 'user.@example.com'],
    ['domain starting with a dot', 'user@.example.com'],
    ['domain ending with a dot', 'user@example.com.'],
    ['domain label starting with a hyphen', 'user@-example.com'],
    ['space inside', 'first last@example.com'],
    ['leading space', ' user@example.com'],
    ['trailing space', 'user@example.com '],
    ['local part of 65 characters', `${'a'.repeat(65)}@example.com`],
    [
      'longer than 254 characters',
      `a@${['b', 'c', 'd', 'e'].map((c) => c.repeat(63)).join('.')}.com`,
    ],
    ['very long', `${'a'.repeat(10_000)}@example.com`],
  ])('refuses %s', (_label, value) => {
    expect(isEmail(value)).toBe(false);
  });
});

describe('isVerificationCode', () => {
  it('accepts exactly six digits by default', () => {
    expect(isVerificationCode('123456')).toBe(true);
    expect(isVerificationCode('000000')).toBe(true);
  });

  it('honours another length', () => {
    expect(isVerificationCode('1234', 4)).toBe(true);
    expect(isVerificationCode('123456', 4)).toBe(false);
  });

  it.each([
    '',
    '12345',
    '1234567',
    '12345a',
    '123 45',
    ' 12345',
    fullWidth('123456'),
    arabicIndic('123456'),
  ])('refuses %j', (value) => {
    expect(isVerificationCode(value)).toBe(false);
  });
});

describe('isUrl', () => {
  it.each([
    'http://example.com',
    'https://example.com',
    'https://example.com/path?q=1#top',
    'http://localhost:3000/api',
    'https://sub.example.co.uk',
    'https://127.0.0.1:8443',
  ])('accepts %s', (value) => {
    expect(isUrl(value)).toBe(true);
  });

  it.each([
    '',
    'example.com',
    '//example.com',
    'ftp://example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'mailto:user@example.com',
    'http://',
    'https://exa mple.com',
    'not a url',
    `https://example.com/${'a'.repeat(2100)}`,
  ])('refuses %j', (value) => {
    expect(isUrl(value)).toBe(false);
  });
});

describe('isDate', () => {
  it.each([
    '2024-01-01',
    '2024/12/31',
    '2024-02-29',
    '2000-02-29',
    '2023-02-28',
    '2024-04-30',
    '1999-12-31',
  ])('accepts %s', (value) => {
    expect(isDate(value)).toBe(true);
  });

  it.each([
    ['Feb 29 in a common year', '2023-02-29'],
    ['Feb 29 in a century common year', '1900-02-29'],
    ['Feb 29 in 2100', '2100/02/29'],
    ['Feb 30 in a leap year', '2024-02-30'],
    ['April 31', '2024-04-31'],
    ['month 13', '2024-13-01'],
    ['month 00', '2024-00-10'],
    ['day 00', '2024-01-00'],
    ['day 32', '2024-01-32'],
    ['single-digit parts', '2024-1-1'],
    ['two-digit year', '24-01-01'],
    ['dots', '2024.01.01'],
    ['with time', '2024-01-01 10:00'],
    ['leading space', ' 2024-01-01'],
    ['empty', ''],
    ['full-width digits', fullWidth('2024') + '-' + fullWidth('01') + '-' + fullWidth('01')],
  ])('refuses %s', (_label, value) => {
    expect(isDate(value)).toBe(false);
  });

  it('refuses mixed separators (neither yyyy-MM-dd nor yyyy/MM/dd)', () => {
    expect(isDate('2024-02/29')).toBe(false);
    expect(isDate('2024/02-29')).toBe(false);
  });
});

describe('isNumber', () => {
  it.each(['0', '1', '-1', '3.14', '0.5', '-0.001', '1234567890123456789012345'])(
    'accepts %s',
    (value) => {
      expect(isNumber(value)).toBe(true);
    },
  );

  it.each([
    '',
    '-',
    '+1',
    '01',
    '.5',
    '1.',
    '1e5',
    '1,000',
    '1 ',
    'NaN',
    'Infinity',
    '0x10',
    fullWidth('12'),
  ])('refuses %j', (value) => {
    expect(isNumber(value)).toBe(false);
  });
});

describe('isDigits', () => {
  it.each(['0', '0123', '9'.repeat(1000)])('accepts %s', (value) => {
    expect(isDigits(value)).toBe(true);
  });

  it.each(['', ' 1', '1 ', '-1', '1.0', 'a1', fullWidth('12'), arabicIndic('12')])(
    'refuses %j',
    (value) => {
      expect(isDigits(value)).toBe(false);
    },
  );
});

describe('isCarNumber', () => {
  it.each([
    ['ordinary', '京A12345'],
    ['ordinary with letters', '沪BA1B23'],
    ['learner plate', '粤B1234学'],
    ['police plate', '川A1234警'],
    ['new energy, small', '京AD12345'],
    ['new energy, large', '京A12345F'],
  ])('accepts %s: %s', (_label, value) => {
    expect(isCarNumber(value)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['no province', 'AA12345'],
    ['unknown province character', '中A12345'],
    ['letter I', '京I12345'],
    ['letter O', '京O12345'],
    ['lowercase', '京a12345'],
    ['too short', '京A1234'],
    ['too long', '京A1234567'],
    ['digit as issuer letter', '京112345'],
    ['space', '京A 12345'],
  ])('refuses %s: %j', (_label, value) => {
    expect(isCarNumber(value)).toBe(false);
  });
});

describe('isAmount', () => {
  it.each(['0', '0.5', '0.05', '12.34', '100', '100.0', '999999999999999999.99'])(
    'accepts %s',
    (value) => {
      expect(isAmount(value)).toBe(true);
    },
  );

  it.each([
    '',
    '-1',
    '-0.5',
    '1.234',
    '01',
    '.5',
    '1.',
    '+1',
    '1e3',
    '1,000',
    ' 1',
    '1000000000000000000',
    fullWidth('1'),
  ])('refuses %j', (value) => {
    expect(isAmount(value)).toBe(false);
  });
});

describe('isLetters', () => {
  it.each(['a', 'abc', 'ABCxyz'])('accepts %s', (value) => {
    expect(isLetters(value)).toBe(true);
  });

  it.each(['', 'abc1', 'ab c', 'é', 'абв', '中文', ' a'])('refuses %j', (value) => {
    expect(isLetters(value)).toBe(false);
  });
});

describe('isLandline', () => {
  it.each([
    '010-12345678',
    '0755-1234567',
    '12345678',
    '1234567',
    '010-12345678-123',
    '021-87654321-1',
  ])('accepts %s', (value) => {
    expect(isLandline(value)).toBe(true);
  });

  it.each([
    '',
    '123456',
    '123456789',
    '010-01234567',
    '10-12345678',
    '01-12345678',
    '01234-1234567',
    '010 12345678',
    '010-12345678-1234567',
    fullWidth('12345678'),
  ])('refuses %j', (value) => {
    expect(isLandline(value)).toBe(false);
  });
});

describe('isJsonString', () => {
  it.each(['{}', '[]', '{"a":1}', '[1,2,3]', ' {"nested":{"b":[true,null]}} '])(
    'accepts %s',
    (value) => {
      expect(isJsonString(value)).toBe(true);
    },
  );

  it.each(['', ' ', '1', '"text"', 'true', 'null', '{', '{a:1}', "{'a':1}", '[1,]', 'undefined'])(
    'refuses %j',
    (value) => {
      expect(isJsonString(value)).toBe(false);
    },
  );
});
