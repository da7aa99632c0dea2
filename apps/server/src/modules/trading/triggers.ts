/**
 * The trigger engine (PRODUCT section 6): limit entries, take-profits, stop-losses and
 * liquidations fire from ticks, in tick order. Each trigger waits for the price to reach its level
 * from one side (at or below, at or above); per product the triggers of each side are kept sorted
 * so that a tick looks only at the nearest ones, whatever the number resting.
 *
 * Firing is the owner's business (a transaction that locks the order and checks it is still
 * waiting, so each trigger takes effect once however many instances or replays see the tick).
 * Ticks are handled one after another; a tick's triggers fire before the next tick is looked at.
 * At start the owners load what rests in the database and the stored ticks since are replayed,
 * so a level crossed while this server was starting or another instance was stopping still fires.
 */
import { normalize, type TickEvidence } from '@bourse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { MarketEngine, TickEvent } from '../../market/engine';
import { groupBy } from './common';
import { firstTickReaching, TICK_PAGE, ticksAfter, type TickRow } from './repo';

export type TriggerSide = 'atOrBelow' | 'atOrAbove';

export interface Trigger {
  /** Unique across owners ("contract:12:tp"). */
  key: string;
  /** Which owner fires it. */
  owner: string;
  productId: number;
  side: TriggerSide;
  price: string;
  /** Lower fires first among triggers of one tick (entries 0, take-profit/stop-loss 1, liquidation 2). */
  priority: number;
  /** Only ticks after this time (ms) count: when the order was placed or last changed. */
  since: number;
}

export interface FiredTick extends TickEvidence {
  productId: number;
}

/** "done" removes the trigger; "keep" leaves it waiting (the market is closed or halted). */
export type TriggerOutcome = 'done' | 'keep';

export interface TriggerOwner {
  /** Everything of this owner resting in the database. */
  load(): Promise<Trigger[]>;
  /** Fires triggers crossed by one tick. Runs one call at a time. */
  fire(triggers: Trigger[], tick: FiredTick): Promise<Map<string, TriggerOutcome>>;
}

/** Prices as integers of 10^-18, so comparisons are exact and cheap. */
const SCALE = 18;
export function priceUnits(price: string): bigint {
  const text = normalize(price);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const units = BigInt(whole + fraction.padEnd(SCALE, '0').slice(0, SCALE));
  return negative ? -units : units;
}

interface Entry {
  trigger: Trigger;
  units: bigint;
}

interface Book {
  /** Fire when the price is at or below: highest level first (the head is the nearest). */
  below: Entry[];
  /** Fire when the price is at or above: lowest level first. */
  above: Entry[];
  /** Last tick handled (time, sequence): older or repeated ticks are ignored. */
  lastTime: number;
  lastSequence: number;
  /**
   * The ticks handled in the last minute, oldest first: what a level learnt late is checked
   * against (the tick log in the database is written once a second, and by the feed's instance).
   */
  recent: FiredTick[];
  /** Where the last minute starts in `recent` (older ticks before it are dropped in chunks). */
  recentStart: number;
}

const RECENT_MS = 60_000;

function firedTick(productId: number, row: TickRow): FiredTick {
  return {
    productId,
    price: normalize(row.price),
    time: Number(row.tick_time),
    source: row.source,
    sequence: Number(row.sequence),
  };
}

