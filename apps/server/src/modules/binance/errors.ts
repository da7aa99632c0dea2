/**
 * Binance's error dialect: every refusal is `{ code, msg }` with Binance's negative code and its
 * English text, on the HTTP status Binance uses (clients match the text exactly: ccxt tells
 * insufficient funds from other rejections by the message alone, and reports a body without
 * `code` and `msg` as "exchange not available"). Each refusal also names the Bourse hint key that
 * the key's usage log keeps, so the user reads the precise reason (a revoked key, an address off
 * the allow-list) in their own language where Binance's text is deliberately vague.
 */
import type { AppError } from '../../lib/errors';
import { translate } from '../../lib/i18n';

export class BinanceError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly status: 400 | 401 | 403 | 404 | 429 | 500 | 503 = 400,
    /** What the usage log keeps: a Bourse hint key. */
    readonly hint = 'hint_badRequest',
  ) {
    super(msg);
    this.name = 'BinanceError';
  }
}

/** The texts Binance sends, with their codes (only those Bourse produces). */
export const refusals = {
  unknown: () =>
    new BinanceError(
      -1000,
      'An unknown error occurred while processing the request.',
      500,
      'hint_systemError',
    ),
  tooMuchWeight: (limit: number) =>
    new BinanceError(
      -1003,
      `Too much request weight used; current limit is ${limit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`,
      429,
      'hint_tooManyRequests',
    ),
  tooManyRequests: () =>
    new BinanceError(-1003, 'Too many requests queued.', 429, 'hint_tooManyRequests'),
  marketClosed: (hint = 'hint_marketClosed') =>
    new BinanceError(-1013, 'Market is closed.', 400, hint),
  filter: (filter: 'LOT_SIZE' | 'PRICE_FILTER' | 'NOTIONAL', hint: string) =>
    new BinanceError(-1013, `Filter failure: ${filter}`, 400, hint),
  unsupportedCombination: () =>
    new BinanceError(-1014, 'Unsupported order combination.', 400, 'hint_paramInvalid'),
  timestampAhead: () =>
    new BinanceError(
      -1021,
      "Timestamp for this request was 1000ms ahead of the server's time.",
      400,
      'hint_apiKeyTimestamp',
    ),
  timestampOutside: () =>
    new BinanceError(
      -1021,
      'Timestamp for this request is outside of the recvWindow.',
      400,
      'hint_apiKeyTimestamp',
    ),
  signature: () =>
    new BinanceError(
      -1022,
      'Signature for this request is not valid.',
      400,
      'hint_apiKeySignature',
    ),
  /** Binance has no replay error: Bourse's own text under the signature's code. */
  signatureReused: () =>
    new BinanceError(
      -1022,
      'Signature for this request was already used.',
      400,
      'hint_apiKeySignatureReused',
    ),
  illegalCharacters: (name: string, range: string) =>
    new BinanceError(
      -1100,
      `Illegal characters found in parameter '${name}'; legal range is '${range}'.`,
      400,
      'hint_paramInvalid',
    ),
  duplicateParameter: () =>
    new BinanceError(-1101, 'Duplicate values for a parameter detected.', 400, 'hint_paramInvalid'),
  tooManyParameters: () =>
    new BinanceError(
      -1101,
      'Too many parameters sent for this endpoint.',
      400,
      'hint_paramInvalid',
    ),
  mandatory: (name: string) =>
    new BinanceError(
      -1102,
      `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`,
      400,
      'hint_paramRequired',
    ),
  eitherMandatory: (first: string, second: string) =>
    new BinanceError(
      -1102,
      `Param '${first}' or '${second}' must be sent, but both were empty/null!`,
      400,
      'hint_paramRequired',
    ),
  unread: (read: number, sent: number) =>
    new BinanceError(
      -1104,
      `Not all sent parameters were read; read '${read}' parameter(s) but was sent '${sent}'.`,
      400,
      'hint_paramInvalid',
    ),
  empty: (name: string) =>
    new BinanceError(-1105, `Parameter '${name}' was empty.`, 400, 'hint_paramRequired'),
  notRequired: (name: string) =>
    new BinanceError(
      -1106,
      `Parameter '${name}' sent when not required.`,
      400,
      'hint_paramInvalid',
    ),
  precision: (name: string) =>
    new BinanceError(
      -1111,
      `Parameter '${name}' has too much precision.`,
      400,
      'hint_paramInvalid',
    ),
  timeInForce: () => new BinanceError(-1115, 'Invalid timeInForce.', 400, 'hint_paramInvalid'),
  orderType: () => new BinanceError(-1116, 'Invalid orderType.', 400, 'hint_paramInvalid'),
  side: () => new BinanceError(-1117, 'Invalid side.', 400, 'hint_paramInvalid'),
  interval: () => new BinanceError(-1120, 'Invalid interval.', 400, 'hint_paramInvalid'),
  symbol: () => new BinanceError(-1121, 'Invalid symbol.', 400, 'hint_productUnknown'),
  lookupTooBig: () =>
    new BinanceError(-1127, 'Lookup interval is too big.', 400, 'hint_paramOutOfRange'),
  badCombination: () =>
    new BinanceError(
      -1128,
      'Combination of optional parameters invalid.',
      400,
      'hint_paramInvalid',
    ),
  invalidValue: (name: string) =>
    new BinanceError(
      -1130,
      `Data sent for parameter '${name}' is not valid.`,
      400,
      'hint_paramInvalid',
    ),
  recvWindow: () =>
    new BinanceError(-1131, 'recvWindow must be less than 60000', 400, 'hint_apiKeyHeader'),
  rejected: (msg: string, hint: string) => new BinanceError(-2010, msg, 400, hint),
  insufficientBalance: (hint: string) =>
    new BinanceError(-2010, 'Account has insufficient balance for requested action.', 400, hint),
  duplicateOrder: () =>
    new BinanceError(-2010, 'Duplicate order sent.', 400, 'hint_requestIdReused'),
  notPermitted: () =>
    new BinanceError(
      -2010,
      'This symbol is not permitted for this account.',
      400,
      'hint_positionTypeUnavailable',
    ),
  unknownOrder: (hint = 'hint_orderNotFound') =>
    new BinanceError(-2011, 'Unknown order sent.', 400, hint),
  cancelRestricted: () =>
    new BinanceError(
      -2011,
      'Order was not canceled due to cancel restrictions.',
      400,
      'hint_orderNotResting',
    ),
  noSuchOrder: () => new BinanceError(-2013, 'Order does not exist.', 400, 'hint_orderNotFound'),
  keyFormat: () => new BinanceError(-2014, 'API-key format invalid.', 401, 'hint_apiKeyHeader'),
  key: (hint: string) =>
    new BinanceError(-2015, 'Invalid API-key, IP, or permissions for action.', 401, hint),
  notFound: () => new BinanceError(-1000, 'Unknown endpoint.', 404, 'hint_notFound'),
} as const;

