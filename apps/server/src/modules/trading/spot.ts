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
 *
 * A halted or hidden product stops buying only (PRODUCT section 1, rule 8): sells at market and
 * resting sells still fill at the feed's price, resting buys wait, and cancelling always works.
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
  fillPrice,
  isMultipleOf,
  spotPreview,
  valueAt,
} from '@bourse/shared';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { runOnce, withUserLock, withUsersLocked } from '../../db/user-lock';
import { assertAmount } from '../../lib/money-assert';
import { AppError } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import type { ProductRow } from '../../market/repo';
import { currencyIn, type Currency } from '../settings';
import { fingerprint, nextId, orderNumber } from '../wallet';
import {
  cancelResting,
  currentTick,
  evidenceOf,
  feeRate,
  groupBy,
  OrderViews,
  productLabel,
  requireTradable,
  stopsOpening,
  tradableProduct,
  tradeCurrency,
  type OrderContext,
  type OrderIntent,
  type TradingDeps,
} from './common';
import type { FiredTick, Trigger, TriggerOutcome, TriggerOwner } from './triggers';

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
  /** Coin-to-coin: the currency of the coin traded (it moves in the ledger); null for spot. */
  coinId: number | null;
}

/** An order's references; `coins` gives the coin of each coin-to-coin product (see `coinsOf`). */
function refOf(row: OrderRow, coins: Map<number, number>): Ref {
  return {
    book: row.book,
    userId: row.user_id,
    productId: row.product_id,
    positionType: row.position_type,
    currencyId: row.currency_id,
    id: row.id,
    coinId: row.position_type === POSITION_TYPE.coinToCoin ? coins.get(row.product_id)! : null,
  };
}

/** A coin-to-coin trade's coin leg: `quantity` from one account to the other. */
function coinPostings(ref: Ref, quantity: string, toUser: boolean): ledger.PostingInput[] {
  const house = ledger.platform(ref.coinId!, 'house', ref.userId);
  const user = ledger.user(ref.userId, ref.coinId!);
  return [
    { account: toUser ? house : user, amount: neg(quantity) },
    { account: toUser ? user : house, amount: quantity },
  ];
}

/**
 * What a coin-to-coin sell takes from the holding's cost: coins bought through coin-to-coin carry
 * a cost, coins that came otherwise (a deposit) none. Returns the part of `quantity` the holding
 * covers, its share of the cost, and the realized result on that part. Spot sells are covered whole.
 */
function sellCover(
  holding: HoldingRow | undefined,
  quantity: string,
  proceeds: string,
  coin: boolean,
): { covered: string; share: string; realized: string | null } {
  const held = holding ? normalize(holding.quantity) : '0';
  const covered = coin ? min(quantity, held) : quantity;
  if (!isPositive(covered)) return { covered: '0', share: '0', realized: null };
  const share = costShare(holding!.cost, held, covered);
  const earned =
    covered === quantity ? proceeds : div(mul(proceeds, covered), quantity, 18, 'down');
  return { covered, share, realized: sub(earned, share) };
}

/** A holding's key: its user, book, position type and product. */
function holdingKey(ref: Pick<Ref, 'userId' | 'book' | 'positionType' | 'productId'>): string {
  return `${ref.userId}:${ref.book}:${ref.positionType}:${ref.productId}`;
}

/** Where a buy's amount and fee go: the house and the fee account. */
function buyParts(ref: Ref, amount: string, fee: string): ledger.PostingInput[] {
  const parts: ledger.PostingInput[] = [
    { account: ledger.platform(ref.currencyId, 'house', ref.userId), amount },
  ];
  if (isPositive(fee))
    parts.push({ account: ledger.platform(ref.currencyId, 'fees', ref.userId), amount: fee });
  return parts;
}

/** A sell's proceeds from the house: less the fee to the user, the fee to the fee account. */
function sellPostings(ref: Ref, proceeds: string, fee: string): ledger.PostingInput[] {
  const postings: ledger.PostingInput[] = [
    { account: ledger.platform(ref.currencyId, 'house', ref.userId), amount: neg(proceeds) },
  ];
  const paid = sub(proceeds, fee);
  if (isPositive(paid))
    postings.push({ account: ledger.user(ref.userId, ref.currencyId), amount: paid });
  if (isPositive(fee))
    postings.push({ account: ledger.platform(ref.currencyId, 'fees', ref.userId), amount: fee });
  return postings;
}

