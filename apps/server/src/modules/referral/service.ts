/**
 * Team and referral.
 *
 * `TeamService`: what a user reads of their team: members per level (masked accounts, join time,
 * whether they deposited: never a balance), the team's deposits and first deposits, and the
 * commissions paid to them; the terms in force, public. Levels beyond the terms' are not counted.
 *
 * `ReferralConsole`: operators set the terms (a change is in force from its time on, never before
 * the latest one: fees charged earlier keep their terms), freeze and unfreeze an inviter's
 * commissions with a reason (the user is told), and read a user's referral and the report. Every
 * change is audited in its transaction.
 *
 * Sign-up (`refuseSelfReferral`): an invite code whose owner has a live session from the same
 * browser as the registration (same address and user agent) is refused; cycles cannot arise (a
 * new user has no descendants, and the ancestry refuses a user as their own ancestor).
 */
import {
  COMMISSION_STATUS,
  REFERRAL_MAX_LEVELS,
  TEAM_PERIOD_MAX_DAYS,
  normalize,
  toScale,
  type CommissionRecord,
  type ConsoleCommission,
  type ConsoleReferralTerms,
  type ConsoleReferralUser,
  type CurrencyAmount,
  type PageQuery,
  type ReferralFreeze,
  type ReferralReport,
  type ReferralSourceType,
  type ReferralTerms,
  type ReferralTermsSaveBody,
  type TeamDashboard,
  type TeamMember,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import { mapRows } from '../../db/page';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { NoticeEvent, NoticeWriter } from '../messages';
import type { AuditWriter } from '../wallet';
import * as repo from './repo';

const DAY_MS = 86_400_000;
/** The dashboard's period when none is given: the last 30 days. */
const DEFAULT_PERIOD_DAYS = 30;

/**
 * An account as another user sees it: an email's name keeps its first two characters, a phone
 * number its area code, first three and last two digits.
 */
export function maskAccount(account: string): string {
  const at = account.indexOf('@');
  if (at > 0) {
    const name = account.slice(0, at);
    return `${name.slice(0, Math.min(2, name.length - 1) || 1)}***${account.slice(at)}`;
  }
  const [area, number = ''] = account.includes(' ') ? account.split(' ', 2) : ['', account];
  if (number.length <= 5) return `${area ? `${area} ` : ''}${number.slice(0, 1)}***`;
  return `${area ? `${area} ` : ''}${number.slice(0, 3)}****${number.slice(-2)}`;
}

function amounts(rows: repo.AmountRow[]): CurrencyAmount[] {
  return rows.map((row) => ({
    currencyId: row.currency_id,
    currencyName: row.currency_name,
    amount: toScale(row.amount, row.scale),
  }));
}

function ratesOf(row: repo.TermsRow): string[] {
  return [row.rate_1, row.rate_2, row.rate_3].slice(0, row.levels).map((rate) => normalize(rate));
}

/** A period [start, end): the given times, else the last 30 days; at most a year long. */
function periodOf(query: { startTime?: string; endTime?: string }, now: Date) {
  const end = query.endTime ? new Date(query.endTime) : now;
  const start = query.startTime
    ? new Date(query.startTime)
    : new Date(end.getTime() - DEFAULT_PERIOD_DAYS * DAY_MS);
  if (start.getTime() > end.getTime()) throw new AppError('hint_paramInvalid', 400, ['startTime']);
  if (end.getTime() - start.getTime() > TEAM_PERIOD_MAX_DAYS * DAY_MS)
    throw new AppError('hint_paramInvalid', 400, ['startTime']);
  return { start, end };
}

function showCommission(row: repo.CommissionRow): CommissionRecord {
  return {
    id: row.id,
    level: row.level,
    memberAccount: maskAccount(row.payer_account),
    sourceType: row.source_type as ReferralSourceType,
    sourceId: row.source_id,
    orderNo: row.order_no,
    currencyId: row.currency_id,
    currencyName: row.currency_name,
    fee: toScale(row.fee, row.scale),
    rate: normalize(row.rate),
    amount: toScale(row.amount, row.scale),
    status: row.status,
    chargeTime: row.charged_at.toISOString(),
    createTime: row.created_at.toISOString(),
  };
}

export class TeamService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The terms in force now (levels 3 and no rates when none were ever set). */
  async terms(): Promise<ReferralTerms> {
    const row = await repo.termsAt(this.db, this.clock.now());
    if (!row) return { levels: REFERRAL_MAX_LEVELS, rates: [], effectiveFrom: null };
    return {
      levels: row.levels,
      rates: ratesOf(row),
      effectiveFrom: row.effective_from.toISOString(),
    };
  }

  async dashboard(
    userId: number,
    query: { startTime?: string; endTime?: string },
  ): Promise<TeamDashboard> {
    const now = this.clock.now();
    const { start, end } = periodOf(query, now);
    const { levels } = await this.terms();
    const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
    const [counts, first, depositsToday, depositsPeriod, commissionPeriod, total, freeze] =
      await Promise.all([
        repo.levelCounts(this.db, userId),
        repo.firstDeposits(this.db, userId, levels, start, end),
        repo.teamDeposits(this.db, userId, levels, today, new Date(today.getTime() + DAY_MS)),
        repo.teamDeposits(this.db, userId, levels, start, end),
        repo.commissionSums(this.db, userId, COMMISSION_STATUS.paid, start, end),
        repo.commissionSums(this.db, userId, COMMISSION_STATUS.paid),
        repo.findFreeze(this.db, userId),
      ]);
    const levelCounts = counts.slice(0, levels);
    return {
      startTime: start.toISOString(),
      endTime: end.toISOString(),
      levels,
      teamSize: levelCounts.reduce((all, members) => all + members, 0),
      directCount: counts[0] ?? 0,
      levelCounts,
      firstDepositCount: first,
      depositsToday: amounts(depositsToday),
      depositsPeriod: amounts(depositsPeriod),
      commissionPeriod: amounts(commissionPeriod),
      commissionTotal: amounts(total),
      frozen: freeze !== undefined,
    };
  }

  async members(
    userId: number,
    query: PageQuery & { teamLevel: number },
  ): Promise<{ rows: TeamMember[]; total: number }> {
    const page = await repo.levelMembers(this.db, userId, query.teamLevel, query);
    return mapRows(page, (row) => ({
      level: row.depth,
      userAccount: maskAccount(row.user_account),
      joinTime: row.created_at.toISOString(),
      firstDeposit: row.deposited ? 1 : 0,
    }));
  }

  async commissions(
    userId: number,
    query: PageQuery & { level?: number },
  ): Promise<{ rows: CommissionRecord[]; total: number }> {
    const page = await repo.commissions(this.db, { inviterId: userId, level: query.level }, query);
    return mapRows(page, showCommission);
  }
}

