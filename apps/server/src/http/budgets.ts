/**
 * The general request budget (RATE_LIMIT_GLOBAL_PER_MINUTE): one count per client address across
 * every call of /api and /admin-api, and one per signed-in user (or operator) across them too.
 * Before, each route carried the general limit as its own route limit, which @fastify/rate-limit
 * keeps in a store of that route: a client refused on one route after 1,200 reads still had 1,200
 * on every other. Here one limiter (one store) counts for all routes: `address` in each route's
 * onRequest hook, before anything is parsed or looked up; `user` once the session is known, so a
 * user spread over many addresses still has one budget.
 *
 * The tighter budgets of sign-in, registration and codes stay route limits of their own (Router's
 * `rateLimit`), on top of this one. Launch data answered from memory (`rateLimit: false`) is not
 * counted. Counters live in this instance's memory: with several instances a client that reaches
 * all of them has a budget on each.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

export interface RequestBudgetOptions {
  /** Requests per window, per address and per user. */
  max: number;
  timeWindowMs: number;
}

/** Clients each budget keeps counts of (about 100 bytes each). */
const BUDGET_CLIENTS = 100_000;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** The key of the user the request is counted for (set just before counting it). */
const budgetKey = Symbol('budgetKey');
type Keyed = FastifyRequest & { [budgetKey]?: string };

export class RequestBudgets {
  private readonly byAddress: Limiter;
  private readonly byUser: Limiter;

  /** `app` must have @fastify/rate-limit registered. */
  constructor(app: FastifyInstance, options: RequestBudgetOptions) {
    const window = {
      max: options.max,
      timeWindow: options.timeWindowMs,
      // Clients counted at once before the least recent is forgotten: the store's default of
      // 5,000 would let a crowd of addresses push each other's counts out. Not in the plugin's
      // types, but handed to the store it makes (LocalStore's `cache`).
      cache: BUDGET_CLIENTS,
    };
    this.byAddress = app.createRateLimit(window);
    this.byUser = app.createRateLimit({
      ...window,
      keyGenerator: (request) => (request as Keyed)[budgetKey] ?? `address:${request.ip}`,
    });
  }

  /** Counts a request against its client address; a 429 past the budget. */
  readonly address = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await RequestBudgets.count(this.byAddress, request, reply);
  };

  /** Counts a request against its user (`user:<id>`, `operator:<id>`); a 429 past the budget. */
  async user(request: FastifyRequest, reply: FastifyReply, key: string): Promise<void> {
    (request as Keyed)[budgetKey] = key;
    await RequestBudgets.count(this.byUser, request, reply);
  }

  private static async count(
    limiter: Limiter,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const result = await limiter(request);
    if (result.isAllowed || !result.isExceeded) return;
    const seconds = Math.max(1, result.ttlInSeconds);
    reply.header('retry-after', String(seconds));
    throw new AppError('hint_tooManyRequests', 429, [seconds]);
  }
}
