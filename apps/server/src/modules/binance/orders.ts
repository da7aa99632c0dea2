/**
 * Binance's account and order calls over Bourse's coin-to-coin trading. An order placed here is
 * an ordinary coin-to-coin order of the key's user in the key's book (live or demo), placed and
 * cancelled through the trading service (SpotTrading: the same ledger, fees, evidence, triggers,
 * limits and idempotency as the app's), and the app shows it like any other.
 *
 * - `newClientOrderId` is the order's request id: the same id twice places one order and answers
 *   it again (another order under an id already used is refused, -2010 "Duplicate order sent.").
 *   Bourse's request ids are 8 to 36 letters, digits, `-` and `_`; without one, a random id of
 *   22 is made, as Binance does.
 * - LIMIT orders rest at their price (GTC), or fill at once at the current price when it is
 *   already reached, in full: Bourse is the counterparty and never fills part of an order. So IOC
 *   and FOK are the same here: the order fills in full now, or it is cancelled at once and
 *   answered EXPIRED (later reads show it CANCELED, as the app does).
 * - MARKET orders take `quantity`, or `quoteOrderQty`, turned into the largest whole number of
 *   lots it buys (or sells) at the current price; the fee comes on top of a buy's cost, as in the
 *   app.
 * - Every fill is whole and has one trade: its id is the order's id; the fee (commission) is in
 *   the trade currency.
 */
import { randomBytes } from 'node:crypto';
import {
  ORDER_DIRECTION,
  ORDER_TYPE,
  POSITION_TYPE,
  SPOT_ORDER_STATUS,
  div,
  floorToStep,
  isPositive,
  isZero,
  mul,
  normalize,
  sub,
  toScale,
  type SpotOrder,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AssetsService } from '../assets';
import type { SettingsService } from '../settings';
import type { SpotTrading } from '../trading';
import { binanceErrorOf, refusals, type OrderStep } from './errors';
import { fixed, type BinanceMarket, type SymbolInfo } from './market';
import type { Params } from './params';
import * as repo from './repo';

const ZERO = '0.00000000';
/** Binance's order types; Bourse honours LIMIT and MARKET. */
const ORDER_TYPES = [
  'LIMIT',
  'MARKET',
  'STOP_LOSS',
  'STOP_LOSS_LIMIT',
  'TAKE_PROFIT',
  'TAKE_PROFIT_LIMIT',
  'LIMIT_MAKER',
] as const;
const TIMES_IN_FORCE = ['GTC', 'IOC', 'FOK'] as const;
type TimeInForce = (typeof TIMES_IN_FORCE)[number];
const RESPONSE_TYPES = ['ACK', 'RESULT', 'FULL'] as const;
type ResponseType = (typeof RESPONSE_TYPES)[number];
/** Parameters of orders Bourse cannot honour (stops, icebergs, pegs, strategies). */
const NOT_HONOURED = [
  'stopPrice',
  'trailingDelta',
  'icebergQty',
  'strategyId',
  'strategyType',
  'pegPriceType',
  'pegOffsetValue',
  'pegOffsetType',
] as const;
/** Self-trade prevention: Bourse is every order's counterparty, so no order meets another's. */
const SELF_TRADE_MODES = [
  'NONE',
  'EXPIRE_TAKER',
  'EXPIRE_MAKER',
  'EXPIRE_BOTH',
  'DECREMENT',
  'TRANSFER',
] as const;
const CLIENT_ORDER_ID = /^[A-Za-z0-9_-]{8,36}$/;
const CLIENT_ORDER_ID_RANGE = '^[a-zA-Z0-9-_]{8,36}$';
/** Orders a list answers at most. */
const MAX_ROWS = 1000;
const DAY_MS = 86_400_000;

/** A new order as sent. */
export interface NewOrder {
  symbol: string;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET';
  timeInForce: TimeInForce;
  quantity?: string;
  quoteOrderQty?: string;
  price?: string;
  clientOrderId: string;
  responseType: ResponseType;
}

