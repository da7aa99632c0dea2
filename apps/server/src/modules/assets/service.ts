/** Balances of the signed-in account (live or demo book), read from the ledger. */
import {
  add,
  isZero,
  mul,
  normalize,
  sum,
  toScale,
  type BalanceValuation,
  type CurrencyBalance,
  type DecimalString,
  type HeldAsset,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { systemClock, type Clock } from '../../lib/clock';
import { AppError, assert } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import type { Currency, SettingsService } from '../settings';
import type { RateSource } from './rates';

function toBalance(currency: Currency, balance?: ledger.UserBalance): CurrencyBalance {
  const available = balance?.available ?? '0';
  const frozen = balance?.frozen ?? '0';
  return {
    currencyId: currency.id,
    currencyName: currency.currencyName,
    amount: toScale(available, currency.scale),
    frozenAmount: toScale(frozen, currency.scale),
    totalAmount: toScale(add(available, frozen), currency.scale),
  };
}

/** Results the trading products realized for a user in a book since a time, in the trade currency. */
export type RealizedResults = (
  userId: number,
  book: ledger.Book,
  since: Date,
) => Promise<DecimalString>;

/**
 * An asset a trading product holds for a user outside the ledger's balances (a spot holding):
 * what it holds (`assetName`, e.g. BTC of BTCUSDT), the quantity available and frozen, and what
 * the whole quantity is worth in the trade currency at the feed's price (null while none exists).
 */
export interface HeldOutside {
  assetName: string;
  productCode: string;
  available: DecimalString;
  frozen: DecimalString;
  value: DecimalString | null;
}

/**
 * What a trading product's open positions add to an account, in the trade currency: value held
 * outside the ledger's balances (priced holdings at market) and the unrealized result; with the
 * holdings themselves, each valued at the feed's price or unpriced (then in neither figure).
 */
export type OpenPositions = (
  userId: number,
  book: ledger.Book,
) => Promise<{ value: DecimalString; pnl: DecimalString; holdings?: HeldOutside[] }>;

export class AssetsService {
  private readonly realized: RealizedResults[] = [];
  private readonly positions: OpenPositions[] = [];

  constructor(
    private readonly db: Database,
    private readonly settings: SettingsService,
    private readonly rates: RateSource,
    private readonly clock: Clock = systemClock,
  ) {}

  /** A trading product tells the assets what it realized (fast trades, closed positions…). */
  addRealizedResults(source: RealizedResults): void {
    this.realized.push(source);
  }

  /** A trading product tells the assets what its open positions are worth. */
  addOpenPositions(source: OpenPositions): void {
    this.positions.push(source);
  }

  /** Every visible currency with the account's balance in it (zero when never used). */
  async balances(actor: Actor): Promise<CurrencyBalance[]> {
    const [currencies, balances] = await Promise.all([
      this.settings.currencies(),
      ledger.userBalances(this.db, actor.book, actor.userId),
    ]);
    const byId = new Map(balances.map((balance) => [balance.currencyId, balance]));
    return currencies.map((currency) => toBalance(currency, byId.get(currency.id)));
  }

  async balance(actor: Actor, currencyId: number): Promise<CurrencyBalance> {
    const currency = await this.settings.currency(currencyId);
    if (!currency) throw new AppError('hint_currencyUnknown', 404, ['currencyId']);
    const balances = await ledger.userBalances(this.db, actor.book, actor.userId);
    return toBalance(
      currency,
      balances.find((balance) => balance.currencyId === currencyId),
    );
  }

  /**
   * THE total of the account (every screen that shows a total reads this): in the default trade
   * currency at the live prices read now, every currency's balance (available and frozen), the
   * margin of open positions, spot holdings at market and the open positions' unrealized result.
   * It is read-only arithmetic over the ledger's balances and the trading products' holdings at
   * the feed's prices: an asset without a price is listed with its amounts, valued null, named in
   * `unpricedCurrencies` and left out of the total, never valued at an invented price.
   */
  async valuation(actor: Actor): Promise<BalanceValuation> {
    const tradeCurrencyId = (await this.settings.otherValue()).default_trade_currency_id;
    const tradeCurrency = await this.settings.currency(tradeCurrencyId);
    assert(tradeCurrency, `the trade currency ${tradeCurrencyId} is not a platform currency`);
    const scale = tradeCurrency.scale;
    const now = this.clock.now();
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const [balances, margins, realized, open] = await Promise.all([
      this.balances(actor),
      ledger.userBalancesOfKind(this.db, actor.book, actor.userId, 'margin'),
      Promise.all(this.realized.map((source) => source(actor.userId, actor.book, dayStart))),
      Promise.all(this.positions.map((source) => source(actor.userId, actor.book))),
    ]);
    const names = new Map(balances.map((balance) => [balance.currencyId, balance.currencyName]));
    const unpriced = new Set<string>();
    const value = (currencyId: number, amount: DecimalString): DecimalString | null => {
      if (isZero(amount)) return '0';
      const rate = this.rates.rate(currencyId, tradeCurrencyId);
      if (rate === null) unpriced.add(names.get(currencyId) ?? String(currencyId));
      return rate === null ? null : mul(amount, rate);
    };

    const wallet: HeldAsset[] = balances.map((balance) => {
      const worth = value(balance.currencyId, balance.totalAmount);
      return {
        kind: 'wallet',
        assetName: balance.currencyName,
        currencyId: balance.currencyId,
        productCode: null,
        amount: balance.amount,
        frozenAmount: balance.frozenAmount,
        totalAmount: balance.totalAmount,
        value: worth === null ? null : toScale(worth, scale),
      };
    });
    let total = sum(
      balances.map((balance) => value(balance.currencyId, balance.totalAmount) ?? '0'),
    );
    let margin = '0';
    for (const held of margins) {
      const valued = value(held.currencyId, held.balance) ?? '0';
      margin = add(margin, valued);
      total = add(total, valued);
    }
    const spot: HeldAsset[] = open.flatMap((position) =>
      (position.holdings ?? []).map((holding) => {
        if (holding.value === null) unpriced.add(holding.assetName);
        return {
          kind: 'spot' as const,
          assetName: holding.assetName,
          currencyId: null,
          productCode: holding.productCode,
          amount: normalize(holding.available),
          frozenAmount: normalize(holding.frozen),
          totalAmount: normalize(add(holding.available, holding.frozen)),
          value: holding.value === null ? null : toScale(holding.value, scale),
        };
      }),
    );
    const unrealized = sum(open.map((position) => position.pnl));
    total = sum([total, ...open.map((position) => position.value)]);
    const today = add(sum(realized), unrealized);
    const held = (asset: HeldAsset) => !isZero(asset.totalAmount);
    return {
      currencyId: tradeCurrencyId,
      currencyName: tradeCurrency.currencyName,
      userBalanceConvert: toScale(total, scale),
      allMarginAmount: toScale(margin, scale),
      profitAndLose: toScale(unrealized, scale),
      profitAndLoseToday: toScale(today, scale),
      unpricedCurrencies: [...unpriced],
      priceTime: now.getTime(),
      assets: [
        ...wallet.filter(held),
        ...spot.filter(held),
        ...wallet.filter((asset) => !held(asset)),
      ],
    };
  }
}
