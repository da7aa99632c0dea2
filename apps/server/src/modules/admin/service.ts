/**
 * The operator console's rules: operator accounts with roles, their sessions, the audit log, and
 * the review of deposits and withdrawals through the wallet's review interface. Every action is
 * written to the audit log in the transaction that does it. No operator action sets a balance, a
 * price or an outcome: money moves only through the wallet's reviewed flows (PRODUCT section 1).
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  consoleOperatorsApi,
  operatorsApi,
  AUDIT_EXPORT_MAX_ROWS,
  TWO_FACTOR_ROLES,
  type OperatorTwoFactorChallenge,
  type OperatorTwoFactorStatus,
  type TwoFactorSetup,
  type AuditEntry,
  type OperatorInfo,
  type OperatorSession,
  type PageQuery,
  type ProductSettingsQuery,
  type RechargeChannelConfig,
  type Route,
  type WithdrawChannelConfig,
} from '@bourse/shared';
import { SessionStore } from '../../auth/sessions';
import type { Config } from '../../config';
import type { Database, Queryable } from '../../db/database';
import { mapRows, pageOffset } from '../../db/page';
import type { Clock } from '../../lib/clock';
import { refuseCommonPassword } from '../../lib/common-passwords';
import { AppError, assert } from '../../lib/errors';
import { hashPassword, newPassword } from '../../lib/secrets';
import type { AccountService } from '../account';
import type { SettingsService } from '../settings';
import { TwoFactorService } from '../two-factor';
import { keptPasswordWas, retireFirstPassword } from './password-file';
import type {
  AuditWriter,
  ReviewListQuery,
  WalletReview,
  RechargeChannelInput,
  WithdrawChannelInput,
} from '../wallet';
import type {
  FastTradeOptionSaveInput,
  FeeSaveInput,
  ProductUpdateInput,
  TradingSettingsAdmin,
} from '../trading';
import { auditCsv } from './audit-csv';
import * as operatorsRepo from './operators-repo';
import * as repo from './repo';
import type { OperatorRole } from './roles';

export type { AuditEntry, OperatorInfo } from '@bourse/shared';

/** The audit log's filters as a call sends them (moments as ISO text). */
export type AuditQueryFilter = Omit<repo.AuditFilter, 'from' | 'to'> & {
  from?: string;
  to?: string;
};

function auditFilter({ from, to, ...rest }: AuditQueryFilter): repo.AuditFilter {
  return {
    ...rest,
    ...(from !== undefined ? { from: new Date(from) } : {}),
    ...(to !== undefined ? { to: new Date(to) } : {}),
  };
}

export interface AdminDeps {
  db: Database;
  config: Config;
  clock: Clock;
  wallet: WalletReview;
  /** Fees, fast-trade options and per-product trading settings. */
  trading: TradingSettingsAdmin;
  /** Users' accounts: disabling one ends its sessions everywhere. */
  users: Pick<AccountService, 'setUserDisabled'>;
  /** The site's name, which authenticator apps show above an operator's codes. */
  settings: Pick<SettingsService, 'siteInfo'>;
  logger?: FastifyBaseLogger;
}

export interface OperatorMeta {
  ip: string;
  userAgent: string;
}

/** The signed-in operator of a request. */
export interface OperatorContext {
  sessionId: number;
  operatorId: number;
  username: string;
  roles: readonly OperatorRole[];
  ip: string;
  row: repo.OperatorRow;
}

export function toOperatorInfo(row: repo.OperatorRow): OperatorInfo {
  return {
    id: row.id,
    username: row.username,
    roles: [...row.roles],
    disabled: row.disabled,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
    lastLoginTime: row.last_login_at?.toISOString() ?? null,
    pwdChangeTime: row.pwd_changed_at?.toISOString() ?? null,
    twoFactor: row.two_factor,
  };
}

/** What the audit log keeps of an operator account: never its password hash. */
function auditedOperator(row: repo.OperatorRow) {
  return { username: row.username, roles: [...row.roles], disabled: row.disabled };
}

function toAuditEntry(row: repo.AuditRow): AuditEntry {
  return {
    id: row.id,
    operatorId: row.operator_id,
    operatorName: row.operator_name,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: row.before,
    after: row.after,
    ip: row.ip,
    createTime: row.created_at.toISOString(),
  };
}

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((role) => b.includes(role));