/** What an order looks like to these calls, from the service's answer or a row. */
interface OrderState {
  id: number;
  productId: number;
  direction: number;
  orderType: number;
  limitPrice: string | null;
  quantity: string;
  status: number;
  fillPrice: string | null;
  amount: string | null;
  fee: string;
  requestId: string;
  createdAt: number;
  filledAt: number | null;
  cancelledAt: number | null;
}

function fromRow(row: repo.BinanceOrderRow): OrderState {
  return {
    id: row.id,
    productId: row.product_id,
    direction: row.direction,
    orderType: row.order_type,
    limitPrice: row.limit_price,
    quantity: row.quantity,
    status: row.status,
    fillPrice: row.fill_price,
    amount: row.amount,
    fee: row.fee,
    requestId: row.request_id,
    createdAt: row.created_at.getTime(),
    filledAt: row.filled_at?.getTime() ?? null,
    cancelledAt: row.cancelled_at?.getTime() ?? null,
  };
}

function fromOrder(
  order: SpotOrder,
  productId: number,
  requestId: string,
  cancelledAt: number | null,
): OrderState {
  return {
    id: order.id,
    productId,
    direction: order.orderDirection,
    orderType: order.orderType,
    limitPrice: order.limitPrice,
    quantity: order.quantity,
    status: order.status,
    fillPrice: order.fillPrice,
    amount: order.amount,
    fee: order.fee,
    requestId,
    createdAt: Date.parse(order.createTime),
    filledAt: order.fillTime === null ? null : Date.parse(order.fillTime),
    cancelledAt,
  };
}

/** A client order id as Binance makes one: 22 random letters, digits, `-` and `_`. */
function newClientOrderId(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

/** The order a query or cancel names: its pair, and its id or the client order id it was placed with. */
function orderReference(params: Params) {
  const symbol = params.required('symbol');
  const orderId = params.integer('orderId');
  const origClientOrderId = clientOrderId(params, 'origClientOrderId');
  if (orderId === undefined && origClientOrderId === undefined)
    throw refusals.eitherMandatory('orderId', 'origClientOrderId');
  return { symbol, orderId, origClientOrderId };
}
/** The client order id a call names, checked; undefined when absent. */
function clientOrderId(params: Params, name: string): string | undefined {
  const value = params.optional(name);
  if (value !== undefined && !CLIENT_ORDER_ID.test(value))
    throw refusals.illegalCharacters(name, CLIENT_ORDER_ID_RANGE);
  return value;
}

/** A Bourse refusal in Binance's words; anything else goes on as it is. */
async function translated<T>(step: OrderStep, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw binanceErrorOf(error, step);
    throw error;
  }
}

/** A time range of at most a day (Binance's rule for order and trade lookups). */
function timeRange(params: Params): { startTime?: number; endTime?: number } {
  const startTime = params.integer('startTime');
  const endTime = params.integer('endTime');
  if (startTime !== undefined && endTime !== undefined) {
    if (endTime < startTime) throw refusals.badCombination();
    if (endTime - startTime > DAY_MS) throw refusals.lookupTooBig();
  }
  return { startTime, endTime };
}

export interface BinanceOrdersDeps {
  db: Database;
  clock: Clock;
  spot: SpotTrading;
  market: BinanceMarket;
  settings: SettingsService;
  assets: AssetsService;
}

export class BinanceOrders {
  constructor(private readonly deps: BinanceOrdersDeps) {}

  // ------------------------------------------------------------ views

  private status(state: OrderState, expired: boolean): string {
    if (state.status === SPOT_ORDER_STATUS.open) return 'NEW';
    if (state.status === SPOT_ORDER_STATUS.filled) return 'FILLED';
    return expired ? 'EXPIRED' : 'CANCELED';
  }

