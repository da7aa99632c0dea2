/**
 * The OpenAPI reference at /api/docs: it lists every registered /api and /admin-api route with its
 * methods and names no route that does not exist, says who may call each, documents the inputs
 * from the same zod schemas the server checks, and Swagger UI serves it as a page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, methodsOf } from '@bourse/shared';
import { registeredRoutes } from '../src/http/router';
import { translate } from '../src/lib/i18n';
import { DEFAULT_CATALOGUE } from '../src/market/catalogue';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let document: {
  openapi: string;
  paths: Record<string, Record<string, any>>;
};

beforeAll(async () => {
  // With the market feed, so the trading routes are registered too.
  t = await createTestApp({
    env: { MARKET_FEED: 'simulated', MARKET_SEED: 'api-docs' },
    catalogue: DEFAULT_CATALOGUE.slice(0, 2),
    history: { days: 1, minuteDays: 1 },
  });
  const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  document = response.json();
});
afterAll(async () => {
  await t.close();
});

describe('the API reference', () => {
  it('lists every registered route, and only those', () => {
    const registered = registeredRoutes(t.app).flatMap((route) =>
      route.methods.map((method) => `${method} ${route.url}`),
    );
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(document.openapi).toBe('3.1.0');
    expect(registered.length).toBeGreaterThan(100);
    expect(documented.sort()).toEqual([...new Set(registered)].sort());
    // Both APIs are in it.
    expect(documented).toContain('POST /api/userWithdraw/outMoney');
    expect(documented).toContain('POST /admin-api/auth/login');
  });

  it('says who may call each route and documents its inputs from the checked schemas', () => {
    const withdraw = document.paths['/api/userWithdraw/outMoney']!.post;
    expect(withdraw.security).toEqual([{ bearer: [] }]);
    expect(withdraw.description).toContain('A signed-in user');
    const body = withdraw.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['channelId', 'amount', 'requestId']));
    expect(withdraw.responses['401']).toBeDefined();

    const login = document.paths['/api/userInfo/login']!.post;
    expect(login.security).toEqual([]);

    const list = document.paths['/api/userWithdraw/list']!.get;
    expect(list.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['pageNum', 'pageSize']),
    );
    const operatorRoutes = Object.entries(document.paths).filter(([path]) =>
      path.startsWith('/admin-api/'),
    );
    expect(
      operatorRoutes.some(([, operations]) =>
        Object.values(operations).some((operation) =>
          /Operators with the role/.test(operation.description),
        ),
      ),
    ).toBe(true);
  });

  it('registers exactly the routes of the table, each from its declaration', () => {
    const registered = registeredRoutes(t.app);
    const outside = registered.filter((route) => !route.route).map((route) => route.url);
    expect(outside).toEqual([]);
    const table = allRoutes().flatMap((route) =>
      methodsOf(route).map((method) => `${method} ${route.path}`),
    );
    const served = registered.flatMap((route) =>
      route.methods.map((method) => `${method} ${route.url}`),
    );
    expect(new Set(table).size).toBe(table.length);
    expect([...served].sort()).toEqual([...table].sort());
  });

  it('describes what each call answers, from the same schemas the server serializes with', () => {
    const cards = document.paths['/api/userBank/list']!.get.responses['200'];
    const page = cards.content['application/json'].schema;
    expect(page.required).toEqual(expect.arrayContaining(['code', 'msg', 'rows', 'total']));
    expect(Object.keys(page.properties.rows.items.properties)).toEqual(
      expect.arrayContaining(['id', 'cardNumber', 'bankName', 'properties', 'createTime']),
    );
    const added = document.paths['/api/userBank/addUserBankCard']!.post.responses['200'];
    const data = added.content['application/json'].schema.properties.data;
    expect(Object.keys(data.properties)).toEqual(expect.arrayContaining(['id', 'cardNumber']));
  });

  it("names each call's refusals with their English text", () => {
    const add = document.paths['/api/userBank/addUserBankCard']!.post;
    expect(add['x-hint-keys']).toEqual(
      expect.arrayContaining(['hint_bankCardExists', 'hint_tooManyBankCards']),
    );
    expect(add.description).toContain(
      `hint_bankCardExists\`: ${translate('en', 'hint_bankCardExists')}`,
    );
    // Every hint key the table names has an English text.
    for (const route of allRoutes())
      for (const key of route.hints ?? [])
        expect(translate('en', key), `${route.path} ${key}`).not.toBe(key);
  });

  it('serves a readable page', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
  });
});
