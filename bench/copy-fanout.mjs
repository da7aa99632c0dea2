// Target (issue 25, copy trading): 1 leader → 1,000 followers, every copy opened within 1 s p99.
// The real app on PostgreSQL in-process with a scripted feed for BTCUSDT (bench/scripted-app.mjs):
// one approved lead trader and 1,000 followers funded through the ledger, each following the
// trader through the copy-trading service (fixed margin and ratio of the leader's margin,
// alternately; every fourth with its own TP/SL). Each round the leader opens at market through
// the contracts service; measured from the open returning until each follower's copy is an open
// contract position in the database (its own tick evidence, under the copy's request id), as the
// app's copy worker places it (COPY_TRADE_CHECK_MS and the hooks' wake-up, as configured). Then
// the leader closes and the copies' closes are measured the same way. 5 rounds after 1 warm-up.
// Afterwards: exactly one copy per follower and round, each with its evidence, every open and
// close task done, the ledger verified.
// Run with `node --import tsx` (npm run bench does) so the TypeScript app can be imported.
import os from 'node:os';
import pg from 'pg';
import { postgresAdminUrl } from './lib.mjs';
import { fundedSessions, scriptedApp } from './scripted-app.mjs';
import { verifyLedger } from '../apps/server/src/ledger/verify.ts';
import { CopyTrading } from '../apps/server/src/modules/copy-trading/index.ts';

const FOLLOWERS = Number(process.env.BENCH_COPY_FOLLOWERS ?? 1000);
const ROUNDS = Number(process.env.BENCH_COPY_ROUNDS ?? 5);
const WARM_UP = 1;
/** How often the database is asked which copies exist (ms). */
const POLL_MS = 10;
const LIMIT_MS = 120_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function quantiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return {
    firstMs: Math.round(sorted[0]),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    lastMs: Math.round(sorted.at(-1)),
  };
}

/**
 * Polls until `count` positions newer than `afterId` have `status`; each one's latency is the time
 * from `from` until a poll first saw it. `db` is a connection of the benchmark's own: through the
 * app's pool a poll would queue behind the copies' own transactions and see them late, together.
 */
async function watch(db, afterId, status, count, from) {
  const seen = new Map();
  for (;;) {
    const { rows } = await db.query(
      'SELECT id FROM contract_position WHERE id > $1 AND status = $2',
      [afterId, status],
    );
    const now = performance.now();
    for (const { id } of rows) if (!seen.has(id)) seen.set(id, now - from);
    if (seen.size >= count || now - from > LIMIT_MS) break;
    await sleep(POLL_MS);
  }
  return [...seen.values()];
}

/** Waits until no task of the leader position is pending. */
async function tasksDone(db, leaderId) {
  for (;;) {
    const { rows } = await db.query(
      'SELECT count(*)::int AS n FROM copy_task WHERE leader_position_id = $1 AND status = 0',
      [leaderId],
    );
    if (rows[0].n === 0) return;
    await sleep(20);
  }
}

/** What the round left in the database: one copy per follower with its evidence, tasks done. */
async function checkRound(db, leaderId) {
  const { rows } = await db.query(
    `SELECT count(*)::int AS copies, count(DISTINCT p.user_id)::int AS followers,
       count(*) FILTER (WHERE p.entry_time IS NOT NULL AND p.entry_sequence IS NOT NULL
         AND p.entry_source IS NOT NULL AND p.entry_tick_price IS NOT NULL
         AND p.request_id = 'copy_' || t.relation_id || '_' || t.leader_position_id || '_open')::int AS evidenced,
       count(*) FILTER (WHERE p.status = 2)::int AS closed
     FROM copy_task t JOIN contract_position p ON p.id = t.follower_position_id
     WHERE t.leader_position_id = $1 AND t.kind = 'open'`,
    [leaderId],
  );
  const tasks = await db.query(
    `SELECT kind, status, count(*)::int AS n FROM copy_task WHERE leader_position_id = $1
     GROUP BY kind, status ORDER BY kind, status`,
    [leaderId],
  );
  // Positions under a copy request id of this leader position, whoever recorded them.
  const made = await db.query(
    `SELECT count(*)::int AS n, count(DISTINCT user_id)::int AS users FROM contract_position
     WHERE request_id LIKE $1`,
    [`copy\\_%\\_${leaderId}\\_open`],
  );
  const tasksByKind = Object.fromEntries(
    tasks.rows.map((row) => [`${row.kind}:${row.status}`, row.n]),
  );
  return {
    ...rows[0],
    positionsUnderRequestId: made.rows[0].n,
    tasks: tasksByKind,
    ok:
      rows[0].copies === FOLLOWERS &&
      rows[0].followers === FOLLOWERS &&
      rows[0].evidenced === FOLLOWERS &&
      rows[0].closed === FOLLOWERS &&
      made.rows[0].n === FOLLOWERS &&
      made.rows[0].users === FOLLOWERS &&
      tasksByKind['open:1'] === FOLLOWERS &&
      tasksByKind['close:1'] === FOLLOWERS &&
      Object.keys(tasksByKind).length === 2,
  };
}

