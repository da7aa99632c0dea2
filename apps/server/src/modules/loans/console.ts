/**
 * Loans, the console's side (finance and admin): products (created open; a change never touches a
 * loan already asked for, which carries its own copy of the terms; a product's currency is fixed
 * once it has loans), the applications' review and every loan, repayment and the report.
 *
 * Approving lends: in one transaction the loan's row is locked and found under review, the amount
 * (at most the one asked, at the currency's decimals) moves from the platform's loans account to
 * the user's available balance through the ledger, the loan becomes active from today's UTC date
 * with its due date, the audit entry and the user's notification are written. Asking for the
 * state a loan already has changes nothing (`hint_48`); the other decided state is refused.
 */
import {
  LOAN_STATUS,
  normalize,
  scaleOf,
  toScale,
  gt,
  type ConsoleLoanDetail,
  type ConsoleLoanOrder,
  type ConsoleLoanProduct,
  type LoanInterestRecord,
  type LoanProductSaveBody,
  type LoanReportRow,
  type PageQuery,
} from '@bourse/shared';
import type { Queryable } from '../../db/database';
import { mapRows } from '../../db/page';
import * as ledger from '../../ledger/ledger';
import { AppError, assert } from '../../lib/errors';
import type { Currency } from '../settings';
import type { AuditWriter } from '../wallet';
import {
  approvedNotice,
  currencyOf,
  dateOf,
  dueDateOf,
  productTerms,
  rejectedNotice,
  showConsoleOrder,
  showInterest,
  showRepayment,
  type LoansDeps,
} from './common';
import * as repo from './repo';

export interface LoanOutcome {
  record: ConsoleLoanOrder;
  /** False when the loan was already in the asked state: nothing moved ("hint_48"). */
  changed: boolean;
}

