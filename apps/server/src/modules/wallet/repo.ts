/**
 * SQL of the wallet: deposit and withdrawal channels and requests (their review: ReviewFlow), the
 * announced changes of withdrawal terms, currency exchange and the balance records.
 */
import {
  RECHARGE_STATUS,
  WITHDRAW_STATUS,
  type PageQuery,
  type WithdrawDestination,
  type WithdrawTerm,
} from '@bourse/shared';
import { assignments, columnParams, placeholders } from '../../db/columns';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';
import type { RequestTable } from '../../db/user-lock';

/** The id a new row of `table` will get (its serial sequence), known before the insert. */
export async function nextId(tx: Queryable, table: string): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    'SELECT nextval(pg_get_serial_sequence($1, $2)) AS id',
    [table, 'id'],
  );
  return rows[0]!.id;
}

// ---------------------------------------------------------------- requests under review

/** The columns every reviewed request has (its table: RequestTable, with `request_id`). */
export interface ReviewRow {
  id: number;
  user_id: number;
  status: number;
  request_hash: string;
}

export interface RechargeRow {
  id: number;
  order_no: string;
  user_id: number;
  user_account?: string;
  channel_id: number;
  channel_name: string;
  channel_name_lang: LanguageTexts;
  channel_type: number;
  currency_id: number;
  amount: string;
  status: number;
  reject_reason: string | null;
  remark: string | null;
  request_hash: string;
  has_proof: boolean;
  created_at: Date;
  reviewed_at: Date | null;
}

export interface WithdrawRow {
  id: number;
  order_no: string;
  user_id: number;
  user_account: string;
  channel_id: number;
  channel_name: string;
  channel_name_lang: LanguageTexts;
  currency_id: number;
  amount: string;
  fee: string;
  destination: WithdrawDestination;
  hold_id: number;
  status: number;
  reject_reason: string | null;
  request_hash: string;
  created_at: Date;
  closed_at: Date | null;
}

/**
 * A table of requests under review (ReviewFlow's `table`): its name, the alias its SELECT gives
 * it, the SELECT of a request (joins too: what the flow's rows hold), and the column that records
 * when the request was decided. The wallet's two are below; each module that has requests
 * reviewed declares its own in its repo (the identity checks, loans, new shares).
 */
export interface ReviewTable {
  name: RequestTable;
  alias: string;
  select: string;
  decidedAt: string;
}

/** The wallet's tables of requests under review. */
export const REVIEW_TABLES = {
  user_recharge: {
    name: 'user_recharge',
    alias: 'r',
    select: `
  SELECT r.id, r.order_no, r.user_id, u.user_account, r.channel_id, c.channel_name, c.channel_name_lang,
         c.channel_type,
         r.currency_id, r.amount, r.status, r.reject_reason, r.remark, r.request_hash,
         EXISTS (SELECT 1 FROM recharge_proof p WHERE p.recharge_id = r.id) AS has_proof,
         r.created_at, r.reviewed_at
  FROM user_recharge r
  JOIN recharge_channel c ON c.id = r.channel_id
  JOIN app_user u ON u.id = r.user_id`,
    decidedAt: 'reviewed_at',
  },
  user_withdraw: {
    name: 'user_withdraw',
    alias: 'w',
    select: `
  SELECT w.id, w.order_no, w.user_id, u.user_account, w.channel_id, c.channel_name, c.channel_name_lang,
         w.currency_id,
         w.amount, w.fee, w.destination, w.hold_id, w.status, w.reject_reason, w.request_hash,
         w.created_at, w.closed_at
  FROM user_withdraw w
  JOIN withdraw_channel c ON c.id = w.channel_id
  JOIN app_user u ON u.id = w.user_id`,
    decidedAt: 'closed_at',
  },
} as const satisfies Record<string, ReviewTable>;

/** A request by id; `forUpdate` locks its row (not the joined ones) until the transaction ends. */
export async function findRequest<Row extends ReviewRow>(
  q: Queryable,
  table: ReviewTable,
  id: number,
  forUpdate = false,
): Promise<Row | undefined> {
  const { alias, select } = table;
  return firstRow<Row>(
    q,
    `${select} WHERE ${alias}.id = $1${forUpdate ? ` FOR UPDATE OF ${alias}` : ''}`,
    [id],
  );
}

