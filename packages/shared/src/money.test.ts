import { describe, expect, it } from 'vitest';
import {
  MAX_INTEGER_DIGITS,
  MAX_SCALE,
  abs,
  add,
  cmp,
  div,
  eq,
  gt,
  gte,
  isDecimalString,
  isNegative,
  isPositive,
  isZero,
  lt,
  lte,
  max,
  min,
  mul,
  neg,
  normalize,
  parseDecimal,
  scaleOf,
  sub,
  sum,
  toScale,
} from './money';

/** What a caller that lets a JS number slip through would pass. */
const asMoney = (value: number) => value as unknown as string;

describe('isDecimalString', () => {
  it.each(['0', '1', '-1', '0.5', '-0.00000001', '12345678901234567890.123456789', '1.50'])(
    'accepts the plain decimal %s',
    (value) => {
      expect(isDecimalString(value)).toBe(true);
    },
  );

  it.each([
    '',
    '-',
    '+1',
    '01',
    '.5',
    '1.',
    '1e21',
    '1E-7',
    '1,000',
    ' 1',
    '1 ',
    'NaN',
    'Infinity',
    '0x10',
    '１',
  ])('refuses %j', (value) => {
    expect(isDecimalString(value)).toBe(false);
  });

  it('refuses non-strings and strings longer than 64 characters', () => {
    expect(isDecimalString(1)).toBe(false);
    expect(isDecimalString(null)).toBe(false);
    expect(isDecimalString(undefined)).toBe(false);
    expect(isDecimalString(10n)).toBe(false);
    expect(isDecimalString('1'.repeat(64))).toBe(true);
    expect(isDecimalString('1'.repeat(65))).toBe(false);
  });
});

describe('add / sub / mul beyond JS number precision', () => {
  it('adds without losing digits', () => {
    expect(add('12345678901234567890.123456789', '0.000000001')).toBe(
      '12345678901234567890.12345679',
    );
    expect(add('9007199254740993', '1')).toBe('9007199254740994');
    expect(add('0.1', '0.2')).toBe('0.3');
    expect(add('99999999999999999999.999999999999999999', '0.000000000000000001')).toBe(
      '100000000000000000000',
    );
  });

  it('subtracts exactly and never answers -0', () => {
    expect(sub('0.3', '0.1')).toBe('0.2');
    expect(sub('12345678901234567890.123456789', '0.000000001')).toBe(
      '12345678901234567890.123456788',
    );
    expect(sub('1', '1.00')).toBe('0');
    expect(sub('-0.5', '-0.5')).toBe('0');
    expect(sub('1', '2.5')).toBe('-1.5');
  });

  it('multiplies exactly', () => {
    expect(mul('0.1', '0.2')).toBe('0.02');
    expect(mul('1.1', '1.1')).toBe('1.21');
    expect(mul('99999999999999999999', '99999999999999999999')).toBe(
      '9999999999999999999800000000000000000001',
    );
    expect(mul('0.000000001', '0.000000001')).toBe('0.000000000000000001');
    expect(mul('-1', '0')).toBe('0');
    expect(mul('-2.5', '4')).toBe('-10');
  });

  it('returns normalized strings (no trailing zeros, no exponent)', () => {
    expect(add('1.50', '1.50')).toBe('3');
    expect(mul('1000000000', '1000000000000')).toBe('1000000000000000000000');
    expect(mul('0.0000001', '1')).toBe('0.0000001');
  });
});

