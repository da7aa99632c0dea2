/**
 * Site messages through the console at 1440x900: a content operator composes an announcement in
 * English and in Arabic with the rich-text editor, previews the Arabic text right to left and
 * sends it; a user reads it in each language (English where theirs is not written), opens it in
 * the app (390x844) and the console shows it read once. A personal message to a user by account.
 * The page is pictured in English and Chinese, with the editor open.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  createOperator,
  firstAdminToken,
  registerUser,
  screenshot,
  text,
  openSignedIn,
  useConsole,
  type ConsoleHarness,
  type Credentials,
  type Language,
  type TestUser,
} from './console';

const run = Date.now().toString(36);
const PHONE = { width: 390, height: 844 } as const;

let operator: Credentials;
let browser: ConsoleHarness;

const openConsole = (language: Language) =>
  openSignedIn(browser, operator, '/messages', 'messages-list', language);

beforeAll(async () => {
  operator = await createOperator(await firstAdminToken(), ['content'], 'msg');
});

interface Row {
  id: number;
  title: string;
  content: string;
  readFlag: number;
}

async function userList(user: TestUser, language: string): Promise<Row[]> {
  const url = new URL('/api/siteMessage/list', baseUrl());
  url.searchParams.set('kind', '1');
  url.searchParams.set('pageSize', '50');
  const response = await fetch(url, {
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${user.token}`,
      'Accept-Language': language,
    },
  });
  return ((await response.json()) as { rows: Row[] }).rows;
}

describe('site messages in the console', () => {
  browser = useConsole();

  it('composes an announcement in two languages; users read it in theirs', async () => {
    const user = await registerUser();
    const page = await openConsole('en');
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(
      text('nav.messages'),
    );
    await page.locator('[data-testid="message-new"]').click();
    const editor = page.locator('[data-testid="message-editor"]');
    await editor.waitFor();

    await page.locator('[data-testid="message-title-en"]').fill(`Maintenance tonight ${run}`);
    const english = '[data-testid="message-content-en"] .ProseMirror';
    await page.locator(english).click();
    await page.keyboard.type('Trading pauses from ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('22:00');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' UTC.');
    await page.locator(`${english} strong`, { hasText: '22:00' }).waitFor();
    await screenshot(page, 'messages-editor-en');

    await page.locator('[data-testid="message-tab-ar"]').click();
    await page.locator('[data-testid="message-title-ar"]').fill(`صيانة الليلة ${run}`);
    const arabic = '[data-testid="message-content-ar"] .ProseMirror';
    await page.locator(arabic).click();
    await page.keyboard.type('يتوقف التداول من الساعة 22:00.');
    expect(await page.locator(arabic).getAttribute('dir')).toBe('rtl');
    await page.locator('[data-testid="message-preview"]').click();
    const preview = page.locator('[data-testid="message-preview-ar"]');
    await preview.waitFor();
    expect(await preview.getAttribute('dir')).toBe('rtl');
    expect(await preview.textContent()).toContain(`صيانة الليلة ${run}`);
    await screenshot(page, 'messages-preview-ar');
    await page.locator('[data-testid="message-preview"]').click();

    await page.locator('[data-testid="message-save"]').click();
    await editor.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid^="message-row-title-"]', {
      hasText: `Maintenance tonight ${run}`,
    });
    await row.waitFor();
    const id = Number((await row.getAttribute('data-testid'))!.replace(/\D+/g, ''));
    await expect
      .poll(() => page.locator(`[data-testid="message-read-${id}"]`).textContent())
      .toMatch(/^0 /);
    await screenshot(page, 'messages-list-en');

    // The user reads it in English, in Arabic, and in English again where no text was written.
    const en = (await userList(user, 'en')).find((message) => message.id === id);
    expect(en).toMatchObject({ title: `Maintenance tonight ${run}`, readFlag: 0 });
    expect(en!.content).toBe('<p>Trading pauses from <strong>22:00</strong> UTC.</p>');
    const ar = (await userList(user, 'ar')).find((message) => message.id === id);
    expect(ar).toMatchObject({ title: `صيانة الليلة ${run}` });
    const fr = (await userList(user, 'fr')).find((message) => message.id === id);
    expect(fr!.title).toBe(`Maintenance tonight ${run}`);

    // In the app, the user opens it: the console counts it read.
    const app = await browser.newPage('en');
    await app.setViewportSize(PHONE);
    // Signed in, in Arabic: the app's own storage, set before it starts.
    await app.addInitScript((token) => {
      localStorage.setItem('uToken', JSON.stringify(token));
      localStorage.setItem('locale', JSON.stringify('ar'));
    }, user.token);
    await app.goto(`${baseUrl()}/#/pages/msg/msg-detail?id=${id}`);
    await expect
      .poll(() => app.locator('[data-testid="msg-title"]').textContent(), { timeout: 10_000 })
      .toBe(`صيانة الليلة ${run}`);
    await screenshot(app, 'messages-app-detail-ar');
    await expect
      .poll(async () => (await userList(user, 'en')).find((message) => message.id === id)?.readFlag)
      .toBe(1);
    await page.reload();
    await expect
      .poll(() => page.locator(`[data-testid="message-read-${id}"]`).textContent(), {
        timeout: 10_000,
      })
      .toMatch(/^1 /);
  });

  it('sends a personal message to one user, and is pictured in Chinese', async () => {
    const user = await registerUser();
    const other = await registerUser();
    const page = await openConsole('zh');
    await page.locator('[data-testid="message-new"]').click();
    await page.locator('[data-testid="message-editor"]').waitFor();
    await page.locator('[data-testid="message-kind-2"]').click();
    await page.locator('[data-testid="message-user"]').fill(user.email);
    await page.locator('[data-testid="message-title-en"]').fill(`For you ${run}`);
    await page.locator('[data-testid="message-content-en"] .ProseMirror').click();
    await page.keyboard.type('Your documents arrived.');
    await screenshot(page, 'messages-editor-zh');
    await page.locator('[data-testid="message-save"]').click();
    await page.locator('[data-testid="message-editor"]').waitFor({ state: 'detached' });
    await page
      .locator('[data-testid^="message-row-title-"]', { hasText: `For you ${run}` })
      .waitFor();
    await screenshot(page, 'messages-list-zh');
    const mine = async (who: TestUser) => {
      const response = await fetch(new URL('/api/siteMessage/list?kind=2', baseUrl()), {
        headers: { Accept: 'application/json', Authorization: `Bearer ${who.token}` },
      });
      return ((await response.json()) as { rows: Row[] }).rows.map((row) => row.title);
    };
    expect(await mine(user)).toContain(`For you ${run}`);
    expect(await mine(other)).not.toContain(`For you ${run}`);
  });
});