export async function findRequestByRequestId<Row extends ReviewRow>(
  q: Queryable,
  table: ReviewTable,
  userId: number,
  requestId: string,
): Promise<Row | undefined> {
  const { alias, select } = table;
  return firstRow<Row>(q, `${select} WHERE ${alias}.user_id = $1 AND ${alias}.request_id = $2`, [
    userId,
    requestId,
  ]);
}

/** Writes a request's row: `row` maps its columns (names from the code, never input) to values. */
export async function insertRequest(
  q: Queryable,
  table: ReviewTable,
  row: Record<string, unknown>,
): Promise<void> {
  const names = Object.keys(row);
  await q.query(
    `INSERT INTO ${table.name} (${names.join(', ')})
               VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(row),
  );
}

/** A page of requests, newest first, of one user or all, in one status or any. */
export function pageRequests<Row extends ReviewRow>(
  q: Queryable,
  table: ReviewTable,
  filter: { userId?: number; status?: number },
  page: PageQuery,
): Promise<{ rows: Row[]; total: number }> {
  const { alias, select } = table;
  const where = `WHERE ($1::bigint IS NULL OR ${alias}.user_id = $1) AND ($2::int IS NULL OR ${alias}.status = $2)`;
  return pageOf<Row>(
    q,
    {
      rows: `${select} ${where} ORDER BY ${alias}.id DESC`,
      count: `SELECT count(*)::int AS total FROM ${table.name} ${alias} ${where}`,
      params: [filter.userId ?? null, filter.status ?? null],
    },
    page,
  );
}

/**
 * Writes a decision into a request's row: `columns` (names from the code, never input), then the
 * time it was decided (`decidedAt`) into the table's column for it.
 */
export async function writeDecision(
  q: Queryable,
  table: ReviewTable,
  id: number,
  columns: Record<string, unknown>,
  decidedAt: Date,
): Promise<void> {
  const values = { ...columns, [table.decidedAt]: decidedAt };
  const names = Object.keys(values);
  await q.query(
    `UPDATE ${table.name} SET ${names.map((name, i) => `${name} = $${i + 2}`).join(', ')} WHERE id = $1`,
    [id, ...Object.values(values)],
  );
}

// ---------------------------------------------------------------- deposits

export interface RechargeChannelRow {
  id: number;
  channel_type: number;
  channel_name: string;
  currency_id: number;
  network: string | null;
  deposit_address: string | null;
  bank_name: string | null;
  account_name: string | null;
  account_number: string | null;
  pay_url: string | null;
  min_amount: string;
  max_amount: string;
  remark: string;
  sort: number;
  is_visible: number;
  channel_name_lang: LanguageTexts;
  remark_lang: LanguageTexts;
  bank_name_lang: LanguageTexts;
  account_name_lang: LanguageTexts;
  is_example: number;
}

/** A text by language key, as stored ({} when the plain column is every language's). */
export type LanguageTexts = Record<string, string>;

/** Every deposit channel, hidden ones included. */
/** A page of the deposit channels, hidden ones included, in their order. */
export function listRechargeChannels(q: Queryable, page: PageQuery) {
  return pageOf<RechargeChannelRow>(
    q,
    {
      rows: 'SELECT * FROM recharge_channel ORDER BY sort, id',
      count: 'SELECT count(*)::int AS total FROM recharge_channel',
      params: [],
    },
    page,
  );
}

export function listVisibleRechargeChannels(q: Queryable, currencyId?: number) {
  return allRows<RechargeChannelRow>(
    q,
    `SELECT * FROM recharge_channel WHERE is_visible = 1 AND ($1::int IS NULL OR currency_id = $1)
         ORDER BY sort, id`,
    [currencyId ?? null],
  );
}

export function findVisibleRechargeChannel(q: Queryable, id: number) {
  return firstRow<RechargeChannelRow>(
    q,
    'SELECT * FROM recharge_channel WHERE id = $1 AND is_visible = 1',
    [id],
  );
}

export function lockRechargeChannel(q: Queryable, id: number) {
  return firstRow<RechargeChannelRow>(
    q,
    'SELECT * FROM recharge_channel WHERE id = $1 FOR UPDATE',
    [id],
  );
}

/** A deposit channel's columns as an operator saves them. */
export interface RechargeChannelValues {
  channelType: number;
  channelName: string;
  currencyId: number;
  network: string | null | undefined;
  depositAddress: string | null | undefined;
  bankName: string | null | undefined;
  accountName: string | null | undefined;
  accountNumber: string | null | undefined;
  payUrl: string | null | undefined;
  minAmount: string;
  maxAmount: string;
  remark: string;
  sort: number;
  isVisible: number;
  channelNameLang: LanguageTexts;
  remarkLang: LanguageTexts;
  bankNameLang: LanguageTexts;
  accountNameLang: LanguageTexts;
}

/** The columns an operator writes, in the order of both statements below. */
const RECHARGE_CHANNEL_COLUMNS = `channel_type, channel_name, currency_id, network, deposit_address, bank_name,
  account_name, account_number, pay_url, min_amount, max_amount, remark, sort, is_visible, channel_name_lang,
  remark_lang, bank_name_lang, account_name_lang`;

export function insertRechargeChannel(q: Queryable, values: RechargeChannelValues) {
  return oneRow<RechargeChannelRow>(
    q,
    `INSERT INTO recharge_channel (${RECHARGE_CHANNEL_COLUMNS})
       VALUES (${placeholders(RECHARGE_CHANNEL_COLUMNS)}) RETURNING *`,
    columnParams(RECHARGE_CHANNEL_COLUMNS, values),
  );
}

export function updateRechargeChannel(q: Queryable, id: number, values: RechargeChannelValues) {
  return oneRow<RechargeChannelRow>(
    q,
    `UPDATE recharge_channel SET ${assignments(RECHARGE_CHANNEL_COLUMNS, 2)}, is_example = 0
       WHERE id = $1 RETURNING *`,
    [id, ...columnParams(RECHARGE_CHANNEL_COLUMNS, values)],
  );
}

/** How many of the user's deposit requests are under review. */
export async function countPendingRecharges(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM user_recharge WHERE user_id = $1 AND status = ${RECHARGE_STATUS.reviewing}`,
    [userId],
  );
  return rows[0]?.count ?? 0;
}

