/**
 * One database interface over PGlite (embedded, in DATA_DIR) and PostgreSQL (node-postgres).
 * Both speak the PostgreSQL dialect and return the same value types: int8 as JS numbers (ids and
 * counts only), NUMERIC as strings (money), timestamptz as Date, json as objects.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * Name of a hot statement: PostgreSQL then parses and plans it once per connection (a
   * prepared statement) instead of on every call. The same name must always carry the same SQL.
   */
  name?: string;
}

export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<T>>;
}

export interface TransactionOptions {
  /** Times to re-run the whole transaction after a deadlock or serialization failure. */
  retries?: number;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Runs several statements at once (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `work` holding a cluster-wide advisory lock (PostgreSQL), so that one server instance at
   * a time does it. PGlite has a single process: its holders take turns in it.
   */
  withAdvisoryLock<T>(key: number, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Error codes after which a transaction may simply be run again. */
const RETRYABLE = new Set(['40001', '40P01']);

function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed))
    throw new RangeError(`int8 value ${value} exceeds the safe integer range`);
  return parsed;
}

// ---------------------------------------------------------------- PGlite

/**
 * PGlite has one connection, so transactions are serialized: a transaction holds the lock until
 * it ends, and plain queries wait for it. Code inside a transaction must therefore use the
 * transaction handle it was given, never the database: a query on the database would wait for
 * the transaction that is waiting for it. (Detecting that would need AsyncLocalStorage, whose
 * promise hooks slow every request on Node 20.)
 */
class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: PGlite) {}

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
    return this.exclusive(async () => {
      const result = await this.db.query<T>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    });
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      await this.db.exec('BEGIN');
      const tx: Queryable = {
        query: async <R>(sql: string, params: readonly unknown[] = []) => {
          const result = await this.db.query<R>(sql, params as unknown[]);
          return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
        },
      };
      try {
        const result = await work(tx);
        await this.db.exec('COMMIT');
        return result;
      } catch (error) {
        await this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  exec(sql: string): Promise<void> {
    return this.exclusive(async () => {
      await this.db.exec(sql);
    });
  }

  async dump(): Promise<Blob> {
    return this.exclusive(() => this.db.dumpDataDir('none'));
  }

  /** Holders of each advisory lock in this process, in turn (PGlite has no other process). */
  private readonly locks = new Map<number, Promise<unknown>>();

  withAdvisoryLock<T>(key: number, work: () => Promise<T>): Promise<T> {
    const before = this.locks.get(key) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(work);
    const held = mine.catch(() => undefined);
    this.locks.set(key, held);
    void held.then(() => {
      if (this.locks.get(key) === held) this.locks.delete(key);
    });
    return mine;
  }

  async close(): Promise<void> {
    await this.tail.catch(() => undefined);
    if (!this.db.closed) await this.db.close();
  }
}

/** A copy of a PGlite database's files, to start another from (openPglite's `loadDataDir`). */
export function dumpPglite(db: Database): Promise<Blob> {
  if (!(db instanceof PgliteDatabase)) throw new Error('not a PGlite database');
  return db.dump();
}

/**
 * Opens PGlite in `dataDir` (a folder kept across restarts) or in memory when it is omitted;
 * `loadDataDir` starts it from a copy of another database (PGlite's dumpDataDir: tests start from a
 * database migrated once).
 */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  if (dataDir) await mkdir(path.dirname(path.resolve(dataDir)), { recursive: true });
  // One options object: PGlite reads its second argument only when the first is a folder, so an
  // in-memory database (the tests') was opened without these parsers.
  const db = new PGlite({
    dataDir,
    loadDataDir,
    parsers: {
      [pgliteTypes.INT8]: (value: string) => parseInt8(value),
      [pgliteTypes.NUMERIC]: (value: string) => value,
    },
  });
  await db.waitReady;
  return new PgliteDatabase(db);
}

