/**
 * A deposit from the user app to the operator console and back, as both meet it: a user, signed
 * in on a phone, deposits by bank transfer with a picture of the receipt through the app's screens;
 * a finance operator finds it in the console's queue, approves it; the user's wallet in the app
 * shows the money, and the approval is in the audit log.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { add, cmp, operatorsApi, walletApi } from '@bourse/shared';
import {
  balance,
  baseUrl,
  client,
  consoleUrl,
  createOperator,
  firstAdminToken,
  receiptImage,
  registerUser,
  screenshot,
  signIn,
  useConsole,
  waitForRoute,
} from './console';

const PHONE = { width: 390, height: 844 } as const;
const AMOUNT = '75';

/** The user app at `route`, signed in as the user (its token in the device's storage). */
async function openApp(page: Page, route: string): Promise<void> {
  await page.goto(`${baseUrl()}/#${route}`);
}

describe('a deposit from the user app to the console', () => {
  const browser = useConsole();

  it('a finance operator approves what a user submitted in the app, and the app shows it', async () => {
    const user = await registerUser();
    const bank = (await client(user.token).call(walletApi.rechargeChannels, {})).find(
      (channel) => channel.channelType === 1,
    )!;
    expect(bank).toBeDefined();
    const before = await balance(user, bank.currencyName);

    // The user's phone: the app signed in, no launch pop-up in the way.
    const phone = await browser.newPage('en');
    await phone.setViewportSize(PHONE);
    await phone.addInitScript((token: string) => {
      localStorage.setItem('uToken', JSON.stringify(token));
      localStorage.setItem('popUpVersion', JSON.stringify(Number.MAX_SAFE_INTEGER));
    }, user.token);
    await openApp(phone, '/pages/user/recharge');
    await phone.locator('[data-testid="recharge-channels"]').waitFor();
    await phone
      .locator('[data-testid="recharge-currencies"]')
      .getByRole('button', { name: bank.currencyName, exact: true })
      .click();
    await phone
      .locator('[data-testid="recharge-channels"] .rc-channel', { hasText: bank.channelName })
      .click();
    await phone.locator('#recharge-amount').fill(AMOUNT);
    const receipt = await receiptImage(AMOUNT, `BRS-${user.id}`);
    await phone.locator('#recharge-proof').setInputFiles({
      name: 'receipt.png',
      mimeType: 'image/png',
      buffer: Buffer.from(receipt.split(',')[1]!, 'base64'),
    });
    await phone.locator('[data-testid="recharge-proof-preview"]').waitFor();
    const submitted = phone.waitForResponse('**/api/userRecharge/inMoney');
    await phone.locator('[data-testid="recharge-form"] button[type="submit"]').click();
    const answer = (await (await submitted).json()) as { code: number; data: { id: number } };
    expect(answer.code).toBe(200);
    const id = answer.data.id;
    await waitForRoute(phone, '/pages/user/recharge-detail');

    // The console: a finance operator finds it under review and approves it.
    const finance = await createOperator(await firstAdminToken(), ['finance']);
    const page = await browser.newPage('en');
    await signIn(page, finance);
    await page.goto(consoleUrl('/deposits'));
    const review = page.locator(`[data-testid="review-${id}"]`);
    await review.waitFor();
    expect(await page.locator('tr', { has: review }).textContent()).toContain(user.email);
    await review.click();
    const drawer = page.locator('[data-testid="review-drawer"]');
    await drawer.waitFor();
    // The receipt the phone sent, decoded and kept by the server, is there to look at.
    await drawer.locator('img').first().waitFor();
    await page.locator('[data-testid="approve"]').click();
    await page.locator('[data-testid="approve-confirm"]').click();
    await drawer.waitFor({ state: 'hidden' });
    await screenshot(page, 'journey-approved-en');

    // The user's wallet in the app has the money.
    expect(cmp(await balance(user, bank.currencyName), add(before, AMOUNT))).toBe(0);
    await openApp(phone, '/pages/user/accountDetail');
    const row = phone.locator(`[data-testid="balance-${bank.currencyName}"]`);
    await row.waitFor();
    // A new user: nothing before, the deposit's 75.00 now (the balance is read live).
    expect(cmp(before, '0')).toBe(0);
    await expect.poll(() => row.textContent()).toContain('75.00');
    await screenshot(phone, 'journey-wallet-en');

    // The approval is in the audit log with the operator who made it (review.test.ts reads the
    // audit page itself).
    const adminToken = await firstAdminToken();
    const audit = await client(adminToken).call(operatorsApi.audit, {
      pageNum: 1,
      pageSize: 20,
      targetType: 'recharge',
      targetId: String(id),
    });
    expect(audit.rows.map((entry) => [entry.action, entry.operatorId])).toContainEqual([
      'recharge.approve',
      finance.id,
    ]);
  });
});
