/** SQL of contract positions (contract_position and the opens of sql/contract-open.sql). */
import { CONTRACT_STATUS, type PageQuery, type TickEvidence } from '@bourse/shared';
import { unnestParams } from '../../db/columns';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import { pageOfTable, tickParams, type Book } from './repo';

export interface PositionRow {
  id: number;
  order_no: string;
  user_id: number;
  book: Book;
  product_id: number;
  currency_id: number;
  direction: number;
  leverage: number;
  order_type: number;
  limit_price: string | null;
  quantity: string;
  margin: string;
  open_fee: string;
  maintenance_rate: string;
  take_profit: string | null;
  stop_loss: string | null;
  liquidation_price: string | null;
  hold_id: number | null;
  status: number;
  entry_price: string | null;
  entry_tick_price: string | null;
  entry_time: number | null;
  entry_source: string | null;
  entry_sequence: number | null;
  close_reason: number | null;
  exit_price: string | null;
  exit_time: number | null;
  exit_source: string | null;
  exit_sequence: number | null;
  close_fee: string | null;
  realized_pnl: string | null;
  request_id: string;
  request_hash: string;
  close_request_id: string | null;
  tpsl_at: number | null;
  created_at: Date;
  opened_at: Date | null;
  closed_at: Date | null;
  /** The position a closed part was split from (a partial close); null otherwise. */
  parent_id: number | null;
}

// ------------------------------------------------------------ open

/**
 * The columns of contract_position an open supplies: contract_open takes each as a parameter of
 * its name (p_<column>), contract_open_many an array of them (sql/contract-open.sql).
 */
const OPEN_COLUMNS = [
  'user_id',
  'book',
  'product_id',
  'currency_id',
  'direction',
  'leverage',
  'order_type',
  'limit_price',
  'quantity',
  'margin',
  'open_fee',
  'maintenance_rate',
  'take_profit',
  'stop_loss',
  'liquidation_price',
  'status',
  'entry_price',
  'entry_tick_price',
  'entry_time',
  'entry_source',
  'entry_sequence',
  'request_id',
  'request_hash',
  'created_at',
  'opened_at',
  'tpsl_at',
] as const satisfies readonly (keyof PositionRow)[];

export type OpenOrder = Pick<PositionRow, (typeof OPEN_COLUMNS)[number]>;

/** contract_open's arguments for one order. */
export interface OpenArgs {
  order: OpenOrder;
  prefix: string;
  hold: string | null;
  entryType: string;
  /** ledger.checkedPostings' five arrays; null for a resting entry (it holds instead). */
  postings: unknown[] | null;
}

/** The parameters each order has, in the order of `perOrder`'s values. */
const PER_ORDER = [...OPEN_COLUMNS, 'order_prefix', 'hold_amount', 'entry_type'];
const POSTING_ARRAYS = ['owner_types', 'owner_ids', 'currency_ids', 'kinds', 'amounts'];
const NO_POSTINGS = POSTING_ARRAYS.map(() => null);

function perOrder({ order, prefix, hold, entryType }: OpenArgs): unknown[] {
  return [...OPEN_COLUMNS.map((column) => order[column]), prefix, hold, entryType];
}

/** A call in named notation: each value reaches the parameter of its name, whatever the order. */
const namedCall = (fn: string, names: readonly string[]) =>
  `SELECT * FROM ${fn}(${names.map((name, at) => `p_${name} => $${at + 1}`).join(', ')})`;

const OPEN_ONE = namedCall('contract_open', [...PER_ORDER, ...POSTING_ARRAYS]);
const OPEN_MANY = namedCall('contract_open_many', [
  ...PER_ORDER,
  'posting_start',
  'posting_end',
  ...POSTING_ARRAYS,
]);

/** One open in its own statement (contract_open: its own transaction). */
export function openPosition(q: Queryable, item: OpenArgs) {
  return oneRow<PositionRow>(q, OPEN_ONE, [...perOrder(item), ...(item.postings ?? NO_POSTINGS)], {
    name: 'contract_open',
  });
}

/** Opens in one statement (contract_open_many); the rows come back in the items' order. */
export async function openPositions(q: Queryable, items: OpenArgs[]): Promise<PositionRow[]> {
  // One array per parameter; the postings of all orders one after another, each order's by
  // range.
  const columns: unknown[][] = PER_ORDER.map(() => []);
  const starts: (number | null)[] = [];
  const ends: (number | null)[] = [];
  const postings: unknown[][] = POSTING_ARRAYS.map(() => []);
  for (const item of items) {
    perOrder(item).forEach((value, index) => columns[index]!.push(value));
    if (item.postings) {
      starts.push(postings[0]!.length + 1);
      item.postings.forEach((values, index) => postings[index]!.push(...(values as unknown[])));
      ends.push(postings[0]!.length);
    } else {
      starts.push(null);
      ends.push(null);
    }
  }
  return allRows<PositionRow>(q, OPEN_MANY, [...columns, starts, ends, ...postings], {
    name: 'contract_open_many',
  });
}

