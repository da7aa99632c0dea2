/**
 * Every page of the console in both languages, with something to show: an admin (who may use
 * every page) signs in with the console in Simplified Chinese, finds the menu, the queues with a
 * deposit and a withdrawal under review and their drawers, the audit log and the account page in
 * Chinese, switches to English and back from the header; the account page puts the server's
 * refusal of a wrong current password on that field, in the console's language; signing out
 * returns to the sign-in page, which says so.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { operatorsApi } from '@bourse/shared';
import {
  client,
  consoleUrl,
  createOperator,
  firstAdminToken,
  registerUser,
  screenshot,
  serverText,
  signIn,
  submitDeposit,
  submitWithdrawal,
  switchLanguage,
  text,
  useConsole,
  waitForRoute,
  type Language,
  type TestOperator,
} from './console';

async function openPage(page: Page, key: string, language: Language) {
  await page.locator(`[data-testid="menu-${key}"]`).click();
  await waitForRoute(page, `/${key}`);
  await page
    .locator('[data-testid="page-title"]', { hasText: text(`nav.${key}`, language) })
    .waitFor();
}

describe('the console in both languages', () => {
  const browser = useConsole();
  let admin: TestOperator;

  it('shows every page in Chinese and in English', async () => {
    const root = await firstAdminToken();
    admin = await createOperator(root, ['admin'], 'chief');
    // A deposit approved, then a second one and a withdrawal left for review.
    const user = await registerUser();
    const funded = await submitDeposit(user, '500');
    await client(root).call(operatorsApi.approveRecharge, { id: funded.id });
    const deposit = await submitDeposit(user, '75.5');
    const withdrawal = await submitWithdrawal(user, '120');

    const page = await browser.newPage('zh');
    await signIn(page, admin);
    await waitForRoute(page, '/dashboard');
    const menu = page.locator('[data-testid="side-menu"]');
    for (const key of ['deposits', 'withdrawals', 'audit', 'account'])
      expect(await menu.locator(`[data-testid="menu-${key}"]`).textContent()).toBe(
        text(`nav.${key}`, 'zh'),
      );

    for (const language of ['zh', 'en'] as Language[]) {
      if (language === 'en') await switchLanguage(page, 'en');
      await openPage(page, 'deposits', language);
      const review = page.locator(`[data-testid="review-${deposit.id}"]`);
      await review.waitFor();
      expect(await page.locator('tr', { has: review }).textContent()).toContain(
        text('status.reviewing', language),
      );
      await screenshot(page, `deposits-queue-${language}`);
      await review.click();
      const drawer = page.locator('[data-testid="review-drawer"]');
      await drawer.locator('[data-testid="proof"] img').waitFor();
      await drawer.locator('[data-testid="user-history"] tbody tr.ant-table-row').nth(1).waitFor();
      await screenshot(page, `deposit-review-${language}`);
      await drawer.locator('[data-testid="reject"]').click();
      await page.locator('[data-testid="reason-preset"]').waitFor();
      await screenshot(page, `deposit-reject-${language}`);
      await page.keyboard.press('Escape');
      await page.locator('.ant-drawer-close').click();
      await drawer.waitFor({ state: 'hidden' });

      await openPage(page, 'withdrawals', language);
      const payout = page.locator(`[data-testid="review-${withdrawal.id}"]`);
      await payout.click();
      await page.locator('[data-testid="destination"]').waitFor();
      await page.locator('[data-testid="user-deposits"] tbody tr.ant-table-row').first().waitFor();
      await page.locator('[data-testid="pay"]').click();
      await page.locator('[data-testid="pay-confirm"]').waitFor();
      await screenshot(page, `withdrawal-pay-${language}`);
      await page
        .locator('.ant-popconfirm-buttons button', { hasText: text('common.cancel', language) })
        .click();
      await page.locator('.ant-drawer-close').click();
      await page.locator('[data-testid="review-drawer"]').waitFor({ state: 'hidden' });
      await screenshot(page, `withdrawals-queue-${language}`);

      await openPage(page, 'audit', language);
      await page.locator('[data-testid="audit-table"] tbody tr.ant-table-row').first().waitFor();
      await page.locator('[data-testid="audit-table"] .ant-table-row-expand-icon').first().click();
      await page.locator('[data-testid="audit-changes"]').waitFor();
      await screenshot(page, `audit-log-${language}`);

      // The server's refusal on the field it names, in the console's language.
      await openPage(page, 'account', language);
      await page.locator('[data-testid="old-password"]').fill('not my password at all');
      await page.locator('[data-testid="new-password"]').fill('Lantern harbor 2027 quokka');
      await page.locator('[data-testid="repeat-password"]').fill('Lantern harbor 2027 quokka');
      // Two-factor is on (an admin's role requires it): the form asks a code too, checked after
      // the password.
      await page.locator('[data-testid="password-two-factor-code"]').fill('123456');
      await page.locator('[data-testid="change-password-submit"]').click();
      await page
        .locator('.ant-form-item', { has: page.locator('#oldPassword') })
        .locator('.ant-form-item-explain-error', {
          hasText: serverText('hint_pwdWrong', language, ['oldPassword']),
        })
        .waitFor();
      await screenshot(page, `account-${language}`);
    }

    // Signing out: the sign-in page says so.
    await page.locator('[data-testid="operator-menu"]').click();
    await page.locator('[data-testid="sign-out"]').click();
    await waitForRoute(page, '/sign-in');
    const notice = page.locator('[data-testid="notice"]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(text('auth.signedOut'));
    await screenshot(page, 'signed-out-en');
    // The session really ended.
    await page.reload();
    await waitForRoute(page, '/sign-in');
  });

  it('tells a support operator in Chinese which roles a page is for', async () => {
    const support = await createOperator(await firstAdminToken(), ['support']);
    const page = await browser.newPage('zh');
    await signIn(page, support);
    // Support lands on the dashboard (users and the feed, no money figures).
    await waitForRoute(page, '/dashboard');
    await page.goto(consoleUrl('/account'));
    await page.locator('[data-testid="account-profile"]').waitFor();
    await screenshot(page, 'support-account-zh');
    await page.goto(consoleUrl('/withdrawals'));
    const forbidden = page.locator('[data-testid="page-forbidden"]');
    await forbidden.waitFor();
    expect(await forbidden.textContent()).toContain(text('gate.title', 'zh'));
    expect(await forbidden.textContent()).toContain(text('roles.finance', 'zh'));
    await screenshot(page, 'support-forbidden-zh');
  });
});
