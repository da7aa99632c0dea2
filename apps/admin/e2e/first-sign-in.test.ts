/**
 * The first sign-in, as a fresh installation has it (a server of its own, started by the global
 * setup, that no other file uses): the server made the operator `admin` with a generated password
 * (printed once, kept in DATA_DIR/admin-login.txt). Signed in with it, the console opens no page
 * before the operator chose their own password (the server marks an account whose password was
 * never changed with `pwdChangeTime: null`); the schema's and the server's refusals show on their
 * fields, in English and Chinese; the change ends the session and retires the password file.
 * Signed in with the new password, the console still opens no page before two-factor is set up
 * (an admin's role requires it; the server refuses every other call meanwhile): the password, the
 * key read from the page into an authenticator app, its first code (a wrong one refused on the
 * field), the 10 recovery codes (downloaded as text) saved; then the console opens, and the next
 * sign-in asks a code.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { OPERATOR_PASSWORD_MIN, operatorsApi } from '@bourse/shared';
import { ApiError } from '../src/api/client';
import {
  client,
  consoleUrl,
  linkAuthenticator,
  operatorToken,
  screenshot,
  serverText,
  signIn,
  text,
  twoFactorCode,
  useConsole,
  waitForRoute,
  type Language,
} from './console';

const CHOSEN = 'Harbor lantern quokka 2026';

async function fillPasswords(page: Page, current: string, chosen: string, repeat = chosen) {
  await page.locator('[data-testid="old-password"]').fill(current);
  await page.locator('[data-testid="new-password"]').fill(chosen);
  await page.locator('[data-testid="repeat-password"]').fill(repeat);
  await page.locator('[data-testid="change-password-submit"]').click();
}

/** The error shown under a field of the form (the field's id is its name). */
function fieldError(page: Page, field: string, message: string) {
  return page
    .locator('.ant-form-item', { has: page.locator(`#${field}`) })
    .locator('.ant-form-item-explain-error', { hasText: message });
}

/** Waits for the server's text `hint` (in `language`, its parameters filled in) under a field. */
async function expectFieldHint(
  page: Page,
  field: string,
  hint: string,
  language: Language,
  params: unknown[] = [field],
): Promise<void> {
  await fieldError(page, field, serverText(hint, language, params)).waitFor();
}

