/**
 * Forms check their values with the shared zod schema of the call they make (the schema the server
 * validates with), and show each refusal on its field in the words the server would use: the
 * first issue of each field becomes the same key as apps/server/src/http/validation.ts makes
 * (`hint_paramRequired`, `hint_paramTooShort` with the minimum, a schema's own `hint_…` key…),
 * translated with the field's label. A refusal of the server is shown on the field it names.
 */
import type { FormInstance } from 'antd';
import type { z } from 'zod';
import { errorText, serverText } from '../i18n';
import { ApiError } from '../api/client';

const OWN_KEY = /^(hint|pwd)_[A-Za-z0-9_]+$/;

interface Refusal {
  msg: string;
  params: unknown[];
}

function refusalOf(issue: z.core.$ZodIssue, values: Record<string, unknown>): Refusal {
  const field = issue.path.map(String).join('.');
  const raw = issue.path.length === 1 ? values[String(issue.path[0])] : undefined;
  if (OWN_KEY.test(issue.message) && issue.message !== 'hint_paramInvalid')
    return { msg: issue.message, params: [field] };
  if (raw === undefined || raw === null || raw === '')
    return { msg: 'hint_paramRequired', params: [field] };
  if (issue.code === 'too_big' && issue.origin === 'string')
    return { msg: 'hint_paramTooLong', params: [field, Number(issue.maximum)] };
  if (issue.code === 'too_small' && issue.origin === 'string')
    return { msg: 'hint_paramTooShort', params: [field, Number(issue.minimum)] };
  if (issue.code === 'too_big' || issue.code === 'too_small')
    return { msg: 'hint_paramOutOfRange', params: [field] };
  return { msg: 'hint_paramInvalid', params: [field] };
}

/**
 * The values parsed by `schema`, or undefined after showing each field's first refusal on the
 * form (fields the schema refuses that the form does not show are named in the message).
 */
export function checkWith<S extends z.ZodType>(
  form: FormInstance,
  schema: S,
  values: Record<string, unknown>,
): z.output<S> | undefined {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const seen = new Set<string>();
  const fields: { name: string; errors: string[] }[] = [];
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? '');
    if (seen.has(name)) continue;
    seen.add(name);
    const refusal = refusalOf(issue, values);
    fields.push({ name, errors: [serverText(refusal.msg, refusal.params)] });
  }
  form.setFields(fields);
  return undefined;
}

/**
 * Shows a failed call on the field it names, of `fields`; answers the text to show above the
 * form otherwise (undefined once it is on a field).
 */
export function showOnField(
  form: FormInstance,
  error: unknown,
  fields: readonly string[],
): string | undefined {
  const text = errorText(error);
  const field = error instanceof ApiError ? error.fieldOf(fields) : undefined;
  if (!field) return text;
  form.setFields([{ name: field, errors: [text] }]);
  return undefined;
}

/**
 * Clears the refusal shown on each field the operator has just changed (a form's
 * `onValuesChange`): refusals are set by hand above, so antd would keep them under a corrected
 * value until the next submit.
 */
export function clearChangedErrors(form: FormInstance, changed: Record<string, unknown>): void {
  const names = Object.keys(changed).filter((name) => form.getFieldError(name).length > 0);
  if (names.length > 0) form.setFields(names.map((name) => ({ name, errors: [] })));
}
