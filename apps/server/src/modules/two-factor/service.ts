/**
 * Two-factor authentication of users and of operators (one service per kind, each on its own
 * tables, keys and locks): TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step
 * either side accepted for clock drift) through `otpauth`, and 10 single-use recovery codes.
 *
 * - A code works once: the step of the last accepted code is kept, and a code of that step or an
 *   earlier one is refused (RFC 6238 section 5.2), in one statement (repo.useStep).
 * - Every code check, wherever it is asked (sign-in, withdrawals, security changes), counts towards
 *   one lock per user: 5 wrong codes lock two-factor for an hour, as the withdrawal password
 *   (auth/attempts.ts reserves each check before it runs, so parallel guesses get no more tries).
 * - The secret is kept sealed (sealing.ts); recovery codes and challenges only as SHA-256 hashes
 *   (random, 50 and 256 bits: a slow hash would add nothing).
 */
import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { TWO_FACTOR, type TwoFactorSetup, type TwoFactorStatus } from '@bourse/shared';
import { AttemptLimiter } from '../../auth/attempts';
import type { Database, Queryable } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError, assert } from '../../lib/errors';
import { newToken, sha256 } from '../../lib/secrets';
import { notices, type NoticeWriter } from '../messages';
import * as repo from './repo';
import { TABLES, type TwoFactorKind, type TwoFactorTables } from './repo';
import { keyFromDataDir, parseKey, SecretSealer } from './sealing';

const HOUR_MS = 3_600_000;
const PERIOD_MS = TWO_FACTOR.periodSeconds * 1000;
/** Steps either side of now whose code is accepted (phone clocks drift). */
const WINDOW_STEPS = 1;
/** Recovery codes are typed from paper: lower-case letters and digits without look-alikes. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** The field a code is asked in, when the call names none. */
const CODE_FIELD = 'twoFactorCode';

export interface TwoFactorDeps {
  /** Whose second factor (default: users'). */
  kind?: TwoFactorKind;
  db: Database;
  clock: Clock;
  config: { TWO_FACTOR_KEY?: string; dataDir: string };
  /**
   * Checks a signed-in owner's password (counted towards its lock; the account's or the operator
   * sessions') and gives the name of the account the authenticator app lists the code under.
   */
  confirmLoginPassword(userId: number, password: string): Promise<{ accountName: string }>;
  /** The name the authenticator app shows above the account (the site's name). */
  issuer(): Promise<string>;
  /** Users' notifications of their own events (turned on or off): users' kind only. */
  notices?: NoticeWriter;
}

/** What a check accepts: the app's codes, and recovery codes where the user may have lost it. */
type Accepts = 'app' | 'appOrRecovery';

function normalize(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < TWO_FACTOR.recoveryLength; i++)
    code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  const half = TWO_FACTOR.recoveryLength / 2;
  return `${code.slice(0, half)}-${code.slice(half)}`;
}

/** What a kind's hashes, locks and sealed secrets are labelled with (users' as before operators'). */
const LABELS: Record<TwoFactorKind, string> = { user: '2fa', operator: 'operator-2fa' };

function totpOf(secretBase32: string, issuer: string, label: string): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TWO_FACTOR.digits,
    period: TWO_FACTOR.periodSeconds,
    secret: Secret.fromBase32(secretBase32),
  });
}

export class TwoFactorService {
  private readonly sealer: SecretSealer;
  private readonly limiter: AttemptLimiter;
  private readonly kind: TwoFactorKind;
  private readonly tables: TwoFactorTables;
  private readonly label: string;

  constructor(private readonly deps: TwoFactorDeps) {
    this.kind = deps.kind ?? 'user';
    this.tables = TABLES[this.kind];
    this.label = LABELS[this.kind];
    const { TWO_FACTOR_KEY: key, dataDir } = deps.config;
    this.sealer = new SecretSealer(async () => (key ? parseKey(key) : keyFromDataDir(dataDir)));
    this.limiter = new AttemptLimiter(deps.db, deps.clock, {
      maxFailures: 5,
      lockMs: HOUR_MS,
      lockedKey: 'hint_twoFactorLocked',
    });
  }

  private recoveryHash(ownerId: number, code: string): string {
    return sha256(`${this.label}-recovery:${ownerId}:${code}`);
  }

