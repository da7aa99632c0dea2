/**
 * Fast trades (PRODUCT section 6, position type 0): up or down on a product over a fixed time.
 * The stake is frozen at order and the fee paid; the entry is the current tick; the first tick at
 * or after expiry decides: up wins if it is higher, down if lower, equal gives the stake back.
 * A win pays stake × payout rate from the house; a loss captures stake × loss rate. Settlement
 * runs on the tick that decides, exactly once (the order row is locked and must still be open),
 * and a sweep settles overdue orders from the tick log (after a restart, or on another instance).
 */
import {
  FAST_TRADE_STATUS,
  ORDER_DIRECTION,
  POSITION_TYPE,
  SWITCH,
  cmp,
  fastTradeAmounts,
  fastTradeResults,
  gt,
  isPositive,
  lt,
  neg,
  normalize,
  scaleOf,
  sub,
  toScale,
  type AddFastTradeOrderBody,
  type FastTradeListQuery,
  type FastTradeOption,
  type FastTradeOrder,
  type TickEvidence,
  type LanguageKey,
} from '@bourse/shared';
import type { Actor } from '../../http/actor';
import { runOnce } from '../../db/user-lock';
import { assertAmount } from '../../lib/money-assert';
import { AppError, assert } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import type { TickEvent } from '../../market/engine';
import type { ProductRow } from '../../market/repo';
import { firstTickFrom } from '../../market/tick-log';
import { currencyIn, type Currency } from '../settings';
import { fingerprint, nextId, orderNumber } from '../wallet';
import { notices, type NoticeEvent } from '../messages';
import {
  feeRate,
  groupBy,
  OrderViews,
  type OrderContext,
  requireTradable,
  tradableProduct,
  tradeCurrency,
  type TradingDeps,
} from './common';
import {
  acceptFastTradeRisk,
  hasAcceptedFastTradeRisk,
  insertFastTradeOrder,
  listEnabledOptions,
  listOpenFastTrades,
  listOverdueFastTrades,
  lockOpenFastTrades,
  pageFastTradeOrders,
  settleFastTrades,
  fastTradeRealizedSince,
  type FastTradeOrderRow,
  type OpenFastTradeRow,
  type OptionRow,
} from './repo-fast-trade';

/** Fast trades settle from their own index of expiries: no trigger engine. */
export type FastTradeDeps = Omit<TradingDeps, 'triggers'>;

/** An option's terms as the app and the operators both see them. */
export function optionTerms(row: OptionRow) {
  return {
    id: row.id,
    productType: row.product_type,
    productCode: row.product_code,
    durationSeconds: row.duration_seconds,
    payoutRate: normalize(row.payout_rate),
    lossRate: normalize(row.loss_rate),
  };
}

interface OpenOrder {
  id: number;
  userId: number;
  productId: number;
  expiresAt: number;
}

/** Overdue orders are looked for this often (the deciding tick normally settles them first). */
const SWEEP_MS = 1000;
/** Orders settled in one transaction (one journal entry per book): bench/fast-settle.mjs. */
const SETTLE_BATCH = 1000;
/**
 * Settlements run in two lanes side by side, users split by the parity of their id. A user's
 * platform shard is their id modulo PLATFORM_SHARDS (an even number), so the lanes lock no row in
 * common: not an order, a hold, a user's account nor a shard of the house account.
 */
const SETTLE_LANES = 2;
/** How long past expiry the live tick has before the sweep takes an order. */
const SWEEP_GRACE_MS = 2000;

/** Up wins above the entry, down below it; the same price is a tie. */
export function outcomeOf(direction: number, entry: string, exit: string): 1 | 2 | 3 {
  const moved = cmp(exit, entry);
  if (moved === 0) return FAST_TRADE_STATUS.tie;
  const up = direction === ORDER_DIRECTION.up;
  return moved > 0 === up ? FAST_TRADE_STATUS.won : FAST_TRADE_STATUS.lost;
}

function openOrderOf(row: OpenFastTradeRow): OpenOrder {
  return { id: row.id, userId: row.user_id, productId: row.product_id, expiresAt: row.expires_at };
}

