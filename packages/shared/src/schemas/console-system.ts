/**
 * Schemas of the console's ledger and system calls (consoleSystemApi): ledger verification runs
 * started from the console and kept with their verdict, the platform accounts' balances, and what
 * the server runs with (configuration without its secrets, migrations, version, instances, the
 * market feed's lease). Nothing here sets a balance: the ledger is only read.
 */
import { z } from 'zod';
import { intField, pageQuery } from './common';

/** The ledger verifier's checks, in the order it runs them (apps/server/src/ledger/verify.ts uses this list). */
export const LEDGER_CHECKS = [
  'conservation',
  'negative',
  'materialized',
  'unbalanced',
  'thin',
  'orphan',
  'crossBook',
  'holds',
  'counts',
] as const;
export type LedgerCheck = (typeof LEDGER_CHECKS)[number];

/**
 * A run's state: `running`, then `passed` (every invariant holds), `failed` (a violation found)
 * or `error` (the run could not finish: its instance stopped, or a query failed).
 */
export const LEDGER_RUN_STATUSES = ['running', 'passed', 'failed', 'error'] as const;
export type LedgerRunStatus = (typeof LEDGER_RUN_STATUSES)[number];

/** How the run saw the ledger (see docs/api.md, Ledger verification). */
export const LEDGER_SNAPSHOTS = ['transaction', 'perCheck'] as const;

export const PLATFORM_BOOKS = ['live', 'demo'] as const;

/** Platform accounts (owner `platform`): the other side of every user's money. */
export const PLATFORM_ACCOUNT_KINDS = [
  'external',
  'fees',
  'house',
  'interest',
  'rewards',
  'demo_faucet',
  'loans',
] as const;

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

// ---------------------------------------------------------------- inputs

export const ledgerRunListQuery = pageQuery.extend({
  status: z.preprocess(
    emptyToUndefined,
    z.enum(LEDGER_RUN_STATUSES, { error: 'hint_paramInvalid' }).optional(),
  ),
});

export const ledgerRunQuery = z.object({ id: intField(1, 2_147_483_647) });

export const platformBalanceQuery = pageQuery.extend({
  book: z.preprocess(
    (value) => (value === '' || value === undefined || value === null ? 'live' : value),
    z.enum(PLATFORM_BOOKS, { error: 'hint_paramInvalid' }),
  ),
});

// ---------------------------------------------------------------- answers

export const ledgerViolation = z.object({
  check: z.enum(LEDGER_CHECKS),
  values: z
    .record(z.string(), z.union([z.string(), z.number(), z.null()]))
    .describe(
      'What the check found (account, entry, user, book, currency, amounts); `more`: further violations of the check left out.',
    ),
  text: z
    .string()
    .describe('The verifier’s own line, in English, as `npm run ledger:verify` prints it.'),
});
export type LedgerViolation = z.output<typeof ledgerViolation>;

export const ledgerRun = z.object({
  id: z.number().int(),
  status: z.enum(LEDGER_RUN_STATUSES),
  startTime: z.string(),
  finishTime: z.string().nullable(),
  operatorId: z.number().int(),
  operatorName: z.string(),
  snapshot: z
    .enum(LEDGER_SNAPSHOTS)
    .describe(
      '`transaction`: one read-only REPEATABLE READ snapshot (PostgreSQL); `perCheck`: each check one statement, consistent on its own (embedded database).',
    ),
  step: z.number().int().describe('Checks done so far.'),
  steps: z.number().int(),
  check: z.enum(LEDGER_CHECKS).nullable().describe('The check running now.'),
  accounts: z.number().int().nullable(),
  entries: z.number().int().nullable(),
  postings: z.number().int().nullable(),
  violationCount: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type LedgerRun = z.output<typeof ledgerRun>;

export const ledgerRunDetail = ledgerRun.extend({
  violations: z.array(ledgerViolation).describe('At most 20 of each check, then a `more` line.'),
});
export type LedgerRunDetail = z.output<typeof ledgerRunDetail>;

export const platformBalance = z.object({
  book: z.enum(PLATFORM_BOOKS),
  kind: z.enum(PLATFORM_ACCOUNT_KINDS),
  currencyId: z.number().int(),
  currencyName: z.string(),
  balance: z.string().describe('The sum of the account’s shards, exact.'),
  shards: z.number().int(),
});
export type PlatformBalance = z.output<typeof platformBalance>;

export const configEntry = z.object({
  key: z.string(),
  value: z.string().nullable().describe('Null when unset, and always for a secret.'),
  secret: z.boolean(),
  set: z.boolean(),
});
export type ConfigEntry = z.output<typeof configEntry>;

export const appliedMigration = z.object({
  version: z.number().int(),
  name: z.string(),
  appliedTime: z.string(),
});

export const serverInstance = z.object({
  id: z.string().describe('The id the instance holds the market lease under.'),
  host: z.string(),
  pid: z.number().int(),
  startTime: z.string(),
  current: z.boolean(),
  feedLeader: z.boolean(),
  wsConnections: z.number().int().describe('/ws connections open on it.'),
});

export const marketLease = z.object({
  name: z.string(),
  holder: z.string(),
  expiresTime: z.string(),
  expired: z.boolean(),
});

export const schedulerJob = z.object({
  job: z.string().describe("The daily job: 'earn' or 'loans'."),
  firstDay: z.string().nullable().describe('The first day it ran (YYYY-MM-DD); null: never yet.'),
  lastFinishedDay: z.string().nullable().describe('The last day whose work is done.'),
  latest: z
    .object({
      day: z.string(),
      startedTime: z.string(),
      finishedTime: z.string().nullable().describe('Null while it runs, or when it failed.'),
      processed: z.number().int().describe('Orders or loans it processed.'),
      error: z.string().nullable().describe('Why it failed (it is retried at the next check).'),
    })
    .nullable()
    .describe('The latest day started.'),
});

export const schedulerInfo = z.object({
  utcTime: z.string().describe('The UTC time of day at which a day is due.'),
  nextRunTime: z.string(),
  jobs: z.array(schedulerJob),
});

export const systemInfo = z.object({
  version: z.string(),
  commit: z.string().nullable(),
  node: z.string(),
  database: z.enum(['pglite', 'postgres']),
  clustered: z
    .boolean()
    .describe('REDIS_URL is set: instances share ticks, one holds the feed lease.'),
  time: z.string(),
  config: z.array(configEntry),
  migrations: z.array(appliedMigration),
  instances: z.array(serverInstance),
  leases: z.array(marketLease),
  scheduler: schedulerInfo.describe(
    'The daily work (earn and loan interest, maturities, reminders).',
  ),
});
export type SystemInfo = z.output<typeof systemInfo>;
