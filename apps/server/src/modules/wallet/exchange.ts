/**
 * Currency exchange between a user's balances: a quote at the market rate with the fee and the
 * amount received, valid for EXCHANGE_QUOTE_TTL_MS, then confirmation at exactly that quote. The
 * platform's house account is the other side of every exchange; the fee goes to the fee account.
 */
import { randomBytes } from 'node:crypto';
import {
  EXCHANGE_QUOTE_TTL_MS,
  exchangeAmounts,
  isPositive,
  lt,
  neg,
  normalize,
  sub,
  toScale,
  type BalanceConvertBody,
  type ConvertRecord,
  type ExchangeQuote,
  type ExchangeQuoteQuery,
  type PageQuery,
} from '@bourse/shared';
import type { Actor } from '../../http/actor';
import { assertAmount } from '../../lib/money-assert';
import { AppError, assert } from '../../lib/errors';
import * as ledger from '../../ledger/ledger';
import { currencyIn, type Currency } from '../settings';
import { checkDecimals, requireCurrency, tellBalances, type WalletDeps } from './common';
import {
  deleteUnusedQuotes,
  findConvertRecord,
  insertConvertRecord,
  insertQuote,
  lockQuote,
  markQuoteUsed,
  pageConvertRecords,
  type ConvertRecordRow,
} from './repo';

export class Exchange {
  constructor(private readonly deps: WalletDeps) {}

