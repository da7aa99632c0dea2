/**
 * The console's browser tests' server (tools/e2e-server.ts): the real server with a fresh
 * embedded database on a free port, the console built if stale, the simulated market feed (as
 * `npm start` runs: the dashboard's feed and trading figures, the products of the settings), API
 * lines set and a 72-hour notice for withdrawal terms. One server for every file of the project; tests read its address, the first operator's generated password and
 * the data folder with `inject`. Teardown stops it and deletes the data.
 */
import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startE2eServer } from '../../../tools/e2e-server';

/** The notice before a withdrawal channel's terms get worse, in this server. */
export const NOTICE_HOURS = 72;

declare module 'vitest' {
  export interface ProvidedContext {
    consoleBaseUrl: string;
    /** The password the server generated for the first operator (`admin`) at its first start. */
    firstAdminPassword: string;
    /** The server's DATA_DIR (the first password's file is there). */
    consoleDataDir: string;
  }
}

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  // The user app too (user-journey.test.ts deposits through its screens): built if stale, under
  // the build lock the web app's own browser tests share.
  execFileSync(process.execPath, ['apps/web/scripts/build-if-stale.mjs'], {
    cwd: new URL('../../..', import.meta.url).pathname,
    stdio: 'inherit',
  });
  const server = await startE2eServer({
    app: 'admin',
    dataDirPrefix: 'bourse-console-e2e-',
    // ADMIN_DIR empty: the console's own build (apps/admin/dist).
    env: {
      ADMIN_DIR: '',
      MARKET_FEED: 'simulated',
      API_LINES: 'Asia|https://asia.example.com,Europe|https://eu.example.com',
      WITHDRAW_TERMS_NOTICE_HOURS: String(NOTICE_HOURS),
    },
  });
  provide('consoleBaseUrl', server.baseUrl);
  provide('consoleDataDir', server.dataDir);
  provide('firstAdminPassword', server.firstAdminPassword);
  return server.stop;
}
