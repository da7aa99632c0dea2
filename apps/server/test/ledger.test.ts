import { beforeAll, describe, expect, it } from 'vitest';
import { add, normalize } from '@bourse/shared';
import * as ledger from '../src/ledger/ledger';
import { verifyLedger } from '../src/ledger/verify';
import { AppError, AssertionError } from '../src/lib/errors';
import type { Database } from '../src/db/database';
import { deposit, ledgerTestDatabase } from './helpers';

const USDT = 3;
const BTC = 4;
const database = ledgerTestDatabase();
let db: Database;
beforeAll(() => {
  db = database.db;
});
let nextUser = 1000;

/** Ledger owners do not need a user row: the ledger knows only ids. */
function newUserId(): number {
  nextUser += 1;
  return nextUser;
}

async function balance(userId: number, currencyId = USDT, book: ledger.Book = 'live') {
  const balances = await ledger.userBalances(db, book, userId);
  return (
    balances.find((b) => b.currencyId === currencyId) ?? { currencyId, available: '0', frozen: '0' }
  );
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('post and transfer', () => {
  it('posts a balanced entry and records the balance after each posting', async () => {
    const alice = newUserId();
    const bob = newUserId();
    await deposit(db, alice, '100.5');
    const entry = await db.transaction((tx) =>
      ledger.transfer(tx, {
        book: 'live',
        type: 'transfer',
        from: ledger.user(alice, USDT),
        to: ledger.user(bob, USDT),
        amount: '40.25',
      }),
    );
    expect(entry.duplicate).toBe(false);
    expect(entry.lines.map((line) => [line.ownerId, line.amount, line.balanceAfter])).toEqual([
      [alice, '-40.25', '60.25'],
      [bob, '40.25', '40.25'],
    ]);
    expect(await balance(alice)).toMatchObject({ available: '60.25', frozen: '0' });
    expect(await balance(bob)).toMatchObject({ available: '40.25' });
  });

  it('keeps amounts exact to 18 decimals and beyond JS number precision', async () => {
    const user = newUserId();
    await deposit(db, user, '12345678901234567.123456789012345678', BTC);
    await deposit(db, user, '0.000000000000000001', BTC);
    expect((await balance(user, BTC)).available).toBe('12345678901234567.123456789012345679');
  });

  it('refuses to take a user balance below zero and moves nothing', async () => {
    const user = newUserId();
    await deposit(db, user, '10');
    const error = await rejection(
      db.transaction((tx) =>
        ledger.transfer(tx, {
          book: 'live',
          type: 'withdraw',
          from: ledger.user(user, USDT),
          to: ledger.platform(USDT, 'external'),
          amount: '10.000000000000000001',
        }),
      ),
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).key).toBe('hint_insufficientBalance');
    expect((await balance(user)).available).toBe('10');
  });

  it('keeps live and demo books apart', async () => {
    const user = newUserId();
    await deposit(db, user, '5', USDT, 'demo');
    expect((await balance(user, USDT, 'live')).available).toBe('0');
    expect((await balance(user, USDT, 'demo')).available).toBe('5');
    const error = await rejection(
      db.transaction((tx) =>
        ledger.transfer(tx, {
          book: 'live',
          type: 'withdraw',
          from: ledger.user(user, USDT),
          to: ledger.platform(USDT, 'external'),
          amount: '1',
        }),
      ),
    );
    expect((error as AppError).key).toBe('hint_insufficientBalance');
  });

  it('refuses malformed entries before and inside the database', async () => {
    const user = newUserId();
    const unbalanced = {
      book: 'live' as const,
      type: 'broken',
      postings: [
        { account: ledger.platform(USDT, 'external'), amount: '-5' },
        { account: ledger.user(user, USDT), amount: '4' },
      ],
    };
    expect(await rejection(db.transaction((tx) => ledger.post(tx, unbalanced)))).toBeInstanceOf(
      AssertionError,
    );
    expect(
      await rejection(
        db.transaction((tx) =>
          ledger.post(tx, {
            ...unbalanced,
            postings: [{ account: ledger.user(user, USDT), amount: '0' }, unbalanced.postings[0]!],
          }),
        ),
      ),
    ).toBeInstanceOf(AssertionError);
    // Bypassing the TypeScript checks, the database function refuses too.
    const direct = (await rejection(
      db.query(
        `SELECT * FROM ledger_post('live', 'platform', NULL, NULL, 'broken', NULL, NULL, NULL,
          ARRAY['platform','user'], ARRAY[0, $1]::bigint[], ARRAY[3, 3], ARRAY['external','available'], ARRAY[-5, 4]::numeric[])`,
        [user],
      ),
    )) as { code?: string };
    expect(direct.code).toBe('LG001');
    expect((await balance(user)).available).toBe('0');
  });

  it('checks entries of many postings (batch settlements) as strictly as small ones', async () => {
    const users = Array.from({ length: 20 }, () => newUserId());
    const call = (ownerIds: number[], amounts: string[]) =>
      db.query(
        `SELECT * FROM ledger_post('live', 'platform', NULL, NULL, 'batch', NULL, NULL, NULL,
          $1::text[], $2::bigint[], $3::int[], $4::text[], $5::numeric[])`,
        [
          ['platform', ...ownerIds.map(() => 'user')],
          [0, ...ownerIds],
          [USDT, ...ownerIds.map(() => USDT)],
          ['external', ...ownerIds.map(() => 'available')],
          amounts,
        ],
      );
    const each = users.map(() => '1.5');
    const unbalanced = (await rejection(call(users, ['-29', ...each]))) as { code?: string };
    expect(unbalanced.code).toBe('LG001');
    const twice = (await rejection(call([...users.slice(0, 19), users[0]!], ['-30', ...each]))) as {
      code?: string;
    };
    expect(twice.code).toBe('LG001');
    const zero = (await rejection(call(users, ['-28.5', '0', ...each.slice(1)]))) as {
      code?: string;
    };
    expect(zero.code).toBe('LG001');
    const posted = await call(users, ['-30', ...each]);
    expect(posted.rows).toHaveLength(21);
    expect((await balance(users[19]!)).available).toBe('1.5');
  });

  it('makes entries and postings append-only and user balances never negative in the schema', async () => {
    const user = newUserId();
    const entry = await deposit(db, user, '3');
    const update = (await rejection(
      db.query('UPDATE ledger_posting SET amount = 99 WHERE entry_id = $1', [entry.entryId]),
    )) as {
      code?: string;
    };
    expect(update.code).toBe('LG009');
    const remove = (await rejection(
      db.query('DELETE FROM ledger_entry WHERE id = $1', [entry.entryId]),
    )) as { code?: string };
    expect(remove.code).toBe('LG009');
    const dropAccount = (await rejection(
      db.query(`DELETE FROM ledger_account WHERE owner_type = 'user' AND owner_id = $1`, [user]),
    )) as { code?: string };
    expect(dropAccount.code).toBe('LG009');
    const negative = (await rejection(
      db.query(
        `UPDATE ledger_account SET balance = -1 WHERE owner_type = 'user' AND owner_id = $1`,
        [user],
      ),
    )) as { code?: string };
    expect(negative.code).toBe('23514');
  });
});

