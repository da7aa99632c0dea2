/**
 * Registers the handlers of the route table (@bourse/shared contract) with Fastify: one guard for
 * users' and operators' sessions (who may call: public, optional, user, operator of some roles)
 * and for calls signed with an API key (only on the routes the table opens to keys, with the
 * key's permission), the budgets and route limits, Fastify's validation of the query and body with
 * the route's zod schemas (contract.ts: a refusal is a translated key naming the field) and the
 * serialization of the answer through the route's answer schema.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  API_KEY,
  answerSchema,
  methodsOf,
  type Envelope,
  type LanguageKey,
  type OperatorRole,
  type PagedEnvelope,
  type Route,
  type RouteBody,
  type RouteData,
  type RouteQuery,
} from '@bourse/shared';
import { AppError } from '../lib/errors';
import { actorOf, type Actor } from './actor';
import type { RequestBudgets } from './budgets';
import { clientIp } from './client';
import { answerSerializer, inputValidator, type ContractCheck } from './contract';
import { requestLanguage } from './language';
import { keepRawBody } from './raw-body';

export interface Session {
  /** The session's id; 0 for a call made with an API key (key routes never manage sessions). */
  id: number;
  userId: number;
  /** 0 live, 2 demo: which book this session trades in (a key's: the book it was made in). */
  accountType: 0 | 2;
  /** The API key a call was made with, when it was. */
  apiKeyId?: number;
}

export interface SessionResolver {
  /** The live session of a token; throws a 401 AppError when there is none. */
  resolve(token: string, request: FastifyRequest): Promise<Session>;
}

/** A signed-in operator, as the operator guard resolves it. */
export interface Operator {
  readonly sessionId: number;
  readonly operatorId: number;
  readonly username: string;
  readonly roles: readonly OperatorRole[];
  readonly ip: string;
}

export interface OperatorResolver<O extends Operator = Operator> {
  /** The live operator session of a token; throws a 401 AppError when there is none. */
  resolve(token: string, ip: string): Promise<O>;
  /**
   * Whether the operator may make a call of `route` at all (a 403 AppError when not, as before a
   * password change), checked once the call is counted against the operator's budget.
   */
  authorize?(operator: O, route: Route): void;
}

/** A call made with an API key, as the key resolver identified the key. */
export interface KeyCall {
  readonly keyId: number;
  readonly userId: number;
}

/**
 * Calls signed with an API key (the api-keys module): a request carrying the key header is
 * authenticated by its key alone (a session token beside it is not read), and refused on any
 * route the table does not open to keys (`key` absent: fail closed).
 */
export interface ApiKeyResolver {
  /** The key a request names; throws a 401 AppError when its headers name no known key. */
  identify(request: FastifyRequest): Promise<KeyCall>;
  /**
   * Whether the key may make this call of `route` (its state, signature, time, address, the
   * route's `key` mark and the key's permission): the user and book it acts in. Throws a 401 or
   * 403 AppError when not.
   */
  authorize(call: KeyCall, request: FastifyRequest, route: Route): Promise<Session>;
  /**
   * Records the answer to a call made with a known key, accepted or refused, before it is sent;
   * never throws.
   */
  record(
    call: KeyCall,
    request: FastifyRequest,
    answer: { status: number; msg: string },
  ): Promise<void>;
}

/** The header that makes a request a call with an API key (Node gives header names lower-cased). */
const KEY_HEADER = API_KEY.headers.key.toLowerCase();

/** `required` / `optional`: a user's session on /api, an operator's on /admin-api. */
type Auth = 'required' | 'optional' | 'none';

export interface RateLimit {
  max: number;
  /** Window in milliseconds. */
  timeWindowMs: number;
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
  /** The route of the table it was registered from. */
  route: Route;
}

const registries = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Records a route declared on `app` by the Router. */
function recordRoute(app: FastifyInstance, route: RegisteredRoute): void {
  const routes = registries.get(app) ?? [];
  registries.set(app, routes);
  routes.push(route);
}

