/**
 * Test harness: a real database (in-memory PGlite, or a fresh database on the real PostgreSQL
 * when TEST_DB=postgres), migrated and seeded, and the real app on top, driven by app.inject().
 * The server log is captured so tests can read the verification codes the app writes there.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { buildApp, type AppOptions } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openPglite, openPostgres, type Database } from '../src/db/database';
import { prepareDatabase } from '../src/prepare';
import { ManualClock, type Clock } from '../src/lib/clock';
import * as ledger from '../src/ledger/ledger';
import { verifyLedger } from '../src/ledger/verify';
import type { CodeSender } from '../src/modules/account/code-sender';
import type { TickEvent } from '../src/market/engine';

export const TEST_DB = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';
export const onPostgres = TEST_DB === 'postgres';

export interface TestDatabase {
  db: Database;
  /** The connection string on PostgreSQL, to open it again (restart tests). */
  url?: string;
  dispose(): Promise<void>;
}

let pgliteTemplate: Promise<Blob> | undefined;

/** The run's prepared PGlite database (global-setup.ts), read once per worker; none outside it. */
function preparedPglite(): Promise<Blob> | undefined {
  const file = inject('pgliteTemplate');
  if (!file) return undefined;
  pgliteTemplate ??= readFile(file).then((bytes) => new Blob([bytes]));
  return pgliteTemplate;
}

/**
 * A fresh database of the kind under test, migrated and seeded unless `prepare` is false: a copy
 * of the run's template (global-setup.ts), migrated and seeded once, when there is one.
 */
export async function createTestDatabase(prepare = true): Promise<TestDatabase> {
  if (!onPostgres) {
    const template = prepare ? preparedPglite() : undefined;
    const db = await openPglite(undefined, template ? await template : undefined);
    if (prepare && !template) await prepareDatabase(db);
    return { db, dispose: () => db.close() };
  }
  const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bourse_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = prepare ? inject('postgresTemplate') : undefined;
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 60);
  if (prepare && !template) await prepareDatabase(db);
  return {
    db,
    url: url.toString(),
    dispose: async () => {
      await db.close().catch(() => undefined);
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** Settings for tests: generous rate limits unless a test sets its own. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    API_CONTRACT_CHECK: 'strict',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
    RATE_LIMIT_REGISTER_PER_MINUTE: '100000',
    RATE_LIMIT_CODE_PER_MINUTE: '100000',
    RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
    VERIFICATION_CODES: 'never',
    // Market tests switch the feed on with a small catalogue of their own.
    MARKET_FEED: 'off',
    // Ticks at each interval's start, so tests can name the instant of every tick.
    MARKET_TICK_SPREAD: 'false',
    // Tests run the scheduler's days themselves (app.scheduler.runDue after moving the clock).
    SCHEDULER_CHECK_MS: '0',
    // Tests allocate and list new shares themselves (NewSharesWorker.runDue after moving the clock).
    NEW_SHARES_CHECK_MS: '0',
    // Tests run copy trading's queue themselves (CopyWorker.runDue); queued tasks still wake it.
    COPY_TRADE_CHECK_MS: '0',
    ...env,
  });
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  clock: ManualClock;
  config: Config;
  logs: LogLine[];
  /** The last verification code the app wrote to its log for `target`. */
  lastCode(target: string): string | undefined;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  database?: TestDatabase;
  codeSender?: CodeSender;
  /** The clock the app reads (default: a manual clock standing at the real time of the call). */
  clock?: ManualClock;
  /** Market tests: a small catalogue and short history so the app starts fast. */
  catalogue?: AppOptions['catalogue'];
  history?: AppOptions['history'];
  feed?: AppOptions['feed'];
  /** Exchange rates between currencies (default: the market's, or none when it is off). */
  rates?: AppOptions['rates'];
}

/** The database and clock of each test app (what the operator helpers' two-factor codes need). */
const testApps = new WeakMap<FastifyInstance, { db: Database; clock: Clock }>();

/** Makes an app built without createTestApp known to the helpers (its database and clock). */
export function registerTestApp(app: FastifyInstance, db: Database, clock: Clock): void {
  testApps.set(app, { db, clock });
}

