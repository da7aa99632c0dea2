/**
 * Operators' two-factor authentication through the console, against the real server, with codes
 * made in the test from the key the console shows (as an authenticator app makes them): a finance
 * operator (whose role requires it) signs in and is sent to the set-up page before any other, links
 * the app, turns it on with a code, sees the 10 recovery codes once and reaches the queue; signs
 * out, and signs in again with a code; a wrong code is refused on the field in the console's
 * language; a recovery code works once. An admin resets the operator's two-factor from the
 * operators page (a lost phone): the operator's open console is signed out, and at the next
 * sign-in they set it up again. On the account page the operator sees it on and turns it off with a
 * code, warned that their role has them set it up again at once, which the console then asks.
 * Screens in English and Chinese.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  consoleUrl,
  createOperator,
  firstAdminToken,
  lastOperatorsPage,
  linkAuthenticator,
  screenshot,
  serverText,
  setUpTwoFactor,
  signIn,
  switchLanguage,
  text,
  twoFactorCode,
  useConsole,
  waitForRoute,
  type Language,
  type TestOperator,
} from './console';

/** The sign-in page's first step, for `operator`; waits for its second (the code). */
async function passwordStep(page: Page, operator: TestOperator, language: Language) {
  await page.goto(consoleUrl('/sign-in'));
  await page.locator('[data-testid="username"]').fill(operator.username);
  await page.locator('[data-testid="password"]').fill(operator.password);
  await page.locator('[data-testid="sign-in-submit"]').click();
  await page
    .locator('[data-testid="sign-in-code"]', { hasText: text('twoFactor.signIn.title', language) })
    .waitFor();
}

async function submitCode(page: Page, code: string) {
  await page.locator('[data-testid="two-factor-code"]').fill(code);
  await page.locator('[data-testid="two-factor-submit"]').click();
}

/** The server's text `hint` under the field `field`, in `language`. */
async function expectFieldHint(page: Page, field: string, hint: string, language: Language) {
  await page
    .locator('.ant-form-item', { has: page.locator(`#${field}`) })
    .locator('.ant-form-item-explain-error', { hasText: serverText(hint, language, [field]) })
    .waitFor();
}

