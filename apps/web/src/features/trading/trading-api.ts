/**
 * The calls of contracts (position type 1), spot (2) and coin-to-coin (3), the fee rates their
 * forms need, and what their screens share: prices and quantities as text, results as rates and
 * the labels of statuses and close reasons. The trade currency, its balance and amounts at its
 * scale are in `lib/trade`, shared with the fast trades.
 */
import {
  CLOSE_REASON,
  CONTRACT_STATUS,
  formatAmount,
  div,
  isDecimalString,
  isPositive,
  mul,
  normalize,
  scaleOf,
  toScale,
  tradingApi as routes,
  type BibiAsset,
  type ContractPosition,
  type Holding,
  type OpenContractBody,
  type SpotOrder,
} from '@bourse/shared';
import { api } from '../../api';
import { loadFeeSettings, storedSiteInfo, type FeeSetting } from '../../api/launch';
import type { Product } from '../../api/market';
import { getItem, setItem, STORAGE_KEY } from '../../lib/storage';
import { currencyScale, thousandsGrouped, tradeCurrencyId } from '../../lib/trade';

export type { BibiAsset, ContractPosition, Holding, SpotOrder } from '@bourse/shared';

/** The product as the detail call sends it, with the fields trading reads. */
export type TradableProduct = Product & {
  /** Position types the product allows: 0 fast, 1 contract, 2 spot, 3 coin-to-coin. */
  PositionType?: number[];
  /** Equity at or below entry notional × this liquidates a contract. */
  maintenanceRate?: string;
};

/** Query keys, so a change anywhere refreshes every screen showing it. */
export const TRADING_KEY = {
  contracts: 'contractPositions',
  spotOrders: 'spotOrders',
  bibiOrders: 'bibiOrders',
  holdings: 'spotHoldings',
  bibiAssets: 'bibiAssets',
  /** Shared with the fast-trade panel and the wallet: the balance of one currency. */
  balance: 'userBalance',
  fees: 'orderFeeSetting',
} as const;

/** How often open positions and resting orders are read again while a screen shows them. */
export const LIVE_REFRESH_MS = 5000;

// ------------------------------------------------------------------ fees

/** The fee table as launch stored it (refreshed by the query that uses it). */
export function storedFees(): FeeSetting[] | undefined {
  return getItem<FeeSetting[]>(STORAGE_KEY.feeSettings);
}

export { loadFeeSettings };

/** The rate of the fee table for a product type, position type and direction (0 when none). */
export function feeRateOf(
  fees: readonly FeeSetting[] | undefined,
  productType: number,
  positionType: number,
  direction: number,
): string {
  const row = fees?.find(
    (fee) =>
      fee.productType === productType &&
      fee.PositionType === positionType &&
      fee.exType === direction,
  );
  return row && isDecimalString(row.feeRate) ? normalize(row.feeRate) : '0';
}

// ------------------------------------------------------------------ contracts

export function openContract(body: OpenContractBody): Promise<ContractPosition> {
  return api.call(routes.openContract, body);
}

/** Closes a position at the current tick, or only `quantity` of it (a partial close). */
export function closeContract(
  id: number,
  requestId: string,
  quantity?: string,
): Promise<ContractPosition> {
  return api.call(routes.closeContract, {
    id,
    requestId,
    ...(quantity === undefined ? {} : { quantity }),
  });
}

/** Sets the take-profit and stop-loss; an empty text clears one. */
export function updateTpSl(
  id: number,
  takeProfit: string,
  stopLoss: string,
): Promise<ContractPosition> {
  return api.call(routes.updateTpSl, { id, takeProfit, stopLoss });
}

export function cancelContract(id: number): Promise<ContractPosition> {
  return api.call(routes.cancelContract, { id });
}

export async function fetchContracts(
  statuses: readonly number[],
  pageSize = 50,
  pageNum = 1,
): Promise<{ rows: ContractPosition[]; total: number }> {
  const { rows, total } = await api.call(routes.contracts, {
    status: statuses.join(','),
    pageNum,
    pageSize,
  });
  return { rows: rows ?? [], total: total ?? 0 };
}

// ------------------------------------------------------------------ spot and coin-to-coin

/** Spot orders (position type 2) or coin-to-coin ones (3). */
export type SpotKind = 'spot' | 'bibi';

/** The calls of each kind of order: spot and coin-to-coin take the same ones under their paths. */
const ORDER_CALLS = {
  spot: { cancel: routes.cancelSpotOrder, list: routes.spotOrders },
  bibi: { cancel: routes.cancelBibiOrder, list: routes.bibiOrders },
} as const;

export interface PlaceSpotOrder {
  productType: number;
  productCode: string;
  orderDirection: number;
  orderType: number;
  price?: string;
  quantity: string;
  requestId: string;
}

export function placeSpotOrder(kind: SpotKind, order: PlaceSpotOrder): Promise<SpotOrder> {
  const { orderDirection, productType, ...body } = order;
  const buy = orderDirection === 1;
  if (kind === 'bibi') return api.call(buy ? routes.bibiBuy : routes.bibiSell, body);
  return api.call(buy ? routes.spotBuy : routes.spotSell, { ...body, productType });
}