export interface NewRechargeProof {
  mime: string;
  width: number;
  height: number;
  sha256: string;
  data: Uint8Array;
}

export async function insertRechargeProof(
  q: Queryable,
  rechargeId: number,
  proof: NewRechargeProof,
): Promise<void> {
  await q.query(
    `INSERT INTO recharge_proof (recharge_id, mime, width, height, sha256, data)
           VALUES ($1, $2, $3, $4, $5, $6)`,
    [rechargeId, proof.mime, proof.width, proof.height, proof.sha256, proof.data],
  );
}

/** A deposit's payment proof with the deposit's owner. */
export function findRechargeProof(q: Queryable, rechargeId: number) {
  return firstRow<{ mime: string; data: Uint8Array; user_id: number }>(
    q,
    `SELECT p.mime, p.data, r.user_id FROM recharge_proof p JOIN user_recharge r ON r.id = p.recharge_id
       WHERE p.recharge_id = $1`,
    [rechargeId],
  );
}

// ---------------------------------------------------------------- withdrawals

/** The withdraw_channel column of each term (a fixed list: safe to write into SQL). */
export const TERM_COLUMN = {
  minAmount: 'min_amount',
  maxAmount: 'max_amount',
  dailyLimit: 'daily_limit',
  feeRate: 'fee_rate',
  fixedFee: 'fixed_fee',
  isVisible: 'is_visible',
} as const satisfies Record<WithdrawTerm, string>;

/** The columns of a withdraw_channel row that a change can touch. */
export interface ChannelTermsRow {
  id: number;
  currency_id: number;
  min_amount: string;
  max_amount: string;
  daily_limit: string;
  fee_rate: string;
  fixed_fee: string;
  is_visible: number;
}

