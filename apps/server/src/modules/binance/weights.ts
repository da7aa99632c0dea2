/**
 * Binance's request weight: each endpoint costs a weight (its share of the server's work, as
 * Binance prices it), summed per API key (per client address for public calls) over the current
 * UTC minute, answered in `x-mbx-used-weight` and `x-mbx-used-weight-1m` on every answer, and
 * refused past the limit with -1003 on HTTP 429 and `Retry-After` until the minute turns.
 *
 * The limit is five times RATE_LIMIT_GLOBAL_PER_MINUTE: Binance's 6,000 a minute at the default
 * 1,200, and it grows with an operator's budget. It comes on top of the general request budget
 * (budgets.ts), which counts the same calls one each. Counts live in this instance's memory, as
 * that budget's do.
 */
import type { Clock } from '../../lib/clock';

const MINUTE_MS = 60_000;
/** Clients counted in one minute at most; past it, new clients go uncounted until the next. */
const MAX_CLIENTS = 100_000;

export class WeightMeter {
  private minute = 0;
  private readonly used = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    /** Weight a client may use in a minute. */
    readonly limitPerMinute: number,
  ) {}

  private roll(now: number): void {
    const minute = Math.floor(now / MINUTE_MS);
    if (minute !== this.minute) {
      this.minute = minute;
      this.used.clear();
    }
  }

  /** Adds a call's weight to a client: its minute's total, and whether that passes the limit. */
  add(
    client: string,
    weight: number,
  ): { used: number; exceeded: boolean; retryAfterSeconds: number } {
    const now = this.clock.now().getTime();
    this.roll(now);
    const before = this.used.get(client);
    if (before === undefined && this.used.size >= MAX_CLIENTS)
      return { used: weight, exceeded: false, retryAfterSeconds: 0 };
    const used = (before ?? 0) + weight;
    this.used.set(client, used);
    const retryAfterSeconds = Math.max(1, Math.ceil(((this.minute + 1) * MINUTE_MS - now) / 1000));
    return { used, exceeded: used > this.limitPerMinute, retryAfterSeconds };
  }
}