/** Refuses a registration with the code of an inviter signed in on the same browser. */
export async function refuseSelfReferral(
  q: Queryable,
  inviterId: number,
  client: { ip: string; userAgent: string },
  now: Date,
): Promise<void> {
  if (await repo.inviterOnSameBrowser(q, inviterId, client, now))
    throw new AppError('hint_inviteSelfReferral', 422, ['inviteCode']);
}

// ---------------------------------------------------------------- the console

function showTerms(row: repo.TermsRow) {
  return {
    id: row.id,
    levels: row.levels,
    rates: ratesOf(row),
    effectiveFrom: row.effective_from.toISOString(),
    operatorName: row.operator_name,
  };
}

function showFreeze(row: repo.FreezeRow): ReferralFreeze {
  return {
    userId: row.user_id,
    userAccount: row.user_account,
    reason: row.reason,
    operatorName: row.operator_name,
    frozenAt: row.frozen_at.toISOString(),
  };
}

function freezeNotice(userId: number, frozen: boolean, reason: string, at: Date): NoticeEvent {
  return {
    userId,
    type: frozen ? 'referralFrozen' : 'referralUnfrozen',
    ref: `referral:${frozen ? 'frozen' : 'unfrozen'}:${at.getTime()}`,
    params: [reason],
    link: { route: 'team' },
  };
}

export class ReferralConsole {
  constructor(private readonly deps: { db: Database; clock: Clock; notices?: NoticeWriter }) {}

  async terms(q: Queryable = this.deps.db): Promise<ConsoleReferralTerms> {
    const now = this.deps.clock.now();
    const [current, history] = await Promise.all([repo.termsAt(q, now), repo.termsHistory(q)]);
    return { current: current ? showTerms(current) : null, history: history.map(showTerms) };
  }

