/**
 * The ledger (PRODUCT section 5): the only code that moves money. Every change is one balanced
 * journal entry posted by the `ledger_post` database function, which creates accounts on first
 * use, locks them in id order, cannot take a user balance below zero and keeps request ids
 * unique per scope. Frozen funds are holds: pending until captured or released.
 */
import { createHash } from 'node:crypto';
import {
  isDecimalString,
  isNegative,
  isZero,
  neg,
  normalize,
  sub,
  sum,
  gt,
  type DecimalString,
} from '@bourse/shared';
import type { Queryable } from '../db/database';
import { AppError, assert, AssertionError } from '../lib/errors';

export type Book = 'live' | 'demo';
export type UserAccountKind = 'available' | 'frozen' | 'margin' | 'staked' | 'loan';
export type PlatformAccountKind =
  'external' | 'demo_faucet' | 'fees' | 'house' | 'interest' | 'rewards' | 'loans';

export type AccountRef =
  | { ownerType: 'user'; ownerId: number; currencyId: number; kind: UserAccountKind }
  | { ownerType: 'platform'; currencyId: number; kind: PlatformAccountKind; shard?: number };

/** Shards of a platform account (owner ids 0–15, migration 0012); its balance is their sum. */
export const PLATFORM_SHARDS = 16;

export interface PostingInput {
  account: AccountRef;
  /** Signed decimal string: positive credits the account, negative debits it. */
  amount: DecimalString;
}

export interface EntryInput {
  book: Book;
  /** What kind of movement this is (`demo_grant`, `recharge`, `withdraw_fee`…); shown in records. */
  type: string;
  postings: PostingInput[];
  /** Client-generated id that makes a retry return the first result instead of posting twice. */
  requestId?: string;
  /** Whose request id it is; defaults to the user of the first user posting. */
  scope?: string;
  refType?: string;
  refId?: string | number;
  memo?: string;
}

export interface PostedLine {
  accountId: number;
  ownerType: 'user' | 'platform';
  ownerId: number;
  currencyId: number;
  kind: string;
  amount: DecimalString;
  balanceAfter: DecimalString;
}

export interface PostedEntry {
  entryId: number;
  /** True when the request id had been used before: nothing moved this time. */
  duplicate: boolean;
  lines: PostedLine[];
}

export const user = (
  ownerId: number,
  currencyId: number,
  kind: UserAccountKind = 'available',
): AccountRef => ({
  ownerType: 'user',
  ownerId,
  currencyId,
  kind,
});

/**
 * A platform account. `forUser` picks the shard of a user's movement, so that busy accounts (fees,
 * house) are not one row every order waits for.
 */
export const platform = (
  currencyId: number,
  kind: PlatformAccountKind,
  forUser?: number,
): AccountRef => ({
  ownerType: 'platform',
  currencyId,
  kind,
  shard: forUser === undefined ? 0 : forUser % PLATFORM_SHARDS,
});

const BOOKS = new Set<Book>(['live', 'demo']);

function ownerIdOf(account: AccountRef): number {
  return account.ownerType === 'user' ? account.ownerId : (account.shard ?? 0);
}

function accountKey(account: AccountRef): string {
  return `${account.ownerType}:${ownerIdOf(account)}:${account.currencyId}:${account.kind}`;
}

function checkEntry(input: EntryInput): void {
  assert(BOOKS.has(input.book), `ledger: unknown book ${input.book}`);
  assert(input.postings.length >= 2, 'ledger: an entry needs two or more postings');
  assert(input.type.length > 0 && input.type.length <= 64, 'ledger: entry type is required');
  const seen = new Set<string>();
  const perCurrency = new Map<number, DecimalString[]>();
  for (const posting of input.postings) {
    assert(
      isDecimalString(posting.amount),
      `ledger: amount ${posting.amount} is not a decimal string`,
    );
    assert(!isZero(posting.amount), 'ledger: zero posting');
    assert(Number.isInteger(posting.account.currencyId), 'ledger: currency id must be an integer');
    if (posting.account.ownerType === 'user') {
      assert(
        Number.isSafeInteger(posting.account.ownerId) && posting.account.ownerId > 0,
        'ledger: bad user id',
      );
    }
    const key = accountKey(posting.account);
    assert(!seen.has(key), `ledger: account ${key} appears twice in one entry`);
    seen.add(key);
    const list = perCurrency.get(posting.account.currencyId) ?? [];
    list.push(posting.amount);
    perCurrency.set(posting.account.currencyId, list);
  }
  for (const [currencyId, amounts] of perCurrency) {
    assert(isZero(sum(amounts)), `ledger: entry does not balance in currency ${currencyId}`);
  }
}

