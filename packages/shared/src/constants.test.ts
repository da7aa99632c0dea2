import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LANGUAGE,
  DIRECTION,
  DIRECTIONS,
  DURATION_UNIT_SECONDS,
  IMAGE_RULES,
  LANGUAGES,
  LANGUAGE_KEYS,
  OTHER_VALUE_DEFAULTS,
  POSITION_TYPE,
  POSITION_TYPES,
  PRODUCT_TYPE,
  PRODUCT_TYPES,
  SWITCH,
  UI,
  VERIFICATION_CODE,
  durationToSeconds,
  isLanguageKey,
  languageById,
  languageByKey,
  resolveLanguage,
} from './constants';

/** SEED-SPEC section 9: language ids. */
const SPEC_LANGUAGE_IDS: Record<string, number> = {
  ar: 18,
  blr: 15,
  de: 4,
  en: 2,
  es: 5,
  fr: 6,
  ida: 16,
  idn: 7,
  it: 19,
  jp: 8,
  ko: 9,
  my: 10,
  pt: 13,
  rus: 14,
  sa: 17,
  tc: 3,
  th: 11,
  vi: 12,
  zh: 1,
};

describe('languages', () => {
  it('has exactly the 19 spec keys with the spec ids', () => {
    expect(LANGUAGES).toHaveLength(19);
    const ids = Object.fromEntries(LANGUAGES.map((language) => [language.key, language.id]));
    expect(ids).toEqual(SPEC_LANGUAGE_IDS);
  });

  it('lists the keys of LANGUAGES in LANGUAGE_KEYS', () => {
    expect([...LANGUAGE_KEYS].sort()).toEqual(Object.keys(SPEC_LANGUAGE_IDS).sort());
  });

  it('uses unique keys and unique ids 1 to 19', () => {
    expect(new Set(LANGUAGES.map((l) => l.key)).size).toBe(19);
    const ids = LANGUAGES.map((l) => l.id).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
  });

  it('marks only ar and sa as right-to-left', () => {
    const rtl = LANGUAGES.filter((l) => l.rtl)
      .map((l) => l.key)
      .sort();
    expect(rtl).toEqual(['ar', 'sa']);
  });

  it('defaults to English', () => {
    expect(DEFAULT_LANGUAGE).toBe('en');
  });

  it('maps the keys whose meaning is not obvious to the right BCP-47 tags', () => {
    const tags = Object.fromEntries(LANGUAGES.map((l) => [l.key, l.bcp47]));
    expect(tags).toMatchObject({
      zh: 'zh-Hans',
      tc: 'zh-Hant',
      jp: 'ja',
      idn: 'id',
      ida: 'hi',
      my: 'ms',
      rus: 'ru',
      blr: 'be',
      sa: 'ar-SA',
      ar: 'ar',
    });
  });

  it('finds languages by key and by id', () => {
    expect(languageByKey('jp')?.id).toBe(8);
    expect(languageByKey('ja')).toBeUndefined();
    expect(languageById(17)?.key).toBe('sa');
    expect(languageById(0)).toBeUndefined();
    expect(languageById(20)).toBeUndefined();
    expect(isLanguageKey('tc')).toBe(true);
    expect(isLanguageKey('zh-TW')).toBe(false);
    expect(isLanguageKey('EN')).toBe(false);
    expect(isLanguageKey(2)).toBe(false);
    expect(isLanguageKey(undefined)).toBe(false);
  });
});

