/**
 * The withdrawal address whitelist (issue 19): a switch per user. While it is on, a withdrawal
 * goes only to a saved card or address whose details were last set WHITELIST_DELAY_HOURS ago or
 * more (its `usableFrom`), so that someone who took over the session cannot add their own address
 * and withdraw to it at once. Turning it on is immediate; turning it off asks for the account's
 * confirmation (AccountService.confirmSensitiveChange: the login password, and a second factor
 * where there is one) and holds withdrawals for 24 hours, as a password change does.
 */
import {
  WHITELIST_DELAY_HOURS,
  type SetWithdrawWhitelistBody,
  type WithdrawWhitelist,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError, assert } from '../../lib/errors';
import type { AccountService } from '../account';
import * as repo from './repo';

export const WHITELIST_DELAY_MS = WHITELIST_DELAY_HOURS * 60 * 60 * 1000;

/** From when a card or address may be withdrawn to while the whitelist is on. */
export function usableFrom(row: { updated_at: Date }): Date {
  return new Date(row.updated_at.getTime() + WHITELIST_DELAY_MS);
}

/** A withdrawal's destination: one of the user's bound cards or addresses. */
export type WithdrawTarget = { bankId: number } | { addressId: number };

export interface WhitelistDeps {
  db: Database;
  clock: Clock;
  accounts: Pick<AccountService, 'confirmSensitiveChange'>;
}

export class WithdrawWhitelists {
  constructor(private readonly deps: WhitelistDeps) {}

  async status(userId: number): Promise<WithdrawWhitelist> {
    const row = await repo.findWhitelist(this.deps.db, userId);
    assert(row, `no user ${userId} behind a live session`);
    return {
      enabled: row.withdraw_whitelist ? 1 : 0,
      delayHours: WHITELIST_DELAY_HOURS,
    };
  }

  async set(userId: number, body: SetWithdrawWhitelistBody): Promise<WithdrawWhitelist> {
    const enabled = body.enabled === 1;
    const current = await repo.findWhitelist(this.deps.db, userId);
    assert(current, `no user ${userId} behind a live session`);
    if (current.withdraw_whitelist !== enabled) {
      if (!enabled) await this.deps.accounts.confirmSensitiveChange(userId, body);
      await this.deps.db.transaction(async (tx) => {
        // Read again under the row's lock: two requests never both turn it off (two holds).
        const locked = await repo.findWhitelist(tx, userId, true);
        if (locked && locked.withdraw_whitelist !== enabled)
          await repo.updateWhitelist(tx, userId, enabled, this.deps.clock.now());
      });
    }
    return this.status(userId);
  }

  /**
   * Refuses a withdrawal to a card or address not yet usable while the user's whitelist is on
   * (`hint_addressNotWhitelisted`, with the time it becomes usable).
   * A destination that does not exist is left to the caller's own refusal.
   */
  async check(userId: number, target: WithdrawTarget): Promise<void> {
    const { db, clock } = this.deps;
    const user = await repo.findWhitelist(db, userId);
    if (!user?.withdraw_whitelist) return;
    const row =
      'bankId' in target
        ? await repo.bankCards.find(db, userId, target.bankId)
        : await repo.walletAddresses.find(db, userId, target.addressId);
    if (!row) return;
    const from = usableFrom(row);
    if (from > clock.now())
      throw new AppError('hint_addressNotWhitelisted', 422, [formatTime(from)]);
  }
}

/** A moment as users read it in messages: "2026-11-26 14:05 UTC". */
function formatTime(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
