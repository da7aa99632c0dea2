/**
 * The operator's trading settings (PRODUCT section 9): order fees, fast-trade options, and per
 * product visibility, sort, halt and leverage choices. Every change is audited with its before
 * and after, in the transaction that makes it; a save that changes nothing writes nothing.
 *
 * There is deliberately nothing here that sets a price, an outcome or a position's state
 * (PRODUCT section 1): prices come only from the feed, and orders copy the terms they were placed
 * with, so changing an option or a fee never touches an order already placed.
 */
import { cmp, decimalAmount, intField, normalize, optionalText, text } from '@bourse/shared';
import { z } from 'zod';
import type { Database, Queryable } from '../../db/database';
import { AppError } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import { positionTypesOf } from '../../market/repo';
import type { AuditWriter } from '../wallet';
import type { OptionRow } from './fast-trade';

/** Fee rates are fractions of the amount, below 10 %. */
export const MAX_FEE_RATE = '0.1';
export const MAX_LEVERAGE = 125;
const MAX_LEVERAGE_CHOICES = 32;
const RATE_SCALE = 8;
const STAKE_SCALE = 8;

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const flag = z.preprocess(
  (value) =>
    value === 'true' || value === '1' || value === true
      ? 1
      : value === 'false' || value === '0' || value === false
        ? 0
        : value,
  z.union([z.literal(0), z.literal(1)]),
);
const optionalFlag = z.preprocess(emptyToUndefined, flag.optional());
const sort = intField(-1_000_000, 1_000_000);
const productType = intField(1, 4);
/** Product codes are upper case (`BTCUSDT`, `AAPL`, `EURUSD`). */
const productCode = text(16).transform((value) => value.toUpperCase());

/** Leverage choices: ascending distinct whole numbers 1–125, as an array or `1,5,10`. */
const leverages = z
  .unknown()
  .transform((value, context) => {
    if (value === undefined || value === null || value === '') return undefined;
    const items = typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value;
    const list = Array.isArray(items)
      ? items.map((item) =>
          typeof item === 'string' && /^\d{1,3}$/.test(item) ? Number(item) : item,
        )
      : [];
    const valid =
      list.length > 0 &&
      list.length <= MAX_LEVERAGE_CHOICES &&
      list.every(
        (item, index) =>
          typeof item === 'number' &&
          Number.isInteger(item) &&
          item >= 1 &&
          item <= MAX_LEVERAGE &&
          (index === 0 || item > (list[index - 1] as number)),
      );
    if (!valid) {
      context.addIssue({ code: 'custom', message: 'hint_leveragesInvalid' });
      return z.NEVER;
    }
    return list as number[];
  })
  .optional();

export const feeSaveInput = z.object({
  productType,
  positionType: intField(0, 3),
  exType: intField(1, 2),
  feeRate: decimalAmount({ maxScale: RATE_SCALE, sign: 'nonNegative' }).refine(
    (rate) => cmp(rate, MAX_FEE_RATE) < 0,
    { error: 'hint_feeRateTooHigh' },
  ),
});
export type FeeSaveInput = z.infer<typeof feeSaveInput>;

export const fastTradeOptionSaveInput = z.object({
  id: z.preprocess(emptyToUndefined, intField(1).optional()),
  productType,
  /** Absent (or null): an option of every product of the type. */
  productCode: z
    .preprocess(emptyToUndefined, optionalText(16))
    .transform((value) => value?.toUpperCase()),
  durationSeconds: intField(10, 86_400),
  payoutRate: decimalAmount({ maxScale: RATE_SCALE, max: '10' }),
  lossRate: decimalAmount({ maxScale: RATE_SCALE, max: '1' }),
  minStake: decimalAmount({ maxScale: STAKE_SCALE }),
  maxStake: decimalAmount({ maxScale: STAKE_SCALE }),
  isEnabled: z.preprocess((value) => (value === undefined || value === '' ? 1 : value), flag),
  sort: z.preprocess((value) => (value === undefined || value === '' ? 0 : value), sort),
});
export type FastTradeOptionSaveInput = z.infer<typeof fastTradeOptionSaveInput>;