/**
 * The calls an operator who must choose a password (never changed, or reset by an admin) may make;
 * every other is refused with `hint_pwdChangeRequired` before its input is read.
 */
const BEFORE_PASSWORD_CHANGE = new Set<string>(
  [operatorsApi.me, operatorsApi.changePassword, operatorsApi.signOut].map((route) => route.path),
);

/** Whether an operator must choose a password before any other call. */
export const mustChangePassword = (row: { pwd_changed_at: Date | null }) =>
  row.pwd_changed_at === null;

/** Whether a role of the operator requires two-factor (admin, finance). */
export const twoFactorRequired = (roles: readonly string[]) =>
  roles.some((role) => (TWO_FACTOR_ROLES as readonly string[]).includes(role));

/**
 * The calls an operator whose role requires two-factor may make before it is on (setting it up,
 * and what a password change allows); every other is refused with `hint_twoFactorSetupRequired`.
 */
const BEFORE_TWO_FACTOR = new Set<string>([
  ...BEFORE_PASSWORD_CHANGE,
  consoleOperatorsApi.twoFactorStatus.path,
  consoleOperatorsApi.twoFactorSetup.path,
  consoleOperatorsApi.twoFactorEnable.path,
]);

const isActiveAdmin = (row: { roles: readonly string[]; disabled: boolean }) =>
  !row.disabled && row.roles.includes('admin');

export class AdminService {
  /**
   * Sessions (8 hours idle, 24 hours at most), sign-in and current-password checks
   * (src/auth/sessions.ts).
   */
  private readonly sessions: SessionStore<'operator', repo.OperatorRow>;
  /** Operators' two-factor codes (their own tables; the same rules as the users'). */
  private readonly twoFactor: TwoFactorService;

