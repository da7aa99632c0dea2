/**
 * Applies the SQL files of ./migrations in order (NNNN_<verb>_<noun>.sql), each in its own
 * transaction, and records them in schema_migration. The same files serve PGlite and PostgreSQL.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_LOCK_KEY = 7_310_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file)).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    migrations.push({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: await readFile(path.join(dir, file), 'utf8'),
    });
  }
  const versions = new Set(migrations.map((m) => m.version));
  if (versions.size !== migrations.length) throw new Error('Two migrations share a version number');
  return migrations;
}

/** Returns the names of the migrations it applied. */
export async function migrate(db: Database, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  return db.withAdvisoryLock(MIGRATION_LOCK_KEY, async () => {
    await db.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await db.query<{ version: number }>('SELECT version FROM schema_migration')).rows.map(
        (row) => row.version,
      ),
    );
    const applied: string[] = [];
    for (const migration of all) {
      if (done.has(migration.version)) continue;
      // One multi-statement string runs as one implicit transaction on both databases: a failing
      // statement leaves nothing of the migration behind.
      const recorded = `INSERT INTO schema_migration (version, name) VALUES (${migration.version}, '${migration.name}')`;
      try {
        await db.exec(`${migration.sql}\n;\n${recorded};`);
      } catch (error) {
        throw new Error(
          `Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
      applied.push(`${String(migration.version).padStart(4, '0')}_${migration.name}`);
    }
    return applied;
  });
}
