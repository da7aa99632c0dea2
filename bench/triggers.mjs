// Target (trading issue): the trigger engine keeps up with the feed with 100,000 resting
// triggers. Two figures:
// 1. The engine alone: 100,000 levels (entries, take-profits, stop-losses, liquidations) spread
//    over 26 products 0.5–30 % from the price on both sides; a seeded random walk of 200,000 ticks
//    goes through it; ticks handled per second (levels crossed fire into a counting owner).
// 2. The real app on PostgreSQL: 1,000 contract limit entries of 50 users rest at one level; one
//    tick reaches them all; measured from that tick until every position is open in the database;
//    then one tick crosses all their liquidation levels, until every position is closed.
// 3. The same app: 1,000 resting spot buys of the 50 users filled by one tick, then 1,000 resting
//    sells of what they bought filled by another, each until no order rests.
// Run with `node --import tsx` (npm run bench does) so the TypeScript app can be imported.
import pino from 'pino';
import { fundedSessions, scriptedApp } from './scripted-app.mjs';
import { verifyLedger } from '../apps/server/src/ledger/verify.ts';
import { TriggerEngine } from '../apps/server/src/modules/trading/triggers.ts';

const TRIGGERS = 100_000;
const PRODUCTS = 26;
const TICKS = 200_000;
const ENTRIES = 1000;
const USERS = 50;

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

function centsText(cents) {
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
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
  // Prices in whole cents, sent as decimal text made from the digits (no fractional number).
  const prices = Array.from({ length: PRODUCTS }, () => 10_000 + Math.round(next() * 90_000));
  for (let i = 0; i < TRIGGERS; i++) {
    const productId = i % PRODUCTS;
    const above = next() < 0.5;
    const distance = 0.005 + next() * 0.295;
    const level = Math.round(prices[productId] * (above ? 1 + distance : 1 - distance));
    engine.add({
      key: `bench:${i}`,
      owner: 'bench',
      productId,
      side: above ? 'atOrAbove' : 'atOrBelow',
      price: centsText(level),
      priority: i % 3,
      since: 0,
    });
  }
  const resting = engine.size;
  const started = performance.now();
  for (let i = 0; i < TICKS; i++) {
    const productId = i % PRODUCTS;
    prices[productId] = Math.round(prices[productId] * (1 + (next() - 0.5) * 0.002));
    await engine.handle({
      productId,
      price: centsText(prices[productId]),
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
  const now = Date.now();
  const { app, db, feed, clock, close } = await scriptedApp('bourse_bench_triggers', now);
  try {
    const contracts = app.services.contracts;
    feed.tick('BTCUSDT', '100000.00', now);
    const sessions = await fundedSessions(db, USERS, 'trigger');
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
    const spot = await spotFills(app, db, feed, clock, sessions, now + 3000);
    return [
      {
        name: `${ENTRIES.toLocaleString('en')} limit entries filled by one tick, then liquidated by another, PostgreSQL`,
        fillMs,
        liquidationMs,
        ledgerVerified: problems.length === 0,
        target: 'each within 1,000 ms of its tick',
        pass: fillMs <= 1000 && liquidationMs <= 1000 && problems.length === 0,
      },
      spot,
    ];
  } finally {
    await close();
  }
}

/** Places resting spot orders (ENTRIES / USERS per user) at `price`, one user's after another's. */
async function restSpot(spot, sessions, direction, price, tag) {
  await Promise.all(
    sessions.map(async (session, u) => {
      for (let i = 0; i < ENTRIES / USERS; i++) {
        await spot.place(session, 2, direction, {
          productType: 2,
          productCode: 'BTCUSDT',
          orderType: 2,
          price,
          quantity: '0.001',
          requestId: `bench-${tag}-${u}-${i}`,
        });
      }
    }),
  );
}

/** Ticks `price` at `time` and waits until no spot order rests; the milliseconds it took. */
async function untilNoneRests(db, feed, clock, price, time) {
  clock.set(new Date(time));
  const started = performance.now();
  feed.tick('BTCUSDT', price, time);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { rows } = await db.query('SELECT count(*)::int AS n FROM spot_order WHERE status = 0');
    if (rows[0].n === 0 || performance.now() - started > 600_000) break;
  }
  return Math.round(performance.now() - started);
}

async function spotFills(app, db, feed, clock, sessions, start) {
  const spot = app.services.spot;
  clock.set(new Date(start));
  feed.tick('BTCUSDT', '90000.00', start);
  await restSpot(spot, sessions, 1, '88000.00', 'spot-buy');
  const buyMs = await untilNoneRests(db, feed, clock, '87990.00', start + 1000);
  await restSpot(spot, sessions, 2, '95000.00', 'spot-sell');
  const sellMs = await untilNoneRests(db, feed, clock, '95010.00', start + 2000);
  const problems = (await verifyLedger(db)).problems;
  return {
    name: `${ENTRIES.toLocaleString('en')} resting spot buys filled by one tick, then ${ENTRIES.toLocaleString('en')} sells by another, PostgreSQL`,
    buyMs,
    sellMs,
    ledgerVerified: problems.length === 0,
    target: 'each within 1,000 ms of its tick',
    pass: buyMs <= 1000 && sellMs <= 1000 && problems.length === 0,
  };
}

export async function benchTriggers() {
  return [await engineAlone(), ...(await realFills())];
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchTriggers(), null, 2));