async function signOut(page: Page) {
  // On a loaded machine a click can land while the menu is still opening and be lost (the menu
  // then stays open on the page it was): the menu is opened and the item clicked again.
  for (let attempt = 1; ; attempt++) {
    // A sign-out that only took long has arrived meanwhile.
    if (await page.evaluate(() => window.location.hash.startsWith('#/sign-in'))) break;
    const item = page.locator('[data-testid="sign-out"]');
    if (!(await item.isVisible())) await page.locator('[data-testid="operator-menu"]').click();
    await item.click();
    try {
      await page.waitForFunction(() => window.location.hash.startsWith('#/sign-in'), undefined, {
        timeout: 5000,
      });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  await waitForRoute(page, '/sign-in');
}

/** The finance operator's console reached: the deposits queue, theirs. */
async function atQueue(page: Page, language: Language) {
  await page.locator('[data-testid="menu-deposits"]').click();
  await waitForRoute(page, '/deposits');
  await page
    .locator('[data-testid="page-title"]', { hasText: text('nav.deposits', language) })
    .waitFor();
}

// A code is of a later 30-second step than the operator's last one: a test that asks several may
// wait for the clock's next step.
describe('operators’ two-factor authentication', { timeout: 120_000 }, () => {
  const browser = useConsole();
  let chief: TestOperator;
  let finance: TestOperator;

  beforeAll(async () => {
    const admin = await firstAdminToken();
    // The admin who resets it (made first: the operators page lists the newest last).
    chief = await createOperator(admin, ['admin'], 'tfchief');
    // Password chosen, two-factor still off: what a new finance operator has.
    finance = await createOperator(admin, ['finance'], 'tf', { twoFactor: false });
  });

  it('a finance operator sets it up before any page: key, first code, recovery codes once', async () => {
    const page = await browser.newPage('en');
    await signIn(page, finance);
    await waitForRoute(page, '/two-factor-setup');
    await page
      .locator('[data-testid="two-factor-setup-page"]', {
        hasText: text('twoFactor.setup.pageTitle'),
      })
      .waitFor();
    await screenshot(page, 'two-factor-setup-page-en');
    // No page before: its address leads back here.
    await page.goto(consoleUrl('/withdrawals'));
    await waitForRoute(page, '/two-factor-setup');

    await page.locator('[data-testid="two-factor-password"]').fill(finance.password);
    await page.locator('[data-testid="two-factor-start"]').click();
    await page.locator('[data-testid="two-factor-qr"]').waitFor();
    const secret = (await page.locator('[data-testid="two-factor-secret"]').textContent())!.replace(
      /\s/g,
      '',
    );
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    linkAuthenticator(finance.username, secret);
    await screenshot(page, 'two-factor-scan-en');
    await page.locator('[data-testid="two-factor-enable-code"]').fill(await twoFactorCode(finance));
    await page.locator('[data-testid="two-factor-enable"]').click();
    const codes = page.locator('[data-testid="recovery-code"]');
    await codes.first().waitFor();
    finance.recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
    expect(finance.recoveryCodes).toHaveLength(10);
    expect(new Set(finance.recoveryCodes).size).toBe(10);
    await screenshot(page, 'two-factor-recovery-codes-en');
    // Going on asks that they were saved.
    expect(await page.locator('[data-testid="recovery-done"]').isDisabled()).toBe(true);
    await page.locator('[data-testid="recovery-saved"]').click();
    await page.locator('[data-testid="recovery-done"]').click();
    await atQueue(page, 'en');
    // Shown once: back on the set-up page's address, the console goes on.
    await page.goto(consoleUrl('/two-factor-setup'));
    await page.waitForFunction(() => !window.location.hash.startsWith('#/two-factor-setup'));
    expect(await page.locator('[data-testid="recovery-code"]').count()).toBe(0);
    await signOut(page);
  });

  it('sign-in asks a code: a wrong one is refused on its field, a recovery code works once', async () => {
    const page = await browser.newPage('en');
    await passwordStep(page, finance, 'en');
    expect(await page.locator('[data-testid="sign-in-code"]').textContent()).toContain(
      text('twoFactor.signIn.help', 'en', { username: finance.username }),
    );
    await screenshot(page, 'two-factor-sign-in-en');
    await submitCode(page, '000000');
    await expectFieldHint(page, 'code', 'hint_twoFactorWrong', 'en');
    await screenshot(page, 'two-factor-sign-in-wrong-en');
    await submitCode(page, await twoFactorCode(finance));
    await atQueue(page, 'en');
    await signOut(page);

    // A recovery code in place of the app's, once.
    const [recovery] = finance.recoveryCodes!;
    await passwordStep(page, finance, 'en');
    await submitCode(page, recovery!);
    await atQueue(page, 'en');
    await signOut(page);
    await passwordStep(page, finance, 'en');
    await submitCode(page, recovery!);
    await expectFieldHint(page, 'code', 'hint_twoFactorWrong', 'en');
    // Back to the password step, which starts again.
    await page.locator('[data-testid="back-to-password"]').click();
    await page.locator('[data-testid="sign-in"]').waitFor();
    expect(await page.locator('[data-testid="password"]').inputValue()).toBe('');
  });

  it('an admin resets it from the operators page: the open console signs out, set up again', async () => {
    // In Chinese: the code step and its refusal. This console stays open.
    const desk = await browser.newPage('zh');
    await passwordStep(desk, finance, 'zh');
    await screenshot(desk, 'two-factor-sign-in-zh');
    await submitCode(desk, '000000');
    await expectFieldHint(desk, 'code', 'hint_twoFactorWrong', 'zh');
    await screenshot(desk, 'two-factor-sign-in-wrong-zh');
    await submitCode(desk, await twoFactorCode(finance));
    await atQueue(desk, 'zh');

    const page = await browser.newPage('en');
    await signIn(page, chief);
    await page.goto(consoleUrl('/operators'));
    await lastOperatorsPage(page);
    const state = page.locator(`[data-testid="two-factor-${finance.username}"]`);
    await state.locator('.ant-tag', { hasText: text('twoFactor.operators.on') }).waitFor();
    // Not on their own row: that is their account page's.
    expect(await page.locator(`[data-testid="reset-two-factor-${chief.username}"]`).count()).toBe(
      0,
    );
    await page.locator(`[data-testid="reset-two-factor-${finance.username}"]`).click();
    const confirm = page.locator('.ant-popconfirm', {
      hasText: text('twoFactor.operators.resetText'),
    });
    await confirm.waitFor();
    await screenshot(page, 'two-factor-reset-confirm-en');
    await page.locator('[data-testid="reset-two-factor-confirm"]').click();
    await page
      .locator('.ant-message-notice', {
        hasText: text('twoFactor.operators.resetDone_one', 'en', {
          username: finance.username,
          count: 1,
        }),
      })
      .waitFor();
    // The list again: off, to be set up, and no reset to offer.
    await state.locator('.ant-tag', { hasText: text('twoFactor.operators.off') }).waitFor();
    await state.getByText(text('twoFactor.operators.mustSetUp')).waitFor();
    expect(await page.locator(`[data-testid="reset-two-factor-${finance.username}"]`).count()).toBe(
      0,
    );
    await screenshot(page, 'two-factor-reset-done-en');

    // The operator's open console: its next call is refused, back to the sign-in page.
    await desk.locator('[data-testid="menu-withdrawals"]').click();
    await waitForRoute(desk, '/sign-in');
    // The password alone signs in now, and the set-up comes before any page again.
    await signIn(desk, finance);
    await waitForRoute(desk, '/two-factor-setup');
    await desk
      .locator('[data-testid="two-factor-setup-page"]', {
        hasText: text('twoFactor.setup.pageTitle', 'zh'),
      })
      .waitFor();
    await screenshot(desk, 'two-factor-setup-page-zh');
    const again = await setUpTwoFactor(desk, finance);
    finance.secret = again.secret;
    finance.recoveryCodes = again.recoveryCodes;
    await atQueue(desk, 'zh');
  });

  it('the account page shows it, and turning it off with a code has it set up again at once', async () => {
    const page = await browser.newPage('en');
    await signIn(page, finance);
    await page.goto(consoleUrl('/account'));
    const card = page.locator('[data-testid="account-two-factor"]');
    for (const language of ['en', 'zh'] as Language[]) {
      if (language === 'zh') await switchLanguage(page, 'zh');
      await card
        .locator('[data-testid="two-factor-state"]', {
          hasText: text('twoFactor.card.on', language),
        })
        .waitFor();
      expect(await card.locator('[data-testid="two-factor-recovery-left"]').textContent()).toBe(
        '10',
      );
      expect(await card.textContent()).toContain(text('twoFactor.card.required', language));
      // The warning of a role that requires it; the password change asks a code too.
      await card.locator('[data-testid="two-factor-off-required"]').waitFor();
      await page.locator('[data-testid="password-two-factor-code"]').waitFor();
      await screenshot(page, `account-two-factor-${language}`);
    }
    await switchLanguage(page, 'en');

    await card.locator('[data-testid="two-factor-off-code"]').fill('000000');
    await card.locator('[data-testid="two-factor-off"]').click();
    await expectFieldHint(page, 'code', 'hint_twoFactorWrong', 'en');
    await card.locator('[data-testid="two-factor-off-code"]').fill(await twoFactorCode(finance));
    await card.locator('[data-testid="two-factor-off"]').click();
    // Off: finance requires it, so the console asks it set up before anything else.
    await waitForRoute(page, '/two-factor-setup');
    await page.locator('[data-testid="two-factor-password"]').waitFor();
  });
});
