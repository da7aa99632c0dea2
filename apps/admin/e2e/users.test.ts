/**
 * The user pages through the console, against the real server: a support operator finds a user
 * registered through the API by the start of their email, opens their page, sees the balance an
 * approved deposit credited and its ledger posting, disables sign-in (the user's session is
 * refused at once) and enables it again; the page in Chinese; a finance operator reads the money
 * tabs and has no action. Screenshots in English and Chinese.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { accountApi, operatorsApi } from '@bourse/shared';
import type { ApiError } from '../src/api/client';
import {
  balance,
  client,
  consoleUrl,
  createOperator,
  firstAdminToken,
  registerUser,
  screenshot,
  signIn,
  submitDeposit,
  text,
  useConsole,
  waitForRoute,
  type TestOperator,
  type TestUser,
} from './console';

/** Rows of the table on the page (antd leaves a placeholder row when empty). */
function rows(page: Page, testId: string) {
  return page.locator(`[data-testid="${testId}"] tbody tr.ant-table-row`);
}

/** Confirms an action of the user page in its pop-up. */
async function act(page: Page, action: string): Promise<void> {
  await page.locator(`[data-testid="${action}"]`).click();
  await page.locator(`[data-testid="${action}-confirm"]`).click();
  await page.locator('.ant-message-notice').first().waitFor();
}

async function openTab(page: Page, tab: string): Promise<void> {
  await page.locator(`[data-testid="tab-${tab}"]`).click();
}