export class FastTrades {
  /** Open orders per product, soonest expiry first. */
  private readonly open = new Map<number, OpenOrder[]>();
  private readonly settling = new Set<number>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  private readonly views: OrderViews<FastTradeOrderRow, FastTradeOrder>;

  constructor(private readonly deps: FastTradeDeps) {
    this.views = new OrderViews(deps, 'fast_trade_order', (row, context) =>
      this.toOrder(row, context),
    );
  }

  // ------------------------------------------------------------ life cycle

  /** Loads the open orders, settles the overdue ones, and follows the ticks. */
  async start(): Promise<void> {
    const rows = await listOpenFastTrades(this.deps.db);
    for (const row of rows) this.track(openOrderOf(row));
    this.unsubscribe = this.deps.market.onTickEvent((event) => this.onTick(event));
    await this.sweep();
    this.sweepTimer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    while (this.settling.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private track(order: OpenOrder): void {
    const list = this.open.get(order.productId) ?? [];
    const at = list.findIndex((other) => other.expiresAt > order.expiresAt);
    if (at < 0) list.push(order);
    else list.splice(at, 0, order);
    this.open.set(order.productId, list);
  }

  private untrack(order: OpenOrder): void {
    const list = this.open.get(order.productId);
    const at = list?.findIndex((other) => other.id === order.id) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
  }

  /** The deciding tick: every open order of the product whose time has come. */
  private onTick(event: TickEvent): void {
    const list = this.open.get(event.product.id);
    if (!list) return;
    const evidence: TickEvidence = {
      price: event.tick.price,
      time: event.tick.time,
      source: event.tick.source,
      sequence: event.tick.sequence,
    };
    const due: OpenOrder[] = [];
    while (list.length > 0 && list[0]!.expiresAt <= event.tick.time) due.push(list.shift()!);
    if (due.length > 0) void this.settle(due, evidence);
  }

  /**
   * Orders past expiry that no live tick settled (this instance restarted, or another instance
   * took them and stopped): read from the database and decided by the tick log. The live path
   * gets a moment first.
   */
  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const due = this.deps.clock.now().getTime() - SWEEP_GRACE_MS;
      const rows = await listOverdueFastTrades(this.deps.db, due);
      for (const row of rows) {
        const order = openOrderOf(row);
        if (this.settling.has(order.id)) continue;
        const tick = await firstTickFrom(this.deps.db, order.productId, order.expiresAt);
        if (!tick) continue;
        this.untrack(order);
        await this.settle([order], {
          price: normalize(tick.price),
          time: tick.time,
          source: tick.source,
          sequence: tick.sequence,
        });
      }
    } catch (error) {
      this.deps.logger.error({ err: error }, 'fast trade sweep failed');
    } finally {
      this.sweeping = false;
    }
  }

  private sweeping = false;

  /**
   * Settles orders with their deciding tick, once: an order already settled is left alone.
   * Within a lane (SETTLE_LANES) settlements run one batch after another, each in one
   * transaction with one journal entry per book; the lanes share no locked row, so they run side
   * by side on the database's cores.
   */
  settle(orders: OpenOrder[], tick: TickEvidence): Promise<void> {
    const fresh = orders.filter((order) => !this.settling.has(order.id));
    for (const order of fresh) this.settling.add(order.id);
    const runs: Promise<void>[] = [];
    for (let lane = 0; lane < SETTLE_LANES; lane++) {
      const mine = fresh.filter((order) => order.userId % SETTLE_LANES === lane);
      if (mine.length === 0) continue;
      const run = this.lanes[lane]!.then(async () => {
        for (let at = 0; at < mine.length; at += SETTLE_BATCH) {
          await this.settleBatch(mine.slice(at, at + SETTLE_BATCH), tick);
        }
      });
      this.lanes[lane] = run.catch(() => undefined);
      runs.push(run);
    }
    return Promise.all(runs).then(() => undefined);
  }

  private readonly lanes: Promise<void>[] = Array.from({ length: SETTLE_LANES }, () =>
    Promise.resolve(),
  );

