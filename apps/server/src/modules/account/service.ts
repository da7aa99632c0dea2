/**
 * Accounts: registration, login, sessions, passwords, verification codes and the live/demo
 * switch. Passwords are argon2id hashes; session tokens are random and stored as SHA-256 hashes;
 * failure counters live in the database.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import {
  ACCOUNT_TYPE,
  DEMO_GRANT_AMOUNT,
  REG_TYPE,
  SWITCH,
  USDT_CURRENCY_ID,
  VERIFICATION_CODE,
  normalizeAreaCode,
  type LanguageKey,
  type LoginBody,
  type LoginTwoFactorBody,
  type LoginResult,
  type ModifyUserInfoBody,
  type RegBody,
  type UpdateUserPwdBody,
  type UpdateUserWithPwdBody,
  type TwoFactorChallenge,
  type UserInfo,
  type VerificationPurpose,
  type WithdrawHoldCause,
} from '@bourse/shared';
import { AttemptLimiter } from '../../auth/attempts';
import { SessionStore } from '../../auth/sessions';
import type { Config } from '../../config';
import type { Database, Queryable } from '../../db/database';
import { clientIp, clientUserAgent } from '../../http/client';
import type { Session, SessionResolver } from '../../http/router';
import type { SessionsEnded } from '../../market/cluster';
import type { Clock } from '../../lib/clock';
import { refuseCommonPassword } from '../../lib/common-passwords';
import { AppError, assert } from '../../lib/errors';
import { allLanguages } from '../../lib/i18n';
import {
  hashPassword,
  newInviteCode,
  newNumericCode,
  sha256,
  verifyPassword,
} from '../../lib/secrets';
import * as ledger from '../../ledger/ledger';
import type { SettingsService } from '../settings';
import type { TwoFactorService } from '../two-factor';
import { notices, type NoticeEvent, type NoticeWriter } from '../messages';
import { refuseSelfReferral } from '../referral';
import { describeDevice } from '../../lib/device';
import type { CodeSender } from './code-sender';
import * as repo from './repo';
import { AccountSecurity } from './security';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Withdrawals wait this long after a security change (see withdrawHold). */
export const WITHDRAW_HOLD_MS = 24 * HOUR_MS;

/** A user's security changes, each of which holds withdrawals for a day, and what they are. */
const HOLD_CAUSES = {
  pwd_changed_at: 'password',
  with_pwd_changed_at: 'withdrawPassword',
  whitelist_off_at: 'whitelistOff',
  two_factor_reset_at: 'twoFactorReset',
} as const satisfies Partial<Record<keyof repo.UserRow, WithdrawHoldCause>>;
export type SecurityChanges = Pick<repo.UserRow, keyof typeof HOLD_CAUSES>;

/**
 * Whether a user's withdrawals are held at `now`: until WITHDRAW_HOLD_MS after the latest security
 * change (a login or withdrawal password change, the whitelist turned off, an admin's reset of
 * their two-factor), with the change that set it; undefined when none is that recent.
 */
export function withdrawHold(
  changes: SecurityChanges,
  now: Date,
): { until: Date; cause: WithdrawHoldCause } | undefined {
  let latest: { at: number; cause: WithdrawHoldCause } | undefined;
  for (const [column, cause] of Object.entries(HOLD_CAUSES)) {
    const at = changes[column as keyof SecurityChanges]?.getTime();
    if (at !== undefined && (!latest || at > latest.at)) latest = { at, cause };
  }
  if (!latest || latest.at + WITHDRAW_HOLD_MS <= now.getTime()) return undefined;
  return { until: new Date(latest.at + WITHDRAW_HOLD_MS), cause: latest.cause };
}

export interface AccountDeps {
  db: Database;
  config: Config;
  clock: Clock;
  settings: SettingsService;
  codes: CodeSender;
  logger: FastifyBaseLogger;
  /**
   * Sessions that just ended (sign-out, password change): announced to every instance, whose
   * /ws then stops sending those sessions' sockets anything private (ws-hub.ts).
   */
  sessionsEnded?: (event: SessionsEnded) => void;
  /** Two-factor authentication: the code asked at sign-in, for withdrawals and security changes. */
  twoFactor: TwoFactorService;
  /** Notifications of the user's own events (a new sign-in, a password changed). */
  notices?: NoticeWriter;
}

export interface ClientMeta {
  ip: string;
  userAgent: string;
  lang: LanguageKey;
}

export interface SignedIn {
  token: string;
  userInfo: UserInfo;
}

type Channel = 'email' | 'phone';

