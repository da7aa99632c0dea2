/**
 * Default platform settings of a fresh installation: currencies, switches, tips, fees, pop-up,
 * page configuration, bank-card fields and phone area codes. Applied once per seed version, so
 * an operator's later changes and deletions stay as they made them.
 */
import {
  CURRENCY_TYPE,
  OTHER_VALUE_DEFAULTS,
  POSITION_TYPE,
  PRODUCT_TYPE,
  SWITCH,
} from '@bourse/shared';
import { allLanguages } from '../lib/i18n';
import type { Database, Queryable } from './database';

export const SEED_VERSION = 4;

export const DEFAULT_CURRENCIES = [
  { id: 1, name: 'USD', type: CURRENCY_TYPE.fiat, networks: '', scale: 2 },
  { id: 2, name: 'EUR', type: CURRENCY_TYPE.fiat, networks: '', scale: 2 },
  { id: 3, name: 'USDT', type: CURRENCY_TYPE.crypto, networks: 'ERC20/TRC20/BEP20', scale: 4 },
  { id: 4, name: 'BTC', type: CURRENCY_TYPE.crypto, networks: 'BTC', scale: 8 },
  { id: 5, name: 'ETH', type: CURRENCY_TYPE.crypto, networks: 'ERC20', scale: 8 },
  { id: 6, name: 'USDC', type: CURRENCY_TYPE.crypto, networks: 'ERC20/BEP20', scale: 4 },
  { id: 7, name: 'BNB', type: CURRENCY_TYPE.crypto, networks: 'BEP20', scale: 8 },
  { id: 8, name: 'SOL', type: CURRENCY_TYPE.crypto, networks: 'SOL', scale: 8 },
] as const;

const SWITCHES: [string, number, string][] = [
  [SWITCH.thousandsSeparator, 1, 'Group thousands in amounts'],
  [SWITCH.maskBankCard, 1, 'Star-mask bank card numbers'],
  [SWITCH.maskWalletAddress, 1, 'Star-mask wallet addresses'],
  [SWITCH.registerByPhone, 1, 'Allow registration by phone'],
  [SWITCH.registerByEmail, 1, 'Allow registration by email'],
  [SWITCH.inviteCodeRequired, 0, 'Require an invitation code to register'],
  [SWITCH.fastTrade, 1, 'Offer fast trades (banned for retail users in some jurisdictions)'],
  [SWITCH.demoAccount, 1, 'Offer demo accounts with virtual funds'],
];

const TIPS = [
  'registerAgreement',
  'fastTradeRisk',
  'withdrawNotice',
  'rechargeNotice',
  'demoAccount',
  'simulatedData',
] as const;

/** Fee rates by product type, position type and direction. */
function defaultFees(): [number, number, number, string][] {
  const fees: [number, number, number, string][] = [];
  for (const productType of Object.values(PRODUCT_TYPE)) {
    for (const direction of [1, 2]) {
      fees.push([productType, POSITION_TYPE.fast, direction, '0']);
      fees.push([productType, POSITION_TYPE.contract, direction, '0.0005']);
      if (productType === PRODUCT_TYPE.usStock || productType === PRODUCT_TYPE.crypto) {
        fees.push([productType, POSITION_TYPE.spot, direction, '0.001']);
      }
      if (productType === PRODUCT_TYPE.crypto)
        fees.push([productType, POSITION_TYPE.coinToCoin, direction, '0.001']);
    }
  }
  return fees;
}

const APP_CONFIG: [string, string[]][] = [
  [
    'pages/tabs/home/home-k',
    ['header', 'banner', 'notice', 'shortcut', 'recommend', 'quoteList', 'assets'],
  ],
  ['pages/tabs/quotes/quotes', ['favorite', 'usStock', 'crypto', 'futures', 'forex']],
  ['pages/user/accountDetail', ['total', 'recharge', 'withdraw', 'exchange', 'records']],
  [
    'pages/tabs/me/me-k',
    [
      'assets',
      'security',
      'identity',
      'bankCard',
      'wallets',
      'records',
      'team',
      'messages',
      'service',
      'language',
      'line',
      'demoSwitch',
    ],
  ],
];

const BANK_PROPERTIES: [string, number, string, number][] = [
  ['bankName', 1, 'text', 64],
  ['accountName', 1, 'text', 64],
  ['cardNumber', 1, 'digits', 34],
  ['branchName', 0, 'text', 64],
  ['swiftCode', 0, 'text', 11],
  ['iban', 0, 'text', 34],
  ['bankAddress', 0, 'text', 128],
];

