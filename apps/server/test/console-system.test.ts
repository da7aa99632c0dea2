/**
 * The console's ledger and system calls (consoleSystemApi), on both databases: an admin starts a
 * verification of the ledger, which runs in the background and is kept with its verdict (passed
 * over real postings; failed, with the violation, over a balance changed behind the ledger's
 * back); a start while one runs answers the running one, on this instance or another, and writes
 * go on while it runs; a run whose instance stopped is closed by the next start. The platform
 * accounts' balances come from the ledger; the system page shows the migrations and never a
 * secret; finance reads the runs but starts none, and other roles are refused.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { add, consoleSystemApi, type Route } from '@bourse/shared';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { configSchema } from '../src/config';
import { verifyLedger } from '../src/ledger/verify';
import { LedgerRuns, type LedgerVerifier } from '../src/modules/admin/ledger-runs';
import { CONFIG_VISIBILITY, configEntries } from '../src/modules/admin/system-info';
import { insertRun } from '../src/modules/admin/system-repo';
import {
  createTestApp,
  deposit,
  onPostgres,
  registerUser,
  testConfig,
  type TestApp,
} from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const SECRETS = {
  DATABASE_URL: 'postgres://bourse:Db-Secret-Value-1@db.example:5432/bourse',
  SMTP_URL: 'smtp://mailer:Smtp-Secret-Value-2@mail.example.com:587',
};
const REDIS_SECRET = 'redis://:Redis-Secret-Value-3@cache.example:6379';
const OPERATOR_PASSWORD = 'a quiet ledger clerk';
const USDT = 3;

let t: TestApp;
let dir: string;
const tokens: Record<'admin' | 'finance' | 'support' | 'content', string> = {
  admin: '',
  finance: '',
  support: '',
  content: '',
};

const api = (route: Route, token: string | undefined, input: Record<string, string> = {}) =>
  adminApiCall(t.app, route.method as 'GET' | 'POST', route.path.replace('/admin-api', ''), {
    token,
    ...(route.method === 'GET' ? { query: input } : { json: input }),
  });

/** Polls a run until it is no longer running. */
async function finished(id: number, token = tokens.admin) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const result = await api(consoleSystemApi.ledgerRun, token, { id: String(id) });
    expect(result.status).toBe(200);
    if (result.body.data.status !== 'running') return result.body.data;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${id} did not finish`);
}

async function startedRun() {
  const result = await api(consoleSystemApi.startLedgerRun, tokens.admin);
  expect(result.status).toBe(200);
  return result;
}

/** A verifier that reads once in its snapshot, then waits for `release` before verifying. */
function heldVerifier() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let seen: number | undefined;
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const verify: LedgerVerifier = async (q, options) => {
    const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_entry');
    seen = rows[0]!.n;
    entered();
    await gate;
    return verifyLedger(q, options);
  };
  return { verify, release, inside, entriesSeen: () => seen };
}

beforeAll(async () => {
  t = await createTestApp({ env: SECRETS });
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-console-system-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['finance', 'support', 'content'] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `system-${role}`, password: OPERATOR_PASSWORD, roles: [role] },
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, `system-${role}`, OPERATOR_PASSWORD);
  }
  // Postings in both books: registrations fund demo accounts, deposits come from outside.
  for (const amount of ['125.5', '40']) {
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, amount, USDT);
  }
});

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('who may call', () => {
  it('refuses signed-out callers (401), other roles (403), and finance the admin calls', async () => {
    const all = Object.values(consoleSystemApi) as Route[];
    for (const route of all) {
      expect((await api(route, undefined)).status, route.path).toBe(401);
      for (const role of ['support', 'content'] as const) {
        const refused = await api(route, tokens[role]);
        expect(refused.status, `${role} ${route.path}`).toBe(403);
        expect(refused.body.msg).toBe('hint_forbidden');
      }
    }
    expect((await api(consoleSystemApi.startLedgerRun, tokens.finance)).status).toBe(403);
    expect((await api(consoleSystemApi.systemInfo, tokens.finance)).status).toBe(403);
    expect((await api(consoleSystemApi.ledgerRuns, tokens.finance)).status).toBe(200);
    expect((await api(consoleSystemApi.platformBalances, tokens.finance)).status).toBe(200);
    // Nothing was started by the refused calls.
    expect((await api(consoleSystemApi.ledgerRuns, tokens.admin)).body.total).toBe(0);
  });
});

describe('ledger verification runs', () => {
  it('verifies a ledger with postings in the background and keeps the passed run', async () => {
    const expected = await verifyLedger(t.db);
    expect(expected.ok).toBe(true);
    expect(expected.postings).toBeGreaterThan(4);

    const started = await startedRun();
    expect(started.body.msg).toBe('hint_success');
    expect(started.body.data).toMatchObject({
      status: 'running',
      operatorName: ADMIN_USERNAME,
      snapshot: onPostgres ? 'transaction' : 'perCheck',
      steps: 9,
      finishTime: null,
    });
    const run = await finished(started.body.data.id, tokens.finance);
    expect(run).toMatchObject({
      status: 'passed',
      step: 9,
      check: null,
      accounts: expected.accounts,
      entries: expected.entries,
      postings: expected.postings,
      violationCount: 0,
      violations: [],
      error: null,
    });
    expect(Date.parse(run.finishTime)).toBeGreaterThanOrEqual(Date.parse(run.startTime));

    const list = await api(consoleSystemApi.ledgerRuns, tokens.finance, { status: 'passed' });
    expect(list.body.rows!.map((row: { id: number }) => row.id)).toContain(run.id);
    expect(list.body.rows![0]).not.toHaveProperty('violations');

    // Audited: who started which run.
    const audit = await adminApiCall(t.app, 'GET', '/audit', {
      token: tokens.admin,
      query: { action: 'ledger.verify' },
    });
    expect(audit.body.rows![0]).toMatchObject({
      operatorName: ADMIN_USERNAME,
      targetType: 'ledgerRun',
      targetId: String(run.id),
      before: null,
      after: { status: 'running' },
    });
  });

  it('answers the running run to a second start, here or on another instance, and writes go on', async () => {
    const held = heldVerifier();
    // Another instance's runs on the same database.
    const other = new LedgerRuns({ db: t.db, clock: t.clock, verify: held.verify });
    const operator = { operatorId: 1, username: ADMIN_USERNAME, ip: '127.0.0.1' };
    const first = await other.start(operator);
    expect(first.started).toBe(true);
    await held.inside;
    const again = await other.start(operator);
    expect(again).toMatchObject({ started: false, run: { id: first.run.id, status: 'running' } });
    // Two instances inserting at once: the database admits one running row, the other gets none.
    expect(
      await insertRun(t.db, {
        operatorId: 1,
        operatorName: ADMIN_USERNAME,
        snapshot: 'perCheck',
        steps: 9,
        at: new Date(),
      }),
    ).toBeUndefined();
    const viaApi = await startedRun();
    expect(viaApi.body.msg).toBe('hint_48');
    expect(viaApi.body.data.id).toBe(first.run.id);

    // While it runs, money moves (no lock held, one snapshot on PostgreSQL).
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, '9.75', USDT);
    const progress = await api(consoleSystemApi.ledgerRun, tokens.admin, {
      id: String(first.run.id),
    });
    expect(progress.body.data).toMatchObject({ status: 'running', step: 0 });

    held.release();
    await other.idle();
    const run = await finished(first.run.id);
    expect(run.status).toBe('passed');
    const entriesNow = (await verifyLedger(t.db)).entries;
    // PostgreSQL: the run saw the ledger as of its snapshot; embedded: each check as it ran.
    expect(run.entries).toBe(onPostgres ? held.entriesSeen() : entriesNow);
    if (onPostgres) expect(run.entries).toBeLessThan(entriesNow);
  });

  it('closes a run whose instance stopped renewing it, and starts a new one', async () => {
    const held = heldVerifier();
    const stopped = new LedgerRuns({ db: t.db, clock: t.clock, verify: held.verify });
    const first = await stopped.start({ operatorId: 1, username: ADMIN_USERNAME, ip: '::1' });
    await held.inside;
    await t.db.query(
      `UPDATE ledger_verify_run SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
      [first.run.id],
    );
    const next = await startedRun();
    expect(next.body.msg).toBe('hint_success');
    expect(next.body.data.id).toBeGreaterThan(first.run.id);
    const closed = await api(consoleSystemApi.ledgerRun, tokens.admin, {
      id: String(first.run.id),
    });
    expect(closed.body.data).toMatchObject({ status: 'error' });
    expect(closed.body.data.error).toMatch(/stopped/);
    expect((await finished(next.body.data.id)).status).toBe('passed');
    // The stopped instance finishing late changes nothing.
    held.release();
    await stopped.idle();
    expect(
      (await api(consoleSystemApi.ledgerRun, tokens.admin, { id: String(first.run.id) })).body.data
        .status,
    ).toBe('error');
  });

  it('fails, naming the violation, when a balance was changed behind the ledger', async () => {
    const user = await registerUser(t.app);
    await deposit(t.db, user.userId, '30', USDT);
    const tamper = (delta: string) =>
      t.db.query(
        `UPDATE ledger_account SET balance = balance + $2::numeric
         WHERE owner_type = 'user' AND owner_id = $1 AND kind = 'available' AND book = 'live' AND currency_id = ${USDT}`,
        [user.userId, delta],
      );
    await tamper('1');
    try {
      const run = await finished((await startedRun()).body.data.id);
      expect(run.status).toBe('failed');
      expect(run.violationCount).toBe(run.violations.length);
      const checks = run.violations.map((violation: { check: string }) => violation.check);
      expect(checks).toEqual(expect.arrayContaining(['conservation', 'materialized']));
      const materialized = run.violations.find(
        (violation: { check: string }) => violation.check === 'materialized',
      );
      expect(materialized.values).toMatchObject({ postings: expect.any(String) });
      expect(add(materialized.values.postings, '1')).toBe(add(materialized.values.balance, '0'));
      expect(materialized.text).toMatch(/^materialized: account \d+ holds /);
    } finally {
      await tamper('-1');
    }
    expect((await finished((await startedRun()).body.data.id)).status).toBe('passed');
  });

  it('refuses an unknown run and a bad status filter with the field', async () => {
    const missing = await api(consoleSystemApi.ledgerRun, tokens.admin, { id: '999999' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ msg: 'hint_notFound', params: ['id'] });
    const bad = await api(consoleSystemApi.ledgerRuns, tokens.admin, { status: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body.params?.[0]).toBe('status');
  });
});

