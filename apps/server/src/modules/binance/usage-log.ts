/**
 * The usage log's entries of calls made here, written after their answers, a group at a time.
 *
 * Bourse's own signed calls write each answer's entry before sending it (docs/adr/0010). Here an
 * order's latency was the benchmark's subject (issue 20: signed order placement at 500 a second
 * with a p99 within 1.5 times the app's own order call), and that write was the larger part of
 * what a signed order cost beyond the app's (bench/README.md): a commit waiting for its WAL flush
 * per order, each in the way of the orders' own commits. So the answer goes first, and the entries
 * follow in groups: at most one write in the database at a time, at most one every 50 ms under
 * load; a call alone is written at the end of its turn. What a crash can lose is the last group's
 * entries, at most 50 ms of calls whose answers were sent; the writes of a closing server are
 * waited for. The entry is the same (key, route, address, status, Bourse's hint), through
 * ApiKeyCalls.recordUse, which never throws.
 */
import type { ApiKeyCalls, KeyUse } from '../api-keys';

/** The shortest time between two writes under load. */
const GROUP_MS = 50;
/** Entries a write carries at most (ApiKeyCalls writes up to 500 in one statement). */
const GROUP_MAX = 500;

export class UsageLog {
  private pending: KeyUse[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private lastStart = 0;

  constructor(private readonly calls: ApiKeyCalls) {}

  add(use: KeyUse): void {
    this.pending.push(use);
    this.schedule();
  }

  private schedule(): void {
    if (this.writing || this.timer || this.pending.length === 0) return;
    const wait = Math.max(0, this.lastStart + GROUP_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.start();
    }, wait);
  }

  private start(): void {
    const group = this.pending.splice(0, GROUP_MAX);
    if (group.length === 0) return;
    this.lastStart = Date.now();
    // Handed over in one loop: one turn, one statement.
    this.writing = Promise.all(group.map((use) => this.calls.recordUse(use))).then(() => {
      this.writing = null;
      this.schedule();
    });
  }

  /** Writes what is waiting (a closing server). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing || this.pending.length > 0) {
      if (this.writing) await this.writing;
      else this.start();
    }
  }
}
