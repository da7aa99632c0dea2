import { describe, expect, it } from 'vitest';
import { allocate } from '@bourse/shared';
import { recompute } from './proof';

/** What the server publishes of an allocation, from the rule's own function. */
function published(offeringId: number, lotsOffered: bigint, book: [string, bigint][]) {
  const allocation = allocate({
    offeringId,
    lotsOffered,
    book: book.map(([id, lots]) => ({ id, lots })),
  });
  return {
    offeringId,
    lotsOffered: String(lotsOffered),
    input: allocation.input,
    seed: allocation.seed,
    result: allocation.result,
    lines: allocation.lines.map((line) => ({
      id: line.id,
      lots: String(line.lots),
      allocated: String(line.allocated),
    })),
  };
}

const BOOK: [string, bigint][] = [
  ['9f0c2a1b3d4e5f60', 7n],
  ['0a1b2c3d4e5f6071', 3n],
  ['5e5e5e5e5e5e5e5e', 12n],
];

describe('the allocation proof recomputed in the browser', () => {
  it('matches what the rule publishes, oversubscribed or not', () => {
    expect(recompute(published(7, 10n, BOOK))).toEqual({ matches: true });
    expect(recompute(published(7, 100n, BOOK))).toEqual({ matches: true });
  });

  it('names the part that differs', () => {
    const good = published(7, 10n, BOOK);
    expect(recompute({ ...good, offeringId: 8 })).toEqual({ matches: false, part: 'input' });
    expect(recompute({ ...good, seed: '0'.repeat(64) })).toEqual({ matches: false, part: 'seed' });
    // One lot moved from one line to another: the sum still adds up, the rule says otherwise.
    const moved = good.lines.map((line, index) => ({
      ...line,
      allocated: String(BigInt(line.allocated) + (index === 0 ? 1n : index === 1 ? -1n : 0n)),
    }));
    const movedResult = moved.map((line) => `${line.id} ${line.lots} ${line.allocated}\n`).join('');
    expect(recompute({ ...good, result: movedResult })).toEqual({ matches: false, part: 'result' });
    // The published result is right but the table shows other figures.
    expect(recompute({ ...good, lines: moved })).toEqual({ matches: false, part: 'lines' });
  });

  it('refuses a book that is not one', () => {
    const good = published(7, 10n, BOOK);
    expect(recompute({ ...good, lotsOffered: '0' })).toEqual({ matches: false, part: 'book' });
    expect(recompute({ ...good, lines: [...good.lines, { ...good.lines[0]! }] })).toEqual({
      matches: false,
      part: 'book',
    });
    expect(recompute({ ...good, lines: [{ id: 'not-hex', lots: '1', allocated: '1' }] })).toEqual({
      matches: false,
      part: 'book',
    });
  });
});