  constructor(private readonly deps: AdminDeps) {
    this.sessions = new SessionStore(deps, 'operator');
    this.twoFactor = new TwoFactorService({
      kind: 'operator',
      db: deps.db,
      clock: deps.clock,
      config: deps.config,
      confirmLoginPassword: async (operatorId, password) => {
        const row = await repo.findOperatorById(this.deps.db, operatorId);
        if (!row) throw new AppError('hint_unauthorized', 401);
        await this.sessions.checkPassword(row, password, 'password');
        return { accountName: row.username };
      },
      issuer: async () => `${(await deps.settings.siteInfo()).siteName} console`,
    });
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  private audit(
    tx: Queryable,
    actor: OperatorContext | { operatorId: number; username: string; ip: string },
    change: {
      action: string;
      targetType: string;
      targetId: string | number | null;
      before: unknown;
      after: unknown;
    },
  ): Promise<number> {
    return repo.insertAudit(tx, {
      operatorId: actor.operatorId,
      operatorName: actor.username,
      action: change.action,
      targetType: change.targetType,
      targetId: change.targetId === null ? null : String(change.targetId),
      before: change.before,
      after: change.after,
      ip: actor.ip,
      at: this.now(),
    });
  }

  /** The audit callback handed to the wallet: the entry joins the action's transaction. */
  auditWriter(operator: OperatorContext): AuditWriter {
    return async (tx, change) => {
      await this.audit(tx, operator, change);
    };
  }

  // ------------------------------------------------------------ sessions

  /** The operator of a session token (401 when it is not live). */
  async resolve(token: string, ip: string): Promise<OperatorContext> {
    const row = await this.sessions.resolve(token);
    return {
      sessionId: row.session_id,
      operatorId: row.id,
      username: row.username,
      roles: row.roles,
      ip,
      row,
    };
  }

  /**
   * An operator who must still choose a password may make only the calls of
   * BEFORE_PASSWORD_CHANGE; one whose role requires two-factor and has it off, only those of
   * BEFORE_TWO_FACTOR: any other `route` is refused (403) before its input is read.
   */
  authorize(operator: OperatorContext, route: Route): void {
    if (mustChangePassword(operator.row) && !BEFORE_PASSWORD_CHANGE.has(route.path))
      throw new AppError('hint_pwdChangeRequired', 403);
    if (
      !operator.row.two_factor &&
      twoFactorRequired(operator.roles) &&
      !BEFORE_TWO_FACTOR.has(route.path)
    )
      throw new AppError('hint_twoFactorSetupRequired', 403);
  }

  /**
   * Signs an operator in with their password: a session, or, when two-factor is on, a challenge
   * that `loginTwoFactor` turns into one with a code.
   */
  async login(
    body: { username: string; password: string },
    meta: OperatorMeta,
  ): Promise<{ token: string; operator: OperatorInfo } | OperatorTwoFactorChallenge> {
    const username = body.username.trim().toLowerCase();
    const row = await this.sessions.checkSignIn(
      username,
      await repo.findOperatorByUsername(this.deps.db, username),
      body.password,
    );
    if (row.two_factor)
      return { twoFactorRequired: true, challenge: await this.twoFactor.startChallenge(row.id) };
    return this.openSession(row, meta);
  }

  /** The second step of a sign-in with two-factor on: the challenge and a code open the session. */
  async loginTwoFactor(
    body: { challenge: string; code: string },
    meta: OperatorMeta,
  ): Promise<{ token: string; operator: OperatorInfo }> {
    const operatorId = await this.twoFactor.challengeUser(body.challenge);
    await this.twoFactor.check(operatorId, body.code, 'appOrRecovery', 'code');
    const row = await repo.findOperatorById(this.deps.db, operatorId);
    if (!row) throw new AppError('hint_twoFactorChallengeExpired', 422);
    if (row.disabled) throw new AppError('hint_accountDisabled', 403);
    return this.openSession(row, meta, body.challenge);
  }

  /** Opens a session (using up a sign-in's challenge, when there was one) and audits it. */
  private async openSession(
    row: repo.OperatorRow,
    meta: OperatorMeta,
    challenge?: string,
  ): Promise<{ token: string; operator: OperatorInfo }> {
    const { token, now } = await this.deps.db.transaction(async (tx) => {
      if (challenge !== undefined) await this.twoFactor.endChallenge(tx, challenge);
      const { token, sessionId, at: now } = await this.sessions.open(tx, row, {}, meta);
      await this.audit(
        tx,
        { operatorId: row.id, username: row.username, ip: meta.ip },
        {
          action: 'auth.login',
          targetType: 'operator_session',
          targetId: sessionId,
          before: { lastLoginTime: row.last_login_at?.toISOString() ?? null },
          after: {
            lastLoginTime: now.toISOString(),
            ...(challenge !== undefined ? { twoFactor: true } : {}),
          },
        },
      );
      return { token, now };
    });
    return { token, operator: toOperatorInfo({ ...row, last_login_at: now }) };
  }

  // ------------------------------------------------------------ two-factor

  async twoFactorStatus(operator: OperatorContext): Promise<OperatorTwoFactorStatus> {
    return {
      ...(await this.twoFactor.status(operator.operatorId)),
      required: twoFactorRequired(operator.roles) ? 1 : 0,
    };
  }

  setUpTwoFactor(operator: OperatorContext, password: string): Promise<TwoFactorSetup> {
    return this.twoFactor.setup(operator.operatorId, password);
  }

  /** Turns the operator's two-factor on (audited once on): the recovery codes, shown once. */
  async enableTwoFactor(
    operator: OperatorContext,
    code: string,
  ): Promise<{ recoveryCodes: string[] }> {
    const result = await this.twoFactor.enable(operator.operatorId, code);
    await this.audit(this.deps.db, operator, {
      action: 'operator.twoFactorOn',
      targetType: 'operator',
      targetId: operator.operatorId,
      before: { twoFactor: false },
      after: { twoFactor: true },
    });
    return result;
  }

  /** Turns it off with a code; audited in the removal's transaction. */
  async disableTwoFactor(operator: OperatorContext, code: string): Promise<void> {
    await this.twoFactor.disable(operator.operatorId, code, (tx) =>
      this.audit(tx, operator, {
        action: 'operator.twoFactorOff',
        targetType: 'operator',
        targetId: operator.operatorId,
        before: { twoFactor: true },
        after: { twoFactor: false },
      }),
    );
  }

  /**
   * An admin removes another operator's two-factor (a lost device): their sessions end, and at
   * their next sign-in a role that requires it has them set it up before anything else. Audited.
   */
  async resetOperatorTwoFactor(
    operator: OperatorContext,
    body: { id: number },
  ): Promise<{ operator: OperatorInfo; sessionsEnded: number }> {
    if (body.id === operator.operatorId)
      throw new AppError('hint_operatorSelfTwoFactor', 422, ['id']);
    return this.deps.db.transaction(async (tx) => {
      const before = await repo.findOperatorById(tx, body.id, true);
      if (!before) throw new AppError('hint_operatorNotFound', 404, ['id']);
      if (!(await this.twoFactor.reset(tx, before.id)))
        throw new AppError('hint_twoFactorOff', 422);
      const sessionsEnded = (await this.sessions.endAll(tx, before.id, this.now())).length;
      await this.audit(tx, operator, {
        action: 'operator.resetTwoFactor',
        targetType: 'operator',
        targetId: before.id,
        before: { twoFactor: before.two_factor },
        after: { twoFactor: false, sessionsEnded },
      });
      return { operator: toOperatorInfo({ ...before, two_factor: false }), sessionsEnded };
    });
  }

  /** Ends the session; false when it had already ended. */
  async logout(operator: OperatorContext): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const ended = await this.sessions.end(tx, operator.sessionId);
      if (ended) {
        await this.audit(tx, operator, {
          action: 'auth.logout',
          targetType: 'operator_session',
          targetId: operator.sessionId,
          before: { open: true },
          after: { open: false },
        });
      }
      return ended;
    });
  }

  me(operator: OperatorContext): OperatorInfo {
    return toOperatorInfo(operator.row);
  }

  /**
   * Changes the operator's own password (with a two-factor code once it is on) and ends all their
   * sessions, this one included.
   */
  async changeOwnPassword(
    operator: OperatorContext,
    body: { oldPassword: string; newPassword: string; twoFactorCode?: string },
  ): Promise<void> {
    refuseCommonPassword(body.newPassword, 'newPassword');
    if (operator.row.two_factor && !body.twoFactorCode)
      throw new AppError('hint_twoFactorRequired', 422, ['twoFactorCode']);
    await this.sessions.checkPassword(operator.row, body.oldPassword, 'oldPassword');
    if (operator.row.two_factor)
      await this.twoFactor.check(
        operator.operatorId,
        body.twoFactorCode,
        'appOrRecovery',
        'twoFactorCode',
      );
    if (body.oldPassword === body.newPassword)
      throw new AppError('hint_pwdSameAsOld', 422, ['newPassword']);
    const passwordHash = await hashPassword(body.newPassword);
    await this.setPassword(operator, async () => operator.row, passwordHash, {
      action: 'operator.changePassword',
      chosenByOwner: true,
    });
  }

  /**
   * Sets an operator's password (`target` reads them in the change's transaction), ends all their
   * sessions and writes the audit entry (`action`, with `note` in its after state) in the same
   * transaction; then the first-password file goes if it kept the old password.
   */
  private async setPassword(
    operator: OperatorContext,
    target: (tx: Queryable) => Promise<repo.OperatorRow>,
    passwordHash: string,
    change: { action: string; note?: Record<string, unknown>; chosenByOwner: boolean },
  ): Promise<repo.OperatorRow> {
    const now = this.now();
    const { before, after } = await this.deps.db.transaction(async (tx) => {
      const before = await target(tx);
      // A password someone else set must be changed by its owner before any other call.
      const after = await repo.updateOperatorPassword(
        tx,
        before.id,
        passwordHash,
        now,
        change.chosenByOwner ? now : null,
      );
      const sessionsEnded = (await this.sessions.endAll(tx, before.id, now)).length;
      await this.audit(tx, operator, {
        action: change.action,
        targetType: 'operator',
        targetId: before.id,
        before: { pwdChangeTime: before.pwd_changed_at?.toISOString() ?? null },
        after: {
          pwdChangeTime: after.pwd_changed_at?.toISOString() ?? null,
          ...change.note,
          sessionsEnded,
        },
      });
      return { before, after };
    });
    await this.retireFirstPasswordFile(before.password_hash, now, after.username);
    return after;
  }

  /** The first-password file goes once the password it keeps is changed (password-file.ts). */
  private async retireFirstPasswordFile(oldHash: string, at: Date, username: string) {
    try {
      await retireFirstPassword(this.deps.config.dataDir, keptPasswordWas(oldHash), at, username);
    } catch (error) {
      // The change itself is done; the file is checked again at the next start.
      this.deps.logger?.error({ err: error }, 'the first-password file could not be retired');
    }
  }

  // ------------------------------------------------------------ operators

  async listOperators(pageNum: number, pageSize: number) {
    return mapRows(
      await repo.listOperators(this.deps.db, pageSize, pageOffset({ pageNum, pageSize })),
      toOperatorInfo,
    );
  }

  async createOperator(
    operator: OperatorContext,
    body: { username: string; password: string; roles: OperatorRole[] },
  ): Promise<OperatorInfo> {
    refuseCommonPassword(body.password, 'password');
    const passwordHash = await hashPassword(body.password);
    return this.deps.db.transaction(async (tx) => {
      const row = await repo.insertOperator(tx, {
        username: body.username,
        passwordHash,
        roles: body.roles,
        at: this.now(),
      });
      if (!row) throw new AppError('hint_operatorNameTaken', 409, ['username']);
      await this.audit(tx, operator, {
        action: 'operator.create',
        targetType: 'operator',
        targetId: row.id,
        before: null,
        after: auditedOperator(row),
      });
      return toOperatorInfo(row);
    });
  }

  /**
   * Changes an operator's roles or disables (enables) the account. Disabling ends their sessions.
   * The last enabled admin can neither lose the role nor be disabled.
   */
  async updateOperator(
    operator: OperatorContext,
    body: { id: number; roles?: OperatorRole[]; disabled?: boolean },
  ): Promise<{ operator: OperatorInfo; changed: boolean }> {
    if (body.roles === undefined && body.disabled === undefined)
      throw new AppError('hint_paramRequired', 400, ['roles']);
    return this.deps.db.transaction(async (tx) => {
      // Admins are locked first (in id order), then the target, so concurrent changes queue up.
      const admins = await repo.lockActiveAdminIds(tx);
      const before = await repo.findOperatorById(tx, body.id, true);
      if (!before) throw new AppError('hint_operatorNotFound', 404, ['id']);
      const roles = body.roles ?? before.roles;
      const disabled = body.disabled ?? before.disabled;
      if (sameRoles(roles, before.roles) && disabled === before.disabled)
        return { operator: toOperatorInfo(before), changed: false };
      // No operator disables their own account (an admin would lock themselves out).
      if (before.id === operator.operatorId && disabled && !before.disabled)
        throw new AppError('hint_operatorSelf', 422, ['disabled']);
      if (
        isActiveAdmin(before) &&
        !isActiveAdmin({ roles, disabled }) &&
        admins.every((id) => id === before.id)
      ) {
        throw new AppError('hint_operatorLastAdmin', 422);
      }
      const after = await repo.updateOperator(tx, before.id, { roles, disabled, at: this.now() });
      const sessionsEnded =
        disabled && !before.disabled
          ? (await this.sessions.endAll(tx, before.id, this.now())).length
          : 0;
      await this.audit(tx, operator, {
        action: 'operator.update',
        targetType: 'operator',
        targetId: before.id,
        before: auditedOperator(before),
        after: { ...auditedOperator(after), ...(sessionsEnded > 0 ? { sessionsEnded } : {}) },
      });
      return { operator: toOperatorInfo(after), changed: true };
    });
  }

  /**
   * Sets a new password for an operator (made at random when none is given, and answered once),
   * ends their sessions and lifts a sign-in lock.
   */
  async resetPassword(
    operator: OperatorContext,
    body: { id: number; password?: string },
  ): Promise<{ operator: OperatorInfo; password?: string }> {
    if (body.password !== undefined) refuseCommonPassword(body.password, 'password');
    const generated = body.password === undefined ? newPassword() : undefined;
    const passwordHash = await hashPassword(body.password ?? generated!);
    const after = await this.setPassword(
      operator,
      async (tx) => {
        const before = await repo.findOperatorById(tx, body.id, true);
        if (!before) throw new AppError('hint_operatorNotFound', 404, ['id']);
        return before;
      },
      passwordHash,
      {
        action: 'operator.resetPassword',
        note: { generated: generated !== undefined },
        chosenByOwner: false,
      },
    );
    await this.sessions.clearSignInLock(after.username);
    return {
      operator: toOperatorInfo(after),
      ...(generated !== undefined ? { password: generated } : {}),
    };
  }

  // ------------------------------------------------------------ audit log

  async listAudit(
    filter: AuditQueryFilter,
    pageNum: number,
    pageSize: number,
  ): Promise<{ rows: AuditEntry[]; total: number }> {
    return mapRows(
      await repo.listAudit(
        this.deps.db,
        auditFilter(filter),
        pageSize,
        pageOffset({ pageNum, pageSize }),
      ),
      toAuditEntry,
    );
  }

  /**
   * The newest entries of a filter (AUDIT_EXPORT_MAX_ROWS at most) as CSV; the export itself is
   * audited (what was asked for and how many entries left).
   */
  async exportAudit(operator: OperatorContext, filter: AuditQueryFilter): Promise<string> {
    return this.deps.db.transaction(async (tx) => {
      const rows = await operatorsRepo.exportAudit(tx, auditFilter(filter), AUDIT_EXPORT_MAX_ROWS);
      await this.audit(tx, operator, {
        action: 'audit.export',
        targetType: 'audit_log',
        targetId: null,
        before: null,
        after: { filter, rows: rows.length },
      });
      return auditCsv(rows.map(toAuditEntry));
    });
  }

  // ------------------------------------------------------------ operator sessions

  /** An operator's live sessions, newest first, `current` the one of `operator`. */
  async listSessions(
    operator: OperatorContext,
    operatorId: number,
    pageNum: number,
    pageSize: number,
  ): Promise<{ rows: OperatorSession[]; total: number }> {
    if (
      operatorId !== operator.operatorId &&
      !(await repo.findOperatorById(this.deps.db, operatorId))
    )
      throw new AppError('hint_operatorNotFound', 404, ['operatorId']);
    return mapRows(
      await operatorsRepo.listLiveSessions(
        this.deps.db,
        operatorId,
        this.now(),
        pageSize,
        pageOffset({ pageNum, pageSize }),
      ),
      (row) => ({
        id: row.id,
        operatorId: row.operator_id,
        ip: row.ip,
        userAgent: row.user_agent,
        createTime: row.created_at.toISOString(),
        lastSeenTime: row.last_seen_at.toISOString(),
        expireTime: row.expires_at.toISOString(),
        current: row.id === operator.sessionId,
      }),
    );
  }

  /**
   * Ends a live session: the operator's own (`ownOnly`), or any operator's (admin). Its next call
   * is refused at once (sessions are looked up on every call). Audited.
   */
  async revokeSession(operator: OperatorContext, id: number, ownOnly: boolean): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const session = await operatorsRepo.findLiveSession(tx, id, this.now());
      if (!session || (ownOnly && session.operator_id !== operator.operatorId))
        throw new AppError('hint_sessionNotFound', 404, ['id']);
      await this.sessions.end(tx, session.id);
      await this.audit(tx, operator, {
        action: 'operator.revokeSession',
        targetType: 'operator_session',
        targetId: session.id,
        before: { operatorId: session.operator_id, ip: session.ip, open: true },
        after: { operatorId: session.operator_id, ip: session.ip, open: false },
      });
    });
  }

  // ------------------------------------------------------------ channels

  // The wallet's review interface answers channels as `unknown` (stored rows): their shapes are
  // the table's (operatorsApi), which the answer's serializer checks.

  async listRechargeChannels(page: PageQuery) {
    return (await this.deps.wallet.listRechargeChannels(page)) as {
      rows: RechargeChannelConfig[];
      total: number;
    };
  }

  async listWithdrawChannels(page: PageQuery) {
    return (await this.deps.wallet.listWithdrawChannels(page)) as {
      rows: WithdrawChannelConfig[];
      total: number;
    };
  }

  async saveRechargeChannel(
    operator: OperatorContext,
    input: RechargeChannelInput,
  ): Promise<RechargeChannelConfig> {
    return (await this.deps.wallet.saveRechargeChannel(
      input,
      this.auditWriter(operator),
    )) as RechargeChannelConfig;
  }

  async saveWithdrawChannel(
    operator: OperatorContext,
    input: WithdrawChannelInput,
  ): Promise<WithdrawChannelConfig> {
    return (await this.deps.wallet.saveWithdrawChannel(
      input,
      this.auditWriter(operator),
      this.deps.config.WITHDRAW_TERMS_NOTICE_HOURS,
    )) as WithdrawChannelConfig;
  }

  // ------------------------------------------------------------ users

  /** Disables a user's account (every session ends at once) or enables it again; audited. */
  setUserDisabled(operator: OperatorContext, body: { id: number; disabled?: boolean }) {
    return this.deps.users.setUserDisabled(
      body.id,
      body.disabled === true,
      this.auditWriter(operator),
    );
  }

  // ------------------------------------------------------------ trading settings

  listFees() {
    return this.deps.trading.listFees();
  }

  saveFee(operator: OperatorContext, input: FeeSaveInput) {
    return this.deps.trading.saveFee(input, this.auditWriter(operator));
  }

  listFastTradeOptions(page: PageQuery) {
    return this.deps.trading.listFastTradeOptions(page);
  }

  saveFastTradeOption(operator: OperatorContext, input: FastTradeOptionSaveInput) {
    return this.deps.trading.saveFastTradeOption(input, this.auditWriter(operator));
  }

  listProducts(query: ProductSettingsQuery) {
    return this.deps.trading.listProducts(query);
  }

  updateProduct(operator: OperatorContext, input: ProductUpdateInput) {
    return this.deps.trading.updateProduct(input, this.auditWriter(operator));
  }

  // ------------------------------------------------------------ deposits and withdrawals

  listRecharges(query: ReviewListQuery) {
    return this.deps.wallet.listRecharges(query);
  }

  rechargeProof(id: number) {
    return this.deps.wallet.rechargeProof(id);
  }

  listWithdrawals(query: ReviewListQuery) {
    return this.deps.wallet.listWithdrawals(query);
  }

  /**
   * The wallet's review decisions, taken as `operator`: each names the operator on the record and
   * writes its audit entry in the decision's transaction.
   */
  reviewAs(operator: OperatorContext) {
    const { wallet } = this.deps;
    const actor = { operatorId: operator.operatorId };
    const audit = this.auditWriter(operator);
    return {
      approveRecharge: (id: number) => wallet.approveRecharge(id, actor, audit),
      rejectRecharge: (id: number, reason: string) =>
        wallet.rejectRecharge(id, actor, reason, audit),
      payWithdrawal: (id: number) => wallet.payWithdrawal(id, actor, audit),
      rejectWithdrawal: (id: number, reason: string) =>
        wallet.rejectWithdrawal(id, actor, reason, audit),
    };
  }
}

/** An operator's password hash and when it was last changed (the first-password file's check). */
export async function findOperatorPassword(
  db: Database,
  username: string,
): Promise<{ passwordHash: string; changedAt: Date | null } | undefined> {
  const row = await repo.findOperatorByUsername(db, username);
  return row && { passwordHash: row.password_hash, changedAt: row.pwd_changed_at };
}

/** Whether any operator account exists. */
export async function hasOperators(db: Database): Promise<boolean> {
  return (await repo.countOperators(db)) > 0;
}

/**
 * The seeded first admin of a fresh installation: created only while there is no operator at all;
 * true when this call created it.
 */
export async function ensureFirstAdmin(
  db: Database,
  clock: Clock,
  username: string,
  password: string,
): Promise<boolean> {
  if ((await repo.countOperators(db)) > 0) return false;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // Serializes instances starting together on one PostgreSQL database.
    await repo.lockOperatorTable(tx);
    if ((await repo.countOperators(tx)) > 0) return false;
    const row = await repo.insertOperator(tx, {
      username,
      passwordHash,
      roles: ['admin'],
      at: clock.now(),
    });
    assert(row, 'admin: the first admin could not be created');
    return true;
  });
}
