/**
 * Welfare tasks, deposit reward tiers and award records (issue 22).
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { rewardConsoleRoutes, rewardRoutes } from './routes';
export { RewardsConsole } from './console';
export { heardBy, Rewards, SWEEP_INTERVAL_MS } from './service';
