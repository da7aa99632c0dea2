/**
 * Earn (issue 23): lock mining and staking — products, orders, the daily interest job and the
 * console's products, review queue and report.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { earnConsoleRoutes, earnRoutes } from './routes';
export { EarnConsole } from './console';
export { EarnDailyJob, EARN_BATCH } from './job';
export { Earn } from './service';