describe('platform accounts', () => {
  it("sums each platform account's shards per currency, and with the users' balances to zero", async () => {
    const live = await api(consoleSystemApi.platformBalances, tokens.finance, { pageSize: '100' });
    expect(live.status).toBe(200);
    const external = live.body.rows!.find(
      (row: { kind: string; currencyId: number }) =>
        row.kind === 'external' && row.currencyId === USDT,
    );
    expect(external).toMatchObject({ book: 'live', currencyName: 'USDT' });
    const { rows } = await t.db.query<{ total: string }>(
      `SELECT sum(balance)::text AS total FROM ledger_account
       WHERE owner_type = 'user' AND book = 'live' AND currency_id = $1`,
      [USDT],
    );
    const platformTotal = live.body
      .rows!.filter((row: { currencyId: number }) => row.currencyId === USDT)
      .reduce((total: string, row: { balance: string }) => add(total, row.balance), '0');
    expect(add(platformTotal, rows[0]!.total)).toBe('0');

    const demo = await api(consoleSystemApi.platformBalances, tokens.finance, { book: 'demo' });
    expect(demo.body.rows!.map((row: { kind: string }) => row.kind)).toContain('demo_faucet');
    expect(demo.body.rows!.every((row: { book: string }) => row.book === 'demo')).toBe(true);

    const paged = await api(consoleSystemApi.platformBalances, tokens.finance, { pageSize: '1' });
    expect(paged.body.rows!).toHaveLength(1);
    expect(paged.body.total).toBe(live.body.total);
    const bad = await api(consoleSystemApi.platformBalances, tokens.finance, { book: 'paper' });
    expect(bad.status).toBe(400);
    expect(bad.body.params?.[0]).toBe('book');
  });
});