export const productUpdateInput = z.object({
  productType,
  productCode,
  isVisible: optionalFlag,
  isLock: optionalFlag,
  sort: z.preprocess(emptyToUndefined, sort.optional()),
  leverages,
  /** Equity at or below entry notional × this liquidates a contract (0 < rate < 0.5). */
  maintenanceRate: z.preprocess(
    emptyToUndefined,
    decimalAmount({ maxScale: RATE_SCALE, max: '0.49999999' }).optional(),
  ),
});
export type ProductUpdateInput = z.infer<typeof productUpdateInput>;

export interface FeeSetting {
  id: number;
  productType: number;
  positionType: number;
  exType: number;
  feeRate: string;
}

export interface FastTradeOptionSetting {
  id: number;
  productType: number;
  productCode: string | null;
  durationSeconds: number;
  payoutRate: string;
  lossRate: string;
  minStake: string;
  maxStake: string;
  isEnabled: number;
  sort: number;
}

export interface ProductSetting {
  id: number;
  productType: number;
  productCode: string;
  productName: string;
  isVisible: number;
  isLock: number;
  sort: number;
  leverages: number[];
  maintenanceRate: string;
  positionTypes: number[];
}

/** A save's result: `changed` false when it asked for what was already stored ("hint_48"). */
export interface SettingOutcome<T> {
  record: T;
  changed: boolean;
}

export interface TradingSettingsDeps {
  db: Database;
  /** Forgets cached settings (fees) so the next read sees the change. */
  invalidateSettings: () => void;
  /**
   * Reloads the market engine's products so new orders see a change at once; absent when the
   * market feed is off (the change then applies when the engine next loads the products).
   */
  reloadProducts?: () => Promise<void>;
}

interface FeeRow {
  id: number;
  product_type: number;
  position_type: number;
  ex_type: number;
  fee_rate: string;
}

