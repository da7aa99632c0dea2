/**
 * The launch calls on the route table (settingsApi): each is registered from its route, and
 * siteInfo, which sends a text it keeps cached, writes that text through its route's answer
 * schema like every other answer (Fastify sends a string payload as it is).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSchema, OTHER_VALUE_DEFAULTS, settingsApi, type Route } from '@bourse/shared';
import { registeredRoutes } from '../src/http/router';
import { call, createTestApp, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

async function setSetting(key: string, value: unknown): Promise<void> {
  await t.db.query('UPDATE site_setting SET value = $2 WHERE key = $1', [
    key,
    JSON.stringify(value),
  ]);
  t.app.services.settings.invalidate();
}

describe('launch calls on the route table', () => {
  it('registers every launch call from its route', () => {
    const registered = registeredRoutes(t.app);
    for (const route of Object.values(settingsApi) as Route[]) {
      expect(registered.find((entry) => entry.url === route.path)?.route).toBe(route);
    }
  });

  it('siteInfo/getSiteInfo sends the same JSON text each time, exactly what its schema declares', async () => {
    const first = await t.app.inject({ method: 'GET', url: settingsApi.siteInfo.path });
    const second = await t.app.inject({ method: 'GET', url: settingsApi.siteInfo.path });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.body).toBe(first.body);
    const body = first.json();
    expect(answerSchema(settingsApi.siteInfo).strict().parse(body)).toEqual(body);
  });

  it('siteInfo/getSiteInfo fails rather than send a value its schema does not allow', async () => {
    await setSetting('otherValue', { ...OTHER_VALUE_DEFAULTS, app_decimal_no: 'two' });
    try {
      const { status, body } = await call(t.app, 'GET', settingsApi.siteInfo.path);
      expect(status).toBe(500);
      expect(body.code).toBe(500);
    } finally {
      await setSetting('otherValue', OTHER_VALUE_DEFAULTS);
    }
    expect((await call(t.app, 'GET', settingsApi.siteInfo.path)).body.data.otherValue).toEqual(
      OTHER_VALUE_DEFAULTS,
    );
  });

  it('siteInfo/getSiteInfo fails in strict mode on a field its schema does not declare', async () => {
    await setSetting('otherValue', { ...OTHER_VALUE_DEFAULTS, undeclared: 1 });
    try {
      expect((await call(t.app, 'GET', settingsApi.siteInfo.path)).status).toBe(500);
    } finally {
      await setSetting('otherValue', OTHER_VALUE_DEFAULTS);
    }
  });
});
