/**
 * The console's ledger and system calls (/admin-api): ledger verification runs (an admin starts
 * one; finance and admins read the runs and the platform accounts' balances) and what the server
 * runs with (admin). Nothing here moves money: the ledger is only read.
 */
import {
  ledgerRun,
  ledgerRunDetail,
  ledgerRunListQuery,
  ledgerRunQuery,
  platformBalance,
  platformBalanceQuery,
  systemInfo,
} from '../schemas/console-system';
import { ROUTE_ROLES, route } from './route';

const { ADMIN, FINANCE } = ROUTE_ROLES;

export const consoleSystemApi = {
  startLedgerRun: route({
    method: 'POST',
    path: '/admin-api/ledger/runs/start',
    auth: 'operator',
    roles: ADMIN,
    summary:
      'Starts a verification of the ledger in the background (`hint_48` and the running one while one runs, on any instance).',
    data: ledgerRun,
  }),
  ledgerRuns: route({
    method: 'GET',
    path: '/admin-api/ledger/runs',
    auth: 'operator',
    roles: FINANCE,
    summary: 'Ledger verification runs, newest first, of one status when given.',
    query: ledgerRunListQuery,
    rows: ledgerRun,
  }),
  ledgerRun: route({
    method: 'GET',
    path: '/admin-api/ledger/runs/detail',
    auth: 'operator',
    roles: FINANCE,
    summary: 'One verification run: its progress while it runs, its verdict and violations after.',
    query: ledgerRunQuery,
    data: ledgerRunDetail,
    hints: ['hint_notFound'],
  }),
  platformBalances: route({
    method: 'GET',
    path: '/admin-api/ledger/platformBalances',
    auth: 'operator',
    roles: FINANCE,
    summary:
      "The platform accounts' balances (external world, fees, house, interest, rewards, demo faucet) per currency, of one book.",
    query: platformBalanceQuery,
    rows: platformBalance,
  }),
  systemInfo: route({
    method: 'GET',
    path: '/admin-api/system',
    auth: 'operator',
    roles: ADMIN,
    summary:
      'The configuration in force (secrets never), migrations applied, version, the instances and the market feed lease.',
    data: systemInfo,
  }),
};
