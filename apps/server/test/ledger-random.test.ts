/**
 * A seeded random walk through the ledger: 100,000 operations on PostgreSQL (20,000 on PGlite,
 * whose single connection makes the full walk take minutes; same code, same seeds): deposits,
 * withdrawals, transfers, holds, releases, captures and replays of earlier request ids across
 * users, one walk per currency, each checked against an independent model. On PostgreSQL the
 * walks run at once on their own connections. After every batch the ledger must verify
 * (conservation, no negative user balance, balances equal postings, holds equal frozen funds)
 * and every user balance of the walk's currency must equal the model's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { add, gt, lte, mul, sub, toScale, type DecimalString } from '@bourse/shared';
import * as ledger from '../src/ledger/ledger';
import { verifyLedger } from '../src/ledger/verify';
import { AppError } from '../src/lib/errors';
import type { Database, Queryable } from '../src/db/database';
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers';

const OPERATIONS = Number(process.env.LEDGER_RANDOM_OPS ?? (onPostgres ? 100_000 : 20_000));
const BATCH = 2_000;
const SEED = 20261122;
const USERS = 40;
const CURRENCIES = [
  { id: 3, scale: 4 },
  { id: 4, scale: 8 },
  { id: 1, scale: 2 },
];

/** mulberry32: a small, fast, seedable generator, so a failure can be replayed exactly. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (max: number) => Math.floor(next() * max) };
}

type Balance = { available: DecimalString; frozen: DecimalString };
interface ModelHold {
  id: number;
  user: number;
  currency: number;
  remaining: DecimalString;
}
interface Replayable {
  input: Parameters<typeof ledger.transfer>[1];
}

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});

afterAll(async () => {
  await database.dispose();
});

type Currency = (typeof CURRENCIES)[number];

/**
 * One walk through the accounts of one currency (users' and the platform's), against its own
 * model. Walks of different currencies share no account, so on PostgreSQL they run side by side
 * on connections of their own, as concurrent requests would.
 */
