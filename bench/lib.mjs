// Shared helpers of the benchmarks: start the real server as a child process, wait for it, load it
// (autocannon's closed loop, or a steady open-loop rate) while measuring each process's CPU, make
// throwaway PostgreSQL databases, and weigh the JavaScript a browser app's build has and loads.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { Pool } from 'undici';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const postgresAdminUrl =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitForHttp(url, timeoutMs = 60_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Starts the Bourse server (tsx, as `npm start` does) and resolves once /healthz answers. */
export async function startServer({ port, env = {}, dataDir: givenDataDir }) {
  const dataDir = givenDataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'bourse-bench-')));
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
      '--import',
      'tsx',
      'apps/server/src/main.ts',
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        SEED_DEMO_USER: 'false',
        // Benchmarks that need prices turn the market on; for the others it would be noise.
        MARKET_FEED: 'off',
        RATE_LIMIT_GLOBAL_PER_MINUTE: '100000000',
        RATE_LIMIT_REGISTER_PER_MINUTE: '100000',
        RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 120_000);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** CPU seconds so far of the server, each PostgreSQL process (by pid) and this process. */
async function cpuSeconds(serverPid) {
  const seconds = { server: 0, bench: 0, postgres: new Map() };
  const hz = 100;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const used = (Number(fields[11]) + Number(fields[12])) / hz;
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (Number(entry) === serverPid) seconds.server = used;
      else if (Number(entry) === process.pid) seconds.bench = used;
      else if (name === 'postgres') seconds.postgres.set(entry, used);
    } catch {
      // the process ended meanwhile
    }
  }
  return seconds;
}

/**
 * Runs `work` and adds to its result the cores the server, PostgreSQL and the load generator
 * (this process) used meanwhile, on average (Linux /proc; none elsewhere). A PostgreSQL process
 * that started meanwhile counts whole; one that ended meanwhile is missed.
 */
export async function withCpu(serverPid, work) {
  if (process.platform !== 'linux') return work();
  const before = await cpuSeconds(serverPid);
  const started = performance.now();
  const result = await work();
  const elapsed = (performance.now() - started) / 1000;
  const after = await cpuSeconds(serverPid);
  let postgres = 0;
  for (const [pid, used] of after.postgres) postgres += used - (before.postgres.get(pid) ?? 0);
  const cores = (used) => Math.round((used / elapsed) * 100) / 100;
  return {
    ...result,
    cores: {
      server: cores(after.server - before.server),
      postgres: cores(postgres),
      loadGenerator: cores(after.bench - before.bench),
    },
  };
}

export function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ duration: 10, connections: 50, pipelining: 1, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/**
 * Open-loop load: requests leave at a steady rate whatever the answers do (autocannon's rate
 * option sends each second's share in a burst, then waits), over at most `connections` kept-alive
 * connections (undici's pool, lean enough to share two cores with the server). A request's
 * latency counts from the moment it was due, so time spent waiting for a free connection counts
 * too (no coordinated omission). The first `warmUp` seconds of the same stream, on the same
 * connections, warm the server up and are not counted. `body(i)` gives the i-th request's JSON
 * body, `headers(i)` its headers (all built before the clock starts); or `request(i)` makes the
 * i-th request (path, method, headers, body) at the moment it is due, for a request that carries
 * its moment (a signed one). `warmPath` answers the GETs that open the connections beforehand.
 * The first refused answer's body is returned as `firstRefusal`. With BENCH_TRACE_FILE set, each counted request's due time (ms since the epoch) and
 * latency are appended to that file as one JSON line of pairs, to see when the slow ones came.
 */
