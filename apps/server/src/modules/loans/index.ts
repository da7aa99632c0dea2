/**
 * Loans (issue 23): products, applications and their review, disbursement and repayment through
 * the ledger, and the daily run that accrues interest, settles it daily where the product says so
 * and sends reminders.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
export { loanConsoleRoutes, loanRoutes } from './routes';
export { LoansConsole } from './console';
export { Loans } from './service';
export { LOAN_BATCH_SIZE, LoanDailyJob } from './job';
export type { LoansDeps } from './common';
