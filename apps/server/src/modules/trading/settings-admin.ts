/**
 * The operator's trading settings (PRODUCT section 9): order fees, fast-trade options, and per
 * product visibility, sort, halt and leverage choices. Every change is audited with its before
 * and after, in the transaction that makes it; a save that changes nothing writes nothing.
 *
 * There is deliberately nothing here that sets a price, an outcome or a position's state
 * (PRODUCT section 1): prices come only from the feed, and orders copy the terms they were placed
 * with, so changing an option or a fee never touches an order already placed.
 */
import {
  cmp,
  normalize,
  type FastTradeOptionConfig,
  type FeeConfig,
  type ProductConfig,
  type fastTradeOptionSaveBody,
  type feeSaveBody,
  type productUpdateBody,
} from '@bourse/shared';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/database';
import { AppError } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import { positionTypesOf } from '../../market/repo';
import type { AuditWriter } from '../wallet';
import { optionTerms, type OptionRow } from './fast-trade';

/** What an operator saves (/admin-api/fees/save, fastTradeOptions/save, products/update). */
export type FeeSaveInput = z.output<typeof feeSaveBody>;
export type FastTradeOptionSaveInput = z.output<typeof fastTradeOptionSaveBody>;
export type ProductUpdateInput = z.output<typeof productUpdateBody>;

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

function toFee(row: FeeRow): FeeConfig {
  return {
    id: row.id,
    productType: row.product_type,
    positionType: row.position_type,
    exType: row.ex_type,
    feeRate: normalize(row.fee_rate),
  };
}

function toOption(row: OptionRow): FastTradeOptionConfig {
  return {
    ...optionTerms(row),
    minStake: normalize(row.min_stake),
    maxStake: normalize(row.max_stake),
    isEnabled: row.is_enabled,
    sort: row.sort,
  };
}

function toProduct(row: ProductSettingRow): ProductConfig {
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
function productSettings(product: ProductConfig) {
  return {
    isVisible: product.isVisible,
    isLock: product.isLock,
    sort: product.sort,
    leverages: product.leverages,
    maintenanceRate: product.maintenanceRate,
  };
}

/**
 * A setting created (`before` null) or changed: audited as `<target>.create` or `<target>.update`
 * with what `shown` keeps of it before and after, in the transaction that saved it.
 */
async function saved<T extends { id: number }>(
  tx: Queryable,
  audit: AuditWriter,
  targetType: string,
  before: T | null,
  after: T,
  shown: (setting: T) => unknown = (setting) => setting,
): Promise<SettingOutcome<T>> {
  await audit(tx, {
    action: `${targetType}.${before ? 'update' : 'create'}`,
    targetType,
    targetId: String(after.id),
    before: before && shown(before),
    after: shown(after),
  });
  return { record: after, changed: true };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const invalid = (field: string) => new AppError('hint_paramInvalid', 400, [field]);

export class TradingSettingsAdmin {
  constructor(private readonly deps: TradingSettingsDeps) {}

  // ------------------------------------------------------------ fees

  async listFees(): Promise<FeeConfig[]> {
    const { rows } = await this.deps.db.query<FeeRow>(
      `SELECT ${FEE_COLUMNS} FROM order_fee_setting ORDER BY product_type, position_type, ex_type`,
    );
    return rows.map(toFee);
  }

  /** Creates or changes the fee of a product type, position type and direction. */
  async saveFee(input: FeeSaveInput, audit: AuditWriter): Promise<SettingOutcome<FeeConfig>> {
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
      return saved(tx, audit, 'orderFee', before, toFee(rows[0]!));
    });
    if (result.changed) this.deps.invalidateSettings();
    return result;
  }

  // ------------------------------------------------------------ fast-trade options

  async listFastTradeOptions(): Promise<FastTradeOptionConfig[]> {
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
  ): Promise<SettingOutcome<FastTradeOptionConfig>> {
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
      let before: FastTradeOptionConfig | null = null;
      if (input.id !== undefined) {
        const { rows } = await tx.query<OptionRow>(
          `SELECT ${OPTION_COLUMNS} FROM fast_trade_option WHERE id = $1 FOR UPDATE`,
          [input.id],
        );
        if (!rows[0]) throw new AppError('hint_fastTradeOptionUnknown', 404, ['id']);
        before = toOption(rows[0]);
        const wanted: FastTradeOptionConfig = {
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
      return saved(tx, audit, 'fastTradeOption', before, toOption(rows[0]!));
    });
  }

  // ------------------------------------------------------------ products

  async listProducts(): Promise<ProductConfig[]> {
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
  ): Promise<SettingOutcome<ProductConfig>> {
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
      return saved(tx, audit, 'product', before, toProduct(rows[0]!), productSettings);
    });
    if (result.changed) await this.deps.reloadProducts?.();
    return result;
  }

  private async lockProduct(tx: Queryable, type: number, code: string): Promise<ProductConfig> {
    const { rows } = await tx.query<ProductSettingRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM product WHERE product_type = $1 AND product_code = $2 FOR UPDATE`,
      [type, code],
    );
    if (!rows[0]) throw new AppError('hint_productUnknown', 404, ['productCode']);
    return toProduct(rows[0]);
  }
}