  private challengeHash(token: string): string {
    return sha256(`${this.label}-challenge:${token}`);
  }

  private attemptKey(ownerId: number): string {
    return `${this.label}:${ownerId}`;
  }

  /** The additional data a secret is sealed under: its owner. */
  private sealedFor(ownerId: number): string {
    return `${this.kind}:${ownerId}`;
  }

  /** Whether the user has two-factor on (sign-in, withdrawals and security changes ask a code). */
  async isEnabled(userId: number, q: Queryable = this.deps.db): Promise<boolean> {
    return Boolean((await repo.findTwoFactor(q, this.tables, userId))?.enabled_at);
  }

  async status(userId: number): Promise<TwoFactorStatus> {
    const row = await repo.findTwoFactor(this.deps.db, this.tables, userId);
    const enabled = Boolean(row?.enabled_at);
    return {
      enabled: enabled ? 1 : 0,
      pending: row && !enabled ? 1 : 0,
      recoveryCodesLeft: enabled
        ? await repo.countRecoveryCodesLeft(this.deps.db, this.tables, userId)
        : 0,
    };
  }

  /**
   * Starts setting up (confirmed with the login password): a new secret, sealed and kept waiting
   * for its first code. Setting up again before that replaces it (a new QR).
   */
  async setup(userId: number, password: string): Promise<TwoFactorSetup> {
    if (await this.isEnabled(userId)) throw new AppError('hint_twoFactorAlreadyOn', 409);
    const { accountName } = await this.deps.confirmLoginPassword(userId, password);
    // 160 bits, the length RFC 4226 recommends for HMAC-SHA-1.
    const secret = new Secret({ size: 20 }).base32;
    const sealed = await this.sealer.seal(secret, this.sealedFor(userId));
    if (
      !(await repo.savePendingSecret(
        this.deps.db,
        this.tables,
        userId,
        sealed,
        this.deps.clock.now(),
      ))
    )
      throw new AppError('hint_twoFactorAlreadyOn', 409);
    const uri = totpOf(secret, await this.deps.issuer(), accountName).toString();
    return { secret, uri };
  }

  /**
   * Turns two-factor on with a code of the app (which shows the secret reached it); answers the
   * recovery codes, the only time they are shown.
   */
  async enable(userId: number, code: string): Promise<{ recoveryCodes: string[] }> {
    const row = await repo.findTwoFactor(this.deps.db, this.tables, userId);
    if (!row) throw new AppError('hint_twoFactorNotSetUp', 422);
    if (row.enabled_at) throw new AppError('hint_twoFactorAlreadyOn', 409);
    await this.check(userId, code, 'app', 'code');
    const recoveryCodes = Array.from({ length: TWO_FACTOR.recoveryCodes }, newRecoveryCode);
    const told = [notices.security(userId, 'twoFactorChanged', this.deps.clock.now())];
    const turnedOn = await this.deps.db.transaction(async (tx) => {
      if (!(await repo.enable(tx, this.tables, userId, this.deps.clock.now()))) return false;
      await this.deps.notices?.record(tx, told);
      await repo.replaceRecoveryCodes(
        tx,
        this.tables,
        userId,
        recoveryCodes.map((recovery) => this.recoveryHash(userId, normalize(recovery))),
      );
      return true;
    });
    if (!turnedOn) throw new AppError('hint_twoFactorAlreadyOn', 409);
    this.deps.notices?.push(told);
    return { recoveryCodes };
  }

  /**
   * Turns two-factor off with a current code or a recovery code; `then` runs in the removal's
   * transaction (an audit entry).
   */
  async disable(
    userId: number,
    code: string,
    then?: (tx: Queryable) => Promise<unknown>,
  ): Promise<void> {
    if (!(await this.isEnabled(userId))) throw new AppError('hint_twoFactorOff', 422);
    await this.check(userId, code, 'appOrRecovery', 'code');
    const told = [notices.security(userId, 'twoFactorChanged', this.deps.clock.now())];
    await this.deps.db.transaction(async (tx) => {
      await repo.remove(tx, this.tables, userId);
      await this.deps.notices?.record(tx, told);
      await then?.(tx);
    });
    this.deps.notices?.push(told);
  }

