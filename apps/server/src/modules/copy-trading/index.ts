/**
 * Copy trading (issue 25): lead traders with statistics computed from their closed live contract
 * positions, followers whose copies are contract positions placed through the contracts service at
 * their own ticks (a queue in the database, carried out by the worker), the profit share above each
 * relation's high-water mark (daily and at unfollow), and the console's applications, settings,
 * traders, relations and report.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { copyTradingConsoleRoutes, copyTradingRoutes } from './routes';
export { CopyTradingConsole } from './console';
export { CopyTradingHooks } from './hooks';
export { CopyTradeDailyJob } from './settlement';
export { CopyTrading } from './service';
export { CopyWorker } from './worker';