export interface WithdrawChannelRow extends ChannelTermsRow {
  channel_type: number;
  channel_name: string;
  network: string | null;
  remark: string;
  sort: number;
  channel_name_lang: LanguageTexts;
  remark_lang: LanguageTexts;
  is_example: number;
}

export interface TermsChangeRow {
  id: number;
  channel_id: number;
  term: WithdrawTerm;
  old_value: string;
  new_value: string;
  announced_at: Date;
  effective_at: Date;
}

/** Every withdrawal channel, hidden ones included, as stored. */
/** A page of the withdrawal channels as stored, hidden ones included, in their order. */
export function listWithdrawChannels(q: Queryable, page: PageQuery) {
  return pageOf<WithdrawChannelRow>(
    q,
    {
      rows: 'SELECT * FROM withdraw_channel ORDER BY sort, id',
      count: 'SELECT count(*)::int AS total FROM withdraw_channel',
      params: [],
    },
    page,
  );
}

/** A due change as the channel query hands it over (JSON: times as text). */
type DueChangeJson = Omit<TermsChangeRow, 'announced_at' | 'effective_at'> & {
  announced_at: string;
  effective_at: string;
};

/**
 * Withdrawal channels (hidden ones included) as stored, with their open changes due at `now`. One
 * statement: the due changes come with their channel, so a withdrawal reads its channel in one
 * round trip (on PGlite every statement waits for the one before).
 */
export async function listWithdrawChannelsWithDue(
  q: Queryable,
  now: Date,
  filter: { id?: number; currencyId?: number },
): Promise<{ channels: WithdrawChannelRow[]; due: TermsChangeRow[] }> {
  const { rows } = await q.query<WithdrawChannelRow & { due_changes: DueChangeJson[] }>(
    `SELECT w.*, COALESCE((
       SELECT json_agg(json_build_object('id', c.id, 'channel_id', c.channel_id, 'term', c.term,
           'old_value', c.old_value::text, 'new_value', c.new_value::text,
           'announced_at', c.announced_at, 'effective_at', c.effective_at)
         ORDER BY c.effective_at, c.id)
       FROM withdraw_terms_change c
       WHERE c.channel_id = w.id AND c.applied_at IS NULL AND c.cancelled_at IS NULL
         AND c.effective_at <= $3), '[]'::json) AS due_changes
     FROM withdraw_channel w
     WHERE ($1::int IS NULL OR w.id = $1) AND ($2::int IS NULL OR w.currency_id = $2)
     ORDER BY w.sort, w.id`,
    [filter.id ?? null, filter.currencyId ?? null, now],
  );
  const due: TermsChangeRow[] = [];
  const channels = rows.map(({ due_changes: changes, ...row }) => {
    for (const change of changes)
      due.push({
        ...change,
        announced_at: new Date(change.announced_at),
        effective_at: new Date(change.effective_at),
      });
    return row;
  });
  return { channels, due };
}

/**
 * Locks a withdrawal channel with every other channel of its currency, in id order (none when
 * there is no such channel).
 */
export function lockCurrencyWithdrawChannels(q: Queryable, id: number) {
  return allRows<WithdrawChannelRow>(
    q,
    `SELECT * FROM withdraw_channel
       WHERE currency_id = (SELECT currency_id FROM withdraw_channel WHERE id = $1)
       ORDER BY id FOR UPDATE`,
    [id],
  );
}

/** A withdrawal channel's columns as an operator saves them. */
export interface WithdrawChannelValues {
  channelType: number;
  channelName: string;
  currencyId: number;
  network: string | null | undefined;
  feeRate: string;
  fixedFee: string;
  minAmount: string;
  maxAmount: string;
  dailyLimit: string;
  remark: string;
  sort: number;
  isVisible: number;
  channelNameLang: LanguageTexts;
  remarkLang: LanguageTexts;
}

/** The columns an operator writes but the currency, which a channel keeps from its creation. */
const WITHDRAW_CHANNEL_COLUMNS = `channel_type, channel_name, network, fee_rate, fixed_fee, min_amount, max_amount,
  daily_limit, remark, sort, is_visible, channel_name_lang, remark_lang`;