/** What an order call is doing when Bourse's trading refuses it. */
export type OrderStep = 'place' | 'cancel' | 'query';

/**
 * A refusal of Bourse's services in Binance's words. The trading rules Bourse shares with Binance
 * get Binance's own codes (filters, balance, symbol, duplicate client order id, unknown order);
 * any other rule of Bourse's is a rejected order (-2010) with the rule's English text.
 */
export function binanceErrorOf(error: AppError, step: OrderStep): BinanceError {
  const hint = error.key;
  switch (hint) {
    case 'hint_productUnknown':
      return refusals.symbol();
    case 'hint_positionTypeUnavailable':
      return refusals.notPermitted();
    case 'hint_productHalted':
    case 'hint_marketClosed':
      return refusals.marketClosed(hint);
    case 'hint_quantityStep':
      return refusals.filter('LOT_SIZE', hint);
    case 'hint_priceDecimals':
      return refusals.filter('PRICE_FILTER', hint);
    case 'hint_orderTooSmall':
      return refusals.filter('NOTIONAL', hint);
    case 'hint_insufficientBalance':
    case 'hint_insufficientHolding':
      return refusals.insufficientBalance(hint);
    case 'hint_requestIdReused':
      return refusals.duplicateOrder();
    case 'hint_orderNotFound':
    case 'hint_orderNotResting':
      return step === 'query' ? refusals.noSuchOrder() : refusals.unknownOrder(hint);
    case 'hint_tooManyRequests':
      return refusals.tooManyRequests();
    default:
      if (error.status === 401 || error.status === 403) return refusals.key(hint);
      if (step === 'place') return refusals.rejected(translate('en', hint, error.params), hint);
      return new BinanceError(-1000, translate('en', hint, error.params), 400, hint);
  }
}
