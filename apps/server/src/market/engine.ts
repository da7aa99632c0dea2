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
/**
 * A tick of a product this instance does not know (listed through another instance) reads the
 * products again, at most this often.
 */
const UNKNOWN_PRODUCT_RELOAD_MS = 5000;

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
  private campaignTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** Restored from the database: products added later start at their reference price. */
  private prepared = false;
  /** Reloads of the products, one after another. */
  private reloading: Promise<void> = Promise.resolve();
  private unknownReloadAt = 0;
  private unknownReloadPending = false;
  private unknownReloadTimer: NodeJS.Timeout | undefined;
  /**
   * A provider made only to answer which codes the feed knows (`feedKnows`), on every instance
   * (the one running the feed may be another); never started.
   */
  private lookup: FeedProvider | undefined;
  private readonly catalogueKeys: Set<string>;
  /** Runs the feed and writes candles: always when alone, the lease holder in a cluster. */
  leader = false;

  constructor(private readonly options: MarketEngineOptions) {
    this.catalogueKeys = new Set(
      options.catalogue.map((product) => productKey(product.productType, product.code)),
    );
    this.lookup = options.provider?.({ params: [], startPrices: new Map() });
  }

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
    // History is made for the catalogue's products only: a product listed later (a new share or
    // coin) has no price before its listing, and its first candles are the feed's.
    const missing: repo.ProductRow[] = [];
    for (const [key, product] of this.products) {
      if (this.catalogueKeys.has(key) && !(await repo.hasCandles(db, product.id)))
        missing.push(product);
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
    this.prepared = true;
  }

  private get historyDepth(): number | undefined {
    const history = this.options.history;
    if (history?.candles !== undefined) return history.candles;
    return history?.days === undefined ? undefined : Math.max(30, history.days);
  }

  private get seed(): string {
    return this.options.seed ?? 'bourse';
  }

  /**
   * Reads the products again (an operator's change, a product listed). A product that was not
   * there before starts at its reference price, and the running feed starts pricing it.
   */
  reloadProducts(): Promise<void> {
    const reload = this.reloading.then(async () => {
      const rows = await repo.allProducts(this.options.db);
      const before = this.productsById;
      this.products = new Map(
        rows.map((row) => [productKey(row.product_type, row.product_code), row]),
      );
      this.productsById = new Map(rows.map((row) => [row.id, row]));
      for (const [key, row] of this.products) this.store.register(key, row.price_scale);
      if (!this.prepared) return;
      for (const row of rows) if (!before.has(row.id)) this.startListed(row);
    });
    this.reloading = reload.catch(() => undefined);
    return reload;
  }

  /**
   * Lists a product added to the database while the engine runs (a new share or coin, by
   * modules/new-shares): its price starts at its reference price (the offer price), with no
   * candle before now, and the feed prices it from now on, simulated products labelled as such.
   * Other instances of a cluster learn of it from its first tick (onTick) or within a lease
   * renewal. Calling it again for a listed product changes nothing.
   */
  async listProduct(productId: number): Promise<void> {
    await this.reloadProducts();
    if (!this.productsById.has(productId))
      throw new Error(`listProduct: no product ${productId} in the database`);
  }

  /** A product new to this engine: its first price, and the running feed's. */
  private startListed(row: repo.ProductRow): void {
    const key = productKey(row.product_type, row.product_code);
    const state = this.store.state(key);
    if (state && !state.last) {
      this.store.restore(key, {
        candles: {},
        last: this.listingTick(row, this.options.clock.now().getTime()),
      });
    }
    if (!this.leader || !this.provider) return;
    const added = this.provider.addProduct?.(this.feedProduct(row), {
      params: paramsOf(row),
      startPrice: this.store.state(key)?.last?.price ?? normalize(row.reference_price),
    });
    if (added)
      this.options.logger.info({ product: row.product_code }, 'product listed on the feed');
    else
      this.options.logger.warn(
        { product: row.product_code, feed: this.feedName },
        'the running feed cannot add this product: it is priced from the next start of the feed',
      );
  }

  /**
   * The price of a product with neither a tick nor a candle yet (listed, not yet traded): its
   * reference price, stamped `listing`.
   */
  private listingTick(row: repo.ProductRow, time: number): Tick {
    return {
      productType: row.product_type as ProductType,
      productCode: row.product_code,
      price: normalize(row.reference_price),
      volume: '0',
      time,
      source: 'listing',
      sequence: 0,
    };
  }

  /**
   * Whether the feed of this product type can price this code: any code on a simulated feed, on a
   * real one a symbol it lists (a new coin can be listed only then).
   */
  feedKnows(productType: number, productCode: string): boolean {
    const provider = this.lookup;
    if (!provider) return true;
    const product: FeedProduct = {
      productType: productType as ProductType,
      productCode,
      sourceSymbol: productCode,
      priceScale: 0,
    };
    return provider.knows?.(product) ?? provider.simulated;
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
      // Listed (not of the catalogue) and not traded yet: neither a tick nor a candle.
      const listed =
        !this.catalogueKeys.has(key) &&
        !logged &&
        !previousDay &&
        Object.keys(restored).length === 0;
      this.store.restore(key, {
        candles: restored,
        previousDay,
        last: listed
          ? this.listingTick(product, now)
          : {
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
    this.lookup?.watchSymbols?.();
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
      // A product listed through another instance, before any tick of it arrives here (the one
      // running the feed learns of it only so). Like the lease, a failure waits for the next round.
      await this.reloadIfListed().catch(() => undefined);
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
    const feedProducts = [...this.products.values()].map((row) => this.feedProduct(row));
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
    await this.provider.start(feedProducts, {
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
    if (!product) {
      // In a cluster: a product another instance listed; its next ticks apply here.
      if (this.options.cluster) this.reloadForUnknown();
      return;
    }
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

  /** One reload at a time, at most every UNKNOWN_PRODUCT_RELOAD_MS, however many ticks ask. */
  private reloadForUnknown(): void {
    if (this.unknownReloadPending || this.stopping || !this.prepared) return;
    this.unknownReloadPending = true;
    const wait = Math.max(0, this.unknownReloadAt + UNKNOWN_PRODUCT_RELOAD_MS - Date.now());
    this.unknownReloadTimer = setTimeout(() => {
      this.unknownReloadAt = Date.now();
      if (this.stopping) return;
      this.reloadProducts()
        .catch((error: unknown) =>
          this.options.logger.error({ err: error }, 'reading the products failed'),
        )
        .finally(() => (this.unknownReloadPending = false));
    }, wait);
    this.unknownReloadTimer.unref();
  }

  /** Reads the products again when the database has one this engine has not seen. */
  private async reloadIfListed(): Promise<void> {
    const latest = await repo.latestProductId(this.options.db);
    if (latest !== undefined && !this.productsById.has(latest)) await this.reloadProducts();
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
    clearTimeout(this.unknownReloadTimer);
    await this.provider?.stop();
    if (this.lookup !== this.provider) await this.lookup?.stop();
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
