/** SQL of earn: products, their images, orders and the daily interest records. */
import type { EarnKind, PageQuery, RateTier } from '@bourse/shared';
import { allRows, firstRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';
import type { StoredImage } from '../../lib/images';

/** The same books as the ledger's. */
export type Book = 'live' | 'demo';

// ---------------------------------------------------------------- products

export interface ProductRow {
  id: number;
  kind: EarnKind;
  name: Record<string, string>;
  description: Record<string, string>;
  image_id: number | null;
  image_sha256: string | null;
  currency_id: number;
  currency_name: string;
  scale: number;
  term_days: number | null;
  daily_rate: string;
  rate_tiers: RateTier[];
  min_amount: string;
  max_amount: string | null;
  max_orders_per_user: number | null;
  capacity: string | null;
  held: string;
  min_auth_level: number;
  payout: 'daily' | 'maturity';
  compounding: boolean;
  penalty_rate: string;
  requires_review: boolean;
  status: number;
  sort: number;
  created_at: Date;
  updated_at: Date;
}

const PRODUCT_COLUMNS = `p.id, p.kind, p.name, p.description, p.image_id, i.sha256 AS image_sha256,
  p.currency_id, c.currency_name, c.scale, p.term_days, p.daily_rate::text AS daily_rate, p.rate_tiers,
  p.min_amount::text AS min_amount, p.max_amount::text AS max_amount, p.max_orders_per_user,
  p.capacity::text AS capacity, p.held::text AS held, p.min_auth_level, p.payout, p.compounding,
  p.penalty_rate::text AS penalty_rate, p.requires_review, p.status, p.sort, p.created_at, p.updated_at`;
const PRODUCT_FROM = `earn_product p JOIN platform_currency c ON c.id = p.currency_id
  LEFT JOIN earn_image i ON i.id = p.image_id`;

/** Open products of a kind, in their order (at most a page). */
export function pageOpenProducts(q: Queryable, kind: EarnKind, page: PageQuery) {
  return pageOf<ProductRow>(
    q,
    {
      rows: `SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCT_FROM}
             WHERE p.kind = $1 AND p.status = 1 ORDER BY p.sort, p.id`,
      count: `SELECT count(*)::int AS total FROM earn_product p WHERE p.kind = $1 AND p.status = 1`,
      params: [kind],
    },
    page,
  );
}

export function findProduct(
  q: Queryable,
  id: number,
  options: { kind?: EarnKind; lock?: boolean } = {},
): Promise<ProductRow | undefined> {
  return firstRow<ProductRow>(
    q,
    `SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCT_FROM}
     WHERE p.id = $1 AND ($2::text IS NULL OR p.kind = $2)${options.lock ? ' FOR UPDATE OF p' : ''}`,
    [id, options.kind ?? null],
  );
}

export interface ProductStatsRow extends ProductRow {
  active_orders: number;
  pending_orders: number;
}

export function pageProductsForConsole(
  q: Queryable,
  filter: { kind?: EarnKind; status?: number },
  page: PageQuery,
) {
  const where = `WHERE ($1::text IS NULL OR p.kind = $1) AND ($2::int IS NULL OR p.status = $2)`;
  return pageOf<ProductStatsRow>(
    q,
    {
      rows: `SELECT ${PRODUCT_COLUMNS},
               (SELECT count(*)::int FROM earn_order o WHERE o.product_id = p.id AND o.status = 1) AS active_orders,
               (SELECT count(*)::int FROM earn_order o WHERE o.product_id = p.id AND o.status = 0) AS pending_orders
             FROM ${PRODUCT_FROM} ${where} ORDER BY p.kind, p.sort, p.id`,
      count: `SELECT count(*)::int AS total FROM earn_product p ${where}`,
      params: [filter.kind ?? null, filter.status ?? null],
    },
    page,
  );
}

export async function productStats(q: Queryable, id: number): Promise<ProductStatsRow | undefined> {
  return firstRow<ProductStatsRow>(
    q,
    `SELECT ${PRODUCT_COLUMNS},
       (SELECT count(*)::int FROM earn_order o WHERE o.product_id = p.id AND o.status = 1) AS active_orders,
       (SELECT count(*)::int FROM earn_order o WHERE o.product_id = p.id AND o.status = 0) AS pending_orders
     FROM ${PRODUCT_FROM} WHERE p.id = $1`,
    [id],
  );
}

export interface ProductValues {
  kind: EarnKind;
  name: Record<string, string>;
  description: Record<string, string>;
  imageId: number | null;
  currencyId: number;
  termDays: number | null;
  dailyRate: string;
  rateTiers: RateTier[];
  minAmount: string;
  maxAmount: string | null;
  maxOrdersPerUser: number | null;
  capacity: string | null;
  minAuthLevel: number;
  payout: 'daily' | 'maturity';
  compounding: boolean;
  penaltyRate: string;
  requiresReview: boolean;
  sort: number;
}

function productParams(values: ProductValues): unknown[] {
  return [
    values.kind,
    JSON.stringify(values.name),
    JSON.stringify(values.description),
    values.imageId,
    values.currencyId,
    values.termDays,
    values.dailyRate,
    JSON.stringify(values.rateTiers),
    values.minAmount,
    values.maxAmount,
    values.maxOrdersPerUser,
    values.capacity,
    values.minAuthLevel,
    values.payout,
    values.compounding,
    values.penaltyRate,
    values.requiresReview,
    values.sort,
  ];
}

export async function insertProduct(
  q: Queryable,
  values: ProductValues,
  operatorId: number,
  now: Date,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO earn_product (kind, name, description, image_id, currency_id, term_days, daily_rate,
       rate_tiers, min_amount, max_amount, max_orders_per_user, capacity, min_auth_level, payout,
       compounding, penalty_rate, requires_review, sort, created_by, created_at, updated_at)
     VALUES ($1, $2::jsonb, $3::jsonb, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15,
       $16, $17, $18, $19, $20, $20)
     RETURNING id`,
    [...productParams(values), operatorId, now],
  );
  return rows[0]!.id;
}

export async function updateProduct(
  q: Queryable,
  id: number,
  values: ProductValues,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE earn_product SET kind = $1, name = $2::jsonb, description = $3::jsonb, image_id = $4,
       currency_id = $5, term_days = $6, daily_rate = $7, rate_tiers = $8::jsonb, min_amount = $9,
       max_amount = $10, max_orders_per_user = $11, capacity = $12, min_auth_level = $13,
       payout = $14, compounding = $15, penalty_rate = $16, requires_review = $17, sort = $18,
       updated_at = $20
     WHERE id = $19`,
    [...productParams(values), id, now],
  );
}

