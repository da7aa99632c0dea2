/** Opens the configured database and brings it up to date: migrations, then default settings. */
import path from 'node:path';
import type { Config } from './config';
import { openPglite, openPostgres, type Database } from './db/database';
import { migrate } from './db/migrate';
import { seedDefaults } from './db/seed';

export function pgliteDir(config: Config): string {
  return path.join(config.dataDir, 'pglite');
}

export async function openDatabase(config: Config): Promise<Database> {
  return config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, config.DATABASE_POOL_MAX)
    : openPglite(pgliteDir(config));
}

export async function prepareDatabase(db: Database): Promise<string[]> {
  const applied = await migrate(db);
  await seedDefaults(db);
  return applied;
}