  private async settleBatch(orders: OpenOrder[], tick: TickEvidence): Promise<void> {
    try {
      const now = this.deps.clock.now();
      const currencies = await this.views.currencies();
      let told: NoticeEvent[] = [];
      const settled = await this.deps.db.transaction(async (tx) => {
        const rows = await lockOpenFastTrades(
          tx,
          orders.map((order) => order.id),
        );
        if (rows.length === 0) return [];
        const outcomes = rows.map((row) => {
          const status = outcomeOf(row.direction, row.entry_price, tick.price);
          const { scale } = currencyIn(currencies, row.currency_id);
          const stake = normalize(row.stake);
          // The figures the app previewed before the order was placed (packages/shared).
          const { profit, loss } = fastTradeResults(
            stake,
            { payoutRate: row.payout_rate, lossRate: row.loss_rate },
            scale,
          );
          assertAmount(profit, 'fast-trade profit', scale, 'nonNegative');
          assertAmount(loss, 'fast-trade loss', scale, 'nonNegative');
          assert(!gt(loss, stake), `fast-trade loss ${loss} exceeds the stake ${stake}`);
          if (status === FAST_TRADE_STATUS.won)
            return { row, status, result: profit, returned: stake, paid: profit };
          if (status === FAST_TRADE_STATUS.lost)
            return { row, status, result: neg(loss), returned: sub(stake, loss), paid: '0' };
          return { row, status, result: '0', returned: stake, paid: '0' };
        });
        const groups = groupBy(outcomes, ({ row }) => `${row.book}:${row.currency_id}`);
        for (const group of groups) {
          const first = group[0]!.row;
          await ledger.settleHolds(tx, {
            book: first.book,
            currencyId: first.currency_id,
            platformKind: 'house',
            // The shard of one of the batch's users: a shard of this lane (SETTLE_LANES).
            platformFor: first.user_id,
            type: 'trade:fast_settle',
            refType: 'tick',
            refId: `${first.product_id}:${tick.time}:${tick.sequence}`,
            holds: group.map((outcome) => ({
              holdId: outcome.row.hold_id,
              returned: outcome.returned,
              paid: outcome.paid,
            })),
          });
        }
        await settleFastTrades(
          tx,
          outcomes.map(({ row, status, result }) => ({ id: row.id, status, result })),
          tick,
          now,
        );
        // Each owner's notification, with the settling tick's price, in the same transaction.
        told = outcomes.map(({ row, result }) => {
          const currency = currencyIn(currencies, row.currency_id);
          const product = this.deps.market.productById(row.product_id);
          return notices.fastTradeSettled({
            userId: row.user_id,
            id: row.id,
            orderNo: row.order_no,
            product: product?.product_code ?? '',
            price: product ? toScale(tick.price, product.price_scale) : normalize(tick.price),
            pnl: toScale(result, currency.scale),
            currency: currency.currencyName,
          });
        });
        await this.deps.notices?.record(tx, told);
        return outcomes;
      });
      this.deps.notices?.push(told);
      // After the commit: each user's connections hear of their settled orders and balances.
      for (const { row, status, result } of settled) {
        this.deps.notify?.(row.user_id, 'orders', {
          kind: 'fastTrade',
          order: { id: row.id, orderNo: row.order_no, status, result, exit: tick },
        });
        this.deps.notify?.(row.user_id, 'balances', {
          book: row.book,
          currencyId: row.currency_id,
        });
      }
    } catch (error) {
      // Left open: the sweep tries again with the tick log.
      this.deps.logger.error({ err: error, orders: orders.length }, 'fast trade settlement failed');
      for (const order of orders) this.track(order);
    } finally {
      for (const order of orders) this.settling.delete(order.id);
    }
  }

  /**
   * What fast trades realized for a user since a time: the results of those settled since, less
   * the fees of those placed since (in the trade currency).
   */
  async realizedSince(userId: number, book: ledger.Book, since: Date): Promise<string> {
    const row = await fastTradeRealizedSince(this.deps.db, userId, book, since);
    return sub(normalize(row?.results ?? '0'), normalize(row?.fees ?? '0'));
  }