describe('div', () => {
  it('divides to the given scale, rounding down by default', () => {
    expect(div('1', '3', 8)).toBe('0.33333333');
    expect(div('2', '3', 2)).toBe('0.66');
    expect(div('10', '4', 0)).toBe('2');
    expect(div('12345678901234567890', '3', 2)).toBe('4115226300411522630');
    expect(div('1', '3', 20)).toBe('0.33333333333333333333');
    expect(div('2', '3', 18, 'halfUp')).toBe('0.666666666666666667');
    expect(div('1', '7', 30, 'halfEven')).toBe('0.142857142857142857142857142857');
  });

  it('drops trailing zeros of the rounded result', () => {
    expect(div('1', '4', 4)).toBe('0.25');
    expect(div('6', '3', 5)).toBe('2');
  });

  it.each([
    ['2', '3', 'down', '0.66'],
    ['2', '3', 'up', '0.67'],
    ['2', '3', 'halfUp', '0.67'],
    ['2', '3', 'halfEven', '0.67'],
    ['1', '8', 'down', '0.12'],
    ['1', '8', 'up', '0.13'],
    ['1', '8', 'halfUp', '0.13'],
    ['1', '8', 'halfEven', '0.12'],
    ['3', '8', 'halfEven', '0.38'],
    ['-2', '3', 'down', '-0.66'],
    ['-2', '3', 'up', '-0.67'],
    ['-1', '8', 'halfUp', '-0.13'],
    ['-1', '8', 'halfEven', '-0.12'],
    ['-3', '8', 'halfEven', '-0.38'],
    ['1', '-8', 'down', '-0.12'],
    ['-1', '-8', 'up', '0.13'],
  ] as const)('%s / %s rounded %s at 2 decimals is %s', (a, b, rounding, expected) => {
    expect(div(a, b, 2, rounding)).toBe(expected);
  });

  it('never answers -0 when a negative quotient rounds to zero', () => {
    expect(div('-1', '3', 0)).toBe('0');
    expect(div('-0.001', '1', 2, 'down')).toBe('0');
    expect(div('-1', '8', 0, 'halfEven')).toBe('0');
    expect(div('-1', '3', 0, 'halfUp')).toBe('0');
  });

  it('throws on division by zero, however zero is written', () => {
    expect(() => div('1', '0', 2)).toThrow(RangeError);
    expect(() => div('1', '0.00', 2)).toThrow(RangeError);
    expect(() => div('0', '-0', 2)).toThrow(RangeError);
  });
});

describe('toScale', () => {
  it('writes exactly `scale` decimals', () => {
    expect(toScale('1.5', 2)).toBe('1.50');
    expect(toScale('1', 2)).toBe('1.00');
    expect(toScale('0', 4)).toBe('0.0000');
    expect(toScale('12.345', 0)).toBe('12');
    expect(toScale('12345678901234567890.123456789', 9)).toBe('12345678901234567890.123456789');
  });

  it('rounds down (toward zero) by default', () => {
    expect(toScale('1.999', 2)).toBe('1.99');
    expect(toScale('-1.999', 2)).toBe('-1.99');
  });

  it.each([
    ['1.005', 2, 'halfUp', '1.01'],
    ['1.005', 2, 'halfEven', '1.00'],
    ['1.015', 2, 'halfEven', '1.02'],
    ['1.999', 2, 'up', '2.00'],
    ['1.001', 2, 'up', '1.01'],
    ['2.5', 0, 'halfEven', '2'],
    ['3.5', 0, 'halfEven', '4'],
    ['2.5', 0, 'halfUp', '3'],
    ['-2.5', 0, 'halfEven', '-2'],
    ['-3.5', 0, 'halfEven', '-4'],
    ['-2.5', 0, 'halfUp', '-3'],
    ['-2.4', 0, 'halfUp', '-2'],
    ['-1.001', 2, 'up', '-1.01'],
    ['-1.009', 2, 'down', '-1.00'],
  ] as const)('%s at %i decimals, %s -> %s', (value, scale, rounding, expected) => {
    expect(toScale(value, scale, rounding)).toBe(expected);
  });

  it.each([
    ['-0.001', 2, 'down', '0.00'],
    ['-0.004', 2, 'halfUp', '0.00'],
    ['-0.005', 2, 'halfEven', '0.00'],
    ['-0.004', 0, 'halfUp', '0'],
    ['-0.4', 0, 'down', '0'],
    ['-0', 2, 'down', '0.00'],
    ['-0.000', 0, 'up', '0'],
  ] as const)(
    'never writes a negative zero: %s at %i, %s -> %s',
    (value, scale, rounding, expected) => {
      expect(toScale(value, scale, rounding)).toBe(expected);
    },
  );

  it('keeps the sign when the rounded value is not zero', () => {
    expect(toScale('-0.001', 2, 'up')).toBe('-0.01');
    expect(toScale('-0.005', 2, 'halfUp')).toBe('-0.01');
  });
});

