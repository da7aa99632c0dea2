/**
 * Turns the first zod issue of a request into a translated error key that names the field, e.g.
 * `{ msg: 'hint_paramRequired', params: ['userAccount'] }`. A schema's own key (`hint_…`) is
 * answered as it is, e.g. `hint_textInvalidCharacters` for a control character or an unpaired
 * surrogate in a text (see `safeString` in @bourse/shared).
 */
import type { z } from 'zod';
import { AppError } from '../lib/errors';

const OWN_KEY = /^(hint|pwd)_[A-Za-z0-9_]+$/;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function validationError(issue: z.core.$ZodIssue, input: unknown): AppError {
  // A refused key of a record (a field name the caller chose, e.g. of a bank card): its own
  // issue, naming the record, never the key itself, which may hold anything.
  const [keyIssue] = issue.code === 'invalid_key' ? issue.issues : [];
  if (keyIssue) return validationError({ ...keyIssue, path: issue.path.slice(0, -1) }, input);
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  const raw = valueAt(input, issue.path);
  if (OWN_KEY.test(issue.message) && issue.message !== 'hint_paramInvalid') {
    return new AppError(issue.message, 400, [field]);
  }
  if (raw === undefined || raw === null || raw === '')
    return new AppError('hint_paramRequired', 400, [field]);
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return new AppError('hint_paramTooLong', 400, [field, Number(issue.maximum)]);
  }
  if (issue.code === 'too_small' && issue.origin === 'string') {
    return new AppError('hint_paramTooShort', 400, [field, Number(issue.minimum)]);
  }
  if (issue.code === 'too_big' || issue.code === 'too_small') {
    return new AppError('hint_paramOutOfRange', 400, [field]);
  }
  return new AppError('hint_paramInvalid', 400, [field]);
}

export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const source = input === undefined || input === null ? {} : input;
  if (typeof source !== 'object' || Array.isArray(source))
    throw new AppError('hint_badRequest', 400);
  const result = schema.safeParse(source);
  if (!result.success) {
    const [first] = result.error.issues;
    throw first ? validationError(first, source) : new AppError('hint_badRequest', 400);
  }
  return result.data;
}
