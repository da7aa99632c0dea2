/**
 * Quotes: what the app's quote screens read (products, tickers, candles, favourites, rates).
 * The feed that prices them is src/market (the engine, providers, tick log and /ws fan-out).
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { quotesRoutes } from './routes';
export { QuotesService } from './service';