// ------------------------------------------------------------ reads

/** Resting entries and open positions: what has triggers. */
export function listLivePositions(q: Queryable) {
  return allRows<PositionRow>(
    q,
    `SELECT * FROM contract_position WHERE status IN (${CONTRACT_STATUS.pending}, ${CONTRACT_STATUS.open})`,
  );
}

export function listOpenPositions(q: Queryable, userId: number, book: Book) {
  return allRows<PositionRow>(
    q,
    `SELECT * FROM contract_position WHERE user_id = $1 AND book = $2 AND status = ${CONTRACT_STATUS.open}`,
    [userId, book],
  );
}

export interface PositionFilter {
  userId: number;
  book: Book;
  /** Null for any. */
  statuses: number[] | null;
  /** Null for any. */
  productIds: number[] | null;
}

export function pagePositions(q: Queryable, filter: PositionFilter, page: PageQuery) {
  const params = [filter.userId, filter.book, filter.statuses, filter.productIds];
  const where = `WHERE user_id = $1 AND book = $2 AND ($3::int[] IS NULL OR status = ANY($3::int[]))
      AND ($4::int[] IS NULL OR product_id = ANY($4::int[]))`;
  return pageOfTable<PositionRow>(q, 'contract_position', where, params, page);
}

export function findUserPosition(q: Queryable, id: number, userId: number, book: Book) {
  return firstRow<PositionRow>(
    q,
    'SELECT * FROM contract_position WHERE id = $1 AND user_id = $2 AND book = $3',
    [id, userId, book],
  );
}

/** The sums behind a user's realized contract results since a time (null when none). */
export interface ContractRealizedRow {
  results: string | null;
  close_fees: string | null;
  open_fees: string | null;
}

/**
 * Results and close fees of the positions closed since `since`, and open fees of those opened
 * since.
 */
export function contractRealizedSince(q: Queryable, userId: number, book: Book, since: Date) {
  return firstRow<ContractRealizedRow>(
    q,
    `SELECT (SELECT sum(realized_pnl) FROM contract_position
                WHERE user_id = $1 AND book = $2 AND status = ${CONTRACT_STATUS.closed} AND closed_at >= $3) AS results,
              (SELECT sum(close_fee) FROM contract_position
                WHERE user_id = $1 AND book = $2 AND status = ${CONTRACT_STATUS.closed} AND closed_at >= $3) AS close_fees,
              (SELECT sum(open_fee) FROM contract_position
                WHERE user_id = $1 AND book = $2 AND opened_at >= $3) AS open_fees`,
    [userId, book, since],
  );
}

// ------------------------------------------------------------ fill, close, change

/** The positions among `ids` still resting, locked in id order. */
export function lockPendingPositions(q: Queryable, ids: number[]) {
  return allRows<PositionRow>(
    q,
    `SELECT * FROM contract_position WHERE id = ANY($1::bigint[]) AND status = ${CONTRACT_STATUS.pending} ORDER BY id FOR UPDATE`,
    [ids],
  );
}

/** Opens resting entries at their limits with the tick as evidence; returns the rows opened. */
export function fillPositions(
  q: Queryable,
  entries: { id: number; liquidation: string }[],
  tick: TickEvidence,
  now: Date,
) {
  return allRows<PositionRow>(
    q,
    `UPDATE contract_position c SET status = ${CONTRACT_STATUS.open}, entry_price = c.limit_price, entry_tick_price = $3,
           entry_time = $4, entry_source = $5, entry_sequence = $6, liquidation_price = d.liquidation,
           opened_at = $7
         FROM unnest($1::bigint[], $2::numeric[]) AS d (id, liquidation)
         WHERE c.id = d.id RETURNING c.*`,
    [...unnestParams(entries, ['id', 'liquidation']), ...tickParams(tick), now],
  );
}

export interface PositionClose {
  id: number;
  reason: number;
  fee: string;
  result: string;
  requestId: string | null;
}

/** Closes positions at the tick (its evidence on each); returns the rows closed. */
export function closePositions(
  q: Queryable,
  closes: PositionClose[],
  tick: TickEvidence,
  now: Date,
) {
  return allRows<PositionRow>(
    q,
    `UPDATE contract_position c SET status = ${CONTRACT_STATUS.closed}, close_reason = d.reason, exit_price = $5,
           exit_time = $6, exit_source = $7, exit_sequence = $8, close_fee = d.fee,
           realized_pnl = d.result, closed_at = $9, close_request_id = d.request_id
         FROM unnest($1::bigint[], $2::smallint[], $3::numeric[], $4::numeric[], $10::text[])
           AS d (id, reason, fee, result, request_id)
         WHERE c.id = d.id RETURNING c.*`,
    [
      ...unnestParams(closes, ['id', 'reason', 'fee', 'result']),
      ...tickParams(tick),
      now,
      closes.map((close) => close.requestId),
    ],
  );
}

