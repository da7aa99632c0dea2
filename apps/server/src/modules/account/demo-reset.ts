/**
 * Resetting a user's demo account (issue 19): its resting orders cancelled and its positions and
 * holdings closed at the feed's price, each through the trading module's own calls (the same
 * rules, fees, ledger entries and notifications as the user's own), then its available USDT
 * brought back to the starting 100,000 by one journal entry of its own type (`demo_reset`) from
 * or to the platform's demo faucet, as the grant at registration came. History is kept: orders,
 * positions and their journal entries stay as they were. Once a day at most; only the demo book
 * is ever touched.
 *
 * Closing runs before the final entry, each close in its own transaction (the trading module
 * owns them). If a market is closed, the reset is refused there: what closed stays closed, and
 * a later reset finishes the rest. Only a finished reset counts towards the daily limit.
 */
import {
  DEMO_GRANT_AMOUNT,
  DEMO_RESET_INTERVAL_HOURS,
  FAST_TRADE_STATUS,
  ORDER_DIRECTION,
  ORDER_TYPE,
  PAGE,
  POSITION_TYPE,
  CONTRACT_STATUS,
  SPOT_ORDER_STATUS,
  USDT_CURRENCY_ID,
  SWITCH,
  cmp,
  isPositive,
  normalize,
  sub,
  type DemoReset,
  type SpotOrderBody,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import { withUserLock } from '../../db/user-lock';
import type { Actor } from '../../http/actor';
import type { Clock } from '../../lib/clock';
import { AppError, assert } from '../../lib/errors';
import { sha256 } from '../../lib/secrets';
import * as ledger from '../../ledger/ledger';
import type { SettingsService } from '../settings';
import type { Contracts, FastTrades, SpotTrading } from '../trading';
import * as repo from './repo-profile';

const INTERVAL_MS = DEMO_RESET_INTERVAL_HOURS * 60 * 60 * 1000;
/**
 * Pages of orders or positions read per kind (of PAGE.maxSize each): a demo account holds far
 * fewer; past this the reset stops (a broken loop, not a user's account).
 */
const MAX_PAGES = 50;
/** The listing calls' language: only ids and quantities are read from their rows. */
const LANG = 'en';

export interface DemoResetDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  /** The trading books; absent without a market feed (nothing can then be open). */
  contracts?: Contracts;
  spot?: SpotTrading;
  fastTrades?: FastTrades;
}