/** Fingerprint of a request: same id with a different fingerprint is refused. */
function fingerprint(input: EntryInput): string {
  const lines = input.postings
    .map((posting) => `${accountKey(posting.account)}=${normalize(posting.amount)}`)
    .sort()
    .join(';');
  const text = [input.book, input.type, input.refType ?? '', String(input.refId ?? ''), lines].join(
    '|',
  );
  return createHash('sha256').update(text).digest('base64url');
}

function defaultScope(input: EntryInput): string {
  const firstUser = input.postings.find((posting) => posting.account.ownerType === 'user');
  return firstUser ? `user:${ownerIdOf(firstUser.account)}` : 'platform';
}

/** Maps the ledger function's own error codes to the outcomes users see. */
export function mapLedgerError(error: unknown): never {
  const { code, constraint } = error as { code?: string; constraint?: string };
  if (code === '23514' && constraint === 'ledger_account_not_negative')
    throw new AppError('hint_insufficientBalance', 422);
  if (code === 'LG003') throw new AppError('hint_requestIdReused', 409);
  if (code === 'LG001') throw new AssertionError((error as Error).message);
  throw error;
}

interface PostRow {
  entry_id: number;
  duplicate: boolean;
  account_id: number;
  owner_type: 'user' | 'platform';
  owner_id: number;
  currency_id: number;
  kind: string;
  amount: string;
  balance_after: string;
}

/**
 * Checks an entry as `post` does and gives its postings as ledger_post's array arguments, for SQL
 * functions that post the entry themselves.
 */
export function checkedPostings(input: EntryInput): unknown[] {
  checkEntry(input);
  const postings = input.postings;
  return [
    postings.map((posting) => posting.account.ownerType),
    postings.map((posting) => ownerIdOf(posting.account)),
    postings.map((posting) => posting.account.currencyId),
    postings.map((posting) => posting.account.kind),
    postings.map((posting) => posting.amount),
  ];
}

/** Posts one balanced entry inside the caller's transaction. */
export async function post(tx: Queryable, input: EntryInput): Promise<PostedEntry> {
  const postings = input.postings;
  const arrays = checkedPostings(input);
  let rows: PostRow[];
  try {
    ({ rows } = await tx.query<PostRow>(
      'SELECT * FROM ledger_post($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)',
      [
        input.book,
        input.scope ?? defaultScope(input),
        input.requestId ?? null,
        input.requestId === undefined ? null : fingerprint(input),
        input.type,
        input.refType ?? null,
        input.refId === undefined ? null : String(input.refId),
        input.memo ?? null,
        ...arrays,
      ],
      { name: 'ledger_post' },
    ));
  } catch (error) {
    mapLedgerError(error);
  }
  assert(rows.length === postings.length, 'ledger: posted line count differs from the request');
  const first = rows[0];
  assert(first, 'ledger: nothing posted');
  return {
    entryId: first.entry_id,
    duplicate: first.duplicate,
    lines: rows.map((row) => ({
      accountId: row.account_id,
      ownerType: row.owner_type,
      ownerId: row.owner_id,
      currencyId: row.currency_id,
      kind: row.kind,
      amount: normalize(row.amount),
      balanceAfter: normalize(row.balance_after),
    })),
  };
}

/** Moves `amount` from one account to another in one entry. */
export function transfer(
  tx: Queryable,
  input: Omit<EntryInput, 'postings'> & { from: AccountRef; to: AccountRef; amount: DecimalString },
): Promise<PostedEntry> {
  assert(gt(input.amount, '0'), 'ledger: transfer amount must be positive');
  const { from, to, amount, ...entry } = input;
  return post(tx, {
    ...entry,
    postings: [
      { account: from, amount: neg(amount) },
      { account: to, amount },
    ],
  });
}

// ---------------------------------------------------------------- holds

export type HoldStatus = 'pending' | 'captured' | 'released';

export interface Hold {
  id: number;
  book: Book;
  userId: number;
  currencyId: number;
  amount: DecimalString;
  remaining: DecimalString;
  status: HoldStatus;
  holdType: string;
  refType: string | null;
  refId: string | null;
  /** True when the request id had been used before and this is the first hold again. */
  duplicate: boolean;
}

interface HoldRow {
  id: number;
  book: Book;
  user_id: number;
  currency_id: number;
  amount: string;
  remaining: string;
  status: HoldStatus;
  hold_type: string;
  ref_type: string | null;
  ref_id: string | null;
}

