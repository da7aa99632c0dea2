/**
 * The console's request client: the only code that calls the server, and only through the route
 * table of @bourse/shared (`api.call(operatorsApi.recharges, { status: 0 })`). The input goes
 * where the route says (query, or a JSON or form body), the answer comes back typed: `data`, a
 * page `{ rows, total }`, or a file as a Blob. Every refusal becomes an ApiError carrying the
 * envelope's translation key, its parameters (a field name among them when the refusal is about a
 * field) and the server's own text; 401 signs the console out.
 *
 * It depends on nothing of the browser but fetch, so the browser tests call the server with it too.
 */
import {
  methodsOf,
  NOTHING_TO_DO_MSG,
  requestBody,
  requestHeaders,
  RESPONSE_CODE,
  type Envelope,
  type PagedEnvelope,
  type Route,
  type RouteInput,
  type RouteResult,
} from '@bourse/shared';

/** No answer within this time: the call fails with `net_timeout`. */
export const REQUEST_TIMEOUT_MS = 30_000;

export class ApiError extends Error {
  constructor(
    /** The envelope's `msg` (a translation key), or `net_timeout` / `net_error`. */
    readonly msg: string,
    readonly params: readonly unknown[] = [],
    /** The HTTP status; 0 when the server did not answer. */
    readonly status = 0,
    /** The server's rendering of `msg` in the request's language. */
    readonly text?: string,
  ) {
    super(msg);
    this.name = 'ApiError';
  }

  /**
   * The form field the refusal names, of `fields`: the server names a field in `params` (input
   * checks always in the first, `hint_pwdWrong` and the like too).
   */
  fieldOf(fields: readonly string[]): string | undefined {
    return this.params.find(
      (param): param is string => typeof param === 'string' && fields.includes(param),
    );
  }
}

export interface ClientDeps {
  /** Prefix of every path ('' in the browser: the console is served by the API's server). */
  baseUrl?: string;
  token(): string | undefined;
  /** The language of the server's texts: the spec's numeric id and its BCP 47 tag. */
  language(): { id: number; bcp47: string };
  /** A 401: the session ended (expired, signed out elsewhere, password changed). */
  onUnauthorized?(error: ApiError): void;
  /** Any refusal of the server (a 401 too, after `onUnauthorized`), before the call throws it. */
  onRefused?(error: ApiError): void;
  fetch?: typeof fetch;
}

/** What a call answered: `msg` says `hint_48` when it was already done (nothing changed). */
export interface CallAnswer<R extends Route> {
  msg: string;
  result: RouteResult<R>;
}

type CallArgs<R extends Route> =
  RouteInput<R> extends void ? [input?: undefined] : [input: RouteInput<R>];

export interface Client {
  call<R extends Route>(route: R, ...args: CallArgs<R>): Promise<RouteResult<R>>;
  /** Like `call`, with the answer's `msg` (a decision repeated answers `hint_48`). */
  send<R extends Route>(route: R, ...args: CallArgs<R>): Promise<CallAnswer<R>>;
}

function query(values: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function formBody(values: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item));
    else search.append(name, String(value));
  }
  return search.toString();
}

export function createClient(deps: ClientDeps): Client {
  const doFetch = deps.fetch ?? ((input, init) => fetch(input, init));

  async function send<R extends Route>(route: R, input?: unknown): Promise<CallAnswer<R>> {
    const [method] = methodsOf(route);
    const values = (input ?? undefined) as Record<string, unknown> | undefined;
    const headers = requestHeaders(deps.language(), deps.token());
    let url = `${deps.baseUrl ?? ''}${route.path}`;
    let body: string | undefined;
    if (method === 'GET') url += query(values);
    else body = requestBody(headers, route.encoding === 'json', values ?? {}, formBody);

    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new ApiError(timedOut ? 'net_timeout' : 'net_error');
    }
    const type = response.headers.get('content-type') ?? '';
    if (route.file && response.ok && !type.includes('json')) {
      return { msg: 'hint_success', result: (await response.blob()) as RouteResult<R> };
    }
    let envelope: Envelope & Partial<PagedEnvelope<unknown>>;
    try {
      envelope = (await response.json()) as typeof envelope;
    } catch {
      throw new ApiError('net_error', [], response.status);
    }
    if (typeof envelope?.code !== 'number' || typeof envelope.msg !== 'string') {
      throw new ApiError('net_error', [], response.status);
    }
    const succeeded =
      response.ok && (envelope.code === RESPONSE_CODE.ok || envelope.msg === NOTHING_TO_DO_MSG);
    if (!succeeded) {
      const error = new ApiError(
        envelope.msg,
        envelope.params ?? [],
        response.status,
        envelope.text,
      );
      if (envelope.code === RESPONSE_CODE.unauthorized) deps.onUnauthorized?.(error);
      deps.onRefused?.(error);
      throw error;
    }
    const result = route.rows
      ? { rows: envelope.rows ?? [], total: envelope.total ?? 0 }
      : envelope.data;
    return { msg: envelope.msg, result: result as RouteResult<R> };
  }

  return {
    async call<R extends Route>(route: R, ...args: CallArgs<R>) {
      return (await send(route, args[0])).result;
    },
    send: send as Client['send'],
  };
}