  /**
   * Removes the owner's two-factor (secret, recovery codes and lock) in the caller's transaction,
   * without a code: an operator's reset for someone who lost their device, audited by the
   * caller. False when there was none (on or waiting).
   */
  async reset(tx: Queryable, ownerId: number): Promise<boolean> {
    const removed = await repo.remove(tx, this.tables, ownerId);
    await this.limiter.clear(this.attemptKey(ownerId), tx);
    return removed;
  }

  /**
   * Where a change needs the second factor once it is on (withdrawals, password changes): nothing
   * when two-factor is off; else `code` must be a current code or a recovery code.
   */
  async requireCode(userId: number, code: string | undefined, field = CODE_FIELD): Promise<void> {
    if (!(await this.isEnabled(userId))) return;
    await this.check(userId, code, 'appOrRecovery', field);
  }

  /** Whether a code is asked of this user (so a caller can refuse before other checks). */
  async refuseMissingCode(userId: number, code: string | undefined, field = CODE_FIELD) {
    if (!code && (await this.isEnabled(userId)))
      throw new AppError('hint_twoFactorRequired', 422, [field]);
  }

  /**
   * Checks a code of an enabled (or, for `enable`, a waiting) secret, counted towards the lock;
   * `hint_twoFactorRequired` when there is none, `hint_twoFactorWrong` on `field` when wrong.
   */
  async check(
    userId: number,
    code: string | undefined,
    accepts: Accepts = 'appOrRecovery',
    field = CODE_FIELD,
  ): Promise<void> {
    if (!code) throw new AppError('hint_twoFactorRequired', 422, [field]);
    const typed = normalize(code);
    await this.limiter.attempt(
      this.attemptKey(userId),
      () => this.verify(userId, typed, accepts),
      () => new AppError('hint_twoFactorWrong', 422, [field]),
    );
  }

  private async verify(userId: number, typed: string, accepts: Accepts): Promise<boolean> {
    const now = this.deps.clock.now();
    if (new RegExp(`^\\d{${TWO_FACTOR.digits}}$`).test(typed)) {
      const row = await repo.findTwoFactor(this.deps.db, this.tables, userId);
      if (!row) return false;
      const secret = await this.sealer.open(row.secret_sealed, this.sealedFor(userId));
      const totp = totpOf(secret, '', 'user');
      const delta = totp.validate({ token: typed, timestamp: now.getTime(), window: WINDOW_STEPS });
      if (delta === null) return false;
      const step = Math.floor(now.getTime() / PERIOD_MS) + delta;
      assert(Number.isSafeInteger(step) && step > 0, 'two-factor step out of range');
      // A code of a step already used (the same one replayed, or an older one) is refused.
      return repo.useStep(this.deps.db, this.tables, userId, step);
    }
    if (accepts === 'app' || typed.length !== TWO_FACTOR.recoveryLength) return false;
    if (!(await this.isEnabled(userId))) return false;
    return repo.useRecoveryCode(
      this.deps.db,
      this.tables,
      userId,
      this.recoveryHash(userId, typed),
      now,
    );
  }

  // ------------------------------------------------------------ sign-in challenges

  /** A sign-in whose password was right waits for its code: the token to send back with it. */
  async startChallenge(userId: number): Promise<string> {
    const token = newToken();
    const at = this.deps.clock.now();
    await repo.insertChallenge(this.deps.db, this.tables, {
      tokenHash: this.challengeHash(token),
      userId,
      at,
      expiresAt: new Date(at.getTime() + TWO_FACTOR.challengeMinutes * 60_000),
    });
    return token;
  }

  /** The user a live challenge is for; `hint_twoFactorChallengeExpired` when it is not live. */
  async challengeUser(token: string): Promise<number> {
    const userId = await repo.findChallengeUser(
      this.deps.db,
      this.tables,
      this.challengeHash(token),
      this.deps.clock.now(),
    );
    if (userId === undefined) throw new AppError('hint_twoFactorChallengeExpired', 422);
    return userId;
  }

  /** Uses a challenge up in the caller's transaction (the one opening the session). */
  async endChallenge(tx: Queryable, token: string): Promise<void> {
    if (
      !(await repo.useChallenge(tx, this.tables, this.challengeHash(token), this.deps.clock.now()))
    )
      throw new AppError('hint_twoFactorChallengeExpired', 422);
  }
}
