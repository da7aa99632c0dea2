/**
 * SQL functions and triggers are defined once, in src/**\/sql/*.sql (ADR 0007): migrations hold
 * none; a new database runs exactly the files' definitions and records their checksums; a changed
 * file is applied again at the next start, an unchanged one is not; a file without its
 * `-- after migration` line is refused.
 */
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitions, loadMigrations, migrate, type Definition } from '../src/db/migrate';
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers';

const migrationsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../src/db/migrations',
);

/** The names of the functions a definition file creates. */
function functionsOf(definition: Definition): string[] {
  return [...definition.sql.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\(/g)].map((m) => m[1]!);
}

/** The body between the first `$$` pair after a function's name. */
function bodyOf(sql: string, name: string): string {
  const start = sql.indexOf(`FUNCTION ${name}(`);
  const open = sql.indexOf('$$', start) + 2;
  return sql.slice(open, sql.indexOf('$$', open));
}

describe(`SQL definitions (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let database: TestDatabase;
  let definitions: Definition[];

  beforeAll(async () => {
    database = await createTestDatabase();
    definitions = await loadDefinitions();
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('keeps functions and triggers out of the migrations', async () => {
    for (const file of await readdir(migrationsDir)) {
      const sql = await readFile(path.join(migrationsDir, file), 'utf8');
      expect(sql, file).not.toMatch(/CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|TRIGGER)/i);
    }
  });

  it('runs exactly the definitions of the files on a new database, checksums recorded', async () => {
    expect(definitions.map((definition) => definition.file)).toEqual([
      'ledger/sql/ledger.sql',
      'modules/admin/sql/audit.sql',
      'modules/referral/sql/referral.sql',
      'modules/trading/sql/contract-open.sql',
    ]);
    const { rows } = await database.db.query<{ file: string; checksum: string }>(
      'SELECT file, checksum FROM schema_definition ORDER BY file',
    );
    expect(rows).toEqual(definitions.map(({ file, checksum }) => ({ file, checksum })));
    for (const definition of definitions) {
      for (const name of functionsOf(definition)) {
        const { rows: found } = await database.db.query<{ source: string }>(
          'SELECT prosrc AS source FROM pg_proc WHERE proname = $1',
          [name],
        );
        expect(found, name).toHaveLength(1);
        expect(found[0]!.source, name).toBe(bodyOf(definition.sql, name));
      }
    }
    const { rows: triggers } = await database.db.query<{ name: string }>(
      'SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname',
    );
    expect(triggers.map((trigger) => trigger.name)).toEqual([
      'audit_log_append_only',
      'audit_log_never_truncated',
      'ledger_account_never_deleted',
      'ledger_entry_append_only',
      'ledger_posting_append_only',
      'operator_never_deleted',
      'referral_ancestry_of_new_user',
      'referral_contract_fee',
      'referral_fast_fee',
      'referral_spot_fee',
    ]);
  });

  it('replaces the functions and triggers a database made before this rule already has', async () => {
    // A database that ran the old migrations has every function and trigger but no checksums.
    await database.db.exec('DELETE FROM schema_definition');
    const applied = await migrate(database.db, await loadMigrations(), definitions);
    expect(applied).toEqual(definitions.map((definition) => definition.file));
    const { rows } = await database.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM pg_trigger WHERE NOT tgisinternal',
    );
    expect(rows[0]!.count).toBe(10);
  });

  it('applies a changed definition at the next start, and an unchanged one not again', async () => {
    const migrations = await loadMigrations();
    const probe = (answer: number, checksum: string): Definition => ({
      file: 'probe/sql/probe.sql',
      after: 1,
      sql: `CREATE OR REPLACE FUNCTION definition_probe() RETURNS integer LANGUAGE sql AS 'SELECT ${answer}'`,
      checksum: checksum.repeat(64),
    });
    const first = await migrate(database.db, migrations, [...definitions, probe(1, 'a')]);
    expect(first).toEqual(['probe/sql/probe.sql']);
    expect(await migrate(database.db, migrations, [...definitions, probe(1, 'a')])).toEqual([]);
    expect(await migrate(database.db, migrations, [...definitions, probe(2, 'b')])).toEqual([
      'probe/sql/probe.sql',
    ]);
    const { rows } = await database.db.query<{ answer: number }>(
      'SELECT definition_probe() AS answer',
    );
    expect(rows[0]!.answer).toBe(2);
  });
});

describe('definition files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-definitions-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('are found in every sql folder, and refused without their "after migration" line', async () => {
    await mkdir(path.join(dir, 'modules/earn/sql'), { recursive: true });
    await writeFile(
      path.join(dir, 'modules/earn/sql/interest.sql'),
      '-- after migration 0021\nSELECT 1;\n',
    );
    expect(await loadDefinitions(dir)).toEqual([
      expect.objectContaining({ file: 'modules/earn/sql/interest.sql', after: 21 }),
    ]);
    await writeFile(path.join(dir, 'modules/earn/sql/loans.sql'), 'SELECT 1;\n');
    await expect(loadDefinitions(dir)).rejects.toThrow(/after migration NNNN/);
  });
});