/** Opens or closes a product; false when it had that status already. */
export async function setProductStatus(
  q: Queryable,
  id: number,
  status: number,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE earn_product SET status = $2, updated_at = $3 WHERE id = $1 AND status <> $2',
    [id, status, now],
  );
  return rowCount > 0;
}

/** Raises (or, negative, lowers) what the products' live orders hold, several at once. */
export async function changeHeld(
  q: Queryable,
  changes: readonly { productId: number; amount: string }[],
): Promise<void> {
  if (changes.length === 0) return;
  await q.query(
    `UPDATE earn_product p SET held = p.held + d.amount
     FROM (SELECT id, sum(amount) AS amount FROM unnest($1::int[], $2::numeric[]) AS u (id, amount)
           GROUP BY id) d
     WHERE p.id = d.id`,
    [changes.map((change) => change.productId), changes.map((change) => change.amount)],
  );
}

/** Locks products in id order (before any ledger account: see the service's lock order). */
export async function lockProducts(q: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query('SELECT id FROM earn_product WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [
    [...new Set(ids)],
  ]);
}

// ---------------------------------------------------------------- images

export async function insertImage(q: Queryable, image: StoredImage, now: Date): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO earn_image (mime, width, height, sha256, data, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [image.mime, image.width, image.height, image.sha256, image.data, now],
  );
  return rows[0]!.id;
}

export function image(q: Queryable, id: number) {
  return firstRow<{ mime: string; sha256: string; data: Uint8Array }>(
    q,
    'SELECT mime, sha256, data FROM earn_image WHERE id = $1',
    [id],
  );
}