  async quote(actor: Actor, query: ExchangeQuoteQuery): Promise<ExchangeQuote> {
    if (query.fromCurrencyId === query.toCurrencyId)
      throw new AppError('hint_exchangeSameCurrency', 422, ['toCurrencyId']);
    const from = await requireCurrency(this.deps.settings, query.fromCurrencyId);
    const to = await requireCurrency(this.deps.settings, query.toCurrencyId);
    const amount = normalize(query.amount);
    checkDecimals(amount, from);
    const rate = this.deps.rates.rate(from.id, to.id);
    if (rate === null || !isPositive(rate))
      throw new AppError('hint_rateUnavailable', 422, [from.currencyName, to.currencyName]);
    const feeRate = (await this.deps.settings.wallet()).exchangeFeeRate;
    // The quote's figures, by the function the app would preview them with (packages/shared).
    const { fee, receiveAmount } = exchangeAmounts(amount, { feeRate, rate }, from.scale, to.scale);
    if (!isPositive(receiveAmount)) throw new AppError('hint_exchangeTooSmall', 422, ['amount']);
    assertAmount(fee, 'exchange fee', from.scale, 'nonNegative');
    assert(lt(fee, amount), `exchange fee ${fee} is not below the amount ${amount}`);
    assertAmount(receiveAmount, 'exchange receive amount', to.scale);
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + EXCHANGE_QUOTE_TTL_MS);
    const id = randomBytes(16).toString('base64url');
    const storedRate = toScale(rate, 18);
    await insertQuote(this.deps.db, {
      id,
      userId: actor.userId,
      book: actor.book,
      fromCurrencyId: from.id,
      toCurrencyId: to.id,
      amount,
      rate: storedRate,
      feeRate,
      fee,
      receiveAmount,
      createdAt: now,
      expiresAt,
    });
    // Quotes are kept a day for the record of what was offered, then cleared.
    await deleteUnusedQuotes(this.deps.db, new Date(now.getTime() - 86_400_000));
    return {
      quoteId: id,
      fromCurrencyId: from.id,
      fromCurrencyName: from.currencyName,
      toCurrencyId: to.id,
      toCurrencyName: to.currencyName,
      amount: toScale(amount, from.scale),
      rate: normalize(storedRate),
      feeRate: normalize(feeRate),
      fee: toScale(fee, from.scale),
      receiveAmount: toScale(receiveAmount, to.scale),
      expiresAt: expiresAt.toISOString(),
    };
  }

  private toRecord(row: ConvertRecordRow, currencies: Map<number, Currency>): ConvertRecord {
    const from = currencyIn(currencies, row.from_currency_id);
    const to = currencyIn(currencies, row.to_currency_id);
    return {
      id: row.id,
      fromCurrencyId: row.from_currency_id,
      fromCurrencyName: from.currencyName,
      toCurrencyId: row.to_currency_id,
      toCurrencyName: to.currencyName,
      amount: toScale(row.amount, from.scale),
      rate: normalize(row.rate),
      fee: toScale(row.fee, from.scale),
      receiveAmount: toScale(row.receive_amount, to.scale),
      createTime: row.created_at.toISOString(),
    };
  }

  /** Exchanges at the quoted terms, once; an expired or foreign quote is refused. */
  async convert(actor: Actor, body: BalanceConvertBody): Promise<ConvertRecord> {
    const book = actor.book;
    const currencies = await this.deps.settings.currencyMap();
    const previous = await this.byRequestId(actor.userId, body.requestId, currencies);
    if (previous) {
      if (previous.quoteId !== body.quoteId) throw new AppError('hint_requestIdReused', 409);
      return previous.record;
    }
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      const quote = await lockQuote(tx, body.quoteId, actor.userId, book);
      if (!quote) throw new AppError('hint_quoteNotFound', 404, ['quoteId']);
      if (quote.used_at) throw new AppError('hint_quoteUsed', 409);
      if (quote.expires_at.getTime() < now.getTime()) throw new AppError('hint_quoteExpired', 422);
      const amount = normalize(quote.amount);
      const fee = normalize(quote.fee);
      const receive = normalize(quote.receive_amount);
      const postings: ledger.PostingInput[] = [
        { account: ledger.user(actor.userId, quote.from_currency_id), amount: neg(amount) },
        {
          account: ledger.platform(quote.from_currency_id, 'house'),
          amount: sub(amount, fee),
        },
        { account: ledger.platform(quote.to_currency_id, 'house'), amount: neg(receive) },
        { account: ledger.user(actor.userId, quote.to_currency_id), amount: receive },
      ];
      if (isPositive(fee))
        postings.push({ account: ledger.platform(quote.from_currency_id, 'fees'), amount: fee });
      const entry = await ledger.post(tx, {
        book,
        type: 'exchange',
        requestId: `exchange:${body.requestId}`,
        refType: 'exchange_quote',
        refId: quote.id,
        postings,
      });
      await markQuoteUsed(tx, quote.id, now);
      await insertConvertRecord(tx, {
        userId: actor.userId,
        book,
        quoteId: quote.id,
        fromCurrencyId: quote.from_currency_id,
        toCurrencyId: quote.to_currency_id,
        amount,
        rate: quote.rate,
        fee,
        receiveAmount: receive,
        entryId: entry.entryId,
        requestId: body.requestId,
        createdAt: now,
      });
    });
    const done = await this.byRequestId(actor.userId, body.requestId, currencies);
    if (!done) throw new AppError('hint_requestIdReused', 409);
    tellBalances(
      this.deps,
      actor.userId,
      book,
      done.record.fromCurrencyId,
      done.record.toCurrencyId,
    );
    return done.record;
  }

  private async byRequestId(
    userId: number,
    requestId: string,
    currencies: Map<number, Currency>,
  ): Promise<{ quoteId: string; record: ConvertRecord } | null> {
    const row = await findConvertRecord(this.deps.db, userId, requestId);
    return row ? { quoteId: row.quote_id, record: this.toRecord(row, currencies) } : null;
  }

  async list(actor: Actor, query: PageQuery) {
    const [{ rows, total }, currencies] = await Promise.all([
      pageConvertRecords(this.deps.db, actor.userId, actor.book, query),
      this.deps.settings.currencyMap(),
    ]);
    return { rows: rows.map((row) => this.toRecord(row, currencies)), total };
  }
}
