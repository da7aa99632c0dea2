/** SQL of the operators' trading settings: fast-trade options and product settings (fees: settings/repo.ts). */
import { assignments, columnParams, placeholders } from '../../db/columns';
import { allRows, firstRow, oneRow, type Queryable } from '../../db/database';
import type { OptionRow } from './repo-fast-trade';

export interface ProductSettingRow {
  id: number;
  product_type: number;
  product_code: string;
  product_name_lang: unknown;
  is_visible: number;
  is_lock: number;
  sort: number;
  leverages: number[];
  maintenance_rate: string;
  position_types: number[];
}

const OPTION_COLUMNS = `id, product_type, product_code, duration_seconds, payout_rate::text AS payout_rate,
  loss_rate::text AS loss_rate, min_stake::text AS min_stake, max_stake::text AS max_stake, is_enabled, sort`;
const PRODUCT_COLUMNS = `id, product_type, product_code, product_name_lang, is_visible, is_lock, sort,
  leverages, maintenance_rate::text AS maintenance_rate, position_types`;

// ------------------------------------------------------------ fast-trade options

/**
 * A page of options, enabled or not, by product type and product (those of no product first),
 * with the count of all.
 */
export async function listOptions(q: Queryable, page: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    allRows<OptionRow>(
      q,
      `SELECT ${OPTION_COLUMNS} FROM fast_trade_option
         ORDER BY product_type, product_code NULLS FIRST, sort, duration_seconds, id
         LIMIT $1 OFFSET $2`,
      [page.limit, page.offset],
    ),
    oneRow<{ total: number }>(q, 'SELECT count(*)::int AS total FROM fast_trade_option'),
  ]);
  return { rows, total: count.total };
}

export function lockOption(q: Queryable, id: number) {
  return firstRow<OptionRow>(
    q,
    `SELECT ${OPTION_COLUMNS} FROM fast_trade_option WHERE id = $1 FOR UPDATE`,
    [id],
  );
}

/** What an operator sets of a fast-trade option. */
export interface OptionValues {
  productType: number;
  /** Null for an option of every product of the type. */
  productCode: string | null;
  durationSeconds: number;
  payoutRate: string;
  lossRate: string;
  minStake: string;
  maxStake: string;
  isEnabled: number;
  sort: number;
}

/** The columns an operator writes, in the order of both statements below. */
const OPTION_WRITE_COLUMNS =
  'product_type, product_code, duration_seconds, payout_rate, loss_rate, min_stake, max_stake, is_enabled, sort';

export function updateOption(q: Queryable, id: number, values: OptionValues) {
  return oneRow<OptionRow>(
    q,
    `UPDATE fast_trade_option SET ${assignments(OPTION_WRITE_COLUMNS, 2)}
       WHERE id = $1 RETURNING ${OPTION_COLUMNS}`,
    [id, ...columnParams(OPTION_WRITE_COLUMNS, values)],
  );
}

export function insertOption(q: Queryable, values: OptionValues) {
  return oneRow<OptionRow>(
    q,
    `INSERT INTO fast_trade_option (${OPTION_WRITE_COLUMNS})
       VALUES (${placeholders(OPTION_WRITE_COLUMNS)}) RETURNING ${OPTION_COLUMNS}`,
    columnParams(OPTION_WRITE_COLUMNS, values),
  );
}

// ------------------------------------------------------------ products

/** The position types a product offers; undefined when there is no such product. */
export async function findProductPositionTypes(
  q: Queryable,
  productType: number,
  productCode: string,
): Promise<number[] | undefined> {
  const { rows } = await q.query<{ position_types: number[] }>(
    'SELECT position_types FROM product WHERE product_type = $1 AND product_code = $2',
    [productType, productCode],
  );
  return rows[0]?.position_types;
}

export interface ProductFilter {
  productType?: number;
  keyword?: string;
  limit: number;
  offset: number;
}

/**
 * A page of products by type, sort and id, with the count of all that match. The keyword is found
 * in the code or in a name of any language, as text (strpos: `%` and `_` are not patterns).
 */
export async function listProductSettings(q: Queryable, filter: ProductFilter) {
  const where = `($1::int IS NULL OR product_type = $1)
    AND ($2::text IS NULL OR strpos(lower(product_code), lower($2)) > 0
      OR EXISTS (SELECT 1 FROM jsonb_each_text(product_name_lang) AS name(lang, text)
                 WHERE strpos(lower(name.text), lower($2)) > 0))`;
  const params = [filter.productType ?? null, filter.keyword ?? null];
  const [rows, count] = await Promise.all([
    allRows<ProductSettingRow>(
      q,
      `SELECT ${PRODUCT_COLUMNS} FROM product WHERE ${where}
       ORDER BY product_type, sort, id LIMIT $3 OFFSET $4`,
      [...params, filter.limit, filter.offset],
    ),
    oneRow<{ total: number }>(
      q,
      `SELECT count(*)::int AS total FROM product WHERE ${where}`,
      params,
    ),
  ]);
  return { rows, total: count.total };
}

export function lockProductSettings(q: Queryable, productType: number, productCode: string) {
  return firstRow<ProductSettingRow>(
    q,
    `SELECT ${PRODUCT_COLUMNS} FROM product WHERE product_type = $1 AND product_code = $2 FOR UPDATE`,
    [productType, productCode],
  );
}

/** What an operator may change of a product. */
export interface ProductSettings {
  isVisible: number;
  isLock: number;
  sort: number;
  leverages: number[];
  maintenanceRate: string;
}

export function updateProductSettings(q: Queryable, id: number, settings: ProductSettings) {
  return oneRow<ProductSettingRow>(
    q,
    `UPDATE product SET is_visible = $2, is_lock = $3, sort = $4,
           leverages = string_to_array($5, ',')::integer[], maintenance_rate = $6
         WHERE id = $1 RETURNING ${PRODUCT_COLUMNS}`,
    [
      id,
      settings.isVisible,
      settings.isLock,
      settings.sort,
      settings.leverages.join(','),
      settings.maintenanceRate,
    ],
  );
}
