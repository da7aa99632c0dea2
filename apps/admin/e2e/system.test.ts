/**
 * The ledger and system pages through the console, against the real server: an admin verifies
 * the ledger (the run's progress, then its verdict over the postings of a user's deposit) and
 * finds the run kept, the platform accounts read from the ledger and the system page with the
 * migrations applied and no secret, in English and in Chinese; a finance operator reads the runs
 * but has no start button and no system page, and the server refuses them both; a support
 * operator sees neither page.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { consoleSystemApi, operatorsApi } from '@bourse/shared';
import { ApiError } from '../src/api/client';
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
  text,
  useConsole,
  waitForRoute,
  type Language,
  type TestOperator,
} from './console';

function testId(page: Page, id: string) {
  return page.locator(`[data-testid="${id}"]`);
}

/** Opens a page of the console from the side menu and waits for its title. */
async function openFromMenu(page: Page, key: string, language: Language) {
  await testId(page, `menu-${key}`).click();
  await waitForRoute(page, `/${key}`);
  await page
    .locator('[data-testid="page-title"]', { hasText: text(`nav.${key}`, language) })
    .waitFor();
}

/** Starts a verification from the page and waits for its verdict; the verdict's text. */
async function verifyFromPage(page: Page): Promise<string> {
  await testId(page, 'start-run').click();
  const verdict = testId(page, 'run-verdict');
  await verdict.waitFor({ timeout: 20_000 });
  return (await verdict.textContent()) ?? '';
}

/**
 * An admin of the test's own: each signs in once or twice, so no code of theirs waits for the
 * next 30-second step (the server takes each step once per operator).
 */
async function newAdmin(): Promise<TestOperator> {
  return createOperator(await firstAdminToken(), ['admin'], 'sysadmin');
}

describe('ledger and system pages', () => {
  const browser = useConsole();

  it('an admin verifies the ledger and sees the verdict, the runs and the platform accounts', async () => {
    const adminToken = await firstAdminToken();
    const admin = await newAdmin();
    // Postings to verify: a user's deposit, approved (registration funds the demo book too).
    const user = await registerUser();
    const deposit = await submitDeposit(user, '120');
    await client(adminToken).call(operatorsApi.approveRecharge, { id: deposit.id });

    const page = await browser.newPage('en');
    await signIn(page, admin);
    await openFromMenu(page, 'ledger', 'en');
    await testId(page, 'verification').waitFor();
    const verdict = await verifyFromPage(page);
    expect(verdict).toContain(text('ledger.passedTitle'));
    // The run is kept: first in the table, passed, with what it counted.
    const firstRow = page.locator('[data-testid="runs-table"] tbody tr.ant-table-row').first();
    await firstRow
      .locator('[data-testid="run-status"]', { hasText: text('ledger.status.passed') })
      .waitFor();
    const runs = await client(await operatorToken(admin)).call(consoleSystemApi.ledgerRuns, {
      pageNum: 1,
      pageSize: 1,
    });
    const run = runs.rows[0]!;
    expect(run).toMatchObject({
      status: 'passed',
      operatorName: admin.username,
      violationCount: 0,
    });
    expect(run.postings).toBeGreaterThan(0);
    expect(verdict).toContain(run.postings!.toLocaleString('en'));
    expect(await firstRow.textContent()).toContain(String(run.id));
    // The platform's side: the outside world's account holds the deposit's counterpart.
    const balances = testId(page, 'platform-balances');
    await balances.locator('tbody tr.ant-table-row').first().waitFor();
    expect(await balances.textContent()).toContain(text('ledger.kinds.external'));
    await screenshot(page, 'ledger-en');
    await testId(page, 'platform').scrollIntoViewIfNeeded();
    await screenshot(page, 'ledger-platform-en');

    await testId(page, 'book-switch')
      .locator('.ant-segmented-item', { hasText: text('ledger.books.demo') })
      .click();
    await balances.locator('tr', { hasText: text('ledger.kinds.demo_faucet') }).waitFor();
  });

  it('the system page shows the migrations applied and hides the secrets', async () => {
    const page = await browser.newPage('en');
    await signIn(page, await newAdmin());
    await openFromMenu(page, 'system', 'en');
    const migrations = testId(page, 'migrations');
    await migrations.locator('tbody tr').first().waitFor();
    const listed = (await migrations.textContent()) ?? '';
    expect(listed).toContain('create_ledger_verify_run');
    expect(listed).toContain('create_ledger');
    const config = (await testId(page, 'config').textContent()) ?? '';
    expect(config).toContain('DATABASE_URL');
    expect(config).toContain('MARKET_FEED');
    expect(await testId(page, 'version').textContent()).toMatch(/^\d+\.\d+\.\d+/);
    await screenshot(page, 'system-en');
    await testId(page, 'config').scrollIntoViewIfNeeded();
    await screenshot(page, 'system-config-en');
  });

  it('in Chinese: the ledger and system pages', async () => {
    const page = await browser.newPage('zh');
    await signIn(page, await newAdmin());
    await openFromMenu(page, 'ledger', 'zh');
    const verdict = await verifyFromPage(page);
    expect(verdict).toContain(text('ledger.passedTitle', 'zh'));
    await page
      .locator('[data-testid="runs-table"] tbody tr.ant-table-row')
      .first()
      .locator('[data-testid="run-status"]', { hasText: text('ledger.status.passed', 'zh') })
      .waitFor();
    await testId(page, 'platform-balances').locator('tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'ledger-zh');

    await openFromMenu(page, 'system', 'zh');
    await testId(page, 'migrations').locator('tbody tr').first().waitFor();
    expect(await testId(page, 'server').textContent()).toContain(
      text('system.databases.pglite', 'zh'),
    );
    await screenshot(page, 'system-zh');
    await testId(page, 'migrations').scrollIntoViewIfNeeded();
    await screenshot(page, 'system-config-zh');
  });

  it('finance reads the runs but starts none and has no system page; support sees neither', async () => {
    const adminToken = await firstAdminToken();
    const finance = await createOperator(adminToken, ['finance'], 'sysfin');
    const page = await browser.newPage('en');
    await signIn(page, finance);
    await openFromMenu(page, 'ledger', 'en');
    await testId(page, 'run-verdict').waitFor();
    expect(await testId(page, 'start-run').count()).toBe(0);
    expect(await testId(page, 'verification').textContent()).toContain(text('ledger.adminOnly'));
    expect(await testId(page, 'menu-system').count()).toBe(0);
    await screenshot(page, 'ledger-finance-en');
    // Opened by its address: the gate says why, and the server refuses the calls anyway.
    await page.goto(consoleUrl('/system'));
    await page.locator('[data-testid="page-forbidden"]', { hasText: text('gate.title') }).waitFor();
    const financeApi = client(await operatorToken(finance));
    for (const refused of [
      () => financeApi.call(consoleSystemApi.startLedgerRun),
      () => financeApi.call(consoleSystemApi.systemInfo),
    ]) {
      const error = await refused().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(403);
    }

    const support = await createOperator(adminToken, ['support'], 'syssup');
    const supportPage = await browser.newPage('en');
    await signIn(supportPage, support);
    await testId(supportPage, 'side-menu').waitFor();
    expect(await testId(supportPage, 'menu-ledger').count()).toBe(0);
    expect(await testId(supportPage, 'menu-system').count()).toBe(0);
  });
});
