/**
 * Two-factor authentication of users (TOTP and recovery codes): setting it up, the codes asked at
 * sign-in, for withdrawals and security changes, and the sign-in challenges.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { twoFactorRoutes } from './routes';
export { TwoFactorService } from './service';
export type { TwoFactorDeps } from './service';
export { TWO_FACTOR_KEY_FILE, secretSealer } from './sealing';
export type { SecretSealer } from './sealing';