describe('idempotency', () => {
  it('returns the first result for a repeated request id and moves money once', async () => {
    const user = newUserId();
    const request = {
      book: 'live' as const,
      type: 'recharge',
      requestId: 'req-0001-abc',
      from: ledger.platform(USDT, 'external'),
      to: ledger.user(user, USDT),
      amount: '25',
    };
    const first = await db.transaction((tx) => ledger.transfer(tx, request));
    const second = await db.transaction((tx) => ledger.transfer(tx, request));
    expect(second.duplicate).toBe(true);
    expect(second.entryId).toBe(first.entryId);
    expect(second.lines.map((l) => l.balanceAfter)).toEqual(first.lines.map((l) => l.balanceAfter));
    expect((await balance(user)).available).toBe('25');

    const changed = await rejection(
      db.transaction((tx) => ledger.transfer(tx, { ...request, amount: '26' })),
    );
    expect((changed as AppError).key).toBe('hint_requestIdReused');
    expect((await balance(user)).available).toBe('25');
  });

  it('scopes request ids per user', async () => {
    const [a, b] = [newUserId(), newUserId()];
    for (const user of [a, b]) {
      await db.transaction((tx) =>
        ledger.transfer(tx, {
          book: 'live',
          type: 'recharge',
          requestId: 'same-id-for-both',
          from: ledger.platform(USDT, 'external'),
          to: ledger.user(user, USDT),
          amount: '1',
        }),
      );
    }
    expect((await balance(a)).available).toBe('1');
    expect((await balance(b)).available).toBe('1');
  });
});