function showConsoleProduct(
  row: repo.ProductRow,
  currencies: Map<number, Currency>,
): ConsoleLoanProduct {
  const currency = currencyOf(currencies, row.currency_id);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    currencyId: row.currency_id,
    currencyName: currency.name,
    ...productTerms(row, currency),
    fields: row.fields,
    openLoans: row.open_loans ?? 0,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

export class LoansConsole {
  constructor(private readonly deps: LoansDeps) {}

  private today(): string {
    return dateOf(this.deps.clock.now());
  }

  // ------------------------------------------------------------ products

  async products(page: PageQuery): Promise<{ rows: ConsoleLoanProduct[]; total: number }> {
    const [rows, currencies] = await Promise.all([
      repo.pageProducts(this.deps.db, { all: true }, page),
      this.deps.settings.currencyMap(),
    ]);
    return mapRows(rows, (row) => showConsoleProduct(row, currencies));
  }

  private async product(q: Queryable, id: number): Promise<repo.ProductRow> {
    const row = await repo.findProduct(q, id);
    assert(row, `loans: product ${id} vanished`);
    return row;
  }

  /** Creates (no id) or changes a product; audited with what it was and is. */
  async saveProduct(
    body: LoanProductSaveBody,
    operator: { operatorId: number },
    audit: AuditWriter,
  ): Promise<ConsoleLoanProduct> {
    const currencies = await this.deps.settings.currencyMap();
    const currency = currencies.get(body.currencyId);
    if (!currency) throw new AppError('hint_currencyUnknown', 404, ['currencyId']);
    for (const field of ['minAmount', 'maxAmount'] as const)
      if (scaleOf(body[field]) > currency.scale)
        throw new AppError('hint_amountDecimals', 422, [
          currency.scale,
          currency.currencyName,
          field,
        ]);
    const values: repo.ProductValues = {
      name: body.name!,
      description: body.description ?? {},
      currencyId: body.currencyId,
      minAmount: body.minAmount,
      maxAmount: body.maxAmount,
      termDays: body.termDays,
      interestFreeDays: body.interestFreeDays,
      dailyRate: body.dailyRate,
      overdueDailyRate: body.overdueDailyRate,
      settlement: body.settlement,
      maxOpenLoans: body.maxOpenLoans,
      minIdentityLevel: body.minIdentityLevel,
      fields: body.fields.map((field) => ({
        key: field.key,
        type: field.type,
        label: field.label ?? {},
        required: field.required,
        options:
          field.type === 'choice'
            ? field.options.map((option) => ({ value: option.value, label: option.label ?? {} }))
            : [],
      })),
    };
    const now = this.deps.clock.now();
    const id = await this.deps.db.transaction(async (tx) => {
      if (body.id === undefined) {
        const created = await repo.insertProduct(tx, values, operator.operatorId, now);
        const after = await this.product(tx, created);
        await audit(tx, {
          action: 'loans.product.create',
          targetType: 'loanProduct',
          targetId: String(created),
          before: null,
          after: showConsoleProduct(after, currencies),
        });
        return created;
      }
      const before = await repo.findProduct(tx, body.id, 'FOR UPDATE');
      if (!before) throw new AppError('hint_loanProductNotFound', 404, ['id']);
      if (before.currency_id !== body.currencyId && (await repo.productHasLoans(tx, body.id)))
        throw new AppError('hint_loanCurrencyFixed', 409, ['currencyId']);
      await repo.updateProduct(tx, body.id, values, now);
      const after = await this.product(tx, body.id);
      await audit(tx, {
        action: 'loans.product.update',
        targetType: 'loanProduct',
        targetId: String(body.id),
        before: showConsoleProduct(before, currencies),
        after: showConsoleProduct(after, currencies),
      });
      return body.id;
    });
    return showConsoleProduct(await this.product(this.deps.db, id), currencies);
  }

  /** Closes a product to new applications, or opens it again; audited. */
  async setProductStatus(
    id: number,
    status: number,
    audit: AuditWriter,
  ): Promise<{ changed: boolean; product: ConsoleLoanProduct }> {
    const currencies = await this.deps.settings.currencyMap();
    const now = this.deps.clock.now();
    const changed = await this.deps.db.transaction(async (tx) => {
      const before = await repo.findProduct(tx, id, 'FOR UPDATE');
      if (!before) throw new AppError('hint_loanProductNotFound', 404, ['id']);
      if (before.status === status) return false;
      await repo.setProductStatus(tx, id, status, now);
      await audit(tx, {
        action: status === 1 ? 'loans.product.open' : 'loans.product.close',
        targetType: 'loanProduct',
        targetId: String(id),
        before: { status: before.status },
        after: { status },
      });
      return true;
    });
    return {
      changed,
      product: showConsoleProduct(await this.product(this.deps.db, id), currencies),
    };
  }

  // ------------------------------------------------------------ loans

  async orders(
    query: PageQuery & {
      status?: number;
      userId?: number;
      productId?: number;
      overdue?: boolean;
    },
  ): Promise<{ rows: ConsoleLoanOrder[]; total: number }> {
    const today = this.today();
    const [page, currencies] = await Promise.all([
      repo.pageOrders(
        this.deps.db,
        {
          status: query.status,
          userId: query.userId,
          productId: query.productId,
          overdueOn: query.overdue ? today : undefined,
        },
        query,
      ),
      this.deps.settings.currencyMap(),
    ]);
    return mapRows(page, (row) => showConsoleOrder(row, currencies, today));
  }

  async detail(id: number): Promise<ConsoleLoanDetail> {
    const today = this.today();
    const row = await repo.findOrder(this.deps.db, id);
    if (!row) throw new AppError('hint_loanNotFound', 404, ['id']);
    const [answers, repayments, history, currencies] = await Promise.all([
      repo.listAnswers(this.deps.db, id),
      repo.repaymentsOf(this.deps.db, id),
      repo.loanHistory(this.deps.db, row.user_id, id, today),
      this.deps.settings.currencyMap(),
    ]);
    const product = await repo.findProduct(this.deps.db, row.product_id);
    // In the order the product asks its fields (a field removed since comes last).
    const place = (key: string) => {
      const at = product?.fields.findIndex((field) => field.key === key) ?? -1;
      return at < 0 ? Number.MAX_SAFE_INTEGER : at;
    };
    answers.sort((a, b) => place(a.field_key) - place(b.field_key));
    return {
      order: showConsoleOrder(row, currencies, today),
      answers: answers.map((answer) => {
        const choice = product?.fields
          .find((field) => field.key === answer.field_key)
          ?.options.find((option) => option.value === answer.value);
        return {
          key: answer.field_key,
          type: answer.field_type as ConsoleLoanDetail['answers'][number]['type'],
          label: answer.label.en ?? answer.field_key,
          value:
            answer.field_type === 'choice' && choice
              ? `${choice.label.en ?? answer.value} (${answer.value})`
              : answer.value,
          image: answer.has_image,
        };
      }),
      repayments: repayments.map((repayment) => showRepayment(repayment, currencies)),
      history,
    };
  }

  /** An application's image for an operator; the view is audited in the same transaction. */
  async answerImage(id: number, key: string, audit: AuditWriter) {
    return this.deps.db.transaction(async (tx) => {
      const image = await repo.findAnswerImage(tx, id, key);
      if (!image) return null;
      await audit(tx, {
        action: 'loans.viewImage',
        targetType: 'loan',
        targetId: String(id),
        before: null,
        after: { key },
      });
      return image;
    });
  }

  async interest(
    query: PageQuery & { loanOrderId: number },
  ): Promise<{ rows: LoanInterestRecord[]; total: number }> {
    const [page, currencies] = await Promise.all([
      repo.pageInterest(this.deps.db, query.loanOrderId, query),
      this.deps.settings.currencyMap(),
    ]);
    return mapRows(page, (row) => showInterest(row, currencies));
  }

  async repayments(query: PageQuery & { loanOrderId?: number; userId?: number }) {
    const [page, currencies] = await Promise.all([
      repo.pageRepayments(this.deps.db, { loanId: query.loanOrderId, userId: query.userId }, query),
      this.deps.settings.currencyMap(),
    ]);
    return mapRows(page, (row) => ({
      ...showRepayment(row, currencies),
      userId: row.user_id,
      userAccount: row.user_account,
      book: row.book,
    }));
  }

  async report(book: 'live' | 'demo' | undefined): Promise<LoanReportRow[]> {
    const [rows, currencies] = await Promise.all([
      repo.report(this.deps.db, book, this.today()),
      this.deps.settings.currencyMap(),
    ]);
    return rows.map((row) => {
      const currency = currencyOf(currencies, row.currency_id);
      const at = (value: string) => toScale(value, currency.scale);
      return {
        book: row.book,
        currencyId: row.currency_id,
        currencyName: currency.name,
        disbursed: at(row.disbursed),
        outstanding: at(row.outstanding),
        interestDue: at(row.interest_due),
        interestEarned: at(row.interest_earned),
        principalRepaid: at(row.principal_repaid),
        activeCount: row.active_count,
        overdueCount: row.overdue_count,
        overduePrincipal: at(row.overdue_principal),
        reviewingCount: row.reviewing_count,
        repaidCount: row.repaid_count,
      };
    });
  }

  // ------------------------------------------------------------ the review

  /** Lends `amount` (at most the amount asked) of an application under review. */
  async approve(
    id: number,
    amountText: string,
    operator: { operatorId: number },
    audit: AuditWriter,
  ): Promise<LoanOutcome> {
    const found = await repo.findOrder(this.deps.db, id);
    if (!found) throw new AppError('hint_loanNotFound', 404, ['id']);
    const currencies = await this.deps.settings.currencyMap();
    const currency = currencyOf(currencies, found.currency_id);
    const amount = normalize(amountText);
    if (scaleOf(amount) > currency.scale)
      throw new AppError('hint_amountDecimals', 422, [currency.scale, currency.name, 'amount']);
    const now = this.deps.clock.now();
    const today = dateOf(now);
    const outcome = await this.deps.db.transaction(async (tx) => {
      const row = await repo.findOrder(tx, id, true);
      assert(row, `loans: loan ${id} vanished`);
      if (row.status === LOAN_STATUS.active || row.status === LOAN_STATUS.repaid)
        return { changed: false, event: null };
      if (row.status !== LOAN_STATUS.reviewing) throw new AppError('hint_reviewClosed', 409);
      if (gt(amount, row.amount))
        throw new AppError('hint_loanApproveAboveAsked', 422, [
          toScale(row.amount, currency.scale),
          currency.name,
          'amount',
        ]);
      const dueDate = dueDateOf(today, row.term_days);
      const entry = await ledger.transfer(tx, {
        book: row.book,
        type: 'loan_disburse',
        scope: 'platform',
        requestId: `loan-disburse:${row.id}`,
        refType: 'loan_order',
        refId: row.id,
        from: ledger.platform(row.currency_id, 'loans', row.user_id),
        to: ledger.user(row.user_id, row.currency_id),
        amount,
      });
      assert(!entry.duplicate, `loans: loan ${row.id} disbursed twice`);
      await repo.writeApproval(tx, row.id, {
        amount,
        startDate: today,
        dueDate,
        entryId: entry.entryId,
        operatorId: operator.operatorId,
        now,
      });
      const after = await repo.findOrder(tx, row.id);
      assert(after, `loans: loan ${row.id} vanished`);
      await audit(tx, {
        action: 'loans.approve',
        targetType: 'loan',
        targetId: String(row.id),
        before: showConsoleOrder(row, currencies, today),
        after: showConsoleOrder(after, currencies, today),
      });
      const event = approvedNotice(row, toScale(amount, currency.scale), currency.name, dueDate);
      await this.deps.notices?.record(tx, [event]);
      return { changed: true, event };
    });
    if (outcome.event) {
      this.deps.notices?.push([outcome.event]);
      this.deps.notify?.(found.user_id, 'balances', {
        book: found.book,
        currencyId: found.currency_id,
      });
    }
    return { changed: outcome.changed, record: await this.shown(id, currencies) };
  }

  /** Rejects an application under review with the reason its user reads. */
  async reject(
    id: number,
    reason: string,
    operator: { operatorId: number },
    audit: AuditWriter,
  ): Promise<LoanOutcome> {
    const currencies = await this.deps.settings.currencyMap();
    const now = this.deps.clock.now();
    const today = dateOf(now);
    const outcome = await this.deps.db.transaction(async (tx) => {
      const row = await repo.findOrder(tx, id, true);
      if (!row) throw new AppError('hint_loanNotFound', 404, ['id']);
      if (row.status === LOAN_STATUS.rejected) return { changed: false, event: null };
      if (row.status !== LOAN_STATUS.reviewing) throw new AppError('hint_reviewClosed', 409);
      await repo.writeRejection(tx, row.id, reason, operator.operatorId, now);
      const after = await repo.findOrder(tx, row.id);
      assert(after, `loans: loan ${row.id} vanished`);
      await audit(tx, {
        action: 'loans.reject',
        targetType: 'loan',
        targetId: String(row.id),
        before: showConsoleOrder(row, currencies, today),
        after: showConsoleOrder(after, currencies, today),
      });
      const currency = currencyOf(currencies, row.currency_id);
      const event = rejectedNotice(row, toScale(row.amount, currency.scale), currency.name, reason);
      await this.deps.notices?.record(tx, [event]);
      return { changed: true, event };
    });
    if (outcome.event) this.deps.notices?.push([outcome.event]);
    return { changed: outcome.changed, record: await this.shown(id, currencies) };
  }

  private async shown(id: number, currencies: Map<number, Currency>): Promise<ConsoleLoanOrder> {
    const row = await repo.findOrder(this.deps.db, id);
    assert(row, `loans: loan ${id} vanished`);
    return showConsoleOrder(row, currencies, this.today());
  }
}
