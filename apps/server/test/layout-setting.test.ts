/**
 * The white-label layouts (issue 21): which home and which user centre the app's tab bar opens.
 * A fresh database has the spec's home-k and me-k (migration 0034); an admin reads and changes
 * them from the console (consoleSettingsApi.layout / saveLayout), the change audited with who made
 * it and the layouts before and after, and the app's launch call (siteInfo) carries it at once.
 * Other roles are refused before their input is read; an unknown layout is refused on its field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_LAYOUT,
  HOME_LAYOUTS,
  ME_LAYOUTS,
  NOTHING_TO_DO_MSG,
  consoleSettingsApi,
} from '@bourse/shared';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import { call, createTestApp, onPostgres, type TestApp } from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';

const ADMIN = 'layout-admin';
const ADMIN_PASSWORD = 'layout setting admin password';

let t: TestApp;
const tokens: Record<'admin' | 'finance' | 'support' | 'content', string> = {
  admin: '',
  finance: '',
  support: '',
  content: '',
};

beforeAll(async () => {
  t = await createTestApp();
  await ensureFirstAdmin(t.db, t.clock, ADMIN, ADMIN_PASSWORD);
  tokens.admin = await operatorReady(t.app, ADMIN, ADMIN_PASSWORD);
  for (const role of ['finance', 'support', 'content'] as const) {
    const password = `${role} layout operator password`;
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `layout-${role}`, password, roles: [role] },
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, `layout-${role}`, password);
  }
});

afterAll(async () => {
  await t.close();
});

function as(role: keyof typeof tokens) {
  return (method: 'GET' | 'POST', url: string, options: Parameters<typeof call>[3] = {}) =>
    adminApiCall(t.app, method, url, { ...options, token: tokens[role] });
}
const admin = as('admin');

async function siteLayout() {
  const site = await call(t.app, 'GET', '/api/siteInfo/getSiteInfo');
  expect(site.status).toBe(200);
  return site.body.data.layout as unknown;
}

async function layoutAudit(): Promise<any[]> {
  const result = await admin('GET', '/audit', {
    query: { targetType: 'setting', targetId: 'layout', pageSize: '100' },
  });
  expect(result.status).toBe(200);
  return result.body.rows as any[];
}

describe(`layout setting (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('starts at home-k and me-k, which the app reads at launch', async () => {
    expect(DEFAULT_LAYOUT).toEqual({ home: 'home-k', me: 'me-k' });
    expect(await siteLayout()).toEqual(DEFAULT_LAYOUT);
    const read = await admin('GET', '/layout');
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ values: DEFAULT_LAYOUT, defaults: DEFAULT_LAYOUT });
  });

  it('is an admin setting: signed out 401, other roles 403 before the input is read', async () => {
    expect(consoleSettingsApi.layout.roles).toEqual(['admin']);
    expect(consoleSettingsApi.saveLayout.roles).toEqual(['admin']);
    for (const [method, url] of [
      ['GET', '/layout'],
      ['POST', '/layout/save'],
    ] as const) {
      const bad = method === 'POST' ? { json: { home: 'nowhere' } } : {};
      expect((await adminApiCall(t.app, method, url, bad)).status).toBe(401);
      for (const role of ['finance', 'support', 'content'] as const) {
        const refused = await as(role)(method, url, bad);
        expect(refused.status, `${role} ${url}`).toBe(403);
        expect(refused.body.msg).toBe('hint_forbidden');
      }
    }
    expect(await layoutAudit()).toEqual([]);
  });

  it('changes the layouts the app opens, audited with the operator, before and after', async () => {
    const saved = await admin('POST', '/layout/save', { json: { home: 'home-j' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.msg).not.toBe(NOTHING_TO_DO_MSG);
    expect(saved.body.data.values).toEqual({ home: 'home-j', me: 'me-k' });
    // The launch call's cache is dropped with the change: the next launch reads it.
    expect(await siteLayout()).toEqual({ home: 'home-j', me: 'me-k' });

    const both = await admin('POST', '/layout/save', { json: { home: 'home-g', me: 'me-f' } });
    expect(both.status).toBe(200);
    expect(await siteLayout()).toEqual({ home: 'home-g', me: 'me-f' });

    const entries = await layoutAudit();
    expect(entries).toHaveLength(2);
    // Newest first.
    expect(entries[0]).toMatchObject({
      action: 'layout.update',
      operatorName: ADMIN,
      before: { home: 'home-j', me: 'me-k' },
      after: { home: 'home-g', me: 'me-f' },
    });
    expect(entries[1]).toMatchObject({
      action: 'layout.update',
      before: { home: 'home-k', me: 'me-k' },
      after: { home: 'home-j', me: 'me-k' },
    });

    // The same choice again changes nothing and writes no audit entry.
    const again = await admin('POST', '/layout/save', { json: { me: 'me-f' } });
    expect(again.status).toBe(200);
    expect(again.body.msg).toBe(NOTHING_TO_DO_MSG);
    expect(await layoutAudit()).toHaveLength(2);
  });

  it('takes every layout the spec names', async () => {
    for (const home of HOME_LAYOUTS) {
      const saved = await admin('POST', '/layout/save', { json: { home } });
      expect(saved.status, home).toBe(200);
      expect(((await siteLayout()) as { home: string }).home).toBe(home);
    }
    for (const me of ME_LAYOUTS) {
      const saved = await admin('POST', '/layout/save', { json: { me } });
      expect(saved.status, me).toBe(200);
      expect(((await siteLayout()) as { me: string }).me).toBe(me);
    }
  });

  it('refuses an unknown layout on its field, an empty choice and unknown keys', async () => {
    const before = await siteLayout();
    const count = (await layoutAudit()).length;
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ home: 'home-z' }, 'home', 'hint_paramInvalid'],
      [{ me: 'me-k; drop table' }, 'me', 'hint_paramInvalid'],
      [{ home: 'me-k' }, 'home', 'hint_paramInvalid'],
      [{}, 'home', 'hint_paramRequired'],
    ];
    for (const [body, field, msg] of refusals) {
      const refused = await admin('POST', '/layout/save', { json: body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.msg, JSON.stringify(refused.body)).toBe(msg);
      expect(refused.body.params?.[0]).toBe(field);
    }
    const unknownKey = await admin('POST', '/layout/save', { json: { tabs: 'home-k' } });
    expect(unknownKey.status).toBe(400);
    expect(await siteLayout()).toEqual(before);
    expect(await layoutAudit()).toHaveLength(count);
  });
});