describe('holds', () => {
  it('freezes, captures part, releases the rest', async () => {
    const user = newUserId();
    await deposit(db, user, '100');
    const held = await db.transaction((tx) =>
      ledger.hold(tx, {
        book: 'live',
        userId: user,
        currencyId: USDT,
        amount: '60',
        type: 'withdraw',
        refType: 'withdraw',
        refId: 7,
      }),
    );
    expect(held).toMatchObject({ amount: '60', remaining: '60', status: 'pending', refId: '7' });
    expect(await balance(user)).toMatchObject({ available: '40', frozen: '60' });

    const captured = await db.transaction((tx) =>
      ledger.capture(tx, held.id, {
        amount: '15',
        to: ledger.platform(USDT, 'fees'),
        type: 'withdraw_fee',
      }),
    );
    expect(captured.hold).toMatchObject({ remaining: '45', status: 'pending' });
    expect(await balance(user)).toMatchObject({ available: '40', frozen: '45' });

    const tooMuch = await rejection(
      db.transaction((tx) =>
        ledger.capture(tx, held.id, {
          amount: '45.01',
          to: ledger.platform(USDT, 'external'),
          type: 'withdraw',
        }),
      ),
    );
    expect((tooMuch as AppError).key).toBe('hint_insufficientBalance');

    const released = await db.transaction((tx) => ledger.release(tx, held.id));
    expect(released).toMatchObject({ changed: true, hold: { status: 'released', remaining: '0' } });
    expect(await balance(user)).toMatchObject({ available: '85', frozen: '0' });

    const again = await db.transaction((tx) => ledger.release(tx, held.id));
    expect(again.changed).toBe(false);
    const late = await db.transaction((tx) =>
      ledger.capture(tx, held.id, { to: ledger.platform(USDT, 'fees'), type: 'late' }),
    );
    expect(late.changed).toBe(false);
    expect(await balance(user)).toMatchObject({ available: '85', frozen: '0' });
  });

  it('captures everything that remains and closes the hold', async () => {
    const user = newUserId();
    await deposit(db, user, '10');
    const held = await db.transaction((tx) =>
      ledger.hold(tx, {
        book: 'live',
        userId: user,
        currencyId: USDT,
        amount: '10',
        type: 'order',
      }),
    );
    const done = await db.transaction((tx) =>
      ledger.capture(tx, held.id, { to: ledger.platform(USDT, 'house'), type: 'order' }),
    );
    expect(done.hold).toMatchObject({ status: 'captured', remaining: '0' });
    expect(await balance(user)).toMatchObject({ available: '0', frozen: '0' });
  });

  it('cannot freeze more than is available, and a repeated hold request returns the first hold', async () => {
    const user = newUserId();
    await deposit(db, user, '10');
    const tooMuch = await rejection(
      db.transaction((tx) =>
        ledger.hold(tx, {
          book: 'live',
          userId: user,
          currencyId: USDT,
          amount: '10.0001',
          type: 'order',
        }),
      ),
    );
    expect((tooMuch as AppError).key).toBe('hint_insufficientBalance');
    const input = {
      book: 'live' as const,
      userId: user,
      currencyId: USDT,
      amount: '4',
      type: 'order',
      requestId: 'hold-req-1',
    };
    const first = await db.transaction((tx) => ledger.hold(tx, input));
    const second = await db.transaction((tx) => ledger.hold(tx, input));
    expect(second).toMatchObject({ id: first.id, duplicate: true });
    expect(await balance(user)).toMatchObject({ available: '6', frozen: '4' });
  });
});