/** A moment as users read it in messages: "2026-11-26 14:05 UTC". */
function formatTime(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export class DemoResets {
  constructor(private readonly deps: DemoResetDeps) {}

  private answer(row: repo.DemoResetRow, balance: string): DemoReset {
    return {
      resetTime: row.reset_at.toISOString(),
      balance,
      positionsClosed: row.positions_closed,
      ordersCancelled: row.orders_cancelled,
      nextResetTime: new Date(row.reset_at.getTime() + INTERVAL_MS).toISOString(),
    };
  }

  /** Refuses a reset before a day has passed since the last one. */
  private refuseTooSoon(last: repo.DemoResetRow | undefined, now: Date): void {
    if (!last) return;
    const next = new Date(last.reset_at.getTime() + INTERVAL_MS);
    if (next > now) throw new AppError('hint_demoResetTooSoon', 429, [formatTime(next)]);
  }

  async reset(userId: number, requestId: string): Promise<DemoReset> {
    const { db, clock } = this.deps;
    const earlier = await repo.findDemoReset(db, userId, requestId);
    if (earlier) return this.answer(earlier, DEMO_GRANT_AMOUNT);
    if (!(await this.deps.settings.switchOn(SWITCH.demoAccount)))
      throw new AppError('hint_demoDisabled', 403);
    this.refuseTooSoon(await repo.latestDemoReset(db, userId), clock.now());

    const actor: Actor = { userId, book: 'demo' };
    // Each close of the reset has an id of its own, derived from the reset's: a retry of the
    // reset finds the closes already made instead of making others.
    const key = sha256(`demo_reset:${requestId}`).slice(0, 24);
    const closed = await this.closeEverything(actor, key);

    const now = clock.now();
    return db.transaction(async (tx) => {
      await withUserLock(tx, userId);
      // A reset of the same request, or another, may have finished meanwhile.
      const again = await repo.findDemoReset(tx, userId, requestId);
      if (again) return this.answer(again, DEMO_GRANT_AMOUNT);
      this.refuseTooSoon(await repo.latestDemoReset(tx, userId), now);
      const before =
        (await ledger.userBalances(tx, 'demo', userId)).find(
          (balance) => balance.currencyId === USDT_CURRENCY_ID,
        )?.available ?? '0';
      const difference = sub(DEMO_GRANT_AMOUNT, before);
      const user = ledger.user(userId, USDT_CURRENCY_ID);
      const faucet = ledger.platform(USDT_CURRENCY_ID, 'demo_faucet');
      const entry =
        cmp(difference, '0') === 0
          ? null
          : await ledger.transfer(tx, {
              book: 'demo',
              type: 'demo_reset',
              requestId,
              scope: `demo_reset:user:${userId}`,
              refType: 'demo_reset',
              from: isPositive(difference) ? faucet : user,
              to: isPositive(difference) ? user : faucet,
              amount: isPositive(difference) ? difference : sub('0', difference),
            });
      const after =
        (await ledger.userBalances(tx, 'demo', userId)).find(
          (balance) => balance.currencyId === USDT_CURRENCY_ID,
        )?.available ?? '0';
      assert(cmp(after, DEMO_GRANT_AMOUNT) === 0, `demo reset: balance ${after} after the reset`);
      const row = await repo.insertDemoReset(tx, {
        user_id: userId,
        request_id: requestId,
        reset_at: now,
        balance_before: normalize(before),
        positions_closed: closed.positions,
        orders_cancelled: closed.orders,
        entry_id: entry?.entryId ?? null,
      });
      return this.answer(row, normalize(after));
    });
  }

  /**
   * Cancels the demo book's resting orders and closes its positions and holdings through the
   * trading module. Refuses while a fast trade is open: it can only end at its expiry.
   */
  private async closeEverything(
    actor: Actor,
    key: string,
  ): Promise<{ positions: number; orders: number }> {
    const { contracts, spot, fastTrades } = this.deps;
    const first = { pageNum: 1, pageSize: PAGE.maxSize };
    if (fastTrades) {
      const open = await fastTrades.list(
        actor,
        { ...first, pageSize: 1, status: FAST_TRADE_STATUS.open },
        LANG,
      );
      if (open.total > 0) throw new AppError('hint_demoResetTradesOpen', 409);
    }
    let positions = 0;
    let orders = 0;
    // Each pass reads the first page again: what it handled has left the list.
    const drain = async <T>(
      page: () => Promise<{ rows: T[] }>,
      each: (row: T) => Promise<void>,
    ): Promise<void> => {
      for (let pass = 0; pass < MAX_PAGES; pass++) {
        const { rows } = await page();
        if (rows.length === 0) return;
        for (const row of rows) await each(row);
      }
      assert(false, `demo reset of user ${actor.userId}: more than ${MAX_PAGES} pages to close`);
    };

    if (contracts) {
      await drain(
        () => contracts.list(actor, { ...first, status: [CONTRACT_STATUS.pending] }, LANG),
        async (position) => {
          await contracts.cancel(actor, position.id, LANG);
          orders += 1;
        },
      );
      await drain(
        () => contracts.list(actor, { ...first, status: [CONTRACT_STATUS.open] }, LANG),
        async (position) => {
          // The user is told of the reset, not of each close it makes.
          await contracts.close(
            actor,
            { id: position.id, requestId: `${key}c${position.id}` },
            LANG,
            { notify: false },
          );
          positions += 1;
        },
      );
    }
    if (spot) {
      for (const type of [POSITION_TYPE.spot, POSITION_TYPE.coinToCoin] as const) {
        await drain(
          () => spot.list(actor, type, { ...first, status: SPOT_ORDER_STATUS.open }, LANG),
          async (order) => {
            await spot.cancel(actor, type, order.id, LANG);
            orders += 1;
          },
        );
      }
      // Holdings are sold at the feed's price, as a market sell of the user's would be.
      for (const holding of await spot.holdings(actor, LANG)) {
        if (!isPositive(holding.quantity)) continue;
        await spot.place(actor, POSITION_TYPE.spot, ORDER_DIRECTION.down, {
          // A holding's product is one of the catalogue's types (the spot schema's codes).
          productType: holding.productType as SpotOrderBody['productType'],
          productCode: holding.productCode,
          orderType: ORDER_TYPE.market,
          quantity: holding.quantity,
          requestId: `${key}s${holding.productType}${holding.productCode}`.slice(0, 64),
        });
        positions += 1;
      }
      for (const coin of await spot.bibiAssets(actor)) {
        if (!isPositive(coin.bibiAmount)) continue;
        await spot.place(actor, POSITION_TYPE.coinToCoin, ORDER_DIRECTION.down, {
          productCode: coin.productCode,
          orderType: ORDER_TYPE.market,
          quantity: coin.bibiAmount,
          requestId: `${key}b${coin.productCode}`.slice(0, 64),
        });
        positions += 1;
      }
    }
    return { positions, orders };
  }
}
