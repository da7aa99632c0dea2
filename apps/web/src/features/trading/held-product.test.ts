/**
 * A halt never locks a holding (PRODUCT section 1, rule 8): the order forms refuse buys and opens
 * on a halted product but not sells, and a product the market no longer lists (hidden) that the
 * user holds still gets a sell form.
 */
import { describe, expect, it } from 'vitest';
import { isMultipleOf } from '@bourse/shared';
import { closedReason } from './parts';
import { heldProduct } from './trading-api';

describe('halted and hidden products in the order forms', () => {
  it('stops buying and opening on a halted product, never selling', () => {
    const halted = { isLock: 1, marketOpen: true };
    expect(closedReason(halted)).toBe('hint_productHalted');
    expect(closedReason(halted, true)).toBe('hint_productHalted');
    expect(closedReason(halted, false)).toBeUndefined();
    // The session still counts for a sell.
    expect(closedReason({ isLock: 1, marketOpen: false }, false)).toBe('hint_marketClosed');
    expect(closedReason({ isLock: 0, marketOpen: true }, true)).toBeUndefined();
  });

  it('makes a sell-only product of a holding the market no longer lists', () => {
    const product = heldProduct({
      productType: 2,
      productCode: 'BTCUSDT',
      productName: 'Bitcoin',
      quantities: ['0.0300', '0.0125'],
      price: '101234.50',
    });
    expect(product).toMatchObject({
      productType: 2,
      productCode: 'BTCUSDT',
      productName: 'Bitcoin',
      isLock: 1,
      marketOpen: true,
      standard: '0.0001',
      priceScale: 2,
    });
    expect(closedReason(product, true)).toBe('hint_productHalted');
    expect(closedReason(product, false)).toBeUndefined();
    // Whole lots of the product's own lot (0.0001) are whole lots of the one worked out.
    for (const quantity of ['0.03', '0.0125', '0.0175'])
      expect(isMultipleOf(quantity, product.standard)).toBe(true);
    expect(
      heldProduct({ productType: 1, productCode: 'AAPL', quantities: ['3', '0'], price: null }),
    ).toMatchObject({ productName: 'AAPL', standard: '1', priceScale: 2 });
  });
});
