/**
 * Declares operator API routes under /admin-api, like the app's Router does for /api: input
 * schemas, rate limits, and who may call them. Operator sessions are resolved from their own
 * table, so a user's token is never valid here and an operator's token never on /api. A route
 * names the roles allowed to call it: a missing role answers 403, no session 401.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { LanguageKey } from '@bourse/shared';
import { requestLanguage } from '../../http/language';
import type { RequestBudgets } from '../../http/budgets';
import { clientIp } from '../../http/client';
import { recordRoute, tokenOf, type RateLimit } from '../../http/router';
import { parseInput } from '../../http/validation';
import { AppError } from '../../lib/errors';
import type { OperatorRole } from './roles';
import type { AdminService, OperatorContext } from './service';

export const ADMIN_API_PREFIX = '/admin-api';

/** `none`: no session needed; `any`: any signed-in operator; a list: one of these roles. */
type Access = 'none' | 'any' | readonly OperatorRole[];
type OperatorFor<A extends Access> = A extends 'none' ? null : OperatorContext;

export interface AdminRouteContext<Q, B, A extends Access> {
  request: FastifyRequest;
  reply: FastifyReply;
  lang: LanguageKey;
  query: Q;
  body: B;
  operator: OperatorFor<A>;
}

export interface AdminRouteSpec<QS extends z.ZodType, BS extends z.ZodType, A extends Access> {
  method: 'GET' | 'POST';
  /** The path below /admin-api, e.g. `/auth/login`. */
  url: string;
  access: A;
  query?: QS;
  body?: BS;
  /** A budget of this route alone per client address (sign-in), on top of the general one. */
  rateLimit?: RateLimit;
  handler: (context: AdminRouteContext<z.output<QS>, z.output<BS>, A>) => Promise<unknown>;
}

export class AdminRouter {
  constructor(
    private readonly app: FastifyInstance,
    private readonly admin: AdminService,
    /** The general budget, shared with /api (budgets.ts). */
    private readonly budgets: RequestBudgets,
  ) {}

  add<
    QS extends z.ZodType = z.ZodType<undefined>,
    BS extends z.ZodType = z.ZodType<undefined>,
    A extends Access = 'any',
  >(spec: AdminRouteSpec<QS, BS, A>): void {
    recordRoute(this.app, {
      methods: [spec.method],
      url: `${ADMIN_API_PREFIX}${spec.url}`,
      auth: spec.access === 'none' ? 'none' : 'required',
      roles: spec.access === 'none' || spec.access === 'any' ? undefined : spec.access,
      query: spec.query,
      body: spec.body,
    });
    const admin = this.admin;
    const budgets = this.budgets;
    const limit = spec.rateLimit;
    this.app.route({
      method: spec.method,
      url: `${ADMIN_API_PREFIX}${spec.url}`,
      config: limit ? { rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } } : undefined,
      onRequest: budgets.address,
      handler: async (request, reply) => {
        let operator: OperatorContext | null = null;
        if (spec.access !== 'none') {
          const token = tokenOf(request);
          if (!token) throw new AppError('hint_unauthorized', 401);
          operator = await admin.resolve(token, clientIp(request));
          await budgets.user(request, reply, `operator:${operator.operatorId}`);
          const allowed = spec.access;
          if (allowed !== 'any' && !operator.roles.some((role) => allowed.includes(role)))
            throw new AppError('hint_forbidden', 403);
        }
        const query = spec.query ? parseInput(spec.query, request.query) : undefined;
        const body = spec.body ? parseInput(spec.body, request.body) : undefined;
        return spec.handler({
          request,
          reply,
          lang: requestLanguage(request),
          query: query as z.output<QS>,
          body: body as z.output<BS>,
          operator: operator as OperatorFor<A>,
        });
      },
    });
  }
}
