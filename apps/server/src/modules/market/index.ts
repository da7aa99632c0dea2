/**
 * Market data calls: products, tickers, candles and favourites (the feed itself lives in src/market).
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { marketRoutes } from './routes';
export { MarketService } from './service';
