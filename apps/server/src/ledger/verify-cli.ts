/**
 * `npm run ledger:verify`: proves the ledger's invariants on the configured database
 * (DATABASE_URL, or the embedded database in DATA_DIR; stop the server first when it uses the
 * embedded one, which allows one process at a time). Exits 1 when any invariant fails.
 */
import { ConfigError, loadConfig } from '../config';
import { openDatabase, prepareDatabase } from '../prepare';
import { verifyLedger } from './verify';

async function run(): Promise<number> {
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    await prepareDatabase(db);
    const report = await verifyLedger(db);
    const where = db.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
    console.log(
      `Ledger on ${where}: ${report.accounts} accounts, ${report.entries} entries, ${report.postings} postings.`,
    );
    if (report.ok) {
      console.log(
        'OK: every currency balances to zero, no user balance is negative, balances equal their postings,',
      );
      console.log('every entry balances, and frozen funds equal the pending holds.');
      return 0;
    }
    console.error(`FAILED: ${report.problems.length} problem(s):`);
    for (const problem of report.problems) console.error(`  - ${problem}`);
    return 1;
  } finally {
    await db.close();
  }
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(2);
  },
);
