/**
 * Platform settings read at launch: site info, switches, languages, currencies, page configuration.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { listFees, lockFee, saveFee } from './repo';
export type { BankPropertyRow, FeeRow } from './repo';
export { SettingsAdmin } from './admin';
export type { SettingsAuditWriter } from './admin';
export { settingsRoutes } from './routes';
export { countryName, currencyIn, SettingsService } from './service';
export type { Currency } from './service';