export interface PositionPart extends PositionClose {
  /** The part closed, and its share of the margin and of the open fee. */
  quantity: string;
  margin: string;
  openFee: string;
  /** The liquidation level of what stays open. */
  liquidation: string;
  requestId: string;
}

/**
 * Partial closes at the tick: each part is split off its open position as a closed row of its
 * own (`parent_id`; order number the position's with -1, -2, …; request id `part:<id>`, which no
 * client's request id can be) and the position keeps the rest, its liquidation level moved.
 * The positions must be locked. Returns the parts, then the positions as they now are.
 */
export async function splitPositions(
  q: Queryable,
  parts: PositionPart[],
  tick: TickEvidence,
  now: Date,
): Promise<{ parts: PositionRow[]; rests: PositionRow[] }> {
  const columns = ['id', 'quantity', 'margin', 'openFee', 'liquidation', 'reason', 'fee', 'result'];
  const split = await allRows<PositionRow>(
    q,
    `WITH d AS (
       SELECT d.*, nextval('contract_position_id_seq') AS part_id
       FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[], $5::numeric[],
         $6::smallint[], $7::numeric[], $8::numeric[], $9::text[])
         AS d (id, quantity, margin, open_fee, liquidation, reason, fee, result, request_id))
     INSERT INTO contract_position (id, order_no, parent_id, user_id, book, product_id, currency_id,
       direction, leverage, order_type, limit_price, quantity, margin, open_fee, maintenance_rate,
       take_profit, stop_loss, liquidation_price, status, entry_price, entry_tick_price, entry_time,
       entry_source, entry_sequence, close_reason, exit_price, exit_time, exit_source, exit_sequence,
       close_fee, realized_pnl, request_id, request_hash, close_request_id, tpsl_at, created_at,
       opened_at, closed_at)
     SELECT d.part_id,
       p.order_no || '-' || (1 + (SELECT count(*) FROM contract_position k WHERE k.parent_id = p.id)),
       p.id, p.user_id, p.book, p.product_id, p.currency_id, p.direction, p.leverage, p.order_type,
       p.limit_price, d.quantity, d.margin, d.open_fee, p.maintenance_rate, p.take_profit,
       p.stop_loss, p.liquidation_price, ${CONTRACT_STATUS.closed}, p.entry_price, p.entry_tick_price,
       p.entry_time, p.entry_source, p.entry_sequence, d.reason, $10, $11, $12, $13, d.fee, d.result,
       'part:' || d.part_id, p.request_hash, d.request_id, p.tpsl_at, p.created_at, p.opened_at, $14
     FROM d JOIN contract_position p ON p.id = d.id
     RETURNING *`,
    [
      ...unnestParams(parts, columns as (keyof PositionPart)[]),
      parts.map((part) => part.requestId),
      ...tickParams(tick),
      now,
    ],
  );
  const rests = await allRows<PositionRow>(
    q,
    `UPDATE contract_position c SET quantity = c.quantity - d.quantity, margin = c.margin - d.margin,
           open_fee = c.open_fee - d.open_fee, liquidation_price = d.liquidation
         FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[], $5::numeric[])
           AS d (id, quantity, margin, open_fee, liquidation)
         WHERE c.id = d.id RETURNING c.*`,
    unnestParams(parts, ['id', 'quantity', 'margin', 'openFee', 'liquidation']),
  );
  return { parts: split, rests };
}

/** The part a partial close under this request split off the position, if any. */
export function findPart(q: Queryable, parentId: number, requestId: string) {
  return firstRow<PositionRow>(
    q,
    'SELECT * FROM contract_position WHERE parent_id = $1 AND close_request_id = $2',
    [parentId, requestId],
  );
}

/**
 * Sets the take-profit and stop-loss (null clears) of the user's resting or open position, as of
 * `at` (ms); undefined when it is neither any more.
 */
export function updatePositionTpSl(
  q: Queryable,
  id: number,
  userId: number,
  takeProfit: string | null,
  stopLoss: string | null,
  at: number,
) {
  return firstRow<PositionRow>(
    q,
    `UPDATE contract_position SET take_profit = $3, stop_loss = $4, tpsl_at = $5
       WHERE id = $1 AND user_id = $2 AND status IN (${CONTRACT_STATUS.pending}, ${CONTRACT_STATUS.open}) RETURNING *`,
    [id, userId, takeProfit, stopLoss, at],
  );
}
