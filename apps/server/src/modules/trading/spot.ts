/**
 * Spot (PRODUCT section 6, position type 2: US stocks and crypto) and coin-to-coin (3: crypto)
 * orders and holdings. Both settle in the trade currency through the ledger, with the house as
 * the counterparty and the fee (orderFeeSetting by product type, position type and direction) to
 * the fee account.
 *
 * A market buy pays quantity × the current tick's price (rounded up) plus its fee and adds the
 * quantity and that amount to the holding's quantity and cost (average cost = cost ÷ quantity).
 * A market sell receives quantity × price (rounded down) less its fee; its realized result is the
 * proceeds less the sold share of the cost, so the average cost stays the same. A limit order
 * already reached fills at once at the current price; otherwise it rests, a buy with the amount
 * and fee at its limit frozen by a hold, a sell with its quantity frozen in the holding, and
 * fills at its limit when a tick reaches it (that tick is the fill's evidence). Cancelling a
 * resting order returns what it froze at once. Every order runs once per request id.
 */
import {
  ORDER_DIRECTION,
  ORDER_TYPE,
  POSITION_TYPE,
  PRODUCT_TYPE,
  SPOT_ORDER_STATUS,
  add,
  div,
  gt,
  isPositive,
  lt,
  min,
  mul,
  neg,
  normalize,
  scaleOf,
  sub,
  toScale,
  type BibiAsset,
  type BibiOrderBody,
  type Holding,
  type LanguageKey,
  type SpotListQuery,
  type SpotOrder,
  type SpotOrderBody,
} from '@bourse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/database';
import type { Session } from '../../http/router';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import * as ledger from '../../ledger/ledger';
import type { MarketEngine } from '../../market/engine';
import type { ProductRow } from '../../market/repo';
import { bookOf } from '../assets/service';
import type { Currency, SettingsService } from '../settings/service';
import { fingerprint, nextId, orderNumber } from '../wallet/common';
import {
  currencyMap,
  currentTick,
  evidenceOf,
  feeRate,
  pagedRows,
  requireTradable,
  rowByRequestId,
  tradableProduct,
  tradeCurrency,
  type Notify,
} from './common';
import { isMultipleOf } from './contracts';
import type { FiredTick, Trigger, TriggerEngine, TriggerOutcome, TriggerOwner } from './triggers';

export interface SpotDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  market: MarketEngine;
  triggers: TriggerEngine;
  logger: FastifyBaseLogger;
  notify?: Notify;
}

/** Spot (2) or coin-to-coin (3). */
export type SpotPositionType = typeof POSITION_TYPE.spot | typeof POSITION_TYPE.coinToCoin;

interface OrderRow {
  id: number;
  order_no: string;
  user_id: number;
  book: ledger.Book;
  position_type: number;
  product_id: number;
  currency_id: number;
  direction: number;
  order_type: number;
  limit_price: string | null;
  quantity: string;
  hold_id: number | null;
  status: number;
  fill_price: string | null;
  fill_tick_price: string | null;
  fill_time: number | null;
  fill_source: string | null;
  fill_sequence: number | null;
  amount: string | null;
  fee: string;
  realized_pnl: string | null;
  request_id: string;
  request_hash: string;
  created_at: Date;
  filled_at: Date | null;
  cancelled_at: Date | null;
}

interface HoldingRow {
  user_id: number;
  book: ledger.Book;
  product_id: number;
  position_type: number;
  quantity: string;
  frozen_quantity: string;
  cost: string;
  updated_at: Date;
}

/** Who and what an order moves: its user, book, product, position type, currency and id. */
interface Ref {
  book: ledger.Book;
  userId: number;
  productId: number;
  positionType: number;
  currencyId: number;
  id: number;
}

function refOf(row: OrderRow): Ref {
  return {
    book: row.book,
    userId: row.user_id,
    productId: row.product_id,
    positionType: row.position_type,
    currencyId: row.currency_id,
    id: row.id,
  };
}

const OWNER = 'spot';
const BUY = ORDER_DIRECTION.up;