  private orderFields(
    info: SymbolInfo,
    state: OrderState,
    timeInForce: TimeInForce = 'GTC',
    expired = false,
  ) {
    const filled = state.status === SPOT_ORDER_STATUS.filled;
    return {
      price: state.limitPrice === null ? ZERO : fixed(state.limitPrice),
      origQty: fixed(state.quantity),
      executedQty: filled ? fixed(state.quantity) : ZERO,
      cummulativeQuoteQty: filled && state.amount !== null ? fixed(state.amount) : ZERO,
      status: this.status(state, expired),
      timeInForce,
      type: state.orderType === ORDER_TYPE.limit ? 'LIMIT' : 'MARKET',
      side: state.direction === ORDER_DIRECTION.up ? 'BUY' : 'SELL',
      symbol: info.symbol,
    };
  }

  /** An order as GET order, openOrders and allOrders answer it. */
  private orderView(info: SymbolInfo, state: OrderState) {
    const { symbol, ...fields } = this.orderFields(info, state);
    return {
      symbol,
      orderId: state.id,
      orderListId: -1,
      clientOrderId: state.requestId,
      ...fields,
      stopPrice: ZERO,
      icebergQty: ZERO,
      time: state.createdAt,
      updateTime: state.cancelledAt ?? state.filledAt ?? state.createdAt,
      isWorking: true,
      workingTime: state.createdAt,
      origQuoteOrderQty: ZERO,
      selfTradePreventionMode: 'NONE',
    };
  }

  /** The fill of a filled order as a trade (its id is the order's). */
  private tradeView(info: SymbolInfo, state: OrderState) {
    return {
      symbol: info.symbol,
      id: state.id,
      orderId: state.id,
      orderListId: -1,
      price: fixed(state.fillPrice ?? '0'),
      qty: fixed(state.quantity),
      quoteQty: fixed(state.amount ?? '0'),
      commission: fixed(state.fee),
      commissionAsset: info.quote,
      time: state.filledAt ?? state.createdAt,
      isBuyer: state.direction === ORDER_DIRECTION.up,
      // Filled by a later tick while it rested: it made the market.
      isMaker: state.filledAt !== null && state.filledAt > state.createdAt,
      isBestMatch: true,
    };
  }

  private placedView(
    info: SymbolInfo,
    state: OrderState,
    order: NewOrder,
    transactTime: number,
    expired: boolean,
  ) {
    const ack = {
      symbol: info.symbol,
      orderId: state.id,
      orderListId: -1,
      clientOrderId: state.requestId,
      transactTime,
    };
    if (order.responseType === 'ACK') return ack;
    const { symbol: _symbol, ...fields } = this.orderFields(
      info,
      state,
      state.orderType === ORDER_TYPE.limit ? order.timeInForce : 'GTC',
      expired,
    );
    const result = {
      ...ack,
      ...fields,
      origQuoteOrderQty: order.quoteOrderQty === undefined ? ZERO : fixed(order.quoteOrderQty),
      workingTime: state.createdAt,
      selfTradePreventionMode: 'NONE',
    };
    if (order.responseType === 'RESULT') return result;
    const fills =
      state.status === SPOT_ORDER_STATUS.filled
        ? [
            {
              price: fixed(state.fillPrice ?? '0'),
              qty: fixed(state.quantity),
              commission: fixed(state.fee),
              commissionAsset: info.quote,
              tradeId: state.id,
            },
          ]
        : [];
    return { ...result, fills };
  }

  // ------------------------------------------------------------ account

