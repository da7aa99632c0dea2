/**
 * New shares and new coins (issue 24): offerings with a subscription window, subscriptions whose
 * cost is frozen by a ledger hold, the allocation by the published rule (worker), listing on the
 * feed at the offer price with the allocated shares locked until the lock-up ends, and the
 * console's offerings, subscriptions, allocation and cancel.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { newSharesConsoleRoutes, newSharesRoutes } from './routes';
export { NewSharesConsole } from './console';
export { NewSharesWorker } from './worker';
export { NewShares } from './service';
