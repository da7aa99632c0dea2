/**
 * Issue 19's security centre through the real screens (/pages/user/change): a user signed in on two
 * browsers sees both sessions, ends the other one, whose next call lands on the sign-in screen;
 * reads their login history with a wrong-password attempt in it; sets an anti-phishing code with
 * the login password. In English and in Arabic (right to left).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  expectOnScreen,
  expectToast,
  registerUser,
  screenshot,
  signInThroughUi,
  text,
  useBrowser,
  waitForRoute,
} from './browser';

const CHANGE = '/pages/user/change';
const LOGIN = '/pages/user/login';
const ARABIC = { locale: 'ar' };

async function openTab(page: Page, tab: string, locale: string) {
  const button = page.locator(`[data-testid="security-tab-${tab}"]`);
  await button.click();
  expect(await button.textContent()).toBe(
    text(
      tab === 'sessions'
        ? 'security_tab_sessions'
        : tab === 'history'
          ? 'security_tab_history'
          : 'security_tab_antiPhishing',
      locale,
    ),
  );
}

describe('security centre', () => {
  const browser = useBrowser();

  for (const locale of ['en', 'ar']) {
    it(`ends another session, shows the login history, sets an anti-phishing code (${locale})`, async () => {
      const user = await registerUser();
      // A wrong password: the login history shows it.
      const wrong = await apiCall('POST', '/api/userInfo/login', {
        form: { userAccount: user.email, userPwd: 'Not-the-password-1' },
      });
      expect(wrong.msg).toBe('hint_loginFailed');

      // The other browser signs in through the screen (its own session).
      const other = await browser.newPage({ storage: locale === 'ar' ? ARABIC : {} });
      await signInThroughUi(other, user);

      const page = await browser.newPage({ storage: locale === 'ar' ? ARABIC : {} });
      await signInThroughUi(page, user);
      await page.goto(appUrl(`${CHANGE}?tab=sessions`));
      await page.locator('[data-testid="security-sessions"]').waitFor();
      // The registration's session (no browser) and the two signed in through the screens.
      const rows = page.locator('[data-testid="security-session"]');
      await expect.poll(() => rows.count()).toBe(3);
      expect(
        await page.locator('[data-testid="security-session"][data-current="true"]').count(),
      ).toBe(1);
      expect(await rows.first().getAttribute('data-current')).toBe('true');
      expect(await rows.first().textContent()).toContain(text('security_thisDevice', locale));
      expect(await rows.first().textContent()).toContain('Chrome');
      await screenshot(page, `security-sessions-${locale}`);

      // End the other browser's session (the second listed: the last used but this one).
      await rows.nth(1).locator('[data-testid="security-session-end"]').click();
      const dialog = page.locator('.adm-dialog .adm-center-popup-body');
      await dialog.waitFor();
      await expectOnScreen(page, dialog.locator('.adm-dialog-footer'));
      await screenshot(page, `security-end-session-${locale}`);
      await dialog
        .locator('.adm-dialog-button', { hasText: text('security_endSession', locale) })
        .click();
      await expectToast(page, text('security_sessionEnded', locale));
      await expect.poll(() => rows.count()).toBe(2);

      // The other browser's next call is refused: it goes to the sign-in screen.
      await other.goto(appUrl(`${CHANGE}?tab=history`));
      await waitForRoute(other, LOGIN);

      // End every other session: the registration's goes too.
      await page.locator('[data-testid="security-end-others"]').click();
      await dialog.waitFor();
      await dialog
        .locator('.adm-dialog-button', { hasText: text('security_endOthers', locale) })
        .click();
      await expect.poll(() => rows.count()).toBe(1);
      expect(await page.locator('[data-testid="security-end-others"]').count()).toBe(0);
      expect((await apiCall('GET', '/api/userInfo/getUserInfo', { token: user.token })).code).toBe(
        401,
      );

      // The login history: three sign-ins through the screens, the wrong password among them.
      await openTab(page, 'history', locale);
      const attempts = page.locator('[data-testid="security-attempt"]');
      await expect.poll(() => attempts.count()).toBe(3);
      expect(
        await attempts.evaluateAll((list) => list.map((row) => row.getAttribute('data-result'))),
      ).toEqual(['success', 'success', 'wrongPassword']);
      expect(await attempts.nth(2).textContent()).toContain(
        text('security_result_wrongPassword', locale),
      );
      await expectOnScreen(page, attempts.nth(2));
      await screenshot(page, `security-history-${locale}`);

      // The anti-phishing code: refused until valid, then set with the login password.
      await openTab(page, 'antiPhishing', locale);
      const form = page.locator('[data-testid="anti-phishing-form"]');
      await form.waitFor();
      expect(await page.locator('[data-testid="anti-phishing-current"]').textContent()).toBe(
        text('security_antiPhishingNone', locale),
      );
      await page.locator('#anti-phishing-code').fill('a$');
      await form.locator('button[type="submit"]').click();
      await expect
        .poll(() => form.locator('.field-error').first().textContent())
        .toBe(text('hint_antiPhishingInvalid', locale));
      await page.locator('#anti-phishing-code').fill('Blue Heron 42');
      await page.locator('#anti-phishing-password').fill(user.password);
      await form.locator('button[type="submit"]').click();
      await expectToast(page, text('security_antiPhishingSaved', locale));
      const current = page.locator('[data-testid="anti-phishing-current"]');
      await expect.poll(() => current.textContent()).toBe('B•••••••••••2');
      await page.locator('[data-testid="anti-phishing-reveal"]').click();
      await expect.poll(() => current.textContent()).toBe('Blue Heron 42');
      await screenshot(page, `security-anti-phishing-${locale}`);

      // The password tab is still the first, with its form as before.
      await page.goto(appUrl(CHANGE));
      await page.locator('[data-testid="login-password-form"]').waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(
        locale === 'ar' ? 'rtl' : 'ltr',
      );
    });
  }
});