  async account(actor: Actor, canTrade: boolean, params: Params) {
    const omitZero = params.flag('omitZeroBalances', false);
    params.allRead();
    const [balances, fees] = await Promise.all([
      this.deps.assets.balances(actor),
      this.deps.settings.fees(),
    ]);
    // Coin-to-coin fees by direction; Binance's model: a base rate and a buyer's or seller's extra.
    const rate = (direction: number) =>
      normalize(
        fees.find(
          (fee) =>
            fee.product_type === 2 &&
            fee.position_type === POSITION_TYPE.coinToCoin &&
            fee.ex_type === direction,
        )?.fee_rate ?? '0',
      );
    const buy = rate(ORDER_DIRECTION.up);
    const sell = rate(ORDER_DIRECTION.down);
    const base = isPositive(sub(buy, sell)) ? sell : buy;
    const basisPoints = Number(toScale(mul(base, '10000'), 0));
    return {
      makerCommission: basisPoints,
      takerCommission: basisPoints,
      buyerCommission: 0,
      sellerCommission: 0,
      commissionRates: {
        maker: fixed(base),
        taker: fixed(base),
        buyer: fixed(sub(buy, base)),
        seller: fixed(sub(sell, base)),
      },
      canTrade,
      canWithdraw: false,
      canDeposit: false,
      brokered: false,
      requireSelfTradePrevention: false,
      preventSor: false,
      updateTime: this.deps.clock.now().getTime(),
      accountType: 'SPOT',
      balances: balances
        .filter((balance) => !omitZero || !isZero(balance.totalAmount))
        .map((balance) => ({
          asset: balance.currencyName,
          free: fixed(balance.amount),
          locked: fixed(balance.frozenAmount),
        })),
      permissions: ['SPOT'],
      uid: actor.userId,
    };
  }

  // ------------------------------------------------------------ place

  /** Reads a new order's parameters, each checked as Binance does. */
  static newOrder(params: Params): NewOrder {
    const symbol = params.required('symbol');
    const side = params.choice('side', ['BUY', 'SELL'] as const, refusals.side);
    if (side === undefined) throw refusals.mandatory('side');
    const typeText = params.required('type');
    if (!(ORDER_TYPES as readonly string[]).includes(typeText)) throw refusals.orderType();
    if (typeText !== 'LIMIT' && typeText !== 'MARKET') throw refusals.unsupportedCombination();
    const type = typeText;
    const timeInForce = params.choice('timeInForce', TIMES_IN_FORCE, refusals.timeInForce);
    const quantity = params.decimal('quantity');
    const quoteOrderQty = params.decimal('quoteOrderQty');
    const price = params.decimal('price');
    if (type === 'LIMIT') {
      if (timeInForce === undefined) throw refusals.mandatory('timeInForce');
      if (quantity === undefined) throw refusals.mandatory('quantity');
      if (price === undefined) throw refusals.mandatory('price');
      if (quoteOrderQty !== undefined) throw refusals.notRequired('quoteOrderQty');
    } else {
      if (timeInForce !== undefined) throw refusals.notRequired('timeInForce');
      if (price !== undefined) throw refusals.notRequired('price');
      if (quantity === undefined && quoteOrderQty === undefined)
        throw refusals.eitherMandatory('quantity', 'quoteOrderQty');
      if (quantity !== undefined && quoteOrderQty !== undefined)
        throw refusals.notRequired('quoteOrderQty');
    }
    if (quantity !== undefined && !isPositive(quantity))
      throw refusals.filter('LOT_SIZE', 'hint_quantityStep');
    if (price !== undefined && !isPositive(price))
      throw refusals.filter('PRICE_FILTER', 'hint_priceDecimals');
    if (quoteOrderQty !== undefined && !isPositive(quoteOrderQty))
      throw refusals.filter('NOTIONAL', 'hint_orderTooSmall');
    for (const name of NOT_HONOURED) if (params.has(name)) throw refusals.notRequired(name);
    params.choice('selfTradePreventionMode', SELF_TRADE_MODES);
    const responseType = params.choice('newOrderRespType', RESPONSE_TYPES) ?? 'FULL';
    return {
      symbol,
      side,
      type,
      timeInForce: timeInForce ?? 'GTC',
      quantity,
      quoteOrderQty,
      price,
      clientOrderId: clientOrderId(params, 'newClientOrderId') ?? newClientOrderId(),
      responseType,
    };
  }

