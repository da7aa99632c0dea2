/**
 * The Binance-compatible API's routes, registered on Fastify directly under `/binance` (its
 * dialect is not Bourse's envelope): Binance's paths, parameters read from the raw query and form
 * body, answers as Binance writes them, refusals as `{ code, msg }` (errors.ts), the request
 * weight in `x-mbx-used-weight(-1m)` (weights.ts). Every call counts against the general request
 * budget of its client address, and a signed one against its key's and its user's, as calls to
 * Bourse's own API with a key do; every answer to a call naming a known key, refusals included,
 * goes to the key's usage log with the Bourse hint that says why (once sent: usage-log.ts).
 *
 * Also answered, empty, so that ccxt's `binance` class with its default options loads its markets
 * with nothing but the host of its URLs changed: the currency, margin-pair and futures
 * exchange-information calls it makes on the way (docs/binance-api.md).
 */
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
} from 'fastify';
import type { ApiKeyPermission } from '@bourse/shared';
import type { Actor } from '../../http/actor';
import type { RequestBudgets } from '../../http/budgets';
import { clientIp } from '../../http/client';
import { keepRawBody } from '../../http/raw-body';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { ApiKeyCalls, CallKey } from '../api-keys';
import { BinanceError, binanceErrorOf, refusals } from './errors';
import { BinanceMarket } from './market';
import { BinanceOrders } from './orders';
import { Params } from './params';
import { BinanceSigning, KEY_HEADER, queryText } from './signing';
import { UsageLog } from './usage-log';
import { WeightMeter } from './weights';

export interface BinanceRoutesDeps {
  calls: ApiKeyCalls;
  budgets: RequestBudgets;
  clock: Clock;
  /** Request weight a key (or a client address) may use in a minute. */
  weightPerMinute: number;
  /** Absent without a market feed: no symbols, no orders. */
  market?: BinanceMarket;
  orders?: BinanceOrders;
}

/** What a call is, as its answer's hooks need it. */
interface CallState {
  /** The key it named, once known: its answer goes to the key's usage log. */
  key?: CallKey;
  /** The Bourse hint the usage log keeps for the answer. */
  hint: string;
  /** The client's weight this minute, once counted. */
  usedWeight?: number;
}

const states = new WeakMap<FastifyRequest, CallState>();

interface CallContext {
  params: Params;
  /** Signed calls: the key's user in its book. */
  actor: Actor | null;
  key: CallKey | null;
}

interface Endpoint {
  method: HTTPMethods;
  url: string;
  /** Binance's weight of the call, from its parameters when it depends on them. */
  weight: number | ((params: Params) => number);
  /** Signed calls: the permission the key needs. */
  permission?: ApiKeyPermission;
  /** Answers the call: reads every parameter (`params.allRead()`) before acting. */
  handle(context: CallContext): Promise<unknown>;
}

/** The weight of depth by its limit (Binance's steps). */
function depthWeight(limit: number): number {
  if (limit <= 100) return 5;
  if (limit <= 500) return 25;
  if (limit <= 1000) return 50;
  return 250;
}

/** The weight of the 24-hour ticker by how many symbols it names (0: all). */
function tickerWeight(count: number): number {
  if (count === 0 || count > 100) return 80;
  return count > 20 ? 40 : 2;
}

/** The answer of Fastify's own refusals (body parsing) and of faults. */
function refusalOf(error: unknown, request: FastifyRequest): BinanceError {
  if (error instanceof BinanceError) return error;
  if (error instanceof AppError) return binanceErrorOf(error, 'query');
  const status = (error as FastifyError).statusCode;
  if (error instanceof SyntaxError || (status !== undefined && status >= 400 && status < 500)) {
    request.log.info({ err: error }, 'malformed request');
    return new BinanceError(-1130, 'Invalid data sent for a parameter.', 400, 'hint_badRequest');
  }
  request.log.error({ err: error }, 'request failed');
  return refusals.unknown();
}