describe('comparison', () => {
  it('compares numerically, not as text', () => {
    expect(cmp('10', '9')).toBe(1);
    expect(cmp('9', '10')).toBe(-1);
    expect(cmp('-1', '0')).toBe(-1);
    expect(cmp('-10', '-9')).toBe(-1);
    expect(cmp('1', '1.000')).toBe(0);
    expect(cmp('0', '-0')).toBe(0);
    expect(cmp('12345678901234567890.000000000000000001', '12345678901234567890')).toBe(1);
  });

  it('answers eq / gt / gte / lt / lte', () => {
    expect(eq('1.10', '1.1')).toBe(true);
    expect(eq('1.1', '1.11')).toBe(false);
    expect(gt('2', '1.999999999999999999')).toBe(true);
    expect(gt('1', '1')).toBe(false);
    expect(gte('1', '1.0')).toBe(true);
    expect(gte('0.9', '1')).toBe(false);
    expect(lt('-0.000000000000000001', '0')).toBe(true);
    expect(lt('1', '1')).toBe(false);
    expect(lte('1', '1')).toBe(true);
    expect(lte('1.01', '1')).toBe(false);
  });

  it('answers isZero / isNegative / isPositive', () => {
    expect(isZero('0.000')).toBe(true);
    expect(isZero('-0')).toBe(true);
    expect(isZero('0.000000000000000001')).toBe(false);
    expect(isNegative('-0.01')).toBe(true);
    expect(isNegative('-0')).toBe(false);
    expect(isNegative('0')).toBe(false);
    expect(isPositive('0.0000001')).toBe(true);
    expect(isPositive('0')).toBe(false);
    expect(isPositive('-1')).toBe(false);
  });

  it('returns the normalized min and max', () => {
    expect(min('1.50', '2')).toBe('1.5');
    expect(min('10', '9')).toBe('9');
    expect(max('10', '9')).toBe('10');
    expect(max('-1', '-2')).toBe('-1');
    expect(max('1.50', '1.5')).toBe('1.5');
  });
});

describe('neg / abs / sum', () => {
  it('negates without producing -0', () => {
    expect(neg('1.5')).toBe('-1.5');
    expect(neg('-1.5')).toBe('1.5');
    expect(neg('0')).toBe('0');
    expect(neg('0.00')).toBe('0');
  });

  it('takes absolute values', () => {
    expect(abs('-0.01')).toBe('0.01');
    expect(abs('12.5')).toBe('12.5');
    expect(abs('-0')).toBe('0');
  });

  it('sums a list exactly', () => {
    expect(sum([])).toBe('0');
    expect(sum(['0.1', '0.2', '0.3'])).toBe('0.6');
    expect(sum(['0.1', '-0.1'])).toBe('0');
    expect(sum(['12345678901234567890.123456789', '0.000000001', '-0.1'])).toBe(
      '12345678901234567890.02345679',
    );
    expect(sum(Array.from({ length: 10 }, () => '0.1'))).toBe('1');
  });
});