/** The share of a holding's cost that leaves with `quantity` (all of it with the last unit). */
export function costShare(cost: string, held: string, quantity: string): string {
  if (!lt(quantity, held)) return normalize(cost);
  return div(mul(cost, quantity), held, 18, 'down');
}

/** Value of `quantity` at `price` in the currency: a buy pays rounded up, a sell gets rounded down. */
export function valueAt(quantity: string, price: string, scale: number, buy: boolean): string {
  return toScale(mul(quantity, price), scale, buy ? 'up' : 'down');
}

/** The fee on an amount, rounded up to the currency's scale. */
export function feeOn(amount: string, rate: string, scale: number): string {
  return toScale(mul(amount, rate), scale, 'up');
}

export class SpotTrading implements TriggerOwner {
  constructor(private readonly deps: SpotDeps) {
    deps.triggers.register(OWNER, this);
  }

  // ------------------------------------------------------------ triggers

  private triggerOf(row: OrderRow): Trigger {
    return {
      key: `${OWNER}:${row.id}`,
      owner: OWNER,
      productId: row.product_id,
      side: row.direction === BUY ? 'atOrBelow' : 'atOrAbove',
      price: normalize(row.limit_price!),
      priority: 0,
      since: row.created_at.getTime(),
    };
  }

  async load(): Promise<Trigger[]> {
    const { rows } = await this.deps.db.query<OrderRow>(
      'SELECT * FROM spot_order WHERE status = 0',
    );
    return rows.map((row) => this.triggerOf(row));
  }

  async fire(triggers: Trigger[], tick: FiredTick): Promise<Map<string, TriggerOutcome>> {
    const outcomes = new Map<string, TriggerOutcome>();
    const product = this.deps.market.productById(tick.productId);
    // No fill outside the product's session or while it is halted: the order waits.
    const fillable =
      product !== undefined && product.is_lock !== 1 && this.deps.market.isOpen(product, tick.time);
    for (const trigger of triggers) {
      if (!fillable) {
        outcomes.set(trigger.key, 'keep');
        continue;
      }
      try {
        await this.fillResting(Number(trigger.key.split(':')[1]), tick);
        outcomes.set(trigger.key, 'done');
      } catch (error) {
        this.deps.logger.error({ err: error, trigger: trigger.key }, 'spot fill failed');
        outcomes.set(trigger.key, 'keep');
      }
    }
    return outcomes;
  }

  // ------------------------------------------------------------ reads

  private currencies(): Promise<Map<number, Currency>> {
    return currencyMap(this.deps.settings);
  }

  private toOrder(row: OrderRow, currencies: Map<number, Currency>, lang: LanguageKey): SpotOrder {
    const product = this.deps.market.productById(row.product_id);
    const currency = currencies.get(row.currency_id);
    const scale = currency?.scale ?? 2;
    const priceScale = product?.price_scale ?? 8;
    const price = (value: string | null) => (value === null ? null : toScale(value, priceScale));
    const money = (value: string | null) =>
      value === null ? null : toScale(value, scale, 'halfUp');
    return {
      id: row.id,
      orderNo: row.order_no,
      positionType: row.position_type,
      productType: product?.product_type ?? 0,
      productCode: product?.product_code ?? '',
      productName: product ? pickLanguage(product.product_name_lang, lang) : '',
      orderDirection: row.direction,
      orderType: row.order_type,
      limitPrice: price(row.limit_price),
      quantity: normalize(row.quantity),
      fillPrice: price(row.fill_price),
      amount: money(row.amount),
      fee: toScale(row.fee, scale),
      realizedPnl: money(row.realized_pnl),
      status: row.status,
      fill: evidenceOf(
        row as unknown as Record<string, unknown>,
        'fill',
        priceScale,
        toScale,
        'fill_tick_price',
      ),
      currencyName: currency?.currencyName ?? '',
      createTime: row.created_at.toISOString(),
      fillTime: row.filled_at?.toISOString() ?? null,
    };
  }