export async function binanceRoutes(scope: FastifyInstance, deps: BinanceRoutesDeps) {
  const { market, orders } = deps;
  const signing = new BinanceSigning(deps.calls, deps.clock);
  const meter = new WeightMeter(deps.clock, deps.weightPerMinute);
  // The usage log's entries, written after the answers (usage-log.ts).
  const uses = new UsageLog(deps.calls);
  scope.addHook('onClose', async () => uses.flush());

  scope.addHook('onRequest', async (request) => {
    states.set(request, { hint: 'hint_success' });
  });
  // The general budget of the client's address, before anything is parsed or looked up.
  scope.addHook('onRequest', deps.budgets.address);
  // A signed call's body is verified as received.
  scope.addHook('preParsing', keepRawBody(KEY_HEADER));
  scope.addHook('onSend', async (request, reply, payload) => {
    const state = states.get(request);
    if (state?.usedWeight !== undefined) {
      reply.header('x-mbx-used-weight', String(state.usedWeight));
      reply.header('x-mbx-used-weight-1m', String(state.usedWeight));
    }
    return payload;
  });
  scope.addHook('onResponse', async (request, reply) => {
    const state = states.get(request);
    if (state?.key)
      uses.add({
        key: state.key,
        method: request.method,
        path: request.routeOptions.url ?? request.url.split('?')[0]!,
        ip: clientIp(request),
        status: reply.statusCode,
        msg: state.hint,
      });
  });
  scope.setErrorHandler((error, request, reply) => {
    const refusal = refusalOf(error, request);
    const state = states.get(request);
    if (state) state.hint = refusal.hint;
    if (refusal.status === 429 && reply.getHeader('retry-after') === undefined)
      reply.header('retry-after', '60');
    return reply.status(refusal.status).send({ code: refusal.code, msg: refusal.msg });
  });

  /** Counts a call's weight against a client; -1003 past the minute's limit. */
  const charge = (request: FastifyRequest, reply: FastifyReply, client: string, weight: number) => {
    const { used, exceeded, retryAfterSeconds } = meter.add(client, weight);
    states.get(request)!.usedWeight = used;
    if (exceeded) {
      reply.header('retry-after', String(retryAfterSeconds));
      throw refusals.tooMuchWeight(meter.limitPerMinute);
    }
  };

  const register = (endpoint: Endpoint) => {
    const weightOf = (params?: Params): number => {
      if (typeof endpoint.weight === 'number') return endpoint.weight;
      if (!params) return 1;
      try {
        return endpoint.weight(params);
      } catch {
        // A parameter its weight reads is malformed: the call is refused anyway.
        return 1;
      }
    };
    scope.route({
      method: endpoint.method,
      url: endpoint.url,
      handler: async (request, reply) => {
        const address = `address:${clientIp(request)}`;
        const permission = endpoint.permission;
        if (!permission) {
          let params: Params | undefined;
          try {
            params = new Params([queryText(request.url)]);
          } finally {
            charge(request, reply, address, weightOf(params));
          }
          return endpoint.handle({ params, actor: null, key: null });
        }
        let key: CallKey | undefined;
        let call;
        try {
          key = await signing.key(request);
          states.get(request)!.key = key;
          // Calls that change something claim their signature once.
          call = await signing.verify(request, key, permission, endpoint.method !== 'GET');
        } catch (error) {
          // Refused before the key is known to be its owner's: counted against the address.
          charge(request, reply, address, weightOf());
          throw error;
        }
        charge(request, reply, `apiKey:${key.id}`, weightOf(call.params));
        // Each key has a budget, and counts towards its user's too.
        await deps.budgets.user(request, reply, `apiKey:${key.id}`);
        await deps.budgets.user(request, reply, `user:${key.userId}`);
        return endpoint.handle({ params: call.params, actor: call.actor, key });
      },
    });
  };

  const needMarket = (): BinanceMarket => {
    if (!market) throw refusals.symbol();
    return market;
  };
  const needOrders = (): BinanceOrders => {
    if (!orders) throw refusals.symbol();
    return orders;
  };
  const symbolOf = (params: Params) => needMarket().symbol(params.required('symbol'));

  // ---------------------------------------------------------------- public

  register({
    method: 'GET',
    url: '/api/v3/ping',
    weight: 1,
    handle: async ({ params }) => {
      params.allRead();
      return {};
    },
  });
  register({
    method: 'GET',
    url: '/api/v3/time',
    weight: 1,
    handle: async ({ params }) => {
      params.allRead();
      return { serverTime: deps.clock.now().getTime() };
    },
  });
  register({
    method: 'GET',
    url: '/api/v3/exchangeInfo',
    weight: 20,
    handle: async ({ params }) => {
      if (!market) {
        params.allRead();
        return {
          timezone: 'UTC',
          serverTime: deps.clock.now().getTime(),
          rateLimits: [],
          exchangeFilters: [],
          symbols: [],
        };
      }
      const info = await market.exchangeInfo(params);
      params.allRead();
      return info;
    },
  });
  register({
    method: 'GET',
    url: '/api/v3/depth',
    weight: (params) => depthWeight(params.limit(100, 5000)),
    handle: async ({ params }) => {
      const limit = params.limit(100, 5000);
      const info = await symbolOf(params);
      params.allRead();
      return needMarket().depth(info, limit);
    },
  });
  register({
    method: 'GET',
    url: '/api/v3/trades',
    weight: 25,
    handle: async ({ params }) => {
      const limit = params.limit(500, 1000);
      const info = await symbolOf(params);
      params.allRead();
      return needMarket().trades(info, limit);
    },
  });
  register({
    method: 'GET',
    url: '/api/v3/aggTrades',
    weight: 4,
    handle: async ({ params }) => {
      const limit = params.limit(500, 1000);
      const fromId = params.integer('fromId');
      const startTime = params.integer('startTime');
      const endTime = params.integer('endTime');
      if (fromId !== undefined && (startTime !== undefined || endTime !== undefined))
        throw refusals.badCombination();
      if (startTime !== undefined && endTime !== undefined && endTime - startTime > 3_600_000)
        throw refusals.lookupTooBig();
      const info = await symbolOf(params);
      params.allRead();
      return needMarket().aggTrades(info, { fromId, startTime, endTime }, limit);
    },
  });
  register({
    method: 'GET',
    url: '/api/v3/klines',
    weight: 2,
    handle: async ({ params }) => {
      const interval = BinanceMarket.interval(params.required('interval'));
      const limit = params.limit(500, 1000);
      const startTime = params.integer('startTime');
      const endTime = params.integer('endTime');
      const timeZone = params.optional('timeZone');
      // Candles are cut at UTC boundaries only.
      if (
        timeZone !== undefined &&
        !['0', '+0', '-0', '00:00', '+00:00', '-00:00'].includes(timeZone)
      )
        throw refusals.invalidValue('timeZone');
      if (startTime !== undefined && endTime !== undefined && endTime < startTime)
        throw refusals.badCombination();
      const info = await symbolOf(params);
      params.allRead();
      return needMarket().klines(info, interval, { startTime, endTime }, limit);
    },
  });
  register({
    method: 'GET',
    url: '/api/v3/ticker/24hr',
    weight: (params) => tickerWeight(BinanceMarket.countNamed(params)),
    handle: async ({ params }) => {
      const type = params.choice('type', ['FULL', 'MINI'] as const) ?? 'FULL';
      const { list } = await needMarket().named(params);
      params.allRead();
      const tickers = list.map((info) => needMarket().ticker24h(info, type === 'MINI'));
      return params.has('symbol') ? tickers[0] : tickers;
    },
  });
  for (const [url, view] of [
    ['/api/v3/ticker/price', 'tickerPrice'],
    ['/api/v3/ticker/bookTicker', 'bookTicker'],
  ] as const) {
    register({
      method: 'GET',
      url,
      weight: (params) => (params.has('symbol') ? 2 : 4),
      handle: async ({ params }) => {
        const { list } = await needMarket().named(params);
        params.allRead();
        const answers = list.map((info) => needMarket()[view](info));
        return params.has('symbol') ? answers[0] : answers;
      },
    });
  }

  // ---------------------------------------------------------------- signed

  register({
    method: 'GET',
    url: '/api/v3/account',
    weight: 20,
    permission: 'read',
    handle: ({ params, actor, key }) =>
      needOrders().account(actor!, deps.calls.allows(key!, 'trade'), params),
  });
  register({
    method: 'POST',
    url: '/api/v3/order',
    weight: 1,
    permission: 'trade',
    handle: async ({ params, actor }) => {
      const order = BinanceOrders.newOrder(params);
      params.allRead();
      return needOrders().place(actor!, order);
    },
  });
  register({
    method: 'GET',
    url: '/api/v3/order',
    weight: 4,
    permission: 'read',
    handle: ({ params, actor }) => needOrders().queryOrder(actor!, params),
  });
  register({
    method: 'DELETE',
    url: '/api/v3/order',
    weight: 1,
    permission: 'trade',
    handle: ({ params, actor }) => needOrders().cancel(actor!, params),
  });
  register({
    method: 'GET',
    url: '/api/v3/openOrders',
    weight: (params) => (params.has('symbol') ? 6 : 80),
    permission: 'read',
    handle: ({ params, actor }) => needOrders().openOrders(actor!, params),
  });
  register({
    method: 'GET',
    url: '/api/v3/allOrders',
    weight: 20,
    permission: 'read',
    handle: ({ params, actor }) => needOrders().allOrders(actor!, params),
  });
  register({
    method: 'GET',
    url: '/api/v3/myTrades',
    weight: 20,
    permission: 'read',
    handle: ({ params, actor }) => needOrders().myTrades(actor!, params),
  });

  // ---------------------------------------------------------------- what ccxt asks on the way

  const emptyExchange = () => ({
    timezone: 'UTC',
    serverTime: deps.clock.now().getTime(),
    rateLimits: [],
    exchangeFilters: [],
    assets: [],
    symbols: [],
  });
  for (const [url, answer] of [
    ['/sapi/v1/capital/config/getall', () => []],
    ['/sapi/v1/margin/allPairs', () => []],
    ['/sapi/v1/margin/isolated/allPairs', () => []],
    ['/fapi/v1/exchangeInfo', emptyExchange],
    ['/dapi/v1/exchangeInfo', emptyExchange],
  ] as const) {
    register({
      method: 'GET',
      url,
      weight: 1,
      // Whatever it carries (ccxt signs the first): the answer says nothing of anyone.
      handle: async () => answer(),
    });
  }

  // Anything else under the prefix: Binance's shape, not the web app's page.
  scope.route({
    method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    url: '/*',
    handler: async () => {
      throw refusals.notFound();
    },
  });
}