describe('resolveLanguage', () => {
  it.each(Object.entries(SPEC_LANGUAGE_IDS))(
    'LanguageId header of %s (%i) selects it',
    (key, id) => {
      expect(resolveLanguage(String(id))).toBe(key);
    },
  );

  it('lets the LanguageId header win over Accept-Language', () => {
    expect(resolveLanguage('1', 'en-US,en;q=0.9')).toBe('zh');
    expect(resolveLanguage(' 8 ', 'de')).toBe('jp');
  });

  it('falls back to Accept-Language when the LanguageId is unknown or not a number', () => {
    expect(resolveLanguage('99', 'de')).toBe('de');
    expect(resolveLanguage('0', 'fr')).toBe('fr');
    expect(resolveLanguage('abc', 'ko')).toBe('ko');
    expect(resolveLanguage('1.5', 'it')).toBe('it');
    expect(resolveLanguage('-1', 'vi')).toBe('vi');
    expect(resolveLanguage('', 'th')).toBe('th');
    expect(resolveLanguage(null, 'es')).toBe('es');
  });

  it.each(Object.keys(SPEC_LANGUAGE_IDS))('accepts the spec key %s in Accept-Language', (key) => {
    expect(resolveLanguage(undefined, key)).toBe(key);
  });

  it.each([
    ['zh-TW', 'tc'],
    ['zh-HK', 'tc'],
    ['zh-MO', 'tc'],
    ['zh-Hant', 'tc'],
    ['zh-Hant-TW', 'tc'],
    ['zh-CN', 'zh'],
    ['zh-Hans', 'zh'],
    ['zh-SG', 'zh'],
    ['ar-SA', 'sa'],
    ['ar-sa', 'sa'],
    ['ar-EG', 'ar'],
    ['ja', 'jp'],
    ['ja-JP', 'jp'],
    ['ru-RU', 'rus'],
    ['be', 'blr'],
    ['be-BY', 'blr'],
    ['hi-IN', 'ida'],
    ['id', 'idn'],
    ['id-ID', 'idn'],
    ['ms-MY', 'my'],
    ['pt-BR', 'pt'],
    ['en-US', 'en'],
    ['EN-gb', 'en'],
    ['DE', 'de'],
    ['es-419', 'es'],
    ['ko-KR', 'ko'],
    ['fr-CA', 'fr'],
  ])('maps the BCP-47 tag %s to %s', (tag, key) => {
    expect(resolveLanguage(null, tag)).toBe(key);
  });

  it('reads q-values off the tags and takes the first acceptable entry', () => {
    expect(resolveLanguage(null, 'fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toBe('fr');
    expect(resolveLanguage(null, 'xx-YY;q=1, ja;q=0.8, en;q=0.5')).toBe('jp');
    expect(resolveLanguage(null, ' ;q=0.9 , de-DE ; q=0.8')).toBe('de');
  });

  it('prefers the entry with the highest q-value, whatever the order', () => {
    expect(resolveLanguage(null, 'de;q=0.5, fr;q=0.9')).toBe('fr');
  });

  it('skips entries marked not acceptable (q=0)', () => {
    expect(resolveLanguage(null, 'fr;q=0, de')).toBe('de');
  });

  it.each([
    ['nothing', undefined],
    ['null', null],
    ['empty text', ''],
    ['garbage', '***'],
    ['only commas', ',,,'],
    ['a wildcard', '*'],
    ['an unknown language', 'xx-YY'],
    ['a made-up word', 'klingon'],
    ['markup', '<script>alert(1)</script>'],
  ])('falls back to en for %s', (_label, acceptLanguage) => {
    expect(resolveLanguage(undefined, acceptLanguage)).toBe('en');
    expect(resolveLanguage('abc', acceptLanguage)).toBe('en');
  });
});

describe('product, position, direction and duration constants', () => {
  it('numbers product types 1 US stock, 2 crypto, 3 futures, 4 forex', () => {
    expect(PRODUCT_TYPE).toEqual({ usStock: 1, crypto: 2, futures: 3, forex: 4 });
    expect(PRODUCT_TYPES).toEqual([1, 2, 3, 4]);
  });

  it('numbers position types 极速 0, 合约 1, 现货 2, 币币 3', () => {
    expect(POSITION_TYPE).toEqual({ fast: 0, contract: 1, spot: 2, coinToCoin: 3 });
    expect(POSITION_TYPES).toEqual([0, 1, 2, 3]);
  });

  it('numbers directions 买入 1, 卖出 2', () => {
    expect(DIRECTION).toEqual({ buy: 1, sell: 2 });
    expect(DIRECTIONS).toEqual([1, 2]);
  });

  it('uses duration units s 1, M 60, H 3600, D 86400 seconds', () => {
    expect(DURATION_UNIT_SECONDS).toEqual({ s: 1, M: 60, H: 3600, D: 86400 });
    expect(durationToSeconds(30, 's')).toBe(30);
    expect(durationToSeconds(5, 'M')).toBe(300);
    expect(durationToSeconds(2, 'H')).toBe(7200);
    expect(durationToSeconds(3, 'D')).toBe(259_200);
  });
});

describe('otherValue defaults', () => {
  it('are exactly the spec list', () => {
    expect(OTHER_VALUE_DEFAULTS).toEqual({
      default_trade_currency_id: 3,
      default_transId: 5,
      app_decimal_no: 2,
      scoreTips: 1,
      showMsgTime: 1,
      app_order_time: 1,
      app_fast_fee: 1,
      app_order_change: 1,
      app_logo_type: 1,
      app_fastFree: 1,
      app_withdrawAll: 1,
      app_showFreeze: 1,
      app_adress_num: 0,
    });
  });
});

describe('other spec constants', () => {
  it('names the three display switches', () => {
    expect(SWITCH.thousandsSeparator).toBe('thousandsSeparator');
    expect(SWITCH.maskBankCard).toBe('maskBankCard');
    expect(SWITCH.maskWalletAddress).toBe('maskWalletAddress');
  });

  it('carries the UI numbers of sections 1, 5 and 9', () => {
    expect(UI).toMatchObject({
      tabBarBackground: '#1B1B23',
      tabSelectedColor: '#F1A802',
      primaryColor: '#2979ff',
      toastZIndex: 10090,
      toastDurationMs: 2000,
      helperToastDurationMs: 1500,
      imageToastDurationMs: 700,
      pageTransitionMs: 300,
      debounceMs: 300,
      requestTimeoutMs: 60_000,
      pageLoadingDelayMs: 200,
      verificationCodeCountdownSeconds: 60,
      verificationCodeLength: 6,
      textAreaMaxLength: 140,
      uploadMaxCount: 52,
      datePickerRangeYears: 10,
      homeRecommendPageSize: 50,
      textListPageSize: 30,
    });
    expect(VERIFICATION_CODE).toMatchObject({ length: 6, resendSeconds: 60 });
  });

  it('carries the image rules of section 5', () => {
    expect(IMAGE_RULES).toMatchObject({
      targetWidth: 800,
      outputMimeType: 'image/jpeg',
      defaultQuality: 0.7,
      maxLongSide: 3264,
      maxShortSide: 2448,
      scaleStep: 0.8,
    });
  });
});
