/**
 * The route table: every call of /api and /admin-api, declared once (see route.ts), by area. The
 * server registers its handlers from it, the web app calls it with `api.call`, and the OpenAPI
 * reference is generated from it.
 */
import { accountApi } from './account';
import { apiKeysApi } from './api-keys';
import { assetsApi } from './assets';
import { consoleContentApi } from './console-content';
import { consoleDashboardApi } from './console-dashboard';
import { consoleIdentityApi } from './console-identity';
import { consoleOperatorsApi } from './console-operators';
import { consoleSettingsApi } from './console-settings';
import { consoleSystemApi } from './console-system';
import { consoleUsersApi } from './console-users';
import { consoleServiceApi } from './console-service';
import { consoleMessagesApi } from './console-messages';
import { contentApi } from './content';
import { identityApi } from './identity';
import { messagesApi } from './messages';
import { operatorsApi } from './operators';
import { paymentMethodsApi } from './payment-methods';
import { quotesApi } from './quotes';
import { consoleRewardsApi } from './console-rewards';
import { rewardsApi } from './rewards';
import { referralApi } from './referral';
import { consoleReferralApi } from './console-referral';
import { consoleEarnApi } from './console-earn';
import { earnApi } from './earn';
import { consoleLoansApi } from './console-loans';
import { loansApi } from './loans';
import { consoleNewSharesApi } from './console-new-shares';
import { newSharesApi } from './new-shares';
import { consoleCopyTradingApi } from './console-copy-trading';
import { copyTradingApi } from './copy-trading';
import { securityApi } from './security';
import type { Route } from './route';
import { serviceApi } from './service';
import { settingsApi } from './settings';
import { tradingApi } from './trading';
import { walletApi } from './wallet';

export * from './route';
export * from './answer';
export {
  accountApi,
  apiKeysApi,
  assetsApi,
  consoleContentApi,
  consoleDashboardApi,
  consoleIdentityApi,
  consoleOperatorsApi,
  consoleSettingsApi,
  consoleSystemApi,
  consoleUsersApi,
  consoleServiceApi,
  consoleMessagesApi,
  contentApi,
  identityApi,
  messagesApi,
  operatorsApi,
  paymentMethodsApi,
  quotesApi,
  referralApi,
  consoleReferralApi,
  consoleRewardsApi,
  earnApi,
  consoleEarnApi,
  rewardsApi,
  loansApi,
  consoleLoansApi,
  newSharesApi,
  consoleNewSharesApi,
  copyTradingApi,
  consoleCopyTradingApi,
  securityApi,
  serviceApi,
  settingsApi,
  tradingApi,
  walletApi,
};

/** Every area of the table. */
export const routeTable = {
  account: accountApi,
  apiKeys: apiKeysApi,
  assets: assetsApi,
  consoleContent: consoleContentApi,
  consoleDashboard: consoleDashboardApi,
  consoleIdentity: consoleIdentityApi,
  consoleOperators: consoleOperatorsApi,
  consoleSettings: consoleSettingsApi,
  consoleSystem: consoleSystemApi,
  consoleUsers: consoleUsersApi,
  consoleService: consoleServiceApi,
  consoleMessages: consoleMessagesApi,
  content: contentApi,
  identity: identityApi,
  messages: messagesApi,
  operators: operatorsApi,
  paymentMethods: paymentMethodsApi,
  quotes: quotesApi,
  consoleRewards: consoleRewardsApi,
  rewards: rewardsApi,
  referral: referralApi,
  consoleReferral: consoleReferralApi,
  earn: earnApi,
  consoleEarn: consoleEarnApi,
  loans: loansApi,
  consoleLoans: consoleLoansApi,
  newShares: newSharesApi,
  consoleNewShares: consoleNewSharesApi,
  copyTrading: copyTradingApi,
  consoleCopyTrading: consoleCopyTradingApi,
  security: securityApi,
  service: serviceApi,
  settings: settingsApi,
  trading: tradingApi,
  wallet: walletApi,
} as const;

/** Every route of the table, as a list. */
export function allRoutes(): Route[] {
  return Object.values(routeTable).flatMap((area) => Object.values(area) as Route[]);
}
