import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_KEYS } from './constants';
import { PASSWORD_PROBLEM } from './validators';

const localesDir = new URL('../locales/', import.meta.url);

function readLocale(key: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(readFileSync(new URL(`${key}.json`, localesDir), 'utf8'));
  expect(parsed, `${key}.json must hold a flat object`).toBeTypeOf('object');
  expect(Array.isArray(parsed)).toBe(false);
  return parsed as Record<string, unknown>;
}

/** The distinct `{n}` placeholders of a message, sorted. */
function placeholders(text: string): string[] {
  return [...new Set(text.match(/\{\d+\}/g) ?? [])].sort();
}

const en = readLocale('en');
const enKeys = Object.keys(en).sort();

describe('locale files', () => {
  it('exist for exactly the 19 language keys', () => {
    expect(LANGUAGE_KEYS).toHaveLength(19);
    const files = readdirSync(localesDir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .sort();
    expect(files).toEqual([...LANGUAGE_KEYS].sort());
    for (const key of LANGUAGE_KEYS) {
      expect(existsSync(new URL(`${key}.json`, localesDir)), `${key}.json`).toBe(true);
    }
  });

  it('English has the keys the code relies on', () => {
    for (const key of [
      ...Object.values(PASSWORD_PROBLEM),
      'hint_48',
      'hint_amountAsText',
      'hint_amount_format',
      'hint_amount_scale',
      'hint_amount_range',
      'hint_amount_sign',
      'time_justNow',
      'time_minutesAgo',
      'time_hoursAgo',
      'time_daysAgo',
      'time_monthsAgo',
      'time_yearsAgo',
    ]) {
      expect(en, key).toHaveProperty([key]);
    }
    expect(en.net_timeout).toBe('Request timeout');
    expect(en.net_error).toBe('Interface exception, please try again later');
    expect(en.img_compressFailed).toBe('Compression failed');
  });

  describe.each([...LANGUAGE_KEYS])('%s.json', (key) => {
    const locale = readLocale(key);

    it('has every key of en.json and no other key', () => {
      const keys = Object.keys(locale).sort();
      expect(
        enKeys.filter((k) => !(k in locale)),
        'missing keys',
      ).toEqual([]);
      expect(
        keys.filter((k) => !(k in en)),
        'extra keys',
      ).toEqual([]);
    });

    it('has a non-empty text for every key', () => {
      const bad = Object.entries(locale)
        .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
        .map(([k]) => k);
      expect(bad).toEqual([]);
    });

    it('uses the same {n} placeholders as English for every key', () => {
      const mismatched = enKeys
        .filter((k) => typeof locale[k] === 'string')
        .filter(
          (k) => placeholders(locale[k] as string).join() !== placeholders(en[k] as string).join(),
        );
      expect(mismatched).toEqual([]);
    });
  });

  it("zh.json carries the spec's three password messages exactly", () => {
    const zh = readLocale('zh');
    expect(zh.pwd_minLength).toBe('最少8个字符;');
    expect(zh.pwd_needLetter).toBe('必须包含字母;');
    expect(zh.pwd_lettersDigitsOnly).toBe('只能使用字母和数字;');
  });
});
