/**
 * Building blocks of the call schemas. Query strings and form bodies carry every value as text,
 * so numbers and flags are parsed here from their text form; JSON bodies may send them as
 * numbers. Empty strings of optional fields count as absent.
 */
import { z } from 'zod';
import { PAGE } from '../constants';
import { parseDecimal, type ParseDecimalOptions } from '../money';

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** An integer sent as a number or as its decimal text. */
export function intField(min = -2_147_483_648, max = 2_147_483_647) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^-?\d{1,10}$/.test(value) ? Number(value) : value),
    z.number().int().min(min).max(max),
  );
}

export function optionalInt(min?: number, max?: number) {
  return z.preprocess(emptyToUndefined, intField(min, max).optional());
}

/** One of the listed integer codes. */
export function codeField<const T extends readonly number[]>(codes: T) {
  return intField().refine((value): value is T[number] => codes.includes(value), {
    error: 'hint_paramInvalid',
  });
}

/** Trimmed text with bounded length. */
export function text(maxLength: number, minLength = 1) {
  return z
    .string()
    .max(maxLength * 4)
    .transform((value) => value.trim())
    .pipe(z.string().min(minLength).max(maxLength));
}

export function optionalText(maxLength: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    text(maxLength).optional(),
  );
}

/** Text that is taken exactly as sent (passwords, codes). */
export function exactText(maxLength: number) {
  return z.string().min(1).max(maxLength);
}

/** A positive amount as a decimal string within the given scale and bounds. */
export function decimalAmount(options: ParseDecimalOptions = {}) {
  return z.union([z.string().max(64), z.number()]).transform((value, context) => {
    if (typeof value === 'number') {
      // JSON numbers are floats: refuse them rather than guess which decimal was meant.
      context.addIssue({ code: 'custom', message: 'hint_amountAsText' });
      return z.NEVER;
    }
    const parsed = parseDecimal(value.trim(), options);
    if (!parsed.ok) {
      context.addIssue({ code: 'custom', message: `hint_amount_${parsed.problem}` });
      return z.NEVER;
    }
    return parsed.value;
  });
}

/** The client-generated key that makes a money-moving request safe to retry. */
export const requestId = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'hint_paramInvalid' });

export const pageQuery = z.object({
  pageNum: z.preprocess(emptyToUndefined, intField(1, PAGE.maxNumber).default(1)),
  pageSize: z.preprocess(emptyToUndefined, intField(1, PAGE.maxSize).default(PAGE.defaultSize)),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** The envelope of every response (PRODUCT section 3). */
export const envelope = z.object({
  code: z.number().int(),
  msg: z.string(),
  data: z.unknown().optional(),
  params: z.array(z.unknown()).optional(),
});
export type Envelope<T = unknown> = {
  code: number;
  msg: string;
  data?: T;
  params?: unknown[];
  text?: string;
};
export type PagedEnvelope<T> = { code: number; msg: string; rows: T[]; total: number };
