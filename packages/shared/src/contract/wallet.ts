/** The calls of deposits, withdrawals, exchange and their records. */
import { route } from './route';

export const walletApi = {};
void route;