async function refusal(attempt: Promise<unknown>): Promise<ApiError> {
  const error = await attempt.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('first sign-in', () => {
  const fresh = inject('freshConsole');
  const base = fresh.baseUrl;
  const browser = useConsole(base);
  const first = fresh.firstAdminPassword;
  const chosen = { username: 'admin', password: CHOSEN };

  it('the first admin chooses a password, then sets up two-factor, before any page', async () => {
    // In Chinese: the page and the schema's refusal.
    const chinese = await browser.newPage('zh');
    await signIn(chinese, { username: 'admin', password: first }, base);
    await waitForRoute(chinese, '/first-password');
    await chinese
      .locator('[data-testid="first-password"]', { hasText: text('firstPassword.title', 'zh') })
      .waitFor();
    await screenshot(chinese, 'first-password-zh');
    await fillPasswords(chinese, first, 'short');
    await expectFieldHint(chinese, 'newPassword', 'hint_paramTooShort', 'zh', [
      'newPassword',
      OPERATOR_PASSWORD_MIN,
    ]);
    await screenshot(chinese, 'first-password-error-zh');

    const page = await browser.newPage('en');
    await signIn(page, { username: 'admin', password: first }, base);
    await waitForRoute(page, '/first-password');
    expect(await page.locator('[data-testid="first-password"]').textContent()).toContain(
      text('firstPassword.why', 'en', { username: 'admin' }),
    );
    await screenshot(page, 'first-password-en');
    // No page opens before: a page's address leads back here.
    await page.goto(consoleUrl('/deposits', base));
    await waitForRoute(page, '/first-password');

    // The schema's refusal on its field, before any call.
    await fillPasswords(page, first, 'too short');
    await expectFieldHint(page, 'newPassword', 'hint_paramTooShort', 'en', [
      'newPassword',
      OPERATOR_PASSWORD_MIN,
    ]);
    // The server's refusals on the fields they name: a common password, a wrong current one.
    await fillPasswords(page, first, 'aaaaaaaaaaaa');
    await expectFieldHint(page, 'newPassword', 'hint_pwdCommon', 'en');
    await fillPasswords(page, 'not the password at all', CHOSEN);
    await expectFieldHint(page, 'oldPassword', 'hint_pwdWrong', 'en');
    await screenshot(page, 'first-password-error-en');
    // The repetition is the console's own check.
    await fillPasswords(page, first, CHOSEN, `${CHOSEN}!`);
    await fieldError(page, 'repeatPassword', text('password.mismatch')).waitFor();

    // Changed: every session ends, the sign-in page says so.
    await fillPasswords(page, first, CHOSEN);
    await waitForRoute(page, '/sign-in');
    const notice = page.locator('[data-testid="notice"]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(serverText('hint_pwdChanged'));
    await screenshot(page, 'sign-in-password-changed-en');

    // The file no longer keeps a password, and the generated one no longer signs in.
    const kept = readFileSync(path.join(fresh.dataDir, 'admin-login.txt'), 'utf8');
    expect(kept.startsWith('#')).toBe(true);
    expect(kept).not.toContain(first);
    const old = await refusal(
      client(undefined, 'en', base).call(operatorsApi.signIn, {
        username: 'admin',
        password: first,
      }),
    );
    expect(old.msg).toBe('hint_loginFailed');
    // The other page's session ended with the change: it is sent to the sign-in page.
    await chinese.reload();
    await waitForRoute(chinese, '/sign-in');

    // The new password: an admin must set up two-factor before any page, in either language.
    await signIn(chinese, chosen, base);
    await waitForRoute(chinese, '/two-factor-setup');
    await chinese
      .locator('[data-testid="two-factor-setup-page"]', {
        hasText: text('twoFactor.setup.pageTitle', 'zh'),
      })
      .waitFor();
    await screenshot(chinese, 'two-factor-setup-zh');
    await signIn(page, chosen, base);
    await waitForRoute(page, '/two-factor-setup');
    expect(await page.locator('[data-testid="two-factor-setup-page"]').textContent()).toContain(
      text('twoFactor.setup.why'),
    );
    await screenshot(page, 'two-factor-setup-en');
    await page.goto(consoleUrl('/deposits', base));
    await waitForRoute(page, '/two-factor-setup');
    // The server refuses the operator's other calls meanwhile.
    const early = await refusal(
      client(await operatorToken(chosen, base), 'en', base).call(operatorsApi.recharges, {}),
    );
    expect(early).toMatchObject({ status: 403, msg: 'hint_twoFactorSetupRequired' });

    // The password first: a wrong one refused on its field.
    await page.locator('[data-testid="two-factor-password"]').fill('not the password at all');
    await page.locator('[data-testid="two-factor-start"]').click();
    await expectFieldHint(page, 'password', 'hint_pwdWrong', 'en');
    await page.locator('[data-testid="two-factor-password"]').fill(CHOSEN);
    await page.locator('[data-testid="two-factor-start"]').click();
    // The QR code and the key, which the operator's app takes (here: the test's).
    await page.locator('[data-testid="two-factor-qr"]').waitFor();
    const secret = (await page.locator('[data-testid="two-factor-secret"]').textContent())!.replace(
      /\s/g,
      '',
    );
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    linkAuthenticator('admin', secret, base);
    await screenshot(page, 'two-factor-setup-scan-en');
    // A wrong code is refused on its field; the app's code turns two-factor on.
    await page.locator('[data-testid="two-factor-enable-code"]').fill('000000');
    await page.locator('[data-testid="two-factor-enable"]').click();
    await expectFieldHint(page, 'code', 'hint_twoFactorWrong', 'en');
    await page
      .locator('[data-testid="two-factor-enable-code"]')
      .fill(await twoFactorCode({ username: 'admin' }, base));
    await page.locator('[data-testid="two-factor-enable"]').click();

    // The recovery codes, this once: downloaded as text, and saved before going on.
    const codes = page.locator('[data-testid="recovery-code"]');
    await codes.first().waitFor();
    const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await screenshot(page, 'two-factor-recovery-en');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid="recovery-download"]').click(),
    ]);
    expect(download.suggestedFilename()).toBe('recovery-codes-admin.txt');
    const saved = readFileSync((await download.path())!, 'utf8');
    for (const code of recoveryCodes) expect(saved).toContain(code);
    expect(saved).toContain('admin');
    expect(await page.locator('[data-testid="recovery-done"]').isDisabled()).toBe(true);
    await page.locator('[data-testid="recovery-saved"]').click();
    await page.locator('[data-testid="recovery-done"]').click();

    // The console opens: an admin starts at the first page of the menu.
    await page.locator('[data-testid="page-title"]').waitFor();
    expect(await page.evaluate(() => window.location.hash)).not.toMatch(
      /first-password|two-factor/,
    );
    // The other page, still on the set-up page, goes on to the console once reloaded.
    await chinese.reload();
    await chinese.locator('[data-testid="page-title"]').waitFor();

    // The next sign-in asks a code, here in Chinese.
    const again = await browser.newPage('zh');
    await again.goto(consoleUrl('/sign-in', base));
    await again.locator('[data-testid="username"]').fill('admin');
    await again.locator('[data-testid="password"]').fill(CHOSEN);
    await again.locator('[data-testid="sign-in-submit"]').click();
    await again
      .locator('[data-testid="sign-in-code"]', { hasText: text('twoFactor.signIn.title', 'zh') })
      .waitFor();
    await screenshot(again, 'sign-in-code-zh');
    await again.locator('[data-testid="two-factor-code"]').fill(await twoFactorCode(chosen, base));
    await again.locator('[data-testid="two-factor-submit"]').click();
    await again.locator('[data-testid="page-title"]').waitFor();
  });

  it('a wrong sign-in is refused above the form, in the console language', async () => {
    for (const language of ['en', 'zh'] as Language[]) {
      const page = await browser.newPage(language);
      await page.goto(consoleUrl('/', base));
      // Signed out: any address leads to the sign-in page.
      await waitForRoute(page, '/sign-in');
      await page
        .locator('[data-testid="sign-in"]', { hasText: text('auth.signInTitle', language) })
        .waitFor();
      await screenshot(page, `sign-in-${language}`);
      await page.locator('[data-testid="username"]').fill('nobody');
      await page.locator('[data-testid="password"]').fill('not a password at all');
      await page.locator('[data-testid="sign-in-submit"]').click();
      const error = page.locator('[data-testid="form-error"]');
      await error.waitFor();
      expect(await error.textContent()).toContain(serverText('hint_loginFailed', language));
      await screenshot(page, `sign-in-failed-${language}`);
      // An empty field: the schema's refusal on it.
      await page.locator('[data-testid="username"]').fill('');
      await page.locator('[data-testid="sign-in-submit"]').click();
      await expectFieldHint(page, 'username', 'hint_paramRequired', language);
      await screenshot(page, `sign-in-error-${language}`);
    }
  });
});
