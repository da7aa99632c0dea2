/**
 * SQL of new shares: offerings, subscriptions, the requests that made, changed or cancelled
 * them, the listed product and the allocated holdings with their lock-up.
 *
 * Lots are bigint in the database and read as text (`::text`): the service turns them into bigint.
 */
import type { PageQuery } from '@bourse/shared';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';

// ---------------------------------------------------------------- offerings

export interface OfferingRow {
  id: number;
  product_type: number;
  code: string;
  name: Record<string, string>;
  description: Record<string, string>;
  currency_id: number;
  currency_name: string;
  scale: number;
  price: string;
  lot_size: string;
  lots_offered: string;
  min_lots: string;
  max_lots: string;
  fee_rate: string;
  subscribe_start: Date;
  subscribe_end: Date;
  allocation_time: Date;
  listing_time: Date;
  lock_up_days: number;
  min_auth_level: number;
  rule: string;
  status: number;
  allocation_input: string | null;
  allocation_seed: string | null;
  allocation_result: string | null;
  lots_requested_at_close: string | null;
  lots_allocated: string | null;
  oversubscribed: boolean | null;
  allocated_at: Date | null;
  product_id: number | null;
  listed_at: Date | null;
  cancel_reason: string | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Subscriptions not cancelled. */
  subscribers: number;
  /** The lots they ask. */
  lots_requested: string;
  /** What the open ones freeze. */
  frozen: string;
}

const OFFERING_COLUMNS = `o.id, o.product_type, o.code, o.name, o.description, o.currency_id,
  c.currency_name, c.scale, o.price::text AS price, o.lot_size::text AS lot_size,
  o.lots_offered::text AS lots_offered, o.min_lots::text AS min_lots, o.max_lots::text AS max_lots,
  o.fee_rate::text AS fee_rate, o.subscribe_start, o.subscribe_end, o.allocation_time,
  o.listing_time, o.lock_up_days, o.min_auth_level, o.rule, o.status, o.allocation_input,
  o.allocation_seed, o.allocation_result, o.lots_requested::text AS lots_requested_at_close,
  o.lots_allocated::text AS lots_allocated, o.oversubscribed, o.allocated_at, o.product_id,
  o.listed_at, o.cancel_reason, o.cancelled_at, o.created_at, o.updated_at,
  coalesce(b.subscribers, 0)::int AS subscribers, coalesce(b.lots, 0)::text AS lots_requested,
  coalesce(b.frozen, 0)::text AS frozen`;

/**
 * The book of each offering: its subscriptions not cancelled (open before the allocation,
 * allocated or refunded after it), the lots they ask, what the open ones freeze.
 */
const OFFERING_FROM = `new_share_offering o JOIN platform_currency c ON c.id = o.currency_id
  LEFT JOIN LATERAL (
    SELECT count(*) AS subscribers, sum(s.lots) AS lots,
      sum(s.frozen) FILTER (WHERE s.status = 0) AS frozen
    FROM new_share_subscription s WHERE s.offering_id = o.id AND s.status IN (0, 1, 2)
  ) b ON true`;

export function findOffering(q: Queryable, id: number): Promise<OfferingRow | undefined> {
  return firstRow<OfferingRow>(
    q,
    `SELECT ${OFFERING_COLUMNS} FROM ${OFFERING_FROM} WHERE o.id = $1`,
    [id],
  );
}

/**
 * Locks an offering's row until the transaction ends: `share` for a user's subscription (many at
 * once), `update` for what changes the offering and every subscription of it (its allocation, its
 * listing, a cancel), which so waits for the subscriptions in flight and keeps new ones out.
 * False when there is no such offering.
 */
export async function lockOffering(
  q: Queryable,
  id: number,
  mode: 'update' | 'share',
): Promise<boolean> {
  const { rows } = await q.query(
    `SELECT id FROM new_share_offering WHERE id = $1 FOR ${mode === 'update' ? 'UPDATE' : 'SHARE'}`,
    [id],
  );
  return rows.length > 0;
}