export function testAppOf(app: FastifyInstance): { db: Database; clock: Clock } {
  const found = testApps.get(app);
  if (!found) throw new Error('not an app of createTestApp (registerTestApp)');
  return found;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = testConfig(options.env);
  const clock = options.clock ?? new ManualClock(new Date());
  const logs: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) logs.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  const logger = pino({ level: 'warn' }, stream);
  const app = await buildApp({
    config,
    db: database.db,
    clock,
    logger,
    codeSender: options.codeSender,
    catalogue: options.catalogue,
    history: options.history,
    feed: options.feed,
    rates: options.rates,
  });
  testApps.set(app, { db: database.db, clock });
  return {
    app,
    db: database.db,
    clock,
    config,
    logs,
    lastCode: (target) =>
      logs
        .filter((line) => line.target === target && typeof line.code === 'string')
        .map((line) => line.code as string)
        .at(-1),
    close: async () => {
      await app.close();
      if (!options.database) await database.dispose();
    },
  };
}

export interface Envelope {
  code: number;
  msg: string;
  data?: any;
  params?: unknown[];
  text?: string;
  rows?: any[];
  total?: number;
  [key: string]: unknown;
}

export interface CallResult {
  status: number;
  body: Envelope;
  headers: Record<string, unknown>;
}

/** Calls the API: GET with a query, POST with a form body (the app's default) or JSON. */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  options: {
    token?: string;
    query?: Record<string, string>;
    form?: Record<string, string>;
    json?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<CallResult> {
  const request: InjectOptions = { method, url, headers: { ...options.headers } };
  if (options.token) request.headers!.authorization = `Bearer ${options.token}`;
  if (options.query) request.query = options.query;
  if (options.form) {
    request.headers!['content-type'] = 'application/x-www-form-urlencoded';
    request.payload = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    request.headers!['content-type'] = 'application/json';
    request.payload = JSON.stringify(options.json);
  }
  const response = await app.inject(request);
  return {
    status: response.statusCode,
    body: response.json() as Envelope,
    headers: response.headers,
  };
}

let sequence = 0;
/** A unique, valid email for a test user. */
export function uniqueEmail(prefix = 'user'): string {
  sequence += 1;
  return `${prefix}${sequence}.${randomBytes(3).toString('hex')}@example.com`;
}

/** A valid login password that is not in the common-password list (lib/common-passwords.ts). */
export const GOOD_PASSWORD = 'Tidewater58';

/** Registers a user by email and returns its token and id. */
export async function registerUser(
  app: FastifyInstance,
  email = uniqueEmail(),
  password = GOOD_PASSWORD,
): Promise<{ token: string; userId: number; email: string }> {
  const result = await call(app, 'POST', '/api/userInfo/reg', {
    form: { regType: '1', userAccount: email, userPwd: password },
  });
  if (result.status !== 200) throw new Error(`registration failed: ${JSON.stringify(result.body)}`);
  return { token: result.body.data.token, userId: result.body.data.userInfo.id, email };
}

/** A fresh database for a ledger test file; the ledger must verify after every test. */
export function ledgerTestDatabase(): { readonly db: Database } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    expect((await verifyLedger(database!.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    await database?.dispose();
  });
  return {
    get db() {
      return database!.db;
    },
  };
}

/** Money arriving from outside (a recharge), in its own transaction. */
export function deposit(
  db: Database,
  userId: number,
  amount: string,
  currencyId = 3,
  book: ledger.Book = 'live',
) {
  return db.transaction((tx) =>
    ledger.transfer(tx, {
      book,
      type: 'recharge',
      from: ledger.platform(currencyId, 'external'),
      to: ledger.user(userId, currencyId),
      amount,
    }),
  );
}

/**
 * Moves a market test app's manual clock by `ms` and waits (at most `waitMs`) until its feed made
 * the ticks that became due; gives the last due instant and the tick events seen meanwhile.
 */
export async function advanceMarket(
  t: TestApp,
  ms: number,
  tickMs: number,
  waitMs = 5000,
): Promise<{ time: number; events: TickEvent[] }> {
  const engine = t.app.services.marketEngine!;
  const time = Math.floor((t.clock.now().getTime() + ms) / tickMs) * tickMs;
  const events: TickEvent[] = [];
  let off: () => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no tick at ${time} within ${waitMs} ms`)),
      waitMs,
    );
    off = engine.onTickEvent((event) => {
      events.push(event);
      // The feed makes every due tick in one timer turn: when the last instant shows up, the
      // rest of that turn runs before this promise's continuation.
      if (event.tick.time >= time) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  t.clock.advance(ms);
  try {
    await done;
  } finally {
    off();
  }
  return { time, events };
}