function toHold(row: HoldRow, duplicate = false): Hold {
  return {
    id: row.id,
    book: row.book,
    userId: row.user_id,
    currencyId: row.currency_id,
    amount: normalize(row.amount),
    remaining: normalize(row.remaining),
    status: row.status,
    holdType: row.hold_type,
    refType: row.ref_type,
    refId: row.ref_id,
    duplicate,
  };
}

export interface HoldInput {
  book: Book;
  userId: number;
  currencyId: number;
  amount: DecimalString;
  /** What the funds are frozen for (`withdraw`, `limit_order`…). */
  type: string;
  requestId?: string;
  refType?: string;
  refId?: string | number;
}

/** Freezes funds: available -> frozen, recorded as a pending hold (one call: ledger_hold). */
export async function hold(tx: Queryable, input: HoldInput): Promise<Hold> {
  assert(gt(input.amount, '0'), 'ledger: hold amount must be positive');
  const refId = input.refId === undefined ? null : String(input.refId);
  // The same fingerprint a hold posted through `post` had, so repeated requests still match.
  const hash =
    input.requestId === undefined
      ? null
      : fingerprint({
          book: input.book,
          type: `hold:${input.type}`,
          refType: input.refType,
          refId: input.refId,
          postings: [
            {
              account: user(input.userId, input.currencyId, 'available'),
              amount: neg(input.amount),
            },
            { account: user(input.userId, input.currencyId, 'frozen'), amount: input.amount },
          ],
        });
  let rows: (HoldRow & { duplicate: boolean })[];
  try {
    ({ rows } = await tx.query<HoldRow & { duplicate: boolean }>(
      'SELECT * FROM ledger_hold($1, $2, $3, $4, $5, $6, $7, $8, $9)',
      [
        input.book,
        input.userId,
        input.currencyId,
        input.amount,
        input.type,
        input.refType ?? null,
        refId,
        input.requestId ?? null,
        hash,
      ],
      { name: 'ledger_hold' },
    ));
  } catch (error) {
    mapLedgerError(error);
  }
  assert(rows[0], 'ledger: hold not recorded');
  return toHold(rows[0], rows[0].duplicate);
}

async function lockHold(tx: Queryable, holdId: number): Promise<HoldRow> {
  const { rows } = await tx.query<HoldRow>('SELECT * FROM ledger_hold WHERE id = $1 FOR UPDATE', [
    holdId,
  ]);
  assert(rows[0], `ledger: hold ${holdId} does not exist`);
  return rows[0];
}

export interface HoldOutcome {
  hold: Hold;
  /** False when the hold was already closed: nothing moved (the "hint_48" case). */
  changed: boolean;
  entry?: PostedEntry;
}

/** Returns what is left of a hold to the user's available balance. */
export async function release(
  tx: Queryable,
  holdId: number,
  type = 'release',
): Promise<HoldOutcome> {
  const row = await lockHold(tx, holdId);
  if (row.status !== 'pending') return { hold: toHold(row), changed: false };
  const entry = await post(tx, {
    book: row.book,
    type: `${type}:${row.hold_type}`,
    refType: 'hold',
    refId: row.id,
    postings: [
      { account: user(row.user_id, row.currency_id, 'frozen'), amount: neg(row.remaining) },
      { account: user(row.user_id, row.currency_id, 'available'), amount: row.remaining },
    ],
  });
  const { rows } = await tx.query<HoldRow>(
    `UPDATE ledger_hold SET remaining = 0, status = 'released', closed_at = now() WHERE id = $1 RETURNING *`,
    [holdId],
  );
  assert(rows[0], 'ledger: hold vanished');
  return { hold: toHold(rows[0]), changed: true, entry };
}

export interface CaptureInput {
  /** Defaults to everything that remains. */
  amount?: DecimalString;
  /** Where the captured funds go (same currency and book). */
  to: AccountRef;
  type: string;
  requestId?: string;
}

/**
 * Pays frozen funds on to `to`. A partial capture leaves the rest pending; capturing the last of
 * it closes the hold.
 */
