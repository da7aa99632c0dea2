import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, demoLogin } from '../src/demo-login';
import { call, createTestApp, testConfig, type TestApp } from './helpers';

let t: TestApp;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-demo-'));
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

it('creates the demo login once, keeps its password private, and it opens the demo account', async () => {
  const config = testConfig({ DATA_DIR: path.join(dir, 'data') });
  const password = await demoLogin(config, t.app.services.accounts);
  expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
  const file = await stat(path.join(config.dataDir, 'demo-login.txt'));
  expect(file.mode & 0o777).toBe(0o600);
  expect(await demoLogin(config, t.app.services.accounts)).toBe(password);

  const login = await call(t.app, 'POST', '/api/userInfo/login', {
    form: { userAccount: DEMO_EMAIL, userPwd: password! },
  });
  expect(login.body.data.userInfo.accountType).toBe(2);
  const balance = await call(t.app, 'GET', '/api/userInfo/userBalance', {
    token: login.body.data.token,
    query: { currencyId: '3' },
  });
  expect(balance.body.data.amount).toBe('100000.0000');

  // Without its password file, an existing demo login is left alone and no password is invented.
  const elsewhere = testConfig({ DATA_DIR: path.join(dir, 'other') });
  expect(await demoLogin(elsewhere, t.app.services.accounts)).toBeUndefined();
});
