/**
 * The console's browser tests' server: builds the console when its sources changed since the last
 * build (as `npm start` does; `npm ci` leaves no build), then starts the real server
 * (`apps/server/src/main.ts`) on a free port of 127.0.0.1 with a fresh embedded database in a
 * temporary DATA_DIR, no demo login, no verification codes and generous rate limits. One server
 * for every file of the project; tests read its address, the first operator's generated password
 * and the data folder with `inject`. Teardown stops it and deletes the data.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    consoleBaseUrl: string;
    /** The password the server generated for the first operator (`admin`) at its first start. */
    firstAdminPassword: string;
    /** The server's DATA_DIR (the first password's file is there). */
    consoleDataDir: string;
  }
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const STARTUP_TIMEOUT_MS = 90_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `The server stopped before answering (${child.exitCode ?? child.signalCode}):\n${output()}`,
      );
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(
    `The server did not answer /healthz within ${STARTUP_TIMEOUT_MS} ms:\n${output()}`,
  );
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  rmSync(path.join(repoRoot, 'apps/admin/test-results/failures'), { recursive: true, force: true });
  execFileSync(process.execPath, ['apps/admin/scripts/build-if-stale.mjs'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bourse-console-e2e-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      INIT_CWD: repoRoot,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_DIR: '',
      LOG_LEVEL: 'warn',
      // An answer with a field the route table does not declare fails the test.
      API_CONTRACT_CHECK: 'strict',
      SEED_DEMO_USER: 'false',
      VERIFICATION_CODES: 'never',
      // The queues and the audit log need no prices.
      MARKET_FEED: 'off',
      SMTP_URL: '',
      API_LINES: '',
      CORS_ORIGINS: '',
      RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
      RATE_LIMIT_REGISTER_PER_MINUTE: '100000',
      RATE_LIMIT_CODE_PER_MINUTE: '100000',
      RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let log = '';
  let started = false;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (started) process.stderr.write(text.replace(/^(?=.)/gm, '[server] '));
    else log = (log + text).slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  started = true;
  provide('consoleBaseUrl', baseUrl);
  provide('consoleDataDir', dataDir);
  provide('firstAdminPassword', readFileSync(path.join(dataDir, 'admin-login.txt'), 'utf8').trim());

  return async () => {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
