// Target (issue 23): 100,000 active earn orders accrued for one day in ≤ 10 s on PostgreSQL.
// The daily job the scheduler runs (apps/server/src/modules/earn/job.ts), on a database holding
// 100,000 active lock-mining orders of 10,000 users: their stakes moved through the ledger to the
// users' staked accounts (one entry per 1,000 orders), the orders written as a buy writes them.
// Two days are timed (the first day of interest, then an ordinary day); the ledger is verified
// and the interest paid compared with the shared formula (packages/shared/src/earn.ts) afterwards.
// Run with `node --import tsx` (npm run bench does) so the TypeScript app can be imported.
import { createDatabase } from './lib.mjs';
import { openPostgres } from '../apps/server/src/db/database.ts';
import { prepareDatabase } from '../apps/server/src/prepare.ts';
import * as ledger from '../apps/server/src/ledger/ledger.ts';
import { verifyLedger } from '../apps/server/src/ledger/verify.ts';
import { EarnDailyJob } from '../apps/server/src/modules/earn/index.ts';
import { accrueDay, sum } from '../packages/shared/src/index.ts';

const ORDERS = Number(process.env.BENCH_EARN_ORDERS ?? 100_000);
const USERS = Number(process.env.BENCH_EARN_USERS ?? 10_000);
const USDT = 3;
const SCALE = 4;
const RATE = '0.00123';
const TERM = 365;
const FIRST_DAY = '2026-03-01';
const BATCH = 1000;

/** Order i's principal, 1000 + 0.37 × i (in whole cents): varied, so rounding and carries differ. */
const principalOf = (i) => {
  const cents = 100_000 + 37 * i;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
};

async function seed(db) {
  await db.query(
    `INSERT INTO app_user (reg_type, user_account, email, password_hash, nick_name, invite_code,
       created_at)
     SELECT 1, 'earn-bench-' || g || '@example.com', 'earn-bench-' || g || '@example.com', 'x',
       'u' || g, 'EB' || g, now()
     FROM generate_series(1, $1) g`,
    [USERS],
  );
  const first = (await db.query('SELECT min(id)::int AS id FROM app_user')).rows[0].id;
  const product = (
    await db.query(
      `INSERT INTO earn_product (kind, name, currency_id, term_days, daily_rate, min_amount, payout,
         held, created_at, updated_at)
       VALUES ('financial', '{"en":"Bench 365 days"}', $1, $2, $3, 1, 'daily', 0, now(), now())
       RETURNING id`,
      [USDT, TERM, RATE],
    )
  ).rows[0].id;
  for (let start = 0; start < ORDERS; start += BATCH) {
    const count = Math.min(BATCH, ORDERS - start);
    await db.transaction(async (tx) => {
      const postings = [];
      const amounts = [];
      for (let i = start; i < start + count; i++) {
        amounts.push(principalOf(i));
        postings.push({
          account: ledger.user(first + (i % USERS), USDT, 'staked'),
          amount: principalOf(i),
        });
      }
      postings.push({ account: ledger.platform(USDT, 'external'), amount: `-${sum(amounts)}` });
      const entry = await ledger.post(tx, {
        book: 'live',
        type: 'earn_bench_stake',
        postings: ledger.summed(postings),
      });
      await tx.query(
        `INSERT INTO earn_order (order_no, kind, product_id, user_id, book, currency_id, scale,
           request_id, request_hash, principal, balance, daily_rate, term_days, payout, compounding,
           penalty_rate, first_day, end_day, status, buy_entry_id, created_at, started_at)
         SELECT 'EB' || g, 'financial', $1, $2 + (g % $3), 'live', $4, $5, 'bench-' || g, 'h',
           p, p, $6, $7, 'daily', false, 0, $8::date, $8::date + ($7 - 1), 1, $9, now(), now()
         FROM generate_series($10::int, $11::int) g,
           LATERAL (SELECT round(1000 + g * 0.37, 2) AS p) principal`,
        [
          product,
          first,
          USERS,
          USDT,
          SCALE,
          RATE,
          TERM,
          FIRST_DAY,
          entry.entryId,
          start,
          start + count - 1,
        ],
      );
    });
  }
  await db.query(
    `UPDATE earn_product SET held = (SELECT sum(principal) FROM earn_order) WHERE id = $1`,
    [product],
  );
  await db.query('VACUUM ANALYZE earn_order');
  return first;
}

export async function benchEarnAccrual() {
  const database = await createDatabase('bourse_bench_earn');
  const db = await openPostgres(database.url, 10);
  try {
    await prepareDatabase(db);
    const setupStarted = performance.now();
    await seed(db);
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const job = new EarnDailyJob({ db });
    const days = [];
    for (const day of [FIRST_DAY, '2026-03-02']) {
      const started = performance.now();
      const processed = await job.runDay(day, new Date(`${day}T00:05:00Z`));
      days.push({ day, processed, ms: Math.round(performance.now() - started) });
    }
    // Every order paid exactly the formula's first two days.
    const expected = [];
    for (let i = 0; i < ORDERS; i++) {
      const first = accrueDay(principalOf(i), RATE, '0', SCALE);
      const second = accrueDay(principalOf(i), RATE, first.carry, SCALE);
      expected.push(first.interest, second.interest);
    }
    const paid = (
      await db.query(
        `SELECT coalesce(sum(amount), 0)::text AS total FROM ledger_posting p
           JOIN ledger_account a ON a.id = p.account_id
          WHERE a.owner_type = 'user' AND a.kind = 'available' AND a.currency_id = $1`,
        [USDT],
      )
    ).rows[0].total;
    const { problems } = await verifyLedger(db);
    const slowest = Math.max(...days.map((d) => d.ms));
    const interestMatches = sum([paid]) === sum(expected);
    return {
      name: `daily accrual of ${ORDERS.toLocaleString('en')} active earn orders, PostgreSQL`,
      users: USERS,
      setupSeconds: Number(setupSeconds.toFixed(1)),
      days,
      interestPaid: paid,
      interestMatchesFormula: interestMatches,
      ledgerVerified: problems.length === 0,
      target: 'one day accrued in ≤ 10,000 ms',
      pass: slowest <= 10_000 && interestMatches && problems.length === 0,
    };
  } finally {
    await db.close();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchEarnAccrual(), null, 2));
}
