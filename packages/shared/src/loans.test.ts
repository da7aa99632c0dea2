/**
 * The loan figures: each day's interest from its kind (free, term, overdue), the interest of a run
 * of days equal to its days one by one, the total shown before applying equal to principal plus
 * the term's days, and a repayment's split (interest first) adding up to the amount. The server
 * test (apps/server/test/loans.test.ts) checks that the ledger moves exactly these figures.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDaysTo,
  daysBetween,
  loanDayInterest,
  loanDayKind,
  loanDaysByKind,
  loanDaysEnded,
  loanDueDate,
  loanInterestDueOn,
  loanInterestForDays,
  loanOverdueDays,
  loanRepaymentAtTerm,
  loanRepaymentSplit,
  type LoanTerms,
} from './loans';
import { add, gt, lte, mul, scaleOf, sub, sum, toScale } from './money';

const RUNS = 500;

function fromUnits(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

const scaleArb = fc.integer({ min: 0, max: 8 });
const amountAt = (scale: number) =>
  fc.bigInt({ min: 1n, max: 10n ** BigInt(9 + scale) }).map((units) => fromUnits(units, scale));
/** A daily rate from 0 to 0.01 with up to 6 decimals. */
const rateArb = fc.bigInt({ min: 0n, max: 10_000n }).map((units) => fromUnits(units, 6));
const termsArb: fc.Arbitrary<LoanTerms> = fc
  .record({
    termDays: fc.integer({ min: 1, max: 400 }),
    interestFreeDays: fc.integer({ min: 0, max: 400 }),
    dailyRate: rateArb,
    overdueDailyRate: rateArb,
  })
  .map((terms) => ({
    ...terms,
    interestFreeDays: Math.min(terms.interestFreeDays, terms.termDays),
  }));

const TERMS: LoanTerms = {
  termDays: 30,
  interestFreeDays: 5,
  dailyRate: '0.001',
  overdueDailyRate: '0.003',
};

