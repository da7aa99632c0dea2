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

/** A change for one user's private /ws topics (orders, positions, balances). */
export interface UserEvent {
  userId: number;
  topic: string;
  data: unknown;
  /** A customer-service visitor's event instead of a user's (`userId` 0, topic `service`). */
  visitorId?: number;
}

/**
 * Carries user events between instances: a user's connections may be on any instance, while
 * the change happened on the one that took the request or saw the tick.
 */
export interface UserEventBus {
  publishUserEvent(event: UserEvent): void;
  /** Delivers every user event published by any instance, this one included. */
  subscribeUserEvents(handler: (event: UserEvent) => void): Promise<void>;
}

/**
 * Sessions that ended (sign-out, a password change, an account disabled, expiry): every
 * instance's /ws drops what those sessions' sockets were sent privately (ws-hub.ts).
 */
export interface SessionsEnded {
  sessionIds: number[];
  /** The hint key the sockets are told (`hint_sessionExpired`, `hint_accountDisabled`). */
  msg: string;
}

export interface SessionEventBus {
  publishSessionsEnded(event: SessionsEnded): void;
  /** Delivers every such event published by any instance, this one included. */
  subscribeSessionsEnded(handler: (event: SessionsEnded) => void): Promise<void>;
}

/**
 * A change of an operators' review queue (the console's deposits and withdrawals, later identity,
 * loans and new shares): a request submitted or leaving review. Operators' consoles on every
 * instance read the queue again at once (modules/admin/console-events.ts).
 */
export interface QueueEvent {
  /** The queue's name: the list's key in the console (`recharges`, `withdrawals`). */
  queue: string;
  /** The request that changed. */
  id: number;
  /** What changed, for queues whose consoles show more than the list (`service`). */
  data?: unknown;
}

export interface QueueEventBus {
  publishQueueEvent(event: QueueEvent): void;
  /** Delivers every queue event published by any instance, this one included. */
  subscribeQueueEvents(handler: (event: QueueEvent) => void): Promise<void>;
}

/** An instance of the server as it announces itself to the others (the console's system page). */
export interface InstanceRecord {
  /** The id it holds the market lease under. */
  id: string;
  host: string;
  pid: number;
  startTime: string;
  feedLeader: boolean;
  /** /ws connections open on it. */
  wsConnections: number;
}

/** Where the instances of a deployment announce themselves, each under a key that expires. */
export interface InstanceRegistry {
  announce(instance: InstanceRecord, ttlMs: number): Promise<void>;
  withdraw(id: string): Promise<void>;
  /** Every instance whose announcement has not expired. */
  instances(): Promise<InstanceRecord[]>;
}

/**
 * Ticks, user events, ended sessions and review queue changes over Redis pub/sub, a channel each
 * per deployment prefix; and the instances' announcements (`<prefix>:instance:<id>`, expiring
 * unless renewed).
 */
export class RedisTickBus
  implements TickBus, UserEventBus, SessionEventBus, QueueEventBus, InstanceRegistry
{
  private readonly channel: string;
  private readonly userChannel: string;
  private readonly sessionChannel: string;
  private readonly queueChannel: string;
  private readonly handlers = new Map<string, (message: string) => void>();
  private readonly instanceKey: string;

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    prefix: string,
  ) {
    this.instanceKey = `${prefix}:instance:`;
    this.channel = `${prefix}:ticks`;
    this.userChannel = `${prefix}:user-events`;
    this.sessionChannel = `${prefix}:sessions-ended`;
    this.queueChannel = `${prefix}:queue-events`;
    this.subscriber.on('message', (channel: string, message: string) => {
      try {
        this.handlers.get(channel)?.(message);
      } catch {
        // A malformed message from outside is ignored.
      }
    });
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
    this.send(this.channel, tick);
  }

  subscribe(handler: (tick: Tick) => void): Promise<void> {
    return this.listen(this.channel, handler, () => true);
  }

  publishUserEvent(event: UserEvent): void {
    this.send(this.userChannel, event);
  }

  subscribeUserEvents(handler: (event: UserEvent) => void): Promise<void> {
    return this.listen(
      this.userChannel,
      handler,
      (event) => Number.isSafeInteger(event.userId) && typeof event.topic === 'string',
    );
  }

  publishSessionsEnded(event: SessionsEnded): void {
    this.send(this.sessionChannel, event);
  }

  subscribeSessionsEnded(handler: (event: SessionsEnded) => void): Promise<void> {
    return this.listen(
      this.sessionChannel,
      handler,
      (event) =>
        Array.isArray(event.sessionIds) &&
        event.sessionIds.every((id) => Number.isSafeInteger(id)) &&
        typeof event.msg === 'string',
    );
  }

  publishQueueEvent(event: QueueEvent): void {
    this.send(this.queueChannel, event);
  }

  subscribeQueueEvents(handler: (event: QueueEvent) => void): Promise<void> {
    return this.listen(
      this.queueChannel,
      handler,
      (event) => typeof event.queue === 'string' && Number.isSafeInteger(event.id),
    );
  }

  async announce(instance: InstanceRecord, ttlMs: number): Promise<void> {
    await this.publisher.set(this.instanceKey + instance.id, JSON.stringify(instance), 'PX', ttlMs);
  }

  async withdraw(id: string): Promise<void> {
    await this.publisher.del(this.instanceKey + id);
  }

  async instances(): Promise<InstanceRecord[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.publisher.scan(
        cursor,
        'MATCH',
        `${this.instanceKey}*`,
        'COUNT',
        100,
      );
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0' && keys.length < 1000);
    if (keys.length === 0) return [];
    const values = await this.publisher.mget(...keys);
    return values.flatMap((value) => {
      try {
        const record = value ? (JSON.parse(value) as InstanceRecord) : undefined;
        return record && typeof record.id === 'string' ? [record] : [];
      } catch {
        return [];
      }
    });
  }

  /** Publishes without waiting: a lost message is one tick or event the others miss. */
  private send(channel: string, value: unknown): void {
    void this.publisher.publish(channel, JSON.stringify(value)).catch(() => undefined);
  }

  /** Delivers the messages of `channel` that pass `valid` (a message from outside may not). */
  private async listen<T>(
    channel: string,
    handler: (value: T) => void,
    valid: (value: T) => boolean,
  ): Promise<void> {
    this.handlers.set(channel, (message) => {
      const value = JSON.parse(message) as T;
      if (valid(value)) handler(value);
    });
    await this.subscriber.subscribe(channel);
  }

  async close(): Promise<void> {
    await Promise.all([this.publisher.quit(), this.subscriber.quit()]).catch(() => undefined);
  }
}

export function instanceId(): string {
  return `${process.pid}-${randomUUID().slice(0, 8)}`;
}