export async function capture(
  tx: Queryable,
  holdId: number,
  input: CaptureInput,
): Promise<HoldOutcome> {
  const row = await lockHold(tx, holdId);
  if (row.status !== 'pending') return { hold: toHold(row), changed: false };
  const amount = input.amount ?? normalize(row.remaining);
  assert(gt(amount, '0'), 'ledger: capture amount must be positive');
  if (gt(amount, row.remaining)) throw new AppError('hint_insufficientBalance', 422);
  assert(input.to.currencyId === row.currency_id, 'ledger: capture into another currency');
  const entry = await post(tx, {
    book: row.book,
    type: `capture:${input.type}`,
    requestId: input.requestId,
    scope: `user:${row.user_id}`,
    refType: 'hold',
    refId: row.id,
    postings: [
      { account: user(row.user_id, row.currency_id, 'frozen'), amount: neg(amount) },
      { account: input.to, amount },
    ],
  });
  if (entry.duplicate) return { hold: toHold(row), changed: false, entry };
  const remaining = sub(row.remaining, amount);
  const closed = isZero(remaining);
  const { rows } = await tx.query<HoldRow>(
    `UPDATE ledger_hold SET remaining = $2, status = $3, closed_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END
     WHERE id = $1 RETURNING *`,
    [holdId, remaining, closed ? 'captured' : 'pending'],
  );
  assert(rows[0], 'ledger: hold vanished');
  return { hold: toHold(rows[0]), changed: true, entry };
}

export interface HoldSettlement {
  holdId: number;
  /** Of what the hold reserves, how much goes back to the user's available balance. */
  returned: DecimalString;
  /** Paid on top from the platform account (a win's payout), to the user's available balance. */
  paid: DecimalString;
}

/**
 * Locks the holds a settlement or capture names, in id order, and answers a lookup that asserts
 * each is pending and of the movement's book and currency.
 */
