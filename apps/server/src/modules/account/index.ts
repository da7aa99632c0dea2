/**
 * Accounts: registration, sign-in and sessions, verification codes, passwords and their attempt
 * limits; the security centre (sessions and devices, login history, anti-phishing code).
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { createCodeSender } from './code-sender';
export type { CodeSender } from './code-sender';
export { accountRoutes } from './routes';
export { Avatars } from './avatar';
export { DemoResets } from './demo-reset';
export { profileRoutes } from './profile-routes';
export { securityRoutes } from './security-routes';
export { AccountService, userIdentity, withdrawHold } from './service';