describe('normalize', () => {
  it.each([
    ['1.500', '1.5'],
    ['1.0', '1'],
    ['0.000', '0'],
    ['-0', '0'],
    ['-0.000', '0'],
    ['-1.50', '-1.5'],
    ['0.0000001', '0.0000001'],
    ['0.000000000000000001', '0.000000000000000001'],
    ['1000000000000000000000', '1000000000000000000000'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
  ])('%s -> %s (no exponent)', (value, expected) => {
    expect(normalize(value)).toBe(expected);
  });

  it('refuses text that is not a plain decimal', () => {
    expect(() => normalize('1e21')).toThrow(TypeError);
    expect(() => normalize('1e-7')).toThrow(TypeError);
    expect(() => normalize('')).toThrow(TypeError);
    expect(() => normalize('1,000')).toThrow(TypeError);
    expect(() => normalize(' 1')).toThrow(TypeError);
  });
});

describe('strictness: a JS number never reaches money', () => {
  it.each([
    ['add', () => add(asMoney(0.1), '0.2')],
    ['add (second operand)', () => add('0.1', asMoney(0.2))],
    ['sub', () => sub(asMoney(1), '1')],
    ['sub (second operand)', () => sub('1', asMoney(1))],
    ['mul', () => mul(asMoney(2), '3')],
    ['mul (second operand)', () => mul('2', asMoney(3))],
    ['div', () => div(asMoney(1), '3', 2)],
    ['div (divisor)', () => div('1', asMoney(3), 2)],
    ['cmp', () => cmp(asMoney(1), '1')],
    ['cmp (second operand)', () => cmp('1', asMoney(1))],
    ['eq', () => eq('1', asMoney(1))],
    ['gt', () => gt(asMoney(2), '1')],
    ['lt', () => lt('1', asMoney(2))],
    ['isZero', () => isZero(asMoney(0))],
    ['isPositive', () => isPositive(asMoney(1))],
    ['isNegative', () => isNegative(asMoney(-1))],
    ['neg', () => neg(asMoney(1))],
    ['abs', () => abs(asMoney(-1))],
    ['min', () => min(asMoney(1), '2')],
    ['max', () => max('1', asMoney(2))],
    ['sum', () => sum(['1', asMoney(2)])],
    ['normalize', () => normalize(asMoney(0.1))],
    ['normalize (integer)', () => normalize(asMoney(5))],
    ['toScale', () => toScale(asMoney(1.005), 2, 'halfUp')],
    ['toScale (integer)', () => toScale(asMoney(5), 2)],
  ])('%s throws a TypeError', (_name, call) => {
    expect(call).toThrow(TypeError);
  });
});

describe('scaleOf', () => {
  it('counts the digits after the point', () => {
    expect(scaleOf('1')).toBe(0);
    expect(scaleOf('1.5')).toBe(1);
    expect(scaleOf('1.50')).toBe(2);
    expect(scaleOf('-0.000000000000000001')).toBe(18);
  });
});

describe('parseDecimal', () => {
  it('has the storage limits NUMERIC(38,18)', () => {
    expect(MAX_INTEGER_DIGITS).toBe(20);
    expect(MAX_SCALE).toBe(18);
  });

  it.each([
    ['12.50', '12.5'],
    ['100', '100'],
    ['0.000000000000000001', '0.000000000000000001'],
    ['12345678901234567890', '12345678901234567890'],
    ['12345678901234567890.123456789012345678', '12345678901234567890.123456789012345678'],
  ])('accepts %s and returns %s', (input, value) => {
    expect(parseDecimal(input)).toEqual({ ok: true, value });
  });

  it.each([
    ['a JS number', 12.5],
    ['an integer JS number', 12],
    ['null', null],
    ['undefined', undefined],
    ['an object', { value: '1' }],
    ['empty text', ''],
    ['spaces around', ' 1'],
    ['an exponent', '1e5'],
    ['a plus sign', '+1'],
    ['a leading zero', '01'],
    ['a bare fraction', '.5'],
    ['a trailing point', '1.'],
    ['a thousands separator', '1,000'],
    ['a comma as decimal point', '1,5'],
    ['full-width digits', '１２'],
    ['letters', 'abc'],
    ['more than 64 characters', `1.${'0'.repeat(63)}`],
  ])('refuses %s as format', (_label, input) => {
    expect(parseDecimal(input)).toEqual({ ok: false, problem: 'format' });
  });

  it('refuses more than 20 integer digits as range', () => {
    expect(parseDecimal('123456789012345678901')).toEqual({ ok: false, problem: 'range' });
    expect(parseDecimal('-123456789012345678901', { sign: 'any' })).toEqual({
      ok: false,
      problem: 'range',
    });
  });

  it('refuses too many decimals as scale', () => {
    expect(parseDecimal('1.234', { maxScale: 2 })).toEqual({ ok: false, problem: 'scale' });
    expect(parseDecimal('1.23', { maxScale: 2 })).toEqual({ ok: true, value: '1.23' });
    expect(parseDecimal('1.5', { maxScale: 0 })).toEqual({ ok: false, problem: 'scale' });
    expect(parseDecimal(`0.${'0'.repeat(18)}1`)).toEqual({ ok: false, problem: 'scale' });
  });

  it('never allows more than 18 decimals, whatever maxScale says', () => {
    expect(parseDecimal(`0.${'0'.repeat(18)}1`, { maxScale: 30 })).toEqual({
      ok: false,
      problem: 'scale',
    });
  });

  it('counts trailing zeros toward the scale', () => {
    expect(parseDecimal('1.500', { maxScale: 2 })).toEqual({ ok: false, problem: 'scale' });
  });

  it('requires a positive value by default', () => {
    expect(parseDecimal('0')).toEqual({ ok: false, problem: 'sign' });
    expect(parseDecimal('0.00')).toEqual({ ok: false, problem: 'sign' });
    expect(parseDecimal('-0')).toEqual({ ok: false, problem: 'sign' });
    expect(parseDecimal('-1')).toEqual({ ok: false, problem: 'sign' });
    expect(parseDecimal('0.01')).toEqual({ ok: true, value: '0.01' });
  });

  it('allows zero with nonNegative, never a negative value', () => {
    expect(parseDecimal('0', { sign: 'nonNegative' })).toEqual({ ok: true, value: '0' });
    expect(parseDecimal('-0', { sign: 'nonNegative' })).toEqual({ ok: true, value: '0' });
    expect(parseDecimal('-0.01', { sign: 'nonNegative' })).toEqual({ ok: false, problem: 'sign' });
  });

  it('allows any sign with any, normalizing -0 to 0', () => {
    expect(parseDecimal('-5.10', { sign: 'any' })).toEqual({ ok: true, value: '-5.1' });
    expect(parseDecimal('-0.00', { sign: 'any' })).toEqual({ ok: true, value: '0' });
  });

  it('applies inclusive min and max bounds', () => {
    const bounds = { min: '10', max: '100' };
    expect(parseDecimal('10', bounds)).toEqual({ ok: true, value: '10' });
    expect(parseDecimal('100.00', bounds)).toEqual({ ok: true, value: '100' });
    expect(parseDecimal('9.99', bounds)).toEqual({ ok: false, problem: 'range' });
    expect(parseDecimal('100.01', bounds)).toEqual({ ok: false, problem: 'range' });
    expect(parseDecimal('99999999999999999999', { max: '99999999999999999998' })).toEqual({
      ok: false,
      problem: 'range',
    });
  });

  it('reports the first problem in order format, range (digits), scale, sign, bounds', () => {
    expect(parseDecimal('-1.234', { maxScale: 2 })).toEqual({ ok: false, problem: 'scale' });
    expect(parseDecimal('123456789012345678901.5', { maxScale: 0 })).toEqual({
      ok: false,
      problem: 'range',
    });
    expect(parseDecimal('-5', { min: '1' })).toEqual({ ok: false, problem: 'sign' });
  });
});