/** The app's tabs: what each lists (`$2`: the time now, for the tabs that need it). */
const TAB_WHERE = {
  upcoming: 'o.status IN (0, 1, 2) AND o.subscribe_start > $2',
  // Subscribing, closed and waiting for the allocation, allocated and waiting for the listing.
  open: 'o.status IN (0, 1, 2, 3) AND o.subscribe_start <= $2',
  listed: 'o.status = 4',
  // Upcoming and open.
  current: 'o.status IN (0, 1, 2, 3)',
  all: 'true',
} as const;
export type OfferingTab = keyof typeof TAB_WHERE;

export function pageOfferings(
  q: Queryable,
  filter: { tab: OfferingTab; productType?: number; now: Date },
  page: PageQuery,
) {
  const where = `WHERE ${TAB_WHERE[filter.tab]} AND ($1::int IS NULL OR o.product_type = $1)`;
  const timed = filter.tab === 'upcoming' || filter.tab === 'open';
  // Soonest first; the listed most recently listed first.
  const order =
    filter.tab === 'listed' ? 'o.listing_time DESC, o.id DESC' : 'o.subscribe_start, o.id';
  return pageOf<OfferingRow>(
    q,
    {
      rows: `SELECT ${OFFERING_COLUMNS} FROM ${OFFERING_FROM} ${where} ORDER BY ${order}`,
      count: `SELECT count(*)::int AS total FROM new_share_offering o ${where}`,
      params: timed ? [filter.productType ?? null, filter.now] : [filter.productType ?? null],
    },
    page,
  );
}

export function pageConsoleOfferings(
  q: Queryable,
  filter: { productType?: number; status?: number },
  page: PageQuery,
) {
  const where = `WHERE ($1::int IS NULL OR o.product_type = $1)
    AND ($2::int IS NULL OR o.status = $2)`;
  return pageOf<OfferingRow>(
    q,
    {
      rows: `SELECT ${OFFERING_COLUMNS} FROM ${OFFERING_FROM} ${where} ORDER BY o.id DESC`,
      count: `SELECT count(*)::int AS total FROM new_share_offering o ${where}`,
      params: [filter.productType ?? null, filter.status ?? null],
    },
    page,
  );
}

export interface OfferingValues {
  productType: number;
  code: string;
  name: Record<string, string>;
  description: Record<string, string>;
  currencyId: number;
  price: string;
  lotSize: string;
  lotsOffered: string;
  minLots: string;
  maxLots: string;
  feeRate: string;
  subscribeStart: Date;
  subscribeEnd: Date;
  allocationTime: Date;
  listingTime: Date;
  lockUpDays: number;
  minAuthLevel: number;
  rule: string;
}

function offeringParams(values: OfferingValues): unknown[] {
  return [
    values.productType,
    values.code,
    JSON.stringify(values.name),
    JSON.stringify(values.description),
    values.currencyId,
    values.price,
    values.lotSize,
    values.lotsOffered,
    values.minLots,
    values.maxLots,
    values.feeRate,
    values.subscribeStart,
    values.subscribeEnd,
    values.allocationTime,
    values.listingTime,
    values.lockUpDays,
    values.minAuthLevel,
    values.rule,
  ];
}

export async function insertOffering(
  q: Queryable,
  values: OfferingValues,
  operatorId: number,
  now: Date,
): Promise<number> {
  const row = await oneRow<{ id: number }>(
    q,
    `INSERT INTO new_share_offering (product_type, code, name, description, currency_id, price,
       lot_size, lots_offered, min_lots, max_lots, fee_rate, subscribe_start, subscribe_end,
       allocation_time, listing_time, lock_up_days, min_auth_level, rule, status, created_by,
       created_at, updated_at)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
       $17, $18, 0, $19, $20, $20)
     RETURNING id`,
    [...offeringParams(values), operatorId, now],
  );
  return row.id;
}