export async function steadyRate({
  url,
  path: requestPath,
  connections,
  rate,
  warmUp = 0,
  duration,
  body,
  headers,
  request,
  warmPath = '/healthz',
}) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const uncounted = Math.round(rate * warmUp);
  const total = uncounted + Math.round(rate * duration);
  // Requests built before the clock starts, sent through undici's bare dispatch API: the
  // generator's own work per request stays small.
  const requests = request
    ? undefined
    : Array.from({ length: total }, (_, i) => ({
        path: requestPath,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers(i) },
        body: JSON.stringify(body(i)),
      }));
  const latencies = [];
  const trace = process.env.BENCH_TRACE_FILE ? [] : undefined;
  let answered = 0;
  let non2xx = 0;
  let errors = 0;
  let firstRefusal;
  let allAnswered;
  const done = new Promise((resolve) => (allAnswered = resolve));
  const finish = () => {
    answered += 1;
    if (answered === total) allAnswered();
  };
  const send = (i, due) => {
    let status = 0;
    const chunks = [];
    pool.dispatch(requests ? requests[i] : request(i), {
      onConnect() {},
      onHeaders(statusCode) {
        status = statusCode;
        if (i >= uncounted && (statusCode < 200 || statusCode >= 300)) non2xx += 1;
        return true;
      },
      onData(chunk) {
        if (status >= 300 && !firstRefusal) chunks.push(chunk);
        return true;
      },
      onComplete() {
        if (status >= 300 && !firstRefusal) firstRefusal = Buffer.concat(chunks).toString();
        if (i >= uncounted) {
          const latency = performance.now() - due;
          latencies.push(latency);
          trace?.push([Math.round(performance.timeOrigin + due), Math.round(latency)]);
        }
        finish();
      },
      onError() {
        if (i >= uncounted) errors += 1;
        finish();
      },
    });
  };
  // Every connection opened before the clock starts (as autocannon does), so the first orders
  // do not pay for TCP handshakes.
  await Promise.all(
    Array.from({ length: connections }, () =>
      pool.request({ path: warmPath, method: 'GET' }).then((response) => response.body.dump()),
    ),
  );
  const started = performance.now();
  const dueAt = (i) => started + (i * 1000) / rate;
  let sent = 0;
  while (sent < total) {
    const wait = dueAt(sent) - performance.now();
    if (wait > 0) await sleep(Math.ceil(wait));
    // Everything due by now leaves now, each timed from its own due moment.
    while (sent < total && dueAt(sent) <= performance.now()) {
      send(sent, dueAt(sent));
      sent += 1;
    }
  }
  if (total > 0) await done;
  const elapsed = (performance.now() - dueAt(uncounted)) / 1000;
  await pool.close();
  if (trace) await appendFile(process.env.BENCH_TRACE_FILE, `${JSON.stringify(trace)}\n`);
  latencies.sort((a, b) => a - b);
  const at = (q) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return {
    requestsPerSecond: Math.round(latencies.length / elapsed),
    latencyP50Ms: at(0.5),
    latencyP99Ms: at(0.99),
    latencyMaxMs: Math.round(latencies.at(-1)),
    non2xx,
    errors,
    ...(firstRefusal ? { firstRefusal } : {}),
  };
}

export function summary(result) {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export async function createDatabase(prefix) {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: postgresAdminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * Runs `run(label, env)` with the server's environment for PostgreSQL (a fresh database, a pool of
 * 20), then for the embedded PGlite; answers both results.
 */
export async function onBothDatabases(prefix, run) {
  const database = await createDatabase(prefix);
  try {
    const postgres = await run('PostgreSQL', {
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: '20',
    });
    const pglite = await run('PGlite', {});
    return [postgres, pglite];
  } finally {
    await database.drop();
  }
}

/** A server on a random port and data folder of its own, stopped once `work(server)` is done. */
export async function withServer(env, prefix, work) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const port = 4000 + Math.floor(Math.random() * 900);
  const server = await startServer({ port, env, dataDir });
  try {
    return await work(server, dataDir);
  } finally {
    await server.stop();
  }
}

/**
 * `work(server, dataDir)` against a server on a fresh PostgreSQL database of its own (a pool of 20)
 * with the simulated feed, as the order benchmarks run; the database is dropped afterwards.
 */
