/**
 * Loans, the user's side (issue 23): the products open to applications, applying (the product's
 * identity level and open-loan limit checked under the user's lock, the answers checked against
 * the product's fields and images re-encoded before anything is stored, the terms copied from the
 * product), the user's loans with what they owe now, their interest day by day, and repayments.
 *
 * A repayment runs under the user's lock: the loan's ended days not yet accrued are accrued first
 * (what the daily run would have done a few minutes later), then the amount pays interest due
 * first, then principal, from the available balance to the platform's loans account in one ledger
 * entry, the repayment's row in the same transaction. The same request id answers the first
 * repayment again; another repayment under it is refused.
 */
import { createHash } from 'node:crypto';
import {
  add,
  gt,
  hasForbiddenCharacters,
  isDecimalString,
  LOAN_LIMITS,
  LOAN_PRODUCT_STATUS,
  LOAN_STATUS,
  loanRepaymentSplit,
  normalize,
  parseDecimal,
  toScale,
  type LanguageKey,
  type LoanApplyBody,
  type LoanInterestRecord,
  type LoanOrder,
  type LoanPanel,
  type LoanProduct,
  type LoanRepayBody,
  type LoanRepayment,
  type PageQuery,
} from '@bourse/shared';
import type { Queryable } from '../../db/database';
import { mapRows } from '../../db/page';
import { withUserLock } from '../../db/user-lock';
import type { Actor } from '../../http/actor';
import * as ledger from '../../ledger/ledger';
import { AppError, assert } from '../../lib/errors';
import type { Currency } from '../settings';
import { fingerprint, nextId, orderNumber, parseProofImage } from '../wallet';
import {
  accrualOf,
  currencyOf,
  dateOf,
  dueNow,
  repaymentNotice,
  showInterest,
  showOrder,
  showProduct,
  showRepayment,
  type LoansDeps,
} from './common';
import * as repo from './repo';

/** Loans' order numbers: `LN` applications, `LR` repayments (orderNumber). */
const LOAN_PREFIX = 'LN';
const REPAYMENT_PREFIX = 'LR';

const hashOf = (value: string) => createHash('sha256').update(value).digest('base64url');

/** Accrues a locked active loan's ended days, in the caller's transaction; the row after it. */
export async function accrueEndedDays(
  tx: Queryable,
  row: repo.OrderRow,
  today: string,
  scale: number,
  now: Date,
): Promise<repo.OrderRow> {
  const accrual = accrualOf(row, today, scale);
  if (!accrual) return row;
  const written = await repo.insertInterest(tx, accrual.records, now);
  // accrued_days guards the days: a day written before would mean it lied.
  assert(
    written.length === accrual.records.length,
    `loans: loan ${row.id} had interest days past its accrued days`,
  );
  await repo.writeAccruals(tx, [
    { loanId: row.id, accruedDays: accrual.accruedDays, interest: accrual.interest, paid: '0' },
  ]);
  return {
    ...row,
    accrued_days: accrual.accruedDays,
    interest_due: add(row.interest_due, accrual.interest),
    interest_accrued: add(row.interest_accrued, accrual.interest),
  };
}

export class Loans {
  constructor(private readonly deps: LoansDeps) {}

  private today(): string {
    return dateOf(this.deps.clock.now());
  }

  /** Open products; for a signed-in user, their open loans of each and whether they may apply. */
  async products(
    actor: Actor | undefined,
    query: PageQuery & { currencyId?: number },
    lang: LanguageKey,
  ): Promise<{ rows: LoanProduct[]; total: number }> {
    const [page, currencies, open, levels] = await Promise.all([
      repo.pageProducts(this.deps.db, { all: false, currencyId: query.currencyId }, query),
      this.deps.settings.currencyMap(),
      actor ? repo.openLoansByProduct(this.deps.db, actor.userId, actor.book) : undefined,
      actor ? this.identityLevels(actor.userId) : undefined,
    ]);
    return mapRows(page, (row) =>
      showProduct(
        row,
        currencies,
        lang,
        actor && levels
          ? {
              openLoans: open?.get(row.id) ?? 0,
              identityMet: levels.authLevel >= Math.max(row.min_identity_level, levels.loanLevel),
            }
          : null,
      ),
    );
  }

