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
  type PageQuery,
  type ProductSettingsQuery,
  type fastTradeOptionSaveBody,
  type feeSaveBody,
  type productUpdateBody,
} from '@bourse/shared';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/database';
import { AppError } from '../../lib/errors';
import { pickLanguage } from '../../lib/i18n';
import { positionTypesOf } from '../../market/repo';
import { listFees, lockFee, saveFee, type FeeRow } from '../settings';
import type { AuditWriter } from '../wallet';
import { optionTerms } from './fast-trade';
import type { OptionRow } from './repo-fast-trade';
import {
  findProductPositionTypes,
  insertOption,
  listOptions,
  listProductSettings,
  lockOption,
  lockProductSettings,
  updateOption,
  updateProductSettings,
  type OptionValues,
  type ProductSettingRow,
} from './repo-settings';

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

/** A stored text by language (jsonb): its string values. */
function textsOf(stored: unknown): Record<string, string> {
  if (!stored || typeof stored !== 'object') return {};
  return Object.fromEntries(
    Object.entries(stored).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

function toProduct(row: ProductSettingRow): ProductConfig {
  return {
    id: row.id,
    productType: row.product_type,
    productCode: row.product_code,
    productName: pickLanguage(row.product_name_lang, 'en'),
    productNameLang: textsOf(row.product_name_lang),
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
    return (await listFees(this.deps.db)).map(toFee);
  }

  /** Creates or changes the fee of a product type, position type and direction. */
  async saveFee(input: FeeSaveInput, audit: AuditWriter): Promise<SettingOutcome<FeeConfig>> {
    if (!positionTypesOf(input.productType).includes(input.positionType))
      throw invalid('positionType');
    const result = await this.deps.db.transaction(async (tx) => {
      const found = await lockFee(tx, input.productType, input.positionType, input.exType);
      const before = found ? toFee(found) : null;
      if (before && cmp(before.feeRate, input.feeRate) === 0)
        return { record: before, changed: false };
      const row = await saveFee(
        tx,
        input.productType,
        input.positionType,
        input.exType,
        input.feeRate,
      );
      return saved(tx, audit, 'orderFee', before, toFee(row));
    });
    if (result.changed) this.deps.invalidateSettings();
    return result;
  }

  // ------------------------------------------------------------ fast-trade options

  /** A page of fast-trade options, enabled or not (the console's list). */
  async listFastTradeOptions(
    page: PageQuery,
  ): Promise<{ rows: FastTradeOptionConfig[]; total: number }> {
    const { rows, total } = await listOptions(this.deps.db, {
      limit: page.pageSize,
      offset: (page.pageNum - 1) * page.pageSize,
    });
    return { rows: rows.map(toOption), total };
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
      const positionTypes = await findProductPositionTypes(
        this.deps.db,
        input.productType,
        input.productCode,
      );
      if (!positionTypes || !positionTypes.includes(0))
        throw new AppError('hint_productUnknown', 404, ['productCode']);
    }
    const { id, ...fields } = input;
    const values: OptionValues = { ...fields, productCode: fields.productCode ?? null };
    return this.deps.db.transaction(async (tx) => {
      let before: FastTradeOptionConfig | null = null;
      if (id !== undefined) {
        const found = await lockOption(tx, id);
        if (!found) throw new AppError('hint_fastTradeOptionUnknown', 404, ['id']);
        before = toOption(found);
        const wanted: FastTradeOptionConfig = { id: before.id, ...values };
        if (sameJson(before, wanted)) return { record: before, changed: false };
      }
      const row = before
        ? await updateOption(tx, before.id, values)
        : await insertOption(tx, values);
      return saved(tx, audit, 'fastTradeOption', before, toOption(row));
    });
  }

  // ------------------------------------------------------------ products

  /** A page of products with their settings (the console's list). */
  async listProducts(
    query: ProductSettingsQuery,
  ): Promise<{ rows: ProductConfig[]; total: number }> {
    const { rows, total } = await listProductSettings(this.deps.db, {
      productType: query.productType,
      keyword: query.keyword,
      limit: query.pageSize,
      offset: (query.pageNum - 1) * query.pageSize,
    });
    return { rows: rows.map(toProduct), total };
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
      const row = await updateProductSettings(tx, before.id, wanted);
      return saved(tx, audit, 'product', before, toProduct(row), productSettings);
    });
    if (result.changed) await this.deps.reloadProducts?.();
    return result;
  }

  private async lockProduct(tx: Queryable, type: number, code: string): Promise<ProductConfig> {
    const row = await lockProductSettings(tx, type, code);
    if (!row) throw new AppError('hint_productUnknown', 404, ['productCode']);
    return toProduct(row);
  }
}
