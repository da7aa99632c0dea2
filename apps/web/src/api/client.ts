/**
 * The request client: the only code that talks to the server, and the one place where the spec's
 * error catalogue (SEED-SPEC sections 7 and 8) lives.
 *
 * - Headers: Accept-Language, LanguageId (numeric), Authorization, form content type.
 * - Timeout 60 s until the first answer, 10,000 ms after each answer (spec section 9).
 * - Success is HTTP 200–299 with envelope code 200 (or hint_48). An envelope under another HTTP
 *   status is dispatched by its code (401, 500…); a 2xx-less answer saying 200 is not a success.
 * - `msg` hint_48 is a normal result. 401 clears the session and opens the login page.
 * - 209 is silent. 500 toasts the translated `msg`, formatted with `params`.
 * - Other codes reach the caller only when it asked to catch errors.
 * - Network failures toast 'Request timeout' or 'Interface exception, please try again later'.
 *
 * The spec's "swallowed" outcomes never reach a caller's success path, but the promise still
 * settles, with an ApiError marked `handled`, so no spinner waits forever (the seed's promises
 * never settled). Callers ignore handled errors: the user has been told, or must not be.
 */
import {
  methodsOf,
  NOTHING_TO_DO_MSG,
  requestBody,
  requestHeaders,
  RESPONSE_CODE,
  UI,
  type Envelope,
  type Language,
  type PagedEnvelope,
  type Route,
  type RouteInput,
  type RouteResult,
} from '@bourse/shared';

export type { Envelope, PagedEnvelope };

/** The seed's request timeout before any answer arrived (spec section 9: 60 s). */
export const FIRST_REQUEST_TIMEOUT_MS = UI.requestTimeoutMs;
/** The timeout the seed sets after each answer (spec section 9: "10000 ms set after each response"). */
export const REQUEST_TIMEOUT_AFTER_RESPONSE_MS = 10_000;

/** HTTP success (spec section 9: 200 to 299). */
export function isHttpSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

export type ApiErrorKind =
  'timeout' | 'network' | 'unauthorized' | 'duplicate' | 'rejected' | 'other';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    /** The envelope's msg (a translation key) or the network failure's key. */
    readonly msg: string,
    readonly params: readonly unknown[] = [],
    /** The envelope code, when the server answered. */
    readonly code?: number,
    /** True when the user has been told already, or must not be (a swallowed outcome). */
    readonly handled = true,
  ) {
    super(msg);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Query parameters (GET) — undefined values are left out. */
  params?: Record<string, unknown>;
  /** Body of a POST: form-encoded by default, JSON when `json` is set. */
  data?: Record<string, unknown>;
  json?: boolean;
  /** Reject with the error on codes other than 200, 401, 209 and 500 instead of swallowing. */
  catchError?: boolean;
  timeoutMs?: number;
  /** Aborting on purpose (leaving a screen) settles quietly. */
  signal?: AbortSignal;
  /** A file answer (an image): its bytes come back as `data`; errors still come as envelopes. */
  binary?: boolean;
}

export interface ClientDeps {
  /** The current API line's base address ('' for this server). */
  baseUrl(): string;
  token(): string | undefined;
  language(): Language;
  translate(key: string, params?: readonly unknown[]): string;
  toast(message: string): void;
  /** Clears userAccount and uToken and opens the login page. */
  onUnauthorized(): void;
  /** Makes every message translatable before a failure is worded (the app loads them lazily). */
  messagesReady?(): Promise<void>;
  fetch?: typeof fetch;
}

/** Options of `call`: how errors reach the caller, time limits, cancelling. */
export type CallOptions = Pick<RequestOptions, 'catchError' | 'timeoutMs' | 'signal'>;

export interface Client {
  /**
   * A call of the route table: its input goes where the route says (query or form/JSON body),
   * its answer comes back typed: `data`, a page `{ rows, total }`, or a file as a Blob.
   */
  call<R extends Route>(
    route: R,
    ...args: RouteInput<R> extends void
      ? [input?: undefined, options?: CallOptions]
      : [input: RouteInput<R>, options?: CallOptions]
  ): Promise<RouteResult<R>>;
  request<T>(url: string, options?: RequestOptions): Promise<Envelope<T>>;
  get<T>(url: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
  post<T>(url: string, data?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
  page<T>(
    url: string,
    params?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<PagedEnvelope<T>>;
  /** A file (GET) as a Blob, with the session and language headers of every call. */
  file(url: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<Blob>;
}

function encode(values: Record<string, unknown> = {}): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    search.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return search;
}

export function createClient(deps: ClientDeps): Client {
  const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));
  // 60 s until the server first answers, then 10 s, as the seed's client set it after each answer.
  let defaultTimeoutMs: number = FIRST_REQUEST_TIMEOUT_MS;

  async function messagesReady(): Promise<void> {
    try {
      await deps.messagesReady?.();
    } catch {
      // The texts at hand word the failure.
    }
  }

  function networkFailure(key: 'net_timeout' | 'net_error'): ApiError {
    deps.toast(deps.translate(key));
    return new ApiError(key === 'net_timeout' ? 'timeout' : 'network', key);
  }

  async function request<T>(url: string, options: RequestOptions = {}): Promise<Envelope<T>> {
    const method = options.method ?? (options.data ? 'POST' : 'GET');
    const headers = requestHeaders(deps.language(), deps.token());

    let target = `${deps.baseUrl()}${url}`;
    let body: string | undefined;
    if (method === 'GET') {
      const query = encode(options.params).toString();
      if (query) target += `${target.includes('?') ? '&' : '?'}${query}`;
    } else {
      body = requestBody(headers, options.json === true, options.data ?? {}, (data) =>
        encode(data).toString(),
      );
    }

    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException('timeout', 'TimeoutError')),
      options.timeoutMs ?? defaultTimeoutMs,
    );
    const signal = options.signal
      ? AbortSignal.any([options.signal, timeout.signal])
      : timeout.signal;

