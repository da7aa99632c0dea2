// The real app in-process on a fresh PostgreSQL database with a scripted feed for BTCUSDT and a
// clock that stands still unless told, plus users funded straight through the ledger: what the
// settlement and trigger benchmarks start from. Run with `node --import tsx`.
import pino from 'pino';
import { createDatabase } from './lib.mjs';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPostgres } from '../apps/server/src/db/database.ts';
import { prepareDatabase } from '../apps/server/src/prepare.ts';
import * as ledger from '../apps/server/src/ledger/ledger.ts';
import { DEFAULT_CATALOGUE } from '../apps/server/src/market/catalogue.ts';
import { ManualClock } from '../apps/server/src/lib/clock.ts';
import { ScriptedFeed } from '../apps/server/test/support/scripted-feed.ts';

const USDT = 3;

/** Starts the app; `close()` stops it and drops the database. */
export async function scriptedApp(prefix, startAt = Date.now()) {
  const database = await createDatabase(prefix);
  const db = await openPostgres(database.url, 20);
  await prepareDatabase(db);
  const feed = new ScriptedFeed();
  const clock = new ManualClock(new Date(startAt));
  let app;
  try {
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
  } catch (error) {
    await db.close();
    await database.drop();
    throw error;
  }
  return {
    app,
    db,
    feed,
    clock,
    async close() {
      await app.close();
      await db.close();
      await database.drop();
    },
  };
}

/** Live users with 1,000,000 USDT each, as the actors the services take (http/actor.ts). */
export async function fundedSessions(db, count, prefix) {
  const sessions = [];
  for (let i = 0; i < count; i++) {
    const { rows } = await db.query(
      `INSERT INTO app_user (reg_type, email, user_account, password_hash, nick_name, invite_code, created_at)
       VALUES (1, $1, $1, 'x', 'bench', $2, now()) RETURNING id`,
      [`${prefix}${i}@example.com`, `${prefix.toUpperCase()}${i}`],
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
    sessions.push({ userId, book: 'live' });
  }
  return sessions;
}
