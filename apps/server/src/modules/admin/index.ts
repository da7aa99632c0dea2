/**
 * The operator API (/admin-api): builds the admin service on the app's database, clock, wallet
 * review and trading settings, makes its operator sessions the Router's operator guard, and
 * registers the routes of operatorsApi (@bourse/shared) with it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { Router } from '../../http/router';
import type { Clock } from '../../lib/clock';
import { SettingsAdmin, type SettingsService } from '../settings';
import type { TradingSettingsAdmin } from '../trading';
import type { WalletReview } from '../wallet';
import type { IdentityService } from '../identity';
import type { ConsoleEvents } from './console-events';
import { identityConsoleRoutes } from './identity-routes';
import { LedgerRuns } from './ledger-runs';
import { dashboardRoutes } from './dashboard-routes';
import { DashboardService, type DashboardDeps } from './dashboard-service';
import { consoleOperatorsRoutes } from './operators-routes';
import { adminApiRoutes } from './routes';
import { AdminService, type AdminDeps } from './service';
import { adminSettingsRoutes } from './settings-routes';
import { AdminSettings } from './settings-service';
import { SystemInfoService, type SystemInfoDeps } from './system-info';
import { systemApiRoutes } from './system-routes';
import { usersConsoleRoutes } from './users-routes';
import { UsersConsole, type UsersConsoleDeps } from './users-service';

export interface AdminRoutesDeps {
  db: Database;
  config: Config;
  clock: Clock;
  wallet: WalletReview;
  trading: TradingSettingsAdmin;
  /** The platform's settings: currencies, switches and otherValue (settings-routes.ts). */
  settings: SettingsService;
  users: AdminDeps['users'] & UsersConsoleDeps['users'];
  /** Users' two-factor (the user kind): its state on a user's security tab. */
  userTwoFactor: UsersConsoleDeps['userTwoFactor'];
  /** What the dashboard reads of the running server: the market engine, the cluster, /ws. */
  dashboard: Omit<DashboardDeps, 'db' | 'clock'>;
  /** This instance, and every instance announced (several instances: through Redis). */
  instance: SystemInfoDeps['instance'];
  instances?: SystemInfoDeps['instances'];
  /** /ws connections open on this instance. */
  wsConnections: () => number;
  /** The daily scheduler, shown on the system page. */
  scheduler: SystemInfoDeps['scheduler'];
  /** The review queues' changes, streamed to consoles. */
  events: ConsoleEvents;
  /** Identity verification requests, reviewed by support. */
  identity: IdentityService;
  logger?: FastifyBaseLogger;
}

export function adminRoutes(router: Router, deps: AdminRoutesDeps): AdminService {
  const admin = new AdminService(deps);
  const operators = router.useOperators(admin);
  adminApiRoutes(operators, admin, deps.config, deps.events);
  consoleOperatorsRoutes(operators, admin, deps.config);
  usersConsoleRoutes(operators, admin, new UsersConsole(deps));
  identityConsoleRoutes(operators, admin, deps.identity);
  adminSettingsRoutes(
    operators,
    new AdminSettings({
      admin,
      settings: new SettingsAdmin({ db: deps.db, clock: deps.clock, settings: deps.settings }),
      wallet: deps.wallet,
      config: deps.config,
    }),
  );
  systemApiRoutes(
    operators,
    new LedgerRuns({ db: deps.db, clock: deps.clock, logger: deps.logger }),
    new SystemInfoService({
      db: deps.db,
      config: deps.config,
      clock: deps.clock,
      feedLeader: () => deps.dashboard.market?.leader ?? false,
      instance: deps.instance,
      instances: deps.instances,
      wsConnections: deps.wsConnections,
      scheduler: deps.scheduler,
    }),
  );
  dashboardRoutes(
    operators,
    new DashboardService({ db: deps.db, clock: deps.clock, ...deps.dashboard }),
  );
  return admin;
}

// What the rest of the server uses of this module.
export { ConsoleEvents } from './console-events';
export {
  ADMIN_LOGIN_FILE,
  adminLoginFile,
  firstPasswordRetired,
  retireFirstPassword,
  storedFirstPassword,
} from './password-file';
export { ensureFirstAdmin, findOperatorPassword, hasOperators } from './service';
