/**
 * Group commit for the claim of a signature, which a call placing or cancelling an order makes
 * before acting (ApiKeyCalls writes the claims handed to it in one turn of the event loop as one
 * statement). Bots place orders one after another at a steady rate, so their calls seldom share a
 * turn: at 500 orders a second most claims went alone, a statement each. Here at most one claim
 * write is in the database at a time: what arrives meanwhile waits for it and goes together in
 * the next, so under load groups grow instead of statements multiplying, and alone a claim leaves
 * at the end of its turn, as before. Each caller waits for the write that carries its claim.
 */
export class Grouped<Item, Result> {
  private waiting: {
    item: Item;
    resolve: (result: Result) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private busy = false;
  private scheduled = false;

  constructor(
    /** Hands one item to the writer; those handed in one turn are written together. */
    private readonly write: (item: Item) => Promise<Result>,
  ) {}

  add(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.busy && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.start());
      }
    });
  }

  private start(): void {
    this.scheduled = false;
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    this.busy = true;
    // Handed over in one loop: one turn, one statement.
    const written = batch.map((entry) => this.write(entry.item).then(entry.resolve, entry.reject));
    void Promise.all(written).then(() => {
      this.busy = false;
      if (this.waiting.length > 0) this.start();
    });
  }
}
