import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openPglite, openPostgres, type Database } from '../src/db/database';
import { prepareDatabase } from '../src/prepare';
import { verifyLedger } from '../src/ledger/verify';
import {
  call,
  createTestDatabase,
  GOOD_PASSWORD,
  onPostgres,
  registerUser,
  testConfig,
  type TestDatabase,
} from './helpers';

const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Opens the same stored database again, as a restarted server would. */
async function opener(): Promise<{ open: () => Promise<Database>; first: Database }> {
  if (onPostgres) {
    const database: TestDatabase = await createTestDatabase();
    cleanups.push(() => database.dispose());
    return { first: database.db, open: () => openPostgres(database.url!, 5) };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-restart-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const dataDir = path.join(dir, 'pglite');
  const first = await openPglite(dataDir);
  await prepareDatabase(first);
  return { first, open: () => openPglite(dataDir) };
}

it('keeps users, sessions, balances and settings across a restart', async () => {
  const { first, open } = await opener();
  const config = testConfig();
  const app1 = await buildApp({ config, db: first, logger: false });
  const { token, email } = await registerUser(app1);
  await call(app1, 'GET', '/api/userInfo/changeLoginModel', { token, query: { accountType: '2' } });
  await call(app1, 'POST', '/api/userInfo/modifyUserInfo', {
    token,
    form: { nickName: 'Before Restart' },
  });
  await first.query("UPDATE switch_set SET status = 0 WHERE switch_name = 'maskBankCard'");
  await app1.close();
  await first.close();

  const second = await open();
  cleanups.push(() => second.close());
  expect(await prepareDatabase(second)).toEqual([]);
  const app2 = await buildApp({ config, db: second, logger: false });
  cleanups.push(() => app2.close());

  const me = await call(app2, 'GET', '/api/userInfo/getUserInfo', { token });
  expect(me.status).toBe(200);
  expect(me.body.data).toMatchObject({ nickName: 'Before Restart', accountType: 2 });
  const balance = await call(app2, 'GET', '/api/userInfo/userBalance', {
    token,
    query: { currencyId: '3' },
  });
  expect(balance.body.data.amount).toBe('100000.0000');
  const login = await call(app2, 'POST', '/api/userInfo/login', {
    form: { userAccount: email, userPwd: GOOD_PASSWORD },
  });
  expect(login.status).toBe(200);
  const switches = await call(app2, 'GET', '/api/switchSet/list');
  expect(switches.body.rows!.find((row) => row.switchName === 'maskBankCard').status).toBe(0);
  expect((await verifyLedger(second)).ok).toBe(true);
});
