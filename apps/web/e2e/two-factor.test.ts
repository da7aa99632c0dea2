/**
 * Two-factor authentication through the real screens, with codes made in the test from the
 * secret the security centre shows (as an authenticator app makes them, otpauth): a user sets it
 * up (the QR and the key), turns it on with a code, sees the 10 recovery codes once, signs out,
 * signs in with the password and then a code, and withdraws with the withdrawal password and a
 * code. The same screens in Arabic (right to left), where setting the withdrawal password asks the
 * code too. The funded part needs the first operator's
 * password from the harness.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  expectOnScreen,
  expectToast,
  fund,
  operatorToken,
  registerUser,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';
import { authenticator } from './authenticator';

const SECURITY = '/pages/user/change?tab=twoFactor';
const WITHDRAW = '/pages/user/withdrawl';
const WITHDRAW_RECORD = '/pages/user/withdrawRecord';
const WITHDRAW_PASSWORD = '246810';

async function setUp(page: Page, user: RegisteredUser, locale = 'en') {
  const section = page.locator('[data-testid="two-factor-section"]');
  await section.waitFor();
  await expect
    .poll(() => section.locator('[data-testid="two-factor-state"]').textContent())
    .toBe(text('twoFactor_stateOff', locale));
  await page.locator('#two-factor-password').fill(user.password);
  await section.locator('button[type="submit"]').click();
  await page.locator('[data-testid="two-factor-qr"]').waitFor();
  const secret = (
    (await page.locator('[data-testid="two-factor-secret"]').textContent()) ?? ''
  ).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  return secret;
}

async function typeOnPad(page: Page, digits: string): Promise<void> {
  const pad = page.locator('[data-testid="code-pad-popup"]');
  for (const digit of digits) await pad.locator(`button[data-key="${digit}"]`).click();
}

describe('two-factor authentication', () => {
  const browser = useBrowser();

  it('is turned on in the security centre, then asked at sign-in and for a withdrawal', async () => {
    const operator = await operatorToken();
    const user = await registerUser();
    const setPassword = await apiCall('POST', '/api/userInfo/updateUserWithPwd', {
      token: user.token,
      form: { newPwd: WITHDRAW_PASSWORD, userPwd: user.password },
    });
    expect(setPassword.code).toBe(200);
    const card = await apiCall('POST', '/api/userBank/addUserBankCard', {
      token: user.token,
      form: {
        bankName: 'Example Bank',
        accountName: 'Test Person',
        cardNumber: '6222021234567890',
      },
    });
    expect(card.code).toBe(200);
    await fund(user, operator, '300');

    const page = await browser.newPage({ user });
    await page.goto(appUrl(SECURITY));
    await page.locator('[data-testid="two-factor-start"]').waitFor();
    await screenshot(page, 'two-factor-off');

    const secret = await setUp(page, user);
    const app = authenticator(secret);
    await expectOnScreen(page, page.locator('[data-testid="two-factor-qr"]'));
    await screenshot(page, 'two-factor-setup');

    // A wrong code is refused and nothing is turned on.
    await page.locator('#two-factor-enable-code').fill('000000');
    await page.locator('[data-testid="two-factor-confirm"] button[type="submit"]').click();
    await expectToast(page, text('hint_twoFactorWrong'));

    await page.locator('#two-factor-enable-code').fill(await app.nextCode());
    await page.locator('[data-testid="two-factor-confirm"] button[type="submit"]').click();
    const codes = page.locator('[data-testid="two-factor-recovery-codes"] li');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    expect(await codes.first().textContent()).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await screenshot(page, 'two-factor-recovery-codes');
    await page.getByRole('button', { name: text('twoFactor_savedCodes') }).click();
    await expect
      .poll(() => page.locator('[data-testid="two-factor-state"]').textContent())
      .toBe(text('twoFactor_stateOn'));
    expect(await page.locator('[data-testid="two-factor-recovery-left"]').textContent()).toBe(
      text('twoFactor_recoveryLeft').replace('{0}', '10'),
    );
    await screenshot(page, 'two-factor-on');

    // Signed out (a fresh device): the password alone opens no session.
    const device = await browser.newPage();
    await device.goto(appUrl('/pages/user/login'));
    await device.locator('[data-testid="login-page"]').waitFor();
    await device.locator('#login-account').fill(user.email);
    await device.locator('#login-password').fill(user.password);
    await device.locator('[data-testid="login-page"] button[type="submit"]').click();
    const step = device.locator('[data-testid="login-two-factor"]');
    await step.waitFor();
    expect(await device.evaluate(() => window.localStorage.getItem('uToken'))).toBeNull();
    await screenshot(device, 'two-factor-login');
    await device.locator('#login-two-factor-code').fill(await app.nextCode());
    await step.locator('button[type="submit"]').click();
    await waitForRoute(device, '/pages/tabs/me/me-k');
    await expect
      .poll(() => device.locator('[data-testid="me-account"]').textContent())
      .toBe(user.email);

    // A withdrawal asks the code beside the withdrawal password.
    await device.goto(appUrl(WITHDRAW));
    await device.locator('[data-testid="withdraw-form"]').waitFor();
    await device.locator('[data-testid="withdraw-currency-USD"]').click();
    await device.getByRole('button', { name: /Bank transfer \(USD\)/ }).click();
    await device.locator('[data-testid^="withdraw-destination-"]').first().waitFor();
    await device.locator('#withdraw-amount').fill('100');
    const codeField = device.locator('#withdraw-two-factor-code');
    await codeField.waitFor();
    await device.locator('[data-testid="withdraw-submit"]').click();
    await expect
      .poll(() => device.locator('[data-testid="withdraw-form"] .field-error').last().textContent())
      .toBe(text('twoFactor_codeRequired'));
    await codeField.fill(await app.nextCode());
    await screenshot(device, 'two-factor-withdraw');
    await device.locator('[data-testid="withdraw-submit"]').click();
    await device.locator('[data-testid="code-pad-popup"]').waitFor();
    await typeOnPad(device, WITHDRAW_PASSWORD);
    await waitForRoute(device, WITHDRAW_RECORD);
    const row = device.locator('[data-testid="withdraw-row"]').first();
    await row.waitFor();
    expect((await row.textContent()) ?? '').toContain('100.00 USD');
  });

  it('shows the set-up and the sign-in step in Arabic, right to left', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user, storage: { locale: 'ar' } });
    await page.goto(appUrl(SECURITY));
    const secret = await setUp(page, user, 'ar');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // The key reads left to right inside the right-to-left page.
    expect(
      await page
        .locator('[data-testid="two-factor-secret"]')
        .evaluate((element) => getComputedStyle(element).direction),
    ).toBe('ltr');
    await screenshot(page, 'two-factor-setup-ar');
    const app = authenticator(secret);
    await page.locator('#two-factor-enable-code').fill(await app.nextCode());
    await page.locator('[data-testid="two-factor-confirm"] button[type="submit"]').click();
    await page.locator('[data-testid="two-factor-recovery-codes"] li').first().waitFor();
    await screenshot(page, 'two-factor-recovery-codes-ar');

    // A security change asks the code too: the withdrawal password, set with the login password.
    await page.goto(appUrl('/pages/user/change?tab=withdraw'));
    const form = page.locator('[data-testid="withdraw-password-form"]');
    await form.waitFor();
    const codeField = page.locator('#withdraw-password-form-two-factor-code');
    await codeField.waitFor();
    await page.locator('#with-current').fill(user.password);
    await page.locator('#with-new').fill(WITHDRAW_PASSWORD);
    await page.locator('#with-confirm').fill(WITHDRAW_PASSWORD);
    await form.locator('button[type="submit"]').click();
    await expect
      .poll(() => form.locator('.field-error').last().textContent())
      .toBe(text('twoFactor_codeRequired', 'ar'));
    await codeField.fill(await app.nextCode());
    await screenshot(page, 'two-factor-withdraw-password-ar');
    await form.locator('button[type="submit"]').click();
    await expectToast(page, text('account_withdrawPasswordSaved', 'ar'));

    const device = await browser.newPage({ storage: { locale: 'ar' } });
    await device.goto(appUrl('/pages/user/login'));
    await device.locator('#login-account').fill(user.email);
    await device.locator('#login-password').fill(user.password);
    await device.locator('[data-testid="login-page"] button[type="submit"]').click();
    await device.locator('[data-testid="login-two-factor"]').waitFor();
    expect(await device.locator('.auth-title h1').textContent()).toBe(
      text('twoFactor_loginTitle', 'ar'),
    );
    await screenshot(device, 'two-factor-login-ar');
  });
});
