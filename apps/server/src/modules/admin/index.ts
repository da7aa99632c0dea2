/**
 * The operator API (/admin-api): builds the admin service on the app's database, clock, wallet
 * review and trading settings, and declares its routes with their own router and operator sessions.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { RequestBudgets } from '../../http/budgets';
import type { Clock } from '../../lib/clock';
import type { TradingSettingsAdmin } from '../trading';
import type { WalletReview } from '../wallet';
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

// What the rest of the server uses of this module.
export {
  ADMIN_LOGIN_FILE,
  adminLoginFile,
  firstPasswordRetired,
  retireFirstPassword,
  storedFirstPassword,
} from './password-file';
export { ensureFirstAdmin, findOperatorPassword, hasOperators } from './service';
