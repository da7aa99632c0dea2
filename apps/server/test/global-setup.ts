/**
 * The server tests' template database, migrated and seeded once per run instead of once per test
 * database (each test file makes several: on two cores that was minutes of every CI run). On
 * PGlite it is a dump of a prepared database that each test database starts from (PGlite's
 * loadDataDir); on PostgreSQL a database each test database is created from (CREATE DATABASE …
 * TEMPLATE, a file copy). Tests read them with `inject` (helpers.ts createTestDatabase); teardown
 * deletes them.
 */
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { dumpPglite, openPglite, openPostgres } from '../src/db/database';
import { prepareDatabase } from '../src/prepare';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the dump of a prepared PGlite database (server-pglite). */
    pgliteTemplate: string;
    /** A prepared PostgreSQL database to create test databases from (server-postgres). */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const name = `bourse_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (project.name === 'server-postgres') {
    const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = await openPostgres(url.toString(), 2);
    await prepareDatabase(db);
    // No connection may stay open on a template while databases are created from it.
    await db.close();
    project.provide('postgresTemplate', name);
    return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const db = await openPglite();
  await prepareDatabase(db);
  const dump = await dumpPglite(db);
  await db.close();
  const file = path.join(os.tmpdir(), `${name}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rm(file, { force: true });
}
