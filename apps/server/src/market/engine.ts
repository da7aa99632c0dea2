/**
 * The market engine: seeds the catalogue, makes sure every product has history, runs the feed,
 * applies each tick to the price store, keeps minute and day candles in the database, and tells
 * its listeners (the WebSocket hub, later the order triggers) about every tick.
 */
import type { FastifyBaseLogger } from 'fastify';
import { normalize, type DecimalString, type ProductType } from '@bourse/shared';
import type { Database } from '../db/database';
import type { Clock } from '../lib/clock';
import { PriceStore, type TickerInfo } from './price-store';
import * as repo from './repo';
import { acquireLease, releaseLease, type TickBus } from './cluster';
import { isSessionOpen } from './sessions';
import {
  SimulatedFeed,
  generateHistory,
  simulatedBook,
  productKey,
  type History,
  type SimulatedParams,
} from './simulated';
import { lastLoggedTicks } from './tick-log';
import { TickSequencer, takeEpoch } from './tick-sequence';
import {
  CANDLE_INTERVALS,
  type BookSides,
  type Candle,
  type CandleInterval,
  type CatalogueProduct,
  type FeedProduct,
  type FeedProvider,
  type Tick,
} from './types';

export interface TickEvent {
  key: string;
  product: repo.ProductRow;
  tick: Tick;
  ticker: TickerInfo;
  candles: Partial<Record<CandleInterval, Candle>>;
}

export interface MarketEngineOptions {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  catalogue: readonly CatalogueProduct[];
  /** Makes the provider; the simulated feed when absent. */
  provider?: (context: {
    params: SimulatedParams[];
    startPrices: Map<string, DecimalString>;
  }) => FeedProvider;
  seed?: string;
  tickIntervalMs?: number;
  spreadTicks?: boolean;
  /**
   * Candles of every interval generated for a product without candles (HISTORY_DEPTH when
   * absent). The older form, `days` (tests asking for a short history), gives that many, at
   * least 30; `minuteDays` is no longer read.
   */
  history?: { candles?: number; days?: number; minuteDays?: number };
  /**
   * Real history for the products a real feed prices (by product key); they get this instead of
   * generated history. Products it does not cover are simulated and get generated history.
   */
  historySource?: (products: FeedProduct[], now: number) => Promise<Map<string, History>>;
  /** How often grown candles are written (milliseconds). */
  flushIntervalMs?: number;
  /**
   * Several instances: ticks travel through the bus, and only the holder of the database lease
   * runs the feed and writes candles.
   */
  cluster?: { bus: TickBus; instance: string; leaseTtlMs?: number };
}

const INSERT_BATCH = 4000;

function paramsOf(row: repo.ProductRow): SimulatedParams {
  return {
    productType: row.product_type,
    productCode: row.product_code,
    priceScale: row.price_scale,
    referencePrice: row.reference_price,
    volatility: Number(row.volatility),
    dailyVolume: row.daily_volume,
    session: row.session,
  };
}

export class MarketEngine {
  readonly store = new PriceStore();
  private products = new Map<string, repo.ProductRow>();
  private productsById = new Map<number, repo.ProductRow>();
  private provider: FeedProvider | undefined;
  private readonly listeners = new Set<(event: TickEvent) => void>();
  private readonly dirty = new Map<string, repo.StoredCandle>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private feedProducts: FeedProduct[] = [];
  private campaignTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** Runs the feed and writes candles: always when alone, the lease holder in a cluster. */
  leader = false;

  constructor(private readonly options: MarketEngineOptions) {}

  get simulated(): boolean {
    return this.provider?.simulated ?? true;
  }

  get feedName(): string {
    return this.provider?.name ?? 'simulated';
  }