export function insertWithdrawChannel(q: Queryable, values: WithdrawChannelValues) {
  return oneRow<WithdrawChannelRow>(
    q,
    `INSERT INTO withdraw_channel (${WITHDRAW_CHANNEL_COLUMNS}, currency_id)
       VALUES (${placeholders(`${WITHDRAW_CHANNEL_COLUMNS}, currency_id`)}) RETURNING *`,
    columnParams(`${WITHDRAW_CHANNEL_COLUMNS}, currency_id`, values),
  );
}

/**
 * Writes a withdrawal channel's columns (its currency never changes); an operator's save makes it
 * the platform's own, no longer the seed's example.
 */
export function updateWithdrawChannel(
  q: Queryable,
  id: number,
  values: Omit<WithdrawChannelValues, 'currencyId'>,
) {
  return oneRow<WithdrawChannelRow>(
    q,
    `UPDATE withdraw_channel SET ${assignments(WITHDRAW_CHANNEL_COLUMNS, 2)}, is_example = 0
       WHERE id = $1 RETURNING *`,
    [id, ...columnParams(WITHDRAW_CHANNEL_COLUMNS, values)],
  );
}

/** Writes one term of a withdrawal channel (`value` a decimal string). */
export async function setWithdrawChannelTerm(
  q: Queryable,
  channelId: number,
  term: WithdrawTerm,
  value: string,
): Promise<void> {
  // Through numeric, so that is_visible (smallint) takes "0.000…" as 0.
  await q.query(`UPDATE withdraw_channel SET ${TERM_COLUMN[term]} = $2::numeric WHERE id = $1`, [
    channelId,
    value,
  ]);
}

/** Open changes (neither applied nor cancelled) of these channels, soonest first. */
export async function listOpenTermsChanges(
  q: Queryable,
  channelIds: number[],
): Promise<TermsChangeRow[]> {
  if (channelIds.length === 0) return [];
  return allRows<TermsChangeRow>(
    q,
    `SELECT id, channel_id, term, old_value, new_value, announced_at, effective_at
     FROM withdraw_terms_change
     WHERE channel_id = ANY($1::int[]) AND applied_at IS NULL AND cancelled_at IS NULL
     ORDER BY effective_at, id`,
    [channelIds],
  );
}

export async function markTermsChangesApplied(
  q: Queryable,
  ids: number[],
  at: Date,
): Promise<void> {
  await q.query('UPDATE withdraw_terms_change SET applied_at = $2 WHERE id = ANY($1::bigint[])', [
    ids,
    at,
  ]);
}

export async function markTermsChangesCancelled(
  q: Queryable,
  ids: number[],
  at: Date,
): Promise<void> {
  await q.query('UPDATE withdraw_terms_change SET cancelled_at = $2 WHERE id = ANY($1::bigint[])', [
    ids,
    at,
  ]);
}

export async function insertTermsChange(
  q: Queryable,
  change: {
    channelId: number;
    term: WithdrawTerm;
    oldValue: string;
    newValue: string;
    announcedAt: Date;
    effectiveAt: Date;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO withdraw_terms_change (channel_id, term, old_value, new_value, announced_at, effective_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      change.channelId,
      change.term,
      change.oldValue,
      change.newValue,
      change.announcedAt,
      change.effectiveAt,
    ],
  );
}

export interface ListedTermsChangeRow extends TermsChangeRow {
  channel_name: string;
  currency_id: number;
  network: string | null;
}

/**
 * Changes not cancelled that take or took effect after `since`, with their channel, soonest
 * first.
 */
export function listTermsChangesSince(q: Queryable, since: Date, currencyId?: number) {
  return allRows<ListedTermsChangeRow>(
    q,
    `SELECT t.id, t.channel_id, t.term, t.old_value, t.new_value, t.announced_at, t.effective_at,
              c.channel_name, c.currency_id, c.network
       FROM withdraw_terms_change t
       JOIN withdraw_channel c ON c.id = t.channel_id
       WHERE t.cancelled_at IS NULL AND t.effective_at > $1 AND ($2::int IS NULL OR c.currency_id = $2)
       ORDER BY t.effective_at, t.id`,
    [since, currencyId ?? null],
  );
}

