/**
 * The console's dashboard: figures computed on each call from the database (dashboard-repo.ts)
 * and from this instance's running parts (the market engine's last ticks, the /ws hub), never
 * stored or typed in (PRODUCT section 1, rule 6). "Today" is the UTC day of the app's Clock (the
 * platform has no time zone of its own); the series are the 30 UTC days ending today.
 */
import {
  normalize,
  POSITION_TYPES,
  toScale,
  type DashboardFeedType,
  type DashboardMoney,
  type DashboardOverview,
  type DashboardTrading,
  type DashboardTradingDay,
  type DashboardTradingSeries,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { MarketEngine } from '../../market/engine';
import { LEASE_NAME } from '../../market/cluster';
import * as repo from './dashboard-repo';

const DAY_MS = 86_400_000;
/** Days of the trading series, today included. */
export const DASHBOARD_DAYS = 30;
/** Products of the open-interest table at most (the catalogue is far smaller). */
const OPEN_INTEREST_ROWS = 200;

export interface DashboardDeps {
  db: Database;
  clock: Clock;
  /** The market engine of this instance (absent when the feed is off). */
  market?: MarketEngine;
  /** Several instances share ticks through Redis. */
  clustered: boolean;
  /** /ws connections open on this instance. */
  wsConnections: () => number;
  /** This instance's id, and the instances announced through Redis (several instances). */
  instanceId?: string;
  instances?: () => Promise<{ id: string; wsConnections?: number }[]>;
  /** The currency trades are made in (otherValue's default_trade_currency_id). */
  tradeCurrency: () => Promise<{ id: number; currencyName: string; scale: number } | undefined>;
}

/** 00:00 UTC of the day `now` falls in. */
export function utcDayStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
}

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** An amount at its currency's scale (sums of notional may carry more decimals). */
const scaled = (value: string, scale: number) => toScale(value, scale, 'halfUp');

export class DashboardService {
  constructor(private readonly deps: DashboardDeps) {}

  private today() {
    const now = this.deps.clock.now();
    const from = utcDayStart(now);
    return { now, from, to: new Date(from.getTime() + DAY_MS) };
  }

  async overview(): Promise<DashboardOverview> {
    const { now, from, to } = this.today();
    const [users, lease] = await Promise.all([
      repo.userCounts(this.deps.db, from, to),
      repo.marketLease(this.deps.db, LEASE_NAME),
    ]);
    const market = this.deps.market;
    return {
      asOf: now.toISOString(),
      dayStart: from.toISOString(),
      users: {
        total: users.total,
        newToday: users.new_today,
        signedInToday: users.signed_in_today,
      },
      feed: {
        running: Boolean(market),
        name: market?.feedName ?? null,
        simulated: market?.simulated ?? false,
        leader: market?.leader ?? false,
        productTypes: market ? feedByProductType(market, now.getTime()) : [],
      },
      lease: lease
        ? {
            name: lease.name,
            holder: lease.holder,
            expiresAt: lease.expires_at.toISOString(),
            expired: lease.expired,
          }
        : null,
      instance: await this.instanceFigures(),
    };
  }
  /** /ws connections here and on every instance announced (each announces its own count). */
  private async instanceFigures() {
    const here = this.deps.wsConnections();
    const announced = (await this.deps.instances?.().catch(() => [])) ?? [];
    const others = announced.filter((record) => record.id !== this.deps.instanceId);
    return {
      clustered: this.deps.clustered,
      wsConnections: here,
      wsConnectionsAll: others.reduce((sum, record) => sum + (record.wsConnections ?? 0), here),
      instances: 1 + others.length,
    };
  }

  async money(): Promise<DashboardMoney> {
    const { now, from, to } = this.today();
    const rows = await repo.moneyByCurrency(this.deps.db, from, to);
    return {
      asOf: now.toISOString(),
      dayStart: from.toISOString(),
      currencies: rows.map((row) => ({
        currencyId: row.currency_id,
        currencyName: row.currency_name,
        depositsPending: row.deposits_pending,
        depositsPendingAmount: scaled(row.deposits_pending_amount, row.scale),
        depositsApprovedToday: row.deposits_approved,
        depositsApprovedTodayAmount: scaled(row.deposits_approved_amount, row.scale),
        withdrawalsPending: row.withdrawals_pending,
        withdrawalsPendingAmount: scaled(row.withdrawals_pending_amount, row.scale),
        withdrawalsPaidToday: row.withdrawals_paid,
        withdrawalsPaidTodayAmount: scaled(row.withdrawals_paid_amount, row.scale),
        withdrawalsPaidTodayFee: scaled(row.withdrawals_paid_fee, row.scale),
      })),
    };
  }