// ---------------------------------------------------------------- PostgreSQL

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return parseInt8;
    if (oid === 1700) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;

  /** Work under way (a query, a transaction, a lock), which close() lets finish. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing = false;

  constructor(private readonly pool: pg.Pool) {}

  /**
   * Runs `work` as in-flight work. pg's pool, ended while a query waits for an idle connection,
   * never answers that query; so close() first lets what started finish and refuses what comes after.
   */
  private track<T>(work: () => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(new Error('the database is closed'));
    const running = work();
    this.inFlight.add(running);
    const settled = () => this.inFlight.delete(running);
    running.then(settled, settled);
    return running;
  }

  query<T>(
    sql: string,
    params: readonly unknown[] = [],
    options: QueryOptions = {},
  ): Promise<QueryResult<T>> {
    return this.track(() => this.runQuery<T>(sql, params, options));
  }

  private async runQuery<T>(
    sql: string,
    params: readonly unknown[],
    options: QueryOptions,
  ): Promise<QueryResult<T>> {
    const result = await this.pool.query({
      text: sql,
      values: params as unknown[],
      name: options.name,
    });
    return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
  }

  transaction<T>(
    work: (tx: Queryable) => Promise<T>,
    options: TransactionOptions = {},
  ): Promise<T> {
    return this.track(() => this.runTransaction(work, options));
  }

  private async runTransaction<T>(
    work: (tx: Queryable) => Promise<T>,
    options: TransactionOptions,
  ): Promise<T> {
    const retries = options.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const client = await this.pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const tx: Queryable = {
          query: async <R>(
            sql: string,
            params: readonly unknown[] = [],
            queryOptions: QueryOptions = {},
          ) => {
            const result = await client.query({
              text: sql,
              values: params as unknown[],
              name: queryOptions.name,
            });
            return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
          },
        };
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        const code = (error as { code?: string }).code;
        if (code && RETRYABLE.has(code) && attempt < retries) continue;
        throw error;
      } finally {
        client.release(broken);
      }
    }
  }

  async exec(sql: string): Promise<void> {
    await this.track(() => this.pool.query(sql));
  }

  withAdvisoryLock<T>(key: number, work: () => Promise<T>): Promise<T> {
    return this.track(() => this.runLocked(key, work));
  }

  private async runLocked<T>(key: number, work: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [key]);
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
      client.release();
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.pool.end();
  }
}

const POOL_IDLE_MS = 5 * 60_000;

export async function openPostgres(connectionString: string, poolMax = 20): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: poolMax,
    // pg closes a connection after 10 s idle by default. Under bursty load that means closing
    // backends a burst opened and opening new ones at the next: each a fork, a sign-in and cold
    // caches (the ledger functions compiled again), and several backends exiting at once stalled
    // this machine for 150-200 ms (bench/market-orders.mjs). Kept for 5 minutes, the pool follows
    // the traffic of the day, not of the second, and still shrinks on a quiet server.
    idleTimeoutMillis: POOL_IDLE_MS,
    types: pgTypes,
    application_name: 'bourse',
  });
  // A broken idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const client = await pool.connect();
  client.release();
  return new PostgresDatabase(pool);
}

/** The first row a statement returns, or undefined when it returns none. */
export async function firstRow<T>(
  q: Queryable,
  sql: string,
  params?: readonly unknown[],
  options?: QueryOptions,
): Promise<T | undefined> {
  return (await q.query<T>(sql, params, options)).rows[0];
}

/** Every row a statement returns. */
export async function allRows<T>(
  q: Queryable,
  sql: string,
  params?: readonly unknown[],
  options?: QueryOptions,
): Promise<T[]> {
  return (await q.query<T>(sql, params, options)).rows;
}

/**
 * The row a statement always returns: an INSERT … RETURNING, or an UPDATE … RETURNING of a row
 * the transaction has locked. No row is a bug, not an answer.
 */
export async function oneRow<T>(
  q: Queryable,
  sql: string,
  params?: readonly unknown[],
  options?: QueryOptions,
): Promise<T> {
  const row = (await q.query<T>(sql, params, options)).rows[0];
  if (row === undefined) throw new Error('the statement returned no row');
  return row;
}