  private async identityLevels(userId: number) {
    return (await this.deps.identityLevels?.(userId)) ?? { authLevel: -1, loanLevel: -1 };
  }

  // ------------------------------------------------------------ applying

  /**
   * An application, left for review. Refused for a product closed or unknown, an amount outside
   * its range, below the identity level it (or the loan feature) needs, beyond its open loans per
   * user, or answers that do not fit its fields.
   */
  async apply(actor: Actor, body: LoanApplyBody, lang: LanguageKey): Promise<LoanOrder> {
    const product = await repo.findProduct(this.deps.db, body.loanProductId);
    if (!product) throw new AppError('hint_loanProductNotFound', 404, ['loanProductId']);
    const amount = normalize(body.amount);
    const fields = body.fields ?? {};
    const requestHash = fingerprint({
      loanProductId: body.loanProductId,
      amount,
      fields: Object.fromEntries(
        Object.entries(fields).map(([key, value]) => [key, hashOf(value)]),
      ),
    });
    const earlier = await repo.findOrderByRequestId(this.deps.db, actor.userId, body.requestId);
    if (earlier) return this.repeated(earlier, requestHash, lang);
    if (product.status !== LOAN_PRODUCT_STATUS.open)
      throw new AppError('hint_loanProductClosed', 409, ['loanProductId']);
    const currencies = await this.deps.settings.currencyMap();
    const currency = currencies.get(product.currency_id);
    if (!currency) throw new AppError('hint_currencyUnknown', 404, ['loanProductId']);
    checkAmount(amount, product, currency);
    const levels = await this.identityLevels(actor.userId);
    const needed = Math.max(product.min_identity_level, levels.loanLevel);
    if (levels.authLevel < needed)
      throw new AppError('hint_identityRequired', 403, [needed + 1], 500);
    // Decoded and re-encoded before the transaction: nothing is stored unless every image is sound.
    const answers = await answersOf(product, fields);
    const now = this.deps.clock.now();
    const id = await this.deps.db.transaction(async (tx) => {
      await withUserLock(tx, actor.userId);
      const again = await repo.findOrderByRequestId(tx, actor.userId, body.requestId);
      if (again) return again.id;
      // The product as it is now, kept from changing until the application is written.
      const locked = await repo.findProduct(tx, product.id, 'FOR SHARE');
      if (!locked || locked.status !== LOAN_PRODUCT_STATUS.open)
        throw new AppError('hint_loanProductClosed', 409, ['loanProductId']);
      checkAmount(amount, locked, currency);
      const open = await repo.countOpenLoans(tx, actor.userId, actor.book, locked.id);
      if (open >= locked.max_open_loans)
        throw new AppError('hint_loanLimitReached', 409, [locked.max_open_loans]);
      const orderId = await nextId(tx, 'loan_order');
      await repo.insertOrder(tx, {
        id: orderId,
        orderNo: orderNumber(LOAN_PREFIX, now, orderId),
        userId: actor.userId,
        book: actor.book,
        product: locked,
        amount,
        requestId: body.requestId,
        requestHash,
        now,
      });
      await repo.insertAnswers(tx, orderId, answers);
      return orderId;
    });
    const row = await repo.findOrder(this.deps.db, id);
    assert(row, `loans: application ${id} vanished`);
    return this.repeated(row, requestHash, lang, currencies);
  }

