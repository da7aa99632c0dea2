/**
 * Team and referral: the ancestry of users up to three levels, the commission terms, the
 * commission worker that pays invitees' trading fees to their inviters through the ledger, the
 * freezes, and their calls.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { referralConsoleRoutes, referralRoutes } from './routes';
export { maskAccount, ReferralConsole, refuseSelfReferral, TeamService } from './service';
export { CommissionWorker } from './worker';
