/**
 * Exchange rates between platform currencies, for valuing balances in the default trade
 * currency. Rates come only from market data; until a feed provides one, a currency has no rate
 * and is reported as unpriced rather than valued at an invented price.
 */
import type { DecimalString } from '@bourse/shared';

export interface RateSource {
  /** Units of `toCurrencyId` per unit of `fromCurrencyId`, or null when no market price exists. */
  rate(fromCurrencyId: number, toCurrencyId: number): DecimalString | null;
}

/** Knows only that a currency is worth itself. */
export const identityRates: RateSource = {
  rate: (fromCurrencyId, toCurrencyId) => (fromCurrencyId === toCurrencyId ? '1' : null),
};
