/**
 * The allocation proof's check: the allocation recomputed from the published book alone with the
 * published rule's own function (`allocate`), compared byte for byte with what the server
 * published (the canonical input, its seed, the result text and every line), as
 * `npm run ipo:verify` does outside the browser.
 */
import { allocate, bookOf, type OfferingAllocation } from '@bourse/shared';

/** The published part that differs from the recomputation ('book': the book itself is not valid). */
export type MismatchPart = 'input' | 'seed' | 'result' | 'lines' | 'book';

export type Recomputed = { matches: true } | { matches: false; part: MismatchPart };

type Published = Pick<
  OfferingAllocation,
  'offeringId' | 'lotsOffered' | 'input' | 'seed' | 'result' | 'lines'
>;

const lineText = (rows: readonly { id: string; lots: unknown; allocated: unknown }[]) =>
  rows.map((row) => `${row.id} ${String(row.lots)} ${String(row.allocated)}\n`).join('');

export function recompute(published: Published): Recomputed {
  let computed;
  try {
    if (!/^[1-9][0-9]*$/.test(published.lotsOffered)) return { matches: false, part: 'book' };
    computed = allocate({
      offeringId: published.offeringId,
      lotsOffered: BigInt(published.lotsOffered),
      book: bookOf(published.lines.map(({ id, lots }) => ({ id, lots }))),
    });
  } catch {
    return { matches: false, part: 'book' };
  }
  if (computed.input !== published.input) return { matches: false, part: 'input' };
  if (computed.seed !== published.seed) return { matches: false, part: 'seed' };
  if (computed.result !== published.result) return { matches: false, part: 'result' };
  // The table shown is the published lines: they must say what the result says.
  if (lineText(published.lines) !== computed.result) return { matches: false, part: 'lines' };
  return { matches: true };
}
