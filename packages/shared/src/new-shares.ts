/**
 * New shares and new coins (issue 24): the published allocation rule, one pure function that the
 * server allocates with, the app's proof page shows and `npm run ipo:verify` recomputes. No
 * operator input reaches it: only the offering's id, the lots offered and the subscriptions as
 * they stood when the book closed.
 *
 * The rule (`ALLOCATION_RULE`, version `bourse-ipo-1`):
 * 1. The book at close is the list of (subscription id, lots requested), sorted by id (code-point
 *    order). Subscription ids are opaque: random hex, never a user's id.
 * 2. The seed is the SHA-256 (hex) of the canonical text: `bourse-ipo-1\n`, the offering id and
 *    the lots offered on one line (`<offering> <lots offered>\n`), then one line per subscription
 *    (`<id> <lots>\n`).
 * 3. Not oversubscribed (lots requested ≤ lots offered): everyone gets every lot requested.
 * 4. Oversubscribed: the subscriptions are ordered by SHA-256(`<seed>:<id>`) (hex, ascending);
 *    in that order each gets one lot while lots remain. The lots left after that are shared pro
 *    rata to what each still asks (lots requested − 1): each gets ⌊left × asks ÷ total asks⌋, and
 *    the lots rounding left over go one each to the largest remainders (ties in the random order).
 * 5. The result is published as text, one line per subscription in id order:
 *    `<id> <lots requested> <lots allocated>\n`. Recomputing it from the same book gives the same
 *    bytes.
 *
 * Lots are counted with bigint: lots × lots never loses a digit.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { add, mul, normalize, toScale, type DecimalInput, type DecimalString } from './money';

export const ALLOCATION_RULE = 'bourse-ipo-1';

/** Offering status: upcoming, subscribing, closed and waiting for allocation, allocated, listed, cancelled. */
export const OFFERING_STATUS = {
  upcoming: 0,
  subscribing: 1,
  allocating: 2,
  allocated: 3,
  listed: 4,
  cancelled: 5,
} as const;
export type OfferingStatus = (typeof OFFERING_STATUS)[keyof typeof OFFERING_STATUS];

/**
 * A subscription: open (funds frozen, the window still open or the allocation not yet run),
 * allocated (some lots: their cost taken, the rest released), refunded (no lot: everything
 * released), cancelled (by the user while the window was open, or with the offering).
 */
export const SUBSCRIPTION_STATUS = {
  open: 0,
  allocated: 1,
  refunded: 2,
  cancelled: 3,
} as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUS)[keyof typeof SUBSCRIPTION_STATUS];

export const NEW_SHARE_LIMITS = {
  nameMax: 64,
  descriptionMax: 4000,
  /** Offer price decimals. */
  priceScale: 8,
  /** Lot size decimals (crypto lots may be fractions of a coin). */
  lotScale: 8,
  lotsMax: 1_000_000_000,
  lockUpDaysMax: 3650,
  feeRateMax: '0.1',
  feeRateScale: 6,
} as const;

/** One subscription as the book holds it at close. */
export interface BookLine {
  /** Opaque id (hex). */
  id: string;
  /** Lots requested (a positive whole number). */
  lots: bigint;
}

export interface AllocationInput {
  offeringId: number;
  lotsOffered: bigint;
  book: readonly BookLine[];
}

export interface AllocationLine extends BookLine {
  allocated: bigint;
}

export interface Allocation {
  rule: typeof ALLOCATION_RULE;
  /** The canonical text the seed hashes. */
  input: string;
  seed: string;
  oversubscribed: boolean;
  lotsRequested: bigint;
  lotsAllocated: bigint;
  /** In id order. */
  lines: AllocationLine[];
  /** The published result: `<id> <lots> <allocated>\n` per line, in id order. */
  result: string;
}

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The book sorted by id; refuses duplicate ids and lots that are not positive. */
export function canonicalBook(book: readonly BookLine[]): BookLine[] {
  const sorted = [...book].sort((a, b) => compare(a.id, b.id));
  for (let index = 0; index < sorted.length; index++) {
    const line = sorted[index]!;
    if (!/^[0-9a-f]{1,64}$/.test(line.id)) throw new Error(`Subscription id not hex: ${line.id}`);
    if (line.lots <= 0n) throw new Error(`Subscription ${line.id} requests no lot`);
    if (index > 0 && sorted[index - 1]!.id === line.id)
      throw new Error(`Subscription id twice: ${line.id}`);
  }
  return sorted;
}

/** The text whose SHA-256 is the seed. */
export function allocationInputText(input: AllocationInput): string {
  const lines = canonicalBook(input.book).map((line) => `${line.id} ${line.lots}\n`);
  return `${ALLOCATION_RULE}\n${input.offeringId} ${input.lotsOffered}\n${lines.join('')}`;
}