  // ------------------------------------------------------------ options

  private tradeCurrency(): Promise<Currency> {
    return tradeCurrency(this.deps.settings);
  }

  private feeRate(productType: number, direction: number): Promise<string> {
    return feeRate(this.deps.settings, productType, POSITION_TYPE.fast, direction);
  }

  private product(productType: number, productCode: string): ProductRow {
    return tradableProduct(this.deps.market, productType, productCode, POSITION_TYPE.fast);
  }

  /** A product's own options when it has any, else those of its type; enabled ones only. */
  private async optionRows(product: ProductRow): Promise<OptionRow[]> {
    const rows = await listEnabledOptions(this.deps.db, product.product_type, product.product_code);
    const own = rows.filter((row) => row.product_code !== null);
    return own.length > 0 ? own : rows;
  }

  async options(productType: number, productCode: string): Promise<FastTradeOption[]> {
    await this.requireEnabled();
    const product = this.product(productType, productCode);
    const [rows, currency, up, down] = await Promise.all([
      this.optionRows(product),
      this.tradeCurrency(),
      this.feeRate(productType, ORDER_DIRECTION.up),
      this.feeRate(productType, ORDER_DIRECTION.down),
    ]);
    return rows.map((row) => ({
      ...optionTerms(row),
      minStake: toScale(row.min_stake, currency.scale),
      maxStake: toScale(row.max_stake, currency.scale),
      feeRateUp: up,
      feeRateDown: down,
      currencyId: currency.id,
      currencyName: currency.currencyName,
    }));
  }

  private async requireEnabled(): Promise<void> {
    if (!(await this.deps.settings.switchOn(SWITCH.fastTrade)))
      throw new AppError('hint_fastTradeDisabled', 403);
  }

  // ------------------------------------------------------------ risk disclosure

  async riskAccepted(userId: number): Promise<boolean> {
    return hasAcceptedFastTradeRisk(this.deps.db, userId);
  }

  async acceptRisk(userId: number): Promise<void> {
    await acceptFastTradeRisk(this.deps.db, userId, this.deps.clock.now());
  }

  // ------------------------------------------------------------ orders