/** Writes an operator's audit entry in the transaction of the change (the admin module's). */
export type UserAuditWriter = (
  tx: Queryable,
  change: { action: string; targetType: string; targetId: string; before: unknown; after: unknown },
) => Promise<void>;

/** What a user's wrong withdrawal passwords are counted under. */
const withdrawalPasswordKey = (userId: number) => `withpwd:${userId}`;

/** The login history's result of each refusal of a known account's sign-in. */
const LOGIN_REFUSALS: Partial<Record<string, LoginResult>> = {
  hint_loginFailed: 'wrongPassword',
  hint_accountLocked: 'locked',
  hint_accountDisabled: 'disabled',
};

function codeHash(code: string, channel: Channel, target: string, purpose: string): string {
  return sha256(`${code}:${channel}:${target}:${purpose}`);
}

function phoneTarget(areaCode: string, phone: string): string {
  return `${normalizeAreaCode(areaCode)}-${phone}`;
}

function defaultNickName(body: { email: string | null; phone: string | null }): string {
  if (body.email) {
    const local = (body.email.split('@')[0] ?? '').replace(/[^\p{L}\p{N}._-]/gu, '').slice(0, 32);
    if (local) return local;
  }
  return `User${(body.phone ?? '').slice(-4)}`;
}

export function clientMeta(request: FastifyRequest, lang: LanguageKey): ClientMeta {
  return { ip: clientIp(request), userAgent: clientUserAgent(request), lang };
}

/** The columns that name a user (app_user), read by the account and by the console. */
type IdentityColumns = Pick<
  repo.UserRow,
  'id' | 'user_account' | 'reg_type' | 'area_code' | 'phone' | 'email' | 'nick_name'
>;

/** Who a user is, as the app's user info and the console's users name it. */
export function userIdentity(row: IdentityColumns) {
  return {
    id: row.id,
    userAccount: row.user_account,
    regType: row.reg_type,
    areaCode: row.area_code,
    phone: row.phone,
    email: row.email,
    nickName: row.nick_name,
  };
}

export class AccountService implements SessionResolver {
  /** Sessions, sign-in and login-password checks (src/auth/sessions.ts). */
  private readonly sessions: SessionStore<'user', repo.UserRow>;
  /** Sessions and devices, the login history, the anti-phishing code (security.ts). */
  readonly security: AccountSecurity;
  private readonly withdrawalPasswordLimiter: AttemptLimiter;

  constructor(private readonly deps: AccountDeps) {
    this.sessions = new SessionStore(deps, 'user');
    this.security = new AccountSecurity({
      ...deps,
      sessions: this.sessions,
      confirmChange: (userId, proof) => this.confirmSensitiveChange(userId, proof),
    });
    this.withdrawalPasswordLimiter = new AttemptLimiter(deps.db, deps.clock, {
      maxFailures: 5,
      lockMs: HOUR_MS,
      lockedKey: 'hint_withPwdLocked',
    });
  }

