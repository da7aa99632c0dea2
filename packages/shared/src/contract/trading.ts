/**
 * The calls of fast trades (position type 0), contracts (1), spot (2) and coin-to-coin (3).
 * Spot and coin-to-coin take the same calls under their own paths (the spec's names).
 */
import { z } from 'zod';
import { idQuery } from '../schemas/wallet';
import {
  addFastTradeOrderBody,
  bibiAsset,
  bibiOrderBody,
  cancelOrderBody,
  closeContractBody,
  contractListQuery,
  contractPosition,
  fastTradeListQuery,
  fastTradeOption,
  fastTradeOptionsQuery,
  fastTradeOrder,
  fastTradeRisk,
  holding,
  openContractBody,
  spotListQuery,
  spotOrder,
  spotOrderBody,
  updateTpSlBody,
} from '../schemas/trading';
import { route } from './route';

/** Why a product takes no order of a kind: unknown or hidden, not offered, halted, closed. */
const productHints = [
  'hint_productUnknown',
  'hint_positionTypeUnavailable',
  'hint_productHalted',
  'hint_marketClosed',
] as const;

/** Take-profit and stop-loss on the wrong side of the price (or beyond the liquidation). */
const tpSlHints = [
  'hint_priceDecimals',
  'hint_takeProfitAbove',
  'hint_takeProfitBelow',
  'hint_stopLossBelow',
  'hint_stopLossAbove',
  'hint_stopLossBeyondLiquidation',
] as const;

/** The refusals of a spot or coin-to-coin order, whichever its direction. */
const orderHints = [
  ...productHints,
  'hint_requestIdReused',
  'hint_quantityStep',
  'hint_priceDecimals',
  'hint_orderTooSmall',
] as const;

const buyHints = [...orderHints, 'hint_insufficientBalance'] as const;
const sellHints = [...orderHints, 'hint_insufficientHolding'] as const;
/** A spot sell may not use allocated new shares before their lock-up ends. */
const spotSellHints = [...sellHints, 'hint_newShareLocked'] as const;
const cancelOrderHints = ['hint_orderNotFound', 'hint_orderNotResting'] as const;

