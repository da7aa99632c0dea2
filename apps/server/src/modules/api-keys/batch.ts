/**
 * Writes of the calls read in one turn of the event loop, made together: under load a bot's calls
 * arrive together, and one statement for many rows costs about what one row costs (the session
 * lookups are batched the same way, auth/sessions.ts). Nothing is held back longer than that turn:
 * each caller waits for the write that carries its item.
 */
export class TurnBatch<Item, Result> {
  private pending: {
    item: Item;
    resolve: (result: Result) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private scheduled = false;

  constructor(
    /** Writes a batch; answers one result per item, in order. */
    private readonly write: (items: Item[]) => Promise<Result[]>,
    private readonly maxSize = 500,
  ) {}

  add(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxSize) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.write(batch.map((entry) => entry.item)).then(
      (results) => batch.forEach((entry, i) => entry.resolve(results[i]!)),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  }
}