/** Drops an image no product names any more. */
export async function deleteImageIfUnused(q: Queryable, id: number): Promise<void> {
  await q.query(
    `DELETE FROM earn_image i WHERE i.id = $1
       AND NOT EXISTS (SELECT 1 FROM earn_product p WHERE p.image_id = i.id)`,
    [id],
  );
}

// ---------------------------------------------------------------- currencies and users

/** A currency, hidden ones included (a product names any). */
export function findCurrency(q: Queryable, id: number) {
  return firstRow<{ scale: number; currency_name: string }>(
    q,
    'SELECT scale, currency_name FROM platform_currency WHERE id = $1',
    [id],
  );
}

export async function userAuthLevel(q: Queryable, userId: number): Promise<number> {
  const row = await firstRow<{ auth_level: number }>(
    q,
    'SELECT auth_level FROM app_user WHERE id = $1',
    [userId],
  );
  return row?.auth_level ?? -1;
}

export async function findUserId(q: Queryable, account: string): Promise<number | undefined> {
  const row = await firstRow<{ id: number }>(
    q,
    `SELECT id FROM app_user WHERE user_account = $1
       OR (id::text = $1 AND $1 ~ '^[0-9]{1,18}$') LIMIT 1`,
    [account],
  );
  return row?.id;
}

// ---------------------------------------------------------------- orders

export interface OrderRow {
  id: number;
  order_no: string;
  kind: EarnKind;
  product_id: number;
  user_id: number;
  user_account?: string;
  book: Book;
  currency_id: number;
  currency_name: string;
  scale: number;
  product_name: Record<string, string>;
  image_id: number | null;
  image_sha256: string | null;
  principal: string;
  balance: string;
  daily_rate: string;
  term_days: number | null;
  payout: 'daily' | 'maturity';
  compounding: boolean;
  penalty_rate: string;
  expected_interest: string | null;
  carry: string;
  interest_paid: string;
  interest_accrued: string;
  days_accrued: number;
  first_day: string | null;
  end_day: string | null;
  status: number;
  penalty: string | null;
  returned: string | null;
  reject_reason: string | null;
  reviewed_at: Date | null;
  redeem_request_id: string | null;
  request_hash: string;
  created_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
}

const ORDER_COLUMNS = `o.id, o.order_no, o.kind, o.product_id, o.user_id, o.book, o.currency_id,
  c.currency_name, o.scale, p.name AS product_name, p.image_id, i.sha256 AS image_sha256,
  o.principal::text AS principal, o.balance::text AS balance, o.daily_rate::text AS daily_rate,
  o.term_days, o.payout, o.compounding, o.penalty_rate::text AS penalty_rate,
  o.expected_interest::text AS expected_interest, o.carry::text AS carry,
  o.interest_paid::text AS interest_paid, o.interest_accrued::text AS interest_accrued,
  o.days_accrued, o.first_day::text AS first_day, o.end_day::text AS end_day, o.status,
  o.penalty::text AS penalty, o.returned::text AS returned, o.reject_reason, o.reviewed_at,
  o.redeem_request_id, o.request_hash, o.created_at, o.started_at, o.ended_at`;
const ORDER_FROM = `earn_order o JOIN earn_product p ON p.id = o.product_id
  JOIN platform_currency c ON c.id = o.currency_id LEFT JOIN earn_image i ON i.id = p.image_id`;

export function findOrder(
  q: Queryable,
  id: number,
  options: { lock?: boolean } = {},
): Promise<OrderRow | undefined> {
  return firstRow<OrderRow>(
    q,
    `SELECT ${ORDER_COLUMNS}, u.user_account FROM ${ORDER_FROM} JOIN app_user u ON u.id = o.user_id
     WHERE o.id = $1${options.lock ? ' FOR UPDATE OF o' : ''}`,
    [id],
  );
}

export function pageUserOrders(
  q: Queryable,
  filter: { userId: number; kind: EarnKind; book: Book; status?: number },
  page: PageQuery,
) {
  const where = `WHERE o.user_id = $1 AND o.kind = $2 AND o.book = $3
    AND ($4::int IS NULL OR o.status = $4)`;
  return pageOf<OrderRow>(
    q,
    {
      rows: `SELECT ${ORDER_COLUMNS} FROM ${ORDER_FROM} ${where} ORDER BY o.id DESC`,
      count: `SELECT count(*)::int AS total FROM earn_order o ${where}`,
      params: [filter.userId, filter.kind, filter.book, filter.status ?? null],
    },
    page,
  );
}

