/**
 * SQL of loans: products, loans (applications and their review), the answers of applications,
 * interest day by day and repayments. Dates travel as 'YYYY-MM-DD' text (to_char), never as a
 * driver's Date of local midnight.
 */
import type { ConsoleLoanField, PageQuery } from '@bourse/shared';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';
import type { StoredImage } from '../../lib/images';

type Book = 'live' | 'demo';

// ---------------------------------------------------------------- products

export interface ProductRow {
  id: number;
  name: Record<string, string>;
  description: Record<string, string>;
  currency_id: number;
  min_amount: string;
  max_amount: string;
  term_days: number;
  interest_free_days: number;
  daily_rate: string;
  overdue_daily_rate: string;
  settlement: number;
  max_open_loans: number;
  min_identity_level: number;
  fields: ConsoleLoanField[];
  status: number;
  created_at: Date;
  updated_at: Date;
  /** Its loans under review or active (console lists). */
  open_loans?: number;
}

const PRODUCT_COLUMNS = `p.id, p.name, p.description, p.currency_id, p.min_amount, p.max_amount,
  p.term_days, p.interest_free_days, p.daily_rate, p.overdue_daily_rate, p.settlement,
  p.max_open_loans, p.min_identity_level, p.fields, p.status, p.created_at, p.updated_at`;

/** Products, open ones only unless `all`, in one currency when given: a page, newest last. */
export function pageProducts(
  q: Queryable,
  filter: { all: boolean; currencyId?: number },
  page: PageQuery,
) {
  const where = `WHERE ($1::boolean OR p.status = 1) AND ($2::int IS NULL OR p.currency_id = $2)`;
  return pageOf<ProductRow>(
    q,
    {
      rows: `SELECT ${PRODUCT_COLUMNS},
               (SELECT count(*)::int FROM loan_order o
                 WHERE o.product_id = p.id AND o.status IN (0, 1)) AS open_loans
             FROM loan_product p ${where} ORDER BY p.status DESC, p.id`,
      count: `SELECT count(*)::int AS total FROM loan_product p ${where}`,
      params: [filter.all, filter.currencyId ?? null],
    },
    page,
  );
}

export function findProduct(
  q: Queryable,
  id: number,
  lock: '' | 'FOR UPDATE' | 'FOR SHARE' = '',
): Promise<ProductRow | undefined> {
  return firstRow<ProductRow>(
    q,
    `SELECT ${PRODUCT_COLUMNS},
       (SELECT count(*)::int FROM loan_order o
         WHERE o.product_id = p.id AND o.status IN (0, 1)) AS open_loans
     FROM loan_product p WHERE p.id = $1 ${lock ? `${lock} OF p` : ''}`,
    [id],
  );
}

export interface ProductValues {
  name: Record<string, string>;
  description: Record<string, string>;
  currencyId: number;
  minAmount: string;
  maxAmount: string;
  termDays: number;
  interestFreeDays: number;
  dailyRate: string;
  overdueDailyRate: string;
  settlement: number;
  maxOpenLoans: number;
  minIdentityLevel: number;
  fields: ConsoleLoanField[];
}

function productParams(values: ProductValues): unknown[] {
  return [
    JSON.stringify(values.name),
    JSON.stringify(values.description),
    values.currencyId,
    values.minAmount,
    values.maxAmount,
    values.termDays,
    values.interestFreeDays,
    values.dailyRate,
    values.overdueDailyRate,
    values.settlement,
    values.maxOpenLoans,
    values.minIdentityLevel,
    JSON.stringify(values.fields),
  ];
}

export async function insertProduct(
  q: Queryable,
  values: ProductValues,
  operatorId: number,
  now: Date,
): Promise<number> {
  const row = await oneRow<{ id: number }>(
    q,
    `INSERT INTO loan_product (name, description, currency_id, min_amount, max_amount, term_days,
       interest_free_days, daily_rate, overdue_daily_rate, settlement, max_open_loans,
       min_identity_level, fields, status, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 1, $14, $15, $15)
     RETURNING id`,
    [...productParams(values), operatorId, now],
  );
  return row.id;
}

