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
  max,
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
import type { HeldOutside } from '../assets';
import { currencyIn, type Currency } from '../settings';
import { fingerprint, nextId, orderNumber } from '../wallet';
import { notices, type NoticeEvent } from '../messages';
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
import {
  changeHolding,
  coinLockedUntil,
  fillSpotOrders,
  findSpotOrder,
  findUserSpotOrder,
  insertSpotOrder,
  listHoldings,
  listOpenSpotOrders,
  lockHolding,
  lockHoldings,
  pageSpotOrders,
  spotRealizedSince,
  shiftFrozenQuantity,
  writeHoldings,
  type HoldingRow,
  type SpotOrderRow,
} from './repo-spot';
import { lockOpenOrders } from './repo';
import type { FiredTick, Trigger, TriggerOutcome, TriggerOwner } from './triggers';

/** Spot (2) or coin-to-coin (3). */
export type SpotPositionType = typeof POSITION_TYPE.spot | typeof POSITION_TYPE.coinToCoin;

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
function refOf(row: SpotOrderRow, coins: Map<number, number>): Ref {
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

/**
 * What a spot product's holding holds: the code without its quote currency (BTC of BTCUSDT), or
 * the whole code where it has none (AAPL).
 */
export function heldAssetName(productCode: string, tradeCurrencyName: string): string {
  return productCode.length > tradeCurrencyName.length && productCode.endsWith(tradeCurrencyName)
    ? productCode.slice(0, -tradeCurrencyName.length)
    : productCode;
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

/**
 * What of a holding is locked at `now`: allocated new shares before their lock-up ends
 * (modules/new-shares), none after.
 */
export function lockedNow(
  holding: Pick<HoldingRow, 'locked_quantity' | 'locked_until'>,
  now: Date,
): string {
  if (!holding.locked_until || now.getTime() >= holding.locked_until.getTime()) return '0';
  return normalize(holding.locked_quantity);
}

/** A time as refusals name it: `2026-11-18 15:00 UTC`. */
function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The share of a holding's cost that leaves with `quantity` (all of it with the last unit). */
export function costShare(cost: string, held: string, quantity: string): string {
  if (!lt(quantity, held)) return normalize(cost);
  return div(mul(cost, quantity), held, 18, 'down');
}

export class SpotTrading implements TriggerOwner {
  private readonly views: OrderViews<SpotOrderRow, SpotOrder>;

  constructor(private readonly deps: TradingDeps) {
    deps.triggers.register(OWNER, this);
    this.views = new OrderViews(deps, 'spot_order', (row, context) => this.toOrder(row, context));
  }

  // ------------------------------------------------------------ triggers

  private triggerOf(row: SpotOrderRow): Trigger {
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
    const rows = await listOpenSpotOrders(this.deps.db);
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
    row: SpotOrderRow,
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
    const filter = {
      userId: actor.userId,
      book: actor.book,
      positionType,
      status: query.status ?? null,
      direction: query.orderDirection ?? null,
      productIds: codes,
    };
    return this.views.page(pageSpotOrders(this.deps.db, filter, query), lang);
  }

  private heldRows(userId: number, book: ledger.Book, positionType?: SpotPositionType) {
    return listHoldings(this.deps.db, userId, book, positionType ?? null);
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
    const time = this.deps.clock.now();
    return rows.map((row) => {
      const locked = lockedNow(row, time);
      const product = this.deps.market.productById(row.product_id);
      const priceScale = product?.price_scale ?? 8;
      const now = this.nowPrice(row.product_id);
      const value = now === null ? null : mul(row.quantity, now);
      return {
        positionType: row.position_type,
        ...productLabel(product, lang),
        quantity: normalize(row.quantity),
        frozenQuantity: normalize(row.frozen_quantity),
        // Only while allocated new shares are in their lock-up (modules/new-shares).
        ...(isPositive(locked)
          ? { lockedQuantity: locked, lockedUntil: row.locked_until!.toISOString() }
          : {}),
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
   * unrealized result, with each spot holding as the wallet lists it. A holding without a price
   * yet is listed unpriced (value null) and counts in neither figure: no price is invented for it.
   * Coin-to-coin coins are wallet balances (valued with the wallet): only their unrealized result
   * counts here.
   */
  async openHoldings(
    userId: number,
    book: ledger.Book,
  ): Promise<{ value: string; pnl: string; holdings: HeldOutside[] }> {
    const [rows, trade] = await Promise.all([
      this.heldRows(userId, book),
      tradeCurrency(this.deps.settings),
    ]);
    let value = '0';
    let pnl = '0';
    const holdings: HeldOutside[] = [];
    const time = this.deps.clock.now();
    for (const row of rows) {
      const now = this.nowPrice(row.product_id);
      const worth = now === null ? null : mul(row.quantity, now);
      if (worth !== null) pnl = add(pnl, sub(worth, row.cost));
      if (row.position_type !== POSITION_TYPE.spot) continue;
      if (worth !== null) value = add(value, worth);
      const locked = lockedNow(row, time);
      const code =
        this.deps.market.productById(row.product_id)?.product_code ?? String(row.product_id);
      holdings.push({
        assetName: heldAssetName(code, trade.currencyName),
        productCode: code,
        // Allocated new shares in their lock-up are not available: shown with the frozen part.
        available: normalize(max(sub(sub(row.quantity, row.frozen_quantity), locked), '0')),
        frozen: normalize(add(row.frozen_quantity, locked)),
        value: worth,
      });
    }
    return { value, pnl, holdings };
  }

  /** Results realized since a time: sells' results less the fees of every order filled since. */
  async realizedSince(userId: number, book: ledger.Book, since: Date): Promise<string> {
    const row = await spotRealizedSince(this.deps.db, userId, book, since);
    return sub(normalize(row?.results ?? '0'), normalize(row?.fees ?? '0'));
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
  private async coinsOf(orders: SpotOrderRow[]): Promise<Map<number, number>> {
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
          await changeHolding(tx, 'add', ref, {
            quantity,
            cost: amount,
            now: this.deps.clock.now(),
          });
        } else if (coin) {
          // Coin to coin sells the coin from the wallet: its available balance in the ledger.
          const balances = await ledger.userBalances(tx, book, userId);
          const available = balances.find((line) => line.currencyId === coin.id)?.available ?? '0';
          // Coins of a new listing frozen until their lock-up ends (modules/new-shares) say so.
          const lockedUntil = gt(quantity, available)
            ? await coinLockedUntil(tx, book, userId, coin.id)
            : null;
          if (lockedUntil)
            throw new AppError('hint_newShareLocked', 422, [
              normalize(available),
              coin.currencyName,
              utcMinute(lockedUntil),
            ]);
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
            const holding = await lockHolding(tx, ref);
            realized = await this.sellFromHolding(tx, ref, holding, quantity, amount, fee);
          }
        } else {
          const holding = await lockHolding(tx, ref);
          const available = holding ? sub(holding.quantity, holding.frozen_quantity) : '0';
          if (gt(quantity, available))
            throw new AppError('hint_insufficientHolding', 422, [
              normalize(available),
              product.product_code,
            ]);
          // Allocated new shares stay put until their lock-up ends (market and limit sells).
          const locked = holding ? lockedNow(holding, now) : '0';
          if (isPositive(locked) && gt(quantity, sub(available, locked)))
            throw new AppError('hint_newShareLocked', 422, [
              normalize(max(sub(available, locked), '0')),
              product.product_code,
              utcMinute(holding!.locked_until!),
            ]);
          if (rests) {
            await shiftFrozenQuantity(tx, ref, quantity, now);
          } else {
            realized = await this.sellFromHolding(tx, ref, holding, quantity, amount, fee);
          }
        }
        return insertSpotOrder(tx, {
          id,
          orderNo: orderNumber(positionType === POSITION_TYPE.spot ? 'S' : 'B', now, id),
          userId,
          book,
          positionType,
          productId: product.id,
          currencyId: currency.id,
          direction,
          orderType: body.orderType,
          limitPrice: limit,
          quantity,
          holdId,
          status: rests ? SPOT_ORDER_STATUS.open : SPOT_ORDER_STATUS.filled,
          fill: rests ? null : tick,
          amount: rests ? null : amount,
          // A resting order keeps the fee it will pay at its limit (frozen with a buy's amount).
          fee,
          realizedPnl: realized,
          requestId: body.requestId,
          requestHash: hash,
          createdAt: now,
          filledAt: rests ? null : now,
        });
      },
      async (tx, earlier) => (await findSpotOrder(tx, earlier))!,
    );
    if (row.status === SPOT_ORDER_STATUS.open) this.deps.triggers.add(this.triggerOf(row));
    const order = await this.views.one(row, lang);
    this.tell(row, order);
    return order;
  }

  private tell(row: SpotOrderRow, order: SpotOrder): void {
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
    if (isPositive(covered)) {
      const now = this.deps.clock.now();
      await changeHolding(tx, 'take', ref, { quantity: covered, cost: share, now });
    }
    return realized;
  }

  /**
   * The holdings the orders fill into, locked (in key order), with empty ones made for first buys.
   */
  private async lockHoldings(
    tx: Queryable,
    orders: SpotOrderRow[],
    coins: Map<number, number>,
    now: Date,
  ): Promise<Map<string, HoldingRow>> {
    const keys = new Map(
      orders.map((order) => {
        const ref = refOf(order, coins);
        return [holdingKey(ref), ref];
      }),
    );
    const rows = await lockHoldings(tx, [...keys.values()], now);
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
    let told: NoticeEvent[] = [];
    const filled = await this.deps.db.transaction(async (tx) => {
      const orders = await lockOpenOrders<SpotOrderRow>(tx, 'spot_order', ids);
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
      await writeHoldings(tx, [...holdings.values()], now);
      const rows = await fillSpotOrders(
        tx,
        fills.map(({ order, amount, fee, realized }) => ({ id: order.id, amount, fee, realized })),
        tick,
        now,
      );
      // Each owner's notification of the fill at their limit, in the same transaction.
      told = rows.map((row) =>
        notices.limitOrderFilled({
          userId: row.user_id,
          id: row.id,
          orderNo: row.order_no,
          product: product?.product_code ?? '',
          price: product
            ? toScale(row.limit_price ?? '0', product.price_scale)
            : normalize(row.limit_price ?? '0'),
          quantity: normalize(row.quantity),
        }),
      );
      await this.deps.notices?.record(tx, told);
      return rows;
    });
    for (const row of filled) this.tell(row, this.views.show(row, currencies, 'en'));
    this.deps.notices?.push(told);
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
    const found = await findUserSpotOrder(this.deps.db, id, actor.userId, actor.book, positionType);
    if (!found) throw new AppError('hint_orderNotFound', 404, ['id']);
    const now = this.deps.clock.now();
    const { row, changed } = await cancelResting<SpotOrderRow>(
      this.deps.db,
      {
        table: 'spot_order',
        id,
        resting: SPOT_ORDER_STATUS.open,
        cancelled: SPOT_ORDER_STATUS.cancelled,
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
        const holding = await lockHolding(tx, ref);
        if (!holding || gt(order.quantity, holding.frozen_quantity))
          throw new Error(`spot order ${id}: its frozen quantity is missing from the holding`);
        await shiftFrozenQuantity(tx, ref, neg(order.quantity), now);
      },
    );
    if (!changed) return { order: await this.views.one(row, lang), changed };
    this.deps.triggers.remove(`${OWNER}:${row.id}`);
    const order = await this.views.one(row, lang);
    this.tell(row, order);
    return { order, changed: true };
  }
}