export function pageConsoleOrders(
  q: Queryable,
  filter: { status?: number; kind?: EarnKind; productId?: number; userId?: number },
  page: PageQuery,
) {
  const where = `WHERE ($1::int IS NULL OR o.status = $1) AND ($2::text IS NULL OR o.kind = $2)
    AND ($3::int IS NULL OR o.product_id = $3) AND ($4::bigint IS NULL OR o.user_id = $4)`;
  return pageOf<OrderRow>(
    q,
    {
      // The review queue (status 0) oldest first: the first in is the first decided.
      rows: `SELECT ${ORDER_COLUMNS}, u.user_account FROM ${ORDER_FROM}
             JOIN app_user u ON u.id = o.user_id ${where}
             ORDER BY CASE WHEN $1::int = 0 THEN o.id END, o.id DESC`,
      count: `SELECT count(*)::int AS total FROM earn_order o ${where}`,
      params: [
        filter.status ?? null,
        filter.kind ?? null,
        filter.productId ?? null,
        filter.userId ?? null,
      ],
    },
    page,
  );
}

/** How many open (pending or active) orders of each product a user holds in a book. */
export async function openOrderCounts(
  q: Queryable,
  userId: number,
  book: Book,
  productIds: readonly number[],
): Promise<Map<number, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await allRows<{ product_id: number; count: number }>(
    q,
    `SELECT product_id, count(*)::int AS count FROM earn_order
     WHERE user_id = $1 AND book = $2 AND status IN (0, 1) AND product_id = ANY($3::int[])
     GROUP BY product_id`,
    [userId, book, [...productIds]],
  );
  return new Map(rows.map((row) => [row.product_id, row.count]));
}

export interface NewOrder {
  id: number;
  orderNo: string;
  kind: EarnKind;
  productId: number;
  userId: number;
  book: Book;
  currencyId: number;
  scale: number;
  requestId: string;
  requestHash: string;
  principal: string;
  dailyRate: string;
  termDays: number | null;
  payout: 'daily' | 'maturity';
  compounding: boolean;
  penaltyRate: string;
  expectedInterest: string | null;
  firstDay: string | null;
  endDay: string | null;
  status: number;
  buyEntryId: number;
  now: Date;
}

export async function insertOrder(q: Queryable, order: NewOrder): Promise<void> {
  await q.query(
    `INSERT INTO earn_order (id, order_no, kind, product_id, user_id, book, currency_id, scale,
       request_id, request_hash, principal, balance, daily_rate, term_days, payout, compounding,
       penalty_rate, expected_interest, first_day, end_day, status, buy_entry_id, created_at,
       started_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13, $14, $15, $16, $17,
       $18::date, $19::date, $20::smallint, $21, $22, CASE WHEN $20::smallint = 1 THEN $22::timestamptz END)`,
    [
      order.id,
      order.orderNo,
      order.kind,
      order.productId,
      order.userId,
      order.book,
      order.currencyId,
      order.scale,
      order.requestId,
      order.requestHash,
      order.principal,
      order.dailyRate,
      order.termDays,
      order.payout,
      order.compounding,
      order.penaltyRate,
      order.expectedInterest,
      order.firstDay,
      order.endDay,
      order.status,
      order.buyEntryId,
      order.now,
    ],
  );
}

/** The order of a user's request id, if any (a retried buy answers it). */
export function findOrderIdByRequest(q: Queryable, userId: number, requestId: string) {
  return firstRow<{ id: number }>(
    q,
    'SELECT id FROM earn_order WHERE user_id = $1 AND request_id = $2',
    [userId, requestId],
  );
}

export async function markRedeemed(
  q: Queryable,
  id: number,
  values: { penalty: string; returned: string; entryId: number; requestId: string; now: Date },
): Promise<void> {
  await q.query(
    `UPDATE earn_order SET status = 4, penalty = $2, returned = $3, end_entry_id = $4,
       redeem_request_id = $5, ended_at = $6
     WHERE id = $1`,
    [id, values.penalty, values.returned, values.entryId, values.requestId, values.now],
  );
}

