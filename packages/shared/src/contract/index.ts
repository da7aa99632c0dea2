/**
 * The route table: every call of /api and /admin-api, declared once (see route.ts), by area. The
 * server registers its handlers from it, the web app calls it with `api.call`, and the OpenAPI
 * reference is generated from it.
 */
import { accountApi } from './account';
import { apiKeysApi } from './api-keys';
import { assetsApi } from './assets';
import { consoleDashboardApi } from './console-dashboard';
import { consoleIdentityApi } from './console-identity';
import { consoleOperatorsApi } from './console-operators';
import { consoleSettingsApi } from './console-settings';
import { consoleSystemApi } from './console-system';
import { consoleUsersApi } from './console-users';
import { identityApi } from './identity';
import { operatorsApi } from './operators';
import { paymentMethodsApi } from './payment-methods';
import { quotesApi } from './quotes';
import { securityApi } from './security';
import type { Route } from './route';
import { settingsApi } from './settings';
import { tradingApi } from './trading';
import { walletApi } from './wallet';

export * from './route';
export * from './answer';
export {
  accountApi,
  apiKeysApi,
  assetsApi,
  consoleDashboardApi,
  consoleIdentityApi,
  consoleOperatorsApi,
  consoleSettingsApi,
  consoleSystemApi,
  consoleUsersApi,
  identityApi,
  operatorsApi,
  paymentMethodsApi,
  quotesApi,
  securityApi,
  settingsApi,
  tradingApi,
  walletApi,
};

/** Every area of the table. */
export const routeTable = {
  account: accountApi,
  apiKeys: apiKeysApi,
  assets: assetsApi,
  consoleDashboard: consoleDashboardApi,
  consoleIdentity: consoleIdentityApi,
  consoleOperators: consoleOperatorsApi,
  consoleSettings: consoleSettingsApi,
  consoleSystem: consoleSystemApi,
  consoleUsers: consoleUsersApi,
  identity: identityApi,
  operators: operatorsApi,
  paymentMethods: paymentMethodsApi,
  quotes: quotesApi,
  security: securityApi,
  settings: settingsApi,
  trading: tradingApi,
  wallet: walletApi,
} as const;

/** Every route of the table, as a list. */
export function allRoutes(): Route[] {
  return Object.values(routeTable).flatMap((area) => Object.values(area) as Route[]);
}