export async function updateOffering(
  q: Queryable,
  id: number,
  values: OfferingValues,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE new_share_offering SET product_type = $1, code = $2, name = $3::jsonb,
       description = $4::jsonb, currency_id = $5, price = $6, lot_size = $7, lots_offered = $8,
       min_lots = $9, max_lots = $10, fee_rate = $11, subscribe_start = $12, subscribe_end = $13,
       allocation_time = $14, listing_time = $15, lock_up_days = $16, min_auth_level = $17,
       rule = $18, updated_at = $20
     WHERE id = $19`,
    [...offeringParams(values), id, now],
  );
}

/** Whether a code is listed as a product of the type already, or taken by another offering. */
export async function codeTaken(
  q: Queryable,
  productType: number,
  code: string,
  exceptOfferingId: number | null,
): Promise<boolean> {
  const row = await firstRow<{ taken: boolean }>(
    q,
    `SELECT EXISTS (SELECT 1 FROM product WHERE product_type = $1 AND product_code = $2)
         OR EXISTS (SELECT 1 FROM new_share_offering WHERE product_type = $1 AND code = $2
                      AND status <> 5 AND ($3::int IS NULL OR id <> $3)) AS taken`,
    [productType, code, exceptOfferingId],
  );
  return row?.taken ?? false;
}

export async function markCancelled(
  q: Queryable,
  id: number,
  values: { reason: string; operatorId: number; now: Date },
): Promise<void> {
  await q.query(
    `UPDATE new_share_offering SET status = 5, cancel_reason = $2, cancelled_by = $3,
       cancelled_at = $4, updated_at = $4
     WHERE id = $1`,
    [id, values.reason, values.operatorId, values.now],
  );
}

/**
 * Stores the statuses the clock has reached: upcoming to subscribing at the window's start,
 * either to closed at its end. Returns how many offerings moved.
 */
export async function advancePhases(q: Queryable, now: Date): Promise<number> {
  const { rowCount } = await q.query(
    `UPDATE new_share_offering
       SET status = CASE WHEN subscribe_end <= $1 THEN 2 ELSE 1 END, updated_at = $1
     WHERE status IN (0, 1) AND subscribe_start <= $1
       AND status <> CASE WHEN subscribe_end <= $1 THEN 2 ELSE 1 END`,
    [now],
  );
  return rowCount;
}

/** Offerings whose allocation (status 2) or listing (status 3) is due at `now`, oldest first. */
export async function dueOfferings(
  q: Queryable,
  now: Date,
  limit: number,
): Promise<{ allocate: number[]; list: number[] }> {
  const rows = await allRows<{ id: number; status: number }>(
    q,
    `SELECT id, status FROM new_share_offering
     WHERE (status = 2 AND allocation_time <= $1) OR (status = 3 AND listing_time <= $1)
     ORDER BY id LIMIT $2`,
    [now, limit],
  );
  return {
    allocate: rows.filter((row) => row.status === 2).map((row) => row.id),
    list: rows.filter((row) => row.status === 3).map((row) => row.id),
  };
}

export interface AllocationValues {
  input: string;
  seed: string;
  result: string;
  lotsRequested: string;
  lotsAllocated: string;
  oversubscribed: boolean;
  now: Date;
}

export async function markAllocated(
  q: Queryable,
  id: number,
  values: AllocationValues,
): Promise<void> {
  await q.query(
    `UPDATE new_share_offering SET status = 3, allocation_input = $2, allocation_seed = $3,
       allocation_result = $4, lots_requested = $5, lots_allocated = $6, oversubscribed = $7,
       allocated_at = $8, updated_at = $8
     WHERE id = $1`,
    [
      id,
      values.input,
      values.seed,
      values.result,
      values.lotsRequested,
      values.lotsAllocated,
      values.oversubscribed,
      values.now,
    ],
  );
}

export async function markListed(
  q: Queryable,
  id: number,
  productId: number,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE new_share_offering SET status = 4, product_id = $2, listed_at = $3, updated_at = $3
     WHERE id = $1`,
    [id, productId, now],
  );
}

// ---------------------------------------------------------------- subscriptions

export interface SubscriptionRow {
  id: number;
  public_id: string;
  order_no: string;
  offering_id: number;
  user_id: number;
  user_account?: string;
  lots: string;
  frozen: string;
  hold_id: number;
  status: number;
  allocated_lots: string | null;
  paid: string | null;
  refunded: string | null;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
  // The offering's
  product_type: number;
  code: string;
  name: Record<string, string>;
  currency_name: string;
  currency_id: number;
  scale: number;
  price: string;
  lot_size: string;
  fee_rate: string;
  offering_status: number;
  subscribe_start: Date;
  subscribe_end: Date;
  listing_time: Date;
  lock_up_days: number;
  product_id: number | null;
  /** A crypto allocation's coins frozen until the lock-up ends (migration 0041); null for stocks. */
  lock_hold_id: number | null;
  unlocked_at: Date | null;
}

