/** SQL of the platform settings read at launch. */
import type { Queryable } from '../../db/database';

export async function listSwitches(
  q: Queryable,
): Promise<{ switch_name: string; status: number }[]> {
  return (
    await q.query<{ switch_name: string; status: number }>(
      'SELECT switch_name, status FROM switch_set ORDER BY switch_name',
    )
  ).rows;
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

export async function listFees(q: Queryable): Promise<FeeRow[]> {
  return (
    await q.query<FeeRow>(
      'SELECT id, product_type, position_type, ex_type, fee_rate FROM order_fee_setting ORDER BY product_type, position_type, ex_type',
    )
  ).rows;
}

export async function listLangOverrides(
  q: Queryable,
  lang: string,
): Promise<{ msg_key: string; value: string }[]> {
  return (
    await q.query<{ msg_key: string; value: string }>(
      'SELECT msg_key, value FROM lang_override WHERE lang = $1',
      [lang],
    )
  ).rows;
}

export interface PopUpRow {
  id: number;
  title: Record<string, string>;
  content: Record<string, string>;
  version: number;
  created_at: Date;
}

export async function listPopUps(q: Queryable): Promise<PopUpRow[]> {
  return (
    await q.query<PopUpRow>(
      'SELECT id, title, content, version, created_at FROM pop_up WHERE is_show = 1 ORDER BY sort, id DESC LIMIT 20',
    )
  ).rows;
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
  return (await q.query<AppConfigRow>(sql, pagePath ? [pagePath] : [])).rows;
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

export async function listCurrencies(q: Queryable): Promise<CurrencyRow[]> {
  return (
    await q.query<CurrencyRow>(
      `SELECT id, currency_name, currency_type, wallet_address_type, scale, icon, sort
       FROM platform_currency WHERE is_visible = 1 ORDER BY sort, id`,
    )
  ).rows;
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

export async function listBankProperties(
  q: Queryable,
  configType: number,
): Promise<BankPropertyRow[]> {
  return (
    await q.query<BankPropertyRow>(
      `SELECT id, config_type, property_name, label_key, is_required, input_type, max_length, sort
       FROM bank_property_config WHERE config_type = $1 ORDER BY sort, id`,
      [configType],
    )
  ).rows;
}

export async function listAreaCodes(
  q: Queryable,
): Promise<{ id: number; area_code: string; country_code: string }[]> {
  return (
    await q.query<{ id: number; area_code: string; country_code: string }>(
      'SELECT id, area_code, country_code FROM phone_area_code ORDER BY sort, id',
    )
  ).rows;
}
