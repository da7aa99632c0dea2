/**
 * The operator API on the route table: every /admin-api call is declared in operatorsApi
 * (@bourse/shared) and registered from it with the app's one Router, whose operator guard answers
 * 401 without an operator session, 403 for a role the route does not name, and only then reads
 * the input (400). The answers go through the route's schemas (strict in tests).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, methodsOf, OPERATOR_ROLES, operatorsApi, type Route } from '@bourse/shared';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { registeredRoutes } from '../src/http/router';
import { call, createTestApp, registerUser, testConfig, type TestApp } from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

let t: TestApp;
let dir: string;
let adminToken: string;

const table = Object.values(operatorsApi) as Route[];

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-operators-api-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  adminToken = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('operatorsApi', () => {
  it('declares every /admin-api call: sign-in public, the others for operators of known roles', () => {
    expect(table).toHaveLength(28);
    for (const route of table) {
      expect(route.path, route.path).toMatch(/^\/admin-api\//);
      expect(route.auth, route.path).toBe(
        route.path === '/admin-api/auth/login' ? 'public' : 'operator',
      );
      for (const role of route.roles ?? []) expect(OPERATOR_ROLES).toContain(role);
      // Admins may make every call that names roles.
      if (route.roles) expect(route.roles, route.path).toContain('admin');
    }
  });

  it('is what the server registers under /admin-api, each route from its declaration', () => {
    const served = registeredRoutes(t.app).filter((route) => route.url.startsWith('/admin-api/'));
    // With the console's own areas of the table (consoleOperatorsApi, …), also under /admin-api.
    const adminTable = allRoutes().filter((route) => route.path.startsWith('/admin-api/'));
    expect(served.every((route) => route.route && adminTable.includes(route.route))).toBe(true);
    expect(
      served.flatMap((route) => route.methods.map((method) => `${method} ${route.url}`)).sort(),
    ).toEqual(
      adminTable
        .flatMap((route) => methodsOf(route).map((method) => `${method} ${route.path}`))
        .sort(),
    );
  });
});

describe('the operator guard', () => {
  it('answers 401 without an operator session, 403 for another role, then 400 for bad input', async () => {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: adminToken,
      json: {
        username: 'guard-support',
        password: 'patient lighthouse keeper',
        roles: ['support'],
      },
    });
    expect(created.status).toBe(200);
    const support = await operatorReady(t.app, 'guard-support', 'patient lighthouse keeper');
    const user = await registerUser(t.app);
    const bad = { json: { id: 'not a number' } };

    // No token, a user's token, an unknown token: 401 before the input is read.
    for (const token of [undefined, user.token, 'no-such-token']) {
      const result = await adminApiCall(t.app, 'POST', '/recharges/approve', { ...bad, token });
      expect(result.status).toBe(401);
      expect(result.body.code).toBe(401);
    }
    // A role the route does not name: 403, still before the input.
    const forbidden = await adminApiCall(t.app, 'POST', '/recharges/approve', {
      ...bad,
      token: support,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 403, msg: 'hint_forbidden' });
    // A role it names: the input is read and refused.
    const refused = await adminApiCall(t.app, 'POST', '/recharges/approve', {
      ...bad,
      token: adminToken,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.params).toEqual(['id']);
    // An operator's token is no user session on /api.
    const onApi = await call(t.app, 'GET', '/api/userInfo/getUserInfo', { token: adminToken });
    expect(onApi.status).toBe(401);
  });

  it('hands the handlers the operator as the admin service resolved it', async () => {
    const me = await adminApiCall(t.app, 'GET', '/auth/me', { token: adminToken });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ username: ADMIN_USERNAME, roles: ['admin'] });
    expect(Object.keys(me.body.data).sort()).toEqual(
      Object.keys(operatorsApi.me.data.shape).sort(),
    );
  });
});