/** Index of the first entry that comes after `units` in a list ordered by `before`. */
function insertionIndex(list: Entry[], units: bigint, descending: boolean): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const other = list[middle]!.units;
    const goesAfter = descending ? other >= units : other <= units;
    if (goesAfter) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class TriggerEngine {
  private readonly owners = new Map<string, TriggerOwner>();
  private readonly books = new Map<number, Book>();
  /** The live entry of each key; entries no longer here are skipped when met in a list. */
  private readonly live = new Map<string, Entry>();
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;
  private buffering: TickEvent[] | null = null;
  /** Ticks handled and triggers fired, for the benchmark and the logs. */
  readonly stats = { ticks: 0, fired: 0 };

  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      db: Database;
      market: MarketEngine;
      logger: FastifyBaseLogger;
      /**
       * With several instances: how often to read what rests in the database, so levels set
       * through another instance fire here too (and still fire when that instance stops).
       */
      refreshMs?: number;
    },
  ) {}

  register(name: string, owner: TriggerOwner): void {
    this.owners.set(name, owner);
  }

  get size(): number {
    return this.live.size;
  }

  private book(productId: number): Book {
    let book = this.books.get(productId);
    if (!book) {
      book = { below: [], above: [], lastTime: -1, lastSequence: -1, recent: [], recentStart: 0 };
      this.books.set(productId, book);
    }
    return book;
  }

  /** Adds a trigger or moves an existing one with the same key. */
  add(trigger: Trigger): void {
    const entry: Entry = { trigger, units: priceUnits(trigger.price) };
    this.live.set(trigger.key, entry);
    const book = this.book(trigger.productId);
    const descending = trigger.side === 'atOrBelow';
    const list = descending ? book.below : book.above;
    list.splice(insertionIndex(list, entry.units, descending), 0, entry);
  }

  remove(key: string): void {
    this.live.delete(key);
  }

  /** Whether a level with this key is waiting here. */
  knows(key: string): boolean {
    return this.live.has(key);
  }

  /** Loads what rests, replays the stored ticks since, then follows live ticks. */
  async start(): Promise<void> {
    this.buffering = [];
    this.unsubscribe = this.deps.market.onTickEvent((event) => {
      if (this.buffering) this.buffering.push(event);
      else this.enqueue(event);
    });
    const since = new Map<number, number>();
    for (const owner of this.owners.values()) {
      for (const trigger of await owner.load()) {
        this.add(trigger);
        const earliest = since.get(trigger.productId);
        if (earliest === undefined || trigger.since < earliest)
          since.set(trigger.productId, trigger.since);
      }
    }
    for (const [productId, from] of since) await this.replay(productId, from);
    const buffered = this.buffering;
    this.buffering = null;
    for (const event of buffered) this.enqueue(event);
    await this.idle();
    if (this.deps.refreshMs) {
      this.refreshTimer = setInterval(() => void this.refresh(), this.deps.refreshMs);
      this.refreshTimer.unref();
    }
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    await this.idle();
  }

  /**
   * Adds the levels resting in the database that this instance does not know (set through
   * another instance) or knows at another price. Levels that no longer rest are left: when a
   * tick reaches them their owner finds the order done and nothing happens. A level learnt after
   * this instance handled ticks newer than it (its instance may have stopped before firing it) is
   * checked against the logged ticks it missed and fires at the first that reached it.
   */
  async refresh(): Promise<number> {
    let added = 0;
    const late: Trigger[] = [];
    try {
      for (const owner of this.owners.values()) {
        for (const trigger of await owner.load()) {
          const known = this.live.get(trigger.key);
          if (known && known.units === priceUnits(trigger.price)) continue;
          this.add(trigger);
          added += 1;
          if (this.book(trigger.productId).lastTime > trigger.since) late.push(trigger);
        }
      }
    } catch (error) {
      this.deps.logger.error({ err: error }, 'refreshing triggers failed');
    }
    if (late.length > 0) {
      this.queue = this.queue
        .then(() => this.catchUp(late))
        .catch((error: unknown) =>
          this.deps.logger.error({ err: error }, 'trigger catch-up failed'),
        );
      await this.queue;
    }
    return added;
  }

  /**
   * Fires late-learnt levels at the first logged tick after they were set (and not after the
   * last tick handled here) that reached them, earliest tick first, in the tick queue.
   */
  private async catchUp(late: Trigger[]): Promise<void> {
    const found: { trigger: Trigger; tick: FiredTick }[] = [];
    for (const trigger of late) {
      const tick = await this.firstCrossing(trigger);
      if (tick) found.push({ trigger, tick });
    }
    found.sort(
      (a, b) =>
        a.tick.time - b.tick.time ||
        a.tick.sequence - b.tick.sequence ||
        a.trigger.priority - b.trigger.priority ||
        a.trigger.key.localeCompare(b.trigger.key),
    );
    for (const group of groupBy(
      found,
      ({ tick }) => `${tick.productId}:${tick.time}:${tick.sequence}`,
    )) {
      // Only those still waiting as learnt (an earlier fire may have closed or moved them).
      const entries = group.flatMap(({ trigger }) => {
        const entry = this.live.get(trigger.key);
        return entry && entry.trigger === trigger ? [entry] : [];
      });
      await this.fireEntries(entries, group[0]!.tick, false);
    }
  }

  /**
   * The first tick handled here after `trigger.since` that reached the trigger: from the tick log
   * for the part before the last minute, else from the ticks kept in memory.
   */
  private async firstCrossing(trigger: Trigger): Promise<FiredTick | undefined> {
    const book = this.book(trigger.productId);
    const units = priceUnits(trigger.price);
    const reaches = (tick: FiredTick) =>
      trigger.side === 'atOrBelow'
        ? priceUnits(tick.price) <= units
        : priceUnits(tick.price) >= units;
    const kept = book.recent[book.recentStart];
    if (!kept || trigger.since < kept.time) {
      const row = await firstTickReaching(
        this.deps.db,
        trigger.productId,
        trigger.since,
        { time: kept?.time ?? book.lastTime, sequence: kept?.sequence ?? book.lastSequence + 1 },
        trigger.price,
        trigger.side === 'atOrBelow',
      );
      if (row) return firedTick(trigger.productId, row);
    }
    for (let at = book.recentStart; at < book.recent.length; at += 1) {
      const tick = book.recent[at]!;
      if (tick.time > trigger.since && reaches(tick)) return tick;
    }
    return undefined;
  }

  /** Resolves when every tick received so far has been handled. */
  idle(): Promise<void> {
    return this.queue;
  }

  private async replay(productId: number, from: number): Promise<void> {
    let cursor = { time: from, sequence: Number.MAX_SAFE_INTEGER };
    for (;;) {
      const rows = await ticksAfter(this.deps.db, productId, cursor.time, cursor.sequence);
      for (const row of rows) await this.handle(firedTick(productId, row));
      if (rows.length < TICK_PAGE) return;
      const last = rows[rows.length - 1]!;
      cursor = { time: Number(last.tick_time), sequence: Number(last.sequence) };
    }
  }

  private enqueue(event: TickEvent): void {
    if (!this.books.has(event.product.id)) return;
    const tick: FiredTick = {
      productId: event.product.id,
      price: event.tick.price,
      time: event.tick.time,
      source: event.tick.source,
      sequence: event.tick.sequence,
    };
    this.queue = this.queue
      .then(() => this.handle(tick))
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'trigger tick failed'));
  }

  /** Handles one tick: takes the crossed triggers off both sides and fires them by owner. */
  async handle(tick: FiredTick): Promise<void> {
    const book = this.books.get(tick.productId);
    if (!book) return;
    if (
      tick.time < book.lastTime ||
      (tick.time === book.lastTime && tick.sequence <= book.lastSequence)
    )
      return;
    book.lastTime = tick.time;
    book.lastSequence = tick.sequence;
    book.recent.push(tick);
    while (book.recent[book.recentStart]!.time < tick.time - RECENT_MS) book.recentStart += 1;
    // Dropped in chunks, so a busy product's tick does not move the whole list each time.
    if (book.recentStart >= 1024 && book.recentStart * 2 >= book.recent.length) {
      book.recent.splice(0, book.recentStart);
      book.recentStart = 0;
    }
    this.stats.ticks += 1;
    const units = priceUnits(tick.price);
    const due: Entry[] = [];
    const take = (list: Entry[], crossed: (level: bigint) => boolean) => {
      let count = 0;
      while (count < list.length && crossed(list[count]!.units)) count += 1;
      if (count === 0) return;
      for (const entry of list.splice(0, count)) {
        // Skip entries removed or moved since they were added, and those not yet in force.
        if (this.live.get(entry.trigger.key) !== entry) continue;
        if (entry.trigger.since >= tick.time) {
          held.push(entry);
          continue;
        }
        due.push(entry);
      }
    };
    const held: Entry[] = [];
    take(book.below, (level) => units <= level);
    take(book.above, (level) => units >= level);
    for (const entry of held) this.reinsert(entry);
    if (due.length === 0) return;
    due.sort(
      (a, b) =>
        a.trigger.priority - b.trigger.priority || a.trigger.key.localeCompare(b.trigger.key),
    );
    await this.fireEntries(due, tick, true);
  }

  /**
   * Fires entries crossed by one tick, by owner. Those fired leave; those kept wait again (put
   * back in their list when `takenOut`, as the tick handler took them out).
   */
  private async fireEntries(entries: Entry[], tick: FiredTick, takenOut: boolean): Promise<void> {
    const byOwner = new Map<string, Trigger[]>();
    for (const entry of entries) {
      const list = byOwner.get(entry.trigger.owner) ?? [];
      list.push(entry.trigger);
      byOwner.set(entry.trigger.owner, list);
    }
    for (const [name, triggers] of byOwner) {
      const owner = this.owners.get(name);
      let outcomes: Map<string, TriggerOutcome>;
      try {
        outcomes = owner ? await owner.fire(triggers, tick) : new Map();
      } catch (error) {
        this.deps.logger.error({ err: error, owner: name }, 'firing triggers failed');
        outcomes = new Map(triggers.map((trigger) => [trigger.key, 'keep' as const]));
      }
      for (const trigger of triggers) {
        const entry = this.live.get(trigger.key);
        if (!entry || entry.trigger !== trigger) continue;
        if (outcomes.get(trigger.key) === 'keep') {
          if (takenOut) this.reinsert(entry);
        } else {
          this.live.delete(trigger.key);
          this.stats.fired += 1;
        }
      }
    }
  }

  private reinsert(entry: Entry): void {
    const book = this.book(entry.trigger.productId);
    const descending = entry.trigger.side === 'atOrBelow';
    const list = descending ? book.below : book.above;
    list.splice(insertionIndex(list, entry.units, descending), 0, entry);
  }
}