    let envelope: Envelope<T>;
    let httpSuccess: boolean;
    try {
      const response = await doFetch(target, { method, headers, body, signal });
      defaultTimeoutMs = REQUEST_TIMEOUT_AFTER_RESPONSE_MS;
      httpSuccess = isHttpSuccess(response.status);
      const type = response.headers.get('content-type') ?? '';
      if (options.binary && httpSuccess && !type.includes('json')) {
        return { code: RESPONSE_CODE.ok, msg: 'hint_success', data: (await response.blob()) as T };
      }
      if (!type.includes('json')) throw new TypeError(`unexpected ${response.status} ${type}`);
      envelope = (await response.json()) as Envelope<T>;
      if (typeof envelope?.code !== 'number' || typeof envelope.msg !== 'string') {
        throw new TypeError('not an envelope');
      }
    } catch (error) {
      if (options.signal?.aborted) throw new ApiError('other', 'aborted');
      await messagesReady();
      const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
      throw networkFailure(/timeout/i.test(text) ? 'net_timeout' : 'net_error');
    } finally {
      clearTimeout(timer);
    }

    const params = envelope.params ?? [];
    if (envelope.msg === NOTHING_TO_DO_MSG) return envelope;
    if (envelope.code === RESPONSE_CODE.ok && httpSuccess) return envelope;
    await messagesReady();
    if (envelope.code === RESPONSE_CODE.ok) {
      // An envelope saying success under an HTTP failure: something between broke the answer.
      throw networkFailure('net_error');
    }
    if (envelope.code === RESPONSE_CODE.unauthorized) {
      deps.onUnauthorized();
      throw new ApiError('unauthorized', envelope.msg, params, envelope.code);
    }
    if (envelope.code === RESPONSE_CODE.duplicateInFlight) {
      throw new ApiError('duplicate', envelope.msg, params, envelope.code);
    }
    if (envelope.code === RESPONSE_CODE.rejected) {
      const known = deps.translate(envelope.msg, params);
      deps.toast(known === envelope.msg && envelope.text ? envelope.text : known);
      throw new ApiError('rejected', envelope.msg, params, envelope.code);
    }
    throw new ApiError('other', envelope.msg, params, envelope.code, !options.catchError);
  }

  async function call<R extends Route>(
    route: R,
    input?: unknown,
    options: CallOptions = {},
  ): Promise<RouteResult<R>> {
    const [method] = methodsOf(route);
    const values = (input ?? undefined) as Record<string, unknown> | undefined;
    const envelope = await request<unknown>(route.path, {
      ...options,
      method,
      ...(method === 'GET'
        ? { params: values }
        : { data: values ?? {}, json: route.encoding === 'json' }),
      binary: route.file === true,
    });
    if (route.rows) {
      const { rows, total } = envelope as PagedEnvelope<unknown>;
      return { rows, total } as RouteResult<R>;
    }
    return envelope.data as RouteResult<R>;
  }

  return {
    call: call as Client['call'],
    request,
    async get<T>(url: string, params?: Record<string, unknown>, options?: RequestOptions) {
      return (await request<T>(url, { ...options, method: 'GET', params })).data as T;
    },
    async post<T>(url: string, data?: Record<string, unknown>, options?: RequestOptions) {
      return (await request<T>(url, { ...options, method: 'POST', data: data ?? {} })).data as T;
    },
    async page<T>(url: string, params?: Record<string, unknown>, options?: RequestOptions) {
      return (await request<T>(url, { ...options, method: 'GET', params })) as PagedEnvelope<T>;
    },
    async file(url: string, params?: Record<string, unknown>, options?: RequestOptions) {
      const envelope = await request<Blob>(url, {
        ...options,
        method: 'GET',
        params,
        binary: true,
      });
      return envelope.data as Blob;
    },
  };
}
