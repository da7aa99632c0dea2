/**
 * SQL of the console's user pages: read-only statements over the users, their sessions, ledger
 * accounts and postings, orders and holdings (the tables of the account, ledger and trading
 * modules). Nothing here writes: the support actions go through the account module.
 */
import type { LoginResult } from '@bourse/shared';
import { firstRow, type Queryable } from '../../db/database';

export interface UserRow {
  id: number;
  user_account: string;
  reg_type: number;
  area_code: string | null;
  phone: string | null;
  email: string | null;
  nick_name: string;
  invite_code: string;
  inviter_id: number | null;
  account_type: number;
  status: number;
  auth_status: number;
  with_pwd_hash: string | null;
  pwd_changed_at: Date | null;
  with_pwd_changed_at: Date | null;
  created_at: Date;
  last_login_at: Date | null;
}

/** The columns a list shows: never a password hash. */
const USER_COLUMNS = `u.id, u.user_account, u.reg_type, u.area_code, u.phone, u.email, u.nick_name,
  u.invite_code, u.inviter_id, u.account_type, u.status, u.auth_status,
  u.with_pwd_hash IS NOT NULL AS with_pwd_set, u.pwd_changed_at, u.with_pwd_changed_at,
  u.created_at, u.last_login_at`;

export type ListedUser = Omit<UserRow, 'with_pwd_hash'> & { with_pwd_set: boolean };

/** A page of rows and the count of all that match. */
export interface Paged<T> {
  rows: T[];
  total: number;
}

/** Conditions joined with AND, their parameters numbered in order. */
class Where {
  readonly params: unknown[] = [];
  private readonly parts: string[] = [];

  /** Adds a condition; each `?` is the next parameter. */
  add(sql: string, ...values: unknown[]): this {
    let text = sql;
    for (const value of values) {
      this.params.push(value);
      text = text.replace('?', `$${this.params.length}`);
    }
    this.parts.push(text);
    return this;
  }

  get sql(): string {
    return this.parts.length > 0 ? `WHERE ${this.parts.join(' AND ')}` : '';
  }

  /** The next parameter numbers, for LIMIT and OFFSET. */
  next(offset = 1): string {
    return `$${this.params.length + offset}`;
  }
}

