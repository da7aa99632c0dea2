import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isolateLtr,
  notificationParams,
  UNKNOWN_VALUE,
  formatAmount,
  formatDateTime,
  formatMessage,
  friendlyTime,
  maskBankCard,
  maskWalletAddress,
  timeAgo,
  type TimeAgoKey,
} from './format';

const en = JSON.parse(
  readFileSync(new URL('../locales/en.json', import.meta.url), 'utf8'),
) as Record<string, string>;

describe('formatAmount', () => {
  it('shows unknown values as "- -"', () => {
    expect(UNKNOWN_VALUE).toBe('- -');
  });

  it('groups thousands and shows 2 decimals by default (halfUp)', () => {
    expect(formatAmount('1234567.891')).toBe('1,234,567.89');
    expect(formatAmount('1234567.895')).toBe('1,234,567.90');
    expect(formatAmount('0')).toBe('0.00');
    expect(formatAmount('999')).toBe('999.00');
    expect(formatAmount('1000')).toBe('1,000.00');
    expect(formatAmount('100000')).toBe('100,000.00');
    expect(formatAmount('1000000')).toBe('1,000,000.00');
  });

  it('leaves thousands out when the switch is off', () => {
    expect(formatAmount('1234567.891', { thousands: false })).toBe('1234567.89');
    expect(formatAmount('-1234567', { thousands: false, decimals: 0 })).toBe('-1234567');
  });

  it('honours the configured decimals', () => {
    expect(formatAmount('1234.5', { decimals: 4 })).toBe('1,234.5000');
    expect(formatAmount('1234567.5', { decimals: 0 })).toBe('1,234,568');
    expect(formatAmount('0.123456789', { decimals: 8 })).toBe('0.12345679');
  });

  it('rounds half up by default and follows the rounding option', () => {
    expect(formatAmount('0.125')).toBe('0.13');
    expect(formatAmount('1.005')).toBe('1.01');
    expect(formatAmount('0.125', { rounding: 'down' })).toBe('0.12');
    expect(formatAmount('0.125', { rounding: 'halfEven' })).toBe('0.12');
    expect(formatAmount('0.121', { rounding: 'up' })).toBe('0.13');
  });

  it('formats negative values with the sign before the groups', () => {
    expect(formatAmount('-1234567.5')).toBe('-1,234,567.50');
    expect(formatAmount('-999.999')).toBe('-1,000.00');
    expect(formatAmount('-100', { decimals: 0 })).toBe('-100');
  });

  it('never shows a negative zero', () => {
    expect(formatAmount('-0.001')).toBe('0.00');
    expect(formatAmount('-0.004', { decimals: 0 })).toBe('0');
    expect(formatAmount('-0')).toBe('0.00');
    expect(formatAmount('-0.005')).toBe('-0.01');
  });

  it('keeps every digit of huge and very precise values', () => {
    expect(formatAmount('12345678901234567890.123456789', { decimals: 9 })).toBe(
      '12,345,678,901,234,567,890.123456789',
    );
    expect(formatAmount('99999999999999999999.995')).toBe('100,000,000,000,000,000,000.00');
    expect(formatAmount('9007199254740993', { decimals: 0, thousands: false })).toBe(
      '9007199254740993',
    );
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['empty text', ''],
    ['letters', 'abc'],
    ['an exponent', '1e5'],
    ['grouped text', '1,000'],
    ['spaces around', ' 1 '],
    ['a bare fraction', '.5'],
    ['NaN text', 'NaN'],
  ])('shows %s as "- -"', (_label, value) => {
    expect(formatAmount(value)).toBe('- -');
  });

  it('shows a JS number as "- -" instead of formatting a float', () => {
    expect(formatAmount(1234.5 as unknown as string)).toBe('- -');
    expect(formatAmount(Number.NaN as unknown as string)).toBe('- -');
  });
});

describe('formatDateTime', () => {
  it('runs with TZ=UTC', () => {
    expect(new Date('2024-03-05T07:08:09Z').getTimezoneOffset()).toBe(0);
  });

  it('formats yyyy/MM/dd HH:mm in local time (UTC here), zero-padded', () => {
    expect(formatDateTime('2024-03-05T07:08:09Z')).toBe('2024/03/05 07:08');
    expect(formatDateTime(new Date('2024-12-31T23:59:59.999Z'))).toBe('2024/12/31 23:59');
    expect(formatDateTime(0)).toBe('1970/01/01 00:00');
    expect(formatDateTime(Date.UTC(2024, 1, 29, 13, 5))).toBe('2024/02/29 13:05');
  });

  it('formats in an explicit time zone', () => {
    expect(formatDateTime('2024-03-05T07:08:09Z', 'Asia/Shanghai')).toBe('2024/03/05 15:08');
    expect(formatDateTime('2024-12-31T16:30:00Z', 'Asia/Shanghai')).toBe('2025/01/01 00:30');
    expect(formatDateTime('2024-01-01T03:00:00Z', 'America/New_York')).toBe('2023/12/31 22:00');
    expect(formatDateTime('2024-07-01T03:00:00Z', 'America/New_York')).toBe('2024/06/30 23:00');
    expect(formatDateTime('2024-03-05T07:08:09Z', 'UTC')).toBe('2024/03/05 07:08');
  });

  it('writes midnight as 00, never 24', () => {
    expect(formatDateTime('2024-03-05T16:00:00Z', 'Asia/Shanghai')).toBe('2024/03/06 00:00');
    expect(formatDateTime('2024-03-06T00:00:00Z')).toBe('2024/03/06 00:00');
  });

  it('shows an invalid date as "- -"', () => {
    expect(formatDateTime('not a date')).toBe('- -');
    expect(formatDateTime(Number.NaN)).toBe('- -');
    expect(formatDateTime(new Date('nope'), 'Asia/Shanghai')).toBe('- -');
  });
});

