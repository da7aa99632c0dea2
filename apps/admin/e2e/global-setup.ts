/**
 * The console's browser tests' servers (tools/e2e-server.ts), each the real server with a fresh
 * embedded database on a free port, the console built if stale:
 * - the one every file shares: the simulated market feed (as `npm start` runs: the dashboard's
 *   feed and trading figures, the products of the settings), API lines set and a 72-hour notice
 *   for withdrawal terms. Its first operator, `admin`, is made ready here once: the generated
 *   password changed (to an interim one and back, so it keeps signing in) and two-factor on (its
 *   role requires it). Files get a session of it (`firstAdminToken`) and never end it, so any of
 *   them may run first;
 * - a fresh installation nobody signs in to but the first-sign-in test, which walks the first
 *   admin's whole first sign-in (its own password, then two-factor) in the browser.
 * Tests read the addresses, passwords and data folders with `inject`. Two-factor codes are made
 * from a file of secrets and last steps shared by every file (codes.ts). Teardown stops both
 * servers and deletes their data.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { consoleOperatorsApi, operatorsApi } from '@bourse/shared';
import { startE2eServer } from '../../../tools/e2e-server';
import { createClient } from '../src/api/client';
import { accountOf, nextCode, rememberSecret } from './codes';

/** The notice before a withdrawal channel's terms get worse, in this server. */
export const NOTICE_HOURS = 72;

declare module 'vitest' {
  export interface ProvidedContext {
    consoleBaseUrl: string;
    /** The password the server generated for the first operator (`admin`) at its first start. */
    firstAdminPassword: string;
    /** A session of `admin`, password chosen and two-factor on: no file ends it. */
    firstAdminToken: string;
    /** The secret of `admin`'s authenticator app (its codes: codes.ts). */
    firstAdminSecret: string;
    /** The server's DATA_DIR (the first password's file is there). */
    consoleDataDir: string;
    /** The file of operators' two-factor secrets and last steps used (codes.ts). */
    twoFactorFile: string;
    /** The fresh installation of the first-sign-in test. */
    freshConsole: { baseUrl: string; firstAdminPassword: string; dataDir: string };
  }
}

function client(baseUrl: string, token?: string) {
  return createClient({
    baseUrl,
    token: () => token,
    language: () => ({ id: 2, bcp47: 'en' }),
  });
}

async function signedIn(baseUrl: string, password: string): Promise<string> {
  const answer = await client(baseUrl).call(operatorsApi.signIn, { username: 'admin', password });
  if ('challenge' in answer) throw new Error('admin has two-factor on before the tests set it up');
  return answer.token;
}

/**
 * The first admin ready for every file: the generated password changed to an interim one and
 * back (an operator who never chose one may make no other call), then two-factor set up and on.
 */
async function readyFirstAdmin(baseUrl: string, password: string, twoFactorFile: string) {
  const interim = `${password} (interim)`;
  await client(baseUrl, await signedIn(baseUrl, password)).send(operatorsApi.changePassword, {
    oldPassword: password,
    newPassword: interim,
  });
  await client(baseUrl, await signedIn(baseUrl, interim)).send(operatorsApi.changePassword, {
    oldPassword: interim,
    newPassword: password,
  });
  const token = await signedIn(baseUrl, password);
  const { secret } = await client(baseUrl, token).call(consoleOperatorsApi.twoFactorSetup, {
    password,
  });
  rememberSecret(twoFactorFile, accountOf('admin', baseUrl), secret);
  await client(baseUrl, token).call(consoleOperatorsApi.twoFactorEnable, {
    code: await nextCode(twoFactorFile, accountOf('admin', baseUrl)),
  });
  return { token, secret };
}

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  // The user app too (user-journey.test.ts deposits through its screens): built if stale, under
  // the build lock the web app's own browser tests share.
  execFileSync(process.execPath, ['apps/web/scripts/build-if-stale.mjs'], {
    cwd: new URL('../../..', import.meta.url).pathname,
    stdio: 'inherit',
  });
  const codesDir = mkdtempSync(path.join(os.tmpdir(), 'bourse-console-e2e-codes-'));
  const twoFactorFile = path.join(codesDir, 'two-factor.json');
  // ADMIN_DIR empty: the console's own build (apps/admin/dist).
  const [server, fresh] = await Promise.all([
    startE2eServer({
      app: 'admin',
      dataDirPrefix: 'bourse-console-e2e-',
      env: {
        ADMIN_DIR: '',
        MARKET_FEED: 'simulated',
        API_LINES: 'Asia|https://asia.example.com,Europe|https://eu.example.com',
        WITHDRAW_TERMS_NOTICE_HOURS: String(NOTICE_HOURS),
        // New shares' windows and allocations run by the clock within a test (new-shares.test.ts).
        NEW_SHARES_CHECK_MS: '500',
      },
    }),
    // Nothing but sign-in happens there: no market feed to run.
    startE2eServer({
      app: 'admin',
      dataDirPrefix: 'bourse-console-e2e-fresh-',
      env: { ADMIN_DIR: '', MARKET_FEED: 'off' },
    }),
  ]);
  const stop = async () => {
    await Promise.all([server.stop(), fresh.stop()]);
    rmSync(codesDir, { recursive: true, force: true });
  };
  try {
    const admin = await readyFirstAdmin(server.baseUrl, server.firstAdminPassword, twoFactorFile);
    provide('firstAdminToken', admin.token);
    provide('firstAdminSecret', admin.secret);
  } catch (error) {
    await stop();
    throw error;
  }
  provide('consoleBaseUrl', server.baseUrl);
  provide('consoleDataDir', server.dataDir);
  provide('firstAdminPassword', server.firstAdminPassword);
  provide('twoFactorFile', twoFactorFile);
  provide('freshConsole', {
    baseUrl: fresh.baseUrl,
    firstAdminPassword: fresh.firstAdminPassword,
    dataDir: fresh.dataDir,
  });
  return stop;
}
