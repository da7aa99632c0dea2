/**
 * Authored content (contentApi, consoleContentApi): content operators and admins write entries
 * (support and finance may not), each change audited with before and after; what an operator saves
 * is stored and read back sanitised; the app reads only visible entries, in its language with
 * English as each field's fallback; Q&A grouped and searchable; activities by their time window;
 * news views counted once per reader and day; notices and banners (in site info) authored; images
 * re-encoded.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, adminLogin } from '../src/admin-login';
import { call, createTestApp, registerUser, testConfig, type TestApp } from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';
import { HTML, jpegWithGps, hasGps } from './support/test-images';

let t: TestApp;
let dir: string;
const tokens = { admin: '', content: '', support: '', finance: '' };

const HOSTILE =
  '<p>Hello <strong>there</strong><script>alert(1)</script></p>' +
  '<img src=x onerror="alert(2)"><a href="javascript:alert(3)" onclick="alert(4)">link</a>' +
  '<iframe src="https://evil.example"></iframe><p style="color:red">styled</p>';
const HOSTILE_CLEAN =
  '<p>Hello <strong>there</strong></p><a rel="noopener noreferrer">link</a><p>styled</p>';

type Text = { lang: string; title: string; body?: string };

function save(token: string, entry: Record<string, unknown> & { texts: Text[] }) {
  return adminApiCall(t.app, 'POST', '/content/save', {
    token,
    json: { visible: true, sort: 0, ...entry },
  });
}

async function saved(entry: Record<string, unknown> & { texts: Text[] }, token = tokens.content) {
  const result = await save(token, entry);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.data as { id: number; texts: Text[]; image: string; viewCount: number };
}

/** An app call in a language (the spec's LanguageId header: 2 English, 4 German, 18 Arabic). */
function app(url: string, query: Record<string, string> = {}, languageId = '2', token?: string) {
  return call(t.app, 'GET', url, { query, token, headers: { languageid: languageId } });
}

const consoleList = (kind: string, query: Record<string, string> = {}) =>
  adminApiCall(t.app, 'GET', '/content', { token: tokens.content, query: { kind, ...query } });