  /** Seeds the catalogue, generates missing history and restores the price store. */
  async prepare(): Promise<void> {
    const { db } = this.options;
    await repo.insertCatalogue(db, this.options.catalogue);
    await this.reloadProducts();
    const now = this.options.clock.now().getTime();
    const missing: repo.ProductRow[] = [];
    for (const product of this.products.values()) {
      if (!(await repo.hasCandles(db, product.id))) missing.push(product);
    }
    const real =
      missing.length > 0 && this.options.historySource
        ? await this.options.historySource(
            missing.map((row) => this.feedProduct(row)),
            now,
          )
        : new Map<string, History>();
    for (const product of missing) {
      const history =
        real.get(productKey(product.product_type, product.product_code)) ??
        generateHistory(paramsOf(product), this.seed, now, { depth: this.historyDepth });
      const rows: repo.StoredCandle[] = CANDLE_INTERVALS.flatMap((resolution) =>
        (history[resolution] ?? []).map((candle) => ({
          productId: product.id,
          resolution,
          candle,
        })),
      );
      for (let start = 0; start < rows.length; start += INSERT_BATCH) {
        await repo.upsertCandles(db, rows.slice(start, start + INSERT_BATCH));
      }
    }
    await this.restore(now);
  }

  private get historyDepth(): number | undefined {
    const history = this.options.history;
    if (history?.candles !== undefined) return history.candles;
    return history?.days === undefined ? undefined : Math.max(30, history.days);
  }

  private get seed(): string {
    return this.options.seed ?? 'bourse';
  }

  async reloadProducts(): Promise<void> {
    const rows = await repo.allProducts(this.options.db);
    this.products = new Map(
      rows.map((row) => [productKey(row.product_type, row.product_code), row]),
    );
    this.productsById = new Map(rows.map((row) => [row.id, row]));
    for (const [key, row] of this.products) this.store.register(key, row.price_scale);
  }

  /** Current candles of every interval, the previous day and the last price, from the database. */
  private async restore(now: number): Promise<void> {
    const intervals: CandleInterval[] = ['1m', '5m', '15m', '30m', '1h', '4h', '1w', '1M'];
    // The last logged tick of each product, when there is one: the price an order at market gets
    // before the feed's first tick then carries a real tick's evidence (its source and sequence as
    // market_tick keeps them), not a stand-in that every restart would number the same.
    const lastTicks = await lastLoggedTicks(this.options.db, now);
    for (const [key, product] of this.products) {
      // The latest trading day and the one before (on a closed market: its last session's day,
      // so a weekend shows Friday's move rather than a flat line).
      const days = await repo.candles(this.options.db, product.id, '1d', now + 1, 2);
      const [latestDay, previousDay] = days;
      const restored: Partial<Record<CandleInterval, Candle>> = {};
      if (latestDay) restored['1d'] = latestDay;
      for (const interval of intervals) {
        const [latest] = await repo.candles(this.options.db, product.id, interval, now + 1, 1);
        if (latest) restored[interval] = latest;
      }
      const minute = restored['1m'];
      const lastPrice = minute?.close ?? previousDay?.close ?? product.reference_price;
      const logged = lastTicks.get(product.id);
      this.store.restore(key, {
        candles: restored,
        previousDay,
        last: {
          productType: product.product_type as ProductType,
          productCode: product.product_code,
          price: logged ? normalize(logged.price) : lastPrice,
          volume: '0',
          time: logged?.time ?? (minute ? Math.min(now, minute.openTime + 59_999) : now),
          // No tick logged (a new database, or none for three days): the history's last close.
          source: logged?.source ?? 'history',
          sequence: logged?.sequence ?? 0,
        },
      });
    }
  }

