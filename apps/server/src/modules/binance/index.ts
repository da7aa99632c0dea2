/**
 * The Binance-compatible API (issue 20): Binance's spot REST dialect under `/binance`, so that
 * the bots and client libraries people already run (ccxt and the like) work with Bourse by
 * changing their base URL. Market data of every product; account, orders and fills of the
 * coin-to-coin book of an API key's user, through the trading service. docs/binance-api.md says
 * what is covered, what is not, and how to point ccxt at it.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database';
import type { RequestBudgets } from '../../http/budgets';
import type { Clock } from '../../lib/clock';
import type { MarketEngine } from '../../market/engine';
import type { ApiKeyCalls } from '../api-keys';
import type { AssetsService } from '../assets';
import type { QuotesService } from '../quotes';
import type { SettingsService } from '../settings';
import type { SpotTrading } from '../trading';
import { BinanceMarket } from './market';
import { BinanceOrders } from './orders';
import { binanceRoutes } from './routes';

/** Where the routes live. */
export const BINANCE_PREFIX = '/binance';

export interface BinanceApiOptions {
  db: Database;
  clock: Clock;
  calls: ApiKeyCalls;
  budgets: RequestBudgets;
  settings: SettingsService;
  assets: AssetsService;
  /** The general budget per minute: the weight a key may use is five times it. */
  requestsPerMinute: number;
  /** Absent without a market feed (MARKET_FEED=off): no symbols, no orders. */
  engine?: MarketEngine;
  quotes?: QuotesService;
  spot?: SpotTrading;
}

/** A Fastify plugin of the routes; register it with `{ prefix: BINANCE_PREFIX }`. */
export async function binanceApi(scope: FastifyInstance, options: BinanceApiOptions) {
  const { engine, quotes, spot } = options;
  const market =
    engine && quotes
      ? new BinanceMarket({ engine, quotes, settings: options.settings, clock: options.clock })
      : undefined;
  const orders =
    market && spot
      ? new BinanceOrders({
          db: options.db,
          clock: options.clock,
          spot,
          market,
          settings: options.settings,
          assets: options.assets,
        })
      : undefined;
  await binanceRoutes(scope, {
    calls: options.calls,
    budgets: options.budgets,
    clock: options.clock,
    weightPerMinute: 5 * options.requestsPerMinute,
    market,
    orders,
  });
}