describe('timeAgo', () => {
  const now = Date.UTC(2024, 5, 15, 12, 0, 0);
  const secondsAgo = (seconds: number) => now - seconds * 1000;
  const DAY = 86_400;

  it.each([
    [0, { key: 'time_justNow' }],
    [1, { key: 'time_justNow' }],
    [299, { key: 'time_justNow' }],
    [299.999, { key: 'time_justNow' }],
    [300, { key: 'time_minutesAgo', count: 5 }],
    [359, { key: 'time_minutesAgo', count: 5 }],
    [360, { key: 'time_minutesAgo', count: 6 }],
    [3599, { key: 'time_minutesAgo', count: 59 }],
    [3600, { key: 'time_hoursAgo', count: 1 }],
    [7199, { key: 'time_hoursAgo', count: 1 }],
    [86_399, { key: 'time_hoursAgo', count: 23 }],
    [DAY, { key: 'time_daysAgo', count: 1 }],
    [2 * DAY - 1, { key: 'time_daysAgo', count: 1 }],
    [30 * DAY, { key: 'time_daysAgo', count: 30 }],
    [31 * DAY - 1, { key: 'time_daysAgo', count: 30 }],
    [31 * DAY, { key: 'time_monthsAgo', count: 1 }],
    [59 * DAY, { key: 'time_monthsAgo', count: 1 }],
    [60 * DAY, { key: 'time_monthsAgo', count: 2 }],
    [364 * DAY, { key: 'time_monthsAgo', count: 12 }],
    [365 * DAY, { key: 'time_yearsAgo', count: 1 }],
    [729 * DAY, { key: 'time_yearsAgo', count: 1 }],
    [730 * DAY, { key: 'time_yearsAgo', count: 2 }],
  ])('%s s ago -> %o', (seconds, expected) => {
    expect(timeAgo(secondsAgo(seconds), now)).toEqual(expected);
  });

  it('treats future times as just now', () => {
    expect(timeAgo(now + 1000, now)).toEqual({ key: 'time_justNow' });
    expect(timeAgo(now + 400 * DAY * 1000, now)).toEqual({ key: 'time_justNow' });
  });

  it('accepts Date objects and ISO text', () => {
    expect(timeAgo(new Date('2024-06-15T11:00:00Z'), new Date(now))).toEqual({
      key: 'time_hoursAgo',
      count: 1,
    });
    expect(timeAgo('2024-06-15T11:55:00Z', now)).toEqual({ key: 'time_minutesAgo', count: 5 });
  });

  it('measures against the current time by default', () => {
    expect(timeAgo(Date.now() - 10 * 60 * 1000)).toEqual({ key: 'time_minutesAgo', count: 10 });
    expect(timeAgo(new Date())).toEqual({ key: 'time_justNow' });
  });
});

describe('friendlyTime', () => {
  const now = Date.UTC(2024, 5, 15, 12, 0, 0);
  const translate = (key: TimeAgoKey, params: unknown[]) => formatMessage(en[key] ?? key, params);

  it('uses time-ago within a day', () => {
    expect(friendlyTime(now - 299_000, translate, now)).toBe('just now');
    expect(friendlyTime(now - 300_000, translate, now)).toBe('5 minutes ago');
    expect(friendlyTime(now - 3_600_000, translate, now)).toBe('1 hours ago');
    expect(friendlyTime(now - 86_399_000, translate, now)).toBe('23 hours ago');
  });

  it('passes the count as the only parameter, none for just now', () => {
    const calls: [TimeAgoKey, unknown[]][] = [];
    const record = (key: TimeAgoKey, params: unknown[]) => {
      calls.push([key, params]);
      return 'x';
    };
    friendlyTime(now - 10_000, record, now);
    friendlyTime(now - 7_200_000, record, now);
    expect(calls).toEqual([
      ['time_justNow', []],
      ['time_hoursAgo', [2]],
    ]);
  });

  it('switches to yyyy/MM/dd HH:mm once the time is more than a day old', () => {
    expect(friendlyTime(now - 86_401_000, translate, now)).toBe('2024/06/14 11:59');
    expect(friendlyTime(now - 86_400_001, translate, now)).toBe('2024/06/14 11:59');
    expect(friendlyTime(Date.UTC(2023, 0, 2, 3, 4), translate, now)).toBe('2023/01/02 03:04');
    expect(friendlyTime('2024-06-10T08:30:00Z', translate, now, 'Asia/Shanghai')).toBe(
      '2024/06/10 16:30',
    );
  });

  it('does not call translate for full dates', () => {
    const translateSpy = () => {
      throw new Error('translate must not be called');
    };
    expect(friendlyTime(now - 2 * 86_400_000, translateSpy, now)).toBe('2024/06/13 12:00');
  });

  it('shows future times as just now', () => {
    expect(friendlyTime(now + 60_000, translate, now)).toBe('just now');
  });
});