async function auditOf(id: number) {
  const audit = await adminApiCall(t.app, 'GET', '/audit', {
    token: tokens.admin,
    query: { targetId: String(id), pageSize: '50' },
  });
  return (audit.body.rows ?? [])
    .filter((row: { targetType: string }) => row.targetType.startsWith('content.'))
    .reverse() as { action: string; operatorName: string; before: any; after: any }[];
}

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'bourse-content-'));
  const seeded = await adminLogin(testConfig({ DATA_DIR: path.join(dir, 'data') }), t.db, t.clock);
  tokens.admin = await operatorReady(t.app, ADMIN_USERNAME, seeded.password!);
  for (const role of ['content', 'support', 'finance'] as const) {
    const created = await adminApiCall(t.app, 'POST', '/operators/create', {
      token: tokens.admin,
      json: { username: `content-${role}`, password: 'quiet harbour lantern', roles: [role] },
    });
    expect(created.status).toBe(200);
    tokens[role] = await operatorReady(t.app, `content-${role}`, 'quiet harbour lantern');
  }
});

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('who writes content', () => {
  it('lets content operators and admins write, and refuses support and finance', async () => {
    const entry = { kind: 'notice', texts: [{ lang: 'en', title: 'Maintenance tonight' }] };
    for (const role of ['support', 'finance'] as const) {
      const refused = await save(tokens[role], entry);
      expect(refused.status, role).toBe(403);
      const list = await adminApiCall(t.app, 'GET', '/content', {
        token: tokens[role],
        query: { kind: 'notice' },
      });
      expect(list.status, role).toBe(403);
    }
    const byAdmin = await saved(entry, tokens.admin);
    const deleted = await adminApiCall(t.app, 'POST', '/content/delete', {
      token: tokens.content,
      json: { id: byAdmin.id },
    });
    expect(deleted.status).toBe(200);
    const gone = await adminApiCall(t.app, 'POST', '/content/delete', {
      token: tokens.content,
      json: { id: byAdmin.id },
    });
    expect(gone.status).toBe(404);
  });

  it('audits each change with who, before and after, in the same transaction', async () => {
    const created = await saved({
      kind: 'qa',
      texts: [{ lang: 'en', title: 'Audited?', body: '<p>First</p>' }],
    });
    await saved({
      id: created.id,
      kind: 'qa',
      visible: false,
      texts: [{ lang: 'en', title: 'Audited?', body: '<p>Second</p>' }],
    });
    await adminApiCall(t.app, 'POST', '/content/delete', {
      token: tokens.content,
      json: { id: created.id },
    });
    const entries = await auditOf(created.id);
    expect(entries.map((entry) => entry.action)).toEqual([
      'content.create',
      'content.update',
      'content.delete',
    ]);
    expect(entries.every((entry) => entry.operatorName === 'content-content')).toBe(true);
    expect(entries[0]!.before).toBeNull();
    expect(entries[1]!.before).toMatchObject({
      visible: true,
      texts: [{ lang: 'en', body: '<p>First</p>' }],
    });
    expect(entries[1]!.after).toMatchObject({
      visible: false,
      texts: [{ lang: 'en', body: '<p>Second</p>' }],
    });
    expect(entries[2]!.after).toBeNull();
  });

  it('refuses what cannot be stored, each with its translated hint', async () => {
    const germanOnly = await save(tokens.content, {
      kind: 'news',
      texts: [{ lang: 'de', title: 'Nur Deutsch', body: '<p>x</p>' }],
    });
    expect(germanOnly.status).toBe(400);
    expect(germanOnly.body.msg).toBe('hint_contentEnglishRequired');
    const noAnswer = await save(tokens.content, {
      kind: 'qa',
      texts: [{ lang: 'en', title: 'Question without answer', body: '<p> </p>' }],
    });
    expect(noAnswer.body.msg).toBe('hint_contentEnglishRequired');
    const backwards = await save(tokens.content, {
      kind: 'activity',
      startTime: '2026-03-02T00:00:00Z',
      endTime: '2026-03-01T00:00:00Z',
      texts: [{ lang: 'en', title: 'Backwards', body: '<p>x</p>' }],
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ msg: 'hint_contentTimeOrder', params: ['endTime'] });
    const taken = await save(tokens.content, {
      kind: 'page',
      key: 'privacyPolicy',
      texts: [{ lang: 'en', title: 'Second privacy page', body: '<p>x</p>' }],
    });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('hint_contentKeyTaken');
    const tooLong = await save(tokens.content, {
      kind: 'news',
      texts: [{ lang: 'en', title: 'Long', body: `<p>${'x'.repeat(200_001)}</p>` }],
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ msg: 'hint_richTextTooLong', params: [200_000] });
  });
});

describe('sanitisation', () => {
  it('stores and reads back only the cleaned text, and saving it again changes nothing', async () => {
    const category = await saved({
      kind: 'qaCategory',
      texts: [{ lang: 'en', title: 'Safety' }],
    });
    const entry = await saved({
      kind: 'qa',
      parentId: category.id,
      texts: [
        { lang: 'en', title: 'Is <b>this</b> safe?', body: HOSTILE },
        {
          lang: 'ar',
          title: 'هل هذا آمن؟',
          body: `<p dir="rtl" onmouseover="x()">نعم</p>${HOSTILE}`,
        },
      ],
    });
    // The console's answer, the database and the app all hold the cleaned text.
    expect(entry.texts.find((text) => text.lang === 'en')!.body).toBe(HOSTILE_CLEAN);
    const stored = await t.db.query<{ lang: string; title: string; body: string }>(
      'SELECT lang, title, body FROM content_text WHERE entry_id = $1 ORDER BY lang',
      [entry.id],
    );
    expect(stored.rows).toEqual([
      { lang: 'ar', title: 'هل هذا آمن؟', body: `<p>نعم</p>${HOSTILE_CLEAN}` },
      // A title is plain text: stored as typed, shown by the app as text.
      { lang: 'en', title: 'Is <b>this</b> safe?', body: HOSTILE_CLEAN },
    ]);
    const read = await app('/api/qa/list', { keyword: 'safe' });
    const group = read.body.data.find((item: { id: number }) => item.id === category.id);
    expect(group.items).toEqual([
      { id: entry.id, question: 'Is <b>this</b> safe?', answer: HOSTILE_CLEAN },
    ]);
    const again = await saved({
      id: entry.id,
      kind: 'qa',
      parentId: category.id,
      texts: entry.texts.map(({ lang, title, body }) => ({ lang, title, body })),
    });
    expect(again.texts).toEqual(entry.texts);
  });
});

