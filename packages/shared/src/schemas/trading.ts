/**
 * Schemas and response shapes of the trading calls (PRODUCT sections 3 and 6). Directions use the
 * fee table's values: 1 buy / long / up, 2 sell / short / down. Amounts are decimal strings.
 */
import { z } from 'zod';
import { MAX_SCALE } from '../money';
import { PRODUCT_TYPES } from '../constants';
import { codeField, decimalAmount, intField, pageQuery, requestId, safeString } from './common';
import { productCode } from './market';

export const ORDER_DIRECTION = { up: 1, down: 2 } as const;
export const FAST_TRADE_STATUS = { open: 0, won: 1, lost: 2, tie: 3 } as const;

export const fastTradeOptionsQuery = z.object({
  productType: codeField(PRODUCT_TYPES),
  productCode,
});
export type FastTradeOptionsQuery = z.infer<typeof fastTradeOptionsQuery>;

export const fastTradeOption = z.object({
  id: z.number().int(),
  productType: z.number().int(),
  productCode: z.string().nullable().describe('Null: an option of every product of the type.'),
  durationSeconds: z.number().int().describe('Seconds from the order to the deciding tick.'),
  payoutRate: z.string().describe('Profit on a win as a fraction of the stake ("0.85").'),
  lossRate: z.string().describe('Loss on a loss as a fraction of the stake ("1" loses it all).'),
  minStake: z.string(),
  maxStake: z.string(),
  feeRateUp: z
    .string()
    .describe('The fee rate of this product type for fast trades up (from orderFeeSetting).'),
  feeRateDown: z.string().describe('The same, down.'),
  currencyId: z.number().int(),
  currencyName: z.string(),
});
export type FastTradeOption = z.output<typeof fastTradeOption>;

/** Whether the user accepted the risk disclosure of fast trades. */
export const fastTradeRisk = z.object({ accepted: z.boolean() });
export type FastTradeRisk = z.output<typeof fastTradeRisk>;

export const addFastTradeOrderBody = z.object({
  productType: codeField(PRODUCT_TYPES),
  productCode,
  optionId: intField(1),
  orderDirection: codeField([ORDER_DIRECTION.up, ORDER_DIRECTION.down]),
  /** The stake, in the trade currency. */
  amount: decimalAmount({ maxScale: MAX_SCALE }),
  requestId,
});
export type AddFastTradeOrderBody = z.infer<typeof addFastTradeOrderBody>;

export const fastTradeListQuery = pageQuery.extend({
  status: z.preprocess(
    (value) => (value === '' ? undefined : value),
    codeField(Object.values(FAST_TRADE_STATUS) as number[]).optional(),
  ),
});
export type FastTradeListQuery = z.infer<typeof fastTradeListQuery>;

/** A tick as evidence: the price, when the source stamped it, the source and its sequence. */
export const tickEvidence = z.object({
  price: z.string(),
  time: z.number().describe('When the source stamped the tick (ms).'),
  source: z.string(),
  sequence: z.number().int(),
});
export type TickEvidence = z.output<typeof tickEvidence>;

export const fastTradeOrder = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  productType: z.number().int(),
  productCode: z.string(),
  productName: z.string(),
  orderDirection: z.number().int().describe('1 up, 2 down.'),
  currencyName: z.string(),
  amount: z.string().describe('The stake.'),
  fee: z.string(),
  durationSeconds: z.number().int(),
  payoutRate: z.string(),
  lossRate: z.string(),
  entry: tickEvidence,
  expiresAt: z.number().describe('When the deciding tick may come from (ms).'),
  status: z.number().int().describe('0 open, 1 won, 2 lost, 3 tie.'),
  exit: tickEvidence.nullable(),
  result: z
    .string()
    .nullable()
    .describe('Signed result without the fee: + profit, − loss, 0 tie; null while open.'),
  createTime: z.string(),
  settleTime: z.string().nullable(),
});
export type FastTradeOrder = z.output<typeof fastTradeOrder>;

// ---------------------------------------------------------------- contracts, spot, coin-to-coin

/** How an order enters: at the current tick (market) or when the price reaches a limit. */
export const ORDER_TYPE = { market: 1, limit: 2 } as const;

/** 0 limit entry resting, 1 open, 2 closed, 3 cancelled before it filled. */
export const CONTRACT_STATUS = { pending: 0, open: 1, closed: 2, cancelled: 3 } as const;
/** Why a position closed: by the user, take-profit, stop-loss, liquidation. */
export const CLOSE_REASON = { manual: 1, takeProfit: 2, stopLoss: 3, liquidation: 4 } as const;
/** 0 resting (limit), 1 filled, 2 cancelled. */
export const SPOT_ORDER_STATUS = { open: 0, filled: 1, cancelled: 2 } as const;