export async function benchCopyFanout() {
  let now = Date.now();
  const { app, db, feed, clock, close } = await scriptedApp('bourse_bench_copy', now);
  // The benchmark's own connection to the app's database, for the polls.
  let watcher;
  const step = (ms, price) => {
    now += ms;
    clock.set(new Date(now));
    feed.tick('BTCUSDT', price, now);
  };
  try {
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${(await db.query('SELECT current_database() AS name')).rows[0].name}`;
    watcher = new pg.Client({ connectionString: url.toString() });
    await watcher.connect();
    const { contracts, settings, marketEngine, copyWorker } = app.services;
    step(0, '100000.00');
    const [leader, ...followers] = await fundedSessions(db, FOLLOWERS + 1, 'copy');
    // The leader approved as the console's approval writes it; the worker reads the traders again
    // every 5 s of the app's clock (an approval made through another instance).
    await db.query(
      `INSERT INTO copy_trader (user_id, approved_at, updated_at, max_followers)
       VALUES ($1, $2, $2, $3)`,
      [leader.userId, new Date(now), FOLLOWERS],
    );
    const copyTrading = new CopyTrading({
      db,
      clock,
      settings,
      contracts,
      market: marketEngine,
    });
    for (const [i, follower] of followers.entries()) {
      await copyTrading.follow(
        follower,
        {
          traderId: leader.userId,
          ...(i % 2 === 0 ? { mode: 1, amount: '100' } : { mode: 2, ratio: '0.1' }),
          maxOpen: 10,
          ...(i % 4 === 3 ? { tpRate: '0.5', slRate: '0.5' } : {}),
          budget: '10000',
          requestId: `bench-follow-${i}`,
        },
        'en',
      );
    }
    step(10_000, '100000.00');
    // A run that starts after the clock moved reads the traders again (one already running may
    // have looked at the clock before).
    await copyWorker.idle();
    await copyWorker.runDue();
    const rounds = [];
    for (let round = 0; round < WARM_UP + ROUNDS; round++) {
      step(1000, round % 2 === 0 ? '100010.00' : '99990.00');
      const asked = performance.now();
      const position = await contracts.open(leader, {
        productType: 2,
        productCode: 'BTCUSDT',
        orderDirection: round % 2 === 0 ? 1 : 2,
        leverage: 10,
        orderType: 1,
        margin: '1000',
        requestId: `bench-leader-${round}`,
      });
      const openedAt = performance.now();
      const opens = await watch(watcher, position.id, 1, FOLLOWERS, openedAt);
      await tasksDone(db, position.id);
      step(1000, round % 2 === 0 ? '100050.00' : '99950.00');
      const closeAsked = performance.now();
      await contracts.close(leader, { id: position.id, requestId: `bench-leader-close-${round}` });
      const closedAt = performance.now();
      const closes = await watch(watcher, position.id, 2, FOLLOWERS, closedAt);
      await tasksDone(db, position.id);
      const check = await checkRound(db, position.id);
      rounds.push({
        round: round < WARM_UP ? 'warm-up' : round,
        leaderOpenMs: Math.round(openedAt - asked),
        copiesOpened: opens.length,
        open: quantiles(opens),
        leaderCloseMs: Math.round(closedAt - closeAsked),
        copiesClosed: closes.length,
        close: quantiles(closes),
        check,
      });
    }
    const problems = (await verifyLedger(db)).problems;
    const counted = rounds.slice(WARM_UP);
    const worstP99 = Math.max(...counted.map((r) => r.open.p99Ms));
    const all = rounds.every((r) => r.check.ok);
    return {
      name: `copy trading fan-out: 1 leader → ${FOLLOWERS.toLocaleString('en')} followers opened, PostgreSQL`,
      load: os.loadavg().map((l) => Math.round(l * 100) / 100),
      rounds,
      openP99Ms: counted.map((r) => r.open.p99Ms),
      openLastMs: counted.map((r) => r.open.lastMs),
      closeP99Ms: counted.map((r) => r.close.p99Ms),
      closeLastMs: counted.map((r) => r.close.lastMs),
      everyCopyOnceWithEvidence: all,
      ledgerVerified: problems.length === 0,
      target: 'every copy open within 1,000 ms of the leader’s open returning, p99 (worst round)',
      pass: worstP99 <= 1000 && all && problems.length === 0,
    };
  } finally {
    await watcher?.end().catch(() => undefined);
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchCopyFanout();
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.pass ? 0 : 1);
}
