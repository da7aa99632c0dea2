/**
 * The console's new shares: offerings created and changed before their window opens, their
 * subscriptions, the computed allocation with its seed, and cancelling an offering before its
 * allocation (every hold released in one transaction, subscribers notified). Every change is
 * audited in its transaction.
 *
 * No call changes an allocation: it is the published rule's, computed by the worker from the book
 * at close. No call sets a price: the listed product is fed from its code at the offer price.
 */
import {
  LANGUAGE_KEYS,
  MAX_INTEGER_DIGITS,
  NEW_SHARE_LIMITS,
  OFFERING_STATUS,
  PRODUCT_TYPE,
  ALLOCATION_RULE,
  toScale,
  type ConsoleOffering,
  type ConsoleSubscription,
  type OfferingAllocation,
  type OfferingSaveBody,
  type PageQuery,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import * as ledger from '../../ledger/ledger';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { NoticeEvent, NoticeWriter } from '../messages';
import type { SettingsService } from '../settings';
import type { AuditWriter } from '../wallet';
import * as notices from './notices';
import * as repo from './repo';
import { costOf } from './service';
import {
  allocationView,
  coinOf,
  consoleOfferingView,
  consoleSubscriptionView,
  phaseOf,
} from './views';

export interface ConsoleOperator {
  operatorId: number;
}

export interface NewSharesConsoleDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  notices?: NoticeWriter;
  notify?: (userId: number, topic: string, data: unknown) => void;
  /**
   * Whether the feed of a product type can price a code (MarketEngine.feedKnows): any code on a
   * simulated feed, only the codes a real one knows. Absent (no market): not checked.
   */
  feedKnows?: (productType: number, code: string) => boolean;
}

/** Keeps only the languages the app has, with texts. */
function languagesOf(texts: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const lang of LANGUAGE_KEYS) {
    const value = texts?.[lang];
    if (typeof value === 'string' && value.trim()) kept[lang] = value;
  }
  return kept;
}

/** Whether a decimal fits the ledger's and the tables' numeric(38, 18). */
function fits(value: string): boolean {
  return value.replace('-', '').split('.')[0]!.length <= MAX_INTEGER_DIGITS;
}

/** Unique violations: another save took the code meanwhile. */
function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

export class NewSharesConsole {
  constructor(private readonly deps: NewSharesConsoleDeps) {}

  async offerings(
    query: PageQuery & { productType?: number; status?: number },
  ): Promise<{ rows: ConsoleOffering[]; total: number }> {
    const now = this.deps.clock.now();
    const page = await repo.pageConsoleOfferings(
      this.deps.db,
      { productType: query.productType, status: query.status },
      query,
    );
    return { rows: page.rows.map((row) => consoleOfferingView(row, now)), total: page.total };
  }

  private async tradeCurrency(): Promise<{ id: number; scale: number; currencyName: string }> {
    const id = (await this.deps.settings.otherValue()).default_trade_currency_id;
    const currency = await this.deps.settings.currency(id);
    if (!currency) throw new AppError('hint_currencyUnknown', 422);
    return currency;
  }