const optionalCode = <const T extends readonly number[]>(codes: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), codeField(codes).optional());

/** A price: positive decimal text; empty means none. */
const priceField = decimalAmount({ maxScale: MAX_SCALE });
const optionalPrice = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  priceField.optional(),
);

const orderTypeField = codeField([ORDER_TYPE.market, ORDER_TYPE.limit]);
const directionField = codeField([ORDER_DIRECTION.up, ORDER_DIRECTION.down]);

/**
 * Opens a contract: long (1) or short (2) with one of the product's leverages, sized by quantity
 * (a multiple of the product's lot size) or by margin (in the trade currency), exactly one of them.
 * A limit entry (`orderType` 2) rests at `price` with its margin and fee frozen.
 */
export const openContractBody = z
  .object({
    productType: codeField(PRODUCT_TYPES),
    productCode,
    orderDirection: directionField,
    leverage: intField(1, 1000),
    orderType: orderTypeField.default(ORDER_TYPE.market),
    price: optionalPrice,
    quantity: z.preprocess((value) => (value === '' ? undefined : value), priceField.optional()),
    margin: z.preprocess((value) => (value === '' ? undefined : value), priceField.optional()),
    takeProfit: optionalPrice,
    stopLoss: optionalPrice,
    requestId,
  })
  .superRefine((body, context) => {
    if ((body.quantity === undefined) === (body.margin === undefined))
      context.addIssue({ code: 'custom', path: ['quantity'], message: 'hint_quantityOrMargin' });
    if (body.orderType === ORDER_TYPE.limit && body.price === undefined)
      context.addIssue({ code: 'custom', path: ['price'], message: 'hint_limitPriceRequired' });
  });
export type OpenContractBody = z.infer<typeof openContractBody>;

const positionId = intField(1, Number.MAX_SAFE_INTEGER);

/**
 * Closes an open position, or only `quantity` of it (a multiple of the product's lot size below
 * the open quantity; the whole quantity closes it all; absent: all of it).
 */
export const closeContractBody = z.object({
  id: positionId,
  quantity: z.preprocess((value) => (value === '' ? undefined : value), priceField.optional()),
  requestId,
});
export type CloseContractBody = z.infer<typeof closeContractBody>;

/** Sets or clears (empty text) the take-profit and stop-loss of an open or pending position. */
export const updateTpSlBody = z.object({
  id: positionId,
  takeProfit: optionalPrice,
  stopLoss: optionalPrice,
});
export type UpdateTpSlBody = z.infer<typeof updateTpSlBody>;

export const cancelOrderBody = z.object({ id: positionId });
export type CancelOrderBody = z.infer<typeof cancelOrderBody>;

export const contractListQuery = pageQuery.extend({
  /** Several statuses separated by commas ("0,1" for pending and open). */
  status: z.preprocess(
    (value) => (value === '' ? undefined : value),
    safeString(16)
      .regex(/^[0-3](,[0-3]){0,3}$/, { error: 'hint_paramInvalid' })
      .transform((value) => [...new Set(value.split(',').map(Number))])
      .optional(),
  ),
  productCode: z.preprocess((value) => (value === '' ? undefined : value), productCode.optional()),
});
export type ContractListQuery = z.infer<typeof contractListQuery>;

export const contractPosition = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  productType: z.number().int(),
  productCode: z.string(),
  productName: z.string(),
  orderDirection: z.number().int().describe('1 long, 2 short.'),
  leverage: z.number().int(),
  orderType: z.number().int().describe('1 market, 2 limit.'),
  limitPrice: z.string().nullable().describe('The limit of a limit entry.'),
  quantity: z.string(),
  entryPrice: z.string().nullable().describe('Entry price (null while a limit entry rests).'),
  margin: z.string(),
  openFee: z.string(),
  takeProfit: z.string().nullable(),
  stopLoss: z.string().nullable(),
  liquidationPrice: z
    .string()
    .nullable()
    .describe('Where equity reaches the maintenance margin (null while resting).'),
  maintenanceRate: z.string(),
  status: z.number().int().describe('0 pending, 1 open, 2 closed, 3 cancelled.'),
  closeReason: z
    .number()
    .int()
    .nullable()
    .describe('1 manual, 2 take-profit, 3 stop-loss, 4 liquidation.'),
  exitPrice: z.string().nullable(),
  closeFee: z.string().nullable(),
  realizedPnl: z
    .string()
    .nullable()
    .describe('Price result on close (fees apart); the loss is capped at the margin.'),
  markPrice: z.string().nullable().describe('The current price of an open position.'),
  unrealizedPnl: z.string().nullable().describe('The unrealized result of an open position.'),
  entry: tickEvidence.nullable(),
  exit: tickEvidence.nullable(),
  currencyName: z.string(),
  createTime: z.string(),
  openTime: z.string().nullable(),
  closeTime: z.string().nullable(),
  parentId: z
    .number()
    .int()
    .nullable()
    .describe('The position this closed part was split from by a partial close (null otherwise).'),
});
export type ContractPosition = z.output<typeof contractPosition>;