describe('what the app reads', () => {
  it('groups visible questions by category in order, searchable, in the language or English', async () => {
    const first = await saved({
      kind: 'qaCategory',
      sort: -20,
      texts: [
        { lang: 'en', title: 'Deposits' },
        { lang: 'de', title: 'Einzahlungen' },
      ],
    });
    const second = await saved({
      kind: 'qaCategory',
      sort: -10,
      texts: [{ lang: 'en', title: 'Withdrawals' }],
    });
    const how = await saved({
      kind: 'qa',
      parentId: first.id,
      texts: [
        { lang: 'en', title: 'How do I deposit?', body: '<p>Open <strong>Recharge</strong>.</p>' },
        { lang: 'de', title: 'Wie zahle ich ein?', body: '' },
      ],
    });
    const hidden = await saved({
      kind: 'qa',
      parentId: first.id,
      visible: false,
      texts: [{ lang: 'en', title: 'Hidden question', body: '<p>secret</p>' }],
    });
    const fee = await saved({
      kind: 'qa',
      parentId: second.id,
      texts: [{ lang: 'en', title: 'Is there a fee?', body: '<p>The fee is shown before.</p>' }],
    });

    const german = await app('/api/qa/list', {}, '4');
    expect(german.status).toBe(200);
    const [deposits, withdrawals] = german.body.data.filter((group: { id: number }) =>
      [first.id, second.id].includes(group.id),
    );
    // German where written, English where not (the answer), nothing hidden.
    expect(deposits).toEqual({
      id: first.id,
      title: 'Einzahlungen',
      items: [
        {
          id: how.id,
          question: 'Wie zahle ich ein?',
          answer: '<p>Open <strong>Recharge</strong>.</p>',
        },
      ],
    });
    expect(withdrawals).toMatchObject({ title: 'Withdrawals', items: [{ id: fee.id }] });
    const allIds = german.body.data.flatMap((group: { items: { id: number }[] }) =>
      group.items.map((item) => item.id),
    );
    expect(allIds).not.toContain(hidden.id);

    // The keyword is found in the answer's text, not in its markup.
    // (The seeded questions are searched too; only this test's are compared.)
    const search = await app('/api/qa/list', { keyword: 'RECHARGE' });
    const found = search.body.data.flatMap((group: { items: { id: number }[] }) =>
      group.items.map((item) => item.id),
    );
    expect(found.filter((id: number) => [how.id, hidden.id, fee.id].includes(id))).toEqual([
      how.id,
    ]);
    const markup = await app('/api/qa/list', { keyword: 'strong' });
    expect(markup.body.data).toEqual([]);
  });

  it('serves the seeded pages in every language, falling back to English', async () => {
    const arabic = await app('/api/richText/detail', { key: 'privacyPolicy' }, '18');
    expect(arabic.status).toBe(200);
    expect(arabic.body.data.title).toBe('سياسة الخصوصية');
    expect(arabic.body.data.content).toContain('<h2>');
    const risk = await app('/api/richText/detail', { key: 'riskDisclosure' }, '4');
    expect(risk.body.data).toMatchObject({ key: 'riskDisclosure', title: 'Risk disclosure' });
    for (const key of [
      'registrationAgreement',
      'tradingNotice',
      'referralRules',
      'welfareRules',
      'companyProfile',
    ]) {
      const page = await app('/api/richText/detail', { key });
      expect(page.status, key).toBe(200);
      expect(page.body.data.content.length, key).toBeGreaterThan(100);
    }
    // The seeded questions: category names in Arabic, the questions in English.
    const seededQa = await app('/api/qa/list', {}, '18');
    const trading = seededQa.body.data.find(
      (group: { title: string }) => group.title === 'التداول',
    );
    expect(trading.items.map((item: { question: string }) => item.question)).toContain(
      'Where do prices come from?',
    );
    const missing = await app('/api/richText/detail', { key: 'noSuchPage' });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('hint_notFound');
    const bad = await app('/api/richText/detail', { key: '../etc' });
    expect(bad.status).toBe(400);
  });

  it('lists activities until they end, marks upcoming ones, and keeps an ended one readable', async () => {
    const now = t.clock.now().getTime();
    const hour = 3_600_000;
    const running = await saved({
      kind: 'activity',
      startTime: new Date(now - hour).toISOString(),
      endTime: new Date(now + hour).toISOString(),
      texts: [{ lang: 'en', title: 'Running', body: '<p>Now</p>' }],
    });
    const upcoming = await saved({
      kind: 'activity',
      startTime: new Date(now + 2 * hour).toISOString(),
      texts: [{ lang: 'en', title: 'Upcoming', body: '<p>Later</p>' }],
    });
    const ended = await saved({
      kind: 'activity',
      startTime: new Date(now - 3 * hour).toISOString(),
      endTime: new Date(now - 2 * hour).toISOString(),
      texts: [{ lang: 'en', title: 'Ended', body: '<p>Before</p>' }],
    });
    const list = await app('/api/activity/list');
    const ids = list.body.rows!.map((row: { id: number }) => row.id);
    expect(ids).toContain(running.id);
    expect(ids).toContain(upcoming.id);
    expect(ids).not.toContain(ended.id);
    expect(ids.indexOf(running.id)).toBeLessThan(ids.indexOf(upcoming.id));
    const statuses = Object.fromEntries(
      list.body.rows!.map((row: { id: number; status: string }) => [row.id, row.status]),
    );
    expect(statuses[running.id]).toBe('ongoing');
    expect(statuses[upcoming.id]).toBe('upcoming');
    const endedDetail = await app('/api/activity/detail', { id: String(ended.id) });
    expect(endedDetail.body.data).toMatchObject({ status: 'ended', content: '<p>Before</p>' });

    // Time passes: the running one ends and leaves the list, the upcoming one starts.
    t.clock.advance(2 * hour + 1000);
    try {
      const later = await app('/api/activity/list');
      const laterIds = later.body.rows!.map((row: { id: number }) => row.id);
      expect(laterIds).not.toContain(running.id);
      expect(later.body.rows!.find((row: { id: number }) => row.id === upcoming.id).status).toBe(
        'ongoing',
      );
    } finally {
      t.clock.advance(-(2 * hour + 1000));
    }
  });

  it('counts a news view once per reader and day, visitors by their address', async () => {
    const item = await saved({
      kind: 'news',
      texts: [{ lang: 'en', title: 'Counted', body: '<p>Read me</p>' }],
    });
    const hidden = await saved({
      kind: 'news',
      visible: false,
      texts: [{ lang: 'en', title: 'Not published', body: '<p>x</p>' }],
    });
    const future = await saved({
      kind: 'news',
      publishTime: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
      texts: [{ lang: 'en', title: 'Tomorrow', body: '<p>x</p>' }],
    });
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const read = async (token?: string, ip?: string) => {
      const result = await call(t.app, 'GET', '/api/news/detail', {
        token,
        query: { id: String(item.id) },
        headers: ip ? { 'x-forwarded-for': ip } : {},
      });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      return result.body.data.viewCount as number;
    };
    expect(await read(alice.token)).toBe(1);
    expect(await read(alice.token)).toBe(1);
    expect(await read(bob.token)).toBe(2);
    expect(await read()).toBe(3); // a visitor
    expect(await read()).toBe(3); // the same visitor again
    t.clock.advance(86_400_000);
    try {
      expect(await read(alice.token)).toBe(4);
    } finally {
      t.clock.advance(-86_400_000);
    }
    const list = await app('/api/news/list', { pageSize: '50' });
    const rows = list.body.rows as { id: number; viewCount: number }[];
    expect(rows.find((row) => row.id === item.id)?.viewCount).toBe(4);
    expect(rows.map((row) => row.id)).not.toContain(hidden.id);
    expect(rows.map((row) => row.id)).not.toContain(future.id);
    expect((await app('/api/news/detail', { id: String(hidden.id) })).status).toBe(404);
    expect((await app('/api/news/detail', { id: String(future.id) })).status).toBe(404);
    const consoleRow = (await consoleList('news', { pageSize: '50' })).body.rows!.find(
      (row: { id: number }) => row.id === item.id,
    );
    expect(consoleRow.viewCount).toBe(4);
  });

  it('serves the notice lines inside their window, in order', async () => {
    const now = t.clock.now().getTime();
    const second = await saved({
      kind: 'notice',
      sort: 2,
      route: 'activity',
      texts: [
        { lang: 'en', title: 'New activity' },
        { lang: 'ar', title: 'نشاط جديد' },
      ],
    });
    const first = await saved({
      kind: 'notice',
      sort: 1,
      texts: [{ lang: 'en', title: 'Welcome' }],
    });
    const expired = await saved({
      kind: 'notice',
      endTime: new Date(now - 1000).toISOString(),
      texts: [{ lang: 'en', title: 'Old news' }],
    });
    const notices = await app('/api/notice/list', {}, '18');
    const mine = notices.body.data.filter((row: { id: number }) =>
      [first.id, second.id, expired.id].includes(row.id),
    );
    expect(mine).toEqual([
      { id: first.id, text: 'Welcome', route: '' },
      { id: second.id, text: 'نشاط جديد', route: 'activity' },
    ]);
  });
});

