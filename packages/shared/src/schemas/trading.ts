/**
 * Schemas and response shapes of the trading calls (PRODUCT sections 3 and 6). Directions use the
 * fee table's values: 1 buy / long / up, 2 sell / short / down. Amounts are decimal strings.
 */
import { z } from 'zod';
import { MAX_SCALE } from '../money';
import { PRODUCT_TYPES } from '../constants';
import { codeField, decimalAmount, intField, pageQuery, requestId } from './common';
import { productCode } from './market';

export const ORDER_DIRECTION = { up: 1, down: 2 } as const;
export const FAST_TRADE_STATUS = { open: 0, won: 1, lost: 2, tie: 3 } as const;

export const fastTradeOptionsQuery = z.object({
  productType: codeField(PRODUCT_TYPES),
  productCode,
});
export type FastTradeOptionsQuery = z.infer<typeof fastTradeOptionsQuery>;

export interface FastTradeOption {
  id: number;
  productType: number;
  productCode: string | null;
  /** Seconds from the order to the deciding tick. */
  durationSeconds: number;
  /** Profit on a win as a fraction of the stake ("0.85"). */
  payoutRate: string;
  /** Loss on a loss as a fraction of the stake ("1" loses it all). */
  lossRate: string;
  minStake: string;
  maxStake: string;
  /** The fee rate of this product type for fast trades, per direction (from orderFeeSetting). */
  feeRateUp: string;
  feeRateDown: string;
  currencyId: number;
  currencyName: string;
}

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
export interface TickEvidence {
  price: string;
  time: number;
  source: string;
  sequence: number;
}

export interface FastTradeOrder {
  id: number;
  orderNo: string;
  productType: number;
  productCode: string;
  productName: string;
  orderDirection: number;
  currencyName: string;
  amount: string;
  fee: string;
  durationSeconds: number;
  payoutRate: string;
  lossRate: string;
  entry: TickEvidence;
  /** When the deciding tick may come from (ms). */
  expiresAt: number;
  /** 0 open, 1 won, 2 lost, 3 tie. */
  status: number;
  exit: TickEvidence | null;
  /** Signed result without the fee: + profit, − loss, 0 tie. */
  result: string | null;
  createTime: string;
  settleTime: string | null;
}