  /**
   * New terms in force from now: never before the latest terms (a clock behind another
   * instance's starts just after them), so no fee already charged changes terms.
   */
  async saveTerms(
    body: ReferralTermsSaveBody,
    operator: { operatorId: number },
    audit: AuditWriter,
  ): Promise<ConsoleReferralTerms> {
    return this.deps.db.transaction(async (tx) => {
      await repo.lockTerms(tx);
      const before = await this.terms(tx);
      const now = this.deps.clock.now();
      const last = await repo.lastTermsStart(tx);
      const at = last && last.getTime() >= now.getTime() ? new Date(last.getTime() + 1) : now;
      const rates: [string, string, string] = [
        body.rate1,
        body.levels >= 2 ? (body.rate2 ?? '0') : '0',
        body.levels >= 3 ? (body.rate3 ?? '0') : '0',
      ];
      await repo.insertTerms(tx, {
        levels: body.levels,
        rates,
        at,
        operatorId: operator.operatorId,
      });
      const after = await repo.termsAt(tx, at);
      await audit(tx, {
        action: 'referral.terms',
        targetType: 'referral_terms',
        targetId: String(after!.id),
        before: before.current,
        after: showTerms(after!),
      });
      return { current: showTerms(after!), history: (await repo.termsHistory(tx)).map(showTerms) };
    });
  }

  freezes(page: PageQuery) {
    return repo.freezes(this.deps.db, page).then((result) => mapRows(result, showFreeze));
  }

  /** Freezes (or unfreezes) an inviter's commissions; `changed` false when it already was. */
  async setFrozen(
    body: { userId: number; reason: string },
    frozen: boolean,
    operator: { operatorId: number },
    audit: AuditWriter,
  ): Promise<{ changed: boolean; freeze: ReferralFreeze | null }> {
    const now = this.deps.clock.now();
    const notice = freezeNotice(body.userId, frozen, body.reason, now);
    const result = await this.deps.db.transaction(async (tx) => {
      const user = await repo.findUser(tx, body.userId);
      if (!user) throw new AppError('hint_userNotFound', 404, ['userId']);
      const before = await repo.findFreeze(tx, body.userId);
      const changed = frozen
        ? await repo.insertFreeze(tx, { ...body, operatorId: operator.operatorId, at: now })
        : await repo.deleteFreeze(tx, body.userId);
      const after = await repo.findFreeze(tx, body.userId);
      if (changed) {
        await audit(tx, {
          action: frozen ? 'referral.freeze' : 'referral.unfreeze',
          targetType: 'user',
          targetId: String(body.userId),
          before: before ? showFreeze(before) : null,
          after: after ? showFreeze(after) : { reason: body.reason },
        });
        await this.deps.notices?.record(tx, [notice]);
      }
      return { changed, freeze: after ? showFreeze(after) : null };
    });
    if (result.changed) this.deps.notices?.push([notice]);
    return result;
  }

  async user(userId: number): Promise<ConsoleReferralUser> {
    const { db } = this.deps;
    const user = await repo.findUser(db, userId);
    if (!user) throw new AppError('hint_userNotFound', 404, ['userId']);
    const [levelCounts, paid, withheld, freeze] = await Promise.all([
      repo.levelCounts(db, userId),
      repo.commissionSums(db, userId, COMMISSION_STATUS.paid),
      repo.commissionSums(db, userId, COMMISSION_STATUS.withheld),
      repo.findFreeze(db, userId),
    ]);
    return {
      userId: user.id,
      userAccount: user.user_account,
      inviteCode: user.invite_code,
      inviter:
        user.inviter_id !== null && user.inviter_account !== null
          ? { id: user.inviter_id, userAccount: user.inviter_account }
          : null,
      levelCounts,
      commissionPaid: amounts(paid),
      commissionWithheld: amounts(withheld),
      freeze: freeze ? showFreeze(freeze) : null,
    };
  }

  async commissions(
    query: PageQuery & { inviterId?: number; payerId?: number },
  ): Promise<{ rows: ConsoleCommission[]; total: number }> {
    const page = await repo.commissions(this.deps.db, query, query);
    return mapRows(page, (row) => ({
      ...showCommission(row),
      inviterId: row.inviter_id,
      inviterAccount: row.inviter_account,
      payerId: row.payer_id,
      payerAccount: row.payer_account,
      entryId: row.entry_id,
    }));
  }

  async report(query: { startTime?: string; endTime?: string }): Promise<ReferralReport> {
    const { start, end } = periodOf(query, this.deps.clock.now());
    const [top, days] = await Promise.all([
      repo.topInviters(this.deps.db, start, end),
      repo.perDay(this.deps.db, start, end),
    ]);
    return {
      startTime: start.toISOString(),
      endTime: end.toISOString(),
      topInviters: top.map((row) => ({
        userId: row.user_id,
        userAccount: row.user_account,
        currencyName: row.currency_name,
        amount: toScale(row.amount, row.scale),
        commissions: row.commissions,
      })),
      perDay: days.map((row) => ({
        day: row.day,
        currencyName: row.currency_name,
        amount: toScale(row.amount, row.scale),
        commissions: row.commissions,
      })),
    };
  }
}
