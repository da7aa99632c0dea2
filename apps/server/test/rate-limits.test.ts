/**
 * The general request budget counts per client address across every call of /api and
 * /admin-api, and per signed-in user (or operator) across addresses (src/http/budgets.ts). Before,
 * each route counted on its own: a client refused on one route after its budget still had a whole
 * one on every other.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminLogin } from '../src/admin-login';
import { createTestApp, registerUser, type TestApp } from './helpers';

/** The general budget of these tests, per minute. */
const BUDGET = 12;

let t: TestApp;
let dir: string;
let adminPassword: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-budgets-'));
  t = await createTestApp({
    env: { RATE_LIMIT_GLOBAL_PER_MINUTE: String(BUDGET), DATA_DIR: dir },
  });
  adminPassword = (await adminLogin(t.config, t.db, t.clock)).password!;
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

let addresses = 0;
/** A client address no other test used. */
const newAddress = () => `10.1.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

async function send(
  address: string,
  method: 'GET' | 'POST',
  url: string,
  options: { token?: string; json?: unknown } = {},
) {
  const response = await t.app.inject({
    method,
    url,
    remoteAddress: address,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.json !== undefined ? { payload: options.json as object } : {}),
  });
  return {
    status: response.statusCode,
    body: response.json() as { code: number; msg: string; params?: unknown[] },
    retryAfter: response.headers['retry-after'],
  };
}

/** Calls that count against the budget, of different modules; signed out they answer 401. */
const ROUTES: ['GET' | 'POST', string][] = [
  ['GET', '/api/userInfo/getUserInfo'],
  ['GET', '/api/userRecharge/list'],
  ['GET', '/api/userWithdraw/list'],
  ['GET', '/api/userInfo/isSetWithPwd'],
];

function expectRefused(result: Awaited<ReturnType<typeof send>>) {
  expect(result.status).toBe(429);
  expect(result.body).toMatchObject({ code: 500, msg: 'hint_tooManyRequests' });
  expect(Number(result.body.params?.[0])).toBeGreaterThan(0);
  expect(Number(result.retryAfter)).toBeGreaterThan(0);
}

describe('the general request budget', () => {
  it('is one per client address across routes', async () => {
    const address = newAddress();
    for (let i = 0; i < BUDGET; i++) {
      const [method, url] = ROUTES[i % ROUTES.length]!;
      expect((await send(address, method, url)).status).toBe(401);
    }
    // Every route refuses the address now, also one it never called before.
    for (const [method, url] of [...ROUTES, ['POST', '/api/userInfo/login'] as const])
      expectRefused(await send(address, method, url));
    // Another address is not affected.
    expect((await send(newAddress(), 'GET', ROUTES[0]![1])).status).toBe(401);
  });

  it('is one per signed-in user across addresses', async () => {
    const user = await registerUser(t.app);
    for (let i = 0; i < BUDGET; i++) {
      const [method, url] = ROUTES[i % ROUTES.length]!;
      expect((await send(newAddress(), method, url, { token: user.token })).status).toBe(200);
    }
    // A fresh address has its own budget left, but the user's is spent.
    expectRefused(await send(newAddress(), 'GET', ROUTES[1]![1], { token: user.token }));
    // Another user from a fresh address is not affected.
    const other = await registerUser(t.app);
    expect((await send(newAddress(), 'GET', ROUTES[0]![1], { token: other.token })).status).toBe(
      200,
    );
  });

  it('is shared by the app API and the operator API', async () => {
    const address = newAddress();
    for (let i = 0; i < BUDGET / 2; i++) {
      expect((await send(address, 'GET', ROUTES[0]![1])).status).toBe(401);
      expect((await send(address, 'GET', '/admin-api/operators')).status).toBe(401);
    }
    expectRefused(await send(address, 'GET', '/admin-api/auth/me'));
    expectRefused(await send(address, 'GET', ROUTES[2]![1]));
  });

  it('counts an operator across addresses', async () => {
    const signIn = await send(newAddress(), 'POST', '/admin-api/auth/login', {
      json: { username: 'admin', password: adminPassword },
    });
    expect(signIn.status).toBe(200);
    const token = (signIn.body as unknown as { data: { token: string } }).data.token;
    for (let i = 0; i < BUDGET; i++)
      expect((await send(newAddress(), 'GET', '/admin-api/auth/me', { token })).status).toBe(200);
    expectRefused(await send(newAddress(), 'GET', '/admin-api/operators', { token }));
  });

  it('leaves launch data answered from memory uncounted', async () => {
    const address = newAddress();
    for (let i = 0; i < BUDGET; i++)
      expect((await send(address, 'GET', ROUTES[0]![1])).status).toBe(401);
    expectRefused(await send(address, 'GET', ROUTES[0]![1]));
    for (const url of ['/api/siteInfo/getSiteInfo', '/api/switchSet/list', '/api/langMgr/list'])
      expect((await send(address, 'GET', url)).status).toBe(200);
  });
});
