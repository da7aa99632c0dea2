/** SQL of bank cards (user_bank) and wallet addresses (user_wallet_address). */
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';

export interface BankCardRow {
  id: number;
  user_id: number;
  card_number: string;
  properties: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export interface WalletAddressRow {
  id: number;
  user_id: number;
  currency_id: number;
  currency_name: string;
  network: string;
  address: string;
  remark: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A user's cards or addresses. They are never removed, only marked deleted (withdrawals refer to
 * them): every read and change is of the user's live rows.
 */
export class LiveRows<Row> {
  constructor(
    private readonly table: 'user_bank' | 'user_wallet_address',
    /** The SELECT of a row (with its joins) and the alias it gives the table. */
    private readonly select: string,
    private readonly alias: string,
  ) {}

  /** The user's live rows, newest first, narrowed by `and` (its parameters from $2). */
  async list(
    q: Queryable,
    userId: number,
    and = '',
    params: readonly unknown[] = [],
  ): Promise<Row[]> {
    const { alias } = this;
    return allRows<Row>(
      q,
      `${this.select} WHERE ${alias}.user_id = $1 AND ${alias}.deleted_at IS NULL${and}
       ORDER BY ${alias}.id DESC`,
      [userId, ...params],
    );
  }

  /** A live row of this user. */
  async find(q: Queryable, userId: number, id: number): Promise<Row | undefined> {
    return (await this.list(q, userId, ` AND ${this.alias}.id = $2`, [id]))[0];
  }

  async count(q: Queryable, userId: number): Promise<number> {
    const { rows } = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${this.table} WHERE user_id = $1 AND deleted_at IS NULL`,
      [userId],
    );
    return rows[0]?.n ?? 0;
  }

  /** The id of the user's live row with these values (column: value), other than `exceptId`. */
  async idWith(
    q: Queryable,
    userId: number,
    values: Record<string, unknown>,
    exceptId: number,
  ): Promise<number | undefined> {
    const columns = Object.keys(values);
    const { rows } = await q.query<{ id: number }>(
      `SELECT id FROM ${this.table}
       WHERE user_id = $1 AND ${columns.map((column, i) => `${column} = $${i + 3}`).join(' AND ')}
         AND deleted_at IS NULL AND id <> $2`,
      [userId, exceptId, ...Object.values(values)],
    );
    return rows[0]?.id;
  }

  /** Marks the row deleted; false when the user has no such live row. */
  async markDeleted(q: Queryable, userId: number, id: number, at: Date): Promise<boolean> {
    const { rowCount } = await q.query(
      `UPDATE ${this.table} SET deleted_at = $3 WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
      [id, userId, at],
    );
    return rowCount > 0;
  }
}

// ---------------------------------------------------------------- bank cards

const BANK_COLUMNS = 'id, user_id, card_number, properties, created_at, updated_at';

export const bankCards = new LiveRows<BankCardRow>(
  'user_bank',
  `SELECT ${BANK_COLUMNS} FROM user_bank b`,
  'b',
);

/** The id of the user's live card with this number, other than `exceptId`. */
export function bankCardIdByNumber(
  q: Queryable,
  userId: number,
  cardNumber: string,
  exceptId = 0,
): Promise<number | undefined> {
  return bankCards.idWith(q, userId, { card_number: cardNumber }, exceptId);
}

export function insertBankCard(
  q: Queryable,
  card: { userId: number; cardNumber: string; properties: Record<string, string>; at: Date },
) {
  return oneRow<BankCardRow>(
    q,
    `INSERT INTO user_bank (user_id, card_number, properties, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4) RETURNING ${BANK_COLUMNS}`,
    [card.userId, card.cardNumber, JSON.stringify(card.properties), card.at],
  );
}

export function updateBankCard(
  q: Queryable,
  card: {
    id: number;
    userId: number;
    cardNumber: string;
    properties: Record<string, string>;
    at: Date;
  },
) {
  return firstRow<BankCardRow>(
    q,
    `UPDATE user_bank SET card_number = $3, properties = $4, updated_at = $5
     WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING ${BANK_COLUMNS}`,
    [card.id, card.userId, card.cardNumber, JSON.stringify(card.properties), card.at],
  );
}

// ---------------------------------------------------------------- wallet addresses

export const walletAddresses = new LiveRows<WalletAddressRow>(
  'user_wallet_address',
  `SELECT a.id, a.user_id, a.currency_id, c.currency_name, a.network, a.address, a.remark,
     a.created_at, a.updated_at
   FROM user_wallet_address a JOIN platform_currency c ON c.id = a.currency_id`,
  'a',
);

/** The user's live addresses, of one currency or all. */
export function listWalletAddresses(
  q: Queryable,
  userId: number,
  currencyId?: number,
): Promise<WalletAddressRow[]> {
  return walletAddresses.list(q, userId, ' AND ($2::int IS NULL OR a.currency_id = $2)', [
    currencyId ?? null,
  ]);
}

export interface AddressKey {
  userId: number;
  currencyId: number;
  network: string;
  address: string;
}

/** The id of the user's live address with the same currency, network and address. */
export function walletAddressIdByKey(
  q: Queryable,
  key: AddressKey,
  exceptId = 0,
): Promise<number | undefined> {
  const { currencyId, network, address } = key;
  return walletAddresses.idWith(
    q,
    key.userId,
    { currency_id: currencyId, network, address },
    exceptId,
  );
}

export async function insertWalletAddress(
  q: Queryable,
  row: AddressKey & { remark: string | null; at: Date },
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO user_wallet_address (user_id, currency_id, network, address, remark, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
    [row.userId, row.currencyId, row.network, row.address, row.remark, row.at],
  );
  return rows[0]!.id;
}

export async function updateWalletAddress(
  q: Queryable,
  row: AddressKey & { id: number; remark: string | null; at: Date },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE user_wallet_address SET currency_id = $3, network = $4, address = $5, remark = $6, updated_at = $7
     WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
    [row.id, row.userId, row.currencyId, row.network, row.address, row.remark, row.at],
  );
  return rowCount > 0;
}

// ---------------------------------------------------------------- withdrawal whitelist (app_user)

export function findWhitelist(q: Queryable, userId: number, forUpdate = false) {
  return firstRow<{ withdraw_whitelist: boolean; whitelist_off_at: Date | null }>(
    q,
    `SELECT withdraw_whitelist, whitelist_off_at FROM app_user WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [userId],
  );
}

/** Turns the whitelist on, or off at `at` (which starts the withdrawal hold). */
export async function updateWhitelist(
  q: Queryable,
  userId: number,
  enabled: boolean,
  at: Date,
): Promise<void> {
  await q.query(
    `UPDATE app_user SET withdraw_whitelist = $2::boolean,
       whitelist_off_at = CASE WHEN $2::boolean THEN whitelist_off_at ELSE $3::timestamptz END
     WHERE id = $1`,
    [userId, enabled, at],
  );
}