  private productIds(positionType: SpotPositionType, code: string): number[] {
    const types =
      positionType === POSITION_TYPE.spot
        ? [PRODUCT_TYPE.usStock, PRODUCT_TYPE.crypto]
        : [PRODUCT_TYPE.crypto];
    return types.flatMap((type) => {
      const product = this.deps.market.product(type, code.toUpperCase());
      return product ? [product.id] : [];
    });
  }

  async list(
    session: Session,
    positionType: SpotPositionType,
    query: SpotListQuery,
    lang: LanguageKey,
  ): Promise<{ rows: SpotOrder[]; total: number }> {
    const codes = query.productCode ? this.productIds(positionType, query.productCode) : null;
    const params = [
      session.userId,
      bookOf(session),
      positionType,
      query.status ?? null,
      query.orderDirection ?? null,
      codes,
    ];
    const where = `WHERE user_id = $1 AND book = $2 AND position_type = $3
      AND ($4::int IS NULL OR status = $4) AND ($5::int IS NULL OR direction = $5)
      AND ($6::int[] IS NULL OR product_id = ANY($6::int[]))`;
    const [{ rows, total }, currencies] = await Promise.all([
      pagedRows<OrderRow>(this.deps.db, 'spot_order', where, params, query),
      this.currencies(),
    ]);
    return { rows: rows.map((row) => this.toOrder(row, currencies, lang)), total };
  }

  private async heldRows(userId: number, book: ledger.Book, positionType?: SpotPositionType) {
    const { rows } = await this.deps.db.query<HoldingRow>(
      `SELECT * FROM holding WHERE user_id = $1 AND book = $2 AND quantity > 0
         AND ($3::int IS NULL OR position_type = $3)
       ORDER BY position_type, product_id`,
      [userId, book, positionType ?? null],
    );
    return rows;
  }

  /** The current price of a holding's product, or null when none is known yet. */
  private nowPrice(productId: number): string | null {
    const product = this.deps.market.productById(productId);
    const ticker = product ? this.deps.market.tickerInfo(product) : undefined;
    return ticker ? normalize(ticker.nowPrice) : null;
  }

  private averageCost(row: HoldingRow, priceScale: number): string {
    if (!isPositive(row.quantity)) return toScale('0', priceScale);
    return toScale(div(row.cost, row.quantity, 18), priceScale, 'halfUp');
  }

  /** A user's spot holdings (position type 2) valued at the current price. */
  async holdings(session: Session, lang: LanguageKey): Promise<Holding[]> {
    const [rows, currency] = await Promise.all([
      this.heldRows(session.userId, bookOf(session), POSITION_TYPE.spot),
      tradeCurrency(this.deps.settings),
    ]);
    return rows.map((row) => {
      const product = this.deps.market.productById(row.product_id);
      const priceScale = product?.price_scale ?? 8;
      const now = this.nowPrice(row.product_id);
      const value = now === null ? null : mul(row.quantity, now);
      return {
        positionType: row.position_type,
        productType: product?.product_type ?? 0,
        productCode: product?.product_code ?? '',
        productName: product ? pickLanguage(product.product_name_lang, lang) : '',
        quantity: normalize(row.quantity),
        frozenQuantity: normalize(row.frozen_quantity),
        averageCost: this.averageCost(row, priceScale),
        costAmount: toScale(row.cost, currency.scale, 'halfUp'),
        nowPrice: now === null ? null : toScale(now, priceScale),
        marketValue: value === null ? null : toScale(value, currency.scale),
        unrealizedPnl:
          value === null ? null : toScale(sub(value, row.cost), currency.scale, 'halfUp'),
        currencyName: currency.currencyName,
      };
    });
  }

  /** The spec's bibi assets: each coin held through coin-to-coin trading. */
  async bibiAssets(session: Session): Promise<BibiAsset[]> {
    const rows = await this.heldRows(session.userId, bookOf(session), POSITION_TYPE.coinToCoin);
    return rows.map((row) => {
      const product = this.deps.market.productById(row.product_id);
      return {
        productCode: product?.product_code ?? '',
        bibiAmount: normalize(sub(row.quantity, row.frozen_quantity)),
        frozenAmount: normalize(row.frozen_quantity),
        averageCost: this.averageCost(row, product?.price_scale ?? 8),
      };
    });
  }

