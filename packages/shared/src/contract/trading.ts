/** The calls of fast trades, contracts, spot and coin-to-coin. */
import { route } from './route';

export const tradingApi = {};
void route;
