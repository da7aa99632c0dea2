/**
 * The published allocation rule (new-shares.ts) under random books: what it may never do (give
 * more than offered or asked), what it must do (everything asked when not oversubscribed; one lot
 * each first, then every lot, when oversubscribed), that it depends on its public inputs only
 * (two runs, any order of the book) and that every input reaches the seed. Then one book worked
 * out by hand, and the cost of lots rounded up to the currency.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALLOCATION_RULE,
  allocate,
  allocationInputText,
  bookOf,
  canonicalBook,
  offeringPhase,
  OFFERING_STATUS,
  subscriptionCost,
  type BookLine,
} from './new-shares';
import { add, gte, lt, mul, sub } from './money';

/** Node's own SHA-256: an implementation the rule's (@noble/hashes) is checked against. */
const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** 16 hex characters, as a subscription's public id (crypto.randomBytes(8)). */
const idArb = fc
  .bigInt({ min: 0n, max: 2n ** 64n - 1n })
  .map((value) => value.toString(16).padStart(16, '0'));

function bookArb(maxLines: number, maxLots: bigint): fc.Arbitrary<BookLine[]> {
  return fc.uniqueArray(fc.record({ id: idArb, lots: fc.bigInt({ min: 1n, max: maxLots }) }), {
    maxLength: maxLines,
    selector: (line) => line.id,
  });
}

interface Case {
  offeringId: number;
  lotsOffered: bigint;
  book: BookLine[];
}

/** Books of 0..300 subscriptions of 1..10^6 lots against 1..10^7 lots offered. */
const usualArb: fc.Arbitrary<Case> = fc.record({
  offeringId: fc.integer({ min: 1, max: 2_000_000_000 }),
  lotsOffered: fc.bigInt({ min: 1n, max: 10_000_000n }),
  book: bookArb(300, 1_000_000n),
});

/** Few lots against many subscribers: the first round of one lot each runs out. */
const scarceArb: fc.Arbitrary<Case> = fc.record({
  offeringId: fc.integer({ min: 1, max: 2_000_000_000 }),
  lotsOffered: fc.bigInt({ min: 1n, max: 40n }),
  book: bookArb(60, 5n),
});

/** Counts far beyond a JS number's exact range. */
const hugeArb: fc.Arbitrary<Case> = fc.record({
  offeringId: fc.integer({ min: 1, max: 2_000_000_000 }),
  lotsOffered: fc.bigInt({ min: 1n, max: 10n ** 38n }),
  book: bookArb(80, 10n ** 36n),
});

const anyCaseArb = fc.oneof(usualArb, scarceArb, hugeArb);

const total = (values: readonly bigint[]) => values.reduce((sum, value) => sum + value, 0n);

