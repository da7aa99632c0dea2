/**
 * Balances and their value in the trade currency: the wallet overview, the person centre and the
 * conversion rates.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { identityRates } from './rates';
export type { RateSource } from './rates';
export type { HeldOutside, OpenPositions, RealizedResults } from './service';
export { assetsRoutes } from './routes';
export { AssetsService } from './service';
