/**
 * The arithmetic of an order on decimal strings, one copy for the server (which places and
 * settles with it) and the web app (which previews with it): the fill price, the quantity a
 * margin buys, the margin (notional ÷ leverage, rounded up to the currency), the fee (rounded up),
 * the liquidation price, the unrealized result, the take-profit and stop-loss rules, and the
 * share of a balance that still pays its fee. Never a JS number.
 */
import { ORDER_DIRECTION, ORDER_TYPE } from './schemas/trading';
import {
  add,
  div,
  gt,
  isPositive,
  lt,
  lte,
  max,
  min,
  mul,
  neg,
  normalize,
  scaleOf,
  sub,
  toScale,
} from './money';

const LONG = ORDER_DIRECTION.up;

/** True when `value` is a whole number of `step`s. */
export function isMultipleOf(value: string, step: string): boolean {
  return scaleOf(div(value, step, 18)) === 0;
}

/** The largest whole number of `step`s not above `value`. */
export function floorToStep(value: string, step: string): string {
  return normalize(mul(div(value, step, 0, 'down'), step));
}

/**
 * Where an order fills: a limit the price has already reached fills at once at the current
 * price, like a market order; any other limit rests at its price.
 */
export function fillPrice(
  direction: number,
  orderType: number,
  limit: string | undefined,
  current: string,
): { price: string; rests: boolean } {
  if (orderType !== ORDER_TYPE.limit || limit === undefined)
    return { price: current, rests: false };
  const long = direction === LONG;
  const rests = long ? lt(limit, current) : gt(limit, current);
  return { price: rests ? normalize(limit) : current, rests };
}

/** The price result of a position at a price (long gains when it rises), unrounded. */
export function priceResult(
  direction: number,
  entry: string,
  price: string,
  quantity: string,
): string {
  const move = mul(sub(price, entry), quantity);
  return direction === LONG ? move : neg(move);
}

/** The result of a position at `price` with a loss never beyond the margin, unrounded. */
export function cappedResult(
  direction: number,
  entry: string,
  price: string,
  quantity: string,
  margin: string,
): string {
  return max(priceResult(direction, entry, price, quantity), neg(margin));
}

/** The unrealized result at `price`: a loss never beyond the margin, at the currency's scale. */
export function unrealizedPnl(
  direction: number,
  entry: string,
  price: string,
  quantity: string,
  margin: string,
  scale: number,
): string {
  return toScale(cappedResult(direction, entry, price, quantity, margin), scale);
}

/**
 * The price at which equity (margin + result) equals the maintenance margin (entry notional ×
 * rate), rounded towards the entry so liquidation never comes later than that.
 */
export function liquidationPrice(
  direction: number,
  entry: string,
  quantity: string,
  margin: string,
  maintenanceRate: string,
  priceScale: number,
): string {
  const maintenance = mul(mul(entry, quantity), maintenanceRate);
  const distance = div(sub(margin, maintenance), quantity, 18);
  if (direction === LONG) {
    const price = toScale(sub(entry, distance), priceScale, 'up');
    const smallest = toScale(div('1', '1' + '0'.repeat(priceScale), 18), priceScale);
    return gt(price, '0') ? price : smallest;
  }
  return toScale(add(entry, distance), priceScale, 'down');
}

/** The direction of the trade that closes a position: a close pays that direction's fee rate. */
export function closingDirection(direction: number): number {
  return direction === ORDER_DIRECTION.up ? ORDER_DIRECTION.down : ORDER_DIRECTION.up;
}

/**
 * What a close at `price` moves: the result (a loss never beyond the margin), the close fee
 * (notional at that price × rate, rounded up, never more than what is left) and what returns to
 * the available balance.
 */
export function closeAmounts(
  position: { direction: number; entryPrice: string; quantity: string; margin: string },
  price: string,
  closeFeeRate: string,
  scale: number,
): { result: string; fee: string; returned: string } {
  const margin = normalize(position.margin);
  const result = toScale(
    priceResult(position.direction, position.entryPrice, price, position.quantity),
    scale,
  );
  const capped = max(result, neg(margin));
  const payout = add(margin, capped);
  const fee = min(feeOn(mul(price, position.quantity), closeFeeRate, scale), payout);
  return { result: capped, fee, returned: sub(payout, fee) };
}

/**
 * A partial close's share of an amount of its position (the margin, the open fee): amount × part
 * ÷ quantity, rounded down at `scale`, so that what stays open keeps at least its own share.
 */
export function partShare(amount: string, part: string, quantity: string, scale: number): string {
  return toScale(div(mul(amount, part), quantity, 18), scale, 'down');
}

export interface ContractInput {
  direction: number;
  leverage: number;
  /** The expected fill price (see `fillPrice`). */
  price: string;
  /** Exactly one of quantity and margin sizes the order. */
  quantity?: string;
  margin?: string;
  /** The product's lot size. */
  step: string;
  feeRate: string;
  maintenanceRate: string;
  priceScale: number;
  /** Decimals of the trade currency. */
  scale: number;
}

export interface ContractPreview {
  quantity: string;
  notional: string;
  margin: string;
  fee: string;
  /** What leaves the available balance: margin + fee. */
  total: string;
  liquidationPrice: string;
}

export type ContractProblem = 'step' | 'tooSmall';