async function walk(currency: Currency, seed: number, operations: number) {
  const rng = generator(seed);
  const model = new Map<string, Balance>();
  const holds: ModelHold[] = [];
  const replayable: Replayable[] = [];
  const counts = { succeeded: 0, refused: 0, duplicates: 0 };
  let requestSequence = 0;

  const key = (user: number, currency: number) => `${user}:${currency}`;
  const get = (user: number, currency: number): Balance =>
    model.get(key(user, currency)) ?? { available: '0', frozen: '0' };
  const set = (user: number, currency: number, balance: Balance) =>
    model.set(key(user, currency), balance);
  const pickUser = () => 1 + rng.int(USERS);
  /** A positive amount with the currency's scale; sometimes a whole balance, sometimes more. */
  const amount = (scale: number, around?: DecimalString): DecimalString => {
    if (around !== undefined && gt(around, '0') && rng.next() < 0.6) {
      const factor = ['0.1', '0.5', '1', '1.2'][rng.int(4)]!;
      const scaled = toScale(mul(around, factor), scale);
      if (gt(scaled, '0')) return scaled;
    }
    const whole = rng.int(1000);
    const fraction = String(rng.int(10 ** Math.min(scale, 6))).padStart(Math.min(scale, 6), '0');
    const value = toScale(`${whole}.${fraction}`, scale);
    return gt(value, '0') ? value : toScale('1', scale);
  };

  /**
   * An operation the model expects to be refused. A refusal aborts the transaction it runs in,
   * so it ends the current batch and runs in a transaction of its own (savepoints would do, but
   * hundreds of them per transaction slow PostgreSQL down badly).
   */
  let pendingRefusal: { work: (tx: Queryable) => Promise<unknown>; key: string } | undefined;
  function refused(work: (tx: Queryable) => Promise<unknown>, key: string) {
    pendingRefusal = { work, key };
  }

  async function step(tx: Queryable) {
    const roll = rng.next();
    if (roll < 0.25) {
      const user = pickUser();
      const value = amount(currency.scale);
      const input = {
        book: 'live' as const,
        type: 'recharge',
        requestId: `dep-${currency.id}-${++requestSequence}`,
        from: ledger.platform(currency.id, 'external'),
        to: ledger.user(user, currency.id),
        amount: value,
      };
      await ledger.transfer(tx, input);
      set(user, currency.id, {
        ...get(user, currency.id),
        available: add(get(user, currency.id).available, value),
      });
      replayable.push({ input });
      counts.succeeded += 1;
    } else if (roll < 0.65) {
      const user = pickUser();
      const to = roll < 0.45 ? null : pickUser();
      if (to === user) return;
      const value = amount(currency.scale, get(user, currency.id).available);
      const input = {
        book: 'live' as const,
        type: to === null ? 'withdraw' : 'transfer',
        from: ledger.user(user, currency.id),
        to: to === null ? ledger.platform(currency.id, 'external') : ledger.user(to, currency.id),
        amount: value,
      };
      if (lte(value, get(user, currency.id).available)) {
        await ledger.transfer(tx, input);
        set(user, currency.id, {
          ...get(user, currency.id),
          available: sub(get(user, currency.id).available, value),
        });
        if (to !== null)
          set(to, currency.id, {
            ...get(to, currency.id),
            available: add(get(to, currency.id).available, value),
          });
        counts.succeeded += 1;
      } else {
        refused((own) => ledger.transfer(own, input), 'hint_insufficientBalance');
      }
    } else if (roll < 0.77) {
      const user = pickUser();
      const value = amount(currency.scale, get(user, currency.id).available);
      const input = {
        book: 'live' as const,
        userId: user,
        currencyId: currency.id,
        amount: value,
        type: 'order',
      };
      if (lte(value, get(user, currency.id).available)) {
        const held = await ledger.hold(tx, input);
        holds.push({ id: held.id, user, currency: currency.id, remaining: value });
        const before = get(user, currency.id);
        set(user, currency.id, {
          available: sub(before.available, value),
          frozen: add(before.frozen, value),
        });
        counts.succeeded += 1;
      } else {
        refused((own) => ledger.hold(own, input), 'hint_insufficientBalance');
      }
    } else if (roll < 0.85) {
      if (holds.length === 0) return;
      const [held] = holds.splice(rng.int(holds.length), 1);
      const outcome = await ledger.release(tx, held!.id);
      expect(outcome.changed).toBe(true);
      const before = get(held!.user, held!.currency);
      set(held!.user, held!.currency, {
        available: add(before.available, held!.remaining),
        frozen: sub(before.frozen, held!.remaining),
      });
      counts.succeeded += 1;
    } else if (roll < 0.95) {
      if (holds.length === 0) return;
      const index = rng.int(holds.length);
      const held = holds[index]!;
      const scale = CURRENCIES.find((c) => c.id === held.currency)!.scale;
      const value = rng.next() < 0.5 ? held.remaining : amount(scale, held.remaining);
      const toUser = rng.next() < 0.5 ? pickUser() : null;
      const to =
        toUser === null || toUser === held.user
          ? ledger.platform(held.currency, 'fees')
          : ledger.user(toUser, held.currency);
      if (lte(value, held.remaining)) {
        const outcome = await ledger.capture(tx, held.id, { amount: value, to, type: 'order' });
        expect(outcome.changed).toBe(true);
        const before = get(held.user, held.currency);
        set(held.user, held.currency, { ...before, frozen: sub(before.frozen, value) });
        if (to.ownerType === 'user') {
          const receiver = get(to.ownerId, held.currency);
          set(to.ownerId, held.currency, {
            ...receiver,
            available: add(receiver.available, value),
          });
        }
        held.remaining = sub(held.remaining, value);
        if (!gt(held.remaining, '0')) holds.splice(index, 1);
        counts.succeeded += 1;
      } else {
        refused(
          (own) => ledger.capture(own, held.id, { amount: value, to, type: 'order' }),
          'hint_insufficientBalance',
        );
      }
    } else {
      if (replayable.length === 0) return;
      const { input } = replayable[rng.int(replayable.length)]!;
      if (rng.next() < 0.7) {
        const again = await ledger.transfer(tx, input);
        expect(again.duplicate).toBe(true);
        counts.duplicates += 1;
      } else {
        refused(
          (own) => ledger.transfer(own, { ...input, amount: add(input.amount, '1') }),
          'hint_requestIdReused',
        );
      }
    }
  }

  async function checkAgainstModel(done: number) {
    const report = await verifyLedger(db);
    expect(report.problems, `after ${done} operations in currency ${currency.id}`).toEqual([]);
    const { rows } = await db.query<{
      owner_id: number;
      currency_id: number;
      kind: string;
      balance: string;
    }>(
      `SELECT owner_id, currency_id, kind, balance FROM ledger_account
         WHERE book = 'live' AND owner_type = 'user' AND currency_id = $1`,
      [currency.id],
    );
    for (const row of rows) {
      const expected = get(row.owner_id, row.currency_id);
      const actual = row.kind === 'available' ? expected.available : expected.frozen;
      expect(`${row.owner_id}:${row.currency_id}:${row.kind}=${toScale(row.balance, 8)}`).toBe(
        `${row.owner_id}:${row.currency_id}:${row.kind}=${toScale(actual, 8)}`,
      );
    }
  }

  let done = 0;
  let sinceCheck = 0;
  while (done < operations) {
    await db.transaction(async (tx) => {
      while (done < operations && sinceCheck < BATCH && !pendingRefusal) {
        await step(tx);
        done += 1;
        sinceCheck += 1;
      }
    });
    if (pendingRefusal) {
      const { work, key: expectedKey } = pendingRefusal;
      pendingRefusal = undefined;
      let error: unknown;
      await db.transaction((own) => work(own)).catch((caught: unknown) => (error = caught));
      expect(error, `expected ${expectedKey}`).toBeInstanceOf(AppError);
      expect((error as AppError).key).toBe(expectedKey);
      counts.refused += 1;
    }
    if (sinceCheck >= BATCH || done >= operations) {
      await checkAgainstModel(done);
      sinceCheck = 0;
    }
  }
  // The walk must really have exercised both outcomes.
  expect(counts.succeeded).toBeGreaterThan(operations * 0.5);
  expect(counts.refused).toBeGreaterThan(operations * 0.02);
  expect(counts.duplicates).toBeGreaterThan(operations * 0.01);
}

it(
  `keeps the ledger sound through ${OPERATIONS} seeded random operations`,
  { timeout: 900_000 },
  async () => {
    // The operations split between the currencies' walks; PGlite has one connection, so there
    // they take turns.
    const share = (index: number) =>
      Math.floor(OPERATIONS / CURRENCIES.length) + (index < OPERATIONS % CURRENCIES.length ? 1 : 0);
    const walks = CURRENCIES.map(
      (currency, index) => () => walk(currency, SEED + index, share(index)),
    );
    if (onPostgres) await Promise.all(walks.map((run) => run()));
    else for (const run of walks) await run();
  },
);
