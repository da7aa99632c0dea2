/**
 * Platform settings: switches, site information, otherValue, tips, fees, language packs, pop-ups,
 * page configuration, currencies, bank-card fields and phone area codes. Every launch reads
 * them, so they are kept in memory for a few seconds.
 */
import {
  DEFAULT_BANNERS,
  DEFAULT_LAYOUT,
  siteLayout,
  OTHER_VALUE_DEFAULTS,
  SWITCH_ON,
  languageByKey,
  type CurrencyConfig,
  type LanguageKey,
  type OtherValue,
  type SiteLayout,
  type SwitchName,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import { TimedCache } from '../../lib/cache';
import { assert } from '../../lib/errors';
import { bundledMessages, type Messages } from '../../lib/i18n';
import * as repo from './repo';

export const SETTINGS_CACHE_MS = 5_000;

/** The site setting of the layouts (migration 0034 seeds home-k and me-k). */
export const LAYOUT_KEY = 'layout';

/** A home banner: its texts are translation keys (operator overrides come through langMgr). */
export interface Banner {
  id: string;
  titleKey: string;
  textKey: string;
  /** The app's route name it opens. */
  route: string;
}

export interface SiteInfoSetting {
  siteName: string;
  siteLogo: string;
  customerServiceUrl: string;
  version: string;
  banners: Banner[];
}

/** A platform currency as the app and the server use it (the console's adds its visibility). */
export type Currency = Omit<CurrencyConfig, 'isVisible' | 'inUse'>;

/** A stored layout setting, a value that is not a known layout replaced by the default. */
export function toLayout(stored: Partial<SiteLayout> | undefined): SiteLayout {
  const parsed = siteLayout.safeParse({ ...DEFAULT_LAYOUT, ...stored });
  return parsed.success ? parsed.data : { ...DEFAULT_LAYOUT };
}

export function toCurrency(row: repo.CurrencyRow): Currency {
  return {
    id: row.id,
    currencyName: row.currency_name,
    currencyType: row.currency_type,
    walletAddressType: row.wallet_address_type,
    scale: row.scale,
    icon: row.icon,
    sort: row.sort,
  };
}

export class SettingsService {
  private readonly cache = new TimedCache<string, unknown>(SETTINGS_CACHE_MS);

  constructor(private readonly db: Database) {}

  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.cache.get(key, load) as Promise<T>;
  }

  /**
   * A whole response body built from settings, kept as the text that is sent: the hottest launch
   * calls then cost no database read and no serialization. `build` writes the text (through the
   * route's serializer, see routes.ts).
   */
  cachedBody(key: string, build: () => Promise<string>): Promise<string> {
    return this.cached(`body:${key}`, build);
  }

  /** Forget cached settings (after an operator changes them). */
  invalidate(): void {
    this.cache.clear();
  }

  switches(): Promise<Map<string, number>> {
    return this.cached('switches', async () => {
      const rows = await repo.listSwitches(this.db);
      return new Map(rows.map((row) => [row.switch_name, row.status]));
    });
  }

  async switchOn(name: SwitchName): Promise<boolean> {
    return (await this.switches()).get(name) === SWITCH_ON;
  }

  otherValue(): Promise<OtherValue> {
    return this.cached('otherValue', async () => ({
      ...OTHER_VALUE_DEFAULTS,
      ...((await repo.getSetting<Partial<OtherValue>>(this.db, 'otherValue')) ?? {}),
    }));
  }

  /**
   * The home and user-centre layouts the app opens (white-label). A stored value that is not a
   * known layout (written by hand) counts as the default, so the app never opens a missing screen.
   */
  layout(): Promise<SiteLayout> {
    return this.cached('layout', async () => {
      return toLayout(await repo.getSetting<Partial<SiteLayout>>(this.db, LAYOUT_KEY));
    });
  }

  /** Wallet settings: the exchange fee rate (a fraction of the amount exchanged). */
  wallet(): Promise<{ exchangeFeeRate: string }> {
    return this.cached('wallet', async () => ({
      exchangeFeeRate: '0',
      ...((await repo.getSetting<{ exchangeFeeRate?: string }>(this.db, 'wallet')) ?? {}),
    }));
  }

  siteInfo(): Promise<SiteInfoSetting> {
    return this.cached('siteInfo', async () => {
      const stored = (await repo.getSetting<Partial<SiteInfoSetting>>(this.db, 'siteInfo')) ?? {};
      return {
        siteName: stored.siteName ?? 'Bourse',
        siteLogo: stored.siteLogo ?? '',
        customerServiceUrl: stored.customerServiceUrl ?? '',
        version: stored.version ?? '1.0.0',
        banners: Array.isArray(stored.banners) ? stored.banners : [...DEFAULT_BANNERS],
      };
    });
  }

  tips(limit: number, offset: number) {
    return this.cached(`tips:${limit}:${offset}`, () => repo.listTexts(this.db, limit, offset));
  }

  fees() {
    return this.cached('fees', () => repo.listFees(this.db));
  }

  /** The bundled messages of a language with the operator's overrides merged over them. */
  languagePack(lang: LanguageKey): Promise<Messages> {
    return this.cached(`lang:${lang}`, async () => {
      const overrides = await repo.listLangOverrides(this.db, lang);
      const pack: Messages = { ...bundledMessages(lang) };
      for (const row of overrides) pack[row.msg_key] = row.value;
      return pack;
    });
  }

  popUps() {
    return this.cached('popUps', () => repo.listPopUps(this.db));
  }

  appConfig(pagePath?: string) {
    return this.cached(`appConfig:${pagePath ?? '*'}`, () => repo.listAppConfig(this.db, pagePath));
  }

  currencies(): Promise<Currency[]> {
    return this.cached('currencies', async () =>
      (await repo.listCurrencies(this.db)).map(toCurrency),
    );
  }

  /** The platform currencies by id. */
  async currencyMap(): Promise<Map<number, Currency>> {
    return new Map((await this.currencies()).map((currency) => [currency.id, currency]));
  }

  async currency(id: number): Promise<Currency | undefined> {
    return (await this.currencies()).find((currency) => currency.id === id);
  }

  bankProperties(configType: number) {
    return this.cached(`bank:${configType}`, () => repo.listBankProperties(this.db, configType));
  }

  areaCodes() {
    return this.cached('areaCodes', () => repo.listAreaCodes(this.db));
  }
}

/** Country names in the user's language, from the runtime's Unicode data. */
export function countryName(countryCode: string, lang: LanguageKey): string {
  const locale = languageByKey(lang)?.bcp47 ?? 'en';
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(countryCode) ?? countryCode;
  } catch {
    return countryCode;
  }
}

/**
 * The currency behind an amount. Currencies are seeded and never deleted, and every amount's
 * currency is a foreign key, so a missing one is a broken invariant: an amount is never shown or
 * moved at a guessed scale.
 */
export function currencyIn(currencies: ReadonlyMap<number, Currency>, id: number): Currency {
  const currency = currencies.get(id);
  assert(currency, `currency ${id} is not among the platform's currencies`);
  return currency;
}