  /** The loan a request id made, when the request asked the same (else refused). */
  private async repeated(
    row: repo.OrderRow,
    requestHash: string,
    lang: LanguageKey,
    currencies?: Map<number, Currency>,
  ): Promise<LoanOrder> {
    if (row.request_hash !== requestHash) throw new AppError('hint_requestIdReused', 409);
    return showOrder(
      row,
      currencies ?? (await this.deps.settings.currencyMap()),
      lang,
      this.today(),
    );
  }

  // ------------------------------------------------------------ the user's loans

  async orders(
    actor: Actor,
    query: PageQuery & { status?: number },
    lang: LanguageKey,
  ): Promise<{ rows: LoanOrder[]; total: number }> {
    const [page, currencies] = await Promise.all([
      repo.pageOrders(
        this.deps.db,
        { userId: actor.userId, book: actor.book, status: query.status },
        query,
      ),
      this.deps.settings.currencyMap(),
    ]);
    const today = this.today();
    return mapRows(page, (row) => showOrder(row, currencies, lang, today));
  }

  /** One of the user's loans in the session's book; another's, or the other book's, is not found. */
  private async own(actor: Actor, id: number): Promise<repo.OrderRow> {
    const row = await repo.findOrder(this.deps.db, id);
    if (!row || row.user_id !== actor.userId || row.book !== actor.book)
      throw new AppError('hint_loanNotFound', 404, ['id']);
    return row;
  }

  async order(actor: Actor, id: number, lang: LanguageKey): Promise<LoanOrder> {
    const [row, currencies] = await Promise.all([
      this.own(actor, id),
      this.deps.settings.currencyMap(),
    ]);
    return showOrder(row, currencies, lang, this.today());
  }

  async panel(actor: Actor): Promise<LoanPanel> {
    const [rows, reviewing, currencies] = await Promise.all([
      repo.activeOrdersOf(this.deps.db, actor.userId, actor.book),
      repo.countReviewing(this.deps.db, actor.userId, actor.book),
      this.deps.settings.currencyMap(),
    ]);
    const today = this.today();
    const byCurrency = new Map<number, LoanPanel['currencies'][number]>();
    let overdueCount = 0;
    let next: repo.OrderRow | undefined;
    for (const row of rows) {
      const currency = currencyOf(currencies, row.currency_id);
      const due = dueNow(row, today, currency.scale);
      const entry = byCurrency.get(row.currency_id) ?? {
        currencyId: row.currency_id,
        currencyName: currency.name,
        scale: currency.scale,
        principal: toScale('0', currency.scale),
        interestDue: toScale('0', currency.scale),
        totalDue: toScale('0', currency.scale),
      };
      entry.principal = toScale(add(entry.principal, due.principal), currency.scale);
      entry.interestDue = toScale(add(entry.interestDue, due.interest), currency.scale);
      entry.totalDue = toScale(add(entry.principal, entry.interestDue), currency.scale);
      byCurrency.set(row.currency_id, entry);
      if (row.due_date && row.due_date < today) overdueCount += 1;
      if (row.due_date && (!next || row.due_date < next.due_date!)) next = row;
    }
    return {
      currencies: [...byCurrency.values()].sort((a, b) => a.currencyId - b.currencyId),
      activeCount: rows.length,
      overdueCount,
      reviewingCount: reviewing,
      nextDueDate: next?.due_date ?? null,
      nextDueLoanId: next?.id ?? null,
    };
  }

  async interestRecords(
    actor: Actor,
    query: PageQuery & { loanOrderId: number },
  ): Promise<{ rows: LoanInterestRecord[]; total: number }> {
    await this.own(actor, query.loanOrderId).catch(() => {
      throw new AppError('hint_loanNotFound', 404, ['loanOrderId']);
    });
    const [page, currencies] = await Promise.all([
      repo.pageInterest(this.deps.db, query.loanOrderId, query),
      this.deps.settings.currencyMap(),
    ]);
    return mapRows(page, (row) => showInterest(row, currencies));
  }

