/**
 * Proves the ledger's invariants from the stored data alone:
 * 1. conservation: all balances of a currency in a book sum to zero;
 * 2. no user account is negative;
 * 3. each account's materialized balance equals the sum of its postings;
 * 4. every entry balances per currency, has two or more postings, all in the entry's book, and no
 *    posting lacks its entry or account;
 * 5. each user's frozen balance equals what their pending holds still reserve.
 *
 * Each check is one statement, so each is consistent on its own whatever is written meanwhile;
 * run inside one read-only REPEATABLE READ transaction (PostgreSQL), all of them see one snapshot
 * (the console's runs, modules/admin/ledger-runs.ts). `onCheck` hears each check as it starts.
 */
import { LEDGER_CHECKS } from '@bourse/shared';
import type { Queryable } from '../db/database';

/** The checks in the order they run: @bourse/shared LEDGER_CHECKS, which names them for the console. */
export const VERIFY_CHECKS = LEDGER_CHECKS;
export type VerifyCheck = (typeof VERIFY_CHECKS)[number];

/** One violation: its check, what it found, and the line `problems` holds for it. */
export interface LedgerViolation {
  check: VerifyCheck;
  values: Record<string, string | number | null>;
  text: string;
}

export interface LedgerReport {
  ok: boolean;
  problems: string[];
  /** The same problems with their check and values (a `more` value: that many left out). */
  violations: LedgerViolation[];
  accounts: number;
  entries: number;
  postings: number;
}

export interface VerifyOptions {
  /** Called as each check starts: its index in VERIFY_CHECKS and its name. */
  onCheck?: (index: number, check: VerifyCheck) => void | Promise<void>;
}

const MAX_LISTED = 20;

type Row = Record<string, unknown>;
const valueOf = (value: unknown): string | number | null =>
  value === null || value === undefined ? null : typeof value === 'number' ? value : String(value);