  async place(
    actor: Actor,
    body: AddFastTradeOrderBody,
    lang: LanguageKey = 'en',
  ): Promise<FastTradeOrder> {
    await this.requireEnabled();
    const product = this.product(body.productType, body.productCode);
    const amount = normalize(body.amount);
    const hash = fingerprint({
      product: product.id,
      optionId: body.optionId,
      direction: body.orderDirection,
      amount,
    });
    const repeated = await this.views.byRequestId(actor.userId, body.requestId, hash, lang);
    if (repeated) return repeated;
    if (!(await this.riskAccepted(actor.userId)))
      throw new AppError('hint_fastTradeRiskRequired', 403);
    const now = this.deps.clock.now();
    await requireTradable(this.deps.db, this.deps.market, product, now.getTime());
    const option = (await this.optionRows(product)).find((row) => row.id === body.optionId);
    if (!option) throw new AppError('hint_fastTradeOptionUnknown', 404, ['optionId']);
    const currency = await this.tradeCurrency();
    if (scaleOf(amount) > currency.scale)
      throw new AppError('hint_amountDecimals', 422, [currency.scale, currency.currencyName]);
    if (lt(amount, option.min_stake))
      throw new AppError('hint_amountBelowMin', 422, [
        toScale(option.min_stake, currency.scale),
        currency.currencyName,
      ]);
    if (gt(amount, option.max_stake))
      throw new AppError('hint_amountAboveMax', 422, [
        toScale(option.max_stake, currency.scale),
        currency.currencyName,
      ]);
    const ticker = this.deps.market.tickerInfo(product);
    if (!ticker) throw new AppError('hint_marketClosed', 422);
    const { fee } = fastTradeAmounts(
      amount,
      {
        feeRate: await this.feeRate(product.product_type, body.orderDirection),
        payoutRate: option.payout_rate,
        lossRate: option.loss_rate,
      },
      currency.scale,
    );
    assertAmount(amount, 'fast-trade stake', currency.scale);
    assertAmount(fee, 'fast-trade fee', currency.scale, 'nonNegative');
    const book = actor.book;
    const expiresAt = now.getTime() + option.duration_seconds * 1000;
    const id = await runOnce(
      this.deps.db,
      'fast_trade_order',
      { userId: actor.userId, requestId: body.requestId, fingerprint: hash },
      async (tx) => {
        const orderId = await nextId(tx, 'fast_trade_order');
        if (isPositive(fee)) {
          await ledger.transfer(tx, {
            book,
            type: 'trade:fast_fee',
            refType: 'fast_trade',
            refId: orderId,
            from: ledger.user(actor.userId, currency.id),
            to: ledger.platform(currency.id, 'fees', actor.userId),
            amount: fee,
          });
        }
        const hold = await ledger.hold(tx, {
          book,
          userId: actor.userId,
          currencyId: currency.id,
          amount,
          type: 'trade_fast',
          refType: 'fast_trade',
          refId: orderId,
        });
        await insertFastTradeOrder(tx, {
          id: orderId,
          orderNo: orderNumber('F', now, orderId),
          userId: actor.userId,
          book,
          productId: product.id,
          optionId: option.id,
          direction: body.orderDirection,
          currencyId: currency.id,
          stake: amount,
          fee,
          durationSeconds: option.duration_seconds,
          payoutRate: option.payout_rate,
          lossRate: option.loss_rate,
          holdId: hold.id,
          entryPrice: ticker.nowPrice,
          entryTime: ticker.time,
          entrySource: ticker.source,
          entrySequence: ticker.sequence,
          expiresAt,
          requestId: body.requestId,
          requestHash: hash,
          createdAt: now,
        });
        return orderId;
      },
      (_tx, earlier) => earlier,
    );
    this.track({ id, userId: actor.userId, productId: product.id, expiresAt });
    const order = await this.views.byRequestId(actor.userId, body.requestId, hash, lang);
    if (!order) throw new AppError('hint_requestIdReused', 409);
    this.deps.notify?.(actor.userId, 'orders', { kind: 'fastTrade', order });
    this.deps.notify?.(actor.userId, 'balances', { book, currencyId: currency.id });
    return order;
  }

  private toOrder(
    row: FastTradeOrderRow,
    { currency, scale, priceScale, label }: OrderContext,
  ): FastTradeOrder {
    return {
      id: row.id,
      orderNo: row.order_no,
      ...label,
      orderDirection: row.direction,
      currencyName: currency.currencyName,
      amount: toScale(row.stake, scale),
      fee: toScale(row.fee, scale),
      durationSeconds: row.duration_seconds,
      payoutRate: normalize(row.payout_rate),
      lossRate: normalize(row.loss_rate),
      entry: {
        price: toScale(row.entry_price, priceScale),
        time: row.entry_time,
        source: row.entry_source,
        sequence: row.entry_sequence,
      },
      expiresAt: row.expires_at,
      status: row.status,
      exit:
        row.exit_price === null
          ? null
          : {
              price: toScale(row.exit_price, priceScale),
              time: row.exit_time!,
              source: row.exit_source!,
              sequence: row.exit_sequence!,
            },
      result: row.result === null ? null : toScale(row.result, scale),
      createTime: row.created_at.toISOString(),
      settleTime: row.settled_at?.toISOString() ?? null,
    };
  }

  async list(actor: Actor, query: FastTradeListQuery, lang: LanguageKey) {
    const filter = { userId: actor.userId, book: actor.book, status: query.status ?? null };
    return this.views.page(pageFastTradeOrders(this.deps.db, filter, query), lang);
  }

  async detail(actor: Actor, id: number, lang: LanguageKey): Promise<FastTradeOrder> {
    const order = await this.views.ownedById(actor.userId, id, lang);
    if (!order) throw new AppError('hint_orderNotFound', 404, ['id']);
    return order;
  }
}
