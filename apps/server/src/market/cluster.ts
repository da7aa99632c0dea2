/**
 * Several server instances (PRODUCT section 10): with REDIS_URL set, ticks travel through Redis so
 * that clients connected to any instance receive them, and only one instance runs the feed and
 * writes candles. That one is elected through the database: it holds a lease it renews; when it
 * stops (crash, shutdown), another instance takes the lease once it expires.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Queryable } from '../db/database';
import type { Tick } from './types';

export const LEASE_NAME = 'market-feed';

/** Takes or renews the lease; true when this holder has it now. */
export async function acquireLease(
  q: Queryable,
  holder: string,
  ttlMs: number,
  name = LEASE_NAME,
): Promise<boolean> {
  const { rows } = await q.query<{ holder: string }>(
    `INSERT INTO market_lease (name, holder, expires_at)
     VALUES ($1, $2, now() + $3 * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE market_lease.holder = EXCLUDED.holder OR market_lease.expires_at < now()
     RETURNING holder`,
    [name, holder, ttlMs],
  );
  return rows[0]?.holder === holder;
}

/** Gives the lease up at once (a clean shutdown), so another instance need not wait. */
export async function releaseLease(q: Queryable, holder: string, name = LEASE_NAME): Promise<void> {
  await q.query('DELETE FROM market_lease WHERE name = $1 AND holder = $2', [name, holder]);
}

export interface TickBus {
  publish(tick: Tick): void;
  /** Delivers every tick published by any instance, this one included. */
  subscribe(handler: (tick: Tick) => void): Promise<void>;
  close(): Promise<void>;
}

/** Ticks over Redis pub/sub, one channel per deployment prefix. */
export class RedisTickBus implements TickBus {
  private readonly channel: string;

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    prefix: string,
  ) {
    this.channel = `${prefix}:ticks`;
  }

  static async connect(url: string, prefix: string): Promise<RedisTickBus> {
    const { Redis } = await import('ioredis');
    const options = { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true };
    const publisher = new Redis(url, options);
    const subscriber = new Redis(url, options);
    await Promise.all([publisher.connect(), subscriber.connect()]);
    return new RedisTickBus(publisher, subscriber, prefix);
  }

  publish(tick: Tick): void {
    void this.publisher.publish(this.channel, JSON.stringify(tick)).catch(() => undefined);
  }

  async subscribe(handler: (tick: Tick) => void): Promise<void> {
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      try {
        handler(JSON.parse(message) as Tick);
      } catch {
        // A malformed message from outside is ignored.
      }
    });
    await this.subscriber.subscribe(this.channel);
  }

  async close(): Promise<void> {
    await Promise.all([this.publisher.quit(), this.subscriber.quit()]).catch(() => undefined);
  }
}

export function instanceId(): string {
  return `${process.pid}-${randomUUID().slice(0, 8)}`;
}