describe('maskBankCard', () => {
  it('keeps 2 digits at each end of numbers shorter than 9', () => {
    expect(maskBankCard('12345678')).toBe('12****78');
    expect(maskBankCard('1234567')).toBe('12***67');
    expect(maskBankCard('12345')).toBe('12*45');
  });

  it('keeps 4 digits at each end of numbers of 9 or more', () => {
    expect(maskBankCard('123456789')).toBe('1234*6789');
    expect(maskBankCard('6222021234567890')).toBe('6222********7890');
    expect(maskBankCard('6222021234567890123')).toBe('6222***********0123');
  });

  it('removes spaces before masking', () => {
    expect(maskBankCard('6222 0212 3456 7890')).toBe('6222********7890');
    expect(maskBankCard(' 1234 5678 ')).toBe('12****78');
    expect(maskBankCard('1234\t5678\n9')).toBe('1234*6789');
  });

  it('shows numbers too short to hide anything whole', () => {
    expect(maskBankCard('')).toBe('');
    expect(maskBankCard('1')).toBe('1');
    expect(maskBankCard('123')).toBe('123');
    expect(maskBankCard('1234')).toBe('1234');
    expect(maskBankCard('12 34')).toBe('1234');
  });
});

describe('maskWalletAddress', () => {
  it('shows addresses shorter than 8 characters whole', () => {
    expect(maskWalletAddress('')).toBe('');
    expect(maskWalletAddress('abc')).toBe('abc');
    expect(maskWalletAddress('1234567')).toBe('1234567');
  });

  it('keeps the first 8 characters and stars the rest', () => {
    expect(maskWalletAddress('12345678')).toBe('12345678');
    expect(maskWalletAddress('123456789')).toBe('12345678*');
    expect(maskWalletAddress('TXYZabcd1234')).toBe('TXYZabcd****');
    const eth = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(maskWalletAddress(eth)).toBe(`0x529084${'*'.repeat(34)}`);
  });
});

describe('formatMessage', () => {
  it('fills {0} and {1}', () => {
    expect(formatMessage('{0} is required', ['Phone'])).toBe('Phone is required');
    expect(formatMessage('{0} must be at most {1} characters', ['Nickname', 32])).toBe(
      'Nickname must be at most 32 characters',
    );
    expect(formatMessage('{1} before {0}', ['a', 'b'])).toBe('b before a');
  });

  it('fills repeated placeholders and two-digit indexes', () => {
    expect(formatMessage('{0}-{0}', ['x'])).toBe('x-x');
    const params = Array.from({ length: 11 }, (_, i) => `p${i}`);
    expect(formatMessage('{10}/{1}', params)).toBe('p10/p1');
  });

  it('writes falsy values that are present', () => {
    expect(formatMessage('{0}|{1}|{2}', [0, false, ''])).toBe('0|false|');
  });

  it('leaves missing parameters visible', () => {
    expect(formatMessage('{0} {1}', ['a'])).toBe('a {1}');
    expect(formatMessage('Wait {0} seconds')).toBe('Wait {0} seconds');
    expect(formatMessage('{0}', [null])).toBe('{0}');
    expect(formatMessage('{0}', [undefined])).toBe('{0}');
  });

  it('leaves text that is not a placeholder alone', () => {
    expect(formatMessage('{x} {} {-1} {100}', ['a'])).toBe('{x} {} {-1} {100}');
    expect(formatMessage('no placeholders', ['a'])).toBe('no placeholders');
  });

  it('inserts parameters literally, without replacement patterns', () => {
    expect(formatMessage('{0}', ['$&'])).toBe('$&');
    expect(formatMessage('{0}', ['{1}'])).toBe('{1}');
  });
});

describe('notificationParams', () => {
  it('keeps figures, codes and dates left to right and words as they are', () => {
    const ltr = [
      '-12.50',
      '1,000.00',
      'NOVAUSDT',
      'NS20261128000123',
      '2026-11-29 00:00 UTC',
      '2026-11-29',
      '2026-11-29T00:00:00.000Z',
    ];
    expect(notificationParams(ltr)).toEqual(ltr.map(isolateLtr));
    const words = ['USDT', 'Suspicious activity', 'BTC/USDT', 'بسبب التحقق'];
    expect(notificationParams(words)).toEqual(words);
  });
});