export async function verifyLedger(
  q: Queryable,
  options: VerifyOptions = {},
): Promise<LedgerReport> {
  const violations: LedgerViolation[] = [];
  const noteOf = (check: VerifyCheck) => (rows: Row[], describe: (row: Row) => string) => {
    for (const row of rows.slice(0, MAX_LISTED)) {
      const values = Object.fromEntries(
        Object.entries(row).map(([key, value]) => [key, valueOf(value)]),
      );
      violations.push({ check, values, text: describe(row) });
    }
    if (rows.length > MAX_LISTED) {
      const more = rows.length - MAX_LISTED;
      violations.push({ check, values: { more }, text: `… and ${more} more of the same` });
    }
  };
  let note = noteOf('conservation');
  let step = 0;
  /** The next check starts: its violations are noted under its name. */
  const next = async (check: VerifyCheck) => {
    await options.onCheck?.(step, check);
    step += 1;
    note = noteOf(check);
  };

  await next('conservation');

  const conservation = await q.query<Record<string, unknown>>(
    `SELECT book, currency_id, sum(balance)::text AS total FROM ledger_account
     GROUP BY book, currency_id HAVING sum(balance) <> 0`,
  );
  note(
    conservation.rows,
    (r) => `conservation: book ${r.book} currency ${r.currency_id} sums to ${r.total}, not 0`,
  );

  await next('negative');
  const negative = await q.query<Record<string, unknown>>(
    `SELECT id, owner_id, currency_id, kind, balance::text AS balance FROM ledger_account
     WHERE NOT allow_negative AND balance < 0`,
  );
  note(
    negative.rows,
    (r) =>
      `negative: account ${r.id} (user ${r.owner_id}, ${r.kind}, currency ${r.currency_id}) is ${r.balance}`,
  );

  await next('materialized');
  const materialized = await q.query<Record<string, unknown>>(
    `SELECT a.id, a.balance::text AS balance, coalesce(p.total, 0)::text AS postings
     FROM ledger_account a
     LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_posting GROUP BY account_id) p ON p.account_id = a.id
     WHERE a.balance <> coalesce(p.total, 0)`,
  );
  note(
    materialized.rows,
    (r) => `materialized: account ${r.id} holds ${r.balance} but its postings sum to ${r.postings}`,
  );

  await next('unbalanced');
  const unbalanced = await q.query<Record<string, unknown>>(
    `SELECT p.entry_id, a.currency_id, sum(p.amount)::text AS total
     FROM ledger_posting p JOIN ledger_account a ON a.id = p.account_id
     GROUP BY p.entry_id, a.currency_id HAVING sum(p.amount) <> 0`,
  );
  note(
    unbalanced.rows,
    (r) => `unbalanced: entry ${r.entry_id} sums to ${r.total} in currency ${r.currency_id}`,
  );

  await next('thin');
  const thin = await q.query<Record<string, unknown>>(
    `SELECT e.id, count(p.entry_id)::int AS lines FROM ledger_entry e LEFT JOIN ledger_posting p ON p.entry_id = e.id
     GROUP BY e.id HAVING count(p.entry_id) < 2`,
  );
  note(thin.rows, (r) => `thin entry: entry ${r.id} has ${r.lines} posting(s)`);

  await next('orphan');
  const orphans = await q.query<Record<string, unknown>>(
    `SELECT p.entry_id, p.line, p.account_id FROM ledger_posting p
     WHERE NOT EXISTS (SELECT 1 FROM ledger_entry e WHERE e.id = p.entry_id)
        OR NOT EXISTS (SELECT 1 FROM ledger_account a WHERE a.id = p.account_id)`,
  );
  note(
    orphans.rows,
    (r) => `orphan: posting ${r.entry_id}/${r.line} lacks its entry or account ${r.account_id}`,
  );

  await next('crossBook');
  const crossBook = await q.query<Record<string, unknown>>(
    `SELECT p.entry_id, e.book AS entry_book, a.book AS account_book
     FROM ledger_posting p JOIN ledger_entry e ON e.id = p.entry_id JOIN ledger_account a ON a.id = p.account_id
     WHERE e.book <> a.book`,
  );
  note(
    crossBook.rows,
    (r) => `cross-book: entry ${r.entry_id} (${r.entry_book}) posts to a ${r.account_book} account`,
  );

  await next('holds');
  const frozen = await q.query<Record<string, unknown>>(
    `SELECT coalesce(a.book, h.book) AS book, coalesce(a.owner_id, h.user_id) AS user_id,
            coalesce(a.currency_id, h.currency_id) AS currency_id,
            coalesce(a.balance, 0)::text AS frozen, coalesce(h.reserved, 0)::text AS reserved
     FROM (SELECT book, owner_id, currency_id, balance FROM ledger_account WHERE owner_type = 'user' AND kind = 'frozen') a
     FULL JOIN (SELECT book, user_id, currency_id, sum(remaining) AS reserved FROM ledger_hold
                WHERE status = 'pending' GROUP BY book, user_id, currency_id) h
       ON h.book = a.book AND h.user_id = a.owner_id AND h.currency_id = a.currency_id
     WHERE coalesce(a.balance, 0) <> coalesce(h.reserved, 0)`,
  );
  note(
    frozen.rows,
    (r) =>
      `holds: user ${r.user_id} (${r.book}, currency ${r.currency_id}) has ${r.frozen} frozen but holds reserve ${r.reserved}`,
  );

  await next('counts');
  const counts = await q.query<{ accounts: number; entries: number; postings: number }>(
    `SELECT (SELECT count(*) FROM ledger_account)::int AS accounts,
            (SELECT count(*) FROM ledger_entry)::int AS entries,
            (SELECT count(*) FROM ledger_posting)::int AS postings`,
  );
  const { accounts = 0, entries = 0, postings = 0 } = counts.rows[0] ?? {};
  const problems = violations.map((violation) => violation.text);
  return { ok: problems.length === 0, problems, violations, accounts, entries, postings };
}
