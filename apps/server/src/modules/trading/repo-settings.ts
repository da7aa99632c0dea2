/** SQL of the operators' trading settings: order fees, fast-trade options and product settings. */
import type { Queryable } from '../../db/database';
import type { OptionRow } from './repo-fast-trade';

export interface FeeRow {
  id: number;
  product_type: number;
  position_type: number;
  ex_type: number;
  fee_rate: string;
}

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

const FEE_COLUMNS = 'id, product_type, position_type, ex_type, fee_rate::text AS fee_rate';
const OPTION_COLUMNS = `id, product_type, product_code, duration_seconds, payout_rate::text AS payout_rate,
  loss_rate::text AS loss_rate, min_stake::text AS min_stake, max_stake::text AS max_stake, is_enabled, sort`;
const PRODUCT_COLUMNS = `id, product_type, product_code, product_name_lang, is_visible, is_lock, sort,
  leverages, maintenance_rate::text AS maintenance_rate, position_types`;

// ------------------------------------------------------------ fees

export async function listFees(q: Queryable): Promise<FeeRow[]> {
  const { rows } = await q.query<FeeRow>(
    `SELECT ${FEE_COLUMNS} FROM order_fee_setting ORDER BY product_type, position_type, ex_type`,
  );
  return rows;
}

export async function lockFee(
  q: Queryable,
  productType: number,
  positionType: number,
  exType: number,
): Promise<FeeRow | undefined> {
  const { rows } = await q.query<FeeRow>(
    `SELECT ${FEE_COLUMNS} FROM order_fee_setting
         WHERE product_type = $1 AND position_type = $2 AND ex_type = $3 FOR UPDATE`,
    [productType, positionType, exType],
  );
  return rows[0];
}

/** Creates or changes the fee rate of a product type, position type and direction. */
export async function saveFee(
  q: Queryable,
  productType: number,
  positionType: number,
  exType: number,
  feeRate: string,
): Promise<FeeRow> {
  const { rows } = await q.query<FeeRow>(
    `INSERT INTO order_fee_setting (product_type, position_type, ex_type, fee_rate)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (product_type, position_type, ex_type) DO UPDATE SET fee_rate = EXCLUDED.fee_rate
         RETURNING ${FEE_COLUMNS}`,
    [productType, positionType, exType, feeRate],
  );
  return rows[0]!;
}

// ------------------------------------------------------------ fast-trade options

/** Every option, enabled or not, by product type and product (those of no product first). */
export async function listOptions(q: Queryable): Promise<OptionRow[]> {
  const { rows } = await q.query<OptionRow>(
    `SELECT ${OPTION_COLUMNS} FROM fast_trade_option
       ORDER BY product_type, product_code NULLS FIRST, sort, duration_seconds, id`,
  );
  return rows;
}

export async function lockOption(q: Queryable, id: number): Promise<OptionRow | undefined> {
  const { rows } = await q.query<OptionRow>(
    `SELECT ${OPTION_COLUMNS} FROM fast_trade_option WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
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

function optionParams(values: OptionValues): unknown[] {
  return [
    values.productType,
    values.productCode,
    values.durationSeconds,
    values.payoutRate,
    values.lossRate,
    values.minStake,
    values.maxStake,
    values.isEnabled,
    values.sort,
  ];
}

export async function updateOption(
  q: Queryable,
  id: number,
  values: OptionValues,
): Promise<OptionRow> {
  const { rows } = await q.query<OptionRow>(
    `UPDATE fast_trade_option SET product_type = $1, product_code = $2, duration_seconds = $3,
               payout_rate = $4, loss_rate = $5, min_stake = $6, max_stake = $7, is_enabled = $8, sort = $9
             WHERE id = $10 RETURNING ${OPTION_COLUMNS}`,
    [...optionParams(values), id],
  );
  return rows[0]!;
}

export async function insertOption(q: Queryable, values: OptionValues): Promise<OptionRow> {
  const { rows } = await q.query<OptionRow>(
    `INSERT INTO fast_trade_option (product_type, product_code, duration_seconds, payout_rate,
               loss_rate, min_stake, max_stake, is_enabled, sort)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${OPTION_COLUMNS}`,
    optionParams(values),
  );
  return rows[0]!;
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

export async function listProductSettings(q: Queryable): Promise<ProductSettingRow[]> {
  const { rows } = await q.query<ProductSettingRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM product ORDER BY product_type, sort, id`,
  );
  return rows;
}

export async function lockProductSettings(
  q: Queryable,
  productType: number,
  productCode: string,
): Promise<ProductSettingRow | undefined> {
  const { rows } = await q.query<ProductSettingRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM product WHERE product_type = $1 AND product_code = $2 FOR UPDATE`,
    [productType, productCode],
  );
  return rows[0];
}

/** What an operator may change of a product. */
export interface ProductSettings {
  isVisible: number;
  isLock: number;
  sort: number;
  leverages: number[];
  maintenanceRate: string;
}

export async function updateProductSettings(
  q: Queryable,
  id: number,
  settings: ProductSettings,
): Promise<ProductSettingRow> {
  const { rows } = await q.query<ProductSettingRow>(
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
  return rows[0]!;
}