describe('allocate: for random books', () => {
  it('never gives more than offered, nor anyone more than asked, nor anything to no one', () => {
    fc.assert(
      fc.property(anyCaseArb, (input) => {
        const allocation = allocate(input);
        expect(allocation.lines).toHaveLength(input.book.length);
        for (const line of allocation.lines) {
          expect(line.allocated >= 0n).toBe(true);
          expect(line.allocated <= line.lots).toBe(true);
        }
        const given = total(allocation.lines.map((line) => line.allocated));
        expect(given).toBe(allocation.lotsAllocated);
        expect(given <= input.lotsOffered).toBe(true);
        expect(allocation.lotsRequested).toBe(total(input.book.map((line) => line.lots)));
      }),
      { numRuns: 200 },
    );
  });

  it('gives everything asked when the book is not oversubscribed', () => {
    fc.assert(
      fc.property(
        anyCaseArb.map((input) => ({
          ...input,
          // Offer at least what is asked (and never 0 lots).
          lotsOffered: total(input.book.map((line) => line.lots)) + (input.lotsOffered % 3n) + 1n,
        })),
        (input) => {
          const allocation = allocate(input);
          expect(allocation.oversubscribed).toBe(false);
          for (const line of allocation.lines) expect(line.allocated).toBe(line.lots);
        },
      ),
    );
    // Exactly the lots offered asked: still not oversubscribed.
    const exact = allocate({
      offeringId: 3,
      lotsOffered: 9n,
      book: [
        { id: 'aa', lots: 4n },
        { id: 'bb', lots: 5n },
      ],
    });
    expect(exact.oversubscribed).toBe(false);
    expect(exact.lines.map((line) => line.allocated)).toEqual([4n, 5n]);
  });

  it('when oversubscribed uses every lot, and with lots for all gives everyone one first', () => {
    fc.assert(
      fc.property(anyCaseArb, (input) => {
        const allocation = allocate(input);
        if (!allocation.oversubscribed) return;
        expect(allocation.lotsAllocated).toBe(input.lotsOffered);
        const subscribers = BigInt(input.book.length);
        if (input.lotsOffered >= subscribers) {
          for (const line of allocation.lines) expect(line.allocated >= 1n).toBe(true);
        } else {
          // Fewer lots than subscribers: one lot each to as many as there are lots.
          const ones = allocation.lines.filter((line) => line.allocated === 1n).length;
          expect(BigInt(ones)).toBe(input.lotsOffered);
          expect(allocation.lines.every((line) => line.allocated <= 1n)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('shares the lots after the first round within one lot of pro rata (largest remainders)', () => {
    fc.assert(
      fc.property(anyCaseArb, (input) => {
        const allocation = allocate(input);
        const subscribers = BigInt(input.book.length);
        if (!allocation.oversubscribed || input.lotsOffered < subscribers) return;
        const left = input.lotsOffered - subscribers;
        const totalAsks = allocation.lotsRequested - subscribers;
        for (const line of allocation.lines) {
          const ask = line.lots - 1n;
          const floor = (left * ask) / totalAsks;
          const extra = line.allocated - 1n;
          expect(extra === floor || extra === floor + 1n).toBe(true);
          // Only a share with a remainder gets the extra lot.
          if ((left * ask) % totalAsks === 0n) expect(extra).toBe(floor);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('is identical on two runs and whatever the order of the book', () => {
    fc.assert(
      fc.property(
        anyCaseArb.chain((input) =>
          fc
            .array(fc.integer(), {
              minLength: input.book.length,
              maxLength: input.book.length,
            })
            .map((keys) => ({
              input,
              shuffled: input.book
                .map((line, index) => ({ line, key: keys[index]! }))
                .sort((a, b) => a.key - b.key)
                .map(({ line }) => ({ ...line })),
            })),
        ),
        ({ input, shuffled }) => {
          const first = allocate(input);
          expect(allocate(input)).toEqual(first);
          const reordered = allocate({ ...input, book: shuffled });
          expect(reordered).toEqual(first);
          expect(reordered.input).toBe(first.input);
          expect(reordered.seed).toBe(first.seed);
          expect(reordered.result).toBe(first.result);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('publishes its input, seed and result as the rule says', () => {
    fc.assert(
      fc.property(anyCaseArb, (input) => {
        const allocation = allocate(input);
        const sorted = [...input.book].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        expect(allocation.rule).toBe(ALLOCATION_RULE);
        expect(allocation.input).toBe(
          `${ALLOCATION_RULE}\n${input.offeringId} ${input.lotsOffered}\n` +
            sorted.map((line) => `${line.id} ${line.lots}\n`).join(''),
        );
        expect(allocation.input).toBe(allocationInputText(input));
        expect(allocation.seed).toBe(nodeSha256(allocation.input));
        expect(allocation.lines.map((line) => line.id)).toEqual(sorted.map((line) => line.id));
        expect(allocation.result).toBe(
          allocation.lines.map((line) => `${line.id} ${line.lots} ${line.allocated}\n`).join(''),
        );
        // The published lines (decimal strings) give the same book back.
        const published = allocation.lines.map((line) => ({
          id: line.id,
          lots: String(line.lots),
        }));
        expect(bookOf(published)).toEqual(sorted);
      }),
      { numRuns: 100 },
    );
  });

  it('changes its seed when any lot count, the lots offered or the offering changes', () => {
    fc.assert(
      fc.property(
        anyCaseArb.filter((input) => input.book.length > 0),
        fc.nat(),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        (input, at, delta) => {
          const seed = allocate(input).seed;
          const index = at % input.book.length;
          const book = input.book.map((line, position) =>
            position === index ? { ...line, lots: line.lots + delta } : line,
          );
          expect(allocate({ ...input, book }).seed).not.toBe(seed);
          const fewer = input.book[index]!.lots > delta;
          if (fewer) {
            const less = input.book.map((line, position) =>
              position === index ? { ...line, lots: line.lots - delta } : line,
            );
            expect(allocate({ ...input, book: less }).seed).not.toBe(seed);
          }
          expect(allocate({ ...input, lotsOffered: input.lotsOffered + delta }).seed).not.toBe(
            seed,
          );
          expect(allocate({ ...input, offeringId: input.offeringId + 1 }).seed).not.toBe(seed);
          // A subscription more or less changes it too.
          expect(allocate({ ...input, book: input.book.slice(1) }).seed).not.toBe(seed);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('allocate: a book worked out by hand', () => {
  // Offering 7 offers 10 lots; four subscriptions ask 13 in all: oversubscribed.
  const book: BookLine[] = [
    { id: 'd4', lots: 1n },
    { id: 'a1', lots: 5n },
    { id: 'c3', lots: 4n },
    { id: 'b2', lots: 3n },
  ];
  const input = { offeringId: 7, lotsOffered: 10n, book };
  const text = 'bourse-ipo-1\n7 10\na1 5\nb2 3\nc3 4\nd4 1\n';

  it('gives the input text, seed and result computed once and checked by hand', () => {
    const allocation = allocate(input);
    expect(allocation.input).toBe(text);
    expect(allocation.seed).toBe(nodeSha256(text));
    expect(allocation.seed).toBe(
      '52de614dccb71b2515985152b01e4baaf85751e2337229e2a42671fc975938c5',
    );
    // One lot each (4), 6 left pro rata to what each still asks (4, 2, 3, 0 of 9):
    // a1 2 (remainder 6/9), b2 1 (3/9), c3 2 (0), d4 0; the sixth lot to the largest remainder, a1.
    expect(allocation.result).toBe('a1 5 4\nb2 3 2\nc3 4 3\nd4 1 1\n');
    expect(allocation.oversubscribed).toBe(true);
    expect(allocation.lotsRequested).toBe(13n);
    expect(allocation.lotsAllocated).toBe(10n);
  });

  it('with fewer lots than subscribers gives one each in the order of SHA-256(seed:id)', () => {
    const allocation = allocate({ offeringId: 7, lotsOffered: 2n, book });
    const seed = '6f53cb45e83248a1986001a6de7ab4944a140bff0ec78dbd73f1ca86fcf66646';
    expect(allocation.seed).toBe(seed);
    expect(nodeSha256('bourse-ipo-1\n7 2\na1 5\nb2 3\nc3 4\nd4 1\n')).toBe(seed);
    // SHA-256(seed:id) in ascending order: d4 (32b4…), b2 (44e9…), c3 (d15d…), a1 (d436…).
    expect(nodeSha256(`${seed}:d4`) < nodeSha256(`${seed}:b2`)).toBe(true);
    expect(nodeSha256(`${seed}:b2`) < nodeSha256(`${seed}:c3`)).toBe(true);
    expect(nodeSha256(`${seed}:c3`) < nodeSha256(`${seed}:a1`)).toBe(true);
    expect(allocation.result).toBe('a1 5 0\nb2 3 1\nc3 4 0\nd4 1 1\n');
    expect(allocation.lotsAllocated).toBe(2n);
  });

  it('breaks equal remainders in the same random order', () => {
    // 5 lots, three ask 2 each: one each, then 2 left for asks of 1, 1, 1 (remainders all 2/3):
    // the random order c3 (3716…), a1 (8c2d…), b2 (bb97…) gives them to c3 and a1.
    const allocation = allocate({
      offeringId: 7,
      lotsOffered: 5n,
      book: [
        { id: 'a1', lots: 2n },
        { id: 'b2', lots: 2n },
        { id: 'c3', lots: 2n },
      ],
    });
    expect(allocation.seed).toBe(
      '4d3d90e15d110d6f0ad5151b6a64cf05534d8963db521156a68d711458be1bb5',
    );
    expect(allocation.result).toBe('a1 2 2\nb2 2 1\nc3 2 2\n');
  });
});

describe('the book', () => {
  it('refuses a duplicate id, an id that is not lower-case hex and a request of no lot', () => {
    expect(() =>
      canonicalBook([
        { id: 'ab', lots: 1n },
        { id: 'ab', lots: 2n },
      ]),
    ).toThrow(/twice/);
    expect(() => canonicalBook([{ id: 'AB', lots: 1n }])).toThrow(/hex/);
    expect(() => canonicalBook([{ id: 'zz', lots: 1n }])).toThrow(/hex/);
    expect(() => canonicalBook([{ id: '', lots: 1n }])).toThrow(/hex/);
    expect(() => canonicalBook([{ id: 'ab', lots: 0n }])).toThrow(/no lot/);
    expect(() => canonicalBook([{ id: 'ab', lots: -1n }])).toThrow(/no lot/);
    expect(() => allocate({ offeringId: 1, lotsOffered: 0n, book: [] })).toThrow(/No lot/);
  });

  it('reads back only whole positive lot counts', () => {
    expect(bookOf([{ id: 'ab', lots: '12' }])).toEqual([{ id: 'ab', lots: 12n }]);
    for (const lots of ['0', '-1', '1.5', '01', '', '1e3', ' 1'])
      expect(() => bookOf([{ id: 'ab', lots }])).toThrow(/whole/);
  });

  it('allocates an empty book to no one', () => {
    const allocation = allocate({ offeringId: 5, lotsOffered: 100n, book: [] });
    expect(allocation.input).toBe('bourse-ipo-1\n5 100\n');
    expect(allocation.result).toBe('');
    expect(allocation.lotsAllocated).toBe(0n);
    expect(allocation.oversubscribed).toBe(false);
  });
});

describe('offeringPhase', () => {
  const times = {
    subscribeStart: '2026-03-02T14:30:00.000Z',
    subscribeEnd: '2026-03-04T14:30:00.000Z',
  };
  const start = Date.parse(times.subscribeStart);
  const end = Date.parse(times.subscribeEnd);

  it('follows the clock while the offering is upcoming or subscribing', () => {
    for (const status of [OFFERING_STATUS.upcoming, OFFERING_STATUS.subscribing]) {
      const offering = { ...times, status };
      expect(offeringPhase(offering, start - 1)).toBe(OFFERING_STATUS.upcoming);
      expect(offeringPhase(offering, start)).toBe(OFFERING_STATUS.subscribing);
      expect(offeringPhase(offering, end - 1)).toBe(OFFERING_STATUS.subscribing);
      expect(offeringPhase(offering, end)).toBe(OFFERING_STATUS.allocating);
    }
  });

  it('keeps a later status whatever the time', () => {
    for (const status of [
      OFFERING_STATUS.allocating,
      OFFERING_STATUS.allocated,
      OFFERING_STATUS.listed,
      OFFERING_STATUS.cancelled,
    ]) {
      expect(offeringPhase({ ...times, status }, start - 1)).toBe(status);
      expect(offeringPhase({ ...times, status }, end + 1)).toBe(status);
    }
  });
});

describe('subscriptionCost', () => {
  /** `units` at `scale` decimals as a decimal string. */
  const decimal = (units: bigint, scale: number) => {
    const digits = units.toString().padStart(scale + 1, '0');
    return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  };
  const step = (scale: number) => decimal(1n, scale);

  it('rounds the amount and the fee up to the currency, never by a whole step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        fc.bigInt({ min: 1n, max: 10n ** 10n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.bigInt({ min: 1n, max: 1_000_000_000n }),
        fc.bigInt({ min: 0n, max: 100_000n }),
        (scale, priceScale, lotScale, priceUnits, lotUnits, lots, feeUnits) => {
          const terms = {
            price: decimal(priceUnits, priceScale),
            lotSize: decimal(lotUnits, lotScale),
            feeRate: decimal(feeUnits, 6),
          };
          const cost = subscriptionCost(terms, lots, scale);
          const quantity = mul(String(lots), terms.lotSize);
          expect(cost.quantity).toBe(quantity);
          const exactAmount = mul(quantity, terms.price);
          expect(gte(cost.amount, exactAmount)).toBe(true);
          expect(lt(sub(cost.amount, exactAmount), step(scale))).toBe(true);
          const exactFee = mul(cost.amount, terms.feeRate);
          expect(gte(cost.fee, exactFee)).toBe(true);
          expect(lt(sub(cost.fee, exactFee), step(scale))).toBe(true);
          expect(sub(cost.total, add(cost.amount, cost.fee))).toBe('0');
          // Written at the currency's scale, as the ledger takes amounts.
          for (const figure of [cost.amount, cost.fee, cost.total])
            expect(figure.split('.')[1]?.length ?? 0).toBe(scale);
          // The same figure for a number, a bigint or a string of lots.
          expect(subscriptionCost(terms, String(lots), scale)).toEqual(cost);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('worked examples', () => {
    expect(subscriptionCost({ price: '0.333', lotSize: '1', feeRate: '0.001' }, 1n, 2)).toEqual({
      quantity: '1',
      amount: '0.34',
      fee: '0.01',
      total: '0.35',
    });
    expect(subscriptionCost({ price: '10.005', lotSize: '100', feeRate: '0' }, 3, 2)).toEqual({
      quantity: '300',
      amount: '3001.50',
      fee: '0.00',
      total: '3001.50',
    });
    // A crypto lot of 0.5 coin at 0.00012345 USDT, 7 lots, 6 decimals: 0.000432075 → 0.000433.
    expect(
      subscriptionCost({ price: '0.00012345', lotSize: '0.5', feeRate: '0.002' }, 7n, 6),
    ).toEqual({ quantity: '3.5', amount: '0.000433', fee: '0.000001', total: '0.000434' });
  });
});