/** Every route the Router declared on `app`, in order (the fuzz test walks them). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registries.get(app) ?? [];
}

type ActorOf<R extends Route> = R['auth'] extends 'user'
  ? Actor
  : R['auth'] extends 'optional'
    ? Actor | null
    : null;

type SessionOf<R extends Route> = R['auth'] extends 'user'
  ? Session
  : R['auth'] extends 'optional'
    ? Session | null
    : null;

/** What a handler of a route of the table receives. */
export interface CallContext<R extends Route, O extends Operator = Operator> {
  request: FastifyRequest;
  reply: FastifyReply;
  lang: LanguageKey;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  /** Who the services act for: the session's user and book (services never take the session). */
  actor: ActorOf<R>;
  /** The session itself, for the account calls that manage sessions (sign-out, book switch). */
  session: SessionOf<R>;
  /** The signed-in operator, on operator routes. */
  operator: R['auth'] extends 'operator' ? O : null;
  /** The raw token of the session, for calls that end it. */
  token: string | null;
}

/** What a handler answers: the envelope of its route, or (a file) whatever it sent itself. */
export type Answer<R extends Route> = R extends { file: true }
  ? unknown
  : R extends { rows: z.ZodType }
    ? PagedEnvelope<RouteData<R>>
    : Envelope<RouteData<R>> &
        (R['extra'] extends z.ZodObject ? z.input<R['extra']> : Record<never, never>);

export interface HandleOptions {
  /**
   * A budget of this route alone, per client address (sign-in, registration, codes), on top of
   * the general budget every route counts against (budgets.ts). `false` only for public reads
   * answered from memory (launch data), which are cheaper to serve than to count: they count
   * against neither.
   */
  rateLimit?: RateLimit | false;
  /** Largest accepted body in bytes (default: the server's 64 KiB). */
  bodyLimit?: number;
}

interface Caller {
  session: Session | null;
  operator: Operator | null;
  token: string | null;
  /** A call made with an API key: the key, and the `msg` of the answer once there is one. */
  keyCall?: KeyCall;
  msg?: string;
}

const callers = new WeakMap<FastifyRequest, Caller>();

export class Router<O extends Operator = Operator> {
  private operators?: OperatorResolver<O>;
  private keys?: ApiKeyResolver;

  constructor(
    private readonly app: FastifyInstance,
    private readonly sessions: SessionResolver,
    private readonly budgets: RequestBudgets,
    /** `strict` (tests): an answer with a field its route does not declare is a failure. */
    private readonly check: ContractCheck = 'strip',
  ) {}

  /**
   * The guard of operator routes (the operator console's sessions). Answers this router typed with
   * the resolver's operators: the handlers registered through it receive them as resolved.
   */
  useOperators<P extends Operator>(operators: OperatorResolver<P>): Router<P> {
    const router = this as unknown as Router<P>;
    router.operators = operators;
    return router;
  }

  /** The guard of calls made with an API key; before any route is registered. */
  useApiKeys(keys: ApiKeyResolver): this {
    this.keys = keys;
    return this;
  }