async function lockPendingHolds(
  tx: Queryable,
  input: { book: Book; currencyId: number; holds: readonly { holdId: number }[] },
): Promise<(holdId: number) => HoldRow> {
  const { rows } = await tx.query<HoldRow>(
    'SELECT * FROM ledger_hold WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
    [input.holds.map((hold) => hold.holdId)],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return (holdId) => {
    const row = byId.get(holdId);
    assert(row && row.status === 'pending', `ledger: hold ${holdId} is not pending`);
    assert(
      row.book === input.book && row.currency_id === input.currencyId,
      'ledger: hold of another book or currency',
    );
    return row;
  };
}

/**
 * Closes many pending holds of one book and currency in one journal entry: each hold's whole
 * remainder leaves frozen; `returned` goes back to its user's available balance, the rest to the
 * platform account, which also pays each `paid`. Postings are summed per account, so the entry
 * has two per user and one for the platform. Used to settle orders decided by the same tick at
 * once. Every hold must still be pending.
 */
export async function settleHolds(
  tx: Queryable,
  input: {
    book: Book;
    currencyId: number;
    platformKind: PlatformAccountKind;
    /** The user whose shard of the platform account takes the entry (shard 0 without). */
    platformFor?: number;
    type: string;
    refType?: string;
    refId?: string | number;
    holds: HoldSettlement[];
  },
): Promise<PostedEntry | null> {
  if (input.holds.length === 0) return null;
  const pending = await lockPendingHolds(tx, input);
  const frozen = new Map<number, DecimalString>();
  const available = new Map<number, DecimalString>();
  let platformTotal = '0';
  for (const settlement of input.holds) {
    const row = pending(settlement.holdId);
    const remaining = normalize(row.remaining);
    assert(
      !gt(settlement.returned, remaining) && !isNegative(settlement.returned),
      'ledger: returned beyond the hold',
    );
    assert(!isNegative(settlement.paid), 'ledger: negative payment');
    frozen.set(row.user_id, sub(frozen.get(row.user_id) ?? '0', remaining));
    available.set(
      row.user_id,
      sum([available.get(row.user_id) ?? '0', settlement.returned, settlement.paid]),
    );
    platformTotal = sum([platformTotal, sub(remaining, settlement.returned), neg(settlement.paid)]);
  }
  const postings: PostingInput[] = [];
  for (const [userId, amount] of frozen) {
    if (!isZero(amount))
      postings.push({ account: user(userId, input.currencyId, 'frozen'), amount });
    const back = available.get(userId) ?? '0';
    if (!isZero(back)) postings.push({ account: user(userId, input.currencyId), amount: back });
  }
  if (!isZero(platformTotal))
    postings.push({
      account: platform(input.currencyId, input.platformKind, input.platformFor),
      amount: platformTotal,
    });
  const entry = await post(tx, {
    book: input.book,
    type: input.type,
    refType: input.refType,
    refId: input.refId,
    postings,
  });
  await tx.query(
    `UPDATE ledger_hold h SET remaining = 0, closed_at = now(),
       status = CASE WHEN d.returned = 0 THEN 'captured' ELSE 'released' END
     FROM unnest($1::bigint[], $2::numeric[]) AS d (id, returned)
     WHERE h.id = d.id`,
    [
      input.holds.map((settlement) => settlement.holdId),
      input.holds.map((settlement) => settlement.returned),
    ],
  );
  return entry;
}

/**
 * Postings of many movements summed per account, zeros dropped: one journal entry for a batch
 * (the orders one tick fills or closes) in which an account may come up more than once.
 */
export function summed(postings: PostingInput[]): PostingInput[] {
  const totals = new Map<string, PostingInput>();
  for (const posting of postings) {
    const key = accountKey(posting.account);
    const seen = totals.get(key);
    totals.set(key, {
      account: posting.account,
      amount: seen ? sum([seen.amount, posting.amount]) : normalize(posting.amount),
    });
  }
  return [...totals.values()].filter((posting) => !isZero(posting.amount));
}

export interface HoldCapture {
  holdId: number;
  /** Where the whole remainder of the hold goes (same currency and book), in parts. */
  parts: PostingInput[];
}

/**
 * Captures many pending holds of one book and currency whole, in one journal entry: each hold's
 * remainder leaves its user's frozen balance for its parts (a margin account, the fee account…).
 * Postings are summed per account. Every hold must be pending and its parts must add up to it.
 */
export async function captureHolds(
  tx: Queryable,
  input: {
    book: Book;
    currencyId: number;
    type: string;
    refType?: string;
    refId?: string | number;
    holds: HoldCapture[];
    /** Further postings of the same movement (they must balance on their own). */
    extra?: PostingInput[];
  },
): Promise<PostedEntry | null> {
  if (input.holds.length === 0) return null;
  const pending = await lockPendingHolds(tx, input);
  const postings: PostingInput[] = [...(input.extra ?? [])];
  for (const capture of input.holds) {
    const row = pending(capture.holdId);
    const remaining = normalize(row.remaining);
    assert(
      sum(capture.parts.map((part) => part.amount)) === remaining,
      'ledger: the parts of a capture must add up to the hold',
    );
    for (const part of capture.parts)
      assert(part.account.currencyId === input.currencyId, 'ledger: capture into another currency');
    postings.push({
      account: user(row.user_id, row.currency_id, 'frozen'),
      amount: neg(remaining),
    });
    postings.push(...capture.parts);
  }
  const entry = await post(tx, {
    book: input.book,
    type: input.type,
    refType: input.refType,
    refId: input.refId,
    postings: summed(postings),
  });
  await tx.query(
    `UPDATE ledger_hold SET remaining = 0, status = 'captured', closed_at = now()
     WHERE id = ANY($1::bigint[])`,
    [input.holds.map((capture) => capture.holdId)],
  );
  return entry;
}

// ---------------------------------------------------------------- reads

export interface UserBalance {
  currencyId: number;
  available: DecimalString;
  frozen: DecimalString;
}

/** A user's available and frozen balance per currency in one book (only currencies ever used). */
export async function userBalances(
  q: Queryable,
  book: Book,
  userId: number,
): Promise<UserBalance[]> {
  const { rows } = await q.query<{ currency_id: number; kind: string; balance: string }>(
    `SELECT currency_id, kind, balance FROM ledger_account
     WHERE book = $1 AND owner_type = 'user' AND owner_id = $2 AND kind IN ('available', 'frozen')`,
    [book, userId],
  );
  const byCurrency = new Map<number, UserBalance>();
  for (const row of rows) {
    const balance = byCurrency.get(row.currency_id) ?? {
      currencyId: row.currency_id,
      available: '0',
      frozen: '0',
    };
    if (row.kind === 'available') balance.available = normalize(row.balance);
    else balance.frozen = normalize(row.balance);
    byCurrency.set(row.currency_id, balance);
  }
  return [...byCurrency.values()].sort((a, b) => a.currencyId - b.currencyId);
}

/** A user's balances of one account kind (margin, staked…) per currency, non-zero only. */
export async function userBalancesOfKind(
  q: Queryable,
  book: Book,
  userId: number,
  kind: UserAccountKind,
): Promise<{ currencyId: number; balance: DecimalString }[]> {
  const { rows } = await q.query<{ currency_id: number; balance: string }>(
    `SELECT currency_id, balance FROM ledger_account
     WHERE book = $1 AND owner_type = 'user' AND owner_id = $2 AND kind = $3 AND balance <> 0
     ORDER BY currency_id`,
    [book, userId, kind],
  );
  return rows.map((row) => ({ currencyId: row.currency_id, balance: normalize(row.balance) }));
}