  async repayments(
    actor: Actor,
    query: PageQuery & { loanOrderId?: number },
  ): Promise<{ rows: LoanRepayment[]; total: number }> {
    const [page, currencies] = await Promise.all([
      repo.pageRepayments(
        this.deps.db,
        { userId: actor.userId, book: actor.book, loanId: query.loanOrderId },
        query,
      ),
      this.deps.settings.currencyMap(),
    ]);
    return mapRows(page, (row) => showRepayment(row, currencies));
  }

  // ------------------------------------------------------------ repaying

  /**
   * Repays `amount` of a loan from the available balance: interest due first, then principal. When
   * `interestDue` is given it must be the interest due now (the figure the user confirmed).
   */
  async repay(actor: Actor, body: LoanRepayBody): Promise<LoanRepayment> {
    const amount = normalize(body.amount);
    const requestHash = fingerprint({
      loanOrderId: body.loanOrderId,
      amount,
      interestDue: body.interestDue === undefined ? null : normalize(body.interestDue),
    });
    const currencies = await this.deps.settings.currencyMap();
    const earlier = await repo.findRepaymentByRequestId(this.deps.db, actor.userId, body.requestId);
    if (earlier) return this.repeatedRepayment(earlier, requestHash, currencies);
    const loan = await this.own(actor, body.loanOrderId).catch(() => {
      throw new AppError('hint_loanNotFound', 404, ['loanOrderId']);
    });
    const currency = currencyOf(currencies, loan.currency_id);
    if (scaleOfAmount(amount) > currency.scale)
      throw new AppError('hint_amountDecimals', 422, [currency.scale, currency.name]);
    const now = this.deps.clock.now();
    const today = dateOf(now);
    const outcome = await this.deps.db.transaction(async (tx) => {
      await withUserLock(tx, actor.userId);
      const again = await repo.findRepaymentByRequestId(tx, actor.userId, body.requestId);
      if (again) return { id: again.id, event: null };
      const locked = await repo.findOrder(tx, loan.id, true);
      assert(locked, `loans: loan ${loan.id} vanished`);
      if (locked.status !== LOAN_STATUS.active) throw new AppError('hint_loanNotActive', 409);
      const row = await accrueEndedDays(tx, locked, today, currency.scale, now);
      const due = { interest: normalize(row.interest_due), principal: normalize(row.principal) };
      if (body.interestDue !== undefined && normalize(body.interestDue) !== due.interest)
        throw new AppError('hint_loanDueChanged', 409, [
          toScale(due.interest, currency.scale),
          currency.name,
        ]);
      const total = add(due.interest, due.principal);
      if (gt(amount, total))
        throw new AppError('hint_loanRepayAboveDue', 422, [
          toScale(total, currency.scale),
          currency.name,
        ]);
      const split = loanRepaymentSplit(amount, due);
      const id = await nextId(tx, 'loan_repayment');
      const entry = await ledger.transfer(tx, {
        book: row.book,
        type: 'loan_repay',
        requestId: `loan-repay:${body.requestId}`,
        scope: `user:${actor.userId}`,
        refType: 'loan_order',
        refId: row.id,
        from: ledger.user(actor.userId, row.currency_id),
        to: ledger.platform(row.currency_id, 'loans', actor.userId),
        amount,
      });
      assert(!entry.duplicate, `loans: repayment ${body.requestId} posted before its row`);
      await repo.insertRepayment(tx, {
        id,
        orderNo: orderNumber(REPAYMENT_PREFIX, now, id),
        loanId: row.id,
        userId: actor.userId,
        book: row.book,
        currencyId: row.currency_id,
        amount,
        interest: split.interest,
        principal: split.principal,
        interestLeft: split.interestLeft,
        principalLeft: split.principalLeft,
        entryId: entry.entryId,
        requestId: body.requestId,
        requestHash,
        now,
      });
      await repo.writeRepayment(tx, row.id, {
        interest: split.interest,
        principal: split.principal,
        repaid: split.repaid,
        now,
      });
      const event = repaymentNotice(
        row,
        {
          id,
          amount: toScale(amount, currency.scale),
          totalLeft: toScale(add(split.interestLeft, split.principalLeft), currency.scale),
          repaid: split.repaid,
        },
        currency.name,
      );
      await this.deps.notices?.record(tx, [event]);
      return { id, event };
    });
    if (outcome.event) {
      this.deps.notices?.push([outcome.event]);
      this.deps.notify?.(actor.userId, 'balances', {
        book: loan.book,
        currencyId: loan.currency_id,
      });
    }
    const row = await repo.findRepayment(this.deps.db, outcome.id);
    assert(row, `loans: repayment ${outcome.id} vanished`);
    return this.repeatedRepayment(row, requestHash, currencies);
  }

