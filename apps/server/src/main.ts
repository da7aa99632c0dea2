/**
 * Starts the server: reads the environment, opens and prepares the database, listens, and prints
 * where to find the app and how to sign in to the demo account and the operator API.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, prepareDatabase } from './prepare';
import { DEMO_EMAIL, demoLogin } from './demo-login';
import { adminLogin } from './admin-login';

/** How long open requests and the database may take to finish once a stop is asked for. */
const SHUTDOWN_LIMIT_MS = 10_000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  const db = await openDatabase(config);
  const applied = await prepareDatabase(db);
  const app = await buildApp({ config, db });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal while shutting down: stopping at once');
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A database that stopped answering (a PostgreSQL gone away, an embedded data folder
    // deleted under the server) must not keep the process from ending.
    const deadline = setTimeout(() => {
      app.log.error({ limitMs: SHUTDOWN_LIMIT_MS }, 'shutdown did not finish in time: stopping');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    deadline.unref();
    try {
      await app.close();
      await db.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // The first operator exists before the server answers, so its login works from the first request.
  const admin = await adminLogin(config, db);
  await app.listen({ host: config.HOST, port: config.PORT });
  const port = (app.server.address() as { port: number }).port;
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const url = config.PUBLIC_URL ?? `http://${shownHost}:${port}`;
  const lines = [
    '',
    `  Bourse is running at ${url}`,
    `  Database: ${db.kind === 'pglite' ? `embedded PGlite in ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL'}`,
  ];
  if (config.seedDemoUser) {
    const password = await demoLogin(config, app.services.accounts);
    lines.push(
      password
        ? `  Demo login: ${DEMO_EMAIL} / ${password}`
        : `  Demo login: ${DEMO_EMAIL} (its password file ${path.join(config.dataDir, 'demo-login.txt')} is missing)`,
    );
  }
  // The operator console (apps/admin) when it is built, else the operator API alone.
  const operatorPlace = existsSync(path.join(config.adminDir, 'index.html'))
    ? `console ${url}/admin/`
    : '/admin-api';
  if (admin.password) {
    lines.push(
      `  Operator login (${operatorPlace}): ${admin.username} / ${admin.password}`,
      `    shown once; kept in ${admin.file} (mode 600). The console asks for a new one at the first sign-in, then sets up two-factor.`,
    );
  } else {
    lines.push(
      admin.fileExists
        ? `  Operator login (${operatorPlace}): ${admin.username}, first password in ${admin.file}`
        : admin.retired
          ? `  Operator login (${operatorPlace}): ${admin.username}, with the password it was changed to (${admin.file} says when)`
          : `  Operator login (${operatorPlace}): the operators created earlier (no password file in ${config.dataDir})`,
    );
  }
  console.log(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