  /** The limiter of wrong withdrawal passwords, shared with the withdrawal flow. */
  get withdrawalPasswordAttempts(): AttemptLimiter {
    return this.withdrawalPasswordLimiter;
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  // ------------------------------------------------------------ user info

  toUserInfo(row: repo.UserRow, accountType: 0 | 2): UserInfo {
    const hold = withdrawHold(row, this.now());
    return {
      ...userIdentity(row),
      avatar: row.avatar,
      inviteCode: row.invite_code,
      accountType,
      isSetWithPwd: row.with_pwd_hash ? 1 : 0,
      authStatus: row.auth_status,
      authLevel: row.auth_level,
      createTime: row.created_at.toISOString(),
      lastLoginTime: row.last_login_at?.toISOString() ?? null,
      withdrawHoldUntil: hold?.until.toISOString() ?? null,
    };
  }

  /** The user row read with each session, so a request reads its user once. */
  private readonly sessionUsers = new WeakMap<Session, repo.UserRow>();

  private async requireUser(
    q: Queryable,
    userId: number,
    forUpdate = false,
  ): Promise<repo.UserRow> {
    const row = await repo.findUserById(q, userId, forUpdate);
    if (!row) throw new AppError('hint_sessionExpired', 401);
    return row;
  }

  /** The user's profile; `fresh` reads it again after a change made during this request. */
  async userInfo(session: Session, fresh = false): Promise<UserInfo> {
    const known = fresh ? undefined : this.sessionUsers.get(session);
    return this.toUserInfo(
      known ?? (await this.requireUser(this.deps.db, session.userId)),
      session.accountType,
    );
  }

  // ------------------------------------------------------------ sessions

  /** Opens a session in the user's current book; its token. */
  private async openSession(tx: Queryable, user: repo.UserRow, meta: ClientMeta): Promise<string> {
    const opened = await this.sessions.open(tx, user, { account_type: user.account_type }, meta);
    return opened.token;
  }

  async resolve(token: string): Promise<Session> {
    const row = await this.sessions.resolve(token);
    const session: Session = {
      id: row.session_id,
      userId: row.id,
      accountType: row.session_account_type,
    };
    this.sessionUsers.set(session, row);
    return session;
  }

  async logout(session: Session): Promise<void> {
    await this.sessions.end(this.deps.db, session.id);
    this.deps.sessionsEnded?.({ sessionIds: [session.id], msg: 'hint_sessionExpired' });
  }

  /**
   * Disables a user's account, or enables it again, for an operator. A disabled user cannot sign
   * in, every session of theirs ends at once, and their WebSockets are signed out on every
   * instance (`hint_accountDisabled`). `audit` writes the operator's entry in the same
   * transaction. Nothing changes when the account already has that status.
   */
  async setUserDisabled(
    userId: number,
    disabled: boolean,
    audit: UserAuditWriter,
  ): Promise<{ changed: boolean; status: 0 | 1 }> {
    const status = disabled ? 1 : 0;
    const now = this.now();
    const result = await this.deps.db.transaction(async (tx) => {
      const user = await repo.findUserById(tx, userId, true);
      if (!user) throw new AppError('hint_notFound', 404, ['id']);
      if (user.status === status) return { changed: false, ended: [] as number[] };
      await repo.updateUserStatus(tx, userId, status);
      const ended = disabled ? await this.sessions.endAll(tx, userId, now) : [];
      await audit(tx, {
        action: disabled ? 'user.disable' : 'user.enable',
        targetType: 'user',
        targetId: String(userId),
        before: { status: user.status },
        after: { status, sessionsEnded: ended.length },
      });
      return { changed: true, ended };
    });
    if (result.ended.length > 0)
      this.deps.sessionsEnded?.({ sessionIds: result.ended, msg: 'hint_accountDisabled' });
    return { changed: result.changed, status };
  }

  /**
   * Ends every live session of a user for an operator: the user signs in again, and their
   * WebSockets are signed out on every instance. `audit` writes the operator's entry in the same
   * transaction. The number of sessions ended (0: none was live).
   */
  async endUserSessions(userId: number, audit: UserAuditWriter): Promise<number> {
    const now = this.now();
    const ended = await this.deps.db.transaction(async (tx) => {
      const user = await repo.findUserById(tx, userId, true);
      if (!user) throw new AppError('hint_notFound', 404, ['id']);
      const ended = await this.sessions.endAll(tx, userId, now);
      await audit(tx, {
        action: 'user.endSessions',
        targetType: 'user',
        targetId: String(userId),
        before: { sessions: ended.length },
        after: { sessions: 0, sessionsEnded: ended.length },
      });
      return ended;
    });
    if (ended.length > 0)
      this.deps.sessionsEnded?.({ sessionIds: ended, msg: 'hint_sessionExpired' });
    return ended.length;
  }

  /** The count of a user's wrong withdrawal passwords and the lock's end, if locked. */
  withdrawalPasswordLock(userId: number): Promise<{ failures: number; lockedUntil: Date | null }> {
    return this.withdrawalPasswordLimiter.state(withdrawalPasswordKey(userId));
  }

  /**
   * Lifts a user's withdrawal-password lock and clears the count, for an operator (the user
   * proved who they are to support); audited in the same transaction. False when nothing was
   * counted.
   */
  async resetWithdrawalPasswordLock(userId: number, audit: UserAuditWriter): Promise<boolean> {
    const key = withdrawalPasswordKey(userId);
    return this.deps.db.transaction(async (tx) => {
      const user = await repo.findUserById(tx, userId, true);
      if (!user) throw new AppError('hint_notFound', 404, ['id']);
      const before = await this.withdrawalPasswordLimiter.state(key, tx);
      if (before.failures === 0 && before.lockedUntil === null) return false;
      await this.withdrawalPasswordLimiter.clear(key, tx);
      await audit(tx, {
        action: 'user.resetWithdrawLock',
        targetType: 'user',
        targetId: String(userId),
        before: {
          failures: before.failures,
          lockedUntil: before.lockedUntil?.toISOString() ?? null,
        },
        after: { failures: 0, lockedUntil: null },
      });
      return true;
    });
  }

  /**
   * Removes a user's two-factor for an admin, when the user lost their authenticator and proved
   * who they are: the secret, the recovery codes and the code lock go, every session ends (their
   * sockets are signed out on every instance), and withdrawals are held WITHDRAW_HOLD_MS from now,
   * as after a password change, so that whoever talked support into it cannot take the money at
   * once. `audit` writes the admin's entry, with `reason`, in the same transaction.
   * `hint_twoFactorOff` when two-factor is not on (a setup never confirmed is left alone).
   */
  async resetTwoFactor(
    userId: number,
    reason: string,
    audit: UserAuditWriter,
  ): Promise<{ sessionsEnded: number; withdrawHoldUntil: Date }> {
    const now = this.now();
    const result = await this.deps.db.transaction(async (tx) => {
      const user = await repo.findUserById(tx, userId, true);
      if (!user) throw new AppError('hint_notFound', 404, ['id']);
      if (!(await this.deps.twoFactor.isEnabled(userId, tx)))
        throw new AppError('hint_twoFactorOff', 422);
      // False only when the user turned it off meanwhile: nothing of this reset is kept.
      if (!(await this.deps.twoFactor.reset(tx, userId)))
        throw new AppError('hint_twoFactorOff', 422);
      await repo.markTwoFactorReset(tx, userId, now);
      const ended = await this.sessions.endAll(tx, userId, now);
      const holdBefore = withdrawHold(user, now);
      const hold = withdrawHold({ ...user, two_factor_reset_at: now }, now);
      assert(hold !== undefined, 'a two-factor reset holds withdrawals');
      await audit(tx, {
        action: 'user.resetTwoFactor',
        targetType: 'user',
        targetId: String(userId),
        before: {
          twoFactor: true,
          sessions: ended.length,
          withdrawHoldUntil: holdBefore?.until.toISOString() ?? null,
        },
        after: {
          twoFactor: false,
          sessionsEnded: ended.length,
          withdrawHoldUntil: hold.until.toISOString(),
          reason,
        },
      });
      return { ended, withdrawHoldUntil: hold.until };
    });
    if (result.ended.length > 0)
      this.deps.sessionsEnded?.({ sessionIds: result.ended, msg: 'hint_sessionExpired' });
    return { sessionsEnded: result.ended.length, withdrawHoldUntil: result.withdrawHoldUntil };
  }

  /**
   * Of these sessions, those no longer live, with the hint key their sockets are told: revoked or
   * expired, `hint_sessionExpired`; the user disabled (by an operator), `hint_accountDisabled`.
   */
  endedSessions(sessionIds: number[]): Promise<Map<number, string>> {
    return this.sessions.endedSessions(sessionIds);
  }

  // ------------------------------------------------------------ verification codes

  /** Whether registering through `channel` needs a verification code. */
  codeRequired(channel: Channel): boolean {
    const mode = this.deps.config.VERIFICATION_CODES;
    return mode === 'always' || (mode === 'auto' && this.deps.codes.delivers(channel));
  }

  async sendEmailCode(
    email: string,
    purpose: VerificationPurpose,
    lang: LanguageKey,
  ): Promise<void> {
    const normalized = email.toLowerCase();
    if (purpose === 'reg' && (await repo.findUserByIdentity(this.deps.db, { email: normalized }))) {
      throw new AppError('hint_accountExists', 409);
    }
    await this.sendCode('email', normalized, purpose, lang);
  }

  async sendPhoneCode(
    areaCode: string,
    phone: string,
    purpose: VerificationPurpose,
    lang: LanguageKey,
  ): Promise<void> {
    const identity = { areaCode: normalizeAreaCode(areaCode), phone };
    if (purpose === 'reg' && (await repo.findUserByIdentity(this.deps.db, identity))) {
      throw new AppError('hint_accountExists', 409);
    }
    await this.sendCode('phone', phoneTarget(areaCode, phone), purpose, lang);
  }

  private async sendCode(
    channel: Channel,
    target: string,
    purpose: string,
    lang: LanguageKey,
  ): Promise<void> {
    const now = this.now();
    const last = await repo.latestCode(this.deps.db, channel, target, purpose);
    if (last) {
      const waitMs =
        last.created_at.getTime() + VERIFICATION_CODE.resendSeconds * 1000 - now.getTime();
      if (waitMs > 0) throw new AppError('hint_codeResendWait', 429, [Math.ceil(waitMs / 1000)]);
    }
    const code = newNumericCode(VERIFICATION_CODE.length);
    const id = await repo.insertCode(this.deps.db, {
      channel,
      target,
      purpose,
      codeHash: codeHash(code, channel, target, purpose),
      at: now,
      expiresAt: new Date(now.getTime() + VERIFICATION_CODE.lifetimeSeconds * 1000),
    });
    try {
      const antiPhishingCode =
        channel === 'email' ? await this.security.antiPhishingOfEmail(target) : undefined;
      await this.deps.codes.send({ channel, target, code, lang, antiPhishingCode });
    } catch (error) {
      this.deps.logger.error({ err: error, channel }, 'verification code could not be sent');
      await repo.deleteCode(this.deps.db, id);
      throw new AppError('hint_codeSendFailed', 503);
    }
  }

  /**
   * Checks a code and uses it up. Each try counts, atomically, before the comparison, so no
   * number of parallel guesses gets more than the allowed attempts.
   */
  private async consumeCode(
    channel: Channel,
    target: string,
    purpose: string,
    code: string,
  ): Promise<void> {
    const now = this.now();
    const row = await repo.countCodeAttempt(
      this.deps.db,
      { channel, target, purpose },
      VERIFICATION_CODE.maxAttempts,
    );
    if (!row) {
      const latest = await repo.latestCode(this.deps.db, channel, target, purpose);
      if (latest && !latest.consumed_at && latest.attempts >= VERIFICATION_CODE.maxAttempts) {
        throw new AppError('hint_codeTooManyAttempts', 422);
      }
      throw new AppError('hint_codeWrong', 422);
    }
    if (row.expires_at <= now || row.code_hash !== codeHash(code, channel, target, purpose)) {
      throw new AppError('hint_codeWrong', 422);
    }
    if (!(await repo.consumeCode(this.deps.db, row.id, now))) {
      throw new AppError('hint_codeWrong', 422);
    }
  }

  // ------------------------------------------------------------ registration and login

  async register(body: RegBody, meta: ClientMeta): Promise<SignedIn> {
    // A password rule like the schema's: refused before anything is checked, spent or created.
    refuseCommonPassword(body.userPwd, 'userPwd');
    const { settings } = this.deps;
    const byPhone = body.regType === REG_TYPE.phone;
    if (byPhone && !(await settings.switchOn(SWITCH.registerByPhone)))
      throw new AppError('hint_regClosedPhone', 403);
    if (!byPhone && !(await settings.switchOn(SWITCH.registerByEmail)))
      throw new AppError('hint_regClosedEmail', 403);
    if (!body.inviteCode && (await settings.switchOn(SWITCH.inviteCodeRequired))) {
      throw new AppError('hint_inviteCodeRequired', 400, ['inviteCode']);
    }

    const areaCode = byPhone ? normalizeAreaCode(body.areaCode ?? '') : null;
    const phone = byPhone ? body.userAccount : null;
    const email = byPhone ? null : body.userAccount.toLowerCase();
    const identity = byPhone ? { areaCode: areaCode!, phone: phone! } : { email: email! };
    if (await repo.findUserByIdentity(this.deps.db, identity))
      throw new AppError('hint_accountExists', 409);

    const channel: Channel = byPhone ? 'phone' : 'email';
    if (this.codeRequired(channel)) {
      if (!body.yzmCode) throw new AppError('hint_codeRequired', 400, ['yzmCode']);
      await this.consumeCode(
        channel,
        byPhone ? phoneTarget(areaCode!, phone!) : email!,
        'reg',
        body.yzmCode,
      );
    }

    const passwordHash = await hashPassword(body.userPwd);
    return this.deps.db.transaction(async (tx) => {
      let inviterId: number | null = null;
      if (body.inviteCode) {
        inviterId = (await repo.findUserIdByInviteCode(tx, body.inviteCode.toUpperCase())) ?? null;
        if (inviterId === null) throw new AppError('hint_inviteCodeInvalid', 422, ['inviteCode']);
        // The inviter signed in on this very browser: inviting themselves (the referral rules).
        await refuseSelfReferral(tx, inviterId, meta, this.now());
      }
      const user = await this.createUser(tx, {
        regType: body.regType,
        areaCode,
        phone,
        email,
        passwordHash,
        inviterId,
      });
      const token = await this.openSession(tx, user, meta);
      return { token, userInfo: this.toUserInfo(user, user.account_type) };
    });
  }

  /**
   * Creates a user with their demo funds and welcome message, inside the caller's transaction.
   * Refuses an identity that is already registered.
   */
  async createUser(
    tx: Queryable,
    input: {
      regType: number;
      areaCode: string | null;
      phone: string | null;
      email: string | null;
      passwordHash: string;
      inviterId: number | null;
    },
  ): Promise<repo.UserRow> {
    const identity = input.email
      ? { email: input.email }
      : { areaCode: input.areaCode!, phone: input.phone! };
    const now = this.now();
    let user: repo.UserRow | undefined;
    for (let attempt = 0; attempt < 5 && !user; attempt++) {
      user = await repo.insertUser(tx, {
        regType: input.regType,
        areaCode: input.areaCode,
        phone: input.phone,
        email: input.email,
        userAccount: input.email ?? `+${input.areaCode} ${input.phone}`,
        passwordHash: input.passwordHash,
        nickName: defaultNickName(input),
        inviteCode: newInviteCode(),
        inviterId: input.inviterId,
        createdAt: now,
      });
      // No row: the identity was taken meanwhile, or (rarely) the invite code collided.
      if (!user && (await repo.findUserByIdentity(tx, identity)))
        throw new AppError('hint_accountExists', 409);
    }
    assert(user, 'account: could not allocate an invite code');
    await this.grantDemoFunds(tx, user.id);
    await repo.insertSiteMessage(tx, {
      userId: user.id,
      title: allLanguages('msg_welcome_title'),
      content: allLanguages('msg_welcome_content'),
      at: now,
    });
    return user;
  }

  /**
   * Creates the demo login of a fresh installation unless it exists; true when created. It signs
   * in to its demo account, where the 100,000 virtual USDT are.
   */
  async ensureDemoLogin(email: string, password: string): Promise<boolean> {
    if (await repo.findUserByIdentity(this.deps.db, { email })) return false;
    const passwordHash = await hashPassword(password);
    await this.deps.db.transaction(async (tx) => {
      const user = await this.createUser(tx, {
        regType: REG_TYPE.email,
        areaCode: null,
        phone: null,
        email,
        passwordHash,
        inviterId: null,
      });
      await repo.updateAccountType(tx, user.id, ACCOUNT_TYPE.demo);
    });
    return true;
  }

  /** Every account starts with 100,000 virtual USDT in its demo book, through the ledger. */
  async grantDemoFunds(tx: Queryable, userId: number): Promise<void> {
    await ledger.transfer(tx, {
      book: 'demo',
      type: 'demo_grant',
      requestId: 'demo_grant',
      scope: `user:${userId}`,
      from: ledger.platform(USDT_CURRENCY_ID, 'demo_faucet'),
      to: ledger.user(userId, USDT_CURRENCY_ID),
      amount: DEMO_GRANT_AMOUNT,
    });
  }

  /** Who signs in, and the identifier their failed sign-ins are counted under. */
  private loginIdentity(body: LoginBody): { identity: repo.LoginIdentity; identifier: string } {
    const account = body.userAccount.trim();
    if (account.includes('@')) {
      const email = account.toLowerCase();
      return { identity: { email }, identifier: `email:${email}` };
    }
    let areaCode = body.areaCode ? normalizeAreaCode(body.areaCode) : undefined;
    let phone = account.replace(/[\s-]/g, '');
    const prefixed = /^\+?(\d{1,4})[\s-](\d{4,14})$/.exec(account);
    if (!areaCode && prefixed) {
      areaCode = prefixed[1];
      phone = prefixed[2]!;
    }
    if (!areaCode) throw new AppError('hint_paramRequired', 400, ['areaCode']);
    return { identity: { areaCode, phone }, identifier: `phone:${areaCode}-${phone}` };
  }

  async login(body: LoginBody, meta: ClientMeta): Promise<SignedIn | TwoFactorChallenge> {
    const { identity, identifier } = this.loginIdentity(body);
    const found = await repo.findUserByIdentity(this.deps.db, identity);
    const user = await this.recordRefusal(found, meta, () =>
      this.sessions.checkSignIn(identifier, found, body.userPwd),
    );
    // Two-factor on: no session until a code (loginTwoFactor) comes with this challenge.
    if (await this.deps.twoFactor.isEnabled(user.id))
      return {
        twoFactorRequired: true,
        challenge: await this.deps.twoFactor.startChallenge(user.id),
      };
    const token = await this.openLoginSession(user, meta);
    return {
      token,
      userInfo: this.toUserInfo({ ...user, last_login_at: this.now() }, user.account_type),
    };
  }

  /**
   * The second step of a sign-in with two-factor on: the login's challenge and a code of the app
   * or a recovery code. A wrong code is recorded in the login history (`twoFactorFailed`) and
   * counts towards the two-factor lock; the challenge is used once, with the session it opens.
   */
  async loginTwoFactor(body: LoginTwoFactorBody, meta: ClientMeta): Promise<SignedIn> {
    const userId = await this.deps.twoFactor.challengeUser(body.challenge);
    const user = await this.requireUser(this.deps.db, userId);
    if (user.status !== 0) throw new AppError('hint_accountDisabled', 403);
    try {
      await this.deps.twoFactor.check(user.id, body.code, 'appOrRecovery', 'code');
    } catch (error) {
      if (error instanceof AppError && error.key !== 'hint_twoFactorRequired')
        await this.recordLogin(user.id, 'twoFactorFailed', meta);
      throw error;
    }
    const token = await this.openLoginSession(user, meta, body.challenge);
    return {
      token,
      userInfo: this.toUserInfo({ ...user, last_login_at: this.now() }, user.account_type),
    };
  }

  /**
   * Confirms a signed-in user's login password for setting two-factor up (counted towards its
   * lock); the account's name, which the authenticator app lists the code under.
   */
  async confirmLoginPassword(userId: number, password: string): Promise<{ accountName: string }> {
    const user = await this.requireUser(this.deps.db, userId);
    await this.sessions.checkPassword(user, password, 'userPwd');
    return { accountName: user.user_account };
  }

  /**
   * Records a sign-in attempt of an existing account in the login history (the two-factor step
   * records `twoFactorFailed` through it).
   */
  recordLogin(userId: number, result: LoginResult, meta: ClientMeta): Promise<void> {
    return this.security.recordLogin(userId, result, meta);
  }

  /** Runs a sign-in check; a refusal of a known account is recorded in the login history. */
  private async recordRefusal<T>(
    user: repo.UserRow | undefined,
    meta: ClientMeta,
    check: () => Promise<T>,
  ): Promise<T> {
    try {
      return await check();
    } catch (error) {
      const result = error instanceof AppError ? LOGIN_REFUSALS[error.key] : undefined;
      if (user && result) await this.recordLogin(user.id, result, meta);
      throw error;
    }
  }

  /**
   * Opens the session of a sign-in that passed every check, recorded as a success; with the
   * two-factor `challenge` it answered, used up in the same transaction.
   */
  private async openLoginSession(
    user: repo.UserRow,
    meta: ClientMeta,
    challenge?: string,
  ): Promise<string> {
    let told: NoticeEvent[] = [];
    const token = await this.deps.db.transaction(async (tx) => {
      if (challenge !== undefined) await this.deps.twoFactor.endChallenge(tx, challenge);
      const opened = await this.sessions.open(tx, user, { account_type: user.account_type }, meta);
      await this.security.recordLogin(user.id, 'success', meta, {
        q: tx,
        sessionId: opened.sessionId,
      });
      // The owner's other open apps hear of the new sign-in (where from).
      const device = describeDevice(meta.userAgent);
      told = [
        notices.newSignIn({
          userId: user.id,
          sessionId: opened.sessionId,
          device: [device.browser, device.os].filter(Boolean).join(' · ') || device.type,
          ip: meta.ip,
        }),
      ];
      await this.deps.notices?.record(tx, told);
      return opened.token;
    });
    this.deps.notices?.push(told);
    return token;
  }

  // ------------------------------------------------------------ profile and passwords

  async modifyUserInfo(session: Session, body: ModifyUserInfoBody): Promise<UserInfo> {
    await repo.updateNickName(this.deps.db, session.userId, body.nickName);
    return this.userInfo(session, true);
  }

  /**
   * Confirms that the signed-in user themselves asks for a change that weakens their account's
   * protection (turning the withdrawal whitelist off): the login password for now, counted
   * towards its lock. The one place a second factor joins when there is one.
   */
  async confirmSensitiveChange(
    userId: number,
    proof: { userPwd?: string; twoFactorCode?: string },
  ): Promise<void> {
    if (!proof.userPwd) throw new AppError('hint_loginPwdRequired', 400, ['userPwd']);
    await this.deps.twoFactor.refuseMissingCode(userId, proof.twoFactorCode);
    const user = await this.requireUser(this.deps.db, userId);
    await this.sessions.checkPassword(user, proof.userPwd, 'userPwd');
    await this.deps.twoFactor.requireCode(userId, proof.twoFactorCode);
  }

  /** Checks the login password of a signed-in user, counting failures towards a lock. */
  private async checkLoginPassword(user: repo.UserRow, password: string): Promise<void> {
    await this.sessions.checkPassword(user, password, 'oldPwd');
  }

  /**
   * Lets a withdrawal go ahead: the user has a withdrawal password, is not held after a password
   * change, `password` is right (5 tries, then an hour's lock) and, once two-factor is on,
   * `twoFactorCode` is a current code or a recovery code (its own lock).
   */
  async authorizeWithdrawal(
    userId: number,
    password: string,
    twoFactorCode?: string,
  ): Promise<void> {
    const user = await this.requireUser(this.deps.db, userId);
    if (!user.with_pwd_hash) throw new AppError('hint_withPwdNotSet', 422);
    // Withdrawals are from the live book only (demo sessions are refused before).
    const heldUntil = this.toUserInfo(user, 0).withdrawHoldUntil;
    if (heldUntil) throw new AppError('hint_withdrawHeld', 422, [formatUntil(heldUntil)]);
    await this.deps.twoFactor.refuseMissingCode(userId, twoFactorCode);
    await this.checkWithdrawalPassword(user, password);
    await this.deps.twoFactor.requireCode(userId, twoFactorCode);
  }

  /** Checks a withdrawal password: 5 wrong tries lock it for an hour. */
  async checkWithdrawalPassword(
    user: { id: number; with_pwd_hash: string | null },
    password: string,
  ): Promise<void> {
    const hash = user.with_pwd_hash;
    await this.withdrawalPasswordLimiter.attempt(
      withdrawalPasswordKey(user.id),
      async () => hash !== null && verifyPassword(hash, password),
      () => new AppError('hint_withPwdWrong', 422),
    );
  }

  /** Changes the login password and ends every session of the user, this one included. */
  async updatePassword(session: Session, body: UpdateUserPwdBody): Promise<void> {
    refuseCommonPassword(body.newPwd, 'newPwd');
    const user = await this.requireUser(this.deps.db, session.userId);
    await this.deps.twoFactor.refuseMissingCode(user.id, body.twoFactorCode);
    await this.checkLoginPassword(user, body.oldPwd);
    if (body.oldPwd === body.newPwd) throw new AppError('hint_pwdSameAsOld', 422, ['newPwd']);
    await this.deps.twoFactor.requireCode(user.id, body.twoFactorCode);
    const passwordHash = await hashPassword(body.newPwd);
    const now = this.now();
    const told = [notices.security(user.id, 'passwordChanged', now)];
    const ended = await this.deps.db.transaction(async (tx) => {
      await repo.updatePasswordHash(tx, user.id, passwordHash, now);
      await this.deps.notices?.record(tx, told);
      return this.sessions.endAll(tx, user.id, now);
    });
    this.deps.sessionsEnded?.({ sessionIds: ended, msg: 'hint_sessionExpired' });
    this.deps.notices?.push(told);
  }

  /**
   * Sets the withdrawal password (first time: confirmed with the login password) or changes it
   * (confirmed with the current one). A change holds withdrawals for 24 hours.
   */
  async updateWithdrawalPassword(session: Session, body: UpdateUserWithPwdBody): Promise<UserInfo> {
    const user = await this.requireUser(this.deps.db, session.userId);
    const changing = user.with_pwd_hash !== null;
    await this.deps.twoFactor.refuseMissingCode(user.id, body.twoFactorCode);
    if (changing) {
      if (!body.oldPwd) throw new AppError('hint_oldWithPwdRequired', 400, ['oldPwd']);
      await this.checkWithdrawalPassword(user, body.oldPwd);
      if (body.oldPwd === body.newPwd) throw new AppError('hint_pwdSameAsOld', 422, ['newPwd']);
    } else {
      if (!body.userPwd) throw new AppError('hint_loginPwdRequired', 400, ['userPwd']);
      await this.checkLoginPassword(user, body.userPwd);
    }
    await this.deps.twoFactor.requireCode(user.id, body.twoFactorCode);
    const hash = await hashPassword(body.newPwd);
    await repo.updateWithdrawalPasswordHash(
      this.deps.db,
      user.id,
      hash,
      changing ? this.now() : null,
    );
    return this.userInfo(session, true);
  }

  async isSetWithPwd(session: Session): Promise<0 | 1> {
    return (await this.requireUser(this.deps.db, session.userId)).with_pwd_hash ? 1 : 0;
  }

  // ------------------------------------------------------------ live / demo

  /** Switches the session between the live and the demo account (toggles when none is named). */
  async changeLoginModel(session: Session, accountType?: 0 | 2): Promise<UserInfo> {
    const target =
      accountType ??
      (session.accountType === ACCOUNT_TYPE.live ? ACCOUNT_TYPE.demo : ACCOUNT_TYPE.live);
    if (target === ACCOUNT_TYPE.demo && !(await this.deps.settings.switchOn(SWITCH.demoAccount))) {
      throw new AppError('hint_demoDisabled', 403);
    }
    await this.deps.db.transaction(async (tx) => {
      await this.sessions.carry(tx, session.id, 'account_type', target);
      await repo.updateAccountType(tx, session.userId, target);
    });
    return this.userInfo({ ...session, accountType: target });
  }
}

/** A moment as users read it in messages: "2026-11-26 14:05 UTC". */
function formatUntil(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
