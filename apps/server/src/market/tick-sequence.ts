/**
 * Tick sequence numbers that identify a tick of a product for the life of the database: the
 * sequence of PRODUCT 1.2's evidence (price, time, source, sequence), the same number in
 * market_tick, in the WebSocket ticker and on every fill, settlement and liquidation.
 *
 * The engine numbers every tick the feed delivers (whatever the provider put there): each run of
 * the feed (a start, or an instance taking the feed's lease over) takes a new epoch from the
 * database with one `UPDATE … RETURNING` (market_tick_epoch, migration 0017), and a tick's
 * sequence is `epoch × 10^9 + n`, n counting 1, 2, 3… per product within the run. So:
 *
 * - Unique for the life of the database: no two runs (on any instance) get the same epoch, and
 *   within a run a product's n never repeats. Nothing is derived from market_tick, so ticks a
 *   previous leader published but never logged (the log writes once a second), and rows pruned
 *   after three days, cannot lead to a number being handed out twice, as "max stored + 1" would.
 * - Strictly increasing per product, by one from tick to tick within a run: a later run has a
 *   larger epoch and n stays below 10^9. A product reaching half of that takes the next epoch for
 *   every product in the background; should it not arrive before 10^9, the product's ticks are
 *   dropped rather than numbered twice (that takes a database unreachable for days).
 * - No database write per tick: one statement per run (and per 5 × 10^8 ticks of the busiest
 *   product); the tick path adds one map lookup.
 * - Simpler than blocks reserved per product (one row per product, refills on the tick path that
 *   must arrive in time): one row and one statement per run.
 * - Readable and exact: a new database's first run numbers 1, 2, 3…, the next 1000000001…;
 *   1000000000042 is tick 42 of epoch 1000 (where a database that had ticks before migration 0017
 *   starts). Epochs stop well below 2^53 / 10^9, so the number is a safe integer in JavaScript,
 *   int8 in the database and a JSON number.
 *
 * A provider's own number (Binance's aggregate trade id) is used by the provider only, to find
 * missed and repeated trades.
 */
import type { Queryable } from '../db/database';

/** Sequences of one epoch: epoch × EPOCH_SPAN + 1 … (epoch + 1) × EPOCH_SPAN − 1. */
export const EPOCH_SPAN = 1_000_000_000;

/** The largest epoch whose sequences are all safe integers. */
export const MAX_EPOCH = Math.floor(Number.MAX_SAFE_INTEGER / EPOCH_SPAN) - 1;

/** Takes the next epoch: no other run, on any instance, before or after, gets the same. */
export async function takeEpoch(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ epoch: number }>(
    `UPDATE market_tick_epoch SET next_epoch = next_epoch + 1 WHERE id = 1
     RETURNING next_epoch - 1 AS epoch`,
  );
  const epoch = rows[0]?.epoch;
  if (epoch === undefined) throw new Error('market_tick_epoch has no row (migration 0017)');
  if (epoch > MAX_EPOCH) throw new RangeError(`tick epoch ${epoch} is beyond ${MAX_EPOCH}`);
  return Number(epoch);
}

export interface TickSequencerOptions {
  /** The epoch of this run, taken before its first tick. */
  epoch: number;
  /** Takes the next epoch (when a product is half way through this one). */
  renew: () => Promise<number>;
  /** Sequences per epoch (a smaller one in tests). */
  span?: number;
  onError?: (error: unknown) => void;
}

/** Numbers the ticks of one run of the feed, product by product. */
export class TickSequencer {
  private base: number;
  private readonly span: number;
  private readonly half: number;
  private readonly counts = new Map<string, number>();
  private renewing = false;
  private retryAt = 0;

  constructor(private readonly options: TickSequencerOptions) {
    this.span = options.span ?? EPOCH_SPAN;
    this.half = Math.floor(this.span / 2);
    this.base = options.epoch * this.span;
  }

  /**
   * The next sequence of a product (by its key), or undefined when its epoch is used up and the
   * next one has not arrived: that tick must be dropped.
   */
  next(key: string): number | undefined {
    const n = (this.counts.get(key) ?? 0) + 1;
    if (n >= this.half) {
      this.renew();
      if (n >= this.span) return undefined;
    }
    this.counts.set(key, n);
    return this.base + n;
  }

  /** Moves every product to the next epoch once it arrives (one request at a time). */
  private renew(): void {
    if (this.renewing || Date.now() < this.retryAt) return;
    this.renewing = true;
    this.options.renew().then(
      (epoch) => {
        // Every product continues above all it had: n restarts under a larger epoch.
        this.base = epoch * this.span;
        this.counts.clear();
        this.renewing = false;
      },
      (error: unknown) => {
        this.renewing = false;
        this.retryAt = Date.now() + 1000;
        this.options.onError?.(error);
      },
    );
  }
}