export async function updateProduct(
  q: Queryable,
  id: number,
  values: ProductValues,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE loan_product SET name = $2, description = $3, currency_id = $4, min_amount = $5,
       max_amount = $6, term_days = $7, interest_free_days = $8, daily_rate = $9,
       overdue_daily_rate = $10, settlement = $11, max_open_loans = $12, min_identity_level = $13,
       fields = $14, updated_at = $15
     WHERE id = $1`,
    [id, ...productParams(values), now],
  );
}

export async function setProductStatus(
  q: Queryable,
  id: number,
  status: number,
  now: Date,
): Promise<void> {
  await q.query('UPDATE loan_product SET status = $2, updated_at = $3 WHERE id = $1', [
    id,
    status,
    now,
  ]);
}

export async function productHasLoans(q: Queryable, id: number): Promise<boolean> {
  const row = await firstRow<{ found: boolean }>(
    q,
    'SELECT EXISTS (SELECT 1 FROM loan_order WHERE product_id = $1) AS found',
    [id],
  );
  return row?.found ?? false;
}

/** A user's loans under review or active, per product, in one book. */
export async function openLoansByProduct(
  q: Queryable,
  userId: number,
  book: Book,
): Promise<Map<number, number>> {
  const rows = await allRows<{ product_id: number; count: number }>(
    q,
    `SELECT product_id, count(*)::int AS count FROM loan_order
     WHERE user_id = $1 AND book = $2 AND status IN (0, 1) GROUP BY product_id`,
    [userId, book],
  );
  return new Map(rows.map((row) => [row.product_id, row.count]));
}

// ---------------------------------------------------------------- loans

export interface OrderRow {
  id: number;
  order_no: string;
  user_id: number;
  user_account: string;
  book: Book;
  product_id: number;
  product_name: Record<string, string>;
  currency_id: number;
  amount: string;
  approved_amount: string | null;
  term_days: number;
  interest_free_days: number;
  daily_rate: string;
  overdue_daily_rate: string;
  settlement: number;
  status: number;
  start_date: string | null;
  due_date: string | null;
  accrued_days: number;
  principal: string;
  interest_due: string;
  interest_accrued: string;
  interest_paid: string;
  principal_repaid: string;
  entry_id: number | null;
  reject_reason: string | null;
  request_hash: string;
  created_at: Date;
  reviewed_at: Date | null;
  repaid_at: Date | null;
  reviewer: string | null;
}

const ORDER_SELECT = `
  SELECT o.id, o.order_no, o.user_id, u.user_account, o.book, o.product_id, p.name AS product_name,
         o.currency_id, o.amount, o.approved_amount, o.term_days, o.interest_free_days,
         o.daily_rate, o.overdue_daily_rate, o.settlement, o.status,
         to_char(o.start_date, 'YYYY-MM-DD') AS start_date,
         to_char(o.due_date, 'YYYY-MM-DD') AS due_date,
         o.accrued_days, o.principal, o.interest_due, o.interest_accrued, o.interest_paid,
         o.principal_repaid, o.entry_id, o.reject_reason, o.request_hash, o.created_at,
         o.reviewed_at, o.repaid_at, r.username AS reviewer
  FROM loan_order o
  JOIN loan_product p ON p.id = o.product_id
  JOIN app_user u ON u.id = o.user_id
  LEFT JOIN operator r ON r.id = o.reviewed_by`;

/** A loan by id; `forUpdate` locks its row (not the joined ones) until the transaction ends. */
export function findOrder(
  q: Queryable,
  id: number,
  forUpdate = false,
): Promise<OrderRow | undefined> {
  return firstRow<OrderRow>(
    q,
    `${ORDER_SELECT} WHERE o.id = $1${forUpdate ? ' FOR UPDATE OF o' : ''}`,
    [id],
  );
}

export function findOrderByRequestId(
  q: Queryable,
  userId: number,
  requestId: string,
): Promise<OrderRow | undefined> {
  return firstRow<OrderRow>(q, `${ORDER_SELECT} WHERE o.user_id = $1 AND o.request_id = $2`, [
    userId,
    requestId,
  ]);
}

export interface OrderFilter {
  userId?: number;
  book?: Book;
  status?: number;
  productId?: number;
  /** Active loans whose due date is before this date. */
  overdueOn?: string;
}

export function pageOrders(q: Queryable, filter: OrderFilter, page: PageQuery) {
  const where = `WHERE ($1::bigint IS NULL OR o.user_id = $1) AND ($2::text IS NULL OR o.book = $2)
    AND ($3::int IS NULL OR o.status = $3) AND ($4::int IS NULL OR o.product_id = $4)
    AND ($5::date IS NULL OR (o.status = 1 AND o.due_date < $5::date))`;
  return pageOf<OrderRow>(
    q,
    {
      rows: `${ORDER_SELECT} ${where} ORDER BY o.id DESC`,
      count: `SELECT count(*)::int AS total FROM loan_order o ${where}`,
      params: [
        filter.userId ?? null,
        filter.book ?? null,
        filter.status ?? null,
        filter.productId ?? null,
        filter.overdueOn ?? null,
      ],
    },
    page,
  );
}

/** A user's active loans in one book (the panel), at most a few hundred. */
export function activeOrdersOf(q: Queryable, userId: number, book: Book): Promise<OrderRow[]> {
  return allRows<OrderRow>(
    q,
    `${ORDER_SELECT} WHERE o.user_id = $1 AND o.book = $2 AND o.status = 1 ORDER BY o.id LIMIT 500`,
    [userId, book],
  );
}

export async function countReviewing(q: Queryable, userId: number, book: Book): Promise<number> {
  const row = await firstRow<{ count: number }>(
    q,
    `SELECT count(*)::int AS count FROM loan_order WHERE user_id = $1 AND book = $2 AND status = 0`,
    [userId, book],
  );
  return row?.count ?? 0;
}

/** A user's loans of a product under review or active, in one book (under the user's lock). */
export async function countOpenLoans(
  q: Queryable,
  userId: number,
  book: Book,
  productId: number,
): Promise<number> {
  const row = await firstRow<{ count: number }>(
    q,
    `SELECT count(*)::int AS count FROM loan_order
     WHERE user_id = $1 AND book = $2 AND product_id = $3 AND status IN (0, 1)`,
    [userId, book, productId],
  );
  return row?.count ?? 0;
}

export interface NewOrder {
  id: number;
  orderNo: string;
  userId: number;
  book: Book;
  product: ProductRow;
  amount: string;
  requestId: string;
  requestHash: string;
  now: Date;
}

export async function insertOrder(q: Queryable, order: NewOrder): Promise<void> {
  const product = order.product;
  await q.query(
    `INSERT INTO loan_order (id, order_no, user_id, book, product_id, currency_id, amount,
       term_days, interest_free_days, daily_rate, overdue_daily_rate, settlement, status,
       request_id, request_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13, $14, $15)`,
    [
      order.id,
      order.orderNo,
      order.userId,
      order.book,
      product.id,
      product.currency_id,
      order.amount,
      product.term_days,
      product.interest_free_days,
      product.daily_rate,
      product.overdue_daily_rate,
      product.settlement,
      order.requestId,
      order.requestHash,
      order.now,
    ],
  );
}

export async function writeApproval(
  q: Queryable,
  id: number,
  approval: {
    amount: string;
    startDate: string;
    dueDate: string;
    entryId: number;
    operatorId: number;
    now: Date;
  },
): Promise<void> {
  await q.query(
    `UPDATE loan_order SET status = 1, approved_amount = $2, principal = $2, start_date = $3,
       due_date = $4, entry_id = $5, reviewed_by = $6, reviewed_at = $7
     WHERE id = $1 AND status = 0`,
    [
      id,
      approval.amount,
      approval.startDate,
      approval.dueDate,
      approval.entryId,
      approval.operatorId,
      approval.now,
    ],
  );
}

export async function writeRejection(
  q: Queryable,
  id: number,
  reason: string,
  operatorId: number,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE loan_order SET status = 3, reject_reason = $2, reviewed_by = $3, reviewed_at = $4
     WHERE id = $1 AND status = 0`,
    [id, reason, operatorId, now],
  );
}