  private repeatedRepayment(
    row: repo.RepaymentRow,
    requestHash: string,
    currencies: Map<number, Currency>,
  ): LoanRepayment {
    if (row.request_hash !== requestHash) throw new AppError('hint_requestIdReused', 409);
    return showRepayment(row, currencies);
  }
}

function scaleOfAmount(amount: string): number {
  const point = amount.indexOf('.');
  return point < 0 ? 0 : amount.length - point - 1;
}

/** An amount within the product's range and the currency's decimals. */
function checkAmount(
  amount: string,
  product: repo.ProductRow,
  currency: { scale: number; currencyName: string },
): void {
  if (scaleOfAmount(amount) > currency.scale)
    throw new AppError('hint_amountDecimals', 422, [currency.scale, currency.currencyName]);
  if (gt(product.min_amount, amount))
    throw new AppError('hint_amountBelowMin', 422, [
      toScale(product.min_amount, currency.scale),
      currency.currencyName,
    ]);
  if (gt(amount, product.max_amount))
    throw new AppError('hint_amountAboveMax', 422, [
      toScale(product.max_amount, currency.scale),
      currency.currencyName,
    ]);
}

/**
 * The answers of an application checked against the product's fields: every required field
 * answered, no field the product does not ask, a text within its length, a number a decimal, a
 * choice one of the field's values, an image decoded and re-encoded (lib/images). A refusal names
 * the field's key.
 */
async function answersOf(
  product: repo.ProductRow,
  fields: Record<string, string>,
): Promise<repo.AnswerInput[]> {
  const known = new Map(product.fields.map((field) => [field.key, field]));
  for (const key of Object.keys(fields))
    if (!known.has(key)) throw new AppError('hint_loanFieldUnknown', 400, [key]);
  const answers: repo.AnswerInput[] = [];
  for (const field of product.fields) {
    const raw = fields[field.key];
    const value = raw?.trim() ?? '';
    if (!value) {
      if (field.required) throw new AppError('hint_loanFieldRequired', 400, [field.key]);
      continue;
    }
    const invalid = () => new AppError('hint_loanFieldInvalid', 400, [field.key]);
    const base = { key: field.key, type: field.type, label: field.label };
    if (field.type === 'image') {
      const image = await parseProofImage(raw!, 'hint_imageFormat', field.key);
      answers.push({ ...base, value: null, image });
      continue;
    }
    if (field.type === 'text') {
      if (value.length > LOAN_LIMITS.textAnswerMax || hasForbiddenCharacters(value, 'multiLine'))
        throw invalid();
      answers.push({ ...base, value, image: null });
    } else if (field.type === 'number') {
      const parsed = parseDecimal(value, { sign: 'any' });
      if (!parsed.ok || !isDecimalString(parsed.value)) throw invalid();
      answers.push({ ...base, value: parsed.value, image: null });
    } else {
      if (!field.options.some((option) => option.value === value)) throw invalid();
      answers.push({ ...base, value, image: null });
    }
  }
  return answers;
}
