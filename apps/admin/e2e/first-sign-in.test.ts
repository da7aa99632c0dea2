/**
 * The first sign-in, as a fresh installation has it: the server made the operator `admin` with a
 * generated password (printed once, kept in DATA_DIR/admin-login.txt). Signed in with it, the
 * console opens no page before the operator chose their own password (the server marks an
 * account whose password was never changed with `pwdChangeTime: null`); the schema's and the
 * server's refusals show on their fields, in English and Chinese; the change ends the session,
 * retires the password file, and the new password opens the console.
 *
 * Other files sign `admin` in through the API with the generated password: this test puts it
 * back at the end (a change, audited like any other).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { OPERATOR_PASSWORD_MIN, operatorsApi } from '@bourse/shared';
import { ApiError } from '../src/api/client';
import {
  client,
  consoleUrl,
  createOperator,
  firstAdminToken,
  operatorToken,
  screenshot,
  serverText,
  signIn,
  text,
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
  const browser = useConsole();
  const first = inject('firstAdminPassword');

  beforeAll(async () => {
    // Another file may have used `admin` first (firstAdminToken chose a password): a second
    // admin's reset to the generated password puts it back as a fresh installation has it.
    const { operator } = await client().call(operatorsApi.signIn, {
      username: 'admin',
      password: first,
    });
    if (operator.pwdChangeTime === null) return;
    const keeper = await createOperator(await firstAdminToken(), ['admin'], 'keeper');
    await client(await operatorToken(keeper.username, keeper.password)).call(
      operatorsApi.resetOperatorPassword,
      { id: operator.id, password: first },
    );
  });

  afterAll(async () => {
    // Put the generated password back for the other files, if this test changed it.
    const token = await operatorToken('admin', CHOSEN).catch(() => undefined);
    if (token)
      await client(token).send(operatorsApi.changePassword, {
        oldPassword: CHOSEN,
        newPassword: first,
      });
  });

  it('the first admin chooses a password before any page, and the password file is retired', async () => {
    // In Chinese: the page and the schema's refusal.
    const chinese = await browser.newPage('zh');
    await signIn(chinese, 'admin', first);
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
    await signIn(page, 'admin', first);
    await waitForRoute(page, '/first-password');
    expect(await page.locator('[data-testid="first-password"]').textContent()).toContain(
      text('firstPassword.why', 'en', { username: 'admin' }),
    );
    await screenshot(page, 'first-password-en');
    // No page opens before: a page's address leads back here.
    await page.goto(consoleUrl('/deposits'));
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
    const kept = readFileSync(path.join(inject('consoleDataDir'), 'admin-login.txt'), 'utf8');
    expect(kept.startsWith('#')).toBe(true);
    expect(kept).not.toContain(first);
    const old = await refusal(
      client().call(operatorsApi.signIn, { username: 'admin', password: first }),
    );
    expect(old.msg).toBe('hint_loginFailed');
    // The other page's session ended with the change: it is sent to the sign-in page.
    await chinese.reload();
    await waitForRoute(chinese, '/sign-in');

    // The new password opens the console: an admin starts at the first page of the menu.
    await signIn(page, 'admin', CHOSEN);
    await page.locator('[data-testid="page-title"]').waitFor();
    expect(await page.evaluate(() => window.location.hash)).not.toContain('first-password');
  });

  it('a wrong sign-in is refused above the form, in the console language', async () => {
    for (const language of ['en', 'zh'] as Language[]) {
      const page = await browser.newPage(language);
      await page.goto(consoleUrl('/'));
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
