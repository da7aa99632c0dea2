// Shared helpers of the benchmarks: start the real server as a child process, wait for it, run
// autocannon, and make throwaway PostgreSQL databases.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

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
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
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

/** The first operator, whose password the server keeps in its data folder. */
export async function operatorLogin(base, dataDir) {
  const password = (await readFile(path.join(dataDir, 'admin-login.txt'), 'utf8')).trim();
  return postJson(`${base}/admin-api/auth/login`, { username: 'admin', password });
}

const PNG_1X1 =
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
