/**
 * The server of both apps' browser tests (their Vitest global setups): builds the app when its
 * sources changed since the last build (as `npm start` does; `npm ci` leaves no build), then
 * starts the real server (`apps/server/src/main.ts`) on a free port of 127.0.0.1 with a fresh
 * embedded database in a temporary DATA_DIR, no demo login, no verification codes and generous
 * rate limits. `stop` stops it and deletes the data.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** A fresh server builds its market history first; on a CI machine running three lanes that takes a while. */
const STARTUP_TIMEOUT_MS = 240_000;

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

async function waitForHealth(
  url: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
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

function stopChild(child: ChildProcess): Promise<void> {
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

export interface E2eServer {
  baseUrl: string;
  /** The server's DATA_DIR (the first operator's password file is there). */
  dataDir: string;
  /** The password the server generated for the first operator (`admin`) at its first start. */
  firstAdminPassword: string;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
}

export interface E2eServerOptions {
  /** The app under test (`apps/<app>`): built if stale, its `test-results/failures` emptied. */
  app: 'web' | 'admin';
  /** The start of the temporary DATA_DIR's name. */
  dataDirPrefix: string;
  /** Settings of the server beyond the common ones. */
  env?: Record<string, string>;
}

export async function startE2eServer({
  app,
  dataDirPrefix,
  env = {},
}: E2eServerOptions): Promise<E2eServer> {
  // Pictures of failed tests are from this run only.
  rmSync(path.join(repoRoot, `apps/${app}/test-results/failures`), {
    recursive: true,
    force: true,
  });
  execFileSync(process.execPath, [`apps/${app}/scripts/build-if-stale.mjs`], {
    cwd: repoRoot,
    stdio: 'inherit',
  });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
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
      LOG_LEVEL: 'warn',
      // An answer with a field the route table does not declare fails the browser test.
      API_CONTRACT_CHECK: 'strict',
      SEED_DEMO_USER: 'false',
      VERIFICATION_CODES: 'never',
      SMTP_URL: '',
      API_LINES: '',
      CORS_ORIGINS: '',
      RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
      RATE_LIMIT_REGISTER_PER_MINUTE: '100000',
      RATE_LIMIT_CODE_PER_MINUTE: '100000',
      RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let log = '';
  let started = false;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    // Before the server answers, keep what it says for the error; afterwards show its warnings.
    if (started) process.stderr.write(text.replace(/^(?=.)/gm, '[server] '));
    else log = (log + text).slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const stop = async () => {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  started = true;
  return {
    baseUrl,
    dataDir,
    // The server creates the first operator before it answers, and keeps its password here.
    firstAdminPassword: readFileSync(path.join(dataDir, 'admin-login.txt'), 'utf8').trim(),
    stop,
  };
}