  /**
   * Creates an offering, or changes one whose window has not opened (`hint_newShareStarted`
   * after). Its window must open in the future; its code must not be a product of its type nor
   * another offering's, and a real feed must know it. It is paid in the trade currency.
   */
  async saveOffering(
    body: OfferingSaveBody,
    operator: ConsoleOperator,
    audit: AuditWriter,
  ): Promise<ConsoleOffering> {
    const now = this.deps.clock.now();
    const times = {
      subscribeStart: new Date(body.subscribeStart),
      subscribeEnd: new Date(body.subscribeEnd),
      allocationTime: new Date(body.allocationTime),
      listingTime: new Date(body.listingTime),
    };
    for (const field of ['lotsOffered', 'minLots', 'maxLots'] as const)
      if (BigInt(body[field]) > BigInt(NEW_SHARE_LIMITS.lotsMax))
        throw new AppError('hint_newShareLotsInvalid', 422, [field]);
    if (this.deps.feedKnows && !this.deps.feedKnows(body.productType, body.code))
      throw new AppError('hint_newShareCodeUnknownToFeed', 422, ['code']);
    const currency = await this.tradeCurrency();
    // A coin lists as a wallet currency of its own: its code is the coin and the trade currency.
    if (
      body.productType === PRODUCT_TYPE.crypto &&
      coinOf(body.code, currency.currencyName) === null
    )
      throw new AppError('hint_newShareCoinCodeInvalid', 422, [currency.currencyName]);
    try {
      return await this.deps.db.transaction(async (tx) => {
        let before: repo.OfferingRow | undefined;
        if (body.id !== undefined) {
          if (!(await repo.lockOffering(tx, body.id, 'update')))
            throw new AppError('hint_notFound', 404, ['id']);
          before = (await repo.findOffering(tx, body.id))!;
          if (phaseOf(before, now) !== OFFERING_STATUS.upcoming)
            throw new AppError('hint_newShareStarted', 409, ['id']);
        }
        if (times.subscribeStart.getTime() <= now.getTime())
          throw new AppError('hint_newShareStartPast', 422, ['subscribeStart']);
        if (await repo.codeTaken(tx, body.productType, body.code, body.id ?? null))
          throw new AppError('hint_newShareCodeTaken', 409, ['code']);
        const values: repo.OfferingValues = {
          productType: body.productType,
          code: body.code,
          name: languagesOf(body.name),
          description: languagesOf(body.description),
          currencyId: currency.id,
          price: body.price,
          lotSize: body.lotSize,
          lotsOffered: body.lotsOffered,
          minLots: body.minLots,
          maxLots: body.maxLots,
          feeRate: body.feeRate,
          ...times,
          lockUpDays: body.lockUpDays,
          minAuthLevel: body.minAuthLevel,
          rule: ALLOCATION_RULE,
        };
        // Everything offered, and what it costs, must fit the tables' numbers.
        const whole = costOf(
          {
            price: values.price,
            lot_size: values.lotSize,
            fee_rate: values.feeRate,
            scale: currency.scale,
          },
          BigInt(values.lotsOffered),
        );
        if (!fits(whole.quantity) || !fits(whole.total))
          throw new AppError('hint_amount_range', 422, ['lotsOffered']);
        let id: number;
        if (before) {
          id = before.id;
          await repo.updateOffering(tx, id, values, now);
        } else {
          id = await repo.insertOffering(tx, values, operator.operatorId, now);
        }
        const after = consoleOfferingView((await repo.findOffering(tx, id))!, now);
        await audit(tx, {
          action: before ? 'newShareOffering.update' : 'newShareOffering.create',
          targetType: 'new_share_offering',
          targetId: String(id),
          before: before ? consoleOfferingView(before, now) : null,
          after,
        });
        return after;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('hint_newShareCodeTaken', 409, ['code']);
      throw error;
    }
  }

  /**
   * Cancels an offering before its allocation, with the reason its subscribers read: every open
   * subscription is cancelled and what it froze released, in one transaction with the audit.
   * `changed` false: it was cancelled already. Refused once allocated (`hint_newShareAllocated`).
   */
  async cancelOffering(
    id: number,
    reason: string,
    operator: ConsoleOperator,
    audit: AuditWriter,
  ): Promise<{ changed: boolean; offering: ConsoleOffering }> {
    const now = this.deps.clock.now();
    const events: NoticeEvent[] = [];
    const result = await this.deps.db.transaction(async (tx) => {
      if (!(await repo.lockOffering(tx, id, 'update')))
        throw new AppError('hint_notFound', 404, ['id']);
      const before = (await repo.findOffering(tx, id))!;
      if (before.status === OFFERING_STATUS.cancelled)
        return { changed: false, row: before, users: [] as number[] };
      if (before.status === OFFERING_STATUS.allocated || before.status === OFFERING_STATUS.listed)
        throw new AppError('hint_newShareAllocated', 409, ['id']);
      const open = await repo.lockOpenSubscriptions(tx, id);
      await ledger.settleHolds(tx, {
        book: 'live',
        currencyId: before.currency_id,
        platformKind: 'house',
        type: 'new_share_cancel',
        refType: 'new_share_offering',
        refId: id,
        holds: open.map((row) => ({ holdId: row.hold_id, returned: row.frozen, paid: '0' })),
      });
      await repo.markSubscriptionsCancelled(
        tx,
        open.map((row) => row.id),
        now,
      );
      await repo.markCancelled(tx, id, { reason, operatorId: operator.operatorId, now });
      for (const row of open)
        events.push(
          notices.cancelled({
            userId: row.user_id,
            id: row.id,
            orderNo: row.order_no,
            code: before.code,
            refunded: toScale(row.frozen, before.scale),
            currency: before.currency_name,
            reason,
          }),
        );
      await this.deps.notices?.record(tx, events);
      const after = (await repo.findOffering(tx, id))!;
      await audit(tx, {
        action: 'newShareOffering.cancel',
        targetType: 'new_share_offering',
        targetId: String(id),
        before: consoleOfferingView(before, now),
        after: { ...consoleOfferingView(after, now), subscriptionsCancelled: open.length },
      });
      return { changed: true, row: after, users: open.map((row) => row.user_id) };
    });
    if (result.changed) {
      this.deps.notices?.push(events);
      for (const userId of new Set(result.users))
        this.deps.notify?.(userId, 'balances', {
          book: 'live',
          currencyId: result.row.currency_id,
        });
    }
    return { changed: result.changed, offering: consoleOfferingView(result.row, now) };
  }

  async subscriptions(
    query: PageQuery & { offeringId: number; status?: number; userAccount?: string },
  ): Promise<{ rows: ConsoleSubscription[]; total: number }> {
    const now = this.deps.clock.now();
    let userId: number | undefined;
    if (query.userAccount) {
      userId = await repo.findUserId(this.deps.db, query.userAccount.trim());
      if (userId === undefined) throw new AppError('hint_userNotFound', 422, ['userAccount']);
    }
    const page = await repo.pageConsoleSubscriptions(
      this.deps.db,
      { offeringId: query.offeringId, status: query.status, userId },
      query,
    );
    return {
      rows: page.rows.map((row) => consoleSubscriptionView(row, now)),
      total: page.total,
    };
  }

  async allocation(id: number): Promise<OfferingAllocation> {
    const row = await repo.findOffering(this.deps.db, id);
    if (!row) throw new AppError('hint_notFound', 404, ['id']);
    if (row.status !== OFFERING_STATUS.allocated && row.status !== OFFERING_STATUS.listed)
      throw new AppError('hint_newShareNotAllocated', 422, ['id']);
    return allocationView(row, []);
  }
}
