/** Spot (`spotTradeOrder/*`) and coin-to-coin (`bibiTradeOrder/*`, `userBibiAssets/list`) calls. */
import type { Router } from '../../http/router';
import type { SpotTrading } from './spot';

export function spotRoutes(_router: Router, _spot: SpotTrading): void {}