const OWNER = 'spot';
/** Orders filled by one tick per transaction. */
const BATCH = 500;
const BUY = ORDER_DIRECTION.up;

/** The share of a holding's cost that leaves with `quantity` (all of it with the last unit). */
export function costShare(cost: string, held: string, quantity: string): string {
  if (!lt(quantity, held)) return normalize(cost);
  return div(mul(cost, quantity), held, 18, 'down');
}

export class SpotTrading implements TriggerOwner {
  private readonly views: OrderViews<OrderRow, SpotOrder>;

  constructor(private readonly deps: TradingDeps) {
    deps.triggers.register(OWNER, this);
    this.views = new OrderViews(deps, 'spot_order', (row, context) => this.toOrder(row, context));
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
      `SELECT * FROM spot_order WHERE status = ${SPOT_ORDER_STATUS.open}`,
    );
    return rows.map((row) => this.triggerOf(row));
  }

  async fire(triggers: Trigger[], tick: FiredTick): Promise<Map<string, TriggerOutcome>> {
    const outcomes = new Map<string, TriggerOutcome>();
    const product = this.deps.market.productById(tick.productId);
    // No fill outside the product's session: the order waits for the next tick inside it.
    const open = product !== undefined && this.deps.market.isOpen(product, tick.time);
    // A halt or a hidden product stops buying, never selling (PRODUCT section 1, rule 8). A
    // resting sell is the user's way out of a holding whose quantity (or coins) it froze: it still
    // fills at its limit from the feed's tick, or the halt would lock what the user holds. A
    // resting buy would be a new purchase on a halted product: it waits (kept, not dropped, so it
    // can fill once trading resumes) and its user can cancel it at any time, which returns the
    // funds it froze.
    const buysWait = product !== undefined && stopsOpening(product);
    const ids: number[] = [];
    for (const trigger of triggers) {
      // Buys rest at or below the price, sells at or above it (`triggerOf`).
      const buy = trigger.side === 'atOrBelow';
      const fillable = open && !(buy && buysWait);
      outcomes.set(trigger.key, fillable ? 'done' : 'keep');
      if (fillable) ids.push(Number(trigger.key.split(':')[1]));
    }
    for (let at = 0; at < ids.length; at += BATCH)
      await this.fillResting(ids.slice(at, at + BATCH), tick);
    return outcomes;
  }

  // ------------------------------------------------------------ reads

  private toOrder(
    row: OrderRow,
    { currency, scale, priceScale, label, price }: OrderContext,
  ): SpotOrder {
    const money = (value: string | null) =>
      value === null ? null : toScale(value, scale, 'halfUp');
    return {
      id: row.id,
      orderNo: row.order_no,
      positionType: row.position_type,
      ...label,
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
      currencyName: currency.currencyName,
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
    actor: Actor,
    positionType: SpotPositionType,
    query: SpotListQuery,
    lang: LanguageKey,
  ): Promise<{ rows: SpotOrder[]; total: number }> {
    const codes = query.productCode ? this.productIds(positionType, query.productCode) : null;
    const params = [
      actor.userId,
      actor.book,
      positionType,
      query.status ?? null,
      query.orderDirection ?? null,
      codes,
    ];
    const where = `WHERE user_id = $1 AND book = $2 AND position_type = $3
      AND ($4::int IS NULL OR status = $4) AND ($5::int IS NULL OR direction = $5)
      AND ($6::int[] IS NULL OR product_id = ANY($6::int[]))`;
    return this.views.page(where, params, query, lang);
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
  async holdings(actor: Actor, lang: LanguageKey): Promise<Holding[]> {
    const [rows, currency] = await Promise.all([
      this.heldRows(actor.userId, actor.book, POSITION_TYPE.spot),
      tradeCurrency(this.deps.settings),
    ]);
    return rows.map((row) => {
      const product = this.deps.market.productById(row.product_id);
      const priceScale = product?.price_scale ?? 8;
      const now = this.nowPrice(row.product_id);
      const value = now === null ? null : mul(row.quantity, now);
      return {
        positionType: row.position_type,
        ...productLabel(product, lang),
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

  /**
   * The spec's bibi assets: each coin in the wallet that has a coin-to-coin pair, available and
   * frozen as the ledger has them, with the average cost of what coin to coin bought of it.
   */
  async bibiAssets(actor: Actor): Promise<BibiAsset[]> {
    const book = actor.book;
    const [rows, balances, currencies, trade] = await Promise.all([
      this.heldRows(actor.userId, book, POSITION_TYPE.coinToCoin),
      ledger.userBalances(this.deps.db, book, actor.userId),
      this.views.currencies(),
      tradeCurrency(this.deps.settings),
    ]);
    const held = new Map(rows.map((row) => [row.product_id, row]));
    const assets: BibiAsset[] = [];
    for (const balance of balances) {
      const coin = currencies.get(balance.currencyId);
      if (!coin || coin.id === trade.id) continue;
      if (!isPositive(add(balance.available, balance.frozen))) continue;
      const product = this.deps.market.product(
        PRODUCT_TYPE.crypto,
        `${coin.currencyName}${trade.currencyName}`,
      );
      if (!product?.position_types.includes(POSITION_TYPE.coinToCoin)) continue;
      const holding = held.get(product.id);
      assets.push({
        productCode: product.product_code,
        bibiAmount: balance.available,
        frozenAmount: balance.frozen,
        averageCost: holding
          ? this.averageCost(holding, product.price_scale)
          : toScale('0', product.price_scale),
      });
    }
    return assets;
  }

  /**
   * What a user's holdings are worth at the current price, in the trade currency, and their
   * unrealized result. A holding without a price yet counts at its cost. Coin-to-coin coins are
   * wallet balances (valued with the wallet): only their unrealized result counts here.
   */
  async openHoldings(userId: number, book: ledger.Book): Promise<{ value: string; pnl: string }> {
    let value = '0';
    let pnl = '0';
    for (const row of await this.heldRows(userId, book)) {
      const now = this.nowPrice(row.product_id);
      const worth = now === null ? normalize(row.cost) : mul(row.quantity, now);
      if (row.position_type === POSITION_TYPE.spot) value = add(value, worth);
      pnl = add(pnl, sub(worth, row.cost));
    }
    return { value, pnl };
  }

  /** Results realized since a time: sells' results less the fees of every order filled since. */
  async realizedSince(userId: number, book: ledger.Book, since: Date): Promise<string> {
    const { rows } = await this.deps.db.query<{ results: string | null; fees: string | null }>(
      `SELECT sum(realized_pnl) FILTER (WHERE direction = 2) AS results, sum(fee) AS fees
       FROM spot_order WHERE user_id = $1 AND book = $2 AND status = ${SPOT_ORDER_STATUS.filled} AND filled_at >= $3`,
      [userId, book, since],
    );
    return sub(normalize(rows[0]?.results ?? '0'), normalize(rows[0]?.fees ?? '0'));
  }

  // ------------------------------------------------------------ place

  /**
   * The coin a coin-to-coin pair trades: the wallet currency its code starts with (BTC of
   * BTCUSDT against the trade currency). A pair whose coin is no wallet currency is not traded
   * coin to coin.
   */
  private async coinOf(product: ProductRow): Promise<Currency> {
    const trade = await tradeCurrency(this.deps.settings);
    const code = product.product_code;
    const base = code.endsWith(trade.currencyName)
      ? code.slice(0, -trade.currencyName.length)
      : undefined;
    const coin = [...(await this.views.currencies()).values()].find(
      (currency) => currency.currencyName === base,
    );
    if (!coin) throw new AppError('hint_positionTypeUnavailable', 422);
    return coin;
  }

  /** The coin of each product among the coin-to-coin orders, for `refOf`. */
  private async coinsOf(orders: OrderRow[]): Promise<Map<number, number>> {
    const coins = new Map<number, number>();
    for (const order of orders) {
      if (order.position_type !== POSITION_TYPE.coinToCoin || coins.has(order.product_id)) continue;
      const product = this.deps.market.productById(order.product_id);
      if (!product) throw new Error(`spot order ${order.id}: unknown product`);
      coins.set(order.product_id, (await this.coinOf(product)).id);
    }
    return coins;
  }

  /**
   * The product of an order: spot takes stocks and crypto, coin-to-coin crypto pairs only. A sell
   * (`exit`) may name a hidden product: what the user holds of it stays sellable.
   */
  private productOf(
    positionType: SpotPositionType,
    body: SpotOrderBody | BibiOrderBody,
    intent: OrderIntent,
  ): ProductRow {
    if (positionType === POSITION_TYPE.spot) {
      const { productType } = body as SpotOrderBody;
      return tradableProduct(this.deps.market, productType, body.productCode, positionType, intent);
    }
    const code = body.productCode.toUpperCase();
    if (!this.deps.market.product(PRODUCT_TYPE.crypto, code)) {
      // A stock, a future or a forex pair: known, but not tradable coin to coin.
      const other = [PRODUCT_TYPE.usStock, PRODUCT_TYPE.futures, PRODUCT_TYPE.forex].some(
        (type) => this.deps.market.product(type, code)?.is_visible === 1,
      );
      if (other) throw new AppError('hint_positionTypeUnavailable', 422);
    }
    return tradableProduct(this.deps.market, PRODUCT_TYPE.crypto, code, positionType, intent);
  }

  /**
   * Places a buy or a sell. A repeat of a request id returns the first order (a different order
   * under the same id is refused); nothing moves twice. A halted or hidden product refuses buys
   * and takes sells at the feed's price (PRODUCT section 1, rule 8); its session counts for both.
   */
  async place(
    actor: Actor,
    positionType: SpotPositionType,
    direction: number,
    body: SpotOrderBody | BibiOrderBody,
    lang: LanguageKey = 'en',
  ): Promise<SpotOrder> {
    const intent: OrderIntent = direction === BUY ? 'open' : 'exit';
    const product = this.productOf(positionType, body, intent);
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
    const repeated = await this.views.byRequestId(actor.userId, body.requestId, hash, lang);
    if (repeated) return repeated;
    const step = normalize(product.standard);
    if (!isMultipleOf(quantity, step)) throw new AppError('hint_quantityStep', 422, [step]);
    if (limit !== null && scaleOf(limit) > product.price_scale)
      throw new AppError('hint_priceDecimals', 422, [product.price_scale]);
    const now = this.deps.clock.now();
    await requireTradable(this.deps.db, this.deps.market, product, now.getTime(), intent);
    const tick = currentTick(this.deps.market, product);
    const currency = await tradeCurrency(this.deps.settings);
    const rate = await feeRate(this.deps.settings, product.product_type, positionType, direction);
    const buy = direction === BUY;
    // A limit already reached fills at once at the current price, like a market order.
    const { price, rests } = fillPrice(direction, body.orderType, limit ?? undefined, tick.price);
    // What the app previewed: the amount (rounded up for a buy, down for a sell) and its fee.
    const { amount, fee } = spotPreview(direction, price, quantity, rate, currency.scale);
    if (!isPositive(amount)) throw new AppError('hint_orderTooSmall', 422, [step]);
    assertAmount(amount, 'spot order amount', currency.scale);
    assertAmount(fee, 'spot order fee', currency.scale, 'nonNegative');
    const book = actor.book;
    const userId = actor.userId;
    const coin = positionType === POSITION_TYPE.coinToCoin ? await this.coinOf(product) : null;
    const row = await runOnce(
      this.deps.db,
      'spot_order',
      { userId, requestId: body.requestId, fingerprint: hash },
      async (tx) => {
        const id = await nextId(tx, 'spot_order');
        const ref = {
          book,
          userId,
          productId: product.id,
          positionType,
          currencyId: currency.id,
          id,
          coinId: coin?.id ?? null,
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
          await this.postBuy(tx, ref, amount, fee, quantity);
          await this.addToHolding(tx, ref, quantity, amount);
        } else if (coin) {
          // Coin to coin sells the coin from the wallet: its available balance in the ledger.
          const balances = await ledger.userBalances(tx, book, userId);
          const available = balances.find((line) => line.currencyId === coin.id)?.available ?? '0';
          if (gt(quantity, available))
            throw new AppError('hint_insufficientHolding', 422, [
              normalize(available),
              coin.currencyName,
            ]);
          if (rests) {
            const hold = await ledger.hold(tx, {
              book,
              userId,
              currencyId: coin.id,
              amount: quantity,
              type: 'bibi_sell',
              refType: 'spot',
              refId: id,
            });
            holdId = hold.id;
          } else {
            const holding = await this.lockHolding(tx, ref);
            realized = await this.sellFromHolding(tx, ref, holding, quantity, amount, fee);
          }
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
            realized = await this.sellFromHolding(tx, ref, holding, quantity, amount, fee);
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
      },
      async (tx, earlier) => {
        const { rows } = await tx.query<OrderRow>('SELECT * FROM spot_order WHERE id = $1', [
          earlier,
        ]);
        return rows[0]!;
      },
    );
    if (row.status === SPOT_ORDER_STATUS.open) this.deps.triggers.add(this.triggerOf(row));
    const order = await this.views.one(row, lang);
    this.tell(row, order);
    return order;
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
  private async postBuy(
    tx: Queryable,
    ref: Ref,
    amount: string,
    fee: string,
    quantity: string,
  ): Promise<void> {
    const postings: ledger.PostingInput[] = [
      { account: ledger.user(ref.userId, ref.currencyId), amount: neg(add(amount, fee)) },
      ...buyParts(ref, amount, fee),
      ...(ref.coinId === null ? [] : coinPostings(ref, quantity, true)),
    ];
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
   * A sell at market: the proceeds from the house, less the fee, to the user (and for coin to
   * coin the coins from the user's wallet to the house); the part the holding covers and its share
   * of the cost leave the holding. Returns the realized result.
   */
  private async sellFromHolding(
    tx: Queryable,
    ref: Ref,
    holding: HoldingRow | undefined,
    quantity: string,
    proceeds: string,
    fee: string,
  ): Promise<string | null> {
    const { covered, share, realized } = sellCover(
      holding,
      quantity,
      proceeds,
      ref.coinId !== null,
    );
    await ledger.post(tx, {
      book: ref.book,
      type: 'trade:spot_sell',
      refType: 'spot',
      refId: ref.id,
      postings: [
        ...sellPostings(ref, proceeds, fee),
        ...(ref.coinId === null ? [] : coinPostings(ref, quantity, false)),
      ],
    });
    if (isPositive(covered))
      await tx.query(
        `UPDATE holding SET quantity = quantity - $5, cost = cost - $6, updated_at = $7
         WHERE user_id = $1 AND book = $2 AND position_type = $3 AND product_id = $4`,
        [
          ref.userId,
          ref.book,
          ref.positionType,
          ref.productId,
          covered,
          share,
          this.deps.clock.now(),
        ],
      );
    return realized;
  }

  /**
   * The holdings the orders fill into, locked (in key order), with empty ones made for first buys.
   */
  private async lockHoldings(
    tx: Queryable,
    orders: OrderRow[],
    coins: Map<number, number>,
    now: Date,
  ): Promise<Map<string, HoldingRow>> {
    const keys = new Map(
      orders.map((order) => {
        const ref = refOf(order, coins);
        return [holdingKey(ref), ref];
      }),
    );
    const unique = [...keys.values()];
    const columns = [
      unique.map((ref) => ref.userId),
      unique.map((ref) => ref.book),
      unique.map((ref) => ref.positionType),
      unique.map((ref) => ref.productId),
    ];
    await tx.query(
      `INSERT INTO holding (user_id, book, position_type, product_id, quantity, frozen_quantity, cost, updated_at)
       SELECT d.user_id, d.book, d.position_type, d.product_id, 0, 0, 0, $5
       FROM unnest($1::bigint[], $2::text[], $3::smallint[], $4::int[])
         AS d (user_id, book, position_type, product_id)
       ORDER BY 1, 2, 3, 4
       ON CONFLICT (user_id, book, position_type, product_id) DO NOTHING`,
      [...columns, now],
    );
    const { rows } = await tx.query<HoldingRow>(
      `SELECT h.* FROM holding h
       JOIN unnest($1::bigint[], $2::text[], $3::smallint[], $4::int[])
         AS d (user_id, book, position_type, product_id)
         ON h.user_id = d.user_id AND h.book = d.book AND h.position_type = d.position_type
        AND h.product_id = d.product_id
       ORDER BY h.user_id, h.book, h.position_type, h.product_id
       FOR UPDATE OF h`,
      columns,
    );
    return new Map(
      rows.map((row) => [
        holdingKey({
          userId: row.user_id,
          book: row.book,
          positionType: row.position_type,
          productId: row.product_id,
        }),
        {
          ...row,
          quantity: normalize(row.quantity),
          cost: normalize(row.cost),
          frozen_quantity: normalize(row.frozen_quantity),
        },
      ]),
    );
  }

  /**
   * Resting orders reached by one tick, filled at their limits in one transaction: each row is
   * locked and must still be resting (so a fill happens once across instances and replays), then
   * its user (as an order of theirs does), one journal entry per book and currency (buys' holds
   * captured, sells' proceeds paid), holdings updated in order of the orders' ids.
   */
  private async fillResting(ids: number[], tick: FiredTick): Promise<void> {
    const now = this.deps.clock.now();
    const currencies = await this.views.currencies();
    // One tick, one product: its coin when it trades coin to coin (read before the transaction).
    const product = this.deps.market.productById(tick.productId);
    const coin = product ? await this.coinOf(product).catch(() => undefined) : undefined;
    const coins = new Map(coin ? [[tick.productId, coin.id]] : []);
    const filled = await this.deps.db.transaction(async (tx) => {
      const { rows: orders } = await tx.query<OrderRow>(
        `SELECT * FROM spot_order WHERE id = ANY($1::bigint[]) AND status = ${SPOT_ORDER_STATUS.open} ORDER BY id FOR UPDATE`,
        [ids],
      );
      if (orders.length === 0) return [];
      await withUsersLocked(
        tx,
        orders.map((order) => order.user_id),
      );
      const holdings = await this.lockHoldings(tx, orders, coins, now);
      const fills = orders.map((order) => {
        const ref = refOf(order, coins);
        const holding = holdings.get(holdingKey(ref))!;
        const { scale } = currencyIn(currencies, order.currency_id);
        const price = normalize(order.limit_price!);
        const quantity = normalize(order.quantity);
        const buy = order.direction === BUY;
        const amount = valueAt(quantity, price, scale, buy);
        if (buy) {
          holding.quantity = add(holding.quantity, quantity);
          holding.cost = add(holding.cost, amount);
          return { order, ref, quantity, amount, fee: normalize(order.fee), realized: null };
        }
        // A spot sell's quantity was frozen in the holding; a coin-to-coin sell's coins by a hold.
        if (ref.coinId === null && gt(quantity, holding.frozen_quantity))
          throw new Error(
            `spot order ${order.id}: its frozen quantity is missing from the holding`,
          );
        const { covered, share, realized } = sellCover(
          holding,
          quantity,
          amount,
          ref.coinId !== null,
        );
        holding.quantity = sub(holding.quantity, covered);
        holding.cost = sub(holding.cost, share);
        if (ref.coinId === null) holding.frozen_quantity = sub(holding.frozen_quantity, quantity);
        return { order, ref, quantity, amount, fee: min(normalize(order.fee), amount), realized };
      });
      const entry = {
        type: 'trade:spot_fill',
        refType: 'tick',
        refId: `${tick.productId}:${tick.time}:${tick.sequence}`,
      };
      for (const group of groupBy(fills, ({ order }) => `${order.book}:${order.currency_id}`)) {
        const { order: first } = group[0]!;
        const buys = group.filter(({ order }) => order.direction === BUY);
        const sells = group.filter(({ order }) => order.direction !== BUY);
        // The trade currency's side, with the coins bought coin to coin going to their buyers.
        const extra = ledger.summed([
          ...sells.flatMap(({ ref, amount, fee }) => sellPostings(ref, amount, fee)),
          ...buys
            .filter(({ ref }) => ref.coinId !== null)
            .flatMap(({ ref, quantity }) => coinPostings(ref, quantity, true)),
        ]);
        if (buys.length === 0)
          await ledger.post(tx, { ...entry, book: first.book, postings: extra });
        else
          await ledger.captureHolds(tx, {
            ...entry,
            book: first.book,
            currencyId: first.currency_id,
            // A buy's hold froze its amount and fee at the limit: exactly what the fill takes.
            holds: buys.map(({ order, ref, amount, fee }) => ({
              holdId: order.hold_id!,
              parts: buyParts(ref, amount, fee),
            })),
            extra,
          });
        // Coins sold coin to coin: their holds go to the house.
        const coinSells = sells.filter(({ ref }) => ref.coinId !== null);
        if (coinSells.length > 0)
          await ledger.captureHolds(tx, {
            ...entry,
            book: first.book,
            currencyId: coinSells[0]!.ref.coinId!,
            holds: coinSells.map(({ order, ref, quantity }) => ({
              holdId: order.hold_id!,
              parts: [
                { account: ledger.platform(ref.coinId!, 'house', ref.userId), amount: quantity },
              ],
            })),
          });
      }
      const touched = [...holdings.values()];
      await tx.query(
        `UPDATE holding h SET quantity = d.quantity, cost = d.cost, frozen_quantity = d.frozen,
           updated_at = $8
         FROM unnest($1::bigint[], $2::text[], $3::smallint[], $4::int[], $5::numeric[],
                     $6::numeric[], $7::numeric[])
           AS d (user_id, book, position_type, product_id, quantity, cost, frozen)
         WHERE h.user_id = d.user_id AND h.book = d.book AND h.position_type = d.position_type
           AND h.product_id = d.product_id`,
        [
          touched.map((holding) => holding.user_id),
          touched.map((holding) => holding.book),
          touched.map((holding) => holding.position_type),
          touched.map((holding) => holding.product_id),
          touched.map((holding) => holding.quantity),
          touched.map((holding) => holding.cost),
          touched.map((holding) => holding.frozen_quantity),
          now,
        ],
      );
      const { rows: updated } = await tx.query<OrderRow>(
        `UPDATE spot_order o SET status = ${SPOT_ORDER_STATUS.filled}, fill_price = o.limit_price, fill_time = $5,
           fill_source = $6, fill_sequence = $7, amount = d.amount, fee = d.fee,
           realized_pnl = d.realized, filled_at = $8, fill_tick_price = $9
         FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[])
           AS d (id, amount, fee, realized)
         WHERE o.id = d.id RETURNING o.*`,
        [
          fills.map(({ order }) => order.id),
          fills.map(({ amount }) => amount),
          fills.map(({ fee }) => fee),
          fills.map(({ realized }) => realized),
          tick.time,
          tick.source,
          tick.sequence,
          now,
          tick.price,
        ],
      );
      return updated;
    });
    for (const row of filled) this.tell(row, this.views.show(row, currencies, 'en'));
  }

  // ------------------------------------------------------------ cancel

  /**
   * Cancels a resting order: a buy's frozen funds or a sell's frozen quantity return at once. An
   * order already cancelled answers as it is (changed false: nothing to do); a filled one is
   * refused.
   */
  async cancel(
    actor: Actor,
    positionType: SpotPositionType,
    id: number,
    lang: LanguageKey = 'en',
  ): Promise<{ order: SpotOrder; changed: boolean }> {
    const { rows: found } = await this.deps.db.query<OrderRow>(
      `SELECT * FROM spot_order WHERE id = $1 AND user_id = $2 AND book = $3 AND position_type = $4`,
      [id, actor.userId, actor.book, positionType],
    );
    if (!found[0]) throw new AppError('hint_orderNotFound', 404, ['id']);
    const now = this.deps.clock.now();
    const { row, changed } = await cancelResting<OrderRow>(
      this.deps.db,
      {
        table: 'spot_order',
        id,
        resting: SPOT_ORDER_STATUS.open,
        cancelled: SPOT_ORDER_STATUS.cancelled,
        // Nothing was charged: the fee it would have paid is no longer due.
        set: 'fee = 0, cancelled_at = $2',
        now,
      },
      async (tx, order) => {
        await withUserLock(tx, order.user_id);
        if (order.hold_id !== null) {
          // A buy's funds, or a coin-to-coin sell's coins.
          await ledger.release(tx, order.hold_id, 'cancel');
          return;
        }
        const ref = refOf(order, new Map());
        const holding = await this.lockHolding(tx, ref);
        if (!holding || gt(order.quantity, holding.frozen_quantity))
          throw new Error(`spot order ${id}: its frozen quantity is missing from the holding`);
        await tx.query(
          `UPDATE holding SET frozen_quantity = frozen_quantity - $5, updated_at = $6
           WHERE user_id = $1 AND book = $2 AND position_type = $3 AND product_id = $4`,
          [ref.userId, ref.book, ref.positionType, ref.productId, order.quantity, now],
        );
      },
    );
    if (!changed) return { order: await this.views.one(row, lang), changed };
    this.deps.triggers.remove(`${OWNER}:${row.id}`);
    const order = await this.views.one(row, lang);
    this.tell(row, order);
    return { order, changed: true };
  }
}