/** What the user withdrew through these channels since `since`, under review or paid. */
export function sumWithdrawnSince(q: Queryable, userId: number, channelIds: number[], since: Date) {
  return allRows<{ channel_id: number; used: string }>(
    q,
    `SELECT channel_id, sum(amount) AS used FROM user_withdraw
       WHERE user_id = $1 AND channel_id = ANY($2::int[]) AND status IN (${WITHDRAW_STATUS.reviewing}, ${WITHDRAW_STATUS.paid}) AND created_at >= $3
       GROUP BY channel_id`,
    [userId, channelIds, since],
  );
}

/** The fields of one of the user's bank cards, unless deleted. */
export async function findBankCardProperties(
  q: Queryable,
  userId: number,
  id: number,
): Promise<Record<string, string> | undefined> {
  const { rows } = await q.query<{ properties: Record<string, string> }>(
    'SELECT properties FROM user_bank WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
    [id, userId],
  );
  return rows[0]?.properties;
}

/** One of the user's wallet addresses, unless deleted. */
export function findWalletAddress(q: Queryable, userId: number, id: number) {
  return firstRow<{ currency_id: number; network: string; address: string }>(
    q,
    `SELECT currency_id, network, address FROM user_wallet_address
       WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
    [id, userId],
  );
}

// ---------------------------------------------------------------- exchange

export type Book = 'live' | 'demo';

export interface QuoteRow {
  id: string;
  user_id: number;
  book: Book;
  from_currency_id: number;
  to_currency_id: number;
  amount: string;
  rate: string;
  fee_rate: string;
  fee: string;
  receive_amount: string;
  expires_at: Date;
  used_at: Date | null;
}

export interface ConvertRecordRow {
  id: number;
  quote_id: string;
  from_currency_id: number;
  to_currency_id: number;
  amount: string;
  rate: string;
  fee: string;
  receive_amount: string;
  created_at: Date;
}

export interface NewQuote {
  id: string;
  userId: number;
  book: Book;
  fromCurrencyId: number;
  toCurrencyId: number;
  amount: string;
  rate: string;
  feeRate: string;
  fee: string;
  receiveAmount: string;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertQuote(q: Queryable, quote: NewQuote): Promise<void> {
  await q.query(
    `INSERT INTO exchange_quote (id, user_id, book, from_currency_id, to_currency_id, amount, rate, fee_rate, fee,
         receive_amount, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      quote.id,
      quote.userId,
      quote.book,
      quote.fromCurrencyId,
      quote.toCurrencyId,
      quote.amount,
      quote.rate,
      quote.feeRate,
      quote.fee,
      quote.receiveAmount,
      quote.createdAt,
      quote.expiresAt,
    ],
  );
}

/** Deletes the quotes expired before `before` that no exchange used. */
export async function deleteUnusedQuotes(q: Queryable, before: Date): Promise<void> {
  await q.query(
    `DELETE FROM exchange_quote q WHERE q.expires_at < $1
         AND NOT EXISTS (SELECT 1 FROM balance_convert_record r WHERE r.quote_id = q.id)`,
    [before],
  );
}

/** The user's quote in `book`, locked until the transaction ends. */
export function lockQuote(q: Queryable, id: string, userId: number, book: Book) {
  return firstRow<QuoteRow>(
    q,
    'SELECT * FROM exchange_quote WHERE id = $1 AND user_id = $2 AND book = $3 FOR UPDATE',
    [id, userId, book],
  );
}

export async function markQuoteUsed(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query('UPDATE exchange_quote SET used_at = $2 WHERE id = $1', [id, at]);
}

export interface NewConvertRecord {
  userId: number;
  book: Book;
  quoteId: string;
  fromCurrencyId: number;
  toCurrencyId: number;
  amount: string;
  rate: string;
  fee: string;
  receiveAmount: string;
  entryId: number;
  requestId: string;
  createdAt: Date;
}

