/**
 * What the copy-trading test files share: the app on a fresh database with a scripted BTCUSDT
 * feed, a manual clock and the copy worker woken by hand, signed-in admin, finance and support
 * operators, the ledger verified after every test, and the calls the tests make (the app's and
 * the console's copy-trade routes, contract opens and closes, follows, copies, balances).
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { normalize } from '@bourse/shared';
import { ADMIN_USERNAME, adminLogin } from '../../src/admin-login';
import { ManualClock } from '../../src/lib/clock';
import { verifyLedger } from '../../src/ledger/verify';
import {
  call,
  createTestDatabase,
  deposit,
  GOOD_PASSWORD,
  registerUser,
  testConfig,
  type TestApp,
  type TestDatabase,
} from '../helpers';
import { adminApiCall, operatorReady } from './admin-api';
import { scriptedApp, type ScriptedFeed } from './scripted-feed';

export const COPY_TEST_NOW = Date.parse('2026-11-18T15:00:00Z');
/** The password of the finance and support operators the suite makes. */
export const OPERATOR_PASSWORD = 'steady orchard lamp';
const USDT = 3;

export type User = { token: string; userId: number; email: string };

export interface CopyTradingSuiteOptions {
  /** Starts the request ids and names the operators (`<prefix>-finance`, `<prefix>-support`). */
  prefix: string;
  /** The scripted market's seed. */
  seed: string;
  /** The lead trader the follows go to (set by the test file). */
  leader: () => User;
}

let options: CopyTradingSuiteOptions;
let database: TestDatabase;
let t: TestApp;
let feed: ScriptedFeed;
let sequence = 0;

/** The test file's manual clock. */
export const clock = new ManualClock(new Date(COPY_TEST_NOW));
/** The operators' session tokens, signed in by the set-up. */
export const tokens = { admin: '', finance: '', support: '' };

export const requestId = () => `${options.prefix}-${Date.now()}-${++sequence}`;

async function start(): Promise<void> {
  ({ t, feed } = await scriptedApp(database, clock, ['BTCUSDT'], options.seed));
  t.app.services.copyWorker.wakeOnQueue(false);
}

/**
 * Registers the set-up (beforeAll), the ledger check after every test (afterEach) and the
 * tear-down (afterAll) of a copy-trading test file; the calls below act on its app. Call it once,
 * at the top level of the file (each test file has its own copy of this module's state); hooks the
 * file registers after it run after its set-up.
 */
export function copyTradingSuite(given: CopyTradingSuiteOptions) {
  options = given;
  const { prefix, seed } = given;
  beforeAll(async () => {
    database = await createTestDatabase();
    await start();
    const dir = await mkdtemp(path.join(os.tmpdir(), `bourse-${seed}-`));
    const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, clock);
    tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
    for (const role of ['support', 'finance'] as const) {
      const created = await adminApiCall(t.app, 'POST', '/operators/create', {
        token: tokens.admin,
        json: { username: `${prefix}-${role}`, password: OPERATOR_PASSWORD, roles: [role] },
      });
      expect(created.status).toBe(200);
      tokens[role] = await operatorReady(t.app, `${prefix}-${role}`, OPERATOR_PASSWORD);
    }
    await tick('100000.00', 0);
  });
  afterEach(async () => {
    await t.app.services.triggers!.idle();
    await t.app.services.copyWorker.idle();
    expect((await verifyLedger(database.db)).problems).toEqual([]);
  });
  afterAll(async () => {
    await t.close();
    await database.dispose();
  });
  return {
    get app() {
      return t.app;
    },
    get db() {
      return t.db;
    },
    /** Closes the app and starts it again on the same database (a restart). */
    async restart() {
      await t.close();
      await start();
    },
  };
}

/** Runs the copy worker's due tasks. */
export const run = () => t.app.services.copyWorker.runDue();

/** Moves the clock by `ms` and sends a BTCUSDT tick at `price`; returns the tick. */
export async function tick(price: string, ms = 1000) {
  clock.advance(ms);
  const sent = feed.tick('BTCUSDT', price, clock.now().getTime());
  await t.app.services.triggers!.idle();
  return sent;
}

export const consoleCall = (method: 'GET' | 'POST', url: string, token: string, input?: unknown) =>
  method === 'GET'
    ? adminApiCall(t.app, method, `/copy-trade${url}`, {
        token,
        query: input as Record<string, string>,
      })
    : adminApiCall(t.app, method, `/copy-trade${url}`, { token, json: input });

export const api = (
  method: 'GET' | 'POST',
  url: string,
  token: string | undefined,
  input?: unknown,
) =>
  method === 'GET'
    ? call(t.app, method, `/api/copyTrade${url}`, {
        token,
        query: input as Record<string, string>,
      })
    : call(t.app, method, `/api/copyTrade${url}`, { token, json: input });

/** A new user, with `amount` deposited. */
export async function user(amount = '0'): Promise<User> {
  const created = await registerUser(t.app);
  if (amount !== '0') await deposit(t.db, created.userId, amount);
  return created;
}

/** Opens a BTCUSDT contract position (long, 10×, 0.01 unless told); expects it opened. */
export async function opened(token: string, fields: Record<string, unknown> = {}) {
  const result = await call(t.app, 'POST', '/api/contractPosition/open', {
    token,
    json: {
      productType: 2,
      productCode: 'BTCUSDT',
      orderDirection: 1,
      leverage: 10,
      quantity: '0.01',
      requestId: requestId(),
      ...fields,
    },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as Record<string, any>;
}

/** Closes a position, all of it or `quantity`; expects it closed. */
export async function closed(token: string, id: number, quantity?: string) {
  const result = await call(t.app, 'POST', '/api/contractPosition/close', {
    token,
    json: { id, requestId: requestId(), ...(quantity ? { quantity } : {}) },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as Record<string, any>;
}

/** Asks to follow the leader (5 open at most, a budget of 1000); the answer as it comes. */
export function follow(token: string, fields: Record<string, unknown>, id = requestId()) {
  return api('POST', '/relation/follow', token, {
    traderId: options.leader().userId,
    maxOpen: 5,
    budget: '1000',
    requestId: id,
    ...fields,
  });
}

/** Follows the leader as `follow` does, and expects the relation made; returns it. */
export async function followed(token: string, fields: Record<string, unknown>) {
  const result = await follow(token, fields);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as Record<string, any>;
}

/** The follower's copies (first page of 50). */
export async function copiesOf(token: string) {
  const result = await api('GET', '/relation/copies', token, { pageNum: '1', pageSize: '50' });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.rows as Record<string, any>[];
}

/** A user's USDT balance of `kind` in `book`, normalized ('0' without an account). */
export async function balance(userId: number, kind = 'available', book = 'live'): Promise<string> {
  const { rows } = await t.db.query<{ balance: string }>(
    `SELECT balance::text FROM ledger_account WHERE book = $1 AND owner_type = 'user'
       AND owner_id = $2 AND currency_id = $3 AND kind = $4`,
    [book, userId, USDT, kind],
  );
  return rows[0] ? normalize(rows[0].balance) : '0';
}

/** Signs the user in again (sessions end after a day without calls); keeps the new token. */
export async function signIn(who: User): Promise<string> {
  const login = await call(t.app, 'POST', '/api/userInfo/login', {
    form: { userAccount: who.email, userPwd: GOOD_PASSWORD },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  who.token = login.body.data.token as string;
  return who.token;
}