describe('the system page', () => {
  it('shows the settings in force and never a secret', async () => {
    const result = await api(consoleSystemApi.systemInfo, tokens.admin);
    expect(result.status).toBe(200);
    const raw = JSON.stringify(result.body);
    for (const secret of Object.values(SECRETS)) {
      expect(raw).not.toContain(secret);
      expect(raw).not.toContain(new URL(secret).password);
    }
    const byKey = new Map(
      (result.body.data.config as { key: string }[]).map((entry) => [entry.key, entry]),
    );
    expect(byKey.get('DATABASE_URL')).toEqual({
      key: 'DATABASE_URL',
      value: null,
      secret: true,
      set: true,
    });
    expect(byKey.get('SMTP_URL')).toMatchObject({ value: null, secret: true, set: true });
    expect(byKey.get('REDIS_URL')).toMatchObject({ value: null, secret: true, set: false });
    expect(byKey.get('MARKET_FEED')).toMatchObject({ value: 'off', secret: false, set: true });
    expect(byKey.get('API_CONTRACT_CHECK')).toMatchObject({ value: 'strict' });

    // Every setting of config.ts is named shown or secret, and a secret is hidden however set.
    expect(Object.keys(CONFIG_VISIBILITY).sort()).toEqual(Object.keys(configSchema.shape).sort());
    const withRedis = configEntries(testConfig({ ...SECRETS, REDIS_URL: REDIS_SECRET }));
    expect(JSON.stringify(withRedis)).not.toContain('Redis-Secret-Value-3');
    expect(withRedis.find((entry) => entry.key === 'REDIS_URL')).toMatchObject({ set: true });
  });

  it('lists the migrations applied with their time, the version and this instance', async () => {
    const { data } = (await api(consoleSystemApi.systemInfo, tokens.admin)).body;
    expect(data.database).toBe(onPostgres ? 'postgres' : 'pglite');
    expect(data.version).toMatch(/^\d+\.\d+\.\d+/);
    const versions = data.migrations.map((migration: { version: number }) => migration.version);
    expect(versions.slice(0, 3)).toEqual([1, 2, 3]);
    expect(versions).toEqual([...versions].sort((a: number, b: number) => a - b));
    expect(data.migrations).toContainEqual({
      version: 23,
      name: 'create_ledger_verify_run',
      appliedTime: expect.any(String),
    });
    expect(data.instances).toEqual([
      expect.objectContaining({
        current: true,
        pid: process.pid,
        feedLeader: false,
        wsConnections: 0,
      }),
    ]);
    // The feed is off in this app: no lease is held.
    expect(data.clustered).toBe(false);
    expect(data.leases).toEqual([]);
  });

  it("shows the scheduler's fixed time, its next run and each daily job's days", async () => {
    const scheduler = t.app.services.scheduler;
    const now = t.clock.now();
    const job = {
      name: 'console-check',
      runDay: async () => 3,
    };
    scheduler.register(job);
    await scheduler.runDue();
    const { data } = (await api(consoleSystemApi.systemInfo, tokens.admin)).body;
    const today = now.toISOString().slice(0, 10);
    const afterFixedTime = now.getUTCHours() * 60 + now.getUTCMinutes() >= 5;
    const dueDay = afterFixedTime
      ? today
      : new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
    expect(data.scheduler.utcTime).toBe('00:05');
    const next = new Date(data.scheduler.nextRunTime);
    expect(next.getTime()).toBeGreaterThan(now.getTime());
    expect(next.getTime() - now.getTime()).toBeLessThanOrEqual(86_400_000);
    expect(next.toISOString().slice(11)).toBe('00:05:00.000Z');
    const shown = data.scheduler.jobs.find((entry: { job: string }) => entry.job === job.name);
    expect(shown).toEqual({
      job: job.name,
      firstDay: dueDay,
      lastFinishedDay: dueDay,
      latest: {
        day: dueDay,
        startedTime: now.toISOString(),
        finishedTime: now.toISOString(),
        processed: 3,
        error: null,
      },
    });
  });
});
