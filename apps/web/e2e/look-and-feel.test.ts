/**
 * Look and feel at 390×844: one font family for body, buttons and inputs and toasts readable on the
 * dark theme (text contrast at least 4.5:1 against what is drawn behind it), in English and in
 * Arabic (right to left); the demo/live switch in at most two lines in every language.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appUrl, registerUser, screenshot, text, uniqueEmail, useBrowser } from './browser';

const LOCALES = readdirSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/shared/locales'),
)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length));

const LOGIN = '/pages/user/login';
const ME = '/pages/tabs/me/me-k';

describe('look and feel', () => {
  const browser = useBrowser();

  for (const locale of ['en', 'ar'] as const) {
    it(`uses one font family for the body, buttons and inputs (${locale})`, async () => {
      const page = await browser.newPage({ storage: { locale } });
      await page.goto(appUrl(LOGIN));
      await page.locator('input').first().waitFor();
      // The screen is in the language asked for (Arabic right to left).
      await expect
        .poll(() => page.locator('[data-testid="login-page"] button[type="submit"]').textContent())
        .toBe(text('account_login', locale));
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(
        locale === 'ar' ? 'rtl' : 'ltr',
      );
      const families = await page.evaluate(() => {
        const family = (element: Element | null) =>
          element ? getComputedStyle(element).fontFamily : null;
        return {
          body: family(document.body),
          input: family(document.querySelector('input')),
          button: family(document.querySelector('button')),
          submit: family(
            document.querySelector('[data-testid="login-page"] button[type="submit"]'),
          ),
        };
      });
      expect(families.body).toBeTruthy();
      expect(families.input).toBe(families.body);
      expect(families.button).toBe(families.body);
      expect(families.submit).toBe(families.body);
    });

    it(`shows toasts with text readable on the dark theme (contrast at least 4.5:1) (${locale})`, async () => {
      const page = await browser.newPage({ storage: { locale } });
      await page.goto(appUrl(LOGIN));
      // A sign-in that fails answers with a toast, in the screen's language.
      await page.locator('#login-account').fill(uniqueEmail('nobody'));
      await page.locator('#login-password').fill('Wrong-Password-9');
      await page.locator('[data-testid="login-page"] button[type="submit"]').click();
      const toast = page.locator('.adm-toast-main');
      await toast.waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(
        locale === 'ar' ? 'rtl' : 'ltr',
      );
      expect(await toast.textContent()).toBe(text('hint_loginFailed', locale));
      // Pictured once it has faded in.
      await expect
        .poll(() =>
          toast.evaluate(
            (element) => getComputedStyle(element.closest('.adm-toast-mask')!).opacity,
          ),
        )
        .toBe('1');
      await screenshot(page, locale === 'en' ? 'toast-dark' : `toast-dark-${locale}`);
      const contrast = await toast.evaluate((element) => {
        const rgba = (value: string) => {
          const parts = value.match(/[\d.]+/g)!.map(Number);
          return { r: parts[0]!, g: parts[1]!, b: parts[2]!, a: parts[3] ?? 1 };
        };
        // The toast's background laid over the page's (the body's) colour.
        const back = rgba(getComputedStyle(element).backgroundColor);
        const page = rgba(getComputedStyle(document.body).backgroundColor);
        const over = (channel: 'r' | 'g' | 'b') =>
          back[channel] * back.a + page[channel] * (1 - back.a);
        const fore = rgba(getComputedStyle(element).color);
        const luminance = (r: number, g: number, b: number) => {
          const linear = (c: number) => {
            const s = c / 255;
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
          };
          return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
        };
        const l1 = luminance(fore.r, fore.g, fore.b);
        const l2 = luminance(over('r'), over('g'), over('b'));
        return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
      });
      expect(contrast).toBeGreaterThanOrEqual(4.5);
    });
  }

  it('keeps the demo/live switch within two lines in every language', async () => {
    const user = await registerUser();
    const tall: string[] = [];
    const page = await browser.newPage({ user });
    await page.goto(appUrl(ME));
    for (const locale of LOCALES) {
      // The language is a device setting: store it and open the screen again.
      await page.evaluate((value) => localStorage.setItem('locale', JSON.stringify(value)), locale);
      await page.reload();
      const button = page.locator('[data-testid="switch-account"]');
      await button.waitFor();
      await expect
        .poll(async () => (await button.textContent())?.trim())
        .toBe(text('account_switchToDemo', locale));
      const lines = await button.evaluate((element) => {
        const label = (element.querySelector('span') ?? element) as HTMLElement;
        const lineHeight = parseFloat(getComputedStyle(label).lineHeight);
        return Math.round(label.getBoundingClientRect().height / lineHeight);
      });
      if (lines > 2) tall.push(`${locale}: ${lines} lines`);
      if (locale === 'rus' || locale === 'ar') await screenshot(page, `me-switch-${locale}`);
    }
    expect(tall).toEqual([]);
  }, 240_000);
});