describe('the days of a loan', () => {
  it('are free, then of the term, then overdue', () => {
    expect(loanDayKind(1, TERMS)).toBe('free');
    expect(loanDayKind(5, TERMS)).toBe('free');
    expect(loanDayKind(6, TERMS)).toBe('normal');
    expect(loanDayKind(30, TERMS)).toBe('normal');
    expect(loanDayKind(31, TERMS)).toBe('overdue');
    expect(() => loanDayKind(0, TERMS)).toThrow(RangeError);
  });

  it('bear principal × rate, rounded down at the currency', () => {
    expect(loanDayInterest('1000', 3, TERMS, 2)).toBe('0.00');
    expect(loanDayInterest('1000', 6, TERMS, 2)).toBe('1.00');
    expect(loanDayInterest('1000', 31, TERMS, 2)).toBe('3.00');
    expect(loanDayInterest('333.33', 6, TERMS, 2)).toBe('0.33');
  });

  it('count each kind once over any run of days', () => {
    fc.assert(
      fc.property(
        termsArb,
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 0, max: 500 }),
        (terms, from, length) => {
          const to = from + length - 1;
          const days = loanDaysByKind(from, to, terms);
          expect(days.free + days.normal + days.overdue).toBe(Math.max(0, length));
          for (let day = from; day <= to && day < from + 50; day += 1) {
            const kind = loanDayKind(day, terms);
            expect(days[kind]).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('bear together exactly what they bear one by one', () => {
    fc.assert(
      fc.property(
        scaleArb.chain((scale) =>
          fc.tuple(
            fc.constant(scale),
            amountAt(scale),
            termsArb,
            fc.integer({ min: 1, max: 450 }),
            fc.integer({ min: 0, max: 60 }),
          ),
        ),
        ([scale, principal, terms, from, length]) => {
          const to = from + length - 1;
          const oneByOne: string[] = [];
          for (let day = from; day <= to; day += 1)
            oneByOne.push(loanDayInterest(principal, day, terms, scale));
          const together = loanInterestForDays(principal, from, to, terms, scale);
          expect(together).toBe(toScale(sum(oneByOne), scale));
          expect(scaleOf(together)).toBe(scale);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('the total shown before applying', () => {
  it('is the principal and the days of the term past the free ones', () => {
    const figures = loanRepaymentAtTerm('1000', TERMS, 2);
    expect(figures).toEqual({
      interest: '25.00',
      total: '1025.00',
      dailyInterest: '1.00',
      overdueDailyInterest: '3.00',
    });
  });

  it('is what accruing every day of the term adds to the principal', () => {
    fc.assert(
      fc.property(
        scaleArb.chain((scale) => fc.tuple(fc.constant(scale), amountAt(scale), termsArb)),
        ([scale, principal, terms]) => {
          const figures = loanRepaymentAtTerm(principal, terms, scale);
          const days: string[] = [];
          for (let day = 1; day <= terms.termDays; day += 1)
            days.push(loanDayInterest(principal, day, terms, scale));
          expect(figures.interest).toBe(toScale(sum(days), scale));
          expect(figures.total).toBe(toScale(add(principal, figures.interest), scale));
          // Rounded down: never more than the exact interest.
          const exact = mul(
            mul(principal, terms.dailyRate),
            String(terms.termDays - terms.interestFreeDays),
          );
          expect(lte(figures.interest, exact)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('a repayment', () => {
  it('pays interest first, then principal', () => {
    expect(loanRepaymentSplit('10', { interest: '4', principal: '100' })).toEqual({
      interest: '4',
      principal: '6',
      interestLeft: '0',
      principalLeft: '94',
      repaid: false,
    });
    expect(loanRepaymentSplit('3', { interest: '4', principal: '100' })).toMatchObject({
      interest: '3',
      principal: '0',
      interestLeft: '1',
    });
    expect(loanRepaymentSplit('104', { interest: '4', principal: '100' }).repaid).toBe(true);
    expect(() => loanRepaymentSplit('105', { interest: '4', principal: '100' })).toThrow(
      RangeError,
    );
    expect(() => loanRepaymentSplit('0', { interest: '4', principal: '100' })).toThrow(RangeError);
  });

  it('splits any amount up to what is due into parts that add up to it', () => {
    fc.assert(
      fc.property(
        scaleArb.chain((scale) =>
          fc.tuple(amountAt(scale), amountAt(scale), fc.integer({ min: 1, max: 1000 })),
        ),
        ([interest, principal, per]) => {
          const total = add(interest, principal);
          // An amount from a thousandth of what is due to all of it.
          const amount =
            per === 1000 ? total : sub(total, mul(total, `0.${String(per).padStart(3, '0')}`));
          if (!gt(amount, '0')) return;
          const split = loanRepaymentSplit(amount, { interest, principal });
          expect(add(split.interest, split.principal)).toBe(add(amount, '0'));
          expect(add(split.interestLeft, split.principalLeft)).toBe(sub(total, amount));
          expect(gt(split.principal, '0') ? split.interestLeft : '0').toBe('0');
          expect(split.repaid).toBe(amount === total || sub(total, amount) === '0');
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('dates', () => {
  it('count whole UTC days', () => {
    expect(addDaysTo('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDaysTo('2028-02-28', 1)).toBe('2028-02-29');
    expect(daysBetween('2026-01-01', '2026-03-01')).toBe(59);
    expect(daysBetween('2026-03-01', '2026-01-01')).toBe(-59);
    expect(loanDueDate('2026-01-01', 30)).toBe('2026-01-31');
    expect(loanDaysEnded('2026-01-01', '2026-01-01')).toBe(0);
    expect(loanDaysEnded('2026-01-01', '2026-01-31')).toBe(30);
    expect(loanOverdueDays('2026-01-31', '2026-01-31')).toBe(0);
    expect(loanOverdueDays('2026-01-31', '2026-02-03')).toBe(3);
    expect(() => addDaysTo('2026-1-1', 1)).toThrow(RangeError);
  });

  it('give the interest due now with the days not yet accrued', () => {
    const loan = { startDate: '2026-01-01', accruedDays: 6, interestDue: '1', principal: '1000' };
    // Days 7 to 9 ended on the 10th, not accrued: three days of the term at 1.00 each.
    expect(loanInterestDueOn(loan, '2026-01-10', TERMS, 2)).toBe('4.00');
    expect(loanInterestDueOn(loan, '2026-01-07', TERMS, 2)).toBe('1');
    // On the due date the 30 days of the term have ended; the day after, one overdue day more.
    expect(loanInterestDueOn({ ...loan, accruedDays: 30 }, '2026-02-01', TERMS, 2)).toBe('4.00');
  });
});