interface ProductSettingRow {
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

function toFee(row: FeeRow): FeeSetting {
  return {
    id: row.id,
    productType: row.product_type,
    positionType: row.position_type,
    exType: row.ex_type,
    feeRate: normalize(row.fee_rate),
  };
}

function toOption(row: OptionRow): FastTradeOptionSetting {
  return {
    id: row.id,
    productType: row.product_type,
    productCode: row.product_code,
    durationSeconds: row.duration_seconds,
    payoutRate: normalize(row.payout_rate),
    lossRate: normalize(row.loss_rate),
    minStake: normalize(row.min_stake),
    maxStake: normalize(row.max_stake),
    isEnabled: row.is_enabled,
    sort: row.sort,
  };
}

function toProduct(row: ProductSettingRow): ProductSetting {
  return {
    id: row.id,
    productType: row.product_type,
    productCode: row.product_code,
    productName: pickLanguage(row.product_name_lang, 'en'),
    isVisible: row.is_visible,
    isLock: row.is_lock,
    sort: row.sort,
    leverages: [...row.leverages],
    maintenanceRate: normalize(row.maintenance_rate),
    positionTypes: [...row.position_types],
  };
}

/** The part of a product the operator may change: what its audit entries show. */
function productSettings(product: ProductSetting) {
  return {
    isVisible: product.isVisible,
    isLock: product.isLock,
    sort: product.sort,
    leverages: product.leverages,
    maintenanceRate: product.maintenanceRate,
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const invalid = (field: string) => new AppError('hint_paramInvalid', 400, [field]);

export class TradingSettingsAdmin {
  constructor(private readonly deps: TradingSettingsDeps) {}

  // ------------------------------------------------------------ fees

  async listFees(): Promise<FeeSetting[]> {
    const { rows } = await this.deps.db.query<FeeRow>(
      `SELECT ${FEE_COLUMNS} FROM order_fee_setting ORDER BY product_type, position_type, ex_type`,
    );
    return rows.map(toFee);
  }

  /** Creates or changes the fee of a product type, position type and direction. */
  async saveFee(input: FeeSaveInput, audit: AuditWriter): Promise<SettingOutcome<FeeSetting>> {
    if (!positionTypesOf(input.productType).includes(input.positionType))
      throw invalid('positionType');
    const result = await this.deps.db.transaction(async (tx) => {
      const { rows: found } = await tx.query<FeeRow>(
        `SELECT ${FEE_COLUMNS} FROM order_fee_setting
         WHERE product_type = $1 AND position_type = $2 AND ex_type = $3 FOR UPDATE`,
        [input.productType, input.positionType, input.exType],
      );
      const before = found[0] ? toFee(found[0]) : null;
      if (before && cmp(before.feeRate, input.feeRate) === 0)
        return { record: before, changed: false };
      const { rows } = await tx.query<FeeRow>(
        `INSERT INTO order_fee_setting (product_type, position_type, ex_type, fee_rate)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (product_type, position_type, ex_type) DO UPDATE SET fee_rate = EXCLUDED.fee_rate
         RETURNING ${FEE_COLUMNS}`,
        [input.productType, input.positionType, input.exType, input.feeRate],
      );
      const after = toFee(rows[0]!);
      await audit(tx, {
        action: before ? 'orderFee.update' : 'orderFee.create',
        targetType: 'orderFee',
        targetId: String(after.id),
        before,
        after,
      });
      return { record: after, changed: true };
    });
    if (result.changed) this.deps.invalidateSettings();
    return result;
  }

  // ------------------------------------------------------------ fast-trade options

  async listFastTradeOptions(): Promise<FastTradeOptionSetting[]> {
    const { rows } = await this.deps.db.query<OptionRow>(
      `SELECT ${OPTION_COLUMNS} FROM fast_trade_option
       ORDER BY product_type, product_code NULLS FIRST, sort, duration_seconds, id`,
    );
    return rows.map(toOption);
  }

  /**
   * Creates (no id) or changes a fast-trade option. Orders copy the option's terms when placed,
   * so a change applies to new orders only.
   */
  async saveFastTradeOption(
    input: FastTradeOptionSaveInput,
    audit: AuditWriter,
  ): Promise<SettingOutcome<FastTradeOptionSetting>> {
    if (cmp(input.maxStake, input.minStake) < 0)
      throw new AppError('hint_maxStakeBelowMin', 400, ['maxStake']);
    if (input.productCode !== undefined) {
      const { rows } = await this.deps.db.query<{ position_types: number[] }>(
        'SELECT position_types FROM product WHERE product_type = $1 AND product_code = $2',
        [input.productType, input.productCode],
      );
      if (!rows[0] || !rows[0].position_types.includes(0))
        throw new AppError('hint_productUnknown', 404, ['productCode']);
    }
    const values = [
      input.productType,
      input.productCode ?? null,
      input.durationSeconds,
      input.payoutRate,
      input.lossRate,
      input.minStake,
      input.maxStake,
      input.isEnabled,
      input.sort,
    ];
    return this.deps.db.transaction(async (tx) => {
      let before: FastTradeOptionSetting | null = null;
      if (input.id !== undefined) {
        const { rows } = await tx.query<OptionRow>(
          `SELECT ${OPTION_COLUMNS} FROM fast_trade_option WHERE id = $1 FOR UPDATE`,
          [input.id],
        );
        if (!rows[0]) throw new AppError('hint_fastTradeOptionUnknown', 404, ['id']);
        before = toOption(rows[0]);
        const wanted: FastTradeOptionSetting = {
          id: before.id,
          productType: input.productType,
          productCode: input.productCode ?? null,
          durationSeconds: input.durationSeconds,
          payoutRate: input.payoutRate,
          lossRate: input.lossRate,
          minStake: input.minStake,
          maxStake: input.maxStake,
          isEnabled: input.isEnabled,
          sort: input.sort,
        };
        if (sameJson(before, wanted)) return { record: before, changed: false };
      }
      const { rows } = before
        ? await tx.query<OptionRow>(
            `UPDATE fast_trade_option SET product_type = $1, product_code = $2, duration_seconds = $3,
               payout_rate = $4, loss_rate = $5, min_stake = $6, max_stake = $7, is_enabled = $8, sort = $9
             WHERE id = $10 RETURNING ${OPTION_COLUMNS}`,
            [...values, before.id],
          )
        : await tx.query<OptionRow>(
            `INSERT INTO fast_trade_option (product_type, product_code, duration_seconds, payout_rate,
               loss_rate, min_stake, max_stake, is_enabled, sort)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${OPTION_COLUMNS}`,
            values,
          );
      const after = toOption(rows[0]!);
      await audit(tx, {
        action: before ? 'fastTradeOption.update' : 'fastTradeOption.create',
        targetType: 'fastTradeOption',
        targetId: String(after.id),
        before,
        after,
      });
      return { record: after, changed: true };
    });
  }

  // ------------------------------------------------------------ products

  async listProducts(): Promise<ProductSetting[]> {
    const { rows } = await this.deps.db.query<ProductSettingRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM product ORDER BY product_type, sort, id`,
    );
    return rows.map(toProduct);
  }

  /**
   * Changes a product's visibility, sort, halt (isLock 1: no new orders; quotes keep coming),
   * leverage choices or maintenance rate, then reloads the market engine's products so new orders
   * see it at once. Open positions keep the maintenance rate they were opened with.
   */
  async updateProduct(
    input: ProductUpdateInput,
    audit: AuditWriter,
  ): Promise<SettingOutcome<ProductSetting>> {
    if (
      input.isVisible === undefined &&
      input.isLock === undefined &&
      input.sort === undefined &&
      input.leverages === undefined &&
      input.maintenanceRate === undefined
    )
      throw new AppError('hint_paramRequired', 400, ['isVisible']);
    const result = await this.deps.db.transaction(async (tx) => {
      const before = await this.lockProduct(tx, input.productType, input.productCode);
      const wanted = {
        isVisible: input.isVisible ?? before.isVisible,
        isLock: input.isLock ?? before.isLock,
        sort: input.sort ?? before.sort,
        leverages: input.leverages ?? before.leverages,
        maintenanceRate: input.maintenanceRate ?? before.maintenanceRate,
      };
      if (sameJson(productSettings(before), wanted)) return { record: before, changed: false };
      const { rows } = await tx.query<ProductSettingRow>(
        `UPDATE product SET is_visible = $2, is_lock = $3, sort = $4,
           leverages = string_to_array($5, ',')::integer[], maintenance_rate = $6
         WHERE id = $1 RETURNING ${PRODUCT_COLUMNS}`,
        [
          before.id,
          wanted.isVisible,
          wanted.isLock,
          wanted.sort,
          wanted.leverages.join(','),
          wanted.maintenanceRate,
        ],
      );
      const after = toProduct(rows[0]!);
      await audit(tx, {
        action: 'product.update',
        targetType: 'product',
        targetId: String(after.id),
        before: productSettings(before),
        after: productSettings(after),
      });
      return { record: after, changed: true };
    });
    if (result.changed) await this.deps.reloadProducts?.();
    return result;
  }

  private async lockProduct(tx: Queryable, type: number, code: string): Promise<ProductSetting> {
    const { rows } = await tx.query<ProductSettingRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM product WHERE product_type = $1 AND product_code = $2 FOR UPDATE`,
      [type, code],
    );
    if (!rows[0]) throw new AppError('hint_productUnknown', 404, ['productCode']);
    return toProduct(rows[0]);
  }
}