describe('settling many holds in one entry', () => {
  it('returns, captures and pays per hold, summed per account, and closes every hold', async () => {
    const [a, b] = [newUserId(), newUserId()];
    await deposit(db, a, '100');
    await deposit(db, b, '100');
    const hold = (userId: number, amount: string) =>
      db.transaction((tx) =>
        ledger.hold(tx, { book: 'live', userId, currencyId: USDT, amount, type: 'trade_fast' }),
      );
    const won = await hold(a, '10');
    const lost = await hold(a, '20');
    const tie = await hold(b, '30');
    const partly = await hold(b, '40');
    const entry = await db.transaction((tx) =>
      ledger.settleHolds(tx, {
        book: 'live',
        currencyId: USDT,
        platformKind: 'house',
        type: 'trade:fast_settle',
        holds: [
          { holdId: won.id, returned: '10', paid: '8.5' },
          { holdId: lost.id, returned: '0', paid: '0' },
          { holdId: tie.id, returned: '30', paid: '0' },
          { holdId: partly.id, returned: '10', paid: '0' },
        ],
      }),
    );
    // Two postings per user and one for the house: 20 + 30 captured, 8.5 paid.
    expect(
      entry!.lines.map((line) => [line.ownerType, line.ownerId, line.kind, line.amount]),
    ).toEqual([
      ['user', a, 'frozen', '-30'],
      ['user', a, 'available', '18.5'],
      ['user', b, 'frozen', '-70'],
      ['user', b, 'available', '40'],
      ['platform', 0, 'house', '41.5'],
    ]);
    expect(await balance(a)).toMatchObject({ available: '88.5', frozen: '0' });
    expect(await balance(b)).toMatchObject({ available: '70', frozen: '0' });
    const { rows } = await db.query<{ id: number; status: string; remaining: string }>(
      'SELECT id, status, remaining::text FROM ledger_hold WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[won.id, lost.id, tie.id, partly.id]],
    );
    expect(rows.map((row) => [row.status, Number(row.remaining)])).toEqual([
      ['released', 0],
      ['captured', 0],
      ['released', 0],
      ['released', 0],
    ]);
    // A closed hold cannot be settled again.
    await expect(
      db.transaction((tx) =>
        ledger.settleHolds(tx, {
          book: 'live',
          currencyId: USDT,
          platformKind: 'house',
          type: 'trade:fast_settle',
          holds: [{ holdId: won.id, returned: '10', paid: '0' }],
        }),
      ),
    ).rejects.toBeInstanceOf(AssertionError);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});

describe('posting many entries in one call (ledger_post_many)', () => {
  type Line = [ownerType: string, ownerId: number, kind: string, amount: string];
  /** Entries of USDT postings, straight to the database function (no TypeScript checks). */
  const postMany = (entries: { type: string; lines: Line[] }[], entryOf?: number[]) =>
    db.transaction(async (tx) => {
      const lines = entries.flatMap((entry) => entry.lines);
      const { rows } = await tx.query<{ ids: string[] }>(
        `SELECT ledger_post_many($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
           $6::int[], $7::text[], $8::bigint[], $9::int[], $10::text[], $11::numeric[]) AS ids`,
        [
          entries.map(() => 'live'),
          entries.map(() => 'platform'),
          entries.map((entry) => entry.type),
          entries.map(() => 'test'),
          entries.map((_, index) => String(index + 1)),
          entryOf ?? entries.flatMap((entry, index) => entry.lines.map(() => index + 1)),
          lines.map((line) => line[0]),
          lines.map((line) => line[1]),
          lines.map(() => USDT),
          lines.map((line) => line[2]),
          lines.map((line) => line[3]),
        ],
      );
      return rows[0]!.ids.map(Number);
    });
  const postings = async (entryIds: number[]) =>
    (
      await db.query<{
        entry_id: string;
        line: number;
        owner_id: string;
        kind: string;
        amount: string;
        balance_after: string;
      }>(
        `SELECT p.entry_id, p.line, a.owner_id, a.kind, p.amount::text, p.balance_after::text
         FROM ledger_posting p JOIN ledger_account a ON a.id = p.account_id
         WHERE p.entry_id = ANY ($1::bigint[]) ORDER BY p.entry_id, p.line`,
        [entryIds],
      )
    ).rows.map((row) => [
      entryIds.indexOf(Number(row.entry_id)) + 1,
      row.line,
      Number(row.owner_id),
      row.kind,
      normalize(row.amount),
      normalize(row.balance_after),
    ]);

  it('posts entries that share accounts with the balances ledger_post would give one by one', async () => {
    const alice = newUserId();
    const bob = newUserId();
    await deposit(db, alice, '100');
    await deposit(db, bob, '10');
    const fees = ['platform', alice % 16, 'fees'] as const;
    const before = await db.query<{ balance: string }>(
      `SELECT coalesce(sum(balance), 0)::text AS balance FROM ledger_account
       WHERE book = 'live' AND owner_type = 'platform' AND owner_id = $1 AND currency_id = $2 AND kind = 'fees'`,
      [alice % 16, USDT],
    );
    const feesBefore = normalize(before.rows[0]!.balance);
    const ids = await postMany([
      {
        type: 'open',
        lines: [
          ['user', alice, 'available', '-30'],
          ['user', alice, 'margin', '28'],
          [...fees, '2'],
        ],
      },
      {
        type: 'open',
        lines: [
          ['user', bob, 'available', '-10'],
          ['user', bob, 'margin', '10'],
        ],
      },
      {
        type: 'open',
        lines: [
          ['user', alice, 'available', '-52.5'],
          ['user', alice, 'margin', '50'],
          [...fees, '2.5'],
        ],
      },
    ]);
    expect(ids).toHaveLength(3);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const fee1 = add(feesBefore, '2');
    expect(await postings(ids)).toEqual([
      [1, 1, alice, 'available', '-30', '70'],
      [1, 2, alice, 'margin', '28', '28'],
      [1, 3, alice % 16, 'fees', '2', fee1],
      [2, 1, bob, 'available', '-10', '0'],
      [2, 2, bob, 'margin', '10', '10'],
      [3, 1, alice, 'available', '-52.5', '17.5'],
      [3, 2, alice, 'margin', '50', '78'],
      [3, 3, alice % 16, 'fees', '2.5', add(fee1, '2.5')],
    ]);
    expect(await balance(alice)).toMatchObject({ available: '17.5' });
    expect(await balance(bob)).toMatchObject({ available: '0' });
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('refuses malformed entries, each checked on its own, and moves nothing', async () => {
    const user = newUserId();
    await deposit(db, user, '50');
    const good = {
      type: 'move',
      lines: [
        ['user', user, 'available', '-5'],
        ['user', user, 'margin', '5'],
      ] as Line[],
    };
    const refusals = [
      // Two entries that balance only together.
      () =>
        postMany([
          {
            type: 'move',
            lines: [
              ['user', user, 'available', '-5'],
              ['user', user, 'margin', '4'],
            ],
          },
          {
            type: 'move',
            lines: [
              ['user', user, 'available', '-1'],
              ['user', user, 'margin', '2'],
            ],
          },
        ]),
      // An account twice in one entry.
      () =>
        postMany([
          good,
          {
            type: 'move',
            lines: [
              ['user', user, 'available', '-5'],
              ['user', user, 'margin', '2'],
              ['user', user, 'margin', '3'],
            ],
          },
        ]),
      // A zero amount.
      () =>
        postMany([
          good,
          {
            type: 'move',
            lines: [
              ['user', user, 'available', '0'],
              ['user', user, 'margin', '0'],
            ],
          },
        ]),
      // An entry of one posting.
      () => postMany([good, { type: 'move', lines: [['user', user, 'available', '-0']] }]),
      // Postings not grouped by entry in entry order.
      () => postMany([good, good], [1, 2, 1, 2]),
      // A posting of an entry that does not exist.
      () => postMany([good], [1, 2]),
    ];
    for (const refusal of refusals)
      expect(((await rejection(refusal())) as { code?: string }).code).toBe('LG001');
    expect(await balance(user)).toMatchObject({ available: '50' });
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('refuses a posting that would overdraw a user even when a later entry would cover it', async () => {
    const user = newUserId();
    await deposit(db, user, '10');
    const error = await rejection(
      postMany([
        {
          type: 'out',
          lines: [
            ['user', user, 'available', '-20'],
            ['platform', 0, 'external', '20'],
          ],
        },
        {
          type: 'in',
          lines: [
            ['platform', 0, 'external', '-20'],
            ['user', user, 'available', '20'],
          ],
        },
      ]),
    );
    expect(() => ledger.mapLedgerError(error)).toThrow(
      expect.objectContaining({ key: 'hint_insufficientBalance' }),
    );
    expect(await balance(user)).toMatchObject({ available: '10' });
    // The same entries the other way round are fine.
    await postMany([
      {
        type: 'in',
        lines: [
          ['platform', 0, 'external', '-20'],
          ['user', user, 'available', '20'],
        ],
      },
      {
        type: 'out',
        lines: [
          ['user', user, 'available', '-20'],
          ['platform', 0, 'external', '20'],
        ],
      },
    ]);
    expect(await balance(user)).toMatchObject({ available: '10' });
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});

describe('verification', () => {
  it('detects a tampered balance and a frozen balance without its hold', async () => {
    const user = newUserId();
    await deposit(db, user, '8');
    await db.query(
      `UPDATE ledger_account SET balance = balance + 1 WHERE owner_type = 'user' AND owner_id = $1 AND kind = 'available'`,
      [user],
    );
    const report = await verifyLedger(db);
    expect(report.ok).toBe(false);
    expect(report.problems.some((p) => p.startsWith('conservation: book live currency 3'))).toBe(
      true,
    );
    expect(report.problems.some((p) => p.startsWith('materialized: account'))).toBe(true);
    await db.query(
      `UPDATE ledger_account SET balance = balance - 1 WHERE owner_type = 'user' AND owner_id = $1 AND kind = 'available'`,
      [user],
    );

    const held = await db.transaction((tx) =>
      ledger.hold(tx, { book: 'live', userId: user, currencyId: USDT, amount: '2', type: 'order' }),
    );
    await db.query(`UPDATE ledger_hold SET remaining = 1 WHERE id = $1`, [held.id]);
    expect((await verifyLedger(db)).problems.some((p) => p.startsWith(`holds: user ${user}`))).toBe(
      true,
    );
    await db.query(`UPDATE ledger_hold SET remaining = 2 WHERE id = $1`, [held.id]);
    expect((await verifyLedger(db)).ok).toBe(true);
  });
});