/** What a user's other loans came to (the review's history). */
export async function loanHistory(q: Queryable, userId: number, exceptId: number, today: string) {
  const row = await firstRow<{ repaid: number; active: number; overdue: number; rejected: number }>(
    q,
    `SELECT count(*) FILTER (WHERE status = 2)::int AS repaid,
            count(*) FILTER (WHERE status = 1)::int AS active,
            count(*) FILTER (WHERE status = 1 AND due_date < $3::date)::int AS overdue,
            count(*) FILTER (WHERE status = 3)::int AS rejected
     FROM loan_order WHERE user_id = $1 AND id <> $2`,
    [userId, exceptId, today],
  );
  return row ?? { repaid: 0, active: 0, overdue: 0, rejected: 0 };
}

// ---------------------------------------------------------------- answers

export interface AnswerInput {
  key: string;
  type: string;
  label: Record<string, string>;
  value: string | null;
  image: StoredImage | null;
}

export async function insertAnswers(
  q: Queryable,
  loanId: number,
  answers: readonly AnswerInput[],
): Promise<void> {
  for (const answer of answers) {
    await q.query(
      `INSERT INTO loan_answer (loan_id, field_key, field_type, label, value, mime, width, height,
         sha256, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        loanId,
        answer.key,
        answer.type,
        JSON.stringify(answer.label),
        answer.value,
        answer.image?.mime ?? null,
        answer.image?.width ?? null,
        answer.image?.height ?? null,
        answer.image?.sha256 ?? null,
        answer.image?.data ?? null,
      ],
    );
  }
}

export interface AnswerRow {
  field_key: string;
  field_type: string;
  label: Record<string, string>;
  value: string | null;
  has_image: boolean;
}

export function listAnswers(q: Queryable, loanId: number): Promise<AnswerRow[]> {
  return allRows<AnswerRow>(
    q,
    `SELECT field_key, field_type, label, value, data IS NOT NULL AS has_image
     FROM loan_answer WHERE loan_id = $1 ORDER BY field_key`,
    [loanId],
  );
}

export function findAnswerImage(
  q: Queryable,
  loanId: number,
  key: string,
): Promise<{ mime: string; data: Uint8Array } | undefined> {
  return firstRow<{ mime: string; data: Uint8Array }>(
    q,
    `SELECT mime, data FROM loan_answer WHERE loan_id = $1 AND field_key = $2 AND data IS NOT NULL`,
    [loanId, key],
  );
}

// ---------------------------------------------------------------- interest

export interface InterestRow {
  id: number;
  loan_id: number;
  day: string;
  day_number: number;
  kind: 'free' | 'normal' | 'overdue';
  principal: string;
  rate: string;
  amount: string;
  settled: string;
  currency_id: number;
  created_at: Date;
}

export function pageInterest(q: Queryable, loanId: number, page: PageQuery) {
  return pageOf<InterestRow>(
    q,
    {
      rows: `SELECT r.id, r.loan_id, to_char(r.day, 'YYYY-MM-DD') AS day, r.day_number, r.kind,
               r.principal, r.rate, r.amount, r.settled, o.currency_id, r.created_at
             FROM loan_interest_record r JOIN loan_order o ON o.id = r.loan_id
             WHERE r.loan_id = $1 ORDER BY r.day DESC`,
      count: 'SELECT count(*)::int AS total FROM loan_interest_record WHERE loan_id = $1',
      params: [loanId],
    },
    page,
  );
}

export interface NewInterest {
  loanId: number;
  day: string;
  dayNumber: number;
  kind: string;
  principal: string;
  rate: string;
  amount: string;
}

/** Writes days of interest; a day written before is skipped. Answers the (loan, day) written. */
export async function insertInterest(
  q: Queryable,
  records: readonly NewInterest[],
  now: Date,
): Promise<{ loan_id: number; day_number: number }[]> {
  if (records.length === 0) return [];
  return allRows(
    q,
    `INSERT INTO loan_interest_record (loan_id, day, day_number, kind, principal, rate, amount,
       created_at)
     SELECT loan_id, day, day_number, kind, principal, rate, amount, $8
     FROM unnest($1::bigint[], $2::date[], $3::int[], $4::text[], $5::numeric[], $6::numeric[],
                 $7::numeric[]) AS d (loan_id, day, day_number, kind, principal, rate, amount)
     ON CONFLICT (loan_id, day) DO NOTHING
     RETURNING loan_id, day_number`,
    [
      records.map((record) => record.loanId),
      records.map((record) => record.day),
      records.map((record) => record.dayNumber),
      records.map((record) => record.kind),
      records.map((record) => record.principal),
      records.map((record) => record.rate),
      records.map((record) => record.amount),
      now,
    ],
  );
}

/** Records what a day's daily settlement took from the balance (its last day accrued). */
export async function markSettled(
  q: Queryable,
  settled: readonly { loanId: number; dayNumber: number; amount: string }[],
  entryId: number,
): Promise<void> {
  if (settled.length === 0) return;
  await q.query(
    `UPDATE loan_interest_record r SET settled = d.amount, entry_id = $4
     FROM unnest($1::bigint[], $2::int[], $3::numeric[]) AS d (loan_id, day_number, amount)
     WHERE r.loan_id = d.loan_id AND r.day_number = d.day_number`,
    [
      settled.map((item) => item.loanId),
      settled.map((item) => item.dayNumber),
      settled.map((item) => item.amount),
      entryId,
    ],
  );
}

/** Writes loans' accrual: days accrued, interest added, and what daily settlement paid of it. */
export async function writeAccruals(
  q: Queryable,
  accruals: readonly {
    loanId: number;
    accruedDays: number;
    interest: string;
    paid: string;
  }[],
): Promise<void> {
  if (accruals.length === 0) return;
  await q.query(
    `UPDATE loan_order o SET accrued_days = d.accrued_days,
       interest_accrued = o.interest_accrued + d.interest,
       interest_due = o.interest_due + d.interest - d.paid,
       interest_paid = o.interest_paid + d.paid
     FROM unnest($1::bigint[], $2::int[], $3::numeric[], $4::numeric[])
       AS d (id, accrued_days, interest, paid)
     WHERE o.id = d.id`,
    [
      accruals.map((item) => item.loanId),
      accruals.map((item) => item.accruedDays),
      accruals.map((item) => item.interest),
      accruals.map((item) => item.paid),
    ],
  );
}

// ---------------------------------------------------------------- the daily run

/**
 * Active loans with ended days not yet accrued on `day` (their days from the first date to the day
 * before), after `afterId`, in id order: one batch.
 */
export function loansToAccrue(
  q: Queryable,
  day: string,
  afterId: number,
  limit: number,
): Promise<{ id: number; user_id: number }[]> {
  return allRows(
    q,
    `SELECT id, user_id FROM loan_order
     WHERE status = 1 AND id > $2 AND accrued_days < ($1::date - start_date)
     ORDER BY id LIMIT $3`,
    [day, afterId, limit],
  );
}

/** The loans of a batch, locked, still active. */
export function lockActiveOrders(q: Queryable, ids: readonly number[]): Promise<OrderRow[]> {
  return allRows<OrderRow>(
    q,
    `${ORDER_SELECT} WHERE o.id = ANY($1::bigint[]) AND o.status = 1 ORDER BY o.id FOR UPDATE OF o`,
    [ids],
  );
}

/** Users' available balances of some currencies in one book, locked until the transaction ends. */
export async function lockAvailable(
  q: Queryable,
  book: Book,
  pairs: readonly { userId: number; currencyId: number }[],
): Promise<Map<string, string>> {
  if (pairs.length === 0) return new Map();
  const rows = await allRows<{ owner_id: number; currency_id: number; balance: string }>(
    q,
    `SELECT a.owner_id, a.currency_id, a.balance FROM ledger_account a
     JOIN unnest($2::bigint[], $3::int[]) AS d (user_id, currency_id)
       ON a.owner_id = d.user_id AND a.currency_id = d.currency_id
     WHERE a.book = $1 AND a.owner_type = 'user' AND a.kind = 'available'
     ORDER BY a.id FOR UPDATE OF a`,
    [book, pairs.map((pair) => pair.userId), pairs.map((pair) => pair.currencyId)],
  );
  return new Map(rows.map((row) => [`${row.owner_id}:${row.currency_id}`, row.balance]));
}

export interface ReminderRow {
  id: number;
  order_no: string;
  user_id: number;
  currency_id: number;
  due_date: string;
  days_to_due: number;
  start_date: string;
  accrued_days: number;
  principal: string;
  interest_due: string;
  term_days: number;
  interest_free_days: number;
  daily_rate: string;
  overdue_daily_rate: string;
}

/** Active loans due in 3 or 1 days on `day`, or past their due date: a batch after `afterId`. */
export function loansToRemind(
  q: Queryable,
  day: string,
  afterId: number,
  limit: number,
): Promise<ReminderRow[]> {
  return allRows<ReminderRow>(
    q,
    `SELECT id, order_no, user_id, currency_id, to_char(due_date, 'YYYY-MM-DD') AS due_date,
            (due_date - $1::date) AS days_to_due, to_char(start_date, 'YYYY-MM-DD') AS start_date,
            accrued_days, principal, interest_due, term_days, interest_free_days, daily_rate,
            overdue_daily_rate
     FROM loan_order
     WHERE status = 1 AND id > $2 AND (due_date - $1::date IN (3, 1) OR due_date < $1::date)
     ORDER BY id LIMIT $3`,
    [day, afterId, limit],
  );
}

// ---------------------------------------------------------------- repayments

export interface RepaymentRow {
  id: number;
  order_no: string;
  loan_id: number;
  loan_order_no: string;
  user_id: number;
  user_account: string;
  book: Book;
  currency_id: number;
  amount: string;
  interest: string;
  principal: string;
  interest_left: string;
  principal_left: string;
  entry_id: number;
  request_hash: string;
  created_at: Date;
}

const REPAYMENT_SELECT = `
  SELECT r.id, r.order_no, r.loan_id, o.order_no AS loan_order_no, r.user_id, u.user_account,
         r.book, r.currency_id, r.amount, r.interest, r.principal, r.interest_left,
         r.principal_left, r.entry_id, r.request_hash, r.created_at
  FROM loan_repayment r
  JOIN loan_order o ON o.id = r.loan_id
  JOIN app_user u ON u.id = r.user_id`;

export function findRepaymentByRequestId(
  q: Queryable,
  userId: number,
  requestId: string,
): Promise<RepaymentRow | undefined> {
  return firstRow<RepaymentRow>(
    q,
    `${REPAYMENT_SELECT} WHERE r.user_id = $1 AND r.request_id = $2`,
    [userId, requestId],
  );
}

export function findRepayment(q: Queryable, id: number): Promise<RepaymentRow | undefined> {
  return firstRow<RepaymentRow>(q, `${REPAYMENT_SELECT} WHERE r.id = $1`, [id]);
}

export interface NewRepayment {
  id: number;
  orderNo: string;
  loanId: number;
  userId: number;
  book: Book;
  currencyId: number;
  amount: string;
  interest: string;
  principal: string;
  interestLeft: string;
  principalLeft: string;
  entryId: number;
  requestId: string;
  requestHash: string;
  now: Date;
}

export async function insertRepayment(q: Queryable, row: NewRepayment): Promise<void> {
  await q.query(
    `INSERT INTO loan_repayment (id, order_no, loan_id, user_id, book, currency_id, amount,
       interest, principal, interest_left, principal_left, entry_id, request_id, request_hash,
       created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      row.id,
      row.orderNo,
      row.loanId,
      row.userId,
      row.book,
      row.currencyId,
      row.amount,
      row.interest,
      row.principal,
      row.interestLeft,
      row.principalLeft,
      row.entryId,
      row.requestId,
      row.requestHash,
      row.now,
    ],
  );
}

/** A repayment's effect on its loan: interest then principal paid, repaid in full or not. */
export async function writeRepayment(
  q: Queryable,
  loanId: number,
  paid: { interest: string; principal: string; repaid: boolean; now: Date },
): Promise<void> {
  await q.query(
    `UPDATE loan_order SET interest_due = interest_due - $2, interest_paid = interest_paid + $2,
       principal = principal - $3, principal_repaid = principal_repaid + $3,
       status = CASE WHEN $4::boolean THEN 2 ELSE status END,
       repaid_at = CASE WHEN $4::boolean THEN $5::timestamptz ELSE repaid_at END
     WHERE id = $1`,
    [loanId, paid.interest, paid.principal, paid.repaid, paid.now],
  );
}

export function pageRepayments(
  q: Queryable,
  filter: { userId?: number; book?: Book; loanId?: number },
  page: PageQuery,
) {
  const where = `WHERE ($1::bigint IS NULL OR r.user_id = $1) AND ($2::text IS NULL OR r.book = $2)
    AND ($3::bigint IS NULL OR r.loan_id = $3)`;
  return pageOf<RepaymentRow>(
    q,
    {
      rows: `${REPAYMENT_SELECT} ${where} ORDER BY r.id DESC`,
      count: `SELECT count(*)::int AS total FROM loan_repayment r ${where}`,
      params: [filter.userId ?? null, filter.book ?? null, filter.loanId ?? null],
    },
    page,
  );
}

export function repaymentsOf(q: Queryable, loanId: number): Promise<RepaymentRow[]> {
  return allRows<RepaymentRow>(
    q,
    `${REPAYMENT_SELECT} WHERE r.loan_id = $1 ORDER BY r.id DESC LIMIT 200`,
    [loanId],
  );
}

// ---------------------------------------------------------------- the report

export interface ReportRow {
  book: Book;
  currency_id: number;
  disbursed: string;
  outstanding: string;
  interest_due: string;
  interest_earned: string;
  principal_repaid: string;
  active_count: number;
  overdue_count: number;
  overdue_principal: string;
  reviewing_count: number;
  repaid_count: number;
}

export function report(q: Queryable, book: Book | undefined, today: string): Promise<ReportRow[]> {
  return allRows<ReportRow>(
    q,
    `SELECT book, currency_id,
            coalesce(sum(approved_amount) FILTER (WHERE status IN (1, 2)), 0) AS disbursed,
            coalesce(sum(principal) FILTER (WHERE status = 1), 0) AS outstanding,
            coalesce(sum(interest_due) FILTER (WHERE status = 1), 0) AS interest_due,
            coalesce(sum(interest_paid), 0) AS interest_earned,
            coalesce(sum(principal_repaid), 0) AS principal_repaid,
            count(*) FILTER (WHERE status = 1)::int AS active_count,
            count(*) FILTER (WHERE status = 1 AND due_date < $2::date)::int AS overdue_count,
            coalesce(sum(principal) FILTER (WHERE status = 1 AND due_date < $2::date), 0)
              AS overdue_principal,
            count(*) FILTER (WHERE status = 0)::int AS reviewing_count,
            count(*) FILTER (WHERE status = 2)::int AS repaid_count
     FROM loan_order WHERE ($1::text IS NULL OR book = $1)
     GROUP BY book, currency_id ORDER BY book DESC, currency_id`,
    [book ?? null, today],
  );
}
