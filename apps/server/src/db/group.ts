/**
 * Group commit for writes that arrive together. Requests of the same moment each ask for one
 * item; while a group is in the database, the next ones wait and then go together as one
 * statement (one round trip, one transaction, one commit). When a group fails, nothing of it was
 * written (one statement is one transaction), and each of its items runs on its own so each gets
 * its own answer: a refusal of one order never refuses its neighbours.
 *
 * Items are spread over lanes, each with at most one group in the database at a time. Items of
 * different lanes must touch different rows (the caller's `laneOf` guarantees it), so groups of
 * two lanes never wait for each other's locks and cannot deadlock.
 *
 * Under light load a group is a single item and goes at once, so nobody waits for company.
 */
export interface GroupWriter<I, R> {
  /** Writes one item in its own transaction. */
  one(item: I): Promise<R>;
  /** Writes several items in one statement; the results come back in the items' order. */
  many(items: I[]): Promise<R[]>;
}

export interface GroupOptions<I> {
  /** How many groups may be in the database at once. */
  lanes: number;
  /** The lane of an item, 0 ≤ lane < lanes. */
  laneOf: (item: I) => number;
  /** The most items in one group. */
  maxGroup?: number;
}

interface Waiting<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

interface Lane<I, R> {
  queue: Waiting<I, R>[];
  running: boolean;
}

export class GroupCommit<I, R> {
  private readonly lanes: Lane<I, R>[];
  private readonly maxGroup: number;

  constructor(
    private readonly writer: GroupWriter<I, R>,
    private readonly options: GroupOptions<I>,
  ) {
    this.lanes = Array.from({ length: options.lanes }, () => ({ queue: [], running: false }));
    this.maxGroup = options.maxGroup ?? 64;
  }

  write(item: I): Promise<R> {
    const lane = this.lanes[this.options.laneOf(item)]!;
    return new Promise<R>((resolve, reject) => {
      lane.queue.push({ item, resolve, reject });
      if (!lane.running) void this.drain(lane);
    });
  }

  private async drain(lane: Lane<I, R>): Promise<void> {
    lane.running = true;
    try {
      // Requests read in the same event-loop turn join the first group.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (lane.queue.length > 0) {
        const group = lane.queue.splice(0, this.maxGroup);
        if (group.length === 1) await this.alone(group[0]!);
        else await this.together(group);
      }
    } finally {
      lane.running = false;
    }
  }

  private async alone(waiting: Waiting<I, R>): Promise<void> {
    try {
      waiting.resolve(await this.writer.one(waiting.item));
    } catch (error) {
      waiting.reject(error);
    }
  }

  private async together(group: Waiting<I, R>[]): Promise<void> {
    let results: R[];
    try {
      results = await this.writer.many(group.map((waiting) => waiting.item));
      if (results.length !== group.length) throw new Error('a group answered the wrong count');
    } catch {
      // Nothing of the group was written: each item again on its own, for its own answer.
      await Promise.all(group.map((waiting) => this.alone(waiting)));
      return;
    }
    group.forEach((waiting, index) => waiting.resolve(results[index]!));
  }
}