  /**
   * Places an order through the trading service; a client order id used before answers its
   * order again when it is the same order.
   */
  async place(actor: Actor, order: NewOrder) {
    const buy = order.side === 'BUY';
    // A sell may name a product an operator hid: what the user holds of it stays sellable.
    const info = await this.deps.market.symbol(order.symbol, buy);
    if (!info.coin) throw refusals.notPermitted();
    const direction = buy ? ORDER_DIRECTION.up : ORDER_DIRECTION.down;
    const orderType = order.type === 'LIMIT' ? ORDER_TYPE.limit : ORDER_TYPE.market;
    const now = this.deps.clock.now().getTime();

    // A quoteOrderQty's quantity depends on the price: a retry under the same client order id is
    // found first, or its quantity (another price since) would make it another order.
    if (order.quoteOrderQty !== undefined) {
      const earlier = await repo.findByRequestId(this.deps.db, actor.userId, order.clientOrderId);
      if (earlier) {
        const same =
          earlier.book === actor.book &&
          earlier.position_type === POSITION_TYPE.coinToCoin &&
          earlier.product_id === info.product.id &&
          earlier.direction === direction &&
          earlier.order_type === orderType;
        if (!same) throw refusals.duplicateOrder();
        const state = fromRow(earlier);
        return this.placedView(info, state, order, state.createdAt, false);
      }
    }

    const quantity = order.quantity ?? this.quantityFor(info, order.quoteOrderQty!);
    const placed = await translated('place', () =>
      this.deps.spot.place(
        actor,
        POSITION_TYPE.coinToCoin,
        direction,
        {
          productCode: info.product.product_code,
          orderType,
          price: order.price,
          quantity,
          requestId: order.clientOrderId,
        },
        'en',
      ),
    );
    if (Date.parse(placed.createTime) < now) {
      // The same order placed before under this id (the service answers it again): one of this
      // book's, since request ids are unique per user across books.
      const earlier = await repo.findOrder(this.deps.db, actor, { id: placed.id });
      if (!earlier) throw refusals.duplicateOrder();
      const state = fromRow(earlier);
      return this.placedView(info, state, order, state.createdAt, false);
    }
    let state = fromOrder(placed, info.product.id, order.clientOrderId, null);
    let expired = false;
    if (state.status === SPOT_ORDER_STATUS.open && order.timeInForce !== 'GTC') {
      // IOC or FOK: what did not fill at once does not rest.
      ({ state, expired } = await this.expire(actor, info, state));
    }
    return this.placedView(info, state, order, now, expired);
  }

  /** The whole lots `quoteOrderQty` is worth at the current price (a MARKET order's quantity). */
  private quantityFor(info: SymbolInfo, quoteOrderQty: string): string {
    const price = this.deps.market.lastPrice(info);
    if (price === undefined || !isPositive(price)) throw refusals.marketClosed();
    const quantity = floorToStep(div(quoteOrderQty, price, 18), normalize(info.product.standard));
    if (!isPositive(quantity)) throw refusals.filter('NOTIONAL', 'hint_orderTooSmall');
    return quantity;
  }

  /** Cancels an IOC or FOK order that rested; one a tick filled meanwhile stays filled. */
  private async expire(
    actor: Actor,
    info: SymbolInfo,
    state: OrderState,
  ): Promise<{ state: OrderState; expired: boolean }> {
    try {
      const { order } = await this.deps.spot.cancel(actor, POSITION_TYPE.coinToCoin, state.id);
      return {
        state: fromOrder(order, info.product.id, state.requestId, this.deps.clock.now().getTime()),
        expired: true,
      };
    } catch (error) {
      if (!(error instanceof AppError) || error.key !== 'hint_orderNotResting') throw error;
      const row = await repo.findOrder(this.deps.db, actor, { id: state.id });
      return { state: fromRow(row!), expired: false };
    }
  }

  // ------------------------------------------------------------ one order

  private async find(
    actor: Actor,
    symbol: string,
    orderId: number | undefined,
    origClientOrderId: string | undefined,
    missing: () => Error,
  ): Promise<{ info: SymbolInfo; state: OrderState }> {
    const info = await this.deps.market.symbol(symbol, false);
    const row = await repo.findOrder(
      this.deps.db,
      actor,
      orderId !== undefined ? { id: orderId } : { requestId: origClientOrderId! },
    );
    if (
      !row ||
      row.product_id !== info.product.id ||
      (origClientOrderId !== undefined && row.request_id !== origClientOrderId)
    )
      throw missing();
    return { info, state: fromRow(row) };
  }

