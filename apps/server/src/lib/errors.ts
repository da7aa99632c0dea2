/**
 * The two kinds of error (ARCHITECTURE convention 6). An expected outcome the user must read is an
 * AppError: a translation key, its parameters and the HTTP status that fits. A broken invariant is
 * any other Error: it is logged and answered with a generic 500 that leaks nothing.
 */
export type AppErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

export class AppError extends Error {
  constructor(
    /** Translation key, e.g. `hint_insufficientBalance`. */
    readonly key: string,
    readonly status: AppErrorStatus = 422,
    readonly params: readonly unknown[] = [],
    /** Envelope code: 500 (rejection), 401, 403 or 209 (duplicate in flight). */
    readonly code: 500 | 401 | 403 | 209 = status === 401 ? 401 : status === 403 ? 403 : 500,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

/** A broken invariant: a bug, never a user mistake. */
export class AssertionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssertionError';
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}
