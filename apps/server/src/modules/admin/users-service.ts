/**
 * The console's user pages: finding users and reading one user's profile, balances, ledger
 * postings, orders, holdings, deposits, withdrawals, sessions and security state, each list a
 * bounded page; and the support actions on an account (an admin's two-factor reset among them),
 * which go through the account module and are audited in their transaction. Nothing here edits a
 * balance, a price, an order or an outcome (PRODUCT section 1).
 */
import {
  cmp,
  LOGIN_HISTORY,
  normalize,
  toScale,
  WHITELIST_DELAY_HOURS,
  type ConsoleLedgerPosting,
  type ConsoleUser,
  type ConsoleUserBalance,
  type ConsoleUserDetail,
  type ConsoleUserHolding,
  type ConsoleUserOrder,
  type ConsoleUserSecurity,
  type ConsoleUserSession,
  type UserOrderKind,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import { mapRows, pageOffset } from '../../db/page';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { userIdentity, withdrawHold, type AccountService } from '../account';
import type { TwoFactorService } from '../two-factor';
import type { AuditWriter, WalletReview } from '../wallet';
import * as repo from './users-repo';

export interface UsersConsoleDeps {
  db: Database;
  clock: Clock;
  /** The account module: what ends sessions and lifts the withdrawal-password lock. */
  users: Pick<
    AccountService,
    | 'endUserSessions'
    | 'resetWithdrawalPasswordLock'
    | 'withdrawalPasswordLock'
    | 'security'
    | 'resetTwoFactor'
  >;
  /** Users' two-factor (the user kind, not the operators'): its state on the security tab. */
  userTwoFactor: Pick<TwoFactorService, 'status'>;
  /** A user's deposits and withdrawals, as the review queues list them. */
  wallet: Pick<WalletReview, 'listRecharges' | 'listWithdrawals'>;
}

interface Page {
  pageNum: number;
  pageSize: number;
}

const BALANCE_KINDS = ['available', 'frozen', 'margin', 'staked', 'loan'] as const;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** An amount at its currency's scale, unless it holds more digits than that (then all of them). */
function atScale(value: string, scale: number): string {
  const scaled = toScale(value, scale);
  return cmp(scaled, value) === 0 ? scaled : normalize(value);
}

const orNull = (value: string | null) => (value === null ? null : normalize(value));

function toConsoleUser(row: repo.ListedUser): ConsoleUser {
  return {
    ...userIdentity(row),
    inviteCode: row.invite_code,
    accountType: row.account_type,
    status: row.status,
    authStatus: row.auth_status,
    createTime: row.created_at.toISOString(),
    lastLoginTime: row.last_login_at?.toISOString() ?? null,
  };
}

export class UsersConsole {
  constructor(private readonly deps: UsersConsoleDeps) {}

  private async requireUser(id: number): Promise<void> {
    if (!(await repo.userExists(this.deps.db, id)))
      throw new AppError('hint_notFound', 404, ['id']);
  }

  async search(query: repo.UserSearch & Page) {
    return mapRows(
      await repo.searchUsers(this.deps.db, query, query.pageSize, pageOffset(query)),
      toConsoleUser,
    );
  }

  async detail(id: number): Promise<ConsoleUserDetail> {
    const row = await repo.findUserDetail(this.deps.db, id, this.deps.clock.now());
    if (!row) throw new AppError('hint_notFound', 404, ['id']);
    const lock = await this.deps.users.withdrawalPasswordLock(id);
    return {
      ...toConsoleUser(row),
      inviter:
        row.inviter_id !== null && row.inviter_account !== null
          ? { id: row.inviter_id, userAccount: row.inviter_account }
          : null,
      invitedCount: row.invited_count,
      withdrawPasswordSet: row.with_pwd_set,
      withdrawPasswordChangeTime: row.with_pwd_changed_at?.toISOString() ?? null,
      passwordChangeTime: row.pwd_changed_at?.toISOString() ?? null,
      withdrawLock: {
        failures: lock.failures,
        lockedUntil: lock.lockedUntil?.toISOString() ?? null,
      },
      activeSessions: row.active_sessions,
    };
  }

  /**
   * What protects the account, for support answering the user: flags and times, never a secret
   * (the anti-phishing code is only said to be set).
   */
  async security(id: number): Promise<ConsoleUserSecurity> {
    const now = this.deps.clock.now();
    const row = await repo.findUserSecurity(this.deps.db, id, {
      now,
      waitingSince: new Date(now.getTime() - WHITELIST_DELAY_HOURS * HOUR_MS),
      historySince: new Date(now.getTime() - LOGIN_HISTORY.keepDays * DAY_MS),
    });
    if (!row) throw new AppError('hint_notFound', 404, ['id']);
    const twoFactor = await this.deps.userTwoFactor.status(id);
    const hold = withdrawHold(row, now);
    const time = (at: Date | null) => at?.toISOString() ?? null;
    return {
      twoFactor: twoFactor.enabled,
      twoFactorPending: twoFactor.pending,
      recoveryCodesLeft: twoFactor.recoveryCodesLeft,
      twoFactorResetTime: time(row.two_factor_reset_at),
      antiPhishing: row.anti_phishing_set ? 1 : 0,
      antiPhishingChangeTime: time(row.anti_phishing_changed_at),
      whitelist: row.withdraw_whitelist ? 1 : 0,
      whitelistOffTime: time(row.whitelist_off_at),
      savedDestinations: row.saved_destinations,
      destinationsWaiting: row.destinations_waiting,
      withdrawPasswordSet: row.with_pwd_set ? 1 : 0,
      withdrawPasswordChangeTime: time(row.with_pwd_changed_at),
      passwordChangeTime: time(row.pwd_changed_at),
      withdrawHoldUntil: hold ? hold.until.toISOString() : null,
      withdrawHoldCause: hold?.cause ?? null,
      activeSessions: row.active_sessions,
      lastLoginTime: time(row.last_login_at),
      lastFailedLoginTime: time(row.last_failed_at),
      lastFailedLoginResult: row.last_failed_result,
      authLevel: row.auth_level,
      authStatus: row.auth_status,
    };
  }

  /** One line per book and currency the user has an account in, each kind at the scale. */
  async balances(id: number): Promise<ConsoleUserBalance[]> {
    await this.requireUser(id);
    const lines = new Map<string, ConsoleUserBalance>();
    for (const row of await repo.userAccountBalances(this.deps.db, id)) {
      const key = `${row.book}:${row.currency_id}`;
      let line = lines.get(key);
      if (!line) {
        const zero = toScale('0', row.scale);
        line = {
          book: row.book,
          currencyId: row.currency_id,
          currencyName: row.currency_name,
          ...Object.fromEntries(BALANCE_KINDS.map((kind) => [kind, zero])),
        } as ConsoleUserBalance;
        lines.set(key, line);
      }
      if ((BALANCE_KINDS as readonly string[]).includes(row.kind)) {
        line[row.kind as (typeof BALANCE_KINDS)[number]] = atScale(row.balance, row.scale);
      }
    }
    return [...lines.values()];
  }

  async ledger(query: { id: number; book?: string; currencyId?: number } & Page) {
    return mapRows(
      await repo.userPostings(
        this.deps.db,
        { userId: query.id, book: query.book, currencyId: query.currencyId },
        query.pageSize,
        pageOffset(query),
      ),
      (row): ConsoleLedgerPosting => ({
        entryId: row.entry_id,
        line: row.line,
        book: row.book,
        currencyId: row.currency_id,
        currencyName: row.currency_name,
        accountKind: row.kind,
        amount: atScale(row.amount, row.scale),
        balanceAfter: atScale(row.balance_after, row.scale),
        entryType: row.entry_type,
        refType: row.ref_type,
        refId: row.ref_id,
        requestId: row.request_id,
        memo: row.memo,
        createTime: row.created_at.toISOString(),
      }),
    );
  }

  async orders(query: { id: number; kind: UserOrderKind; book?: string; open?: boolean } & Page) {
    return mapRows(
      await repo.userOrders(
        this.deps.db,
        { userId: query.id, kind: query.kind, book: query.book, open: query.open },
        query.pageSize,
        pageOffset(query),
      ),
      (row): ConsoleUserOrder => ({
        kind: query.kind,
        id: row.id,
        orderNo: row.order_no,
        book: row.book,
        productCode: row.product_code,
        direction: row.direction,
        orderType: row.order_type,
        currencyName: row.currency_name,
        quantity: normalize(row.quantity),
        limitPrice: orNull(row.limit_price),
        entryPrice: orNull(row.entry_price),
        exitPrice: orNull(row.exit_price),
        leverage: row.leverage,
        margin: row.margin === null ? null : atScale(row.margin, row.scale),
        fee: atScale(row.fee, row.scale),
        pnl: row.pnl === null ? null : atScale(row.pnl, row.scale),
        status: row.status,
        closeReason: row.close_reason,
        createTime: row.created_at.toISOString(),
        closeTime: row.close_time?.toISOString() ?? null,
      }),
    );
  }

  async holdings(query: { id: number; book?: string } & Page) {
    return mapRows(
      await repo.userHoldings(
        this.deps.db,
        { userId: query.id, book: query.book },
        query.pageSize,
        pageOffset(query),
      ),
      (row): ConsoleUserHolding => ({
        book: row.book,
        positionType: row.position_type,
        productCode: row.product_code,
        quantity: normalize(row.quantity),
        frozenQuantity: normalize(row.frozen_quantity),
        cost: normalize(row.cost),
        updateTime: row.updated_at.toISOString(),
      }),
    );
  }

  async sessions(query: { id: number; active?: boolean } & Page) {
    const now = this.deps.clock.now();
    return mapRows(
      await repo.userSessions(
        this.deps.db,
        { userId: query.id, activeOnly: query.active === true, now },
        query.pageSize,
        pageOffset(query),
      ),
      (row): ConsoleUserSession => ({
        id: row.id,
        accountType: row.account_type,
        createTime: row.created_at.toISOString(),
        lastSeenTime: row.last_seen_at.toISOString(),
        expireTime: row.expires_at.toISOString(),
        revokeTime: row.revoked_at?.toISOString() ?? null,
        active: row.revoked_at === null && row.expires_at > now,
        ip: row.ip,
        userAgent: row.user_agent,
      }),
    );
  }

  /** The user's sign-in attempts (the account module's login history). */
  loginHistory(query: { id: number } & Page) {
    return this.deps.users.security.loginHistory(query.id, this.pageOf(query));
  }

  recharges(query: { id: number } & Page) {
    return this.deps.wallet.listRecharges({ ...this.pageOf(query), userId: query.id });
  }

  withdrawals(query: { id: number } & Page) {
    return this.deps.wallet.listWithdrawals({ ...this.pageOf(query), userId: query.id });
  }

  private pageOf(query: Page): Page {
    return { pageNum: query.pageNum, pageSize: query.pageSize };
  }

  // ------------------------------------------------------------ actions

  endSessions(id: number, audit: AuditWriter): Promise<number> {
    return this.deps.users.endUserSessions(id, audit);
  }

  resetWithdrawLock(id: number, audit: AuditWriter): Promise<boolean> {
    return this.deps.users.resetWithdrawalPasswordLock(id, audit);
  }

  /** An admin removes the two-factor of a user who lost their authenticator (account module). */
  async resetTwoFactor(
    body: { id: number; reason: string },
    audit: AuditWriter,
  ): Promise<{ sessionsEnded: number; withdrawHoldUntil: string }> {
    const reset = await this.deps.users.resetTwoFactor(body.id, body.reason, audit);
    return {
      sessionsEnded: reset.sessionsEnded,
      withdrawHoldUntil: reset.withdrawHoldUntil.toISOString(),
    };
  }
}