const SUBSCRIPTION_COLUMNS = `s.id, s.public_id, s.order_no, s.offering_id, s.user_id,
  s.lots::text AS lots, s.frozen::text AS frozen, s.hold_id, s.status,
  s.allocated_lots::text AS allocated_lots, s.paid::text AS paid, s.refunded::text AS refunded,
  s.created_at, s.updated_at, s.closed_at, o.product_type, o.code, o.name, c.currency_name,
  o.currency_id, c.scale, o.price::text AS price, o.lot_size::text AS lot_size,
  o.fee_rate::text AS fee_rate, o.status AS offering_status, o.subscribe_start, o.subscribe_end,
  o.listing_time, o.lock_up_days, o.product_id, s.lock_hold_id, s.unlocked_at`;
const SUBSCRIPTION_FROM = `new_share_subscription s
  JOIN new_share_offering o ON o.id = s.offering_id
  JOIN platform_currency c ON c.id = o.currency_id`;

export function findSubscription(
  q: Queryable,
  id: number,
  options: { lock?: boolean } = {},
): Promise<SubscriptionRow | undefined> {
  return firstRow<SubscriptionRow>(
    q,
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM ${SUBSCRIPTION_FROM}
     WHERE s.id = $1${options.lock ? ' FOR UPDATE OF s' : ''}`,
    [id],
  );
}

/** A user's open or allocated subscription of an offering, if any. */
export async function activeSubscriptionId(
  q: Queryable,
  offeringId: number,
  userId: number,
): Promise<number | undefined> {
  const row = await firstRow<{ id: number }>(
    q,
    `SELECT id FROM new_share_subscription
     WHERE offering_id = $1 AND user_id = $2 AND status IN (0, 1)`,
    [offeringId, userId],
  );
  return row?.id;
}

/**
 * A user's subscription of each offering among `offeringIds` that is not cancelled: open,
 * allocated or refunded (one at most: a user subscribes once).
 */
export async function mySubscriptionIds(
  q: Queryable,
  userId: number,
  offeringIds: readonly number[],
): Promise<Map<number, number>> {
  if (offeringIds.length === 0) return new Map();
  const rows = await allRows<{ offering_id: number; id: number }>(
    q,
    `SELECT offering_id, id FROM new_share_subscription
     WHERE user_id = $1 AND offering_id = ANY($2::int[]) AND status IN (0, 1, 2)`,
    [userId, [...offeringIds]],
  );
  return new Map(rows.map((row) => [row.offering_id, row.id]));
}

/** The public ids of a user's subscriptions of an offering (their lines in the allocation). */
export async function userPublicIds(
  q: Queryable,
  offeringId: number,
  userId: number,
): Promise<string[]> {
  const rows = await allRows<{ public_id: string }>(
    q,
    `SELECT public_id FROM new_share_subscription
     WHERE offering_id = $1 AND user_id = $2 AND status IN (1, 2) ORDER BY public_id`,
    [offeringId, userId],
  );
  return rows.map((row) => row.public_id);
}

export function pageUserSubscriptions(
  q: Queryable,
  filter: { userId: number; productType?: number },
  page: PageQuery,
) {
  const where = `WHERE s.user_id = $1 AND ($2::int IS NULL OR o.product_type = $2)`;
  return pageOf<SubscriptionRow>(
    q,
    {
      rows: `SELECT ${SUBSCRIPTION_COLUMNS} FROM ${SUBSCRIPTION_FROM} ${where} ORDER BY s.id DESC`,
      count: `SELECT count(*)::int AS total FROM new_share_subscription s
              JOIN new_share_offering o ON o.id = s.offering_id ${where}`,
      params: [filter.userId, filter.productType ?? null],
    },
    page,
  );
}

export function pageConsoleSubscriptions(
  q: Queryable,
  filter: { offeringId: number; status?: number; userId?: number },
  page: PageQuery,
) {
  const where = `WHERE s.offering_id = $1 AND ($2::int IS NULL OR s.status = $2)
    AND ($3::bigint IS NULL OR s.user_id = $3)`;
  return pageOf<SubscriptionRow>(
    q,
    {
      rows: `SELECT ${SUBSCRIPTION_COLUMNS}, u.user_account FROM ${SUBSCRIPTION_FROM}
             JOIN app_user u ON u.id = s.user_id ${where} ORDER BY s.id DESC`,
      count: `SELECT count(*)::int AS total FROM new_share_subscription s ${where}`,
      params: [filter.offeringId, filter.status ?? null, filter.userId ?? null],
    },
    page,
  );
}

export interface NewSubscription {
  id: number;
  publicId: string;
  orderNo: string;
  offeringId: number;
  userId: number;
  lots: string;
  frozen: string;
  holdId: number;
  now: Date;
}

/** Writes a subscription; false when its public id was drawn before (draw another). */
export async function insertSubscription(q: Queryable, row: NewSubscription): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO new_share_subscription (id, public_id, order_no, offering_id, user_id, lots,
       frozen, hold_id, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $9)
     ON CONFLICT (public_id) DO NOTHING`,
    [
      row.id,
      row.publicId,
      row.orderNo,
      row.offeringId,
      row.userId,
      row.lots,
      row.frozen,
      row.holdId,
      row.now,
    ],
  );
  return rowCount > 0;
}

