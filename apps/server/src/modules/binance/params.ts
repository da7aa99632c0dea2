/**
 * The parameters of a call in Binance's dialect: read from the raw query string and, for signed
 * calls, the raw form body (the texts the signature covers, so what is verified is what is read),
 * each at most once, every one of them read by the endpoint or the call refused (-1104), as
 * Binance does. Values are checked here with Binance's codes; decimals stay strings.
 */
import { normalize, scaleOf, MAX_SCALE } from '@bourse/shared';
import { refusals } from './errors';

/** Parameters a call may carry at most (Binance's endpoints take fewer than 30). */
const MAX_PARAMETERS = 40;
/** Binance's own decimal syntax: digits, an optional fraction, no sign or exponent. */
const DECIMAL = /^(\d{1,20})(\.\d{1,20})?$/;
const DECIMAL_RANGE = '^([0-9]{1,20})(\\.[0-9]{1,20})?$';
const INTEGER = /^\d{1,16}$/;

export class Params {
  private readonly values = new Map<string, string>();
  private readonly read = new Set<string>();

  /** `texts`: raw `a=1&b=2` texts (query, body); a name in two of them is a duplicate. */
  constructor(texts: readonly string[]) {
    for (const text of texts) {
      if (text === '') continue;
      for (const [name, value] of new URLSearchParams(text)) {
        if (this.values.has(name)) throw refusals.duplicateParameter();
        this.values.set(name, value);
        if (this.values.size > MAX_PARAMETERS) throw refusals.tooManyParameters();
      }
    }
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The value as sent (undefined when absent); an empty value is refused (-1105). */
  optional(name: string): string | undefined {
    this.read.add(name);
    const value = this.values.get(name);
    if (value === undefined) return undefined;
    if (value.trim() === '') throw refusals.empty(name);
    return value;
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw refusals.mandatory(name);
    return value;
  }

  /** Marks parameters as read without reading them (ones Bourse accepts and does nothing with). */
  ignore(...names: string[]): void {
    for (const name of names) this.read.add(name);
  }

  /** A non-negative integer (ids, times, limits): -1100 when it is not one. */
  integer(name: string): number | undefined {
    const value = this.optional(name);
    if (value === undefined) return undefined;
    if (!INTEGER.test(value)) throw refusals.illegalCharacters(name, '^[0-9]{1,16}$');
    const number = Number(value);
    if (!Number.isSafeInteger(number)) throw refusals.invalidValue(name);
    return number;
  }

  /** A limit between 1 and `max`, `fallback` when absent. */
  limit(fallback: number, max: number, name = 'limit'): number {
    const limit = this.integer(name) ?? fallback;
    if (limit < 1 || limit > max) throw refusals.invalidValue(name);
    return limit;
  }

  /**
   * A decimal as Binance takes it ("0.001", "40000", "40000.10"; leading zeros allowed),
   * normalized (zero is the caller's to refuse).
   */
  decimal(name: string): string | undefined {
    const value = this.optional(name);
    if (value === undefined) return undefined;
    const match = DECIMAL.exec(value);
    if (!match) throw refusals.illegalCharacters(name, DECIMAL_RANGE);
    const integer = match[1]!.replace(/^0+(?=\d)/, '');
    const text = normalize(`${integer}${match[2] ?? ''}`);
    if (scaleOf(text) > MAX_SCALE) throw refusals.precision(name);
    return text;
  }

  /** One of `choices` (upper case as Binance sends them), or `refuse`. */
  choice<T extends string>(
    name: string,
    choices: readonly T[],
    refuse: () => Error = () => refusals.invalidValue(name),
  ): T | undefined {
    const value = this.optional(name);
    if (value === undefined) return undefined;
    if (!(choices as readonly string[]).includes(value)) throw refuse();
    return value as T;
  }

  /** A boolean flag (`true` / `false`), `fallback` when absent. */
  flag(name: string, fallback: boolean): boolean {
    const value = this.choice(name, ['true', 'false', 'TRUE', 'FALSE'] as const);
    return value === undefined ? fallback : value.toLowerCase() === 'true';
  }

  /** Refuses a call that sent a parameter its endpoint did not read (-1104). */
  allRead(): void {
    const unread = [...this.values.keys()].filter((name) => !this.read.has(name));
    if (unread.length > 0)
      throw refusals.unread(this.values.size - unread.length, this.values.size);
  }
}
