/**
 * What every call made with an API key goes through, whichever way it is signed (Bourse's own
 * headers, or the Binance-compatible layer's query parameters): the key looked up by its public
 * id, its state, the HMAC of the signed text with its secret, the client's address against its
 * allow-list, the permission a route asks, the signature claimed once within its window, and the
 * call written to the usage log.
 *
 * - Each call looks its key up (the lookups of one turn of the event loop in one statement);
 *   nothing is cached between calls, so a revocation counts at once on every instance.
 * - The secret is kept sealed (the two-factor module's SecretSealer, under TWO_FACTOR_KEY) and
 *   opened only to compute an HMAC; it is never logged or answered again.
 * - A signature's hash is claimed until its window closes; a claim that finds it there is a
 *   signature used again. Claims and usage entries of one turn are written together, and each
 *   write prunes a bounded batch of what expired (docs/adr/0010).
 */
import DataLoader from 'dataloader';
import type { FastifyBaseLogger } from 'fastify';
import { API_KEY, USER_STATUS, type ApiKeyPermission } from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Session } from '../../http/router';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { sha256 } from '../../lib/secrets';
import type { SecretSealer } from '../two-factor';
import { TurnBatch } from './batch';
import * as repo from './repo';
import type { CallKeyRow } from './repo';
import { addressAllowed, hmacHex, permits, signaturesMatch } from './signing';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A key as a call sees it. */
export interface CallKey {
  readonly id: number;
  readonly userId: number;
  readonly apiKey: string;
  readonly permissions: readonly ApiKeyPermission[];
  readonly ipList: readonly string[];
  /** The book it acts in: 0 live, 2 demo. */
  readonly accountType: 0 | 2;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
  /** Whether an operator disabled its user. */
  readonly userDisabled: boolean;
  readonly secretSealed: string;
}

/** One call made with a key, as the usage log keeps it. */
export interface KeyUse {
  key: CallKey;
  method: string;
  /** The route's path (no query). */
  path: string;
  ip: string;
  status: number;
  msg: string;
}

export interface ApiKeyCallsDeps {
  db: Database;
  clock: Clock;
  sealer: SecretSealer;
  logger: FastifyBaseLogger;
}

/** What a key's secret is sealed under: its owner and public id. */
export function sealedFor(userId: number, apiKey: string): string {
  return `api-key:${userId}:${apiKey}`;
}

function callKeyOf(row: CallKeyRow): CallKey {
  return {
    id: row.id,
    userId: row.user_id,
    apiKey: row.api_key,
    permissions: row.permissions,
    ipList: row.ip_list,
    accountType: row.account_type,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    userDisabled: row.user_status !== USER_STATUS.active,
    secretSealed: row.secret_sealed,
  };
}

export class ApiKeyCalls {
  private readonly keys: DataLoader<string, CallKeyRow | undefined>;
  private readonly claims: TurnBatch<{ hash: string; until: Date }, boolean>;
  private readonly uses: TurnBatch<KeyUse, undefined>;

  constructor(private readonly deps: ApiKeyCallsDeps) {
    this.keys = new DataLoader(
      async (apiKeys) => {
        const rows = await repo.findKeysForCalls(deps.db, apiKeys);
        const byKey = new Map(rows.map((row) => [row.api_key, row]));
        return apiKeys.map((apiKey) => byKey.get(apiKey));
      },
      { cache: false, batchScheduleFn: (run) => setImmediate(run), maxBatchSize: 200 },
    );
    this.claims = new TurnBatch(async (claims) => {
      // The same signature twice in one batch: the first claims it.
      const first = new Map<string, number>();
      claims.forEach((claim, i) => {
        if (!first.has(claim.hash)) first.set(claim.hash, i);
      });
      const unique = [...first.values()].map((i) => claims[i]!);
      const claimed = await repo.claimSignatures(deps.db, unique, deps.clock.now());
      return claims.map((claim, i) => first.get(claim.hash) === i && claimed.has(claim.hash));
    });
    this.uses = new TurnBatch(async (uses) => {
      const now = deps.clock.now();
      await repo.insertKeyUses(
        deps.db,
        uses.map((use) => ({
          keyId: use.key.id,
          userId: use.key.userId,
          at: now,
          method: use.method,
          path: use.path,
          ip: use.ip,
          status: use.status,
          msg: use.msg,
        })),
        new Date(now.getTime() - API_KEY.usageKeepDays * DAY_MS),
      );
      return uses.map(() => undefined);
    });
  }

  /** The key of a public id, as the database has it now; undefined when there is none. */
  async find(apiKey: string): Promise<CallKey | undefined> {
    if (!/^[A-Za-z0-9]{1,64}$/.test(apiKey)) return undefined;
    const row = await this.keys.load(apiKey);
    return row && callKeyOf(row);
  }

  /**
   * Refuses a key that cannot act (401): revoked (`hint_apiKeyRevoked`), expired
   * (`hint_apiKeyExpired`), or its user disabled by an operator (`hint_accountDisabled`).
   */
  refuseUnusable(key: CallKey): void {
    if (key.revokedAt) throw new AppError('hint_apiKeyRevoked', 401);
    if (key.expiresAt && key.expiresAt <= this.deps.clock.now())
      throw new AppError('hint_apiKeyExpired', 401);
    if (key.userDisabled) throw new AppError('hint_accountDisabled', 401);
  }

  /** Whether `signatureHex` is the HMAC-SHA256 of the parts (in order) with the key's secret. */
  async verifySignature(
    key: CallKey,
    parts: readonly (string | Buffer)[],
    signatureHex: string,
  ): Promise<boolean> {
    const secret = await this.deps.sealer.open(key.secretSealed, sealedFor(key.userId, key.apiKey));
    return signaturesMatch(hmacHex(secret, parts), signatureHex);
  }

  /** Whether the key accepts calls from this client address. */
  allowsAddress(key: CallKey, ip: string): boolean {
    return addressAllowed(key.ipList, ip);
  }

  /** Whether the key holds the permission a route asks (none asked: never). */
  allows(key: CallKey, needed: ApiKeyPermission | undefined): boolean {
    return permits(key.permissions, needed);
  }

  /**
   * What a call with the key acts as: its user in its book (no session: id 0), as the Router's
   * handlers read a session.
   */
  sessionOf(key: CallKey): Session {
    return { id: 0, userId: key.userId, accountType: key.accountType, apiKeyId: key.id };
  }

  /**
   * Claims a signature of the key until `until` (when its window closes): false when it was
   * claimed before, a signature used again. `scope` tells apart the signings' claims.
   */
  claimSignature(
    key: CallKey,
    signatureHex: string,
    until: Date,
    scope = 'bourse',
  ): Promise<boolean> {
    const hash = sha256(`${scope}:${key.id}:${signatureHex.toLowerCase()}`);
    return this.claims.add({ hash, until });
  }

  /**
   * Writes a call to the usage log (with the others of this turn) and resolves once it is written;
   * a failed write is logged, never thrown: the call's answer does not depend on it.
   */
  async recordUse(use: KeyUse): Promise<void> {
    try {
      await this.uses.add(use);
    } catch (error) {
      this.deps.logger.error({ err: error, keyId: use.key.id }, 'API key use not recorded');
    }
  }
}
