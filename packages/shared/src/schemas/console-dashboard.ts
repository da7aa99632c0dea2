/**
 * Schemas of the console's dashboard (/admin-api/dashboard/*): figures the server computes from
 * the database and from its running parts (the market feed, the lease, /ws), never typed in
 * (PRODUCT section 1, rule 6). "Today" is the UTC day of the server's clock; trading figures are
 * of the live book (real money), the demo book's paper trades left out. Amounts are decimal
 * strings at their currency's scale.
 */
import { z } from 'zod';

const count = z.number().int().min(0);
const amount = z.string().describe("Decimal text at the currency's scale.");
const asOf = {
  asOf: z.string().describe('When the figures were computed (ISO 8601, the server clock).'),
  dayStart: z.string().describe('Start of "today": 00:00 UTC of the server clock (ISO 8601).'),
};

// ---------------------------------------------------------------- overview

/** The last tick the feed delivered for a product type, as this instance holds it. */
export const dashboardFeedType = z.object({
  productType: z.number().int().describe('1 US stocks, 2 crypto, 3 futures, 4 forex.'),
  sources: z.array(z.string()).describe("The feeds behind the type's prices."),
  products: count,
  openProducts: count.describe('Products whose trading session is open now.'),
  lastTickTime: z.string().nullable(),
  lastTickProduct: z.string().nullable(),
  lastTickPrice: z.string().nullable(),
  lastTickSource: z.string().nullable(),
  lastTickSequence: z.number().int().nullable(),
  lagMs: z.number().int().nullable().describe('Server clock minus the last tick time.'),
});
export type DashboardFeedType = z.output<typeof dashboardFeedType>;

export const dashboardOverview = z.object({
  ...asOf,
  users: z.object({
    total: count,
    newToday: count.describe('Registered today.'),
    signedInToday: count.describe('Distinct users who started a session today.'),
  }),
  feed: z.object({
    running: z.boolean().describe('Whether this instance runs the market engine at all.'),
    name: z.string().nullable(),
    simulated: z.boolean(),
    leader: z.boolean().describe('Whether this instance runs the feed (writes ticks and candles).'),
    productTypes: z.array(dashboardFeedType),
  }),
  lease: z
    .object({
      name: z.string(),
      holder: z.string(),
      expiresAt: z.string(),
      expired: z.boolean(),
    })
    .nullable()
    .describe('The market lease (several instances); null when one instance runs alone.'),
  instance: z.object({
    clustered: z.boolean().describe('Several instances share ticks through Redis.'),
    wsConnections: count.describe('/ws connections open on this instance.'),
    wsConnectionsAll: count.describe(
      '/ws connections of every instance announced through Redis (this one alone when not clustered).',
    ),
    instances: count.describe('Instances counted in wsConnectionsAll.'),
  }),
});
export type DashboardOverview = z.output<typeof dashboardOverview>;

// ---------------------------------------------------------------- deposits and withdrawals

export const dashboardCurrencyMoney = z.object({
  currencyId: z.number().int(),
  currencyName: z.string(),
  depositsPending: count,
  depositsPendingAmount: amount,
  depositsApprovedToday: count,
  depositsApprovedTodayAmount: amount,
  withdrawalsPending: count,
  withdrawalsPendingAmount: amount,
  withdrawalsPaidToday: count,
  withdrawalsPaidTodayAmount: amount,
  withdrawalsPaidTodayFee: amount,
});
export type DashboardCurrencyMoney = z.output<typeof dashboardCurrencyMoney>;

export const dashboardMoney = z.object({
  ...asOf,
  currencies: z
    .array(dashboardCurrencyMoney)
    .describe('Each currency with a deposit or withdrawal channel, or with a figure.'),
});
export type DashboardMoney = z.output<typeof dashboardMoney>;

// ---------------------------------------------------------------- trading

export const dashboardTradingDay = z.object({
  day: z.string().describe('UTC date, YYYY-MM-DD.'),
  trades: count,
  volume: amount,
  fees: amount,
});
export type DashboardTradingDay = z.output<typeof dashboardTradingDay>;

/** One kind of trading in one currency: today and each of the last 30 days (today included). */
export const dashboardTradingSeries = z.object({
  positionType: z
    .number()
    .int()
    .describe('0 fast trades, 1 contracts, 2 spot, 3 coin-to-coin (the fee table’s types).'),
  currencyId: z.number().int(),
  currencyName: z.string(),
  today: dashboardTradingDay,
  days: z.array(dashboardTradingDay),
});
export type DashboardTradingSeries = z.output<typeof dashboardTradingSeries>;

export const dashboardOpenInterest = z.object({
  productType: z.number().int(),
  productCode: z.string(),
  currencyName: z.string(),
  positions: count,
  longQuantity: z.string(),
  shortQuantity: z.string(),
  longNotional: amount.describe('Quantity × entry price of the long positions.'),
  shortNotional: amount,
  margin: amount,
});
export type DashboardOpenInterest = z.output<typeof dashboardOpenInterest>;

export const dashboardOpenFastTrades = z.object({
  currencyName: z.string(),
  orders: count,
  stake: amount,
});

export const dashboardTrading = z.object({
  ...asOf,
  days: z.array(z.string()).describe('The 30 UTC dates of the series, oldest first.'),
  series: z
    .array(dashboardTradingSeries)
    .describe(
      'Volume (fast trades: stakes; contracts: notional at open and at close; spot and ' +
        'coin-to-coin: filled amounts) and fees by kind and currency.',
    ),
  openInterest: z.array(dashboardOpenInterest).describe('Open contract positions by product.'),
  openFastTrades: z.array(dashboardOpenFastTrades),
});
export type DashboardTrading = z.output<typeof dashboardTrading>;
