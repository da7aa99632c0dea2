/**
 * The response envelope of PRODUCT section 3: `{ code, msg, data?, params? }`, paged lists as
 * `{ code, msg, rows, total }`. Handlers return these; the HTTP status follows the code.
 */
import type { Envelope, PagedEnvelope } from '@bourse/shared';

export const SUCCESS_MSG = 'hint_success';

export function ok<T>(data?: T, extra?: Record<string, unknown>): Envelope<T> {
  const body: Envelope<T> & Record<string, unknown> = { code: 200, msg: SUCCESS_MSG, ...extra };
  if (data !== undefined) body.data = data;
  return body;
}

export function page<T>(rows: T[], total: number): PagedEnvelope<T> {
  return { code: 200, msg: SUCCESS_MSG, rows, total };
}

/** A page a service answered (`{ rows, total }`) in its envelope. */
export function pageOf<T>(result: { rows: T[]; total: number }): PagedEnvelope<T> {
  return page(result.rows, result.total);
}

/** The idempotent outcome "already done, nothing changed" (hint_48), which the app treats as success. */
export function alreadyDone<T>(data?: T): Envelope<T> {
  const body: Envelope<T> = { code: 200, msg: 'hint_48' };
  if (data !== undefined) body.data = data;
  return body;
}