export function cancelSpotOrder(kind: SpotKind, id: number): Promise<SpotOrder> {
  return api.call(ORDER_CALLS[kind].cancel, { id });
}

/** The query key of a kind's orders, on which every list of them is read again. */
export function ordersKey(kind: SpotKind): string {
  return kind === 'bibi' ? TRADING_KEY.bibiOrders : TRADING_KEY.spotOrders;
}

export interface SpotOrderQuery {
  status?: number;
  orderDirection?: number;
  productCode?: string;
  pageSize?: number;
  pageNum?: number;
}

export async function fetchSpotOrders(
  kind: SpotKind,
  query: SpotOrderQuery = {},
): Promise<{ rows: SpotOrder[]; total: number }> {
  const { rows, total } = await api.call(ORDER_CALLS[kind].list, {
    pageNum: 1,
    pageSize: 20,
    ...query,
  });
  return { rows: rows ?? [], total: total ?? 0 };
}

export async function fetchHoldings(): Promise<Holding[]> {
  return (await api.call(routes.spotHoldings)) ?? [];
}

/** The user's coins (spec: `$bibiAssets` on the device; a missing coin counts as 0). */
export async function fetchBibiAssets(): Promise<BibiAsset[]> {
  const assets = (await api.call(routes.bibiAssets)).rows ?? [];
  setItem(STORAGE_KEY.bibiAssets, assets);
  return assets;
}

export function storedBibiAssets(): BibiAsset[] | undefined {
  return getItem<BibiAsset[]>(STORAGE_KEY.bibiAssets);
}

/**
 * A product the market no longer lists (the operator hid it) that the user still holds: enough of
 * it for the sell form. Hiding or halting never locks a holding (PRODUCT section 1, rule 8): the
 * form sells at the feed's price, and its buy side says the product is halted. Its lot is not
 * known here: the finest step the held quantities show, a power of ten, so a multiple of the
 * product's own lot when they are whole lots (the server has the last word either way).
 */
export function heldProduct(held: {
  productType: number;
  productCode: string;
  productName?: string;
  /** What is held: available and frozen quantities. */
  quantities: readonly string[];
  /** A price the server gave at the product's decimals (its last price or the average cost). */
  price: string | null | undefined;
}): TradableProduct {
  const decimals = Math.max(0, ...held.quantities.map((quantity) => scaleOf(normalize(quantity))));
  return {
    id: 0,
    productId: 0,
    productName: held.productName || held.productCode,
    productCode: held.productCode,
    productDesc: '',
    productType: held.productType as Product['productType'],
    isLock: 1,
    isOption: 0,
    standard: decimals === 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`,
    priceScale: held.price ? scaleOf(held.price) : 2,
    leverages: [],
    // Not known here: the server refuses an order outside the session with its reason.
    marketOpen: true,
    source: '',
    simulated: storedSiteInfo()?.marketFeed === 'simulated',
    tickerInfo: null,
  };
}

// ------------------------------------------------------------------ texts

/** The decimals of the trade currency (USDT), as amounts of it are shown. */
export function tradeScale(): number {
  return currencyScale(tradeCurrencyId()) ?? 4;
}

/** A price at the product's decimals, grouped by the switch. */
export function priceText(value: string | null | undefined, priceScale: number): string {
  return formatAmount(
    value,
    isDecimalString(value) ? { decimals: priceScale, thousands: thousandsGrouped() } : {},
  );
}

/** A quantity as it is (no trailing zeros), grouped by the switch. */
export function quantityText(value: string | null | undefined): string {
  if (!isDecimalString(value)) return formatAmount(value);
  const plain = normalize(value);
  return formatAmount(plain, { decimals: scaleOf(plain), thousands: thousandsGrouped() });
}

/** A result against what it risked, as a signed percentage with 2 decimals ("+0.08%"). */
export function returnRate(result: string, base: string): string | undefined {
  if (!isDecimalString(result) || !isDecimalString(base) || !isPositive(base)) return undefined;
  const rate = toScale(div(mul(result, '100'), base, 18), 2, 'halfUp');
  return `${isPositive(rate) ? '+' : ''}${rate}%`;
}

/** The translation keys of a set of codes: `${prefix}${name}` for each code's name. */
function labelsOf(codes: Record<string, number>, prefix: string): Record<number, string> {
  return Object.fromEntries(Object.entries(codes).map(([name, code]) => [code, prefix + name]));
}

export const CONTRACT_STATUS_LABEL = labelsOf(CONTRACT_STATUS, 'position_status_');

export const CLOSE_REASON_LABEL = labelsOf(CLOSE_REASON, 'position_reason_');

export const SPOT_STATUS_LABEL: Record<number, string> = {
  0: 'trade_status_resting',
  1: 'trade_status_filled',
  2: 'trade_status_cancelled',
};
