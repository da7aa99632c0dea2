/**
 * Content through the console at 1440x900: a content operator writes a question in English and in
 * Arabic with the rich-text editor, typing a `<script>` as text and pasting one as HTML (with an
 * image that runs code on error); the server stores only the sanitised answer, and the app (at
 * 390x844) shows the typed text as text while nothing runs: no dialog, no global set. The content
 * page is pictured in English and Chinese, with the editor open.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { contentApi, type QaGroup } from '@bourse/shared';
import {
  baseUrl,
  createOperator,
  firstAdminToken,
  screenshot,
  text,
  openSignedIn,
  useConsole,
  type ConsoleHarness,
  type Credentials,
  type Language,
} from './console';

const run = Date.now().toString(36);
const PHONE = { width: 390, height: 844 } as const;
const TYPED = '<script>window.__typed = 1</script> is shown as text';
const PASTED =
  '<p>Pasted <strong>bold</strong><script>window.__pasted = 1</script>' +
  '<img src="x" onerror="window.__pasted = 2"><a href="javascript:window.__pasted = 3">link</a></p>';

let operator: Credentials;
let browser: ConsoleHarness;

const openConsole = (language: Language) =>
  openSignedIn(browser, operator, '/content', 'content-kind-qa', language);

beforeAll(async () => {
  operator = await createOperator(await firstAdminToken(), ['content'], 'content');
});

/** Pastes HTML into the focused editor as a browser's clipboard would hand it over. */
async function pasteHtml(page: Page, selector: string, html: string): Promise<void> {
  await page.locator(selector).evaluate((element, value) => {
    const data = new DataTransfer();
    data.setData('text/html', value);
    data.setData('text/plain', value.replace(/<[^>]+>/g, ''));
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, html);
}

async function qaList(languageId: number): Promise<QaGroup[]> {
  const response = await fetch(new URL(`${contentApi.qaList.path}`, baseUrl()), {
    headers: { Accept: 'application/json', LanguageId: String(languageId) },
  });
  return ((await response.json()) as { data: QaGroup[] }).data;
}

describe('content in the console', () => {
  browser = useConsole();

  it('writes a question in two languages; what was typed or pasted never runs in the app', async () => {
    const page = await openConsole('en');
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(
      text('nav.content'),
    );
    await page.locator('[data-testid="content-new"]').click();
    const editor = page.locator('[data-testid="content-editor"]');
    await editor.waitFor();

    // English: the question, an answer typed with a script in it, then HTML pasted.
    await page.locator('[data-testid="content-title-en"]').fill(`Is my account safe? ${run}`);
    const english = '[data-testid="content-body-en"] .ProseMirror';
    await page.locator(english).click();
    await page.keyboard.type(TYPED);
    await page.keyboard.press('Enter');
    await pasteHtml(page, english, PASTED);
    await page.locator(`${english} strong`, { hasText: 'bold' }).waitFor();
    // The bold button marks text as the operator selects it.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('Two-factor sign-in');
    await page.locator(`${english} strong`, { hasText: 'Two-factor' }).waitFor();
    await screenshot(page, 'content-editor-en');

    // Arabic: its own tab, right to left.
    await page.locator('[data-testid="content-tab-ar"]').click();
    await page.locator('[data-testid="content-title-ar"]').fill(`هل حسابي آمن؟ ${run}`);
    const arabic = '[data-testid="content-body-ar"] .ProseMirror';
    await page.locator(arabic).click();
    await page.keyboard.type('نعم، وكل إجراء يقوم به المشغل مسجل.');
    expect(await page.locator(arabic).getAttribute('dir')).toBe('rtl');
    await screenshot(page, 'content-editor-ar-tab');

    await page.locator('[data-testid="content-save"]').click();
    await editor.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid^="content-row-title-"]', {
      hasText: `Is my account safe? ${run}`,
    });
    await row.waitFor();
    await screenshot(page, 'content-page-en');

    // The server kept only allowed markup: the typed script as text, the pasted one gone.
    const groups = await qaList(2);
    const item = groups
      .flatMap((group) => group.items)
      .find((entry) => entry.question === `Is my account safe? ${run}`)!;
    expect(item).toBeDefined();
    expect(item.answer).toContain(
      '&lt;script&gt;window.__typed = 1&lt;/script&gt; is shown as text',
    );
    expect(item.answer).toContain('<strong>bold</strong>');
    expect(item.answer).toContain('<strong>Two-factor sign-in</strong>');
    expect(item.answer).not.toMatch(/<script|onerror|javascript:/i);
    const arabicItem = (await qaList(18))
      .flatMap((group) => group.items)
      .find((entry) => entry.id === item.id)!;
    expect(arabicItem.question).toBe(`هل حسابي آمن؟ ${run}`);
    expect(arabicItem.answer).toContain('نعم، وكل إجراء');

    // The app shows the answer: the typed script is text, nothing ran.
    const app = await browser.newPage('en');
    await app.setViewportSize(PHONE);
    const dialogs: string[] = [];
    app.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await app.goto(`${baseUrl()}/#/pages/QA/QA`);
    const question = app.locator(`[data-testid="qa-question-${item.id}"]`);
    await question.waitFor();
    await question.click();
    const answer = app.locator(`[data-testid="qa-answer-${item.id}"]`);
    await answer.waitFor();
    // Pictured once the panel has opened in full (its height animation has ended).
    await app.waitForFunction(
      (id) =>
        (
          document
            .querySelector(`[data-testid="qa-answer-${id}"]`)
            ?.closest('.adm-collapse-panel-content') as HTMLElement | null
        )?.style.height === 'auto',
      item.id,
    );
    expect(await answer.textContent()).toContain(TYPED);
    expect(await answer.textContent()).toContain('Two-factor sign-in');
    expect(await answer.locator('script, img, iframe').count()).toBe(0);
    expect(
      await app.evaluate(() => [
        (window as unknown as Record<string, unknown>).__typed,
        (window as unknown as Record<string, unknown>).__pasted,
      ]),
    ).toEqual([undefined, undefined]);
    expect(dialogs).toEqual([]);
    await app.screenshot({
      path: new URL('../test-results/screens/content-app-answer.png', import.meta.url).pathname,
    });
  });

  it('shows the content page in Chinese', async () => {
    const page = await openConsole('zh');
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(
      text('nav.content', 'zh'),
    );
    await page.locator('[data-testid="content-tab-kind-activity"]').click();
    await page.locator('[data-testid="content-kind-activity"]').waitFor();
    await page.locator('[data-testid="content-new"]').click();
    await page.locator('[data-testid="content-editor"]').waitFor();
    await screenshot(page, 'content-editor-activity-zh');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="content-tab-kind-qa"]').click();
    await page.locator('[data-testid="content-kind-qa"]').waitFor();
    await screenshot(page, 'content-page-zh');
  });
});
