import { describe, expect, it } from 'vitest';
import {
  isDecimalString,
  isPositive,
  LANGUAGE_KEYS,
  PRODUCT_TYPE,
  PRODUCT_TYPES,
  scaleOf,
  type ProductType,
} from '@bourse/shared';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import type { SessionKind } from '../src/market/types';

const SESSION_OF_TYPE: Record<ProductType, SessionKind> = {
  [PRODUCT_TYPE.usStock]: 'usStock',
  [PRODUCT_TYPE.crypto]: 'crypto',
  [PRODUCT_TYPE.futures]: 'futures',
  [PRODUCT_TYPE.forex]: 'forex',
};

const ofType = (type: ProductType) => DEFAULT_CATALOGUE.filter((p) => p.productType === type);

describe('the default catalogue', () => {
  it('offers enough products of every type', () => {
    expect(ofType(PRODUCT_TYPE.usStock).length).toBeGreaterThanOrEqual(20);
    expect(ofType(PRODUCT_TYPE.crypto).length).toBeGreaterThanOrEqual(20);
    expect(ofType(PRODUCT_TYPE.futures).length).toBeGreaterThanOrEqual(10);
    expect(ofType(PRODUCT_TYPE.forex).length).toBeGreaterThanOrEqual(10);
    for (const product of DEFAULT_CATALOGUE) expect(PRODUCT_TYPES).toContain(product.productType);
  });

  it('has well-formed codes, unique within each type', () => {
    for (const type of PRODUCT_TYPES) {
      const codes = ofType(type).map((p) => p.code);
      expect(new Set(codes).size, `duplicate code in type ${type}`).toBe(codes.length);
      for (const code of codes) expect(code).toMatch(/^[A-Z0-9.]{1,16}$/);
    }
  });

  it('names every product in all 19 languages', () => {
    expect(LANGUAGE_KEYS).toHaveLength(19);
    for (const product of DEFAULT_CATALOGUE) {
      expect(Object.keys(product.names).sort()).toEqual([...LANGUAGE_KEYS].sort());
      for (const key of LANGUAGE_KEYS) {
        const name = product.names[key];
        expect(typeof name, `${product.code} ${key}`).toBe('string');
        expect(name.trim().length, `${product.code} has no ${key} name`).toBeGreaterThan(0);
        expect(name, `${product.code} ${key} has stray spaces`).toBe(name.trim());
      }
      expect(product.description.trim().length, `${product.code} description`).toBeGreaterThan(0);
    }
  });

  it('states amounts as positive decimal strings, prices within the price scale', () => {
    for (const product of DEFAULT_CATALOGUE) {
      const { code, priceScale, referencePrice, lotSize, dailyVolume } = product;
      expect(Number.isInteger(priceScale) && priceScale >= 0 && priceScale <= 18, code).toBe(true);
      for (const [field, value] of Object.entries({ referencePrice, lotSize, dailyVolume })) {
        expect(isDecimalString(value), `${code} ${field} = ${value}`).toBe(true);
        expect(isPositive(value), `${code} ${field} = ${value}`).toBe(true);
      }
      expect(scaleOf(referencePrice), `${code} referencePrice`).toBeLessThanOrEqual(priceScale);
      expect(product.volatility, code).toBeGreaterThan(0);
      expect(product.volatility, code).toBeLessThanOrEqual(2);
    }
  });

  it('offers ascending integer leverages starting at 1', () => {
    for (const { code, leverages } of DEFAULT_CATALOGUE) {
      expect(leverages[0], code).toBe(1);
      for (const [index, leverage] of leverages.entries()) {
        expect(Number.isInteger(leverage) && leverage > 0, `${code} ${leverage}`).toBe(true);
        if (index > 0) expect(leverage, code).toBeGreaterThan(leverages[index - 1]!);
      }
    }
  });

  it('trades each product in the session of its type', () => {
    for (const product of DEFAULT_CATALOGUE)
      expect(product.session, product.code).toBe(SESSION_OF_TYPE[product.productType]);
  });

  it('feeds crypto from the Binance symbol equal to the code', () => {
    for (const product of ofType(PRODUCT_TYPE.crypto)) {
      expect(product.sourceSymbol, product.code).toBe(product.code);
      expect(product.code).toMatch(/USDT$/);
    }
  });

  it('orders each type by ascending, unique sort values', () => {
    for (const type of PRODUCT_TYPES) {
      const sorts = ofType(type).map((p) => p.sort);
      expect(new Set(sorts).size).toBe(sorts.length);
      expect(sorts).toEqual([...sorts].sort((a, b) => a - b));
    }
  });

  it('recommends a few products of every type', () => {
    const recommended = DEFAULT_CATALOGUE.filter((p) => p.recommended);
    expect(recommended.length).toBeGreaterThanOrEqual(8);
    for (const type of PRODUCT_TYPES)
      expect(
        recommended.some((p) => p.productType === type),
        `type ${type}`,
      ).toBe(true);
  });
});