  /**
   * What a user's holdings (spot and coin-to-coin) are worth at the current price, in the trade
   * currency, and their unrealized result. A holding without a price yet counts at its cost.
   */
  async openHoldings(userId: number, book: ledger.Book): Promise<{ value: string; pnl: string }> {
    let value = '0';
    let pnl = '0';
    for (const row of await this.heldRows(userId, book)) {
      const now = this.nowPrice(row.product_id);
      const worth = now === null ? normalize(row.cost) : mul(row.quantity, now);
      value = add(value, worth);
      pnl = add(pnl, sub(worth, row.cost));
    }
    return { value, pnl };
  }

  /** Results realized since a time: sells' results less the fees of every order filled since. */
  async realizedSince(userId: number, book: ledger.Book, since: Date): Promise<string> {
    const { rows } = await this.deps.db.query<{ results: string | null; fees: string | null }>(
      `SELECT sum(realized_pnl) FILTER (WHERE direction = 2) AS results, sum(fee) AS fees
       FROM spot_order WHERE user_id = $1 AND book = $2 AND status = 1 AND filled_at >= $3`,
      [userId, book, since],
    );
    return sub(normalize(rows[0]?.results ?? '0'), normalize(rows[0]?.fees ?? '0'));
  }

  // ------------------------------------------------------------ place

  /** The product of an order: spot takes stocks and crypto, coin-to-coin crypto pairs only. */
  private productOf(
    positionType: SpotPositionType,
    body: SpotOrderBody | BibiOrderBody,
  ): ProductRow {
    if (positionType === POSITION_TYPE.spot) {
      const { productType } = body as SpotOrderBody;
      return tradableProduct(this.deps.market, productType, body.productCode, positionType);
    }
    const code = body.productCode.toUpperCase();
    if (!this.deps.market.product(PRODUCT_TYPE.crypto, code)) {
      // A stock, a future or a forex pair: known, but not tradable coin to coin.
      const other = [PRODUCT_TYPE.usStock, PRODUCT_TYPE.futures, PRODUCT_TYPE.forex].some(
        (type) => this.deps.market.product(type, code)?.is_visible === 1,
      );
      if (other) throw new AppError('hint_positionTypeUnavailable', 422);
    }
    return tradableProduct(this.deps.market, PRODUCT_TYPE.crypto, code, positionType);
  }