/** Country code and international dialling code. */
const AREA_CODES: [string, string][] = [
  ['US', '1'],
  ['CA', '1'],
  ['GB', '44'],
  ['DE', '49'],
  ['FR', '33'],
  ['IT', '39'],
  ['ES', '34'],
  ['PT', '351'],
  ['NL', '31'],
  ['BE', '32'],
  ['CH', '41'],
  ['AT', '43'],
  ['IE', '353'],
  ['SE', '46'],
  ['NO', '47'],
  ['DK', '45'],
  ['FI', '358'],
  ['PL', '48'],
  ['CZ', '420'],
  ['GR', '30'],
  ['RO', '40'],
  ['HU', '36'],
  ['UA', '380'],
  ['BY', '375'],
  ['RU', '7'],
  ['KZ', '7'],
  ['TR', '90'],
  ['IL', '972'],
  ['SA', '966'],
  ['AE', '971'],
  ['QA', '974'],
  ['KW', '965'],
  ['EG', '20'],
  ['MA', '212'],
  ['NG', '234'],
  ['KE', '254'],
  ['ZA', '27'],
  ['IN', '91'],
  ['PK', '92'],
  ['BD', '880'],
  ['LK', '94'],
  ['CN', '86'],
  ['HK', '852'],
  ['MO', '853'],
  ['TW', '886'],
  ['JP', '81'],
  ['KR', '82'],
  ['SG', '65'],
  ['MY', '60'],
  ['ID', '62'],
  ['TH', '66'],
  ['VN', '84'],
  ['PH', '63'],
  ['KH', '855'],
  ['MM', '95'],
  ['AU', '61'],
  ['NZ', '64'],
  ['BR', '55'],
  ['MX', '52'],
  ['AR', '54'],
  ['CL', '56'],
  ['CO', '57'],
  ['PE', '51'],
];

async function seedVersion(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ value: number }>(
    "SELECT value FROM site_setting WHERE key = 'seedVersion'",
  );
  return Number(rows[0]?.value ?? 0);
}

