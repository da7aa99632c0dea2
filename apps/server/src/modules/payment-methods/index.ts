/**
 * Bank cards and wallet addresses users withdraw to.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { paymentMethodRoutes } from './routes';
export { WithdrawWhitelists } from './whitelist';
export type { WithdrawTarget } from './whitelist';
