/** SQL of the settings operators change: currencies, switches and stored key/value settings. */
import type { CurrencySaveBody, PageQuery } from '@bourse/shared';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import { pageOf } from '../../db/page';
import type { CurrencyRow } from './repo';

export interface CurrencyAdminRow extends CurrencyRow {
  is_visible: number;
  in_use: boolean;
}

/**
 * In use: ledger accounts (balances, even spent ones: their postings are kept at its decimals) or
 * channels exist in the currency.
 */
const CURRENCY_COLUMNS = `c.id, c.currency_name, c.currency_type, c.wallet_address_type, c.scale,
  c.icon, c.sort, c.is_visible,
  (EXISTS (SELECT 1 FROM ledger_account a WHERE a.currency_id = c.id)
   OR EXISTS (SELECT 1 FROM recharge_channel r WHERE r.currency_id = c.id)
   OR EXISTS (SELECT 1 FROM withdraw_channel w WHERE w.currency_id = c.id)) AS in_use`;

/** Every currency, hidden ones included, in sort order: one page. */
export function listCurrencyPage(q: Queryable, page: PageQuery) {
  return pageOf<CurrencyAdminRow>(
    q,
    {
      rows: `SELECT ${CURRENCY_COLUMNS} FROM platform_currency c ORDER BY c.sort, c.id`,
      count: 'SELECT count(*)::int AS total FROM platform_currency',
      params: [],
    },
    page,
  );
}

export function findCurrency(q: Queryable, id: number, forUpdate = false) {
  return firstRow<CurrencyAdminRow>(
    q,
    `SELECT ${CURRENCY_COLUMNS} FROM platform_currency c WHERE c.id = $1${forUpdate ? ' FOR UPDATE OF c' : ''}`,
    [id],
  );
}

/** Serializes the creation of currencies (their ids are chosen as the next free one). */
export async function lockCurrencyTable(q: Queryable): Promise<void> {
  await q.query('LOCK TABLE platform_currency IN SHARE ROW EXCLUSIVE MODE');
}

/** A currency's settings as the console saves them. */
export type CurrencyValues = Omit<CurrencySaveBody, 'id'>;

/** The parameters $1.. of a currency's settings, in the column order of insert and update. */
function currencyParams(values: CurrencyValues) {
  return [
    values.currencyName,
    values.currencyType,
    values.walletAddressType,
    values.scale,
    values.icon,
    values.sort,
    values.isVisible,
  ];
}

/** Inserts a currency under the next free id; undefined when its code is taken. */
export async function insertCurrency(
  q: Queryable,
  values: CurrencyValues,
): Promise<CurrencyAdminRow | undefined> {
  const inserted = await firstRow<{ id: number }>(
    q,
    `INSERT INTO platform_currency
       (id, currency_name, currency_type, wallet_address_type, scale, icon, sort, is_visible)
     SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4, $5, $6, $7 FROM platform_currency
     ON CONFLICT (currency_name) DO NOTHING RETURNING id`,
    currencyParams(values),
  );
  return inserted && findCurrency(q, inserted.id);
}

/** Changes a currency; undefined when its new code is another currency's. */
export async function updateCurrency(
  q: Queryable,
  id: number,
  values: CurrencyValues,
): Promise<CurrencyAdminRow | undefined> {
  const taken = await firstRow<{ id: number }>(
    q,
    'SELECT id FROM platform_currency WHERE currency_name = $1 AND id <> $2',
    [values.currencyName, id],
  );
  if (taken) return undefined;
  await q.query(
    `UPDATE platform_currency SET currency_name = $2, currency_type = $3, wallet_address_type = $4,
       scale = $5, icon = $6, sort = $7, is_visible = $8 WHERE id = $1`,
    [id, ...currencyParams(values)],
  );
  return findCurrency(q, id);
}

export interface SwitchRow {
  switch_name: string;
  status: number;
  remark: string;
}

/** Every switch (a fixed set of a few names: bounded). */
export function listSwitchRows(q: Queryable) {
  return allRows<SwitchRow>(
    q,
    'SELECT switch_name, status, remark FROM switch_set ORDER BY switch_name LIMIT 100',
  );
}

export function lockSwitch(q: Queryable, name: string) {
  return firstRow<SwitchRow>(
    q,
    'SELECT switch_name, status, remark FROM switch_set WHERE switch_name = $1 FOR UPDATE',
    [name],
  );
}

/** Sets a switch, creating it (a switch of the app the seed did not store) when absent. */
export function saveSwitch(q: Queryable, name: string, status: number) {
  return oneRow<SwitchRow>(
    q,
    `INSERT INTO switch_set (switch_name, status) VALUES ($1, $2)
     ON CONFLICT (switch_name) DO UPDATE SET status = EXCLUDED.status
     RETURNING switch_name, status, remark`,
    [name, status],
  );
}

/** A stored setting, its row locked until the transaction ends. */
export async function lockSetting<T>(q: Queryable, key: string): Promise<T | undefined> {
  const row = await firstRow<{ value: T }>(
    q,
    'SELECT value FROM site_setting WHERE key = $1 FOR UPDATE',
    [key],
  );
  return row?.value;
}

export async function saveSetting(q: Queryable, key: string, value: unknown, at: Date) {
  await q.query(
    `INSERT INTO site_setting (key, value, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [key, JSON.stringify(value), at],
  );
}