  async start(): Promise<void> {
    this.feedProducts = [...this.products.values()].map((row) => this.feedProduct(row));
    this.flushTimer = setInterval(() => void this.flush(), this.options.flushIntervalMs ?? 1000);
    this.flushTimer.unref();
    const cluster = this.options.cluster;
    if (!cluster) {
      this.leader = true;
      await this.runFeed((tick) => this.onTick(tick));
      return;
    }
    // Every instance applies the ticks of the bus, the leader's own included.
    await cluster.bus.subscribe((tick) => this.onTick(tick));
    const ttl = cluster.leaseTtlMs ?? 15_000;
    const campaign = async () => {
      if (this.stopping) return;
      const holds = await acquireLease(this.options.db, cluster.instance, ttl).catch(() => false);
      if (holds && !this.leader) {
        this.leader = true;
        this.options.logger.info({ instance: cluster.instance }, 'running the market feed');
        try {
          await this.runFeed((tick) => cluster.bus.publish(tick));
        } catch (error) {
          // No epoch (the database is unreachable) or the provider failed: the next round tries
          // again while this instance holds the lease.
          this.options.logger.error({ err: error }, 'starting the market feed failed');
          this.leader = false;
          await this.provider?.stop();
        }
      } else if (!holds && this.leader) {
        this.leader = false;
        this.options.logger.warn({ instance: cluster.instance }, 'lost the market feed lease');
        await this.provider?.stop();
      }
    };
    await campaign();
    this.campaignTimer = setInterval(() => void campaign(), Math.max(50, Math.floor(ttl / 3)));
    this.campaignTimer.unref();
  }

  /**
   * Starts a fresh provider continuing from the prices the store holds now. Its ticks are
   * numbered here, in a new epoch (tick-sequence.ts), before anyone sees them.
   */
  private async runFeed(onTick: (tick: Tick) => void): Promise<void> {
    const { db, logger } = this.options;
    const sequencer = new TickSequencer({
      epoch: await takeEpoch(db),
      renew: () => takeEpoch(db),
      onError: (error) => logger.error({ err: error }, 'taking a new tick epoch failed'),
    });
    let dropped = 0;
    const numbered = (tick: Tick) => {
      const key = productKey(tick.productType, tick.productCode);
      if (!this.products.has(key)) return;
      const sequence = sequencer.next(key);
      if (sequence === undefined) {
        if (dropped++ % 10_000 === 0) logger.error({ dropped }, 'tick dropped: no tick epoch');
        return;
      }
      // On the provider's own object: whoever holds the tick it delivered sees its number.
      tick.sequence = sequence;
      onTick(tick);
    };
    const params = [...this.products.values()].map(paramsOf);
    const startPrices = new Map<string, DecimalString>();
    for (const key of this.products.keys()) {
      const price = this.store.state(key)?.last?.price;
      if (price) startPrices.set(key, price);
    }
    this.provider =
      this.options.provider?.({ params, startPrices }) ??
      new SimulatedFeed({
        seed: this.seed,
        clock: this.options.clock,
        params,
        startPrices,
        tickIntervalMs: this.options.tickIntervalMs,
        spreadTicks: this.options.spreadTicks,
      });
    await this.provider.start(this.feedProducts, {
      onTick: numbered,
      onGap: (product, detail) =>
        this.options.logger.warn({ product: product.productCode, detail }, 'feed gap'),
      onStatus: (status, detail) =>
        this.options.logger.info({ feed: this.provider?.name, status, detail }, 'feed status'),
    });
  }

