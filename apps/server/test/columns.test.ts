import { describe, expect, it } from 'vitest';
import { assignments, columnParams, placeholders } from '../src/db/columns';

const COLUMNS = `channel_type, channel_name,
  pay_url, channel_name_lang, leverages, created_at`;

describe('writing a row from its column list', () => {
  it('numbers one placeholder a column, from where it is told', () => {
    expect(placeholders(COLUMNS)).toBe('$1, $2, $3, $4, $5, $6');
    expect(placeholders('a, b', 3)).toBe('$3, $4');
  });

  it('numbers the SET list the same way', () => {
    expect(assignments('channel_type, pay_url', 2)).toBe('channel_type = $2, pay_url = $3');
  });

  it('reads each value from the camelCase key: missing is NULL, a language map JSON, the rest as is', () => {
    const at = new Date('2026-11-27T00:00:00Z');
    const params = columnParams(COLUMNS, {
      channelType: 2,
      channelName: 'USDT',
      channelNameLang: { en: 'Tether', ar: 'تيثر' },
      leverages: [1, 5],
      createdAt: at,
      unrelated: 'ignored',
    });
    expect(params).toEqual([2, 'USDT', null, '{"en":"Tether","ar":"تيثر"}', [1, 5], at]);
    expect(params[5]).toBe(at);
  });

  it('keeps an explicit null', () => {
    expect(columnParams('pay_url', { payUrl: null })).toEqual([null]);
  });
});