export async function markApproved(
  q: Queryable,
  id: number,
  values: { firstDay: string; endDay: string | null; operatorId: number; now: Date },
): Promise<void> {
  await q.query(
    `UPDATE earn_order SET status = 1, first_day = $2::date, end_day = $3::date, reviewed_by = $4,
       reviewed_at = $5, started_at = $5
     WHERE id = $1`,
    [id, values.firstDay, values.endDay, values.operatorId, values.now],
  );
}

export async function markRejected(
  q: Queryable,
  id: number,
  values: { reason: string; entryId: number; operatorId: number; now: Date },
): Promise<void> {
  await q.query(
    `UPDATE earn_order SET status = 3, reject_reason = $2, end_entry_id = $3,
       reviewed_by = $4, reviewed_at = $5, ended_at = $5
     WHERE id = $1`,
    [id, values.reason, values.entryId, values.operatorId, values.now],
  );
}

export interface AnalysisRow {
  currency_id: number;
  currency_name: string;
  scale: number;
  active: number;
  pending: number;
  held: string;
  interest_paid: string;
  interest_accrued: string;
  next_interest: string;
}

/** A user's orders of a kind in a book, summed per currency (the analysis). */
export function analysis(q: Queryable, userId: number, kind: EarnKind, book: Book) {
  return allRows<AnalysisRow>(
    q,
    `SELECT o.currency_id, c.currency_name, c.scale,
       count(*) FILTER (WHERE o.status = 1)::int AS active,
       count(*) FILTER (WHERE o.status = 0)::int AS pending,
       coalesce(sum(o.balance) FILTER (WHERE o.status IN (0, 1)), 0)::text AS held,
       coalesce(sum(o.interest_paid), 0)::text AS interest_paid,
       coalesce(sum(o.interest_accrued) FILTER (WHERE o.status = 1), 0)::text AS interest_accrued,
       coalesce(sum(trunc(o.balance * o.daily_rate + o.carry, o.scale))
         FILTER (WHERE o.status = 1), 0)::text AS next_interest
     FROM earn_order o JOIN platform_currency c ON c.id = o.currency_id
     WHERE o.user_id = $1 AND o.kind = $2 AND o.book = $3
     GROUP BY o.currency_id, c.currency_name, c.scale, c.sort
     ORDER BY c.sort, o.currency_id`,
    [userId, kind, book],
  );
}

export interface InterestRow {
  order_id: number;
  order_no: string;
  day: string;
  amount: string;
  balance: string;
  credited: 'available' | 'stake' | 'maturity';
  entry_id: number | null;
  currency_name: string;
  scale: number;
  created_at: Date;
}

export function pageInterest(
  q: Queryable,
  filter: { userId: number; kind: EarnKind; book: Book; orderId?: number },
  page: PageQuery,
) {
  const where = `WHERE o.user_id = $1 AND o.kind = $2 AND o.book = $3
    AND ($4::bigint IS NULL OR o.id = $4)`;
  return pageOf<InterestRow>(
    q,
    {
      rows: `SELECT r.order_id, o.order_no, r.day::text AS day, r.amount::text AS amount,
               r.balance::text AS balance, r.credited, r.entry_id, c.currency_name, o.scale, r.created_at
             FROM earn_interest r JOIN earn_order o ON o.id = r.order_id
             JOIN platform_currency c ON c.id = o.currency_id
             ${where} ORDER BY r.day DESC, r.order_id DESC`,
      count: `SELECT count(*)::int AS total FROM earn_interest r
              JOIN earn_order o ON o.id = r.order_id ${where}`,
      params: [filter.userId, filter.kind, filter.book, filter.orderId ?? null],
    },
    page,
  );
}

export interface ReportRow {
  id: number;
  kind: EarnKind;
  name: Record<string, string>;
  currency_id: number;
  currency_name: string;
  scale: number;
  status: number;
  pending: number;
  active: number;
  completed: number;
  redeemed: number;
  held: string;
  interest_paid: string;
  interest_accrued: string;
  penalties: string;
}

