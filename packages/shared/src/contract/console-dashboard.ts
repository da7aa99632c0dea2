/**
 * The console's dashboard (/admin-api/dashboard/*): figures computed by the server from the
 * database and its running parts, never typed in (PRODUCT section 1). Three calls, so each role
 * gets what its work needs: the overview (users, the market feed, the lease, /ws) for admin,
 * finance and support; the money figures (deposits, withdrawals) and the trading figures (volume,
 * fees, open interest, open fast trades) for admin and finance. Content operators edit texts and
 * see none of it. Every call only reads.
 */
import type { OperatorRole } from '../constants';
import { dashboardMoney, dashboardOverview, dashboardTrading } from '../schemas/console-dashboard';
import { route } from './route';

const OPERATIONS = ['admin', 'finance', 'support'] as const satisfies readonly OperatorRole[];
const FINANCE = ['admin', 'finance'] as const satisfies readonly OperatorRole[];

export const consoleDashboardApi = {
  overview: route({
    method: 'GET',
    path: '/admin-api/dashboard/overview',
    auth: 'operator',
    roles: OPERATIONS,
    summary:
      "Users (total, new and signed in today), the market feed's state per product type, the market lease and this instance's /ws connections. Admin, finance and support: support answers users about sign-ins and prices; no money figure is in it.",
    data: dashboardOverview,
  }),
  money: route({
    method: 'GET',
    path: '/admin-api/dashboard/money',
    auth: 'operator',
    roles: FINANCE,
    summary:
      "Deposits and withdrawals per currency: under review (count, amount) and today's approved and paid totals. Admin and finance.",
    data: dashboardMoney,
  }),
  trading: route({
    method: 'GET',
    path: '/admin-api/dashboard/trading',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Live-book trading volume and fees per kind (fast trades, contracts, spot, coin-to-coin) and currency, today and per day over 30 days; open contract interest per product; open fast trades. Admin and finance.',
    data: dashboardTrading,
  }),
};