  async queryOrder(actor: Actor, params: Params) {
    const { symbol, orderId, origClientOrderId } = orderReference(params);
    params.allRead();
    const { info, state } = await this.find(
      actor,
      symbol,
      orderId,
      origClientOrderId,
      refusals.noSuchOrder,
    );
    return this.orderView(info, state);
  }

  async cancel(actor: Actor, params: Params) {
    const { symbol, orderId, origClientOrderId } = orderReference(params);
    const cancelId = clientOrderId(params, 'newClientOrderId') ?? newClientOrderId();
    const restriction = params.choice('cancelRestrictions', [
      'ONLY_NEW',
      'ONLY_PARTIALLY_FILLED',
    ] as const);
    params.allRead();
    const { info, state } = await this.find(
      actor,
      symbol,
      orderId,
      origClientOrderId,
      refusals.unknownOrder,
    );
    // A closed order is unknown to a cancel, as on Binance; no order is ever partly filled.
    if (state.status !== SPOT_ORDER_STATUS.open)
      throw refusals.unknownOrder('hint_orderNotResting');
    if (restriction === 'ONLY_PARTIALLY_FILLED') throw refusals.cancelRestricted();
    const { order, changed } = await translated('cancel', () =>
      this.deps.spot.cancel(actor, POSITION_TYPE.coinToCoin, state.id),
    );
    if (!changed) throw refusals.unknownOrder('hint_orderNotResting');
    const now = this.deps.clock.now().getTime();
    const cancelled = fromOrder(order, info.product.id, state.requestId, now);
    const { symbol: _symbol, ...fields } = this.orderFields(info, cancelled);
    return {
      symbol: info.symbol,
      origClientOrderId: state.requestId,
      orderId: state.id,
      orderListId: -1,
      clientOrderId: cancelId,
      transactTime: now,
      ...fields,
      selfTradePreventionMode: 'NONE',
    };
  }

  // ------------------------------------------------------------ lists

  /** Symbols of the products of rows, looked up once each. */
  private async symbolsOf(productIds: readonly number[]): Promise<Map<number, SymbolInfo>> {
    const infos = new Map<number, SymbolInfo>();
    for (const id of new Set(productIds)) infos.set(id, await this.deps.market.symbolOf(id));
    return infos;
  }

  async openOrders(actor: Actor, params: Params) {
    const symbol = params.optional('symbol');
    params.allRead();
    const info = symbol === undefined ? undefined : await this.deps.market.symbol(symbol, false);
    const rows = await repo.openOrders(this.deps.db, actor, info?.product.id ?? null, MAX_ROWS);
    const infos = await this.symbolsOf(rows.map((row) => row.product_id));
    return rows.map((row) => this.orderView(infos.get(row.product_id)!, fromRow(row)));
  }

  async allOrders(actor: Actor, params: Params) {
    const symbol = params.required('symbol');
    const fromId = params.integer('orderId');
    const range = timeRange(params);
    const limit = params.limit(500, MAX_ROWS);
    params.allRead();
    const info = await this.deps.market.symbol(symbol, false);
    const rows = await repo.orders(
      this.deps.db,
      actor,
      info.product.id,
      { fromId, ...range },
      limit,
    );
    return rows.map((row) => this.orderView(info, fromRow(row)));
  }

  async myTrades(actor: Actor, params: Params) {
    const symbol = params.required('symbol');
    const orderId = params.integer('orderId');
    const fromId = params.integer('fromId');
    const range = timeRange(params);
    const limit = params.limit(500, MAX_ROWS);
    if (fromId !== undefined && (range.startTime !== undefined || range.endTime !== undefined))
      throw refusals.badCombination();
    params.allRead();
    const info = await this.deps.market.symbol(symbol, false);
    const rows = await repo.fills(
      this.deps.db,
      actor,
      info.product.id,
      { orderId, fromId, ...range },
      limit,
    );
    return rows.map((row) => this.tradeView(info, fromRow(row)));
  }
}