/** Per product: its orders in a book by status and what they hold, earned and paid. */
export function report(q: Queryable, book: Book) {
  return allRows<ReportRow>(
    q,
    `SELECT p.id, p.kind, p.name, p.currency_id, c.currency_name, c.scale, p.status,
       count(o.id) FILTER (WHERE o.status = 0)::int AS pending,
       count(o.id) FILTER (WHERE o.status = 1)::int AS active,
       count(o.id) FILTER (WHERE o.status = 2)::int AS completed,
       count(o.id) FILTER (WHERE o.status = 4)::int AS redeemed,
       coalesce(sum(o.balance) FILTER (WHERE o.status IN (0, 1)), 0)::text AS held,
       coalesce(sum(o.interest_paid), 0)::text AS interest_paid,
       coalesce(sum(o.interest_accrued) FILTER (WHERE o.status = 1), 0)::text AS interest_accrued,
       coalesce(sum(o.penalty), 0)::text AS penalties
     FROM earn_product p JOIN platform_currency c ON c.id = p.currency_id
     LEFT JOIN earn_order o ON o.product_id = p.id AND o.book = $1
     GROUP BY p.id, c.currency_name, c.scale
     ORDER BY p.kind, p.sort, p.id`,
    [book],
  );
}

// ---------------------------------------------------------------- the daily job

/** The day's interest of an order, as worked out in SQL: the same figure as earn.ts accrueDay. */
const DAY_INTEREST = 'trunc(o.balance * o.daily_rate + o.carry, o.scale)';
const DAY_EXACT = '(o.balance * o.daily_rate + o.carry)';
/** Interest held for payment at maturity (not compounding, paid at maturity). */
const HELD = "(o.payout = 'maturity' AND NOT o.compounding)";
const ENDS = '(o.end_day IS NOT NULL AND o.end_day = $1::date)';

/** An order whose interest of the day was accrued, as it stands after the day. */
export interface AccruedRow {
  id: number;
  order_no: string;
  user_id: number;
  book: Book;
  currency_id: number;
  currency_name: string;
  scale: number;
  product_id: number;
  kind: EarnKind;
  principal: string;
  /** The stake after the day (with the day's interest when compounding). */
  balance: string;
  /** The stake the day's interest was worked out on. */
  base: string;
  /** The day's interest. */
  interest: string;
  credited: 'available' | 'stake' | 'maturity';
  /** Paid to the available balance today: the day's interest, or all of it at maturity. */
  paid_now: string;
  interest_paid: string;
  /** The day was its last: the order is completed (status 2). */
  completed: boolean;
}

/**
 * Accrues `day` for the next `limit` active orders after `afterId` whose interest days include it
 * and that have not accrued it yet (`last_day` before it), in one statement: each order's day's
 * interest (trunc(balance × rate + carry, scale)) and remainder, its stake (compounding), what it
 * has paid or holds for maturity, and, on its last day, its completion. The UPDATE locks each row
 * it changes; a row a redemption changed meanwhile is checked again under the lock and left out
 * once no longer active, so a day is accrued once per order whatever runs at the same time.
 */
