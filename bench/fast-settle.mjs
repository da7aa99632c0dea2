// Target (trading issue): 10,000 fast trades expiring in the same second are settled within 1 s
// of the deciding tick. The real app on PostgreSQL with a scripted feed for one product: 100 users
// place 100 one-minute trades each through the service, then one tick decides them all; measured
// from that tick until the last order is settled. The ledger is verified afterwards.
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
import { ScriptedFeed } from '../apps/server/test/support/scripted-feed.ts';

const ORDERS = Number(process.env.BENCH_FAST_ORDERS ?? 10_000);
const USERS = Number(process.env.BENCH_FAST_USERS ?? 100);
const USDT = 3;

export async function benchFastSettle() {
  const database = await createDatabase('bourse_bench_fast');
  const db = await openPostgres(database.url, 20);
  let app;
  try {
    await prepareDatabase(db);
    const feed = new ScriptedFeed();
    // The app's clock stands still while the orders are placed, so they all expire together.
    const placedAt = Date.now();
    const clock = new ManualClock(new Date(placedAt));
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
    const fast = app.services.fastTrades;
    feed.tick('BTCUSDT', '100000.00', placedAt);
    const option = (await fast.options(2, 'BTCUSDT')).find((o) => o.durationSeconds === 60);
    const sessions = [];
    for (let i = 0; i < USERS; i++) {
      const { rows } = await db.query(
        `INSERT INTO app_user (reg_type, email, user_account, password_hash, nick_name, invite_code, created_at)
         VALUES (1, $1, $1, 'x', 'bench', $2, now()) RETURNING id`,
        [`fast${i}@example.com`, `FAST${i}`],
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
      await fast.acceptRisk(userId);
      sessions.push({ id: 0, userId, accountType: 0 });
    }
    const started = performance.now();
    let placed = 0;
    await Promise.all(
      sessions.map(async (session, u) => {
        for (let i = 0; i < ORDERS / USERS; i++) {
          await fast.place(session, {
            productType: 2,
            productCode: 'BTCUSDT',
            optionId: option.id,
            orderDirection: (u + i) % 2 === 0 ? 1 : 2,
            amount: '10',
            requestId: `bench-${u}-${i}`,
          });
          placed += 1;
        }
      }),
    );
    const placeSeconds = (performance.now() - started) / 1000;
    const expiry = placedAt + 60_000;
    clock.set(new Date(expiry + 1));
    const decided = performance.now();
    feed.tick('BTCUSDT', '100000.01', expiry + 1);
    let open = ORDERS;
    while (open > 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      open = (await db.query('SELECT count(*)::int AS n FROM fast_trade_order WHERE status = 0'))
        .rows[0].n;
      if (performance.now() - decided > 600_000) break;
    }
    const settleMs = Math.round(performance.now() - decided);
    const problems = (await verifyLedger(db)).problems;
    return {
      name: `settlement of ${ORDERS} fast trades expiring in the same second, PostgreSQL`,
      ordersPlaced: placed,
      placedPerSecond: Math.round(placed / placeSeconds),
      settleMs,
      ledgerVerified: problems.length === 0,
      target: 'settled within 1,000 ms of the deciding tick',
      pass: settleMs <= 1000 && problems.length === 0,
    };
  } finally {
    await app?.close();
    await db.close();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchFastSettle(), null, 2));
