/**
 * Brings a database up to date, on PGlite and PostgreSQL alike:
 *
 * - Migrations (./migrations, NNNN_<verb>_<noun>.sql) hold tables, indexes and data changes. Each
 *   is applied once, in order, in its own transaction, and recorded in schema_migration.
 * - Definitions (src/**\/sql/*.sql) hold functions and triggers: each file is the single current
 *   definition of what it creates (CREATE OR REPLACE). A file is applied whenever its checksum
 *   differs from the one recorded in schema_definition, as soon as the migrations it names in its
 *   first line (`-- after migration NNNN`) are in place: on a new database right after that
 *   migration, so a later data migration can call it; on an existing one before any pending
 *   migration. See docs/adr/0007-sql-definitions-applied-by-checksum.md.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** apps/server/src: definitions are the .sql files of every `sql` folder below it. */
const SOURCE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MIGRATION_LOCK_KEY = 7_310_001;
const AFTER_LINE = /^-- after migration (\d{4})\r?\n/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface Definition {
  /** The file's path from apps/server/src, e.g. `ledger/sql/ledger.sql`. */
  file: string;
  /** The last migration whose tables the definition needs. */
  after: number;
  sql: string;
  checksum: string;
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

/** Every `sql/*.sql` file below `dir`, in path order. */
export async function loadDefinitions(dir = SOURCE_DIR): Promise<Definition[]> {
  const entries = await readdir(dir, { recursive: true });
  const files = entries
    .map((entry) => entry.split(path.sep).join('/'))
    .filter((entry) => /(^|\/)sql\/[a-z0-9-]+\.sql$/.test(entry))
    .sort();
  const definitions: Definition[] = [];
  for (const file of files) {
    const sql = await readFile(path.join(dir, file), 'utf8');
    const after = AFTER_LINE.exec(sql);
    if (!after)
      throw new Error(`${file} must start with the line "-- after migration NNNN" (ADR 0007)`);
    definitions.push({
      file,
      after: Number(after[1]),
      sql,
      checksum: createHash('sha256').update(sql).digest('hex'),
    });
  }
  return definitions;
}

/** Returns what it applied: migrations by number and name, definitions by file. */
export async function migrate(
  db: Database,
  migrations?: Migration[],
  definitions?: Definition[],
): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  const defined = definitions ?? (await loadDefinitions());
  return db.withAdvisoryLock(MIGRATION_LOCK_KEY, async () => {
    await db.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS schema_definition (
      file text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await db.query<{ version: number }>('SELECT version FROM schema_migration')).rows.map(
        (row) => row.version,
      ),
    );
    const recorded = new Map(
      (
        await db.query<{ file: string; checksum: string }>(
          'SELECT file, checksum FROM schema_definition',
        )
      ).rows.map((row) => [row.file, row.checksum]),
    );
    const applied: string[] = [];

    // One multi-statement string runs as one implicit transaction on both databases: a failing
    // statement leaves nothing of the migration or definition behind.
    const run = async (what: string, sql: string, record: string) => {
      try {
        await db.exec(`${sql}\n;\n${record};`);
      } catch (error) {
        throw new Error(`${what} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(what);
    };

    /** Applies the changed definitions whose migrations are all in place. */
    const applyDefinitions = async (upTo: number) => {
      for (const definition of defined) {
        if (definition.after > upTo || recorded.get(definition.file) === definition.checksum)
          continue;
        if (!/^[a-z0-9/_.-]+$/.test(definition.file) || !/^[0-9a-f]{64}$/.test(definition.checksum))
          throw new Error(`Unexpected definition file name ${definition.file}`);
        await run(
          definition.file,
          definition.sql,
          `INSERT INTO schema_definition (file, checksum, applied_at)
           VALUES ('${definition.file}', '${definition.checksum}', now())
           ON CONFLICT (file) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
        );
        recorded.set(definition.file, definition.checksum);
      }
    };

    await applyDefinitions(done.size === 0 ? 0 : Math.max(...done));
    for (const migration of all) {
      if (done.has(migration.version)) continue;
      await run(
        `${String(migration.version).padStart(4, '0')}_${migration.name}`,
        migration.sql,
        `INSERT INTO schema_migration (version, name) VALUES (${migration.version}, '${migration.name}')`,
      );
      await applyDefinitions(migration.version);
    }
    return applied;
  });
}
