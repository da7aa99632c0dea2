/**
 * Concurrency: on PostgreSQL the requests really run at once on separate connections; on PGlite
 * they are serialized, and the outcome must be the same.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as ledger from '../src/ledger/ledger';
import { AppError } from '../src/lib/errors';
import type { Database } from '../src/db/database';
import { deposit, ledgerTestDatabase, onPostgres } from './helpers';

const USDT = 3;
const database = ledgerTestDatabase();
let db: Database;
beforeAll(() => {
  db = database.db;
});

function outcomes(results: PromiseSettledResult<unknown>[]) {
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const failure of failures) {
    expect(failure.reason).toBeInstanceOf(AppError);
    expect((failure.reason as AppError).key).toBe('hint_insufficientBalance');
  }
  return { succeeded: results.length - failures.length, failed: failures.length };
}

describe(`concurrent holds on ${onPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('lets exactly one of 50 concurrent holds of the whole balance succeed', async () => {
    await deposit(db, 1, '100');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        db.transaction((tx) =>
          ledger.hold(tx, {
            book: 'live',
            userId: 1,
            currencyId: USDT,
            amount: '100',
            type: 'withdraw',
            refId: i,
          }),
        ),
      ),
    );
    expect(outcomes(results)).toEqual({ succeeded: 1, failed: 49 });
    const [balance] = await ledger.userBalances(db, 'live', 1);
    expect(balance).toMatchObject({ available: '0', frozen: '100' });
  });

  it('lets exactly as many holds succeed as the balance covers', async () => {
    await deposit(db, 2, '100');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        db.transaction((tx) =>
          ledger.hold(tx, {
            book: 'live',
            userId: 2,
            currencyId: USDT,
            amount: '7',
            type: 'withdraw',
          }),
        ),
      ),
    );
    expect(outcomes(results)).toEqual({ succeeded: 14, failed: 36 });
    const [balance] = await ledger.userBalances(db, 'live', 2);
    expect(balance).toMatchObject({ available: '2', frozen: '98' });
  });

  it('posts a request id once however many copies arrive together', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction((tx) =>
          ledger.transfer(tx, {
            book: 'live',
            type: 'recharge',
            requestId: 'concurrent-twin-1',
            from: ledger.platform(USDT, 'external'),
            to: ledger.user(3, USDT),
            amount: '5',
          }),
        ),
      ),
    );
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    const [balance] = await ledger.userBalances(db, 'live', 3);
    expect(balance!.available).toBe('5');
  });

  it('never deadlocks on transfers crossing in both directions', async () => {
    await deposit(db, 4, '1000');
    await deposit(db, 5, '1000');
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        db.transaction((tx) =>
          ledger.transfer(tx, {
            book: 'live',
            type: 'transfer',
            from: ledger.user(i % 2 ? 4 : 5, USDT),
            to: ledger.user(i % 2 ? 5 : 4, USDT),
            amount: '1',
          }),
        ),
      ),
    );
    const balances = [
      ...(await ledger.userBalances(db, 'live', 4)),
      ...(await ledger.userBalances(db, 'live', 5)),
    ];
    expect(balances.map((b) => b.available)).toEqual(['1000', '1000']);
  });
});
