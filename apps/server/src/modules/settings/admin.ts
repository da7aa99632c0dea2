/**
 * The settings operators change from the console: the platform's currencies, the app's switches
 * and `otherValue`. Every save is audited with its before and after in the transaction that makes
 * it, a save that changes nothing writes nothing (`changed` false), and the cached settings are
 * forgotten so the app's next launch call reads the change.
 *
 * A currency in use (ledger accounts or channels in it) keeps its code, kind, decimals and
 * visibility: balances and postings are kept and shown at its decimals, and every amount's
 * currency must stay listed (currencyIn). None of these settings sets a price, a balance or an
 * outcome.
 */
import {
  DEFAULT_LAYOUT,
  OTHER_VALUE_DEFAULTS,
  type CurrencyConfig,
  type CurrencySaveBody,
  type LayoutConfig,
  type LayoutSaveBody,
  type OtherValue,
  type OtherValueConfig,
  type OtherValueSaveBody,
  type SiteLayout,
  type SwitchConfig,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import { mapRows } from '../../db/page';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import * as repo from './repo-admin';
import { LAYOUT_KEY, toCurrency, toLayout, type SettingsService } from './service';

/** Writes an audit entry in the transaction of the change (the admin module's writer). */
export type SettingsAuditWriter = (
  tx: Queryable,
  change: {
    action: string;
    targetType: string;
    targetId: string;
    before: unknown;
    after: unknown;
  },
) => Promise<void>;

export interface SettingOutcome<T> {
  record: T;
  changed: boolean;
}

function toCurrencyConfig(row: repo.CurrencyAdminRow): CurrencyConfig {
  return { ...toCurrency(row), isVisible: row.is_visible, inUse: row.in_use };
}

/** What a currency's audit entries show: its settings, not whether it is in use. */
function currencySettings({ inUse: _inUse, ...settings }: CurrencyConfig) {
  return settings;
}

/** The fields a currency in use keeps, with the field each is refused on. */
const KEPT_WHILE_IN_USE = ['currencyName', 'currencyType', 'scale', 'isVisible'] as const;

const OTHER_VALUE_KEY = 'otherValue';

export class SettingsAdmin {
  constructor(private readonly deps: { db: Database; clock: Clock; settings: SettingsService }) {}

  // ------------------------------------------------------------ currencies

  async listCurrencies(pageNum: number, pageSize: number) {
    return mapRows(
      await repo.listCurrencyPage(this.deps.db, { pageNum, pageSize }),
      toCurrencyConfig,
    );
  }

  async saveCurrency(
    input: CurrencySaveBody,
    audit: SettingsAuditWriter,
  ): Promise<SettingOutcome<CurrencyConfig>> {
    const { id, ...values } = input;
    const result = await this.deps.db.transaction(async (tx) => {
      if (id === undefined) {
        await repo.lockCurrencyTable(tx);
        const row = await repo.insertCurrency(tx, values);
        if (!row) throw new AppError('hint_currencyNameTaken', 409, ['currencyName']);
        const after = toCurrencyConfig(row);
        await audit(tx, {
          action: 'currency.create',
          targetType: 'currency',
          targetId: String(after.id),
          before: null,
          after: currencySettings(after),
        });
        return { record: after, changed: true };
      }
      const found = await repo.findCurrency(tx, id, true);
      if (!found) throw new AppError('hint_currencyUnknown', 404, ['id']);
      const before = toCurrencyConfig(found);
      if (before.inUse) {
        const kept = KEPT_WHILE_IN_USE.find((field) => before[field] !== values[field]);
        if (kept) throw new AppError('hint_currencyInUse', 422, [kept]);
      }
      // The app's default trade currency stays listed and keeps its code (otherValue names it).
      const stored = await repo.lockSetting<Partial<OtherValue>>(tx, OTHER_VALUE_KEY);
      const tradeCurrency = { ...OTHER_VALUE_DEFAULTS, ...stored }.default_trade_currency_id;
      if (id === tradeCurrency && values.isVisible === 0)
        throw new AppError('hint_currencyInUse', 422, ['isVisible']);
      if (JSON.stringify(currencySettings(before)) === JSON.stringify({ id, ...values }))
        return { record: before, changed: false };
      const row = await repo.updateCurrency(tx, id, values);
      if (!row) throw new AppError('hint_currencyNameTaken', 409, ['currencyName']);
      const after = toCurrencyConfig(row);
      await audit(tx, {
        action: 'currency.update',
        targetType: 'currency',
        targetId: String(id),
        before: currencySettings(before),
        after: currencySettings(after),
      });
      return { record: after, changed: true };
    });
    if (result.changed) this.deps.settings.invalidate();
    return result;
  }

  // ------------------------------------------------------------ switches

  async listSwitches(): Promise<SwitchConfig[]> {
    return (await repo.listSwitchRows(this.deps.db)).map(toSwitch);
  }

  async saveSwitch(
    input: { switchName: string; status: number },
    audit: SettingsAuditWriter,
  ): Promise<SettingOutcome<SwitchConfig>> {
    const result = await this.deps.db.transaction(async (tx) => {
      const found = await repo.lockSwitch(tx, input.switchName);
      const before = found ? toSwitch(found) : null;
      if (before?.status === input.status) return { record: before, changed: false };
      const after = toSwitch(await repo.saveSwitch(tx, input.switchName, input.status));
      await audit(tx, {
        action: 'switch.update',
        targetType: 'switch',
        targetId: input.switchName,
        before: before && { status: before.status },
        after: { status: after.status },
      });
      return { record: after, changed: true };
    });
    if (result.changed) this.deps.settings.invalidate();
    return result;
  }

  // ------------------------------------------------------------ otherValue

  async otherValue(): Promise<OtherValueConfig> {
    return { values: await this.deps.settings.otherValue(), defaults: { ...OTHER_VALUE_DEFAULTS } };
  }

  /** Changes the settings given; the default trade currency must be one of the platform's. */
  async saveOtherValue(
    input: OtherValueSaveBody,
    audit: SettingsAuditWriter,
  ): Promise<SettingOutcome<OtherValueConfig>> {
    const asked = Object.fromEntries(
      Object.entries(input).filter(([, value]) => value !== undefined),
    ) as Partial<OtherValue>;
    if (Object.keys(asked).length === 0)
      throw new AppError('hint_paramRequired', 400, ['app_decimal_no']);
    const result = await this.deps.db.transaction(async (tx) => {
      if (asked.default_trade_currency_id !== undefined) {
        const currency = await repo.findCurrency(tx, asked.default_trade_currency_id);
        if (!currency || currency.is_visible !== 1)
          throw new AppError('hint_currencyUnknown', 404, ['default_trade_currency_id']);
      }
      const stored = (await repo.lockSetting<Partial<OtherValue>>(tx, OTHER_VALUE_KEY)) ?? {};
      const before: OtherValue = { ...OTHER_VALUE_DEFAULTS, ...stored };
      const after: OtherValue = { ...before, ...asked };
      const changedKeys = (Object.keys(asked) as (keyof OtherValue)[]).filter(
        (key) => before[key] !== after[key],
      );
      if (changedKeys.length === 0) return { values: before, changed: false };
      await repo.saveSetting(tx, OTHER_VALUE_KEY, after, this.deps.clock.now());
      await audit(tx, {
        action: 'otherValue.update',
        targetType: 'setting',
        targetId: OTHER_VALUE_KEY,
        before: Object.fromEntries(changedKeys.map((key) => [key, before[key]])),
        after: Object.fromEntries(changedKeys.map((key) => [key, after[key]])),
      });
      return { values: after, changed: true };
    });
    if (result.changed) this.deps.settings.invalidate();
    return {
      record: { values: result.values, defaults: { ...OTHER_VALUE_DEFAULTS } },
      changed: result.changed,
    };
  }

  // ------------------------------------------------------------ layouts

  async layout(): Promise<LayoutConfig> {
    return { values: await this.deps.settings.layout(), defaults: { ...DEFAULT_LAYOUT } };
  }

  /**
   * Chooses the home and/or user-centre layout the app's tab bar opens (white-label: no money,
   * no price). Audited with the layouts before and after, in the transaction of the change.
   */
  async saveLayout(
    input: LayoutSaveBody,
    audit: SettingsAuditWriter,
  ): Promise<SettingOutcome<LayoutConfig>> {
    if (input.home === undefined && input.me === undefined)
      throw new AppError('hint_paramRequired', 400, ['home']);
    const result = await this.deps.db.transaction(async (tx) => {
      const before = toLayout(await repo.lockSetting<Partial<SiteLayout>>(tx, LAYOUT_KEY));
      const after: SiteLayout = {
        home: input.home ?? before.home,
        me: input.me ?? before.me,
      };
      if (before.home === after.home && before.me === after.me)
        return { values: before, changed: false };
      await repo.saveSetting(tx, LAYOUT_KEY, after, this.deps.clock.now());
      await audit(tx, {
        action: 'layout.update',
        targetType: 'setting',
        targetId: LAYOUT_KEY,
        before,
        after,
      });
      return { values: after, changed: true };
    });
    if (result.changed) this.deps.settings.invalidate();
    return {
      record: { values: result.values, defaults: { ...DEFAULT_LAYOUT } },
      changed: result.changed,
    };
  }
}

function toSwitch(row: repo.SwitchRow): SwitchConfig {
  return { switchName: row.switch_name, status: row.status, remark: row.remark };
}