export const tradingApi = {
  // ------------------------------------------------------------ fast trades

  fastTradeOptions: route({
    method: 'GET',
    path: '/api/fastTradeOrderOptions/list',
    auth: 'optional',
    key: 'read',
    summary:
      "The durations, payouts and stakes of a product's fast trades (its own options, else its type's).",
    query: fastTradeOptionsQuery,
    data: z.array(fastTradeOption),
    hints: ['hint_fastTradeDisabled', 'hint_productUnknown', 'hint_positionTypeUnavailable'],
  }),
  fastTradeRiskStatus: route({
    method: 'GET',
    path: '/api/fastTradeOrder/riskStatus',
    auth: 'user',
    key: 'read',
    summary: 'Whether the user accepted the risk disclosure, needed before the first fast trade.',
    data: fastTradeRisk,
  }),
  acceptFastTradeRisk: route({
    method: 'POST',
    path: '/api/fastTradeOrder/acceptRisk',
    auth: 'user',
    summary: 'Accepts the risk disclosure of fast trades (once; again changes nothing).',
    data: fastTradeRisk,
  }),
  placeFastTrade: route({
    method: 'POST',
    path: '/api/fastTradeOrder/addFastTradeOrder',
    auth: 'user',
    key: 'trade',
    summary:
      'Places a fast trade: the stake frozen and the fee paid at the current tick; a repeated requestId answers the first order.',
    body: addFastTradeOrderBody,
    data: fastTradeOrder,
    hints: [
      'hint_fastTradeDisabled',
      ...productHints,
      'hint_requestIdReused',
      'hint_fastTradeRiskRequired',
      'hint_fastTradeOptionUnknown',
      'hint_amountDecimals',
      'hint_amountBelowMin',
      'hint_amountAboveMax',
      'hint_insufficientBalance',
    ],
  }),
  fastTrades: route({
    method: 'GET',
    path: '/api/fastTradeOrder/list',
    auth: 'user',
    key: 'read',
    summary: "The user's fast trades in the current book, newest first.",
    query: fastTradeListQuery,
    rows: fastTradeOrder,
  }),
  fastTrade: route({
    method: 'GET',
    path: '/api/fastTradeOrder/detail',
    auth: 'user',
    key: 'read',
    summary: 'One fast trade of the user.',
    query: idQuery,
    data: fastTradeOrder,
    hints: ['hint_orderNotFound'],
  }),

  // ------------------------------------------------------------ contracts

  openContract: route({
    method: 'POST',
    path: '/api/contractPosition/open',
    auth: 'user',
    key: 'trade',
    summary:
      'Opens a contract at the current tick, or rests a limit entry; sized by quantity or by margin. A repeated requestId answers the first position.',
    body: openContractBody,
    data: contractPosition,
    hints: [
      ...productHints,
      'hint_leverageUnavailable',
      'hint_quantityStep',
      'hint_orderTooSmall',
      ...tpSlHints,
      'hint_requestIdReused',
      'hint_insufficientBalance',
    ],
  }),
  closeContract: route({
    method: 'POST',
    path: '/api/contractPosition/close',
    auth: 'user',
    key: 'trade',
    summary:
      'Closes an open position at the current tick, or only `quantity` of it (a partial close: that part is split off as a closed position of its own, `parentId` the position, which stays open with the rest, its margin and open fee shared in proportion and its liquidation level moved); answers what it closed. A repeated requestId answers the close.',
    body: closeContractBody,
    data: contractPosition,
    hints: [
      'hint_positionNotFound',
      'hint_positionNotOpen',
      'hint_marketClosed',
      'hint_quantityStep',
      'hint_closeQuantityAbove',
      'hint_orderTooSmall',
    ],
  }),
  updateTpSl: route({
    method: 'POST',
    path: '/api/contractPosition/updateTpSl',
    auth: 'user',
    key: 'trade',
    summary:
      'Sets or clears (empty text) the take-profit and stop-loss of an open or pending position.',
    body: updateTpSlBody,
    data: contractPosition,
    hints: ['hint_positionNotFound', 'hint_positionNotOpen', 'hint_marketClosed', ...tpSlHints],
  }),
  cancelContract: route({
    method: 'POST',
    path: '/api/contractPosition/cancel',
    auth: 'user',
    key: 'trade',
    summary:
      'Cancels a resting limit entry: its margin and fee return (hint_48 when it was cancelled already).',
    body: cancelOrderBody,
    data: contractPosition,
    hints: ['hint_positionNotFound', 'hint_orderNotResting'],
  }),
  contracts: route({
    method: 'GET',
    path: '/api/contractPosition/list',
    auth: 'user',
    key: 'read',
    summary: "The user's positions in the current book, newest first, of the given statuses.",
    query: contractListQuery,
    rows: contractPosition,
  }),
  contract: route({
    method: 'GET',
    path: '/api/contractPosition/detail',
    auth: 'user',
    key: 'read',
    summary: 'One position of the user.',
    query: idQuery,
    data: contractPosition,
    hints: ['hint_positionNotFound'],
  }),

  // ------------------------------------------------------------ spot

  spotBuy: route({
    method: 'POST',
    path: '/api/spotTradeOrder/addSpotTradeOrder',
    auth: 'user',
    key: 'trade',
    summary:
      'Buys a stock or a crypto at the current tick, or rests a limit (funds frozen). A repeated requestId answers the first order.',
    body: spotOrderBody,
    data: spotOrder,
    hints: buyHints,
  }),
  spotSell: route({
    method: 'POST',
    path: '/api/spotTradeOrder/sellSpotTradeOrder',
    auth: 'user',
    key: 'trade',
    summary:
      'Sells what the user holds (even of a halted or hidden product) at the current tick, or rests a limit. Allocated new shares are not sellable before their lock-up ends.',
    body: spotOrderBody,
    data: spotOrder,
    hints: spotSellHints,
  }),
  cancelSpotOrder: route({
    method: 'POST',
    path: '/api/spotTradeOrder/cancel',
    auth: 'user',
    key: 'trade',
    summary: 'Cancels a resting spot order (hint_48 when it was cancelled already).',
    body: cancelOrderBody,
    data: spotOrder,
    hints: cancelOrderHints,
  }),
  spotOrders: route({
    method: 'GET',
    path: '/api/spotTradeOrder/list',
    auth: 'user',
    key: 'read',
    summary: "The user's spot orders in the current book, newest first.",
    query: spotListQuery,
    rows: spotOrder,
  }),
  spotHoldings: route({
    method: 'GET',
    path: '/api/spotTradeOrder/holdings',
    auth: 'user',
    key: 'read',
    summary: "The user's spot holdings valued at the current price.",
    data: z.array(holding),
  }),

  // ------------------------------------------------------------ coin-to-coin

  bibiBuy: route({
    method: 'POST',
    path: '/api/bibiTradeOrder/buy',
    auth: 'user',
    key: 'trade',
    summary: 'Buys a coin with the trade currency on its crypto pair, at market or at a limit.',
    body: bibiOrderBody,
    data: spotOrder,
    hints: buyHints,
  }),
  bibiSell: route({
    method: 'POST',
    path: '/api/bibiTradeOrder/sell',
    auth: 'user',
    key: 'trade',
    summary: 'Sells a coin of the wallet for the trade currency, at market or at a limit.',
    body: bibiOrderBody,
    data: spotOrder,
    hints: sellHints,
  }),
  cancelBibiOrder: route({
    method: 'POST',
    path: '/api/bibiTradeOrder/cancel',
    auth: 'user',
    key: 'trade',
    summary: 'Cancels a resting coin-to-coin order (hint_48 when it was cancelled already).',
    body: cancelOrderBody,
    data: spotOrder,
    hints: cancelOrderHints,
  }),
  bibiOrders: route({
    method: 'GET',
    path: '/api/bibiTradeOrder/list',
    auth: 'user',
    key: 'read',
    summary: "The user's coin-to-coin orders in the current book, newest first.",
    query: spotListQuery,
    rows: spotOrder,
  }),
  bibiAssets: route({
    method: 'GET',
    path: '/api/userBibiAssets/list',
    auth: 'user',
    key: 'read',
    summary:
      'The coins the user holds that have a coin-to-coin pair: available, frozen and average cost.',
    rows: bibiAsset,
  }),
};