export function accrueDue(
  q: Queryable,
  day: string,
  now: Date,
  afterId: number,
  limit: number,
): Promise<AccruedRow[]> {
  return allRows<AccruedRow>(
    q,
    `WITH picked AS (
       SELECT id FROM earn_order
       WHERE status = 1 AND id > $2 AND first_day <= $1::date
         AND (end_day IS NULL OR end_day >= $1::date)
         AND (last_day IS NULL OR last_day < $1::date)
       ORDER BY id
       LIMIT $3
     )
     UPDATE earn_order o SET
       last_interest = ${DAY_INTEREST},
       carry = ${DAY_EXACT} - ${DAY_INTEREST},
       balance = CASE WHEN o.compounding THEN o.balance + ${DAY_INTEREST} ELSE o.balance END,
       interest_paid = o.interest_paid + CASE
         WHEN NOT ${HELD} THEN ${DAY_INTEREST}
         WHEN ${ENDS} THEN o.interest_accrued + ${DAY_INTEREST}
         ELSE 0 END,
       interest_accrued = CASE WHEN ${HELD} THEN o.interest_accrued + ${DAY_INTEREST}
                               ELSE o.interest_accrued END,
       days_accrued = o.days_accrued + 1,
       last_day = $1::date,
       status = CASE WHEN ${ENDS} THEN 2 ELSE 1 END,
       returned = CASE WHEN ${ENDS} THEN
         CASE WHEN o.compounding THEN o.balance + ${DAY_INTEREST} ELSE o.balance END
         ELSE o.returned END,
       ended_at = CASE WHEN ${ENDS} THEN $4::timestamptz ELSE o.ended_at END
     FROM picked
     WHERE o.id = picked.id AND o.status = 1 AND (o.last_day IS NULL OR o.last_day < $1::date)
     RETURNING o.id, o.order_no, o.user_id, o.book, o.currency_id,
       (SELECT c.currency_name FROM platform_currency c WHERE c.id = o.currency_id) AS currency_name,
       o.scale, o.product_id, o.kind, o.principal::text AS principal, o.balance::text AS balance,
       (CASE WHEN o.compounding THEN o.balance - o.last_interest ELSE o.balance END)::text AS base,
       o.last_interest::text AS interest,
       CASE WHEN o.compounding THEN 'stake' WHEN ${HELD} THEN 'maturity' ELSE 'available' END
         AS credited,
       (CASE WHEN NOT ${HELD} THEN CASE WHEN o.compounding THEN 0 ELSE o.last_interest END
             WHEN o.status = 2 THEN o.interest_accrued ELSE 0 END)::text AS paid_now,
       o.interest_paid::text AS interest_paid,
       o.status = 2 AS completed`,
    [day, afterId, limit, now],
    { name: 'earn_accrue_due' },
  );
}

/**
 * A batch of the daily job commits without waiting for the disk: a batch lost in a crash is redone
 * whole (its records and postings are in it), and WAL order makes anything committed after it (the
 * scheduler's "day done") durable only after it.
 */
export async function commitWithoutWaiting(q: Queryable): Promise<void> {
  await q.query('SET LOCAL synchronous_commit = off');
}

/** Whether an active order after `afterId` still has the day to accrue. */
export async function anyDue(q: Queryable, day: string, afterId: number): Promise<boolean> {
  const row = await firstRow<{ id: number }>(
    q,
    `SELECT o.id FROM earn_order o
     WHERE o.status = 1 AND o.id > $2 AND o.first_day <= $1::date
       AND (o.end_day IS NULL OR o.end_day >= $1::date)
       AND (o.last_day IS NULL OR o.last_day < $1::date)
     ORDER BY o.id LIMIT 1`,
    [day, afterId],
  );
  return row !== undefined;
}

/**
 * Writes a batch's interest records, one per order and day (the key refuses a second); returns
 * how many were written.
 */
export async function insertInterest(
  q: Queryable,
  day: string,
  now: Date,
  rows: readonly {
    orderId: number;
    amount: string;
    base: string;
    credited: string;
    entryId: number | null;
  }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const { rowCount } = await q.query(
    `INSERT INTO earn_interest (order_id, day, amount, balance, credited, entry_id, created_at)
     SELECT d.order_id, $1::date, d.amount, d.base, d.credited, d.entry_id, $2
     FROM unnest($3::bigint[], $4::numeric[], $5::numeric[], $6::text[], $7::bigint[])
       AS d (order_id, amount, base, credited, entry_id)
     ON CONFLICT (order_id, day) DO NOTHING`,
    [
      day,
      now,
      rows.map((row) => row.orderId),
      rows.map((row) => row.amount),
      rows.map((row) => row.base),
      rows.map((row) => row.credited),
      rows.map((row) => row.entryId),
    ],
    { name: 'earn_insert_interest' },
  );
  return rowCount;
}

/** Names the entry that returned completed orders' stakes. */
export async function setEndEntries(
  q: Queryable,
  entries: readonly { orderId: number; entryId: number }[],
): Promise<void> {
  if (entries.length === 0) return;
  await q.query(
    `UPDATE earn_order o SET end_entry_id = d.entry_id
     FROM unnest($1::bigint[], $2::bigint[]) AS d (id, entry_id) WHERE o.id = d.id`,
    [entries.map((entry) => entry.orderId), entries.map((entry) => entry.entryId)],
  );
}