  /** Applies one tick: price store, candles to write, listeners. */
  onTick(tick: Tick): void {
    const key = productKey(tick.productType, tick.productCode);
    const product = this.products.get(key);
    if (!product) return;
    const candles = this.store.apply(key, tick);
    const ticker = this.store.tickerInfo(key);
    if (!candles || !ticker) return;
    // Candles are written by the instance running the feed only, every interval as it grows.
    for (const resolution of this.leader ? CANDLE_INTERVALS : []) {
      const candle = candles[resolution];
      if (candle) {
        this.dirty.set(`${product.id}:${resolution}:${candle.openTime}`, {
          productId: product.id,
          resolution,
          candle,
        });
      }
    }
    const event: TickEvent = { key, product, tick, ticker, candles };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.options.logger.error({ err: error }, 'market listener failed');
      }
    }
  }

  onTickEvent(listener: (event: TickEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes the candles that grew since the last flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.dirty.size === 0) return;
      const batch = [...this.dirty.values()];
      this.dirty.clear();
      try {
        await repo.upsertCandles(this.options.db, batch);
      } catch (error) {
        this.options.logger.error({ err: error }, 'writing candles failed');
        // Keep them for the next flush unless newer versions arrived meanwhile.
        for (const stored of batch) {
          const id = `${stored.productId}:${stored.resolution}:${stored.candle.openTime}`;
          if (!this.dirty.has(id)) this.dirty.set(id, stored);
        }
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.campaignTimer) clearInterval(this.campaignTimer);
    await this.provider?.stop();
    await this.flush();
    const cluster = this.options.cluster;
    if (cluster) {
      // The bus is the app's: it closes it once everything that publishes has stopped.
      if (this.leader) await releaseLease(this.options.db, cluster.instance).catch(() => undefined);
    }
    this.leader = false;
  }

  private feedProduct(row: repo.ProductRow): FeedProduct {
    return {
      productType: row.product_type as ProductType,
      productCode: row.product_code,
      sourceSymbol: row.source_symbol,
      priceScale: row.price_scale,
    };
  }

  /** Whether this product's prices are made up (the simulated feed): its screens say so. */
  isSimulated(row: repo.ProductRow): boolean {
    return this.provider?.isSimulated?.(this.feedProduct(row)) ?? this.simulated;
  }

  /** The name of the feed behind this product's prices. */
  sourceOf(row: repo.ProductRow): string {
    return this.provider?.sourceOf?.(this.feedProduct(row)) ?? this.feedName;
  }

  product(productType: number, productCode: string): repo.ProductRow | undefined {
    return this.products.get(productKey(productType, productCode));
  }

  productById(id: number): repo.ProductRow | undefined {
    return this.productsById.get(id);
  }

  allProducts(): repo.ProductRow[] {
    return [...this.products.values()];
  }

  tickerInfo(product: repo.ProductRow): TickerInfo | undefined {
    return this.store.tickerInfo(productKey(product.product_type, product.product_code));
  }

  isOpen(product: repo.ProductRow, time = this.options.clock.now().getTime()): boolean {
    return isSessionOpen(product.session, time);
  }

  /**
   * The product's order book: from its feed when that publishes one, for a simulated product a
   * simulated book around its last price (`simulated` true). Empty sides when there is neither.
   */
  async orderBook(
    product: repo.ProductRow,
    levels: number,
  ): Promise<{
    simulated: boolean;
    source: string;
    bids: BookSides['bids'];
    asks: BookSides['asks'];
    time: number;
  }> {
    const simulated = this.isSimulated(product);
    const source = this.sourceOf(product);
    const last = this.store.state(productKey(product.product_type, product.product_code))?.last;
    if (simulated) {
      if (!last)
        return { simulated, source, bids: [], asks: [], time: this.options.clock.now().getTime() };
      const book = simulatedBook(paramsOf(product), this.seed, last.price, last.time, levels);
      return { simulated, source, ...book };
    }
    const book = await this.provider
      ?.orderBook?.(this.feedProduct(product), levels)
      .catch((error: unknown) => {
        this.options.logger.warn(
          { err: error, product: product.product_code },
          'order book unavailable',
        );
        return undefined;
      });
    return {
      simulated,
      source,
      bids: book?.bids ?? [],
      asks: book?.asks ?? [],
      time: book?.time ?? this.options.clock.now().getTime(),
    };
  }

  /** The current candle of an interval (still growing), for the newest k-line. */
  currentCandle(product: repo.ProductRow, interval: CandleInterval): Candle | undefined {
    return this.store.state(productKey(product.product_type, product.product_code))?.candles[
      interval
    ];
  }
}
