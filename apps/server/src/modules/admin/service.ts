/**
 * The operator console's rules: operator accounts with roles, their sessions, the audit log, and
 * the review of deposits and withdrawals through the wallet's review interface. Every action is
 * written to the audit log in the transaction that does it. No operator action sets a balance, a
 * price or an outcome: money moves only through the wallet's reviewed flows (PRODUCT section 1).
 */
import type { FastifyBaseLogger } from 'fastify';
import type {
  AuditEntry,
  ChannelConfigs,
  OperatorInfo,
  RechargeChannelConfig,
  WithdrawChannelConfig,
} from '@bourse/shared';
import type { Config } from '../../config';
import type { Database, Queryable } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { refuseCommonPassword } from '../../lib/common-passwords';
import { AppError, assert } from '../../lib/errors';
import {
  hashPassword,
  newPassword,
  newToken,
  sha256,
  spendPasswordCheck,
  verifyPassword,
} from '../../lib/secrets';
import { AttemptLimiter, type AccountService } from '../account';
import { keptPasswordWas, retireFirstPassword } from './password-file';
import type {
  AuditWriter,
  ReviewListQuery,
  ReviewOutcome,
  ReviewedRecharge,
  ReviewedWithdraw,
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
import * as repo from './repo';
import type { OperatorRole } from './roles';

export type { AuditEntry, OperatorInfo } from '@bourse/shared';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** An operator session ends after 8 hours without use, and 24 hours after sign-in at the latest. */
export const OPERATOR_SESSION_IDLE_MS = 8 * HOUR_MS;
export const OPERATOR_SESSION_MAX_MS = 24 * HOUR_MS;
/** A session's expiry is pushed forward at most once a minute. */
const SESSION_TOUCH_MS = MINUTE_MS;

export interface AdminDeps {
  db: Database;
  config: Config;
  clock: Clock;
  wallet: WalletReview;
  /** Fees, fast-trade options and per-product trading settings. */
  trading: TradingSettingsAdmin;
  /** Users' accounts: disabling one ends its sessions everywhere. */
  users: Pick<AccountService, 'setUserDisabled'>;
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

const isActiveAdmin = (row: { roles: readonly string[]; disabled: boolean }) =>
  !row.disabled && row.roles.includes('admin');

export class AdminService {
  private readonly loginLimiter: AttemptLimiter;
  private readonly passwordLimiter: AttemptLimiter;

  constructor(private readonly deps: AdminDeps) {
    const policy = {
      maxFailures: deps.config.LOGIN_MAX_FAILURES,
      lockMs: deps.config.LOGIN_LOCK_MINUTES * MINUTE_MS,
      lockedKey: 'hint_accountLocked',
    };
    this.loginLimiter = new AttemptLimiter(deps.db, deps.clock, policy);
    this.passwordLimiter = new AttemptLimiter(deps.db, deps.clock, policy);
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
  private auditWriter(operator: OperatorContext): AuditWriter {
    return async (tx, change) => {
      await this.audit(tx, operator, change);
    };
  }

  // ------------------------------------------------------------ sessions

  async resolve(token: string, ip: string): Promise<OperatorContext> {
    const row = await repo.findLiveOperatorSession(this.deps.db, sha256(token));
    if (!row) throw new AppError('hint_unauthorized', 401);
    const now = this.now();
    if (row.expires_at <= now) throw new AppError('hint_sessionExpired', 401);
    if (row.disabled) throw new AppError('hint_accountDisabled', 401);
    if (now.getTime() - row.last_seen_at.getTime() >= SESSION_TOUCH_MS) {
      await repo.extendOperatorSession(
        this.deps.db,
        row.session_id,
        now,
        this.expiryOf(row.session_created_at, now),
      );
    }
    return {
      sessionId: row.session_id,
      operatorId: row.id,
      username: row.username,
      roles: row.roles,
      ip,
      row,
    };
  }

  private expiryOf(createdAt: Date, now: Date): Date {
    return new Date(
      Math.min(
        now.getTime() + OPERATOR_SESSION_IDLE_MS,
        createdAt.getTime() + OPERATOR_SESSION_MAX_MS,
      ),
    );
  }

  async login(
    body: { username: string; password: string },
    meta: OperatorMeta,
  ): Promise<{ token: string; operator: OperatorInfo }> {
    const username = body.username.trim().toLowerCase();
    const row = await repo.findOperatorByUsername(this.deps.db, username);
    await this.loginLimiter.attempt(
      `operator-login:${username}`,
      async () =>
        row
          ? verifyPassword(row.password_hash, body.password)
          : (await spendPasswordCheck(body.password), false),
      () => new AppError('hint_loginFailed', 422),
    );
    if (!row) throw new AppError('hint_loginFailed', 422);
    if (row.disabled) throw new AppError('hint_accountDisabled', 403);
    const now = this.now();
    const token = newToken();
    await this.deps.db.transaction(async (tx) => {
      const sessionId = await repo.insertOperatorSession(tx, {
        tokenHash: sha256(token),
        operatorId: row.id,
        at: now,
        expiresAt: this.expiryOf(now, now),
        ip: meta.ip,
        userAgent: meta.userAgent,
      });
      await repo.touchOperatorLogin(tx, row.id, now);
      await this.audit(
        tx,
        { operatorId: row.id, username: row.username, ip: meta.ip },
        {
          action: 'auth.login',
          targetType: 'operator_session',
          targetId: sessionId,
          before: { lastLoginTime: row.last_login_at?.toISOString() ?? null },
          after: { lastLoginTime: now.toISOString() },
        },
      );
    });
    return { token, operator: toOperatorInfo({ ...row, last_login_at: now }) };
  }

  /** Ends the session; false when it had already ended. */
  async logout(operator: OperatorContext): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const ended = await repo.revokeOperatorSession(tx, operator.sessionId, this.now());
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

  /** Changes the operator's own password and ends all their sessions, this one included. */
  async changeOwnPassword(
    operator: OperatorContext,
    body: { oldPassword: string; newPassword: string },
  ): Promise<void> {
    refuseCommonPassword(body.newPassword, 'newPassword');
    await this.passwordLimiter.attempt(
      `operator-pwd:${operator.operatorId}`,
      () => verifyPassword(operator.row.password_hash, body.oldPassword),
      () => new AppError('hint_pwdWrong', 422, ['oldPassword']),
    );
    if (body.oldPassword === body.newPassword)
      throw new AppError('hint_pwdSameAsOld', 422, ['newPassword']);
    const passwordHash = await hashPassword(body.newPassword);
    const now = this.now();
    await this.deps.db.transaction(async (tx) => {
      const updated = await repo.updateOperatorPassword(tx, operator.operatorId, passwordHash, now);
      const ended = await repo.revokeOperatorSessions(tx, operator.operatorId, now);
      await this.audit(tx, operator, {
        action: 'operator.changePassword',
        targetType: 'operator',
        targetId: operator.operatorId,
        before: { pwdChangeTime: operator.row.pwd_changed_at?.toISOString() ?? null },
        after: {
          pwdChangeTime: updated.pwd_changed_at?.toISOString() ?? null,
          sessionsEnded: ended,
        },
      });
    });
    await this.retireFirstPasswordFile(operator.row.password_hash, now, operator.username);
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
    const { rows, total } = await repo.listOperators(
      this.deps.db,
      pageSize,
      (pageNum - 1) * pageSize,
    );
    return { rows: rows.map(toOperatorInfo), total };
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
          ? await repo.revokeOperatorSessions(tx, before.id, this.now())
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
    const result = await this.deps.db.transaction(async (tx) => {
      const before = await repo.findOperatorById(tx, body.id, true);
      if (!before) throw new AppError('hint_operatorNotFound', 404, ['id']);
      const now = this.now();
      const after = await repo.updateOperatorPassword(tx, before.id, passwordHash, now);
      const sessionsEnded = await repo.revokeOperatorSessions(tx, before.id, now);
      await this.audit(tx, operator, {
        action: 'operator.resetPassword',
        targetType: 'operator',
        targetId: before.id,
        before: { pwdChangeTime: before.pwd_changed_at?.toISOString() ?? null },
        after: {
          pwdChangeTime: after.pwd_changed_at?.toISOString() ?? null,
          generated: generated !== undefined,
          sessionsEnded,
        },
      });
      return { after, oldHash: before.password_hash, at: now };
    });
    await this.retireFirstPasswordFile(result.oldHash, result.at, result.after.username);
    await this.loginLimiter.clear(`operator-login:${result.after.username}`);
    return {
      operator: toOperatorInfo(result.after),
      ...(generated !== undefined ? { password: generated } : {}),
    };
  }

  // ------------------------------------------------------------ audit log

  async listAudit(
    filter: repo.AuditFilter,
    pageNum: number,
    pageSize: number,
  ): Promise<{ rows: AuditEntry[]; total: number }> {
    const { rows, total } = await repo.listAudit(
      this.deps.db,
      filter,
      pageSize,
      (pageNum - 1) * pageSize,
    );
    return { rows: rows.map(toAuditEntry), total };
  }

  // ------------------------------------------------------------ channels

  // The wallet's review interface answers channels as `unknown` (stored rows): their shapes are
  // the table's (operatorsApi), which the answer's serializer checks.

  async listChannels(): Promise<ChannelConfigs> {
    return (await this.deps.wallet.listChannels()) as ChannelConfigs;
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

  listFastTradeOptions() {
    return this.deps.trading.listFastTradeOptions();
  }

  saveFastTradeOption(operator: OperatorContext, input: FastTradeOptionSaveInput) {
    return this.deps.trading.saveFastTradeOption(input, this.auditWriter(operator));
  }

  listProducts() {
    return this.deps.trading.listProducts();
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

  approveRecharge(operator: OperatorContext, id: number): Promise<ReviewOutcome<ReviewedRecharge>> {
    return this.deps.wallet.approveRecharge(
      id,
      { operatorId: operator.operatorId },
      this.auditWriter(operator),
    );
  }

  rejectRecharge(
    operator: OperatorContext,
    id: number,
    reason: string,
  ): Promise<ReviewOutcome<ReviewedRecharge>> {
    return this.deps.wallet.rejectRecharge(
      id,
      { operatorId: operator.operatorId },
      reason,
      this.auditWriter(operator),
    );
  }

  listWithdrawals(query: ReviewListQuery) {
    return this.deps.wallet.listWithdrawals(query);
  }

  payWithdrawal(operator: OperatorContext, id: number): Promise<ReviewOutcome<ReviewedWithdraw>> {
    return this.deps.wallet.payWithdrawal(
      id,
      { operatorId: operator.operatorId },
      this.auditWriter(operator),
    );
  }

  rejectWithdrawal(
    operator: OperatorContext,
    id: number,
    reason: string,
  ): Promise<ReviewOutcome<ReviewedWithdraw>> {
    return this.deps.wallet.rejectWithdrawal(
      id,
      { operatorId: operator.operatorId },
      reason,
      this.auditWriter(operator),
    );
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
    await tx.query('LOCK TABLE operator IN SHARE ROW EXCLUSIVE MODE');
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