export async function withPostgresServer(name, work) {
  const database = await createDatabase(`bourse_bench_${name}`);
  try {
    return await withServer(
      { DATABASE_URL: database.url, DATABASE_POOL_MAX: '20', MARKET_FEED: 'simulated' },
      `bourse-bench-${name}-`,
      work,
    );
  } finally {
    await database.drop();
  }
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** POSTs JSON to the API and returns `data`, throwing on anything but code 200. */
export async function postJson(url, body, token) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (json.code !== 200) throw new Error(`${url}: ${JSON.stringify(json)}`);
  return json.data;
}

/** The first operator's two-factor secret and the step of its last code, per server. */
const operatorSecrets = new Map();

/** A fresh two-factor code (a step is taken once, and only later ones after it). */
async function operatorCode(base) {
  const kept = operatorSecrets.get(base);
  let step = Math.floor(Date.now() / 30_000);
  if (step <= kept.lastStep) {
    await new Promise((resolve) => setTimeout(resolve, (kept.lastStep + 1) * 30_000 - Date.now()));
    step = kept.lastStep + 1;
  }
  kept.lastStep = step;
  return new TOTP({ secret: Secret.fromBase32(kept.secret), digits: 6, period: 30 }).generate({
    timestamp: step * 30_000,
  });
}

/**
 * The first operator, whose password the server keeps in its data folder. The server allows an
 * operator who never chose a password nothing but the change: the first time, it is changed to an
 * interim one and back, and the operator signs in again; an admin then sets two-factor up before
 * any other call (its secret is kept here for the next sign-in's code).
 */
export async function operatorLogin(base, dataDir) {
  const password = (await readFile(path.join(dataDir, 'admin-login.txt'), 'utf8')).trim();
  const signIn = async (with_) => {
    const answer = await postJson(`${base}/admin-api/auth/login`, {
      username: 'admin',
      password: with_,
    });
    if (!answer.twoFactorRequired) return answer;
    return postJson(`${base}/admin-api/auth/loginTwoFactor`, {
      challenge: answer.challenge,
      code: await operatorCode(base),
    });
  };
  const change = (token, oldPassword, newPassword) =>
    postJson(`${base}/admin-api/auth/changePassword`, { oldPassword, newPassword }, token);
  let session = await signIn(password);
  if (session.operator.pwdChangeTime === null) {
    const interim = `${password} (interim)`;
    await change(session.token, password, interim);
    await change((await signIn(interim)).token, interim, password);
    session = await signIn(password);
  }
  if (!session.operator.twoFactor) {
    const { secret } = await postJson(
      `${base}/admin-api/auth/twoFactor/setup`,
      { password },
      session.token,
    );
    operatorSecrets.set(base, { secret, lastStep: 0 });
    await postJson(
      `${base}/admin-api/auth/twoFactor/enable`,
      { code: await operatorCode(base) },
      session.token,
    );
  }
  return session;
}

/** A 1-pixel PNG, as a deposit's proof. */
export const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A deposit (TRC20 channel, a 1-pixel proof) of a user approved by the operator. */
export async function approvedDeposit(base, admin, token, amount, requestId) {
  const recharge = await postJson(
    `${base}/api/userRecharge/inMoney`,
    { channelId: 2, amount, proofImage: PNG_1X1, requestId },
    token,
  );
  await postJson(`${base}/admin-api/recharges/approve`, { id: recharge.id }, admin.token);
}

/** The sign-in password of the benchmarks' users. */
export const BENCH_PASSWORD = 'Bench12345';

/**
 * `count` users registered by e-mail (`<name><i>.<now>@example.com`), each funded with `amount`
 * USDT by a deposit the first operator approves; `prepare(token, i)` adds what a benchmark needs
 * of each (a key, an address) to the user `{ token }`, before the deposit.
 */
