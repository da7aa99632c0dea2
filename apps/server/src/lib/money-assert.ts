/**
 * Assertions where money is decided (ARCHITECTURE convention 6): a figure a service is about to
 * freeze, charge or pay must be a plain decimal at the currency's scale with the sign it must
 * have. A figure that is not is a bug, never a user's mistake: it throws an AssertionError, which
 * the HTTP layer logs and answers with a generic 500, and the transaction moves nothing. What a
 * user got wrong is refused earlier with a named hint key.
 */
import {
  isDecimalString,
  isNegative,
  isPositive,
  scaleOf,
  type DecimalString,
} from '@bourse/shared';
import { assert } from './errors';

export type AmountSign = 'positive' | 'nonNegative';

export function assertAmount(
  value: DecimalString,
  what: string,
  scale: number,
  sign: AmountSign = 'positive',
): void {
  assert(isDecimalString(value), `${what}: ${JSON.stringify(value)} is not a decimal`);
  assert(scaleOf(value) <= scale, `${what}: ${value} has more than ${scale} decimals`);
  assert(
    sign === 'positive' ? isPositive(value) : !isNegative(value),
    `${what}: ${value} is not ${sign === 'positive' ? 'positive' : 'zero or more'}`,
  );
}
