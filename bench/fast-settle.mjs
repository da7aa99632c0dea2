// Target (trading issue): 10,000 fast trades expiring in the same second are settled within 1 s
// of the deciding tick. The real app on PostgreSQL with a scripted feed for one product: 100 users
// place 100 one-minute trades each through the service, then one tick decides them all; measured
// from that tick until the last order is settled. The ledger is verified afterwards.
// Run with `node --import tsx` (npm run bench does) so the TypeScript app can be imported.
import { fundedSessions, scriptedApp } from './scripted-app.mjs';
import { verifyLedger } from '../apps/server/src/ledger/verify.ts';

const ORDERS = Number(process.env.BENCH_FAST_ORDERS ?? 10_000);
const USERS = Number(process.env.BENCH_FAST_USERS ?? 100);

export async function benchFastSettle() {
  // The app's clock stands still while the orders are placed, so they all expire together.
  const placedAt = Date.now();
  const { app, db, feed, clock, close } = await scriptedApp('bourse_bench_fast', placedAt);
  try {
    const fast = app.services.fastTrades;
    feed.tick('BTCUSDT', '100000.00', placedAt);
    const option = (await fast.options(2, 'BTCUSDT')).find((o) => o.durationSeconds === 60);
    const sessions = await fundedSessions(db, USERS, 'fast');
    for (const session of sessions) await fast.acceptRisk(session.userId);
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
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchFastSettle(), null, 2));