export async function changeLots(
  q: Queryable,
  id: number,
  values: { lots: string; frozen: string; holdId: number; now: Date },
): Promise<void> {
  await q.query(
    `UPDATE new_share_subscription SET lots = $2, frozen = $3, hold_id = $4, updated_at = $5
     WHERE id = $1 AND status = 0`,
    [id, values.lots, values.frozen, values.holdId, values.now],
  );
}

/** Cancels open subscriptions (by their user, or with their offering). */
export async function markSubscriptionsCancelled(
  q: Queryable,
  ids: readonly number[],
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await q.query(
    `UPDATE new_share_subscription SET status = 3, updated_at = $2, closed_at = $2
     WHERE id = ANY($1::bigint[]) AND status = 0`,
    [[...ids], now],
  );
}

/** An offering's open subscriptions, locked in id order (the book at close, or to cancel). */
export function lockOpenSubscriptions(q: Queryable, offeringId: number) {
  return allRows<{
    id: number;
    public_id: string;
    order_no: string;
    user_id: number;
    lots: string;
    frozen: string;
    hold_id: number;
  }>(
    q,
    `SELECT id, public_id, order_no, user_id, lots::text AS lots, frozen::text AS frozen, hold_id
     FROM new_share_subscription WHERE offering_id = $1 AND status = 0
     ORDER BY id FOR UPDATE`,
    [offeringId],
  );
}

/** Writes each subscription's allocation: allocated (1) with lots, refunded (2) without. */
export async function markSubscriptionsAllocated(
  q: Queryable,
  rows: readonly { id: number; allocatedLots: string; paid: string; refunded: string }[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `UPDATE new_share_subscription s
       SET status = CASE WHEN d.allocated > 0 THEN 1 ELSE 2 END, allocated_lots = d.allocated,
           paid = d.paid, refunded = d.refunded, updated_at = $5, closed_at = $5
     FROM unnest($1::bigint[], $2::bigint[], $3::numeric[], $4::numeric[])
       AS d (id, allocated, paid, refunded)
     WHERE s.id = d.id AND s.status = 0`,
    [
      rows.map((row) => row.id),
      rows.map((row) => row.allocatedLots),
      rows.map((row) => row.paid),
      rows.map((row) => row.refunded),
      now,
    ],
  );
}

/** An offering's allocated subscriptions (what the listing makes holdings of). */
export function allocatedSubscriptions(q: Queryable, offeringId: number) {
  return allRows<{ id: number; order_no: string; user_id: number; allocated_lots: string }>(
    q,
    `SELECT id, order_no, user_id, allocated_lots::text AS allocated_lots
     FROM new_share_subscription WHERE offering_id = $1 AND status = 1 ORDER BY id`,
    [offeringId],
  );
}