  /**
   * Places a buy or a sell. A repeat of a request id returns the first order (a different order
   * under the same id is refused); nothing moves twice.
   */
  async place(
    session: Session,
    positionType: SpotPositionType,
    direction: number,
    body: SpotOrderBody | BibiOrderBody,
  ): Promise<SpotOrder> {
    const product = this.productOf(positionType, body);
    const quantity = normalize(body.quantity);
    const limit = body.orderType === ORDER_TYPE.limit ? normalize(body.price!) : null;
    const hash = fingerprint({
      positionType,
      direction,
      product: product.id,
      orderType: body.orderType,
      price: limit,
      quantity,
    });
    const repeated = await this.byRequestId(session.userId, body.requestId, hash);
    if (repeated) return repeated;
    const step = normalize(product.standard);
    if (!isMultipleOf(quantity, step)) throw new AppError('hint_quantityStep', 422, [step]);
    if (limit !== null && scaleOf(limit) > product.price_scale)
      throw new AppError('hint_priceDecimals', 422, [product.price_scale]);
    const now = this.deps.clock.now();
    await requireTradable(this.deps.db, this.deps.market, product, now.getTime());
    const tick = currentTick(this.deps.market, product);
    const currency = await tradeCurrency(this.deps.settings);
    const rate = await feeRate(this.deps.settings, product.product_type, positionType, direction);
    const buy = direction === BUY;
    // A limit already reached fills at once at the current price, like a market order.
    const rests = limit !== null && (buy ? gt(tick.price, limit) : lt(tick.price, limit));
    const price = rests ? limit : tick.price;
    const amount = valueAt(quantity, price, currency.scale, buy);
    if (!isPositive(amount)) throw new AppError('hint_orderTooSmall', 422, [step]);
    const fee = feeOn(amount, rate, currency.scale);
    const book = bookOf(session);
    const userId = session.userId;
    const row = await this.deps.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM app_user WHERE id = $1 FOR UPDATE', [userId]);
      const { rows: existing } = await tx.query<OrderRow>(
        'SELECT * FROM spot_order WHERE user_id = $1 AND request_id = $2',
        [userId, body.requestId],
      );
      if (existing[0]) return existing[0];
      const id = await nextId(tx, 'spot_order');
      const ref = {
        book,
        userId,
        productId: product.id,
        positionType,
        currencyId: currency.id,
        id,
      };
      let holdId: number | null = null;
      let realized: string | null = null;
      if (buy && rests) {
        const hold = await ledger.hold(tx, {
          book,
          userId,
          currencyId: currency.id,
          amount: add(amount, fee),
          type: 'spot_buy',
          refType: 'spot',
          refId: id,
        });
        holdId = hold.id;
      } else if (buy) {
        await this.postBuy(tx, ref, amount, fee);
        await this.addToHolding(tx, ref, quantity, amount);
      } else {
        const holding = await this.lockHolding(tx, ref);
        const available = holding ? sub(holding.quantity, holding.frozen_quantity) : '0';
        if (gt(quantity, available))
          throw new AppError('hint_insufficientHolding', 422, [
            normalize(available),
            product.product_code,
          ]);
        if (rests) {
          await tx.query(
            `UPDATE holding SET frozen_quantity = frozen_quantity + $5, updated_at = $6
             WHERE user_id = $1 AND book = $2 AND position_type = $3 AND product_id = $4`,
            [userId, book, positionType, product.id, quantity, now],
          );
        } else {
          realized = await this.sellFromHolding(tx, ref, holding!, quantity, amount, fee, false);
        }
      }
      const { rows } = await tx.query<OrderRow>(
        `INSERT INTO spot_order (id, order_no, user_id, book, position_type, product_id, currency_id,
           direction, order_type, limit_price, quantity, hold_id, status, fill_price, fill_time,
           fill_source, fill_sequence, amount, fee, realized_pnl, request_id, request_hash, created_at,
           filled_at, fill_tick_price)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
           $20, $21, $22, $23, $24, $14)
         RETURNING *`,
        [
          id,
          orderNumber(positionType === POSITION_TYPE.spot ? 'S' : 'B', now, id),
          userId,
          book,
          positionType,
          product.id,
          currency.id,
          direction,
          body.orderType,
          limit,
          quantity,
          holdId,
          rests ? SPOT_ORDER_STATUS.open : SPOT_ORDER_STATUS.filled,
          rests ? null : tick.price,
          rests ? null : tick.time,
          rests ? null : tick.source,
          rests ? null : tick.sequence,
          rests ? null : amount,
          // A resting order keeps the fee it will pay at its limit (frozen with a buy's amount).
          fee,
          realized,
          body.requestId,
          hash,
          now,
          rests ? null : now,
        ],
      );
      return rows[0]!;
    });
    if (row.request_hash !== hash) throw new AppError('hint_requestIdReused', 409);
    if (row.status === SPOT_ORDER_STATUS.open) this.deps.triggers.add(this.triggerOf(row));
    const order = this.toOrder(row, await this.currencies(), 'en');
    this.tell(row, order);
    return order;
  }

  private async byRequestId(userId: number, requestId: string, hash: string) {
    const row = await rowByRequestId<OrderRow>(this.deps.db, 'spot_order', userId, requestId, hash);
    return row ? this.toOrder(row, await this.currencies(), 'en') : null;
  }

  private tell(row: OrderRow, order: SpotOrder): void {
    this.deps.notify?.(row.user_id, 'orders', {
      kind: row.position_type === POSITION_TYPE.spot ? 'spot' : 'bibi',
      order,
    });
    this.deps.notify?.(row.user_id, 'balances', { book: row.book, currencyId: row.currency_id });
  }

  // ------------------------------------------------------------ money and holdings

  /** A buy at market: the amount to the house, the fee to the fee account, from available. */
  private async postBuy(tx: Queryable, ref: Ref, amount: string, fee: string): Promise<void> {
    const postings: ledger.PostingInput[] = [
      { account: ledger.user(ref.userId, ref.currencyId), amount: neg(add(amount, fee)) },
      { account: ledger.platform(ref.currencyId, 'house', ref.userId), amount },
    ];
    if (isPositive(fee))
      postings.push({ account: ledger.platform(ref.currencyId, 'fees', ref.userId), amount: fee });
    await ledger.post(tx, {
      book: ref.book,
      type: 'trade:spot_buy',
      refType: 'spot',
      refId: ref.id,
      postings,
    });
  }

  private async addToHolding(tx: Queryable, ref: Ref, quantity: string, cost: string) {
    await tx.query(
      `INSERT INTO holding (user_id, book, product_id, position_type, quantity, frozen_quantity, cost, updated_at)
       VALUES ($1, $2, $3, $4, $5, 0, $6, $7)
       ON CONFLICT (user_id, book, position_type, product_id) DO UPDATE
         SET quantity = holding.quantity + EXCLUDED.quantity, cost = holding.cost + EXCLUDED.cost,
             updated_at = EXCLUDED.updated_at`,
      [
        ref.userId,
        ref.book,
        ref.productId,
        ref.positionType,
        quantity,
        cost,
        this.deps.clock.now(),
      ],
    );
  }

  private async lockHolding(tx: Queryable, ref: Ref): Promise<HoldingRow | undefined> {
    const { rows } = await tx.query<HoldingRow>(
      `SELECT * FROM holding WHERE user_id = $1 AND book = $2 AND position_type = $3 AND product_id = $4
       FOR UPDATE`,
      [ref.userId, ref.book, ref.positionType, ref.productId],
    );
    return rows[0];
  }

  /**
   * A sell: the proceeds from the house, less the fee, to the user; the quantity and its share of
   * the cost leave the holding (and the frozen quantity too for a resting sell). Returns the
   * realized result.
   */
  private async sellFromHolding(
    tx: Queryable,
    ref: Ref,
    holding: HoldingRow,
    quantity: string,
    proceeds: string,
    fee: string,
    frozen: boolean,
  ): Promise<string> {
    const share = costShare(holding.cost, holding.quantity, quantity);
    const postings: ledger.PostingInput[] = [
      { account: ledger.platform(ref.currencyId, 'house', ref.userId), amount: neg(proceeds) },
    ];
    const paid = sub(proceeds, fee);
    if (isPositive(paid))
      postings.push({ account: ledger.user(ref.userId, ref.currencyId), amount: paid });
    if (isPositive(fee))
      postings.push({ account: ledger.platform(ref.currencyId, 'fees', ref.userId), amount: fee });
    await ledger.post(tx, {
      book: ref.book,
      type: 'trade:spot_sell',
      refType: 'spot',
      refId: ref.id,
      postings,
    });
    await tx.query(
      `UPDATE holding SET quantity = quantity - $5, cost = cost - $6,
         frozen_quantity = frozen_quantity - $7, updated_at = $8
       WHERE user_id = $1 AND book = $2 AND position_type = $3 AND product_id = $4`,
      [
        ref.userId,
        ref.book,
        ref.positionType,
        ref.productId,
        quantity,
        share,
        frozen ? quantity : '0',
        this.deps.clock.now(),
      ],
    );
    return sub(proceeds, share);
  }

  /** A resting order reached by a tick: fills at its limit, once (the row is locked and resting). */
  private async fillResting(id: number, tick: FiredTick): Promise<void> {
    const now = this.deps.clock.now();
    const currencies = await this.currencies();
    const row = await this.deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<OrderRow>(
        'SELECT * FROM spot_order WHERE id = $1 FOR UPDATE',
        [id],
      );
      const order = rows[0];
      if (!order || order.status !== SPOT_ORDER_STATUS.open) return null;
      await tx.query('SELECT id FROM app_user WHERE id = $1 FOR UPDATE', [order.user_id]);
      const ref = refOf(order);
      const scale = currencies.get(order.currency_id)?.scale ?? 2;
      const price = normalize(order.limit_price!);
      const buy = order.direction === BUY;
      const amount = valueAt(order.quantity, price, scale, buy);
      let fee = normalize(order.fee);
      let realized: string | null = null;
      if (buy) {
        await ledger.capture(tx, order.hold_id!, {
          amount,
          to: ledger.platform(order.currency_id, 'house', order.user_id),
          type: 'spot_buy',
        });
        if (isPositive(fee))
          await ledger.capture(tx, order.hold_id!, {
            amount: fee,
            to: ledger.platform(order.currency_id, 'fees', order.user_id),
            type: 'spot_fee',
          });
        // Anything the hold froze beyond what the fill took goes back (none when it matched).
        await ledger.release(tx, order.hold_id!, 'spot_fill');
        await this.addToHolding(tx, ref, normalize(order.quantity), amount);
      } else {
        const holding = await this.lockHolding(tx, ref);
        if (!holding || gt(order.quantity, holding.frozen_quantity))
          throw new Error(`spot order ${id}: its frozen quantity is missing from the holding`);
        fee = min(fee, amount);
        realized = await this.sellFromHolding(
          tx,
          ref,
          holding,
          normalize(order.quantity),
          amount,
          fee,
          true,
        );
      }
      const { rows: updated } = await tx.query<OrderRow>(
        `UPDATE spot_order SET status = 1, fill_price = $2, fill_time = $3, fill_source = $4,
           fill_sequence = $5, amount = $6, fee = $7, realized_pnl = $8, filled_at = $9,
           fill_tick_price = $10
         WHERE id = $1 RETURNING *`,
        [id, price, tick.time, tick.source, tick.sequence, amount, fee, realized, now, tick.price],
      );
      return updated[0]!;
    });
    if (!row) return;
    this.tell(row, this.toOrder(row, currencies, 'en'));
  }

  // ------------------------------------------------------------ cancel

  /** Cancels a resting order: a buy's frozen funds or a sell's frozen quantity return at once. */
  async cancel(session: Session, positionType: SpotPositionType, id: number): Promise<SpotOrder> {
    const { rows: found } = await this.deps.db.query<OrderRow>(
      `SELECT * FROM spot_order WHERE id = $1 AND user_id = $2 AND book = $3 AND position_type = $4`,
      [id, session.userId, bookOf(session), positionType],
    );
    if (!found[0]) throw new AppError('hint_orderNotFound', 404, ['id']);
    const now = this.deps.clock.now();
    const row = await this.deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<OrderRow>(
        'SELECT * FROM spot_order WHERE id = $1 FOR UPDATE',
        [id],
      );
      const order = rows[0]!;
      if (order.status !== SPOT_ORDER_STATUS.open) throw new AppError('hint_orderNotResting', 409);
      await tx.query('SELECT id FROM app_user WHERE id = $1 FOR UPDATE', [order.user_id]);
      if (order.direction === BUY) {
        await ledger.release(tx, order.hold_id!, 'cancel');
      } else {
        const ref = refOf(order);
        const holding = await this.lockHolding(tx, ref);
        if (!holding || gt(order.quantity, holding.frozen_quantity))
          throw new Error(`spot order ${id}: its frozen quantity is missing from the holding`);
        await tx.query(
          `UPDATE holding SET frozen_quantity = frozen_quantity - $5, updated_at = $6
           WHERE user_id = $1 AND book = $2 AND position_type = $3 AND product_id = $4`,
          [ref.userId, ref.book, ref.positionType, ref.productId, order.quantity, now],
        );
      }
      // Nothing was charged: the fee it would have paid is no longer due.
      const { rows: updated } = await tx.query<OrderRow>(
        'UPDATE spot_order SET status = 2, fee = 0, cancelled_at = $2 WHERE id = $1 RETURNING *',
        [id, now],
      );
      return updated[0]!;
    });
    this.deps.triggers.remove(`${OWNER}:${row.id}`);
    const order = this.toOrder(row, await this.currencies(), 'en');
    this.tell(row, order);
    return order;
  }
}
