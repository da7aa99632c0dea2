/**
 * Trading: fast trades, contracts, spot and coin-to-coin orders, the trigger engine and the
 * operators' trading settings.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { Contracts } from './contracts';
export type { CopyHookRow, CopyHooks } from './common';
export { FastTrades } from './fast-trade';
export { contractRoutes, tradingRoutes } from './routes';
export { TradingSettingsAdmin } from './settings-admin';
export type { FastTradeOptionSaveInput, FeeSaveInput, ProductUpdateInput } from './settings-admin';
export { SpotTrading } from './spot';
export { spotRoutes } from './spot-routes';
export { TriggerEngine } from './triggers';
