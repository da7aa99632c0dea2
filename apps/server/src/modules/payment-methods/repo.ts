/** SQL of bank cards (user_bank) and wallet addresses (user_wallet_address). */
import type { Queryable } from '../../db/database';

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

// ---------------------------------------------------------------- bank cards

const BANK_COLUMNS = 'id, user_id, card_number, properties, created_at, updated_at';

export async function listBankCards(q: Queryable, userId: number): Promise<BankCardRow[]> {
  const { rows } = await q.query<BankCardRow>(
    `SELECT ${BANK_COLUMNS} FROM user_bank WHERE user_id = $1 AND deleted_at IS NULL ORDER BY id DESC`,
    [userId],
  );
  return rows;
}

/** A card of this user that is not deleted. */
export async function findBankCard(
  q: Queryable,
  userId: number,
  id: number,
): Promise<BankCardRow | undefined> {
  const { rows } = await q.query<BankCardRow>(
    `SELECT ${BANK_COLUMNS} FROM user_bank WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
    [id, userId],
  );
  return rows[0];
}

export async function countBankCards(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM user_bank WHERE user_id = $1 AND deleted_at IS NULL',
    [userId],
  );
  return rows[0]?.n ?? 0;
}

/** The id of the user's live card with this number, other than `exceptId`. */
export async function bankCardIdByNumber(
  q: Queryable,
  userId: number,
  cardNumber: string,
  exceptId = 0,
): Promise<number | undefined> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id FROM user_bank
     WHERE user_id = $1 AND card_number = $2 AND deleted_at IS NULL AND id <> $3`,
    [userId, cardNumber, exceptId],
  );
  return rows[0]?.id;
}

export async function insertBankCard(
  q: Queryable,
  card: { userId: number; cardNumber: string; properties: Record<string, string>; at: Date },
): Promise<BankCardRow> {
  const { rows } = await q.query<BankCardRow>(
    `INSERT INTO user_bank (user_id, card_number, properties, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4) RETURNING ${BANK_COLUMNS}`,
    [card.userId, card.cardNumber, JSON.stringify(card.properties), card.at],
  );
  return rows[0]!;
}

export async function updateBankCard(
  q: Queryable,
  card: {
    id: number;
    userId: number;
    cardNumber: string;
    properties: Record<string, string>;
    at: Date;
  },
): Promise<BankCardRow | undefined> {
  const { rows } = await q.query<BankCardRow>(
    `UPDATE user_bank SET card_number = $3, properties = $4, updated_at = $5
     WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING ${BANK_COLUMNS}`,
    [card.id, card.userId, card.cardNumber, JSON.stringify(card.properties), card.at],
  );
  return rows[0];
}

/** Marks the card deleted; false when the user has no such live card. */
export async function deleteBankCard(
  q: Queryable,
  userId: number,
  id: number,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE user_bank SET deleted_at = $3 WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
    [id, userId, at],
  );
  return rowCount > 0;
}

// ---------------------------------------------------------------- wallet addresses

const ADDRESS_SELECT = `SELECT a.id, a.user_id, a.currency_id, c.currency_name, a.network, a.address,
  a.remark, a.created_at, a.updated_at
  FROM user_wallet_address a JOIN platform_currency c ON c.id = a.currency_id`;

export async function listWalletAddresses(
  q: Queryable,
  userId: number,
  currencyId?: number,
): Promise<WalletAddressRow[]> {
  const { rows } = await q.query<WalletAddressRow>(
    `${ADDRESS_SELECT}
     WHERE a.user_id = $1 AND a.deleted_at IS NULL AND ($2::int IS NULL OR a.currency_id = $2)
     ORDER BY a.id DESC`,
    [userId, currencyId ?? null],
  );
  return rows;
}

/** An address of this user that is not deleted. */
export async function findWalletAddress(
  q: Queryable,
  userId: number,
  id: number,
): Promise<WalletAddressRow | undefined> {
  const { rows } = await q.query<WalletAddressRow>(
    `${ADDRESS_SELECT} WHERE a.id = $1 AND a.user_id = $2 AND a.deleted_at IS NULL`,
    [id, userId],
  );
  return rows[0];
}

export async function countWalletAddresses(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM user_wallet_address WHERE user_id = $1 AND deleted_at IS NULL',
    [userId],
  );
  return rows[0]?.n ?? 0;
}

export interface AddressKey {
  userId: number;
  currencyId: number;
  network: string;
  address: string;
}

/** The id of the user's live address with the same currency, network and address. */
export async function walletAddressIdByKey(
  q: Queryable,
  key: AddressKey,
  exceptId = 0,
): Promise<number | undefined> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id FROM user_wallet_address
     WHERE user_id = $1 AND currency_id = $2 AND network = $3 AND address = $4
       AND deleted_at IS NULL AND id <> $5`,
    [key.userId, key.currencyId, key.network, key.address, exceptId],
  );
  return rows[0]?.id;
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

/** Marks the address deleted; false when the user has no such live address. */
export async function deleteWalletAddress(
  q: Queryable,
  userId: number,
  id: number,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE user_wallet_address SET deleted_at = $3 WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
    [id, userId, at],
  );
  return rowCount > 0;
}
