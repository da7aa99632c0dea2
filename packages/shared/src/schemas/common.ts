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

/**
 * Which characters a text field refuses. Every text field is single-line unless it says otherwise:
 * C0 controls (U+0000–U+001F), DEL and the C1 controls (U+007F–U+009F) are refused. A multi-line
 * field (a remark or a reason typed in a text area) also takes line feeds, carriage returns and
 * tabs. Both refuse unpaired UTF-16 surrogates, which have no UTF-8 form and so cannot be stored.
 * (`\p{Cs}` with the `u` flag matches only a surrogate that is not half of a pair.)
 */
export type TextLines = 'singleLine' | 'multiLine';

/* eslint-disable no-control-regex -- these patterns are there to find control characters */
const FORBIDDEN_CHARACTERS: Record<TextLines, RegExp> = {
  singleLine: /[\p{Cs}\u0000-\u001F\u007F-\u009F]/u,
  multiLine: /[\p{Cs}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u,
};
/* eslint-enable no-control-regex */

/** The translation key of a text with a refused character; `{0}` is the field. */
export const TEXT_INVALID_CHARACTERS = 'hint_textInvalidCharacters';

/** Whether a text holds a character its kind of field refuses (see TextLines). */
export function hasForbiddenCharacters(value: string, lines: TextLines = 'singleLine'): boolean {
  return FORBIDDEN_CHARACTERS[lines].test(value);
}

const EVERY_FORBIDDEN_CHARACTER: Record<TextLines, RegExp> = {
  singleLine: new RegExp(FORBIDDEN_CHARACTERS.singleLine.source, 'gu'),
  multiLine: new RegExp(FORBIDDEN_CHARACTERS.multiLine.source, 'gu'),
};

/**
 * The text without the characters its kind of field refuses: for values nobody typed into a
 * field and that must still be stored, such as a request's User-Agent header.
 */
export function withoutForbiddenCharacters(value: string, lines: TextLines = 'singleLine'): string {
  return value.replace(EVERY_FORBIDDEN_CHARACTER[lines], '');
}

/**
 * The one string schema every text input goes through: at most `maxLength` UTF-16 units, checked
 * first and alone (a 100 KB value is refused by its length before anything reads its content),
 * then no refused character. Further checks chain on it like on `z.string()`.
 */
export function safeString(maxLength: number, lines: TextLines = 'singleLine') {
  return z
    .string()
    .max(maxLength, { abort: true })
    .refine((value) => !hasForbiddenCharacters(value, lines), { error: TEXT_INVALID_CHARACTERS });
}

/**
 * Trimmed text with bounded length (single-line unless `lines` says otherwise). Characters are
 * checked once the edges are trimmed: a line break pasted after an address is dropped, one inside
 * it is refused.
 */
export function text(maxLength: number, minLength = 1, lines: TextLines = 'singleLine') {
  return z
    .string()
    .max(maxLength * 4, { abort: true })
    .transform((value) => value.trim())
    .pipe(safeString(maxLength, lines).min(minLength));
}

/**
 * An optional yes/no of a query or a form: `true`/`1` or `false`/`0` (empty: absent); anything
 * else is refused on its field.
 */
export const optionalFlag = z.preprocess((value) => {
  if (value === '' || value === null) return undefined;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  return value;
}, z.boolean().optional());

/** A time as ISO 8601 text (`2026-11-27T15:00:00.000Z`); empty or absent: none. */
export const optionalIsoTime = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  safeString(40)
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: 'hint_paramInvalid' })
    .optional(),
);

export function optionalText(maxLength: number, lines: TextLines = 'singleLine') {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    text(maxLength, 1, lines).optional(),
  );
}

/** Text that is taken exactly as sent (passwords, codes); single-line. */
export function exactText(maxLength: number) {
  return safeString(maxLength).min(1);
}

/** A positive amount as a decimal string within the given scale and bounds. */
export function decimalAmount(options: ParseDecimalOptions = {}) {
  return z.union([safeString(64), z.number()]).transform((value, context) => {
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
export const requestId = safeString(64)
  .min(8)
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'hint_paramInvalid' });

export const pageQuery = z.object({
  pageNum: z.preprocess(emptyToUndefined, intField(1, PAGE.maxNumber).default(1)),
  pageSize: z.preprocess(emptyToUndefined, intField(1, PAGE.maxSize).default(PAGE.defaultSize)),
});
export type PageQuery = z.infer<typeof pageQuery>;
