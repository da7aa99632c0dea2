/**
 * The console's earn: products of both kinds (created and changed with texts in the app's
 * languages and a re-encoded image, closed to new orders and opened again), the queue of orders
 * waiting for review (approve; reject with a reason, which releases the funds at once) and the
 * report per product. Every change is audited in its transaction.
 *
 * Terms never change for open orders (PRODUCT 1.9): an order copied its rate and terms when it was
 * placed, so a product may be changed freely: the change applies to orders placed from then on.
 * A product's kind is fixed once created. Operators never set a balance or an outcome: approving
 * starts the interest at the published rate, rejecting returns the stake whole.
 */
import {
  EARN_ORDER_STATUS,
  LANGUAGE_KEYS,
  earnDay,
  earnTermDays,
  neg,
  normalize,
  scaleOf,
  toScale,
  type ConsoleEarnOrder,
  type ConsoleEarnProduct,
  type EarnKind,
  type EarnProductSaveBody,
  type EarnReportRow,
  type PageQuery,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import * as ledger from '../../ledger/ledger';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { operatorPicture } from '../../lib/images';
import { pickLanguage } from '../../lib/i18n';
import type { NoticeEvent, NoticeWriter } from '../messages';
import type { AuditWriter } from '../wallet';
import * as notices from './notices';
import * as repo from './repo';
import { consoleOrderView, consoleProductView } from './views';

export interface ConsoleOperator {
  operatorId: number;
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

export class EarnConsole {
  constructor(
    private readonly deps: {
      db: Database;
      clock: Clock;
      notices?: NoticeWriter;
      notify?: (userId: number, topic: string, data: unknown) => void;
    },
  ) {}

  async products(query: PageQuery & { kind?: EarnKind; status?: number }) {
    const page = await repo.pageProductsForConsole(
      this.deps.db,
      { kind: query.kind, status: query.status },
      query,
    );
    return { rows: page.rows.map(consoleProductView), total: page.total };
  }

  /** Creates or changes a product, its image re-encoded, audited with before and after. */
  async saveProduct(
    body: EarnProductSaveBody,
    operator: ConsoleOperator,
    audit: AuditWriter,
  ): Promise<ConsoleEarnProduct> {
    const now = this.deps.clock.now();
    const image = body.image ? await operatorPicture(body.image) : undefined;
    return this.deps.db.transaction(async (tx) => {
      const currency = await repo.findCurrency(tx, body.currencyId);
      if (!currency) throw new AppError('hint_currencyUnknown', 422, ['currencyId']);
      const amounts: [string, string | undefined][] = [
        ['minAmount', body.minAmount],
        ['maxAmount', body.maxAmount],
        ['capacity', body.capacity],
        ...body.rateTiers.map((tier): [string, string] => ['rateTiers', tier.minAmount]),
      ];
      for (const [field, value] of amounts)
        if (value !== undefined && scaleOf(value) > currency.scale)
          throw new AppError('hint_amountDecimals', 422, [currency.scale, field]);
      const before =
        body.id === undefined ? undefined : await repo.findProduct(tx, body.id, { lock: true });
      if (body.id !== undefined && !before) throw new AppError('hint_notFound', 404, ['id']);
      if (before && before.kind !== body.kind)
        throw new AppError('hint_earnKindFixed', 422, ['kind']);
      const beforeView = before ? await repo.productStats(tx, before.id) : undefined;
      let imageId = before?.image_id ?? null;
      if (image) imageId = await repo.insertImage(tx, image, now);
      else if (body.removeImage) imageId = null;
      const values: repo.ProductValues = {
        kind: body.kind,
        name: languagesOf(body.name),
        description: languagesOf(body.description),
        imageId,
        currencyId: body.currencyId,
        termDays: body.termDays ?? null,
        dailyRate: normalize(body.dailyRate),
        rateTiers: body.rateTiers.map((tier) => ({
          minAmount: normalize(tier.minAmount),
          dailyRate: normalize(tier.dailyRate),
        })),
        minAmount: normalize(body.minAmount),
        maxAmount: body.maxAmount === undefined ? null : normalize(body.maxAmount),
        maxOrdersPerUser: body.maxOrdersPerUser ?? null,
        capacity: body.capacity === undefined ? null : normalize(body.capacity),
        minAuthLevel: body.minAuthLevel,
        payout: body.payout,
        compounding: body.compounding ?? false,
        penaltyRate: normalize(body.penaltyRate),
        requiresReview: body.requiresReview ?? false,
        sort: body.sort ?? before?.sort ?? 0,
      };
      let id: number;
      if (before) {
        id = before.id;
        await repo.updateProduct(tx, id, values, now);
        if (before.image_id !== null && before.image_id !== imageId)
          await repo.deleteImageIfUnused(tx, before.image_id);
      } else {
        id = await repo.insertProduct(tx, values, operator.operatorId, now);
      }
      const after = consoleProductView((await repo.productStats(tx, id))!);
      await audit(tx, {
        action: before ? 'earnProduct.update' : 'earnProduct.create',
        targetType: 'earn_product',
        targetId: String(id),
        before: beforeView ? consoleProductView(beforeView) : null,
        after,
      });
      return after;
    });
  }

  /** Opens or closes a product to new orders; `changed` false when it was so already. */
  async setStatus(id: number, status: number, audit: AuditWriter) {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const before = await repo.productStats(tx, id);
      if (!before) throw new AppError('hint_notFound', 404, ['id']);
      const changed = await repo.setProductStatus(tx, id, status, now);
      const after = consoleProductView((await repo.productStats(tx, id))!);
      if (changed)
        await audit(tx, {
          action: status === 1 ? 'earnProduct.open' : 'earnProduct.close',
          targetType: 'earn_product',
          targetId: String(id),
          before: consoleProductView(before),
          after,
        });
      return { changed, product: after };
    });
  }

  // ------------------------------------------------------------ orders and their review

  async orders(
    query: PageQuery & {
      status?: number;
      kind?: EarnKind;
      productId?: number;
      userAccount?: string;
    },
  ): Promise<{ rows: ConsoleEarnOrder[]; total: number }> {
    let userId: number | undefined;
    if (query.userAccount) {
      userId = await repo.findUserId(this.deps.db, query.userAccount.trim());
      if (userId === undefined) throw new AppError('hint_userNotFound', 422, ['userAccount']);
    }
    const page = await repo.pageConsoleOrders(
      this.deps.db,
      { status: query.status, kind: query.kind, productId: query.productId, userId },
      query,
    );
    return { rows: page.rows.map(consoleOrderView), total: page.total };
  }

  /**
   * Decides an order waiting for review. Approving starts it (interest from the next UTC day);
   * rejecting returns its stake to the available balance. The same decision again changes
   * nothing (`changed` false); the other one is refused (`hint_reviewClosed`).
   */
  async decide(
    decision: 'approve' | 'reject',
    id: number,
    operator: ConsoleOperator,
    audit: AuditWriter,
    reason?: string,
  ): Promise<{ changed: boolean; order: ConsoleEarnOrder }> {
    const now = this.deps.clock.now();
    const events: NoticeEvent[] = [];
    const result = await this.deps.db.transaction(async (tx) => {
      const row = await repo.findOrder(tx, id, { lock: true });
      if (!row) throw new AppError('hint_notFound', 404, ['id']);
      const target = decision === 'approve' ? EARN_ORDER_STATUS.active : EARN_ORDER_STATUS.rejected;
      if (row.status !== EARN_ORDER_STATUS.pending) {
        if (row.status === target) return { changed: false, row };
        throw new AppError('hint_reviewClosed', 409);
      }
      const at = (value: string) => toScale(value, row.scale);
      const common = {
        userId: row.user_id,
        id: row.id,
        orderNo: row.order_no,
        kind: row.kind,
        currency: row.currency_name,
      };
      if (decision === 'approve') {
        const days = earnTermDays(earnDay(now), row.term_days);
        await repo.markApproved(tx, row.id, {
          firstDay: days.firstDay,
          endDay: days.endDay,
          operatorId: operator.operatorId,
          now,
        });
        events.push(
          notices.started({ ...common, amount: at(row.principal), firstDay: days.firstDay }),
        );
      } else {
        // The product before the ledger's accounts (lock order).
        if (row.book === 'live')
          await repo.changeHeld(tx, [{ productId: row.product_id, amount: neg(row.principal) }]);
        const entry = await ledger.transfer(tx, {
          book: row.book,
          type: 'earn_reject',
          refType: 'earn_order',
          refId: row.id,
          from: ledger.user(row.user_id, row.currency_id, 'staked'),
          to: ledger.user(row.user_id, row.currency_id, 'available'),
          amount: row.balance,
        });
        await repo.markRejected(tx, row.id, {
          reason: reason ?? '',
          entryId: entry.entryId,
          operatorId: operator.operatorId,
          now,
        });
        events.push(
          notices.rejected({ ...common, amount: at(row.principal), reason: reason ?? '' }),
        );
      }
      await this.deps.notices?.record(tx, events);
      const after = (await repo.findOrder(tx, row.id))!;
      await audit(tx, {
        action: decision === 'approve' ? 'earnOrder.approve' : 'earnOrder.reject',
        targetType: 'earn_order',
        targetId: String(row.id),
        before: consoleOrderView(row),
        after: { ...consoleOrderView(after), reason: reason ?? null },
      });
      return { changed: true, row: after };
    });
    if (result.changed) {
      this.deps.notices?.push(events);
      if (decision === 'reject')
        this.deps.notify?.(result.row.user_id, 'balances', {
          book: result.row.book,
          currencyId: result.row.currency_id,
        });
    }
    return { changed: result.changed, order: consoleOrderView(result.row) };
  }

  // ------------------------------------------------------------ report

  async report(demo: boolean): Promise<EarnReportRow[]> {
    const rows = await repo.report(this.deps.db, demo ? 'demo' : 'live');
    return rows.map((row) => ({
      productId: row.id,
      kind: row.kind,
      name: pickLanguage(row.name, 'en'),
      currencyId: row.currency_id,
      currency: row.currency_name,
      status: row.status,
      pendingOrders: row.pending,
      activeOrders: row.active,
      completedOrders: row.completed,
      redeemedOrders: row.redeemed,
      amountHeld: toScale(row.held, row.scale),
      interestPaid: toScale(row.interest_paid, row.scale),
      interestAccrued: toScale(row.interest_accrued, row.scale),
      penalties: toScale(row.penalties, row.scale),
    }));
  }
}