  async trading(): Promise<DashboardTrading> {
    const { now, from, to } = this.today();
    const first = new Date(from.getTime() - (DASHBOARD_DAYS - 1) * DAY_MS);
    const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) =>
      isoDay(first.getTime() + i * DAY_MS),
    );
    const [byDay, interest, open, currency] = await Promise.all([
      repo.tradingByDay(this.deps.db, first, to),
      repo.openInterest(this.deps.db, OPEN_INTEREST_ROWS),
      repo.openFastTrades(this.deps.db),
      this.deps.tradeCurrency(),
    ]);
    return {
      asOf: now.toISOString(),
      dayStart: from.toISOString(),
      days,
      series: tradingSeries(byDay, days, currency),
      openInterest: interest.map((row) => ({
        productType: row.product_type,
        productCode: row.product_code,
        currencyName: row.currency_name,
        positions: row.positions,
        longQuantity: normalize(row.long_quantity),
        shortQuantity: normalize(row.short_quantity),
        longNotional: scaled(row.long_notional, row.scale),
        shortNotional: scaled(row.short_notional, row.scale),
        margin: scaled(row.margin, row.scale),
      })),
      openFastTrades: open.map((row) => ({
        currencyName: row.currency_name,
        orders: row.orders,
        stake: scaled(row.stake, row.scale),
      })),
    };
  }
}

/**
 * One series per kind and currency with every day of `days` (zero where nothing traded). Each kind
 * has a series in the trade currency and in any other currency traded in the 30 days.
 */
function tradingSeries(
  rows: repo.TradingDayRow[],
  days: string[],
  tradeCurrency: { id: number; currencyName: string; scale: number } | undefined,
): DashboardTradingSeries[] {
  const series = new Map<
    string,
    { head: repo.TradingDayRow; byDay: Map<string, DashboardTradingDay> }
  >();
  for (const row of rows) {
    const key = `${row.position_type}:${row.currency_id}`;
    let entry = series.get(key);
    if (!entry) {
      entry = { head: row, byDay: new Map() };
      series.set(key, entry);
    }
    entry.byDay.set(row.day, {
      day: row.day,
      trades: row.trades,
      volume: scaled(row.volume, row.scale),
      fees: scaled(row.fees, row.scale),
    });
  }
  const currencies = new Map(rows.map((row) => [row.currency_id, row]));
  if (tradeCurrency && !currencies.has(tradeCurrency.id)) {
    currencies.set(tradeCurrency.id, {
      position_type: 0,
      currency_id: tradeCurrency.id,
      currency_name: tradeCurrency.currencyName,
      scale: tradeCurrency.scale,
      day: '',
      trades: 0,
      volume: '0',
      fees: '0',
    });
  }
  for (const kind of POSITION_TYPES) {
    for (const currency of currencies.values()) {
      const key = `${kind}:${currency.currency_id}`;
      if (!series.has(key))
        series.set(key, { head: { ...currency, position_type: kind }, byDay: new Map() });
    }
  }
  const today = days[days.length - 1]!;
  return [...series.values()]
    .map(({ head, byDay }) => {
      const zero = (day: string): DashboardTradingDay => ({
        day,
        trades: 0,
        volume: scaled('0', head.scale),
        fees: scaled('0', head.scale),
      });
      return {
        positionType: head.position_type,
        currencyId: head.currency_id,
        currencyName: head.currency_name,
        today: byDay.get(today) ?? zero(today),
        days: days.map((day) => byDay.get(day) ?? zero(day)),
      };
    })
    .sort((a, b) => a.positionType - b.positionType || a.currencyId - b.currencyId);
}

/** Per product type: its feeds, products, open sessions and the latest tick this instance has. */
function feedByProductType(market: MarketEngine, now: number): DashboardFeedType[] {
  const types = new Map<number, DashboardFeedType>();
  for (const product of market.allProducts()) {
    let entry = types.get(product.product_type);
    if (!entry) {
      entry = {
        productType: product.product_type,
        sources: [],
        products: 0,
        openProducts: 0,
        lastTickTime: null,
        lastTickProduct: null,
        lastTickPrice: null,
        lastTickSource: null,
        lastTickSequence: null,
        lagMs: null,
      };
      types.set(product.product_type, entry);
    }
    entry.products += 1;
    if (market.isOpen(product, now)) entry.openProducts += 1;
    const source = market.sourceOf(product);
    if (!entry.sources.includes(source)) entry.sources.push(source);
    const ticker = market.tickerInfo(product);
    if (ticker && (entry.lastTickTime === null || ticker.time > Date.parse(entry.lastTickTime))) {
      entry.lastTickTime = new Date(ticker.time).toISOString();
      entry.lastTickProduct = product.product_code;
      entry.lastTickPrice = ticker.nowPrice;
      entry.lastTickSource = ticker.source;
      entry.lastTickSequence = ticker.sequence;
      entry.lagMs = Math.max(0, now - ticker.time);
    }
  }
  return [...types.values()].sort((a, b) => a.productType - b.productType);
}
