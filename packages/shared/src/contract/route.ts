/**
 * The shape of one call of the wire contract. Every call of /api and /admin-api is declared once,
 * in this folder, as a route: its method and path, who may call it, its input (query or body) and
 * its answer (`data`, a page of `rows`, or a file). The server registers its handlers from these
 * declarations (Fastify validates the input and serializes the answer through them), the web app
 * calls them with `api.call(route, input)`, and the OpenAPI reference is generated from them.
 *
 * This file has no zod at run time (types only): the web app's build keeps of each route only
 * what a call needs (tools/route-table.ts), so the first screen carries no schema.
 * The answer schemas the server serializes with are built in answer.ts.
 */
import type { z } from 'zod';
import type { OperatorRole } from '../constants';
import type { ApiKeyPermission } from '../schemas/api-keys';

export type Method = 'GET' | 'POST';

/**
 * Who may call: `public` anyone; `optional` anyone, a signed-in user gets their own view; `user`
 * a signed-in user; `operator` a signed-in operator (of one of `roles` when the route names them).
 */
export type RouteAuth = 'public' | 'optional' | 'user' | 'operator';

interface RouteBase {
  /** The first method is the one the app uses; a list accepts each (the spec's GET-or-POST calls). */
  method: Method | readonly [Method, ...Method[]];
  /** The full path, `/api/...` or `/admin-api/...`, as the spec names it. */
  path: string;
  auth: RouteAuth;
  /** Operator roles allowed (auth `operator`); absent: any signed-in operator. */
  roles?: readonly OperatorRole[];
  /**
   * Whether a call signed with an API key may be made, and with which of the key's permissions:
   * `read` (market data, balances, orders and positions, the user's info) or `trade` (placing,
   * changing and cancelling orders and positions). Absent: never with a key (fail closed):
   * money out, transfers, deposits, the security centre, the keys themselves and the profile
   * stay with signed-in users (apps/server/test/api-keys-routes.test.ts lists every mark).
   */
  key?: ApiKeyPermission;
  /** One line: what the call does (the reference shows it). */
  summary: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** How the app sends the body: a form (default, as the spec's client does) or JSON. */
  encoding?: 'form' | 'json';
  /** The hint keys (`msg`) of the refusals particular to this call, beyond input and auth ones. */
  hints?: readonly string[];
  /**
   * Fields the answer repeats beside `data` at the top of the envelope, for clients of the spec
   * that read them there.
   */
  extra?: z.ZodObject;
}

/** A call answering `{ code, msg, data }` (`data` absent when the schema is absent). */
export interface DataRoute extends RouteBase {
  data?: z.ZodType;
  rows?: never;
  file?: never;
}

/** A paged list answering `{ code, msg, rows, total }`. */
export interface PageRoute extends RouteBase {
  rows: z.ZodType;
  data?: never;
  file?: never;
}

/** A file (an image, a CSV) or a stream: its bytes on success, an envelope when refused. */
export interface FileRoute extends RouteBase {
  file: true;
  /** What it answers (default `image/*`). */
  contentType?: string;
  data?: never;
  rows?: never;
}

export type Route = DataRoute | PageRoute | FileRoute;

/**
 * The role lists operator calls name (an operator holding one of them may call), one copy for every
 * area of the table.
 */
export const ROUTE_ROLES = {
  ADMIN: ['admin'],
  /** Money: deposits, withdrawals, channels, currencies, the ledger. */
  FINANCE: ['finance', 'admin'],
  /** A user's trading and sessions, and actions on the account. */
  SUPPORT: ['support', 'admin'],
  /** Who reads users and their money. */
  READ: ['support', 'finance', 'admin'],
} as const satisfies Record<string, readonly OperatorRole[]>;

/** Declares a route, keeping its exact schema types for both ends. */
export function route<const R extends Route>(definition: R): R {
  return definition;
}

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What the app passes to a call: its query (GET) or its body (POST). */
export type RouteInput<R extends Route> = R['body'] extends z.ZodType
  ? z.input<R['body']>
  : R['query'] extends z.ZodType
    ? z.input<R['query']>
    : void;

/** What a handler receives once the input is parsed. */
export type RouteQuery<R extends Route> = OutputOf<R['query']>;
export type RouteBody<R extends Route> = OutputOf<R['body']>;

/** A row of a paged call. */
export type RouteRow<R extends Route> = R extends PageRoute ? z.output<R['rows']> : never;

/** What the app gets back: `data`, the page, or the file. */
export type RouteResult<R extends Route> = R extends FileRoute
  ? Blob
  : R extends PageRoute
    ? { rows: z.output<R['rows']>[]; total: number }
    : OutputOf<R['data']>;

/** What a handler may answer in `data` (the schema's input: the serializer checks it). */
export type RouteData<R extends Route> = R extends PageRoute
  ? z.input<R['rows']>
  : InputOf<R['data']>;

export function methodsOf(route: Route): readonly Method[] {
  return typeof route.method === 'string' ? [route.method] : route.method;
}

/** An answer `{ code, msg, data? }` (PRODUCT section 3). */
export type Envelope<T = unknown> = {
  code: number;
  msg: string;
  data?: T;
  params?: unknown[];
  /** The server's own rendering of `msg`, for a key the client has no text for. */
  text?: string;
};

/** A page of a list: `{ code, msg, rows, total }`. */
export type PagedEnvelope<T> = { code: number; msg: string; rows: T[]; total: number };
