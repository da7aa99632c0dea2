/**
 * The security centre's rules (issue 19): a user's sessions and devices (ending one, or every
 * other), the login history, and the anti-phishing code.
 *
 * - Ending a session revokes it in the database (the next call with its token is refused) and
 *   announces it through `sessionsEnded`, so its sockets on every instance are signed out.
 * - The login history records every sign-in attempt of an existing account (`recordLogin`; the
 *   account service calls it from `login`, the two-factor step with `twoFactorFailed`), keeps
 *   LOGIN_HISTORY.keepDays and at most LOGIN_HISTORY.maxPerAccount rows per account, pruned in
 *   bounded batches as rows are written (security-repo.ts).
 * - The anti-phishing code is set with the login password and, once two-factor is on, a code (the
 *   account's `confirmSensitiveChange`); every email to the account's address carries it.
 */
import {
  LOGIN_HISTORY,
  type AntiPhishingState,
  type LanguageKey,
  type LoginAttempt,
  type LoginResult,
  type PageQuery,
  type SecuritySession,
  type SetAntiPhishingBody,
} from '@bourse/shared';
import type { SessionStore } from '../../auth/sessions';
import type { Database, Queryable } from '../../db/database';
import { mapRows } from '../../db/page';
import type { Session } from '../../http/router';
import type { SessionsEnded } from '../../market/cluster';
import type { Clock } from '../../lib/clock';
import { describeDevice } from '../../lib/device';
import { AppError } from '../../lib/errors';
import type { FastifyBaseLogger } from 'fastify';
import type { CodeSender } from './code-sender';
import type { UserRow } from './repo';
import * as repo from './repo';
import * as securityRepo from './security-repo';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface AccountSecurityDeps {
  db: Database;
  clock: Clock;
  codes: CodeSender;
  logger: FastifyBaseLogger;
  sessions: SessionStore<'user', UserRow>;
  sessionsEnded?: (event: SessionsEnded) => void;
  /** Confirms the user themselves makes a security change: login password, then a 2FA code. */
  confirmChange: (
    userId: number,
    proof: { userPwd: string; twoFactorCode?: string },
  ) => Promise<void>;
}

/** Where a sign-in came from, as the history records it. */
export interface LoginClient {
  ip: string;
  userAgent: string;
}

export class AccountSecurity {
  constructor(private readonly deps: AccountSecurityDeps) {}

  // ------------------------------------------------------------ sessions and devices

  async sessions(session: Session, page: PageQuery) {
    const found = await securityRepo.liveSessions(
      this.deps.db,
      session.userId,
      this.deps.clock.now(),
      page,
    );
    return mapRows(found, (row): SecuritySession => ({
      id: row.id,
      device: describeDevice(row.user_agent),
      userAgent: row.user_agent,
      ip: row.ip,
      createTime: row.created_at.toISOString(),
      lastSeenTime: row.last_seen_at.toISOString(),
      current: row.id === session.id,
    }));
  }

  /** Ends one of the user's live sessions (this one too: a sign-out); another's is not found. */
  async endSession(session: Session, sessionId: number): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      if (!(await securityRepo.isLiveSessionOf(tx, session.userId, sessionId, now)))
        throw new AppError('hint_notFound', 404, ['id']);
      await this.deps.sessions.end(tx, sessionId);
    });
    this.deps.sessionsEnded?.({ sessionIds: [sessionId], msg: 'hint_sessionExpired' });
  }

  /** Ends every live session of the user but this one; how many it ended. */
  async endOtherSessions(session: Session): Promise<number> {
    const ended = await securityRepo.endOtherSessions(
      this.deps.db,
      session.userId,
      session.id,
      this.deps.clock.now(),
    );
    if (ended.length > 0)
      this.deps.sessionsEnded?.({ sessionIds: ended, msg: 'hint_sessionExpired' });
    return ended.length;
  }

  // ------------------------------------------------------------ login history

  /**
   * Records a sign-in attempt of an existing account (`sessionId`: the session a success opened),
   * in `q` when given (the transaction that opens the session), else on its own.
   */
  async recordLogin(
    userId: number,
    result: LoginResult,
    client: LoginClient,
    options: { q?: Queryable; sessionId?: number } = {},
  ): Promise<void> {
    const now = this.deps.clock.now();
    await securityRepo.insertLoginAttempt(
      options.q ?? this.deps.db,
      {
        userId,
        at: now,
        result,
        ip: client.ip,
        userAgent: client.userAgent,
        sessionId: options.sessionId ?? null,
      },
      {
        since: new Date(now.getTime() - LOGIN_HISTORY.keepDays * DAY_MS),
        perAccount: LOGIN_HISTORY.maxPerAccount,
      },
    );
  }

  async loginHistory(userId: number, page: PageQuery) {
    const since = new Date(this.deps.clock.now().getTime() - LOGIN_HISTORY.keepDays * DAY_MS);
    return mapRows(
      await securityRepo.loginHistory(this.deps.db, userId, since, page),
      (row): LoginAttempt => ({
        id: row.id,
        time: row.created_at.toISOString(),
        result: row.result,
        ip: row.ip,
        device: describeDevice(row.user_agent),
        userAgent: row.user_agent,
      }),
    );
  }

  // ------------------------------------------------------------ anti-phishing code

  async antiPhishing(userId: number): Promise<AntiPhishingState> {
    const row = await securityRepo.antiPhishingOf(this.deps.db, userId);
    return {
      code: row?.anti_phishing_code ?? null,
      updateTime: row?.anti_phishing_changed_at?.toISOString() ?? null,
    };
  }

  /** The anti-phishing code an email to this address carries (none when no account has it). */
  antiPhishingOfEmail(email: string): Promise<string | undefined> {
    return securityRepo.antiPhishingOfEmail(this.deps.db, email.toLowerCase());
  }

  /**
   * Sets or changes the anti-phishing code once the user confirmed it is them, then emails the
   * account's address (when it has one) a confirmation that carries the new code.
   */
  async setAntiPhishing(
    userId: number,
    body: SetAntiPhishingBody,
    lang: LanguageKey,
  ): Promise<AntiPhishingState> {
    await this.deps.confirmChange(userId, body);
    const user = await repo.findUserById(this.deps.db, userId);
    if (!user) throw new AppError('hint_sessionExpired', 401);
    const now = this.deps.clock.now();
    await securityRepo.updateAntiPhishing(this.deps.db, userId, body.code, now);
    if (user.email) {
      try {
        await this.deps.codes.notify({
          target: user.email,
          lang,
          subjectKey: 'email_antiPhishingSetSubject',
          bodyKey: 'email_antiPhishingSetBody',
          antiPhishingCode: body.code,
        });
      } catch (error) {
        // The code is set either way; the notice is a courtesy, not a condition.
        this.deps.logger.error({ err: error }, 'anti-phishing notice could not be sent');
      }
    }
    return { code: body.code, updateTime: now.toISOString() };
  }
}
