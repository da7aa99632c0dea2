/**
 * API keys (issue 20): a user's keys and their usage log (service.ts, routes.ts), and what every
 * call made with a key goes through (calls.ts): Bourse's own signing as the Router's key guard
 * (signed-calls.ts), and for the Binance-compatible layer the same steps one by one: look a key
 * up by its public id, refuse one that cannot act, verify an HMAC over a given text with its
 * secret, check the client's address and a permission, claim a signature once, record a use.
 *
 * The module's only public face: the rest of the server imports it from here, never from its
 * files (eslint.config.js checks it).
 */
import type { NoticeWriter } from '../messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { CodeSender } from '../account';
import { secretSealer, type TwoFactorService } from '../two-factor';
import { ApiKeyCalls } from './calls';
import { ApiKeyService } from './service';
import { BourseSignedCalls } from './signed-calls';

export { apiKeyRoutes } from './routes';
export { ApiKeyCalls, ApiKeyService, BourseSignedCalls };
export type { CallKey, KeyUse } from './calls';
export { hmacHex, signaturesMatch, signedPrefix } from './signing';

export interface ApiKeysDeps {
  db: Database;
  clock: Clock;
  config: { TWO_FACTOR_KEY?: string; dataDir: string };
  twoFactor: TwoFactorService;
  codes: CodeSender;
  logger: FastifyBaseLogger;
  /** Notifications of the user's own events (a key created). */
  notices?: NoticeWriter;
}

/** The keys' service, the steps of a call with a key, and Bourse's signing over them. */
export function createApiKeys(deps: ApiKeysDeps): {
  service: ApiKeyService;
  calls: ApiKeyCalls;
  signedCalls: BourseSignedCalls;
} {
  const sealer = secretSealer(deps.config);
  const calls = new ApiKeyCalls({ db: deps.db, clock: deps.clock, sealer, logger: deps.logger });
  return {
    service: new ApiKeyService({ ...deps, sealer }),
    calls,
    signedCalls: new BourseSignedCalls(calls, deps.clock),
  };
}
