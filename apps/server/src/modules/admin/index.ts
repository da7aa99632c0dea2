/**
 * The operator API (/admin-api): builds the admin service on the app's database, clock, wallet
 * review and trading settings, and declares its routes with their own router and operator sessions.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { RequestBudgets } from '../../http/budgets';
import type { Clock } from '../../lib/clock';
import type { TradingSettingsAdmin } from '../trading/settings-admin';
import type { WalletReview } from '../wallet/review';
import { AdminRouter } from './router';
import { adminApiRoutes } from './routes';
import { AdminService, type AdminDeps } from './service';

export interface AdminRoutesDeps {
  db: Database;
  config: Config;
  clock: Clock;
  wallet: WalletReview;
  trading: TradingSettingsAdmin;
  users: AdminDeps['users'];
  /** The general request budget, shared with /api. */
  budgets: RequestBudgets;
}

export function adminRoutes(app: FastifyInstance, deps: AdminRoutesDeps): AdminService {
  const admin = new AdminService({ ...deps, logger: app.log });
  const router = new AdminRouter(app, admin, deps.budgets);
  adminApiRoutes(router, admin, deps.config);
  return admin;
}
