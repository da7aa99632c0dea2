// Target (trading issue): the trigger engine keeps up with the feed with 100,000 resting
// triggers. Two figures:
// 1. The engine alone: 100,000 levels (entries, take-profits, stop-losses, liquidations) spread
//    over 26 products 0.5–30 % from the price on both sides; a seeded random walk of 200,000 ticks
//    goes through it; ticks handled per second (levels crossed fire into a counting owner).
// 2. The real app on PostgreSQL: 1,000 contract limit entries of 50 users rest at one level; one
//    tick reaches them all; measured from that tick until every position is open in the database;
//    then one tick crosses all their liquidation levels, until every position is closed.
// Run with `node --import tsx` (npm run bench does) so the TypeScript app can be imported.
import pino from 'pino';
import { createDatabase } from './lib.mjs';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPostgres } from '../apps/server/src/db/database.ts';
import { prepareDatabase } from '../apps/server/src/prepare.ts';
import * as ledger from '../apps/server/src/ledger/ledger.ts';
import { verifyLedger } from '../apps/server/src/ledger/verify.ts';
import { DEFAULT_CATALOGUE } from '../apps/server/src/market/catalogue.ts';
import { ManualClock } from '../apps/server/src/lib/clock.ts';
import { TriggerEngine } from '../apps/server/src/modules/trading/triggers.ts';
import { ScriptedFeed } from '../apps/server/test/support/scripted-feed.ts';

const TRIGGERS = 100_000;
const PRODUCTS = 26;
const TICKS = 200_000;
const ENTRIES = 1000;
const USERS = 50;
const USDT = 3;

/** A small seeded generator, so every run walks the same path. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function engineAlone() {
  const next = random(42);
  const engine = new TriggerEngine({
    db: {},
    market: { onTickEvent: () => () => undefined },
    logger: pino({ level: 'silent' }),
  });
  let fired = 0;
  engine.register('bench', {
    load: async () => [],
    fire: async (triggers) => {
      fired += triggers.length;
      return new Map(triggers.map((trigger) => [trigger.key, 'done']));
    },
  });
  const prices = Array.from({ length: PRODUCTS }, () => 100 + next() * 900);
  for (let i = 0; i < TRIGGERS; i++) {
    const productId = i % PRODUCTS;
    const above = next() < 0.5;
    const distance = 0.005 + next() * 0.295;
    const level = prices[productId] * (above ? 1 + distance : 1 - distance);
    engine.add({
      key: `bench:${i}`,
      owner: 'bench',
      productId,
      side: above ? 'atOrAbove' : 'atOrBelow',
      price: level.toFixed(2),
      priority: i % 3,
      since: 0,
    });
  }
  const resting = engine.size;
  const started = performance.now();
  for (let i = 0; i < TICKS; i++) {
    const productId = i % PRODUCTS;
    prices[productId] *= 1 + (next() - 0.5) * 0.002;
    await engine.handle({
      productId,
      price: prices[productId].toFixed(2),
      time: 1000 + i,
      source: 'bench',
      sequence: i + 1,
    });
  }
  const seconds = (performance.now() - started) / 1000;
  const ticksPerSecond = Math.round(TICKS / seconds);
  return {
    name: `trigger engine: ticks handled with ${TRIGGERS.toLocaleString('en')} resting triggers`,
    restingTriggers: resting,
    ticks: TICKS,
    fired,
    ticksPerSecond,
    target: 'more ticks per second than the feed sends (26 products × 10/s)',
    pass: ticksPerSecond >= 260,
  };
}

async function realFills() {
  const database = await createDatabase('bourse_bench_triggers');
  const db = await openPostgres(database.url, 20);
  let app;
  try {
    await prepareDatabase(db);
    const feed = new ScriptedFeed();
    const now = Date.now();
    const clock = new ManualClock(new Date(now));
    app = await buildApp({
      clock,
      config: loadConfig({
        ...process.env,
        DATABASE_URL: database.url,
        MARKET_FEED: 'simulated',
        LOG_LEVEL: 'error',
      }),
      db,
      logger: pino({ level: 'error' }),
      catalogue: DEFAULT_CATALOGUE.filter((product) => product.code === 'BTCUSDT'),
      history: { days: 1, minuteDays: 1 },
      feed: () => feed,
    });
    const contracts = app.services.contracts;
    feed.tick('BTCUSDT', '100000.00', now);
    const sessions = [];
    for (let i = 0; i < USERS; i++) {
      const { rows } = await db.query(
        `INSERT INTO app_user (reg_type, email, user_account, password_hash, nick_name, invite_code, created_at)
         VALUES (1, $1, $1, 'x', 'bench', $2, now()) RETURNING id`,
        [`trigger${i}@example.com`, `TRIG${i}`],
      );
      const userId = rows[0].id;
      await db.transaction((tx) =>
        ledger.transfer(tx, {
          book: 'live',
          type: 'recharge',
          from: ledger.platform(USDT, 'external'),
          to: ledger.user(userId, USDT),
          amount: '1000000',
        }),
      );
      sessions.push({ id: 0, userId, accountType: 0 });
    }
    await Promise.all(
      sessions.map(async (session, u) => {
        for (let i = 0; i < ENTRIES / USERS; i++) {
          await contracts.open(session, {
            productType: 2,
            productCode: 'BTCUSDT',
            orderDirection: 1,
            leverage: 10,
            orderType: 2,
            price: '99000.00',
            quantity: '0.001',
            requestId: `bench-${u}-${i}`,
          });
        }
      }),
    );
    clock.set(new Date(now + 1000));
    const reached = performance.now();
    feed.tick('BTCUSDT', '98990.00', now + 1000);
    let resting = ENTRIES;
    while (resting > 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      resting = (
        await db.query('SELECT count(*)::int AS n FROM contract_position WHERE status = 0')
      ).rows[0].n;
      if (performance.now() - reached > 600_000) break;
    }
    const fillMs = Math.round(performance.now() - reached);
    // Then one tick through all their liquidation levels (89,595 for 10× at 99,000).
    clock.set(new Date(now + 2000));
    const crash = performance.now();
    feed.tick('BTCUSDT', '89000.00', now + 2000);
    let open = ENTRIES;
    while (open > 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      open = (await db.query('SELECT count(*)::int AS n FROM contract_position WHERE status = 1'))
        .rows[0].n;
      if (performance.now() - crash > 600_000) break;
    }
    const liquidationMs = Math.round(performance.now() - crash);
    const problems = (await verifyLedger(db)).problems;
    return {
      name: `${ENTRIES.toLocaleString('en')} limit entries filled by one tick, then liquidated by another, PostgreSQL`,
      fillMs,
      liquidationMs,
      ledgerVerified: problems.length === 0,
      target: 'each within 1,000 ms of its tick',
      pass: fillMs <= 1000 && liquidationMs <= 1000 && problems.length === 0,
    };
  } finally {
    await app?.close();
    await db.close();
    await database.drop();
  }
}

export async function benchTriggers() {
  return [await engineAlone(), await realFills()];
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchTriggers(), null, 2));
