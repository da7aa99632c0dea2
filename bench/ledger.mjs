// Target: ledger transfers per second on PostgreSQL at >= 50% of pgbench's TPC-B-like TPS at the
// same client count, same run. Each transfer is what the app does: its own transaction with one
// balanced entry between two user accounts (row locks, the non-negative check, postings).
// Run with `node --import tsx` (npm run bench does) so the TypeScript ledger can be imported.
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createDatabase } from './lib.mjs';
import * as ledger from '../apps/server/src/ledger/ledger.ts';
import { verifyLedger } from '../apps/server/src/ledger/verify.ts';
import { openPostgres } from '../apps/server/src/db/database.ts';
import { prepareDatabase } from '../apps/server/src/prepare.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Alternating rounds, each starting after a checkpoint, so neither side inherits the other's dirty pages. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const USERS = 1000;
/** Client processes, as pgbench's -j threads: the clients are split over them. */
const THREADS = Number(process.env.BENCH_THREADS ?? 2);
const USDT = 3;

function pgbenchArgs(url) {
  const { hostname, port, username, pathname } = new URL(url);
  return {
    args: ['-h', hostname, '-p', port || '5432', '-U', username || 'postgres'],
    database: pathname.slice(1),
  };
}

function pgbenchInit(url) {
  const { args, database } = pgbenchArgs(url);
  execFileSync('pgbench', [...args, '-i', '-q', '-s', String(CLIENTS), database], {
    stdio: 'ignore',
  });
}

function pgbenchTps(url) {
  const { args, database } = pgbenchArgs(url);
  const output = execFileSync(
    'pgbench',
    [...args, '-n', '-c', String(CLIENTS), '-j', String(THREADS), '-T', String(SECONDS), database],
    {
      encoding: 'utf8',
    },
  );
  const match = /tps = ([\d.]+)/.exec(output);
  if (!match) throw new Error(`pgbench printed no tps:\n${output}`);
  return Number(match[1]);
}

async function ledgerSetup(url) {
  const db = await openPostgres(url, CLIENTS);
  await prepareDatabase(db);
  await db.transaction(async (tx) => {
    for (let user = 1; user <= USERS; user++) {
      await ledger.transfer(tx, {
        book: 'live',
        type: 'recharge',
        from: ledger.platform(USDT, 'external'),
        to: ledger.user(user, USDT),
        amount: '1000000',
      });
    }
  });
  return db;
}

/** `clients` concurrent clients of one thread, each posting transfers between random users. */
async function ledgerClients(db, clients, seed) {
  let transfers = 0;
  let failures = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const worker = async (workerSeed) => {
    let state = workerSeed;
    const random = () => ((state = (state * 1103515245 + 12345) % 2147483648), state / 2147483648);
    while (Date.now() < deadline) {
      const from = 1 + Math.floor(random() * USERS);
      const to = 1 + ((from + Math.floor(random() * (USERS - 1))) % USERS);
      try {
        // One statement is one transaction: the entry commits whole or not at all.
        await ledger.transfer(db, {
          book: 'live',
          type: 'transfer',
          from: ledger.user(from, USDT),
          to: ledger.user(to, USDT),
          amount: '1.2345',
        });
        transfers += 1;
      } catch {
        failures += 1;
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: clients }, (_, i) => worker(seed * 100 + i + 1)));
  return { transfers, failures, seconds: (Date.now() - started) / 1000 };
}

/** CLIENTS clients over THREADS processes for SECONDS; transfers per second. */
async function ledgerTps(url, round) {
  const results = await Promise.all(
    Array.from({ length: THREADS }, (_, thread) => {
      const clients = Math.floor(CLIENTS / THREADS) + (thread < CLIENTS % THREADS ? 1 : 0);
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(import.meta.url), 'client'],
        {
          env: {
            ...process.env,
            BENCH_URL: url,
            BENCH_CLIENTS_HERE: String(clients),
            BENCH_SEED: String(round * 10 + thread),
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      return new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code) =>
          code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`client exited ${code}`)),
        );
      });
    }),
  );
  const transfers = results.reduce((sum, r) => sum + r.transfers, 0);
  const failures = results.reduce((sum, r) => sum + r.failures, 0);
  // Each process times its own run, so process start-up is not counted.
  const tps = results.reduce((sum, r) => sum + r.transfers / r.seconds, 0);
  return { tps, transfers, failures };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchLedger() {
  const pgbenchDb = await createDatabase('bourse_bench_pgbench');
  const ledgerDb = await createDatabase('bourse_bench_ledger');
  let db;
  try {
    pgbenchInit(pgbenchDb.url);
    db = await ledgerSetup(ledgerDb.url);
    const pgbench = [];
    const ledgerRounds = [];
    let transfers = 0;
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await db.query('CHECKPOINT');
      pgbench.push(pgbenchTps(pgbenchDb.url));
      await db.query('CHECKPOINT');
      const result = await ledgerTps(ledgerDb.url, round + 1);
      ledgerRounds.push(result.tps);
      transfers += result.transfers;
      failures += result.failures;
    }
    const report = await verifyLedger(db);
    const pgbenchMedian = Math.round(median(pgbench));
    const ledgerMedian = Math.round(median(ledgerRounds));
    const ratio = ledgerMedian / pgbenchMedian;
    return {
      name: `ledger transfers vs pgbench tpcb-like, ${CLIENTS} clients on ${THREADS} threads, ${ROUNDS} alternating rounds of ${SECONDS} s`,
      pgbenchTps: pgbenchMedian,
      ledgerTps: ledgerMedian,
      pgbenchRounds: pgbench.map(Math.round),
      ledgerRounds: ledgerRounds.map(Math.round),
      transfers,
      failures,
      ledgerVerified: report.ok,
      ratio: Number(ratio.toFixed(3)),
      target: '>= 0.50',
      pass: ratio >= 0.5 && failures === 0 && report.ok,
    };
  } finally {
    await db?.close();
    await pgbenchDb.drop();
    await ledgerDb.drop();
  }
}

if (process.argv[2] === 'client') {
  const clients = Number(process.env.BENCH_CLIENTS_HERE);
  const db = await openPostgres(process.env.BENCH_URL, clients);
  const result = await ledgerClients(db, clients, Number(process.env.BENCH_SEED));
  await db.close();
  process.stdout.write(JSON.stringify(result));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchLedger(), null, 2));
}
