/**
 * Accounts through the real screens: registration with its live password rules, the server's
 * translated errors, sign-in and sign-out, a revoked session sending the user to login, the
 * signed-in screens and the live/demo switch.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { UI } from '@bourse/shared';
import {
  apiCall,
  appUrl,
  expectOnScreen,
  expectToast,
  PASSWORD,
  registerUser,
  screenshot,
  signInThroughUi,
  stored,
  text,
  uniqueEmail,
  useBrowser,
  waitForRoute,
} from './browser';

const ME = '/pages/tabs/me/me-k';
const LOGIN = '/pages/user/login';

async function ruleStates(page: Page): Promise<Record<string, string>> {
  return page
    .locator('[data-testid="password-rules"] li[data-rule]')
    .evaluateAll((items) =>
      Object.fromEntries(
        items.map((item) => [
          item.getAttribute('data-rule') ?? '',
          item.classList.contains('rule-ok')
            ? 'ok'
            : item.classList.contains('rule-bad')
              ? 'bad'
              : '',
        ]),
      ),
    );
}

async function openRegister(page: Page): Promise<void> {
  await page.goto(appUrl('/pages/user/register'));
  await page.locator('[data-testid="register-page"]').waitFor();
  await page.locator('#reg-account').waitFor();
}

function submitButton(page: Page, screen: 'register' | 'login') {
  return page.locator(`[data-testid="${screen}-page"] button[type="submit"]`);
}

describe('accounts', () => {
  const browser = useBrowser();

  it('registers by email with live password rules and lands on the user centre', async () => {
    const page = await browser.newPage();
    await openRegister(page);
    await screenshot(page, 'register');

    // The email channel is the one chosen.
    expect(await page.locator('.segmented button[aria-pressed="true"]').textContent()).toBe(
      text('account_byEmail'),
    );
    const email = uniqueEmail('reg');
    await page.locator('#reg-account').fill(email);

    // No password yet: no rule is marked either way.
    expect(await ruleStates(page)).toEqual({
      pwd_minLength: '',
      pwd_needLetter: '',
      pwd_lettersDigitsOnly: '',
    });
    // Typed key by key, the rules follow each keystroke.
    const password = page.locator('#reg-password');
    const typed = [
      ['1', { pwd_minLength: 'bad', pwd_needLetter: 'bad', pwd_lettersDigitsOnly: 'ok' }],
      ['a', { pwd_minLength: 'bad', pwd_needLetter: 'ok', pwd_lettersDigitsOnly: 'ok' }],
      ['234567', { pwd_minLength: 'ok', pwd_needLetter: 'ok', pwd_lettersDigitsOnly: 'ok' }],
      ['!', { pwd_minLength: 'ok', pwd_needLetter: 'ok', pwd_lettersDigitsOnly: 'bad' }],
    ] as const;
    for (const [keys, expected] of typed) {
      await password.pressSequentially(keys);
      await expect.poll(() => ruleStates(page)).toEqual(expected);
    }
    expect(await password.inputValue()).toBe('1a234567!');
    const replaced = [
      ['12345678', { pwd_minLength: 'ok', pwd_needLetter: 'bad', pwd_lettersDigitsOnly: 'ok' }],
      [PASSWORD, { pwd_minLength: 'ok', pwd_needLetter: 'ok', pwd_lettersDigitsOnly: 'ok' }],
    ] as const;
    for (const [value, expected] of replaced) {
      await password.fill(value);
      await expect.poll(() => ruleStates(page)).toEqual(expected);
    }
    // Each rule reads its translated text.
    expect(await page.locator('[data-rule="pwd_minLength"]').textContent()).toBe(
      text('pwd_minLength'),
    );

    // A confirmation that differs is refused before anything is sent.
    const confirm = page.locator('#reg-confirm');
    await confirm.fill(`${PASSWORD}x`);
    const mismatch = page.locator('.field-error', { hasText: text('account_passwordMismatch') });
    await mismatch.waitFor();
    await submitButton(page, 'register').click();
    await mismatch.waitFor();
    expect(await currentHash(page)).toContain('/pages/user/register');
    await screenshot(page, 'register-errors');

    await confirm.fill(PASSWORD);
    await mismatch.waitFor({ state: 'detached' });
    // A second tap within the debounce window is dropped on purpose (a double tap sends once).
    await page.waitForTimeout(UI.debounceMs);
    await submitButton(page, 'register').click();
    await expectToast(page, text('account_registered'));
    await waitForRoute(page, ME);
    await expect.poll(() => page.locator('[data-testid="me-account"]').textContent()).toBe(email);
    expect(await stored(page, 'userAccount')).toBe(email);
    expect(typeof (await stored(page, 'uToken'))).toBe('string');
    await page.locator('.adm-toast-main').waitFor({ state: 'detached' });
    await screenshot(page, 'me-k');
  });

  it("shows the server's translated error when the email is already registered", async () => {
    const user = await registerUser();
    const page = await browser.newPage();
    await openRegister(page);
    await page.locator('#reg-account').fill(user.email);
    await page.locator('#reg-password').fill(PASSWORD);
    await page.locator('#reg-confirm').fill(PASSWORD);
    await submitButton(page, 'register').click();
    await expectToast(page, text('hint_accountExists'));
    expect(text('hint_accountExists')).toBe('This account is already registered');
    expect(await currentHash(page)).toContain('/pages/user/register');
    expect(await stored(page, 'uToken')).toBeNull();
  });

  it('signs in and out; a wrong password shows the translated error', async () => {
    const user = await registerUser();
    const page = await browser.newPage();
    await page.goto(appUrl(LOGIN));
    await page.locator('[data-testid="login-page"]').waitFor();
    await screenshot(page, 'login');

    await page.locator('#login-account').fill(user.email);
    await page.locator('#login-password').fill(`${PASSWORD}wrong`);
    await submitButton(page, 'login').click();
    await expectToast(page, text('hint_loginFailed'));
    expect(await currentHash(page)).toContain(LOGIN);
    expect(await stored(page, 'uToken')).toBeNull();

    await page.locator('#login-password').fill(PASSWORD);
    await submitButton(page, 'login').click();
    await expectToast(page, text('account_signedIn'));
    await waitForRoute(page, ME);
    await expect
      .poll(() => page.locator('[data-testid="me-account"]').textContent())
      .toBe(user.email);
    const token = await stored(page, 'uToken');
    expect(typeof token).toBe('string');

    await page.locator('[data-testid="logout"]').click();
    const dialog = page.locator('.adm-dialog .adm-center-popup-body');
    await dialog.waitFor({ state: 'visible' });
    await expectOnScreen(page, dialog);
    await dialog.getByRole('button', { name: text('account_logout') }).click();
    await waitForRoute(page, LOGIN);
    await page.locator('[data-testid="login-page"]').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('uToken'))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('userAccount'))).toBeNull();

    // The session really ended on the server.
    const after = await apiCall('GET', '/api/userInfo/getUserInfo', { token: token as string });
    expect(after.code).toBe(401);
  });

  it('sends a user whose session was revoked to login and forgets the session', async () => {
    const user = await registerUser();
    const page = await browser.newPage();
    await signInThroughUi(page, user);

    const raw = await page.evaluate(() => localStorage.getItem('uToken'));
    expect(raw).not.toBeNull();
    const token = JSON.parse(raw!) as string;
    // Revoked while the app is closed: an open app hears it at once on its socket and goes to
    // login by itself (a reload racing that move could start the app already signed out).
    await page.goto('about:blank');
    const revoked = await apiCall('POST', '/api/userInfo/loginOut', { token, form: {} });
    expect(revoked.code).toBe(200);

    // Starting again with the revoked token kept asks the server for the user: 401.
    await page.goto(appUrl(ME));
    await waitForRoute(page, LOGIN);
    await page.locator('[data-testid="login-page"]').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('uToken'))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('userAccount'))).toBeNull();
  });

  it('opens the signed-in screens from the user centre', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(ME));
    await expect
      .poll(() => page.locator('[data-testid="me-account"]').textContent())
      .toBe(user.email);

    const open = async (label: string, testId: string, route: string) => {
      await page.locator('.adm-list-item', { hasText: label }).first().click();
      await waitForRoute(page, route);
      await page.locator(`[data-testid="${testId}"]`).waitFor();
      // A new screen opens at its top, whatever the user centre was scrolled to.
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      await expectOnScreen(page, page.locator('.adm-nav-bar'));
    };
    const back = async () => {
      await page.locator('.adm-nav-bar-back').click();
      await waitForRoute(page, ME);
      await page.locator('[data-testid="me-page"]').waitFor();
    };

    await open(text('page_userInfo'), 'user-info-page', '/pages/user/userInfo');
    await page.locator('.adm-list-item', { hasText: user.email }).waitFor();
    await screenshot(page, 'user-info');
    await back();

    await open(text('page_security'), 'change-page', '/pages/user/change');
    await page.locator('[data-testid="login-password-form"]').waitFor();
    await screenshot(page, 'change');
    await back();

    await open(text('page_privacy'), 'privacy-page', '/pages/user/privacy');
    expect(await page.locator('[data-testid="privacy-page"]').textContent()).toContain(
      text('privacy_intro'),
    );
    await screenshot(page, 'privacy');
    await back();
  });

  it('switches a signed-in user to the demo account with its 100,000 USDT', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(ME));
    await expect
      .poll(() => page.locator('[data-testid="me-account"]').textContent())
      .toBe(user.email);
    expect(await page.locator('[data-testid="demo-badge"]').count()).toBe(0);

    await page.locator('[data-testid="switch-account"]').click();
    await page.locator('[data-testid="demo-badge"]').waitFor();
    expect(await page.locator('[data-testid="demo-badge"]').textContent()).toBe(
      text('account_demoBadge'),
    );
    await expect
      .poll(() => page.locator('[data-testid="me-balance"]').textContent())
      .toBe('100,000.00');
    await expectToast(page, text('account_nowDemo'));
    await screenshot(page, 'me-k-demo');
  });
});

async function currentHash(page: Page): Promise<string> {
  return page.evaluate(() => window.location.hash);
}