  /**
   * The hooks that record each answer to a call made with a key: its `msg` as the envelope is
   * serialized (a handler's answer or a refusal), then the whole answer before it is sent.
   */
  private keyUseHooks(keys: ApiKeyResolver) {
    return {
      preSerialization: async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
        const caller = callers.get(request);
        if (caller?.keyCall && payload !== null && typeof payload === 'object')
          caller.msg = String((payload as { msg?: unknown }).msg ?? '');
        return payload;
      },
      onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        const caller = callers.get(request);
        if (caller?.keyCall)
          await keys.record(caller.keyCall, request, {
            status: reply.statusCode,
            msg: caller.msg || 'hint_systemError',
          });
        return payload;
      },
    };
  }

  /**
   * Writes an answer of `route` as the server sends it (the route's answer schema and the same
   * check as every answer), for a handler that keeps the text and sends it again (launch data
   * cached per language): Fastify sends a string payload as it is.
   */
  answerWriter<const R extends Route>(route: R): (answer: Answer<R>) => string {
    const write = answerSerializer(this.check)({
      schema: answerSchema(route),
      method: methodsOf(route)[0]!,
      url: route.path,
      httpStatus: '200',
    });
    return (answer) => write(answer);
  }

  /**
   * Registers the handler of a route of the table (@bourse/shared contract). Fastify validates
   * the query and body against the route's schemas, after the guard (so a signed-out call is 401
   * before any 400), and serializes the answer through the route's answer schema.
   */
  handle<const R extends Route>(
    route: R,
    handler: (context: CallContext<R, O>) => Promise<Answer<R>>,
    options: HandleOptions = {},
  ): void {
    const methods = methodsOf(route);
    recordRoute(this.app, {
      methods,
      url: route.path,
      auth: route.auth === 'public' ? 'none' : route.auth === 'optional' ? 'optional' : 'required',
      roles: route.roles,
      query: route.query,
      body: route.body,
      route,
    });
    const limit = options.rateLimit;
    const budgets = this.budgets;
    const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const token = tokenOf(request);
      const caller: Caller = { session: null, operator: null, token };
      callers.set(request, caller);
      if (request.headers[KEY_HEADER] !== undefined) {
        if (!this.keys) throw new AppError('hint_apiKeyRouteClosed', 403);
        const call = await this.keys.identify(request);
        caller.keyCall = call;
        caller.session = await this.keys.authorize(call, request, route);
        if (limit !== false) {
          // Each key has a budget, and counts towards its user's too.
          await budgets.user(request, reply, `apiKey:${call.keyId}`);
          await budgets.user(request, reply, `user:${call.userId}`);
        }
        return;
      }
      if (route.auth === 'operator') {
        if (!this.operators) throw new Error(`no operator guard for ${route.path}`);
        if (!token) throw new AppError('hint_unauthorized', 401);
        const operator = await this.operators.resolve(token, clientIp(request));
        caller.operator = operator;
        await budgets.user(request, reply, `operator:${operator.operatorId}`);
        this.operators.authorize?.(operator, route);
        const roles = route.roles;
        if (roles && !operator.roles.some((role) => roles.includes(role)))
          throw new AppError('hint_forbidden', 403);
        return;
      }
      if (route.auth === 'user') {
        if (!token) throw new AppError('hint_unauthorized', 401);
        caller.session = await this.sessions.resolve(token, request);
      } else if (route.auth === 'optional' && token) {
        caller.session = await this.sessions.resolve(token, request).catch((error: unknown) => {
          if (error instanceof AppError && error.status === 401) return null;
          throw error;
        });
      }
      if (caller.session && limit !== false)
        await budgets.user(request, reply, `user:${caller.session.userId}`);
    };
    this.app.withTypeProvider<ZodTypeProvider>().route({
      method: methods as ('GET' | 'POST')[],
      url: route.path,
      bodyLimit: options.bodyLimit,
      config: limit ? { rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } } : undefined,
      onRequest: limit === false ? undefined : budgets.address,
      // A call with a key may be a POST whose signature covers its body as sent.
      preParsing: route.key && methods.includes('POST') ? keepRawBody(KEY_HEADER) : undefined,
      preValidation: guard,
      // The answer to a call with a key goes to its usage log, refusals included.
      ...(this.keys ? this.keyUseHooks(this.keys) : {}),
      schema: {
        ...(route.query ? { querystring: route.query } : {}),
        ...(route.body ? { body: route.body } : {}),
        ...(route.file ? {} : { response: { 200: answerSchema(route) } }),
      },
      // The compilers take the route's zod schemas (Fastify types them as its own schema object).
      validatorCompiler: inputValidator as never,
      serializerCompiler: answerSerializer(this.check) as never,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const caller = callers.get(request)!;
        return handler({
          request,
          reply,
          lang: requestLanguage(request),
          query: request.query as RouteQuery<R>,
          body: request.body as RouteBody<R>,
          actor: (caller.session ? actorOf(caller.session) : null) as ActorOf<R>,
          session: caller.session as SessionOf<R>,
          operator: caller.operator as CallContext<R, O>['operator'],
          token: caller.token,
        });
      },
    });
  }
}
