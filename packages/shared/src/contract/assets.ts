/** The calls of balances, valuation and account records. */
import { route } from './route';

export const assetsApi = {};
void route;
