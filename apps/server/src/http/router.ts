/**
 * Declares API routes: the input schemas (zod, from @bourse/shared), who may call them, their
 * rate limit, and a handler that returns an envelope. Input is parsed before the handler runs;
 * a failure answers a translated key naming the field.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { LanguageKey } from '@bourse/shared';
import { AppError } from '../lib/errors';
import { actorOf, type Actor } from './actor';
import type { RequestBudgets } from './budgets';
import { requestLanguage } from './language';
import { parseInput } from './validation';

export interface Session {
  id: number;
  userId: number;
  /** 0 live, 2 demo: which book this session trades in. */
  accountType: 0 | 2;
}

export interface SessionResolver {
  /** The live session of a token; throws a 401 AppError when there is none. */
  resolve(token: string, request: FastifyRequest): Promise<Session>;
}

type Auth = 'required' | 'optional' | 'none';
type SessionFor<A extends Auth> = A extends 'required'
  ? Session
  : A extends 'optional'
    ? Session | null
    : null;
type ActorFor<A extends Auth> = A extends 'required'
  ? Actor
  : A extends 'optional'
    ? Actor | null
    : null;

export interface RouteContext<Q, B, A extends Auth> {
  request: FastifyRequest;
  reply: FastifyReply;
  lang: LanguageKey;
  query: Q;
  body: B;
  session: SessionFor<A>;
  /** Who the services act for: the session's user and book (services never take the session). */
  actor: ActorFor<A>;
  /** The raw token of the session, for calls that end it. */
  token: string | null;
}

export interface RateLimit {
  max: number;
  /** Window in milliseconds. */
  timeWindowMs: number;
}

export interface RouteSpec<QS extends z.ZodType, BS extends z.ZodType, A extends Auth> {
  method: 'GET' | 'POST' | ('GET' | 'POST')[];
  url: string;
  auth: A;
  query?: QS;
  body?: BS;
  /**
   * A budget of this route alone, per client address (sign-in, registration, codes), on top of
   * the general budget every route counts against (budgets.ts). `false` only for public reads
   * answered from memory (launch data), which are cheaper to serve than to count: they count
   * against neither.
   */
  rateLimit?: RateLimit | false;
  /** Largest accepted body in bytes (default: the server's 64 KiB). */
  bodyLimit?: number;
  handler: (context: RouteContext<z.output<QS>, z.output<BS>, A>) => Promise<unknown>;
}

/** `Authorization: Bearer <token>` or a bare token. */
export function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const value = header.startsWith('Bearer ') ? header.slice(7) : header;
  const token = value.trim();
  return token.length > 0 && token.length <= 256 ? token : null;
}

/** What a route declares, as recorded when it is registered (see `registeredRoutes`). */
export interface RegisteredRoute {
  methods: readonly ('GET' | 'POST')[];
  /** The full path, `/api/...` or `/admin-api/...`. */
  url: string;
  /** `required` / `optional`: a user's session on /api, an operator's on /admin-api. */
  auth: Auth;
  /** The operator roles allowed, when the route names them. */
  roles?: readonly string[];
  query?: z.ZodType;
  body?: z.ZodType;
}

const registries = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Records a route declared on `app` by Router or AdminRouter. */
export function recordRoute(app: FastifyInstance, route: RegisteredRoute): void {
  const routes = registries.get(app) ?? [];
  registries.set(app, routes);
  routes.push(route);
}

/** Every route Router and AdminRouter declared on `app`, in order (the fuzz test walks them). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registries.get(app) ?? [];
}

export class Router {
  constructor(
    private readonly app: FastifyInstance,
    private readonly sessions: SessionResolver,
    private readonly budgets: RequestBudgets,
  ) {}

  add<
    QS extends z.ZodType = z.ZodType<undefined>,
    BS extends z.ZodType = z.ZodType<undefined>,
    A extends Auth = 'none',
  >(spec: RouteSpec<QS, BS, A>): void {
    recordRoute(this.app, {
      methods: Array.isArray(spec.method) ? spec.method : [spec.method],
      url: spec.url,
      auth: spec.auth,
      query: spec.query,
      body: spec.body,
    });
    const sessions = this.sessions;
    const budgets = this.budgets;
    const limit = spec.rateLimit;
    this.app.route({
      method: spec.method,
      url: spec.url,
      bodyLimit: spec.bodyLimit,
      config: limit ? { rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } } : undefined,
      onRequest: limit === false ? undefined : budgets.address,
      handler: async (request, reply) => {
        const token = tokenOf(request);
        let session: Session | null = null;
        if (spec.auth === 'required') {
          if (!token) throw new AppError('hint_unauthorized', 401);
          session = await sessions.resolve(token, request);
        } else if (spec.auth === 'optional' && token) {
          session = await sessions.resolve(token, request).catch((error: unknown) => {
            if (error instanceof AppError && error.status === 401) return null;
            throw error;
          });
        }
        if (session && limit !== false)
          await budgets.user(request, reply, `user:${session.userId}`);
        const query = spec.query ? parseInput(spec.query, request.query) : undefined;
        const body = spec.body ? parseInput(spec.body, request.body) : undefined;
        return spec.handler({
          request,
          reply,
          lang: requestLanguage(request),
          query: query as z.output<QS>,
          body: body as z.output<BS>,
          session: session as SessionFor<A>,
          actor: (session ? actorOf(session) : null) as ActorFor<A>,
          token,
        });
      },
    });
  }
}