async function seedV1(tx: Queryable): Promise<void> {
  for (const [index, currency] of DEFAULT_CURRENCIES.entries()) {
    await tx.query(
      `INSERT INTO platform_currency (id, currency_name, currency_type, wallet_address_type, scale, sort)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [currency.id, currency.name, currency.type, currency.networks, currency.scale, index],
    );
  }
  const settings: [string, unknown][] = [
    ['siteInfo', { siteName: 'Bourse', siteLogo: '', customerServiceUrl: '', version: '1.0.0' }],
    ['otherValue', OTHER_VALUE_DEFAULTS],
  ];
  for (const [key, value] of settings) {
    await tx.query('INSERT INTO site_setting (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      key,
      JSON.stringify(value),
    ]);
  }
  for (const [name, status, remark] of SWITCHES) {
    await tx.query(
      'INSERT INTO switch_set (switch_name, status, remark) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [name, status, remark],
    );
  }
  for (const [index, tip] of TIPS.entries()) {
    await tx.query(
      'INSERT INTO text_lang (remark, content_lang, sort) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [tip, JSON.stringify(allLanguages(`tip_${tip}`)), index],
    );
  }
  for (const [productType, positionType, exType, feeRate] of defaultFees()) {
    await tx.query(
      `INSERT INTO order_fee_setting (product_type, position_type, ex_type, fee_rate) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [productType, positionType, exType, feeRate],
    );
  }
  await tx.query('INSERT INTO pop_up (title, content, version) VALUES ($1, $2, 1)', [
    JSON.stringify(allLanguages('popup_welcome_title')),
    JSON.stringify(allLanguages('popup_welcome_content')),
  ]);
  for (const [pagePath, modules] of APP_CONFIG) {
    for (const [index, module] of modules.entries()) {
      await tx.query(
        `INSERT INTO app_config (page_path, module, is_visible, description, sort) VALUES ($1, $2, 1, $3, $4)
         ON CONFLICT DO NOTHING`,
        [pagePath, module, `${module} section of ${pagePath}`, index],
      );
    }
  }
  for (const [index, [name, required, inputType, maxLength]] of BANK_PROPERTIES.entries()) {
    await tx.query(
      `INSERT INTO bank_property_config (config_type, property_name, label_key, is_required, input_type, max_length, sort)
       VALUES (0, $1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [name, `bank_${name}`, required, inputType, maxLength, index],
    );
  }
  for (const [index, [country, areaCode]] of AREA_CODES.entries()) {
    await tx.query(
      'INSERT INTO phone_area_code (area_code, country_code, sort) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [areaCode, country, index],
    );
  }
}

/**
 * Deposit and withdrawal channels. The bank account, deposit addresses and payment page are
 * examples that an operator replaces with the platform's own before taking real money: seedV4
 * marks them as examples (is_example, badged in the app until an operator saves the channel) and
 * gives their texts, the remark saying so among them, in every language. The addresses have the right format but a
 * wrong checksum, so a wallet refuses to send to them if one is left in place.
 */
const EXAMPLE = 'Example details of a fresh installation: the operator replaces them.';
const EXAMPLE_KEY = 'seed_exampleRemark';

const RECHARGE_CHANNELS: {
  type: 1 | 2 | 3;
  name: string;
  /** The translation key of the name, when it has words to translate. */
  nameKey?: string;
  currencyId: number;
  network?: string;
  address?: string;
  bank?: [string, string, string];
  payUrl?: string;
  min: string;
  max: string;
}[] = [
  {
    type: 1,
    name: 'Bank transfer (USD)',
    nameKey: 'seed_channelBankUsd',
    currencyId: 1,
    bank: ['Example Bank', 'Bourse client funds', 'DE89370400440532013000'],
    min: '10',
    max: '100000',
  },
  {
    type: 2,
    name: 'USDT (TRC20)',
    currencyId: 3,
    network: 'TRC20',
    address: 'TExampLeDepositAddressRepLaceMe111',
    min: '10',
    max: '500000',
  },
  {
    type: 2,
    name: 'USDT (ERC20)',
    currencyId: 3,
    network: 'ERC20',
    address: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01',
    min: '20',
    max: '500000',
  },
  {
    type: 2,
    name: 'Bitcoin',
    nameKey: 'seed_channelBitcoin',
    currencyId: 4,
    network: 'BTC',
    address: 'bc1qexampxedepxsxtaddressreplacexme',
    min: '0.0005',
    max: '50',
  },
  {
    type: 3,
    name: 'Online payment (USD)',
    nameKey: 'seed_channelOnlineUsd',
    currencyId: 1,
    payUrl: 'https://pay.example.com/checkout',
    min: '10',
    max: '5000',
  },
];

const WITHDRAW_CHANNELS: {
  type: 1 | 2;
  name: string;
  nameKey?: string;
  currencyId: number;
  network?: string;
  feeRate: string;
  fixedFee: string;
  min: string;
  max: string;
  daily: string;
}[] = [
  {
    type: 1,
    name: 'Bank transfer (USD)',
    nameKey: 'seed_channelBankUsd',
    currencyId: 1,
    feeRate: '0.005',
    fixedFee: '1',
    min: '20',
    max: '50000',
    daily: '100000',
  },
  {
    type: 2,
    name: 'USDT (TRC20)',
    currencyId: 3,
    network: 'TRC20',
    feeRate: '0',
    fixedFee: '1',
    min: '10',
    max: '100000',
    daily: '200000',
  },
  {
    type: 2,
    name: 'USDT (ERC20)',
    currencyId: 3,
    network: 'ERC20',
    feeRate: '0',
    fixedFee: '5',
    min: '20',
    max: '100000',
    daily: '200000',
  },
  {
    type: 2,
    name: 'Bitcoin',
    nameKey: 'seed_channelBitcoin',
    currencyId: 4,
    network: 'BTC',
    feeRate: '0',
    fixedFee: '0.0002',
    min: '0.001',
    max: '5',
    daily: '10',
  },
];

/** The exchange fee: a share of the amount exchanged, in the source currency. */
export const DEFAULT_WALLET_SETTINGS = { exchangeFeeRate: '0.001' };

async function seedV2(tx: Queryable): Promise<void> {
  for (const [index, channel] of RECHARGE_CHANNELS.entries()) {
    await tx.query(
      `INSERT INTO recharge_channel (channel_type, channel_name, currency_id, network, deposit_address,
         bank_name, account_name, account_number, pay_url, min_amount, max_amount, remark, sort)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        channel.type,
        channel.name,
        channel.currencyId,
        channel.network ?? null,
        channel.address ?? null,
        channel.bank?.[0] ?? null,
        channel.bank?.[1] ?? null,
        channel.bank?.[2] ?? null,
        channel.payUrl ?? null,
        channel.min,
        channel.max,
        EXAMPLE,
        index,
      ],
    );
  }
  for (const [index, channel] of WITHDRAW_CHANNELS.entries()) {
    await tx.query(
      `INSERT INTO withdraw_channel (channel_type, channel_name, currency_id, network, fee_rate, fixed_fee,
         min_amount, max_amount, daily_limit, sort)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        channel.type,
        channel.name,
        channel.currencyId,
        channel.network ?? null,
        channel.feeRate,
        channel.fixedFee,
        channel.min,
        channel.max,
        channel.daily,
        index,
      ],
    );
  }
  await tx.query(
    "INSERT INTO site_setting (key, value) VALUES ('wallet', $1) ON CONFLICT DO NOTHING",
    [JSON.stringify(DEFAULT_WALLET_SETTINGS)],
  );
}

/** Fast-trade choices for every product type: 30 s, 1 min and 5 min (operators change them). */
const FAST_TRADE_OPTIONS: [number, string, string][] = [
  [30, '0.80', '1'],
  [60, '0.85', '1'],
  [300, '0.90', '1'],
];

async function seedV3(tx: Queryable): Promise<void> {
  for (const productType of Object.values(PRODUCT_TYPE)) {
    for (const [index, [duration, payout, loss]] of FAST_TRADE_OPTIONS.entries()) {
      await tx.query(
        `INSERT INTO fast_trade_option (product_type, duration_seconds, payout_rate, loss_rate, min_stake, max_stake, sort)
         VALUES ($1, $2, $3, $4, 10, 10000, $5)`,
        [productType, duration, payout, loss, index],
      );
    }
  }
}

/** The translation keys of the example bank account's name and holder. */
const EXAMPLE_BANK_KEYS = ['seed_exampleBank', 'seed_exampleHolder'] as const;

/**
 * The example channels marked as examples (is_example, migration 0021), with their texts in every
 * language: a fresh installation showed "Example Bank" and English notes to users of every
 * language as if they were real. A channel is seedV2's example when it still has what seedV2 wrote
 * and no operator ever created or saved it (no audit entry): on a fresh installation, all of them;
 * on one seeded before, those the operator left alone. An operator's save clears the mark.
 */
async function seedV4(tx: Queryable): Promise<void> {
  // A database migrated only part of the way (a migration's own test) has no such columns yet.
  const { rows } = await tx.query(
    `SELECT 1 FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'withdraw_channel' AND column_name = 'is_example'`,
  );
  if (rows.length === 0) return;
  const names = (channel: { name: string; nameKey?: string }) =>
    JSON.stringify(channel.nameKey ? allLanguages(channel.nameKey) : {});
  for (const channel of RECHARGE_CHANNELS) {
    await tx.query(
      `UPDATE recharge_channel c SET channel_name_lang = $1, remark_lang = $2, bank_name_lang = $3,
         account_name_lang = $4, is_example = 1
       WHERE channel_type = $5 AND currency_id = $6 AND channel_name = $7
         AND network IS NOT DISTINCT FROM $8::text AND remark = $9
         AND NOT EXISTS (SELECT 1 FROM audit_log a
                           WHERE a.target_type = 'rechargeChannel' AND a.target_id = c.id::text)`,
      [
        names(channel),
        JSON.stringify(allLanguages(EXAMPLE_KEY)),
        JSON.stringify(channel.bank ? allLanguages(EXAMPLE_BANK_KEYS[0]) : {}),
        JSON.stringify(channel.bank ? allLanguages(EXAMPLE_BANK_KEYS[1]) : {}),
        channel.type,
        channel.currencyId,
        channel.name,
        channel.network ?? null,
        EXAMPLE,
      ],
    );
  }
  for (const channel of WITHDRAW_CHANNELS) {
    await tx.query(
      `UPDATE withdraw_channel c SET channel_name_lang = $1, is_example = 1
       WHERE channel_type = $2 AND currency_id = $3 AND channel_name = $4
         AND network IS NOT DISTINCT FROM $5::text
         AND NOT EXISTS (SELECT 1 FROM audit_log a
                           WHERE a.target_type = 'withdrawChannel' AND a.target_id = c.id::text)`,
      [names(channel), channel.type, channel.currencyId, channel.name, channel.network ?? null],
    );
  }
}

const SEEDS: ((tx: Queryable) => Promise<void>)[] = [seedV1, seedV2, seedV3, seedV4];

/** Applies the default settings a fresh database lacks. Safe to run at every start. */
export async function seedDefaults(db: Database): Promise<void> {
  await db.withAdvisoryLock(7_310_002, async () => {
    const applied = await seedVersion(db);
    if (applied >= SEED_VERSION) return;
    await db.transaction(async (tx) => {
      for (const seed of SEEDS.slice(applied)) await seed(tx);
      await tx.query(
        `INSERT INTO site_setting (key, value) VALUES ('seedVersion', $1)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [JSON.stringify(SEED_VERSION)],
      );
    });
  });
}
