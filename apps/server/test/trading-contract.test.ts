/**
 * The quote and trading calls on the route table (quotesApi, tradingApi): each is registered once,
 * from its route (spot and coin-to-coin by one loop over the kinds of order), and a refusal
 * particular to a call is one of the hints its route declares.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotesApi, tradingApi, type Route } from '@bourse/shared';
import { registeredRoutes } from '../src/http/router';
import { ManualClock } from '../src/lib/clock';
import { scriptedApp } from './support/scripted-feed';
import { call, createTestDatabase, registerUser, type TestApp, type TestDatabase } from './helpers';

let database: TestDatabase;
let t: TestApp;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ t } = await scriptedApp(database, new ManualClock(new Date()), ['BTCUSDT', 'AAPL'], 'table'));
  ({ token } = await registerUser(t.app));
});

afterAll(async () => {
  await t.close();
  await database.dispose();
});

describe('quote and trading calls on the route table', () => {
  it('registers every quote and trading call once, from its route', () => {
    const registered = registeredRoutes(t.app);
    for (const route of [...Object.values(quotesApi), ...Object.values(tradingApi)] as Route[]) {
      const entries = registered.filter((entry) => entry.url === route.path);
      expect(entries, route.path).toHaveLength(1);
      expect(entries[0]!.route, route.path).toBe(route);
    }
  });

  it('refuses with a hint its route declares', async () => {
    const refusals: [Route, Record<string, string>][] = [
      [quotesApi.kline, { productType: '2', productCode: 'NOPEUSDT', interval: '1m' }],
      [quotesApi.addFavourite, { productType: '2', productCode: 'NOPEUSDT' }],
      [quotesApi.removeFavourite, { productType: '2', productCode: 'NOPEUSDT' }],
      [tradingApi.fastTrade, { id: '999999' }],
      [tradingApi.contract, { id: '999999' }],
      [tradingApi.cancelContract, { id: '999999' }],
      [tradingApi.closeContract, { id: '999999', requestId: 'close-missing' }],
      [tradingApi.cancelSpotOrder, { id: '999999' }],
      [tradingApi.cancelBibiOrder, { id: '999999' }],
      [
        tradingApi.openContract,
        {
          productType: '2',
          productCode: 'NOPEUSDT',
          orderDirection: '1',
          leverage: '10',
          quantity: '1',
          requestId: 'open-missing',
        },
      ],
      [
        tradingApi.bibiBuy,
        { productCode: 'AAPL', orderType: '1', quantity: '1', requestId: 'bibi-stock' },
      ],
    ];
    for (const [route, input] of refusals) {
      const method = route.method as 'GET' | 'POST';
      const { status, body } = await call(
        t.app,
        method,
        route.path,
        method === 'GET' ? { token, query: input } : { token, form: input },
      );
      expect(status, route.path).toBeGreaterThanOrEqual(400);
      expect(route.hints, `${route.path} answered ${body.msg}`).toContain(body.msg);
    }
  });
});
