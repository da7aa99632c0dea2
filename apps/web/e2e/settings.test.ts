/** Settings through the real screens: the interface language (with Arabic right to left) and the API line. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  appUrl,
  expectOnScreen,
  screenshot,
  stored,
  text,
  useBrowser,
  waitForRoute,
} from './browser';

const HOME = '/pages/tabs/home/home-k';
const LANGUAGE = '/pages/language/language';

function documentLanguage(page: Page) {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
  }));
}

function homeTabLabel(page: Page) {
  return page.locator('[data-testid="tab-home"] .tab-bar-title').textContent();
}

/** Opens the language list and picks a language; the screen goes back (home, opened directly). */
async function chooseLanguage(page: Page, key: string): Promise<void> {
  await page.goto(appUrl(LANGUAGE));
  const item = page.locator(`[data-testid="language-${key}"]`);
  await item.scrollIntoViewIfNeeded();
  await expectOnScreen(page, item);
  await item.click();
  await waitForRoute(page, HOME);
  await page.locator('[data-testid="home-page"]').waitFor();
  // Home opens at its top even though the list was scrolled to reach the language.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
}

describe('settings', () => {
  const browser = useBrowser();

  it('switches the interface language, with Arabic right to left, and back to English', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl(LANGUAGE));
    await page.locator('[data-testid="language-page"]').waitFor();
    await page.locator('[data-testid="language-de"]').waitFor();
    await screenshot(page, 'language');

    await chooseLanguage(page, 'de');
    await expect.poll(() => homeTabLabel(page)).toBe(text('tab_home', 'de'));
    expect(text('tab_home', 'de')).not.toBe(text('tab_home'));
    expect(await documentLanguage(page)).toEqual({ lang: 'de', dir: 'ltr' });
    expect(await stored(page, 'locale')).toBe('de');

    await chooseLanguage(page, 'ar');
    await expect.poll(() => homeTabLabel(page)).toBe(text('tab_home', 'ar'));
    expect(await documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    // Right to left for real: the first tab (home) is drawn at the right-hand end.
    const homeTab = await page.locator('[data-testid="tab-home"]').boundingBox();
    const lastTab = await page.locator('[data-testid="tab-accountDetail"]').boundingBox();
    expect(homeTab!.x).toBeGreaterThan(lastTab!.x);
    await screenshot(page, 'home-ar');

    // The choice survives a restart.
    await page.reload();
    await page.locator('[data-testid="home-page"]').waitFor();
    await expect.poll(() => homeTabLabel(page)).toBe(text('tab_home', 'ar'));
    expect(await documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });

    await chooseLanguage(page, 'en');
    await expect.poll(() => homeTabLabel(page)).toBe(text('tab_home'));
    expect(await documentLanguage(page)).toEqual({ lang: 'en', dir: 'ltr' });
    expect(await stored(page, 'locale')).toBe('en');
  });

  it('lists the API lines with their measured latency and keeps the chosen one', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl('/pages/language/line'));
    await page.locator('[data-testid="line-page"]').waitFor();
    const latency = page.locator('[data-testid="line-latency-0"]');
    await latency.waitFor();
    expect(await latency.textContent()).toMatch(/\d/);
    await expectOnScreen(page, page.locator('[data-testid="line-0"]'));
    await screenshot(page, 'line');

    await page.locator('[data-testid="line-0"]').click();
    await waitForRoute(page, HOME);
    await page.locator('[data-testid="home-page"]').waitFor();
    expect(await stored(page, 'lineIndex')).toBe(0);
  });
});
