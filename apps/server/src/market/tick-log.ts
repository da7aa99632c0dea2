/**
 * Keeps every tick the feed delivers for a few days (market_tick): the evidence behind fills and
 * settlements, and what decides orders that expired while the server was stopped. Ticks are
 * written in batches once a second by the instance running the feed; a repeated tick (the same
 * product, time and sequence) is written once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../db/database';
import type { Clock } from '../lib/clock';
import type { TickEvent } from './engine';

export const TICK_RETENTION_MS = 3 * 86_400_000;
const INSERT_BATCH = 2000;

export interface StoredTick {
  productId: number;
  time: number;
  sequence: number;
  price: string;
  source: string;
}

export class TickLog {
  private pending: StoredTick[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private lastPrune = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: FastifyBaseLogger,
    /** Whether this instance writes (the one running the feed). */
    private readonly writes: () => boolean,
  ) {}

  start(flushMs = 1000): void {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  record(event: TickEvent): void {
    if (!this.writes()) return;
    this.pending.push({
      productId: event.product.id,
      time: event.tick.time,
      sequence: event.tick.sequence,
      price: event.tick.price,
      source: event.tick.source,
    });
  }

  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, INSERT_BATCH);
        try {
          await this.db.query(
            `INSERT INTO market_tick (product_id, tick_time, sequence, price, source)
             SELECT * FROM unnest($1::int[], $2::bigint[], $3::bigint[], $4::numeric[], $5::text[])
             ON CONFLICT DO NOTHING`,
            [
              batch.map((tick) => tick.productId),
              batch.map((tick) => tick.time),
              batch.map((tick) => tick.sequence),
              batch.map((tick) => tick.price),
              batch.map((tick) => tick.source),
            ],
          );
        } catch (error) {
          this.logger.error({ err: error }, 'writing ticks failed');
          this.pending.unshift(...batch);
          return;
        }
      }
      const now = this.clock.now().getTime();
      if (now - this.lastPrune > 3_600_000) {
        this.lastPrune = now;
        await this.db
          .query('DELETE FROM market_tick WHERE tick_time < $1', [now - TICK_RETENTION_MS])
          .catch((error: unknown) => this.logger.error({ err: error }, 'pruning ticks failed'));
      }
    });
    return this.writing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}

/** The first stored tick of a product at or after `time` (ms), if there is one. */
export async function firstTickFrom(
  q: Queryable,
  productId: number,
  time: number,
): Promise<StoredTick | undefined> {
  const { rows } = await q.query<{
    tick_time: number;
    sequence: number;
    price: string;
    source: string;
  }>(
    `SELECT tick_time, sequence, price, source FROM market_tick
     WHERE product_id = $1 AND tick_time >= $2 ORDER BY tick_time, sequence LIMIT 1`,
    [productId, time],
  );
  const row = rows[0];
  return row
    ? {
        productId,
        time: row.tick_time,
        sequence: row.sequence,
        price: row.price,
        source: row.source,
      }
    : undefined;
}

/**
 * The last stored tick of every product at or before `time` (ms), by product id, in one statement
 * (a probe of the primary key per product): what a start restores as each product's last price.
 */
export async function lastLoggedTicks(
  q: Queryable,
  time: number,
): Promise<Map<number, StoredTick>> {
  const { rows } = await q.query<{
    product_id: number;
    tick_time: number;
    sequence: number;
    price: string;
    source: string;
  }>(
    `SELECT p.id AS product_id, t.tick_time, t.sequence, t.price::text AS price, t.source
     FROM product p
     CROSS JOIN LATERAL (
       SELECT tick_time, sequence, price, source FROM market_tick
       WHERE product_id = p.id AND tick_time <= $1
       ORDER BY tick_time DESC, sequence DESC LIMIT 1
     ) t`,
    [time],
  );
  return new Map(
    rows.map((row) => [
      row.product_id,
      {
        productId: row.product_id,
        time: row.tick_time,
        sequence: row.sequence,
        price: row.price,
        source: row.source,
      },
    ]),
  );
}