export async function fundedUsers(base, dataDir, { count, name, amount = '500000', prepare }) {
  const admin = await operatorLogin(base, dataDir);
  const users = [];
  for (let i = 0; i < count; i++) {
    const reg = await postJson(`${base}/api/userInfo/reg`, {
      regType: 1,
      userAccount: `${name}${i}.${Date.now()}@example.com`,
      userPwd: BENCH_PASSWORD,
    });
    const extra = prepare ? await prepare(reg.token, i) : {};
    await approvedDeposit(base, admin, reg.token, amount, `bench-${name}-dep-${i}`);
    users.push({ token: reg.token, ...extra });
  }
  return users;
}

// ---------------------------------------------------------------- JavaScript sizes

export const kb = (bytes) => Number((bytes / 1024).toFixed(1));

/** Gzip at level 9, as the builds' .gz copies are (so no figure depends on the encoding chosen). */
const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;

/** Every JS file a Vite manifest key loads statically, itself included. */
function closure(manifest, key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, seen);
  return seen;
}

/**
 * What a build's Vite manifest says (`distDir`), gzipped: the entry's static imports, what each
 * lazily loaded screen adds to them (a dynamic entry whose key matches `screen`, named by its
 * first group), and all the JavaScript.
 */
export function manifestFigures(distDir, screen) {
  const sizeOf = (files) =>
    [...files]
      .filter((file) => file.endsWith('.js'))
      .reduce((sum, file) => sum + gzipSize(readFileSync(path.join(distDir, file))), 0);
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const entry = closure(manifest, entryKey);
  const screens = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    const match = screen.exec(key);
    if (!match || !chunk.isDynamicEntry) continue;
    const files = closure(manifest, key, new Set(entry));
    for (const file of entry) files.delete(file);
    screens[match[1]] = kb(sizeOf(files));
  }
  const allJs = sizeOf(new Set(Object.values(manifest).map((chunk) => chunk.file)));
  return { entryKb: kb(sizeOf(entry)), screenExtraKb: screens, allJsKb: kb(allJs) };
}

/**
 * Debian's Chromium with the browser tests' flags, closed once `work(browser)` is done (loaded
 * when used: most benchmarks need no browser).
 */
export async function withChromium(work) {
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_ARGS, CHROMIUM_PATH } = await import('../apps/web/e2e/chromium.ts');
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    return await work(browser);
  } finally {
    await browser.close();
  }
}

/**
 * Opens `url` in a fresh context of `browser` (made with `contextOptions`) and, once the network
 * is idle and `ready` (a selector, if given) shows, adds up the gzip size of every script that
 * arrived; each is named by its path below the one of `url`.
 */
export async function loadedScripts(browser, url, { contextOptions, ready, closed = [] }) {
  const context = await browser.newContext(contextOptions);
  try {
    const page = await context.newPage();
    // Streams a page keeps open (the console's review events) never let the network go idle:
    // answered 403 here, which the page takes as nothing to watch (they carry no script).
    for (const pattern of closed)
      await page.route(pattern, (route) => route.fulfill({ status: 403, body: '' }));
    const base = new URL(url).pathname;
    const pending = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const file = new URL(response.url()).pathname;
      pending.push(
        response.body().then((body) => ({
          file: file.startsWith(base) ? file.slice(base.length) : file,
          gzip: gzipSize(body),
        })),
      );
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    if (ready) await page.locator(ready).waitFor();
    // Idle is idle for half a second; a launch step or page chunk that starts later still counts.
    await page.waitForLoadState('networkidle');
    const scripts = (await Promise.all(pending)).sort((a, b) => b.gzip - a.gzip);
    return {
      totalKb: kb(scripts.reduce((sum, script) => sum + script.gzip, 0)),
      scripts: Object.fromEntries(scripts.map((script) => [script.file, kb(script.gzip)])),
    };
  } finally {
    await context.close();
  }
}
