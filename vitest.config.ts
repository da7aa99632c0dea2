/**
 * One test run for the whole repository: the shared rules, the web app's logic (jsdom) and its
 * browser tests (Playwright with Debian's Chromium against the real server), the operator
 * console's browser tests (the same, at a desktop viewport). Server tests run twice: against the
 * embedded PGlite and against a real PostgreSQL. The PostgreSQL project is included when the
 * server answers (TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres); with
 * REQUIRE_POSTGRES=1 (CI) it is always included, so an unreachable server fails the run instead of
 * being skipped.
 *
 * `npm test` runs three vitest processes side by side (package.json, through `concurrently`): the
 * checks then the unit and server projects, the web app's browser tests, and the console's. In
 * one process Vitest runs the files of projects without file parallelism (each browser project
 * shares one server, and some of its files change platform settings) one at a time after every
 * other file, so the two browser projects, most of the run's time, never overlapped anything.
 */
import net from 'node:net';
import os from 'node:os';
import { defineConfig } from 'vitest/config';

const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 5432) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

export default defineConfig(async () => {
  const withPostgres = process.env.REQUIRE_POSTGRES === '1' || (await reachable(postgresUrl));
  if (!withPostgres)
    console.warn(`PostgreSQL at ${postgresUrl} is not reachable: server tests run on PGlite only.`);
  const server = (name: string, db: string) => ({
    test: {
      name,
      include: ['apps/server/test/**/*.test.ts'],
      environment: 'node',
      env: { TEST_DB: db, TEST_POSTGRES_URL: postgresUrl, TZ: 'UTC' },
      // The run's template database: migrated and seeded once, copied for each test database.
      globalSetup: ['apps/server/test/global-setup.ts'],
      // Limits, not targets: on two cores running three lanes a test that takes 5 s alone
      // (the fuzz walk) has taken over a minute.
      testTimeout: 180_000,
      hookTimeout: 240_000,
    },
  });
  return {
    test: {
      // In CI each file's timings are kept too (test-results/vitest-<lane>.json: `npm test` runs
      // three lanes side by side), to see what the run's time goes to.
      reporters: process.env.CI
        ? [
            'default',
            [
              'json',
              { outputFile: `test-results/vitest-${process.env.VITEST_LANE ?? 'all'}.json` },
            ],
          ]
        : ['default'],
      // Vitest's default on a 2-core machine is a single worker, which ran every file one after
      // another (~15 min in CI); most server files wait on PostgreSQL or PGlite, so two overlap well.
      maxWorkers: Math.max(2, os.availableParallelism() - 1),
      projects: [
        {
          test: {
            name: 'shared',
            include: ['packages/shared/**/*.test.ts'],
            environment: 'node',
            env: { TZ: 'UTC' },
            // The property walks take 1-3 s alone and over 5 s (the default) beside the browser
            // lanes on two cores: a limit against hanging, not a target.
            testTimeout: 60_000,
          },
        },
        {
          test: {
            name: 'web',
            include: ['apps/web/src/**/*.test.ts'],
            environment: 'jsdom',
            env: { TZ: 'UTC' },
          },
        },
        {
          // The browser tests: the real server and Debian's Chromium at a phone viewport.
          test: {
            name: 'e2e',
            include: ['apps/web/e2e/**/*.test.ts'],
            environment: 'node',
            globalSetup: ['apps/web/e2e/global-setup.ts'],
            fileParallelism: false,
            // A journey of several screens (sign-ups, password hashing, an operator's steps) can
            // take a minute on a CI machine whose two cores run three lanes; a limit, not a target.
            testTimeout: 120_000,
            hookTimeout: 240_000,
            // What a screen shows can take seconds to come on a loaded machine (the three lanes of
            // `npm test` share two cores); expect.poll's own default gives up after one.
            expect: { poll: { timeout: 10_000 } },
          },
        },
        {
          // The operator console's browser tests: the real server and Debian's Chromium at 1440×900.
          test: {
            name: 'admin-e2e',
            include: ['apps/admin/e2e/**/*.test.ts'],
            environment: 'node',
            globalSetup: ['apps/admin/e2e/global-setup.ts'],
            fileParallelism: false,
            testTimeout: 120_000,
            hookTimeout: 240_000,
            expect: { poll: { timeout: 10_000 } },
          },
        },
        server('server-pglite', 'pglite'),
        ...(withPostgres ? [server('server-postgres', 'postgres')] : []),
      ],
    },
  };
});