export async function insertConvertRecord(q: Queryable, record: NewConvertRecord): Promise<void> {
  await q.query(
    `INSERT INTO balance_convert_record (user_id, book, quote_id, from_currency_id, to_currency_id, amount, rate,
           fee, receive_amount, entry_id, request_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      record.userId,
      record.book,
      record.quoteId,
      record.fromCurrencyId,
      record.toCurrencyId,
      record.amount,
      record.rate,
      record.fee,
      record.receiveAmount,
      record.entryId,
      record.requestId,
      record.createdAt,
    ],
  );
}

export function findConvertRecord(q: Queryable, userId: number, requestId: string) {
  return firstRow<ConvertRecordRow>(
    q,
    'SELECT * FROM balance_convert_record WHERE user_id = $1 AND request_id = $2',
    [userId, requestId],
  );
}

/** A page of the user's exchanges in `book`, newest first. */
export function pageConvertRecords(
  q: Queryable,
  userId: number,
  book: Book,
  page: PageQuery,
): Promise<{ rows: ConvertRecordRow[]; total: number }> {
  const where = 'FROM balance_convert_record WHERE user_id = $1 AND book = $2';
  return pageOf<ConvertRecordRow>(
    q,
    {
      rows: `SELECT * ${where} ORDER BY id DESC`,
      count: `SELECT count(*)::int AS total ${where}`,
      params: [userId, book],
    },
    page,
  );
}

// ---------------------------------------------------------------- balance records

/** The record category of a ledger entry type (RECORD_TYPES). */
const CATEGORY = `CASE
  WHEN e.entry_type = 'recharge' THEN 'recharge'
  WHEN e.entry_type LIKE '%:withdraw%' THEN 'withdraw'
  WHEN e.entry_type = 'exchange' THEN 'exchange'
  WHEN e.entry_type LIKE 'demo%' THEN 'demo'
  WHEN e.entry_type ~ '(^|:)trade' THEN 'trade'
  WHEN e.entry_type IN ('referral_commission', 'reward') THEN 'reward'
  WHEN e.entry_type LIKE 'earn\\_%' THEN 'earn'
  WHEN e.entry_type LIKE 'loan\\_%' THEN 'loan'
  WHEN e.entry_type LIKE 'new\\_share\\_%' OR e.entry_type LIKE '%:new\\_share' THEN 'newShares'
  WHEN e.entry_type LIKE 'copy\\_%' THEN 'copyTrade'
  ELSE 'other' END`;

export interface BalancePostingRow {
  entry_id: number;
  line: number;
  category: string;
  entry_type: string;
  currency_id: number;
  kind: string;
  amount: string;
  balance_after: string;
  ref_type: string | null;
  ref_id: string | null;
  created_at: Date;
}

/**
 * A page of the postings on a user's available and frozen balances in `book`, newest first, of
 * one currency or all, in one record category or any.
 */
export function pageBalancePostings(
  q: Queryable,
  filter: { book: Book; userId: number; currencyId?: number; category?: string },
  page: PageQuery,
): Promise<{ rows: BalancePostingRow[]; total: number }> {
  const params = [filter.book, filter.userId, filter.currencyId ?? null, filter.category ?? null];
  const from = `
    FROM ledger_account a
    JOIN ledger_posting p ON p.account_id = a.id
    JOIN ledger_entry e ON e.id = p.entry_id
    WHERE a.book = $1 AND a.owner_type = 'user' AND a.owner_id = $2 AND a.kind IN ('available', 'frozen')
      AND ($3::int IS NULL OR a.currency_id = $3)
      AND ($4::text IS NULL OR ${CATEGORY} = $4)`;
  return pageOf<BalancePostingRow>(
    q,
    {
      rows: `SELECT p.entry_id, p.line, ${CATEGORY} AS category, e.entry_type, a.currency_id, a.kind, p.amount,
                      p.balance_after, e.ref_type, e.ref_id, e.created_at
               ${from}
               ORDER BY p.entry_id DESC, p.line DESC`,
      count: `SELECT count(*)::int AS total ${from}`,
      params,
    },
    page,
  );
}