/** Allocates the lots offered to the book by the published rule (see the file's comment). */
export function allocate(input: AllocationInput): Allocation {
  if (input.lotsOffered <= 0n) throw new Error('No lot offered');
  const book = canonicalBook(input.book);
  const text = allocationInputText(input);
  const seed = sha256Hex(text);
  const lotsRequested = book.reduce((total, line) => total + line.lots, 0n);
  const allocated = new Map<string, bigint>(book.map((line) => [line.id, 0n]));
  const oversubscribed = lotsRequested > input.lotsOffered;
  if (!oversubscribed) {
    for (const line of book) allocated.set(line.id, line.lots);
  } else {
    // 4a: one lot each, in the seed's random order, while lots remain.
    const order = book
      .map((line) => ({ line, key: sha256Hex(`${seed}:${line.id}`) }))
      .sort((a, b) => compare(a.key, b.key) || compare(a.line.id, b.line.id))
      .map(({ line }) => line);
    let left = input.lotsOffered;
    for (const line of order) {
      if (left === 0n) break;
      allocated.set(line.id, 1n);
      left -= 1n;
    }
    // 4b: the rest pro rata to what each still asks, largest remainders first.
    if (left > 0n) {
      const asks = order.map((line) => line.lots - allocated.get(line.id)!);
      const totalAsks = asks.reduce((total, ask) => total + ask, 0n);
      const shares = order.map((line, index) => {
        const product = left * asks[index]!;
        return { line, whole: product / totalAsks, remainder: product % totalAsks, index };
      });
      let given = 0n;
      for (const share of shares) {
        allocated.set(share.line.id, allocated.get(share.line.id)! + share.whole);
        given += share.whole;
      }
      let rest = left - given;
      const byRemainder = [...shares].sort((a, b) =>
        a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
      );
      for (const share of byRemainder) {
        if (rest === 0n) break;
        allocated.set(share.line.id, allocated.get(share.line.id)! + 1n);
        rest -= 1n;
      }
    }
  }
  const lines = book.map((line) => ({ ...line, allocated: allocated.get(line.id)! }));
  return {
    rule: ALLOCATION_RULE,
    input: text,
    seed,
    oversubscribed,
    lotsRequested,
    lotsAllocated: lines.reduce((total, line) => total + line.allocated, 0n),
    lines,
    result: lines.map((line) => `${line.id} ${line.lots} ${line.allocated}\n`).join(''),
  };
}

/** The published list as the API answers it (lots as decimal strings) back into a book. */
export function bookOf(lines: readonly { id: string; lots: string }[]): BookLine[] {
  return lines.map((line) => {
    if (!/^[1-9][0-9]*$/.test(line.lots)) throw new Error(`Lots not a whole number: ${line.lots}`);
    return { id: line.id, lots: BigInt(line.lots) };
  });
}

/** A part of a published allocation that its recomputation does not reproduce. */
export type AllocationPart = 'book' | 'input' | 'seed' | 'result' | 'lines' | 'lotsAllocated';

/**
 * Recomputes a published allocation from its book alone (`allocate` on the published lines' ids
 * and lots) and names the published parts that differ, byte for byte: empty when it matches.
 * `book` alone: the book itself is not a valid one (lots not whole, ids repeated).
 */
export function checkPublishedAllocation(published: {
  offeringId: number;
  lotsOffered: string;
  lotsAllocated?: string;
  input: string;
  seed: string;
  result: string;
  lines: readonly { id: string; lots: string; allocated: string }[];
}): AllocationPart[] {
  let again: Allocation;
  try {
    if (!/^[1-9][0-9]*$/.test(published.lotsOffered)) return ['book'];
    again = allocate({
      offeringId: published.offeringId,
      lotsOffered: BigInt(published.lotsOffered),
      book: bookOf(published.lines),
    });
  } catch {
    return ['book'];
  }
  const differs: AllocationPart[] = [];
  if (again.input !== published.input) differs.push('input');
  if (again.seed !== published.seed) differs.push('seed');
  if (again.result !== published.result) differs.push('result');
  // The published table must say what the result says, line for line and in id order.
  const shown = published.lines.map((line) => `${line.id} ${line.lots} ${line.allocated}\n`);
  if (shown.join('') !== again.result) differs.push('lines');
  if (
    published.lotsAllocated !== undefined &&
    published.lotsAllocated !== String(again.lotsAllocated)
  )
    differs.push('lotsAllocated');
  return differs;
}

/** The offering's status at `now` from its times (before the worker has caught up). */
export function offeringPhase(
  offering: {
    status: number;
    subscribeStart: string;
    subscribeEnd: string;
  },
  now: number,
): OfferingStatus {
  const status = offering.status as OfferingStatus;
  if (status !== OFFERING_STATUS.upcoming && status !== OFFERING_STATUS.subscribing) return status;
  if (now < Date.parse(offering.subscribeStart)) return OFFERING_STATUS.upcoming;
  if (now < Date.parse(offering.subscribeEnd)) return OFFERING_STATUS.subscribing;
  return OFFERING_STATUS.allocating;
}

export interface OfferingTerms {
  /** Offer price of one share or coin. */
  price: DecimalInput;
  /** Shares or coins in one lot. */
  lotSize: DecimalInput;
  /** Subscription fee as a share of the amount ('0': none). */
  feeRate: DecimalInput;
}

export interface SubscriptionCost {
  /** Shares or coins: lots × lot size. */
  quantity: DecimalString;
  /** quantity × price, rounded up to the currency's decimals. */
  amount: DecimalString;
  /** amount × fee rate, rounded up to the currency's decimals. */
  fee: DecimalString;
  /** amount + fee: what a subscription freezes, and what an allocation takes. */
  total: DecimalString;
}

/**
 * What `lots` cost at the offering's terms in a currency of `scale` decimals: frozen when
 * subscribing for the lots requested, taken at allocation for the lots allocated (the rest of the
 * hold is released).
 */
export function subscriptionCost(
  terms: OfferingTerms,
  lots: bigint | number | string,
  scale: number,
): SubscriptionCost {
  const quantity = mul(String(lots), terms.lotSize);
  const amount = toScale(mul(quantity, terms.price), scale, 'up');
  const fee = toScale(mul(amount, terms.feeRate), scale, 'up');
  return {
    quantity: normalize(quantity),
    amount,
    fee,
    total: toScale(add(amount, fee), scale),
  };
}
