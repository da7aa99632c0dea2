/** SQL of the platform settings read at launch. */
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';

export function listSwitches(q: Queryable) {
  return allRows<{ switch_name: string; status: number }>(
    q,
    'SELECT switch_name, status FROM switch_set ORDER BY switch_name',
  );
}

export async function getSetting<T>(q: Queryable, key: string): Promise<T | undefined> {
  const { rows } = await q.query<{ value: T }>('SELECT value FROM site_setting WHERE key = $1', [
    key,
  ]);
  return rows[0]?.value;
}

export interface TextLangRow {
  id: number;
  remark: string;
  content_lang: Record<string, string>;
  content_visible_flag: number;
}

export async function listTexts(
  q: Queryable,
  limit: number,
  offset: number,
): Promise<{ rows: TextLangRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    q.query<TextLangRow>(
      'SELECT id, remark, content_lang, content_visible_flag FROM text_lang ORDER BY sort, id LIMIT $1 OFFSET $2',
      [limit, offset],
    ),
    q.query<{ total: number }>('SELECT count(*)::int AS total FROM text_lang'),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.total ?? 0 };
}

export interface FeeRow {
  id: number;
  product_type: number;
  position_type: number;
  ex_type: number;
  fee_rate: string;
}

const FEE_COLUMNS = 'id, product_type, position_type, ex_type, fee_rate::text AS fee_rate';

/** Order fees by product type, position type and direction (read at launch and by operators). */
export function listFees(q: Queryable) {
  return allRows<FeeRow>(
    q,
    `SELECT ${FEE_COLUMNS} FROM order_fee_setting ORDER BY product_type, position_type, ex_type`,
  );
}

export function lockFee(q: Queryable, productType: number, positionType: number, exType: number) {
  return firstRow<FeeRow>(
    q,
    `SELECT ${FEE_COLUMNS} FROM order_fee_setting
         WHERE product_type = $1 AND position_type = $2 AND ex_type = $3 FOR UPDATE`,
    [productType, positionType, exType],
  );
}

/** Creates or changes the fee rate of a product type, position type and direction. */
export function saveFee(
  q: Queryable,
  productType: number,
  positionType: number,
  exType: number,
  feeRate: string,
) {
  return oneRow<FeeRow>(
    q,
    `INSERT INTO order_fee_setting (product_type, position_type, ex_type, fee_rate)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (product_type, position_type, ex_type) DO UPDATE SET fee_rate = EXCLUDED.fee_rate
         RETURNING ${FEE_COLUMNS}`,
    [productType, positionType, exType, feeRate],
  );
}

export function listLangOverrides(q: Queryable, lang: string) {
  return allRows<{ msg_key: string; value: string }>(
    q,
    'SELECT msg_key, value FROM lang_override WHERE lang = $1',
    [lang],
  );
}

export interface PopUpRow {
  id: number;
  title: Record<string, string>;
  content: Record<string, string>;
  version: number;
  created_at: Date;
}

export function listPopUps(q: Queryable) {
  return allRows<PopUpRow>(
    q,
    'SELECT id, title, content, version, created_at FROM pop_up WHERE is_show = 1 ORDER BY sort, id DESC LIMIT 20',
  );
}

export interface AppConfigRow {
  page_path: string;
  module: string;
  is_visible: number;
  description: string;
  sort: number;
}

export async function listAppConfig(q: Queryable, pagePath?: string): Promise<AppConfigRow[]> {
  const sql = `SELECT page_path, module, is_visible, description, sort FROM app_config
               ${pagePath ? 'WHERE page_path = $1' : ''} ORDER BY page_path, sort, module LIMIT 500`;
  return allRows<AppConfigRow>(q, sql, pagePath ? [pagePath] : []);
}

export interface CurrencyRow {
  id: number;
  currency_name: string;
  currency_type: number;
  wallet_address_type: string;
  scale: number;
  icon: string;
  sort: number;
}

export function listCurrencies(q: Queryable) {
  return allRows<CurrencyRow>(
    q,
    `SELECT id, currency_name, currency_type, wallet_address_type, scale, icon, sort
       FROM platform_currency WHERE is_visible = 1 ORDER BY sort, id`,
  );
}

export interface BankPropertyRow {
  id: number;
  config_type: number;
  property_name: string;
  label_key: string;
  is_required: number;
  input_type: string;
  max_length: number;
  sort: number;
}

export function listBankProperties(q: Queryable, configType: number) {
  return allRows<BankPropertyRow>(
    q,
    `SELECT id, config_type, property_name, label_key, is_required, input_type, max_length, sort
       FROM bank_property_config WHERE config_type = $1 ORDER BY sort, id`,
    [configType],
  );
}

export function listAreaCodes(q: Queryable) {
  return allRows<{ id: number; area_code: string; country_code: string }>(
    q,
    'SELECT id, area_code, country_code FROM phone_area_code ORDER BY sort, id',
  );
}