/** The order the server would open, or why it would refuse it. */
export function contractPreview(
  input: ContractInput,
): { ok: true; preview: ContractPreview } | { ok: false; problem: ContractProblem } {
  const leverage = String(input.leverage);
  let quantity: string;
  if (input.quantity !== undefined) {
    quantity = normalize(input.quantity);
    if (!isMultipleOf(quantity, input.step)) return { ok: false, problem: 'step' };
  } else {
    const lots = div(div(mul(input.margin ?? '0', leverage), input.price, 18), input.step, 0);
    quantity = mul(lots, input.step);
  }
  if (!isPositive(quantity)) return { ok: false, problem: 'tooSmall' };
  const notional = mul(quantity, input.price);
  const margin = toScale(div(notional, leverage, 18), input.scale, 'up');
  if (!isPositive(margin)) return { ok: false, problem: 'tooSmall' };
  const fee = feeOn(notional, input.feeRate, input.scale);
  return {
    ok: true,
    preview: {
      quantity,
      notional,
      margin,
      fee,
      total: add(margin, fee),
      liquidationPrice: liquidationPrice(
        input.direction,
        input.price,
        quantity,
        margin,
        input.maintenanceRate,
        input.priceScale,
      ),
    },
  };
}

/**
 * The margin to enter for a share of the available balance: the largest one (at the currency's
 * scale) whose order still pays its fee from that share. '0' when not even a lot fits.
 */
export function marginForShare(
  available: string,
  share: string,
  input: Omit<ContractInput, 'quantity' | 'margin'>,
): string {
  const budget = toScale(mul(available, share), input.scale, 'down');
  const leverage = String(input.leverage);
  // margin + notional × rate <= budget, with notional = margin × leverage.
  let margin = div(budget, add('1', mul(leverage, input.feeRate)), input.scale, 'down');
  const unit = div('1', '1' + '0'.repeat(input.scale), input.scale);
  for (let tries = 0; tries < 100 && isPositive(margin); tries += 1) {
    const result = contractPreview({ ...input, margin });
    if (!result.ok) return '0';
    if (lte(result.preview.total, budget)) return margin;
    margin = sub(margin, unit);
  }
  return '0';
}

export interface HintProblem {
  /** A translation key of the server's (hint_…), with its arguments. */
  key: string;
  params: (string | number)[];
}

/**
 * The server's rules for take-profit and stop-loss: on the right side of `reference` (the entry,
 * or the price now for an open position) and a stop-loss before the liquidation price.
 */
export function tpSlProblems(
  direction: number,
  reference: string,
  takeProfit: string | undefined,
  stopLoss: string | undefined,
  liquidation: string | undefined,
  priceScale: number,
): { takeProfit?: HintProblem; stopLoss?: HintProblem } {
  const long = direction === LONG;
  // Beyond `reference` on the side it has to be: a take-profit on the winning side, a stop-loss
  // on the losing one, at no more decimals than the price.
  const sideProblem = (level: string, above: boolean, keys: [above: string, below: string]) => {
    if (scaleOf(level) > priceScale) return { key: 'hint_priceDecimals', params: [priceScale] };
    if (above ? !gt(level, reference) : !lt(level, reference))
      return { key: above ? keys[0] : keys[1], params: [toScale(reference, priceScale)] };
    return undefined;
  };
  const problems: { takeProfit?: HintProblem; stopLoss?: HintProblem } = {};
  if (takeProfit !== undefined) {
    const problem = sideProblem(takeProfit, long, ['hint_takeProfitAbove', 'hint_takeProfitBelow']);
    if (problem) problems.takeProfit = problem;
  }
  if (stopLoss !== undefined) {
    const problem = sideProblem(stopLoss, !long, ['hint_stopLossAbove', 'hint_stopLossBelow']);
    if (problem) problems.stopLoss = problem;
    else if (
      liquidation !== undefined &&
      (long ? !gt(stopLoss, liquidation) : !lt(stopLoss, liquidation))
    )
      problems.stopLoss = {
        key: 'hint_stopLossBeyondLiquidation',
        params: [toScale(liquidation, priceScale)],
      };
  }
  return problems;
}

// ------------------------------------------------------------------ spot and coin-to-coin

export interface SpotPreview {
  /** Quantity × price at the currency's scale. */
  amount: string;
  /** Amount × rate, rounded up. */
  fee: string;
  /** A buy pays amount + fee; a sell receives amount − fee. */
  total: string;
}

/** What `quantity` at `price` costs (a buy, rounded up) or brings (a sell, rounded down). */
export function valueAt(quantity: string, price: string, scale: number, buy: boolean): string {
  return toScale(mul(quantity, price), scale, buy ? 'up' : 'down');
}

/** The fee on an amount, rounded up to the currency's scale. */
export function feeOn(amount: string, rate: string, scale: number): string {
  return toScale(mul(amount, rate), scale, 'up');
}

export function spotPreview(
  direction: number,
  price: string,
  quantity: string,
  feeRate: string,
  scale: number,
): SpotPreview {
  const buy = direction === LONG;
  const amount = valueAt(quantity, price, scale, buy);
  const fee = feeOn(amount, feeRate, scale);
  return { amount, fee, total: buy ? add(amount, fee) : max(sub(amount, fee), '0') };
}

/**
 * The quantity for a share: of the available currency for a buy (a whole number of lots whose
 * cost and fee fit), of the coins or shares held for a sell.
 */
export function spotQuantityForShare(
  direction: number,
  share: string,
  available: string,
  price: string,
  step: string,
  feeRate: string,
  scale: number,
): string {
  if (direction !== LONG) return floorToStep(mul(available, share), step);
  const budget = toScale(mul(available, share), scale, 'down');
  if (!isPositive(price)) return '0';
  let quantity = floorToStep(div(budget, mul(price, add('1', feeRate)), 18), step);
  for (let tries = 0; tries < 100 && isPositive(quantity); tries += 1) {
    if (lte(spotPreview(direction, price, quantity, feeRate, scale).total, budget)) return quantity;
    quantity = sub(quantity, step);
  }
  return '0';
}