/** Counts the rows of `from` that match, then reads the page (none when past the end). */
async function paged<T>(
  q: Queryable,
  query: { select: string; from: string; where: Where; orderBy: string },
  limit: number,
  offset: number,
): Promise<Paged<T>> {
  const { where } = query;
  const counted = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${query.from} ${where.sql}`,
    where.params,
  );
  const total = counted.rows[0]!.n;
  if (total === 0 || offset >= total) return { rows: [], total };
  const page = await q.query<T>(
    `SELECT ${query.select} FROM ${query.from} ${where.sql} ORDER BY ${query.orderBy}
     LIMIT ${where.next(1)} OFFSET ${where.next(2)}`,
    [...where.params, limit, offset],
  );
  return { rows: page.rows, total };
}

// ---------------------------------------------------------------- users

export interface UserSearch {
  keyWords?: string;
  field: 'account' | 'id' | 'inviteCode';
  exact: boolean;
  status?: number;
  sortField: 'id' | 'createTime' | 'lastLoginTime';
  sortOrder: 'asc' | 'desc';
}

const SORT_COLUMNS = { id: 'u.id', createTime: 'u.created_at', lastLoginTime: 'u.last_login_at' };

/**
 * Users matching a search. An account matches by its name, email or phone (with or without its
 * area code), from the start unless `exact`, letters in any case; an id and an invite code match
 * exactly.
 */
export function searchUsers(
  q: Queryable,
  search: UserSearch,
  limit: number,
  offset: number,
): Promise<Paged<ListedUser>> {
  const where = new Where();
  const keyWords = search.keyWords;
  if (keyWords !== undefined && keyWords !== '') {
    if (search.field === 'id') where.add('u.id = ?', Number(keyWords));
    else if (search.field === 'inviteCode') where.add('u.invite_code = upper(?)', keyWords);
    else if (search.exact) {
      where.add(
        `(lower(u.user_account) = lower(?) OR u.email = lower(?) OR u.phone = ?
          OR u.area_code || u.phone = ?)`,
        keyWords,
        keyWords,
        keyWords,
        keyWords.replace(/^\+/, ''),
      );
    } else {
      // left() rather than LIKE: what is typed is matched as text, `%` and `_` included.
      where.add(
        `(lower(left(u.user_account, ?)) = lower(?) OR left(u.email, ?) = lower(?)
          OR left(u.phone, ?) = ? OR left(u.area_code || u.phone, ?) = ?)`,
        keyWords.length,
        keyWords,
        keyWords.length,
        keyWords,
        keyWords.length,
        keyWords,
        keyWords.replace(/^\+/, '').length,
        keyWords.replace(/^\+/, ''),
      );
    }
  }
  if (search.status !== undefined) where.add('u.status = ?', search.status);
  const direction = search.sortOrder === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST';
  return paged<ListedUser>(
    q,
    {
      select: USER_COLUMNS,
      from: 'app_user u',
      where,
      orderBy: `${SORT_COLUMNS[search.sortField]} ${direction}, u.id ${search.sortOrder}`,
    },
    limit,
    offset,
  );
}

export interface UserDetailRow extends ListedUser {
  inviter_account: string | null;
  invited_count: number;
  active_sessions: number;
}

export function findUserDetail(
  q: Queryable,
  id: number,
  now: Date,
): Promise<UserDetailRow | undefined> {
  return firstRow<UserDetailRow>(
    q,
    `SELECT ${USER_COLUMNS}, i.user_account AS inviter_account,
       (SELECT count(*)::int FROM app_user x WHERE x.inviter_id = u.id) AS invited_count,
       (SELECT count(*)::int FROM user_session s
         WHERE s.user_id = u.id AND s.revoked_at IS NULL AND s.expires_at > $2) AS active_sessions
     FROM app_user u LEFT JOIN app_user i ON i.id = u.inviter_id
     WHERE u.id = $1`,
    [id, now],
  );
}

/**
 * What protects a user's account (the console's security tab): flags and times only. The
 * anti-phishing code is read as whether it is set, never its text; no hash or secret is selected.
 */
export interface UserSecurityRow {
  pwd_changed_at: Date | null;
  with_pwd_set: boolean;
  with_pwd_changed_at: Date | null;
  withdraw_whitelist: boolean;
  whitelist_off_at: Date | null;
  two_factor_reset_at: Date | null;
  anti_phishing_set: boolean;
  anti_phishing_changed_at: Date | null;
  auth_level: number;
  auth_status: number;
  last_login_at: Date | null;
  active_sessions: number;
  saved_destinations: number;
  destinations_waiting: number;
  last_failed_at: Date | null;
  last_failed_result: LoginResult | null;
}

/**
 * A user's security state at `now`: `waitingSince` is when a saved card or address set later is
 * still waiting out the whitelist's delay; `historySince`, how far back the login history goes.
 */
export function findUserSecurity(
  q: Queryable,
  id: number,
  at: { now: Date; waitingSince: Date; historySince: Date },
): Promise<UserSecurityRow | undefined> {
  return firstRow<UserSecurityRow>(
    q,
    `SELECT u.pwd_changed_at, u.with_pwd_hash IS NOT NULL AS with_pwd_set, u.with_pwd_changed_at,
       u.withdraw_whitelist, u.whitelist_off_at, u.two_factor_reset_at,
       u.anti_phishing_code IS NOT NULL AS anti_phishing_set, u.anti_phishing_changed_at,
       u.auth_level, u.auth_status, u.last_login_at,
       (SELECT count(*)::int FROM user_session s
         WHERE s.user_id = u.id AND s.revoked_at IS NULL AND s.expires_at > $2) AS active_sessions,
       (SELECT count(*)::int FROM user_bank b WHERE b.user_id = u.id AND b.deleted_at IS NULL)
       + (SELECT count(*)::int FROM user_wallet_address w
           WHERE w.user_id = u.id AND w.deleted_at IS NULL) AS saved_destinations,
       (SELECT count(*)::int FROM user_bank b
         WHERE b.user_id = u.id AND b.deleted_at IS NULL AND b.updated_at > $3)
       + (SELECT count(*)::int FROM user_wallet_address w
           WHERE w.user_id = u.id AND w.deleted_at IS NULL AND w.updated_at > $3)
         AS destinations_waiting,
       f.created_at AS last_failed_at, f.result AS last_failed_result
     FROM app_user u
     LEFT JOIN LATERAL (
       SELECT h.created_at, h.result FROM login_history h
       WHERE h.user_id = u.id AND h.result <> 'success' AND h.created_at >= $4
       ORDER BY h.id DESC LIMIT 1
     ) f ON true
     WHERE u.id = $1`,
    [id, at.now, at.waitingSince, at.historySince],
  );
}

export async function userExists(q: Queryable, id: number): Promise<boolean> {
  return (await firstRow(q, 'SELECT 1 FROM app_user WHERE id = $1', [id])) !== undefined;
}

// ---------------------------------------------------------------- ledger

export interface AccountBalanceRow {
  book: 'live' | 'demo';
  currency_id: number;
  currency_name: string;
  scale: number;
  kind: string;
  balance: string;
}

/** The user's ledger accounts with their balances: live book first, currencies in their order. */
export async function userAccountBalances(
  q: Queryable,
  userId: number,
): Promise<AccountBalanceRow[]> {
  const { rows } = await q.query<AccountBalanceRow>(
    `SELECT a.book, a.currency_id, c.currency_name, c.scale, a.kind, a.balance::text AS balance
     FROM ledger_account a JOIN platform_currency c ON c.id = a.currency_id
     WHERE a.owner_type = 'user' AND a.owner_id = $1
     ORDER BY a.book = 'demo', c.sort, c.id, a.kind`,
    [userId],
  );
  return rows;
}

export interface PostingRow {
  entry_id: number;
  line: number;
  book: 'live' | 'demo';
  currency_id: number;
  currency_name: string;
  scale: number;
  kind: string;
  amount: string;
  balance_after: string;
  entry_type: string;
  ref_type: string | null;
  ref_id: string | null;
  request_id: string | null;
  memo: string | null;
  created_at: Date;
}

/** Postings of the user's accounts, newest first. */
export function userPostings(
  q: Queryable,
  filter: { userId: number; book?: string; currencyId?: number },
  limit: number,
  offset: number,
): Promise<Paged<PostingRow>> {
  const where = new Where().add(`a.owner_type = 'user'`).add('a.owner_id = ?', filter.userId);
  if (filter.book !== undefined) where.add('a.book = ?', filter.book);
  if (filter.currencyId !== undefined) where.add('a.currency_id = ?', filter.currencyId);
  return paged<PostingRow>(
    q,
    {
      select: `p.entry_id, p.line, a.book, a.currency_id, c.currency_name, c.scale, a.kind,
        p.amount::text AS amount, p.balance_after::text AS balance_after, e.entry_type,
        e.ref_type, e.ref_id, e.request_id, e.memo, e.created_at`,
      from: `ledger_account a JOIN ledger_posting p ON p.account_id = a.id
        JOIN ledger_entry e ON e.id = p.entry_id
        JOIN platform_currency c ON c.id = a.currency_id`,
      where,
      orderBy: 'p.entry_id DESC, p.line DESC',
    },
    limit,
    offset,
  );
}

// ---------------------------------------------------------------- orders and holdings

export interface OrderRow {
  id: number;
  order_no: string;
  book: 'live' | 'demo';
  product_code: string;
  direction: number;
  order_type: number | null;
  currency_name: string;
  scale: number;
  quantity: string;
  limit_price: string | null;
  entry_price: string | null;
  exit_price: string | null;
  leverage: number | null;
  margin: string | null;
  fee: string;
  pnl: string | null;
  status: number;
  close_reason: number | null;
  created_at: Date;
  close_time: Date | null;
}

/** Spot and coin-to-coin orders: one table, told apart by their position type. */
const SPOT_ORDERS = {
  table: 'spot_order',
  columns: `o.order_type, o.quantity::text AS quantity, o.limit_price::text AS limit_price,
      o.fill_price::text AS entry_price, NULL AS exit_price, NULL::int AS leverage,
      NULL AS margin, o.fee::text AS fee, o.realized_pnl::text AS pnl,
      NULL::smallint AS close_reason, coalesce(o.filled_at, o.cancelled_at) AS close_time`,
  open: 'o.status = 0',
} as const;

/** The columns of an order of each kind, named as OrderRow; `open` says which are still open. */
const ORDER_KINDS = {
  contract: {
    table: 'contract_position',
    columns: `o.order_type, o.quantity::text AS quantity, o.limit_price::text AS limit_price,
      o.entry_price::text AS entry_price, o.exit_price::text AS exit_price, o.leverage,
      o.margin::text AS margin, (o.open_fee + coalesce(o.close_fee, 0))::text AS fee,
      o.realized_pnl::text AS pnl, o.close_reason, o.closed_at AS close_time`,
    open: 'o.status IN (0, 1)',
    positionType: undefined,
  },
  fastTrade: {
    table: 'fast_trade_order',
    columns: `NULL::smallint AS order_type, o.stake::text AS quantity, NULL AS limit_price,
      o.entry_price::text AS entry_price, o.exit_price::text AS exit_price, NULL::int AS leverage,
      NULL AS margin, o.fee::text AS fee, o.result::text AS pnl, NULL::smallint AS close_reason,
      o.settled_at AS close_time`,
    open: 'o.status = 0',
    positionType: undefined,
  },
  spot: { ...SPOT_ORDERS, positionType: 2 },
  coin: { ...SPOT_ORDERS, positionType: 3 },
} as const;

export type OrderKind = keyof typeof ORDER_KINDS;

/** A user's orders of one kind, newest first. */
export function userOrders(
  q: Queryable,
  filter: { userId: number; kind: OrderKind; book?: string; open?: boolean },
  limit: number,
  offset: number,
): Promise<Paged<OrderRow>> {
  const kind = ORDER_KINDS[filter.kind];
  const where = new Where().add('o.user_id = ?', filter.userId);
  if (kind.positionType !== undefined) where.add('o.position_type = ?', kind.positionType);
  if (filter.book !== undefined) where.add('o.book = ?', filter.book);
  if (filter.open === true) where.add(kind.open);
  if (filter.open === false) where.add(`NOT (${kind.open})`);
  return paged<OrderRow>(
    q,
    {
      select: `o.id, o.order_no, o.book, p.product_code, o.direction, c.currency_name, c.scale,
        o.status, o.created_at, ${kind.columns}`,
      from: `${kind.table} o JOIN product p ON p.id = o.product_id
        JOIN platform_currency c ON c.id = o.currency_id`,
      where,
      orderBy: 'o.id DESC',
    },
    limit,
    offset,
  );
}

export interface HoldingRow {
  book: 'live' | 'demo';
  position_type: number;
  product_code: string;
  quantity: string;
  frozen_quantity: string;
  cost: string;
  updated_at: Date;
}

/** What the user holds (quantity above zero), most recently changed first. */
export function userHoldings(
  q: Queryable,
  filter: { userId: number; book?: string },
  limit: number,
  offset: number,
): Promise<Paged<HoldingRow>> {
  const where = new Where().add('h.user_id = ?', filter.userId).add('h.quantity > 0');
  if (filter.book !== undefined) where.add('h.book = ?', filter.book);
  return paged<HoldingRow>(
    q,
    {
      select: `h.book, h.position_type, p.product_code, h.quantity::text AS quantity,
        h.frozen_quantity::text AS frozen_quantity, h.cost::text AS cost, h.updated_at`,
      from: 'holding h JOIN product p ON p.id = h.product_id',
      where,
      orderBy: 'h.updated_at DESC, h.product_id',
    },
    limit,
    offset,
  );
}

// ---------------------------------------------------------------- sessions

export interface SessionRow {
  id: number;
  account_type: number;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  ip: string | null;
  user_agent: string | null;
}

/** The user's sessions, newest first: the live ones, or all (each is a sign-in). */
export function userSessions(
  q: Queryable,
  filter: { userId: number; activeOnly: boolean; now: Date },
  limit: number,
  offset: number,
): Promise<Paged<SessionRow>> {
  const where = new Where().add('s.user_id = ?', filter.userId);
  if (filter.activeOnly) where.add('s.revoked_at IS NULL').add('s.expires_at > ?', filter.now);
  const select = `s.id, s.account_type, s.created_at, s.last_seen_at, s.expires_at, s.revoked_at,
    s.ip, s.user_agent`;
  return paged<SessionRow>(
    q,
    { select, from: 'user_session s', where, orderBy: 's.id DESC' },
    limit,
    offset,
  );
}