describe('user pages', () => {
  const browser = useConsole();
  let support: TestOperator;
  let user: TestUser;
  let credited: { amount: string; currency: string };

  it('support finds a user, sees the deposit in the balance, disables and enables sign-in', async () => {
    const root = await firstAdminToken();
    support = await createOperator(root, ['support']);
    user = await registerUser();
    const deposit = await submitDeposit(user, '320');
    await client(root).call(operatorsApi.approveRecharge, { id: deposit.id });
    credited = {
      amount: await balance(user, deposit.currencyName),
      currency: deposit.currencyName,
    };

    const page = await browser.newPage('en');
    await signIn(page, support);
    await page.locator('[data-testid="menu-users"]').click();
    await waitForRoute(page, '/users');
    await page.locator('[data-testid="page-title"]', { hasText: text('nav.users') }).waitFor();

    // By the start of the email, as support is told it on the phone.
    await page.locator('[data-testid="users-keywords"]').fill(user.email.slice(0, 18));
    await page.locator('[data-testid="users-find"]').click();
    const link = page.locator(`[data-testid="user-link-${user.id}"]`);
    await link.waitFor();
    expect(await link.textContent()).toBe(user.email);
    await screenshot(page, 'users-list-en');

    // An id that is not a number is refused on its field, in the console's words.
    await page.locator('[data-testid="users-field"]').click();
    await page.locator('.ant-select-item-option', { hasText: text('users.searchBy.id') }).click();
    await page.locator('[data-testid="users-keywords"]').fill('abc');
    await page.locator('[data-testid="users-find"]').click();
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    await page.locator('[data-testid="users-keywords"]').fill(String(user.id));
    await page.locator('[data-testid="users-find"]').click();
    await page.locator('.ant-form-item-explain-error').waitFor({ state: 'detached' });
    await link.waitFor();
    expect(await rows(page, 'users-table').count()).toBe(1);

    await link.click();
    await waitForRoute(page, `/users/${user.id}`);
    await page.locator('[data-testid="user-title"]', { hasText: user.email }).waitFor();
    // The menu keeps Users marked on the user's page.
    await page.locator('.ant-menu-item-selected [data-testid="menu-users"]').waitFor();
    const balances = page.locator('[data-testid="user-balances"]');
    await rows(page, 'user-balances').first().waitFor();
    const live = balances.locator('tr.ant-table-row', { hasText: text('users.book.live') });
    expect(await live.filter({ hasText: credited.currency }).first().textContent()).toContain(
      credited.amount,
    );
    await screenshot(page, 'user-page-en');

    // The deposit's posting, with its journal entry.
    await openTab(page, 'ledger');
    const posting = rows(page, 'user-ledger').filter({ hasText: 'recharge' }).first();
    await posting.waitFor();
    expect(await posting.textContent()).toContain(credited.amount);
    await screenshot(page, 'user-ledger-en');
    await openTab(page, 'deposits');
    await rows(page, 'user-deposits').first().waitFor();
    await openTab(page, 'sessions');
    await rows(page, 'user-sessions').first().waitFor();
    await screenshot(page, 'user-sessions-en');

    // Disabled: the user's session is refused at once, and the page says so.
    await page.locator('[data-testid="disable"]').click();
    await page.locator('[data-testid="disable-confirm"]').waitFor();
    await screenshot(page, 'user-disable-confirm-en');
    await page.locator('[data-testid="disable-confirm"]').click();
    await page.locator('[data-testid="user-disabled"]').waitFor();
    await expect(client(user.token).call(accountApi.userInfo)).rejects.toMatchObject({
      status: 401,
    } satisfies Partial<ApiError>);
    expect(await page.locator('[data-testid="active-sessions"]').textContent()).toBe('0');
    await openTab(page, 'logins');
    await rows(page, 'user-logins').first().waitFor();
    await screenshot(page, 'user-disabled-en');

    // Enabled again: the user signs in.
    await act(page, 'enable');
    await page.locator('[data-testid="user-disabled"]').waitFor({ state: 'detached' });
    const again = await client().call(accountApi.login, {
      userAccount: user.email,
      userPwd: 'Quokka7Harbor',
    });
    expect('token' in again && again.token).toEqual(expect.any(String));
  });

  it('shows the user pages in Chinese', async () => {
    expect(user, 'the first test made the user').toBeDefined();
    const page = await browser.newPage('zh');
    await signIn(page, support);
    await page.goto(consoleUrl('/users'));
    await page
      .locator('[data-testid="page-title"]', { hasText: text('nav.users', 'zh') })
      .waitFor();
    await rows(page, 'users-table').first().waitFor();
    await screenshot(page, 'users-list-zh');

    await page.goto(consoleUrl(`/users/${user.id}`));
    await page.locator('[data-testid="user-title"]', { hasText: user.email }).waitFor();
    await rows(page, 'user-balances').first().waitFor();
    expect(await page.locator('[data-testid="tab-ledger"]').textContent()).toBe(
      text('users.tabs.ledger', 'zh'),
    );
    expect(await page.locator('[data-testid="endSessions"]').textContent()).toBe(
      text('users.actions.endSessions.label', 'zh'),
    );
    await screenshot(page, 'user-page-zh');
    await openTab(page, 'orders');
    await page.locator('[data-testid="user-orders"]').waitFor();
    await screenshot(page, 'user-orders-zh');
    await openTab(page, 'logins');
    await rows(page, 'user-logins').first().waitFor();
    await screenshot(page, 'user-logins-zh');
    // The login history: the first test's sign-in, with its result.
    await openTab(page, 'loginHistory');
    await rows(page, 'user-login-history').first().waitFor();
    expect(await rows(page, 'user-login-history').first().textContent()).toContain(
      text('users.loginHistory.results.success', 'zh'),
    );
    await screenshot(page, 'user-login-history-zh');
  });

  it('finance reads the money of a user and has no action', async () => {
    const finance = await createOperator(await firstAdminToken(), ['finance']);
    const page = await browser.newPage('en');
    await signIn(page, finance);
    await page.goto(consoleUrl(`/users/${user.id}`));
    await page.locator('[data-testid="user-title"]', { hasText: user.email }).waitFor();
    await rows(page, 'user-balances').first().waitFor();
    for (const tab of ['balances', 'ledger', 'deposits', 'withdrawals'])
      await page.locator(`[data-testid="tab-${tab}"]`).waitFor();
    for (const hidden of ['tab-orders', 'tab-sessions', 'disable', 'endSessions'])
      expect(await page.locator(`[data-testid="${hidden}"]`).count(), hidden).toBe(0);
    await screenshot(page, 'user-page-finance-en');
  });
});