// ---------------------------------------------------------------- requests

export function findRequest(q: Queryable, userId: number, requestId: string) {
  return firstRow<{ request_hash: string; subscription_id: number; action: string }>(
    q,
    `SELECT request_hash, subscription_id, action FROM new_share_request
     WHERE user_id = $1 AND request_id = $2`,
    [userId, requestId],
  );
}

export async function insertRequest(
  q: Queryable,
  values: {
    userId: number;
    requestId: string;
    hash: string;
    action: 'subscribe' | 'change' | 'cancel';
    subscriptionId: number;
    now: Date;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO new_share_request (user_id, request_id, request_hash, action, subscription_id,
       created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      values.userId,
      values.requestId,
      values.hash,
      values.action,
      values.subscriptionId,
      values.now,
    ],
  );
}

// ---------------------------------------------------------------- users and currencies

/** The user's verified level and the level the newShares feature needs (-1: none). */
export async function identityLevels(
  q: Queryable,
  userId: number,
): Promise<{ authLevel: number; featureLevel: number }> {
  const row = await firstRow<{ auth_level: number | null; min_level: number | null }>(
    q,
    `SELECT (SELECT auth_level FROM app_user WHERE id = $1) AS auth_level,
       (SELECT min_level FROM identity_requirement WHERE feature = 'newShares') AS min_level`,
    [userId],
  );
  return { authLevel: row?.auth_level ?? -1, featureLevel: row?.min_level ?? -1 };
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

// ---------------------------------------------------------------- listing

export interface NewProduct {
  productType: number;
  code: string;
  names: Record<string, string>;
  description: string;
  lotSize: string;
  priceScale: number;
  session: 'usStock' | 'crypto';
  referencePrice: string;
  volatility: string;
  dailyVolume: string;
  /** Position types it trades: spot, and coin to coin for a coin that is a wallet currency. */
  positionTypes: readonly number[];
}

/**
 * Creates the listed product: spot (position type 2), and coin to coin (3) for a coin, visible,
 * last in its type's order, fed from its code. An existing product of the code (made meanwhile by
 * a catalogue) is kept as it is; its id is answered.
 */
export async function insertProduct(q: Queryable, product: NewProduct): Promise<number> {
  const inserted = await firstRow<{ id: number }>(
    q,
    `INSERT INTO product (product_type, product_code, product_name_lang, product_desc,
       position_types, is_visible, sort, standard, price_scale, leverages, session, source_symbol,
       reference_price, volatility, daily_volume, recommended)
     VALUES ($1, $2, $3::jsonb, $4, $11::smallint[], 1,
       (SELECT coalesce(max(sort), 0) + 1 FROM product WHERE product_type = $1), $5, $6, '{1}',
       $7, $2, $8, $9, $10, 0)
     ON CONFLICT (product_type, product_code) DO NOTHING
     RETURNING id`,
    [
      product.productType,
      product.code,
      JSON.stringify(product.names),
      product.description,
      product.lotSize,
      product.priceScale,
      product.session,
      product.referencePrice,
      product.volatility,
      product.dailyVolume,
      product.positionTypes,
    ],
  );
  if (inserted) return inserted.id;
  const existing = await oneRow<{ id: number }>(
    q,
    'SELECT id FROM product WHERE product_type = $1 AND product_code = $2',
    [product.productType, product.code],
  );
  return existing.id;
}

/**
 * Adds allocated shares to the users' live spot holdings (position type 2), with their cost and
 * locked until the lock-up ends.
 */
export async function addLockedHoldings(
  q: Queryable,
  productId: number,
  rows: readonly { userId: number; quantity: string; cost: string }[],
  lockedUntil: Date,
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO holding (user_id, book, product_id, position_type, quantity, frozen_quantity, cost,
       locked_quantity, locked_until, updated_at)
     SELECT d.user_id, 'live', $1, 2, d.quantity, 0, d.cost, d.quantity, $5, $6
     FROM unnest($2::bigint[], $3::numeric[], $4::numeric[]) AS d (user_id, quantity, cost)
     ORDER BY d.user_id
     ON CONFLICT (user_id, book, position_type, product_id) DO UPDATE
       SET quantity = holding.quantity + EXCLUDED.quantity, cost = holding.cost + EXCLUDED.cost,
           locked_quantity = holding.locked_quantity + EXCLUDED.locked_quantity,
           locked_until = EXCLUDED.locked_until, updated_at = EXCLUDED.updated_at`,
    [
      productId,
      rows.map((row) => row.userId),
      rows.map((row) => row.quantity),
      rows.map((row) => row.cost),
      lockedUntil,
      now,
    ],
  );
}

// ---------------------------------------------------------------- coins (migration 0041)

/**
 * The wallet currency of a listed coin: the one of its name if there is one, else a new crypto
 * currency (no network: no deposit or withdrawal until an operator sets one), visible, last.
 */
export async function ensureCoinCurrency(
  q: Queryable,
  name: string,
  scale: number,
): Promise<number> {
  const existing = await firstRow<{ id: number }>(
    q,
    'SELECT id FROM platform_currency WHERE currency_name = $1',
    [name],
  );
  if (existing) return existing.id;
  const row = await oneRow<{ id: number }>(
    q,
    `INSERT INTO platform_currency (id, currency_name, currency_type, wallet_address_type, scale, sort)
     SELECT coalesce(max(id), 0) + 1, $1, 2, '', $2, coalesce(max(sort), 0) + 1 FROM platform_currency
     RETURNING id`,
    [name, scale],
  );
  return row.id;
}

export async function setCoinCurrency(q: Queryable, offeringId: number, currencyId: number) {
  await q.query('UPDATE new_share_offering SET coin_currency_id = $2 WHERE id = $1', [
    offeringId,
    currencyId,
  ]);
}

/**
 * Adds coins bought through an allocation to the users' coin-to-coin holdings: the holding keeps
 * the cost of coins bought (for their average cost), the coins themselves are wallet balances.
 */
export async function addCoinCosts(
  q: Queryable,
  productId: number,
  rows: readonly { userId: number; quantity: string; cost: string }[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO holding (user_id, book, product_id, position_type, quantity, frozen_quantity, cost,
       updated_at)
     SELECT d.user_id, 'live', $1, 3, d.quantity, 0, d.cost, $5
     FROM unnest($2::bigint[], $3::numeric[], $4::numeric[]) AS d (user_id, quantity, cost)
     ORDER BY d.user_id
     ON CONFLICT (user_id, book, position_type, product_id) DO UPDATE
       SET quantity = holding.quantity + EXCLUDED.quantity, cost = holding.cost + EXCLUDED.cost,
           updated_at = EXCLUDED.updated_at`,
    [
      productId,
      rows.map((row) => row.userId),
      rows.map((row) => row.quantity),
      rows.map((row) => row.cost),
      now,
    ],
  );
}

export async function setLockHold(
  q: Queryable,
  subscriptionId: number,
  holdId: number,
  unlockAt: Date,
): Promise<void> {
  await q.query(
    'UPDATE new_share_subscription SET lock_hold_id = $2, unlock_at = $3 WHERE id = $1',
    [subscriptionId, holdId, unlockAt],
  );
}

/** Allocated coins whose lock-up has ended and that are still frozen, oldest first. */
export function dueUnlocks(q: Queryable, now: Date, limit: number) {
  return allRows<{ id: number; user_id: number; lock_hold_id: number; offering_id: number }>(
    q,
    `SELECT id, user_id, lock_hold_id, offering_id FROM new_share_subscription
     WHERE lock_hold_id IS NOT NULL AND unlocked_at IS NULL AND unlock_at <= $1
     ORDER BY unlock_at, id LIMIT $2`,
    [now, limit],
  );
}

/** Marks a lock released; false when another run did it first. */
export async function markUnlocked(q: Queryable, subscriptionId: number, now: Date) {
  const { rowCount } = await q.query(
    `UPDATE new_share_subscription SET unlocked_at = $2
     WHERE id = $1 AND unlocked_at IS NULL`,
    [subscriptionId, now],
  );
  return (rowCount ?? 0) > 0;
}
