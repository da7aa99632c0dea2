/**
 * A contract open takes one of two paths in the database: alone, `contract_open`; arriving with
 * others, `contract_open_many` for the whole group (group commit). Both are PL/pgSQL written
 * separately (modules/trading/sql/contract-open.sql), so this test holds them to each other: the
 * same orders, placed one at a time by one user and all at once by another on the same tick,
 * store the same positions and post the same amounts to the same kinds of account.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { normalize } from '@bourse/shared';
import type { Database } from '../src/db/database';
import { ManualClock } from '../src/lib/clock';
import { verifyLedger } from '../src/ledger/verify';
import { scriptedApp, type ScriptedFeed } from './support/scripted-feed';
import {
  call,
  createTestDatabase,
  deposit,
  onPostgres,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers';

const NOW = Date.parse('2026-11-18T15:00:00Z');
/** Market and resting limit entries, long and short, with and without take-profit and stop-loss. */
const ORDERS: Record<string, unknown>[] = [
  { orderDirection: 1, leverage: 10, quantity: '0.01' },
  { orderDirection: 2, leverage: 5, quantity: '0.02', takeProfit: '95000', stopLoss: '105000' },
  { orderDirection: 1, leverage: 20, margin: '150' },
  { orderDirection: 1, leverage: 10, quantity: '0.01', orderType: 2, price: '99000.00' },
  { orderDirection: 2, leverage: 2, quantity: '0.005', orderType: 2, price: '101000.00' },
  { orderDirection: 2, leverage: 50, quantity: '0.03', stopLoss: '100900' },
];

let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let clock: ManualClock;
let sequence = 0;
/** The names of the statements the app prepared, in order (contract_open, contract_open_many…). */
const statements: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date(NOW));
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], 'open-paths'));
  clock.advance(1000);
  feed.tick('BTCUSDT', '100000.00', clock.now().getTime());
  await t.app.services.triggers!.idle();
  const db = t.db as Database;
  const query = db.query.bind(db);
  db.query = ((text: string, values?: unknown[], options?: { name?: string }) => {
    if (options?.name) statements.push(options.name);
    return query(text, values, options);
  }) as Database['query'];
});
afterEach(async () => {
  await t.app.services.triggers!.idle();
  expect((await verifyLedger(database.db)).problems).toEqual([]);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

function open(token: string, fields: Record<string, unknown>) {
  sequence += 1;
  return call(t.app, 'POST', '/api/contractPosition/open', {
    token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      requestId: `open-paths-${sequence}`,
      ...fields,
    },
  });
}

/** A user's positions with what does not depend on who placed them or when. */
async function positionsOf(userId: number) {
  const { rows } = await database.db.query<Record<string, unknown>>(
    `SELECT * FROM contract_position WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  return rows.map((row) => {
    const same: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) {
      if (['id', 'order_no', 'user_id', 'request_id', 'request_hash', 'hold_id'].includes(column))
        continue;
      same[column] = value instanceof Date ? value.toISOString() : value;
    }
    return same;
  });
}

/** A user's postings: kind of account, amount and the user's balance after, in entry order. */
async function postingsOf(userId: number) {
  const { rows } = await database.db.query<{
    owner_type: string;
    own: boolean;
    kind: string;
    amount: string;
    balance_after: string;
    entry_type: string;
  }>(
    `SELECT a.owner_type, a.owner_id = $1 AS own, a.kind, p.amount, p.balance_after, e.entry_type
     FROM ledger_posting p
     JOIN ledger_account a ON a.id = p.account_id
     JOIN ledger_entry e ON e.id = p.entry_id
     WHERE p.entry_id IN (
       SELECT p2.entry_id FROM ledger_posting p2 JOIN ledger_account a2 ON a2.id = p2.account_id
       WHERE a2.owner_type = 'user' AND a2.owner_id = $1)
     ORDER BY p.entry_id, a.owner_type, a.kind, p.amount`,
    [userId],
  );
  return rows.map((row) => ({
    account: `${row.owner_type}${row.owner_type === 'user' ? (row.own ? '' : ':other') : ''}:${row.kind}`,
    entryType: row.entry_type,
    amount: normalize(row.amount),
    // A platform account's balance is shared with other users' entries.
    balanceAfter: row.owner_type === 'user' ? normalize(row.balance_after) : null,
  }));
}

/** What a user's accounts hold in the end: available, frozen, margin. */
async function balancesOf(userId: number) {
  const { rows } = await database.db.query<{ kind: string; balance: string }>(
    `SELECT kind, balance FROM ledger_account
     WHERE owner_type = 'user' AND owner_id = $1 ORDER BY kind, currency_id`,
    [userId],
  );
  return rows.map((row) => ({ kind: row.kind, balance: normalize(row.balance) }));
}

describe(`contract_open and contract_open_many agree (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('stores the same positions and posts the same amounts, alone or in a group', async () => {
    const alone = await registerUser(t.app);
    const grouped = await registerUser(t.app);
    for (const user of [alone, grouped]) await deposit(t.db, user.userId, '5000');
    // The deposits' own entries are the same for both; what follows is what is compared.
    statements.length = 0;

    for (const order of ORDERS) {
      const result = await open(alone.token, order);
      expect(result.status, JSON.stringify(result.body)).toBe(200);
    }
    expect(statements.filter((name) => name === 'contract_open')).toHaveLength(ORDERS.length);
    expect(statements).not.toContain('contract_open_many');

    statements.length = 0;
    const results = await Promise.all(ORDERS.map((order) => open(grouped.token, order)));
    for (const result of results) expect(result.status, JSON.stringify(result.body)).toBe(200);
    // All but the first arrived while it was in the database, and went as one group.
    expect(statements).toContain('contract_open_many');

    // The same positions (in whatever order the group stored them).
    const lone = await positionsOf(alone.userId);
    const group = await positionsOf(grouped.userId);
    expect(lone).toHaveLength(ORDERS.length);
    const key = (row: Record<string, unknown>) =>
      JSON.stringify([row.direction, row.leverage, row.quantity, row.order_type, row.limit_price]);
    expect([...group].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
      [...lone].sort((a, b) => key(a).localeCompare(key(b))),
    );
    const sortPostings = (rows: Awaited<ReturnType<typeof postingsOf>>) =>
      rows
        .map((row) => ({ ...row, balanceAfter: null }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect((await postingsOf(alone.userId)).length).toBeGreaterThan(ORDERS.length * 2);
    expect(sortPostings(await postingsOf(grouped.userId))).toEqual(
      sortPostings(await postingsOf(alone.userId)),
    );
    expect(await balancesOf(grouped.userId)).toEqual(await balancesOf(alone.userId));
  });
});
