/**
 * The dashboard through the console, against the real server: a finance operator lands on it
 * after sign-in and reads the figures the server computed (users, the deposit a user left for
 * review, the withdrawal, today's trading by kind, the charts once scrolled to, the feed, the
 * instances); approving the deposit moves the figures at the next refresh; the same page in
 * Chinese; a support operator lands on it too but sees no money or trading figure (and the server
 * refuses those calls); a content operator has no dashboard.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cmp, consoleDashboardApi, operatorsApi, type DashboardMoney } from '@bourse/shared';
import { ApiError } from '../src/api/client';
import { grouped } from '../src/components/dashboard/figures';
import {
  client,
  consoleUrl,
  createOperator,
  firstAdminToken,
  operatorToken,
  registerUser,
  screenshot,
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

const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

/** The big figure of a dashboard card. */
async function cardValue(page: Page, card: string): Promise<number> {
  const value = await testId(page, card)
    .locator('.ant-statistic-content-value')
    .first()
    .textContent();
  return Number((value ?? '').replace(/[^\d]/g, ''));
}

async function pendingDeposits(token: string): Promise<number> {
  const money: DashboardMoney = await client(token).call(consoleDashboardApi.money);
  return money.currencies.reduce((n, row) => n + row.depositsPending, 0);
}

/** Waits until the dashboard shows its figures, in `language`. */
async function dashboardShown(page: Page, language: Language): Promise<void> {
  await waitForRoute(page, '/dashboard');
  await testId(page, 'page-title')
    .filter({ hasText: text('nav.dashboard', language) })
    .waitFor();
  await testId(page, 'card-users').waitFor();
}

describe('the dashboard', () => {
  const browser = useConsole();
  let finance: TestOperator;
  let admin: string;

  beforeAll(async () => {
    admin = await firstAdminToken();
  });

  it('is where a finance operator lands, with the figures the server computed', async () => {
    finance = await createOperator(admin, ['finance']);
    const user = await registerUser();
    const funded = await submitDeposit(user, '800');
    await client(admin).call(operatorsApi.approveRecharge, { id: funded.id });
    const deposit = await submitDeposit(user, '125.5');
    await submitWithdrawal(user, '60');
    const financeToken = await operatorToken(finance);
    const waiting = await pendingDeposits(financeToken);
    expect(waiting).toBeGreaterThan(0);

    const page = await browser.newPage('en');
    await signIn(page, finance);
    await dashboardShown(page, 'en');
    // The dashboard is first in the menu.
    const menu = testId(page, 'side-menu');
    expect(await menu.locator('[data-testid^="menu-"]').first().getAttribute('data-testid')).toBe(
      'menu-dashboard',
    );
    expect(await cardValue(page, 'card-depositsPending')).toBe(waiting);
    expect(await cardValue(page, 'card-withdrawalsPending')).toBeGreaterThan(0);
    expect(await cardValue(page, 'card-users')).toBeGreaterThan(0);
    // The deposit's currency: its amount waits for review, with what other tests left waiting.
    const money: DashboardMoney = await client(financeToken).call(consoleDashboardApi.money);
    const pending = money.currencies.find((line) => line.currencyName === deposit.currencyName)!;
    expect(cmp(pending.depositsPendingAmount, '125.5')).toBeGreaterThanOrEqual(0);
    const row = testId(page, `money-${deposit.currencyName}`);
    expect(await row.textContent()).toContain(grouped(pending.depositsPendingAmount));
    // Each kind of trading has its row; the feed runs here, simulated, on this one instance (no
    // Redis: no lease to hold), with a last tick for each kind of product.
    for (const kind of ['0', '1', '2', '3'])
      await testId(page, 'trading-table')
        .locator('tr', { hasText: text(`dashboard.kinds.${kind}`) })
        .waitFor();
    const feed = testId(page, 'feed-card');
    expect(await feed.textContent()).toContain(text('dashboard.feed.simulated'));
    expect(await feed.textContent()).toContain(text('dashboard.feed.leader'));
    expect(await feed.locator('[data-testid="feed-table"] tbody tr').count()).toBe(4);
    expect(await testId(page, 'instance-card').textContent()).toContain(
      text('dashboard.instance.noLease'),
    );
    await screenshot(page, 'dashboard-finance-en');

    // The charts load when scrolled to.
    await testId(page, 'trading-charts').scrollIntoViewIfNeeded();
    await testId(page, 'chart-volume').locator('canvas').first().waitFor();
    await testId(page, 'chart-fees').locator('canvas').first().waitFor();
    await screenshot(page, 'dashboard-charts-en');
    await testId(page, 'feed-card').scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-system-en');

    // The deposit approved elsewhere: the figures move at the next refresh.
    await client(admin).call(operatorsApi.approveRecharge, { id: deposit.id });
    await page.evaluate(() => window.scrollTo(0, 0));
    await testId(page, 'dashboard-refresh').click();
    await page.waitForFunction(
      ([expected]) =>
        document
          .querySelector('[data-testid="card-depositsPending"] .ant-statistic-content-value')
          ?.textContent?.replace(/[^\d]/g, '') === String(expected),
      [waiting - 1],
    );
    expect(await pendingDeposits(financeToken)).toBe(waiting - 1);
  });

  it('reads in Chinese', async () => {
    const page = await browser.newPage('zh');
    await signIn(page, finance);
    await dashboardShown(page, 'zh');
    expect(await testId(page, 'menu-dashboard').textContent()).toBe(text('nav.dashboard', 'zh'));
    expect(await testId(page, 'card-users').textContent()).toContain(
      text('dashboard.users.newToday', 'zh'),
    );
    await testId(page, 'money-table')
      .locator('th', { hasText: text('dashboard.money.currency', 'zh') })
      .waitFor();
    await screenshot(page, 'dashboard-finance-zh');
    await testId(page, 'trading-charts').scrollIntoViewIfNeeded();
    await testId(page, 'chart-volume').locator('canvas').first().waitFor();
    await screenshot(page, 'dashboard-charts-zh');
    await testId(page, 'feed-card').scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-system-zh');
    // And back in English with the header's switch.
    await page.evaluate(() => window.scrollTo(0, 0));
    await switchLanguage(page, 'en');
    await testId(page, 'page-title')
      .filter({ hasText: text('nav.dashboard') })
      .waitFor();
  });

  it('shows support users and the running server, no money; content has no dashboard', async () => {
    const support = await createOperator(admin, ['support']);
    const page = await browser.newPage('en');
    await signIn(page, support);
    await dashboardShown(page, 'en');
    await testId(page, 'feed-card').waitFor();
    for (const id of ['money-table', 'trading-table', 'card-depositsPending', 'trading-charts'])
      expect(await testId(page, id).count(), id).toBe(0);
    await screenshot(page, 'dashboard-support-en');

    const api = client(await operatorToken(support));
    for (const route of [consoleDashboardApi.money, consoleDashboardApi.trading]) {
      const refusal = await api.call(route).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(ApiError);
      expect((refusal as ApiError).status).toBe(403);
    }

    const content = await createOperator(admin, ['content']);
    const other = await browser.newPage('en');
    await signIn(other, content);
    await testId(other, 'side-menu').waitFor();
    expect(await testId(other, 'menu-dashboard').count()).toBe(0);
    await other.goto(consoleUrl('/dashboard'));
    await testId(other, 'page-forbidden').waitFor();
  });
});