describe('images and banners', () => {
  it('re-encodes an image without its metadata and refuses what is not one', async () => {
    const jpeg = await jpegWithGps();
    const entry = await saved({
      kind: 'activity',
      image: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
      texts: [{ lang: 'en', title: 'With a picture', body: '<p>x</p>' }],
    });
    expect(entry.image).toMatch(/^\/api\/content\/image\?id=\d+&v=[0-9a-f]{64}$/);
    const served = await t.app.inject({ method: 'GET', url: entry.image });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata.format).toBe('jpeg');
    expect(hasGps(metadata.exif)).toBe(false);
    const refused = await save(tokens.content, {
      kind: 'activity',
      image: `data:image/png;base64,${HTML.toString('base64')}`,
      texts: [{ lang: 'en', title: 'Not a picture', body: '<p>x</p>' }],
    });
    expect(refused.status).toBe(415);
    expect(refused.body.msg).toBe('hint_imageFormat');
    // Removing the image drops it from the entry and from storage.
    const removed = await saved({
      id: entry.id,
      kind: 'activity',
      removeImage: true,
      texts: [{ lang: 'en', title: 'With a picture', body: '<p>x</p>' }],
    });
    expect(removed.image).toBe('');
    expect((await t.app.inject({ method: 'GET', url: entry.image })).statusCode).toBe(404);
  });

  it('shows the default banners until one is written, then the written ones in site info', async () => {
    const site = () =>
      call(t.app, 'GET', '/api/siteInfo/getSiteInfo', { headers: { languageid: '2' } });
    const before = await site();
    expect(before.body.data.banners.map((banner: { id: string }) => banner.id)).toContain('honest');
    const banner = await saved({
      kind: 'banner',
      route: 'activity',
      image: `data:image/jpeg;base64,${(await jpegWithGps()).toString('base64')}`,
      texts: [
        { lang: 'en', title: 'Spring activity', body: 'Join before April' },
        { lang: 'de', title: 'Frühlingsaktion', body: '' },
      ],
    });
    await saved({
      kind: 'banner',
      visible: false,
      texts: [{ lang: 'en', title: 'Hidden banner', body: 'x' }],
    });
    const after = await site();
    expect(after.body.data.banners).toEqual([
      {
        id: String(banner.id),
        title: 'Spring activity',
        text: 'Join before April',
        route: 'activity',
        image: banner.image,
      },
    ]);
    const german = await call(t.app, 'GET', '/api/siteInfo/getSiteInfo', {
      headers: { languageid: '4' },
    });
    expect(german.body.data.banners[0]).toMatchObject({
      title: 'Frühlingsaktion',
      text: 'Join before April',
    });
  });

  it('keeps a category while it holds questions', async () => {
    const category = await saved({ kind: 'qaCategory', texts: [{ lang: 'en', title: 'Busy' }] });
    const question = await saved({
      kind: 'qa',
      parentId: category.id,
      texts: [{ lang: 'en', title: 'Inside?', body: '<p>Yes</p>' }],
    });
    const refused = await adminApiCall(t.app, 'POST', '/content/delete', {
      token: tokens.content,
      json: { id: category.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('hint_contentCategoryInUse');
    await adminApiCall(t.app, 'POST', '/content/delete', {
      token: tokens.content,
      json: { id: question.id },
    });
    const deleted = await adminApiCall(t.app, 'POST', '/content/delete', {
      token: tokens.content,
      json: { id: category.id },
    });
    expect(deleted.status).toBe(200);
  });
});
