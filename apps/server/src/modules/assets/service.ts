/** Balances of the signed-in account (live or demo book), read from the ledger. */
import {
  add,
  isZero,
  mul,
  sum,
  toScale,
  type BalanceValuation,
  type CurrencyBalance,
  type DecimalString,
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
 * What a trading product's open positions add to an account, in the trade currency: value held
 * outside the ledger's balances (holdings at market) and the unrealized result.
 */
export type OpenPositions = (
  userId: number,
  book: ledger.Book,
) => Promise<{ value: DecimalString; pnl: DecimalString }>;

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

  /** The account's total value in the default trade currency at market rates. */
  async valuation(actor: Actor): Promise<BalanceValuation> {
    const tradeCurrencyId = (await this.settings.otherValue()).default_trade_currency_id;
    const tradeCurrency = await this.settings.currency(tradeCurrencyId);
    assert(tradeCurrency, `the trade currency ${tradeCurrencyId} is not a platform currency`);
    const [balances, margins] = await Promise.all([
      this.balances(actor),
      ledger.userBalancesOfKind(this.db, actor.book, actor.userId, 'margin'),
    ]);
    const names = new Map(balances.map((balance) => [balance.currencyId, balance.currencyName]));
    let total = '0';
    let margin = '0';
    const unpriced = new Set<string>();
    const value = (currencyId: number, amount: DecimalString): DecimalString | null => {
      if (isZero(amount)) return '0';
      const rate = this.rates.rate(currencyId, tradeCurrencyId);
      if (rate === null) unpriced.add(names.get(currencyId) ?? String(currencyId));
      return rate === null ? null : mul(amount, rate);
    };
    for (const balance of balances) {
      total = add(total, value(balance.currencyId, balance.totalAmount) ?? '0');
    }
    for (const held of margins) {
      const valued = value(held.currencyId, held.balance) ?? '0';
      margin = add(margin, valued);
      total = add(total, valued);
    }
    const scale = tradeCurrency.scale;
    const now = this.clock.now();
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const [realized, open] = await Promise.all([
      Promise.all(this.realized.map((source) => source(actor.userId, actor.book, dayStart))),
      Promise.all(this.positions.map((source) => source(actor.userId, actor.book))),
    ]);
    const unrealized = sum(open.map((position) => position.pnl));
    total = sum([total, ...open.map((position) => position.value)]);
    const today = add(sum(realized), unrealized);
    return {
      currencyId: tradeCurrencyId,
      currencyName: tradeCurrency.currencyName,
      userBalanceConvert: toScale(total, scale),
      allMarginAmount: toScale(margin, scale),
      profitAndLose: toScale(unrealized, scale),
      profitAndLoseToday: toScale(today, scale),
      unpricedCurrencies: [...unpriced],
    };
  }
}
