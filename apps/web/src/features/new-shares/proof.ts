/**
 * The allocation proof's check: the allocation recomputed from the published book alone with the
 * published rule's own function (`allocate`), compared byte for byte with what the server
 * published (the canonical input, its seed, the result text and every line), as
 * `npm run ipo:verify` does outside the browser.
 */
import {
  checkPublishedAllocation,
  type AllocationPart,
  type OfferingAllocation,
} from '@bourse/shared';

/** The published part that differs from the recomputation ('book': the book itself is not valid). */
export type MismatchPart = Exclude<AllocationPart, 'lotsAllocated'>;

export type Recomputed = { matches: true } | { matches: false; part: MismatchPart };

type Published = Pick<
  OfferingAllocation,
  'offeringId' | 'lotsOffered' | 'input' | 'seed' | 'result' | 'lines'
>;

export function recompute(published: Published): Recomputed {
  const [part] = checkPublishedAllocation(published) as MismatchPart[];
  return part === undefined ? { matches: true } : { matches: false, part };
}