/**
 * A spot (position type 2) or coin-to-coin (3) order: buy or sell `quantity` of the product, at
 * the current tick (market) or when the price reaches `price` (limit; funds or coins frozen).
 */
/** The fields of a spot or coin-to-coin order after the product. */
const orderFields = {
  orderType: orderTypeField.default(ORDER_TYPE.market),
  price: optionalPrice,
  quantity: priceField,
  requestId,
};

/** A limit order needs its price. */
function limitHasPrice(
  body: { orderType: number; price?: string },
  context: z.core.$RefinementCtx,
): void {
  if (body.orderType === ORDER_TYPE.limit && body.price === undefined)
    context.addIssue({ code: 'custom', path: ['price'], message: 'hint_limitPriceRequired' });
}

export const spotOrderBody = z
  .object({ productType: codeField(PRODUCT_TYPES), productCode, ...orderFields })
  .superRefine(limitHasPrice);
export type SpotOrderBody = z.infer<typeof spotOrderBody>;

/** Coin-to-coin orders are always on crypto pairs. */
export const bibiOrderBody = z.object({ productCode, ...orderFields }).superRefine(limitHasPrice);
export type BibiOrderBody = z.infer<typeof bibiOrderBody>;

export const spotListQuery = pageQuery.extend({
  status: optionalCode([
    SPOT_ORDER_STATUS.open,
    SPOT_ORDER_STATUS.filled,
    SPOT_ORDER_STATUS.cancelled,
  ]),
  orderDirection: optionalCode([ORDER_DIRECTION.up, ORDER_DIRECTION.down]),
  productCode: z.preprocess((value) => (value === '' ? undefined : value), productCode.optional()),
});
export type SpotListQuery = z.infer<typeof spotListQuery>;

/** A spot (position type 2) or coin-to-coin (3) order. */
export const spotOrder = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  positionType: z.number().int().describe('2 spot, 3 coin-to-coin.'),
  productType: z.number().int(),
  productCode: z.string(),
  productName: z.string(),
  orderDirection: z.number().int().describe('1 buy, 2 sell.'),
  orderType: z.number().int().describe('1 market, 2 limit.'),
  limitPrice: z.string().nullable(),
  quantity: z.string(),
  fillPrice: z.string().nullable().describe('Fill price (null while resting or cancelled).'),
  amount: z.string().nullable().describe('Fill value (null while resting or cancelled).'),
  fee: z.string(),
  realizedPnl: z
    .string()
    .nullable()
    .describe("A sell's result against the average cost (fee apart)."),
  status: z.number().int().describe('0 resting, 1 filled, 2 cancelled.'),
  fill: tickEvidence.nullable(),
  currencyName: z.string(),
  createTime: z.string(),
  fillTime: z.string().nullable(),
});
export type SpotOrder = z.output<typeof spotOrder>;

/** What a user holds of a product through spot or coin-to-coin trading. */
export const holding = z.object({
  positionType: z.number().int(),
  productType: z.number().int(),
  productCode: z.string(),
  productName: z.string(),
  quantity: z.string(),
  frozenQuantity: z.string().describe('Part of the quantity frozen by resting sell orders.'),
  lockedQuantity: z
    .string()
    .optional()
    .describe(
      'Part of the quantity not sellable before `lockedUntil` (allocated new shares in their lock-up; absent otherwise).',
    ),
  lockedUntil: z.string().optional().describe('When the locked quantity may be sold.'),
  averageCost: z.string(),
  costAmount: z.string(),
  nowPrice: z.string().nullable(),
  marketValue: z.string().nullable(),
  unrealizedPnl: z.string().nullable(),
  currencyName: z.string(),
});
export type Holding = z.output<typeof holding>;

/** The spec's bibi asset: a coin and how much of it the user has (0 when missing). */
export const bibiAsset = z.object({
  productCode: z.string().describe('The coin-to-coin pair of the coin.'),
  bibiAmount: z.string().describe('Available.'),
  frozenAmount: z.string(),
  averageCost: z.string(),
});
export type BibiAsset = z.output<typeof bibiAsset>;
