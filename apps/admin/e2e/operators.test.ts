/**
 * Operators through the console, against the real server: an admin creates a finance operator
 * with a password made at random (shown once), who signs in, must choose their own password
 * before anything else, then set up two-factor (finance requires it), and then sees only finance's
 * pages; the operators page shows their two-factor on; the admin ends that operator's session
 * from the operators page and the operator's next call leads to the sign-in page. An admin cannot
 * disable themselves (the server's refusal, in its words). The audit log, filtered by action,
 * target and days, downloads as CSV with the filtered rows. Screens of the operators, account and
 * audit pages in English and Chinese.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  actionLabel,
  consoleUrl,
  createOperator,
  firstAdmin,
  firstAdminToken,
  lastOperatorsPage,
  screenshot,
  serverText,
  setUpTwoFactor,
  signIn,
  text,
  useConsole,
  waitForRoute,
  type Credentials,
  type Language,
} from './console';
import { parseCsv } from '../../server/test/support/csv';

const CHOSEN = 'Lantern quokka harbour 88';

/** The antd message (toast) with this text, shown. */
async function expectMessage(page: Page, message: string): Promise<void> {
  await page.locator('.ant-message-notice', { hasText: message }).first().waitFor();
}

/** Rows of the table on the page (antd leaves a placeholder row when empty). */
function rows(page: Page, testId: string) {
  return page.locator(`[data-testid="${testId}"] tbody tr.ant-table-row`);
}

/** The console signed in as an admin (the first one, `admin`, unless another), at a page. */
async function adminAt(page: Page, route: string, admin: Credentials = firstAdmin()) {
  await signIn(page, admin);
  await page.goto(consoleUrl(route));
  await waitForRoute(page, route);
}

describe('operators', () => {
  const browser = useConsole();
  let created: { id: number; username: string } | undefined;

  it('an admin creates a finance operator, who must choose a password, then sees only finance pages; the admin ends their session', async () => {
    const admin = await browser.newPage('en');
    await adminAt(admin, '/operators');
    await admin.locator('[data-testid="page-title"]', { hasText: text('nav.operators') }).waitFor();
    await rows(admin, 'operators-table').first().waitFor();
    await screenshot(admin, 'operators-en');

    // A new operator: the roles and the username checked on their fields first.
    const username = `desk${Date.now().toString(36)}`;
    await admin.locator('[data-testid="create-operator"]').click();
    const form = admin.locator('[data-testid="create-operator-form"]');
    await form.waitFor();
    await admin.locator('[data-testid="create-username"]').fill('x');
    await admin.locator('[data-testid="create-submit"]').click();
    await form
      .locator('.ant-form-item-explain-error', { hasText: serverText('hint_operatorNameInvalid') })
      .waitFor();
    await form
      .locator('.ant-form-item-explain-error', {
        hasText: serverText('hint_paramRequired', 'en', ['roles']),
      })
      .waitFor();
    await screenshot(admin, 'operator-create-errors-en');
    // A taken name: the server's refusal on the field.
    await admin.locator('[data-testid="create-username"]').fill('admin');
    await admin.locator('[data-testid="role-finance"]').click();
    await admin.locator('[data-testid="create-submit"]').click();
    await form
      .locator('.ant-form-item-explain-error', { hasText: serverText('hint_operatorNameTaken') })
      .waitFor();
    await admin.locator('[data-testid="create-username"]').fill(username);
    await admin.locator('[data-testid="create-submit"]').click();

    // The password made at random, shown once.
    const shown = admin.locator('[data-testid="one-time-password"]');
    await shown.waitFor();
    const password = (await shown.textContent())!.trim();
    expect(password).toMatch(/^[A-Za-z0-9]{16,20}$/);
    await screenshot(admin, 'operator-password-once-en');
    await admin.getByRole('button', { name: text('operators.oneTime.done') }).click();
    await lastOperatorsPage(admin);
    const row = admin.locator('[data-testid="operators-table"] tr', { hasText: username });
    await row.waitFor();
    expect(await row.textContent()).toContain(text('operators.mustChoose'));
    created = {
      id: Number(await row.locator('td').first().textContent()),
      username,
    };

    // The operator signs in and must choose a password before any page.
    const desk = await browser.newPage('en');
    await signIn(desk, { username, password });
    await waitForRoute(desk, '/first-password');
    await desk.goto(consoleUrl('/deposits'));
    await waitForRoute(desk, '/first-password');
    await desk.locator('[data-testid="old-password"]').fill(password);
    await desk.locator('[data-testid="new-password"]').fill(CHOSEN);
    await desk.locator('[data-testid="repeat-password"]').fill(CHOSEN);
    await desk.locator('[data-testid="change-password-submit"]').click();
    await waitForRoute(desk, '/sign-in');
    // Finance requires two-factor: set up before any page, then the console opens.
    await signIn(desk, { username, password: CHOSEN });
    await waitForRoute(desk, '/two-factor-setup');
    await desk.goto(consoleUrl('/deposits'));
    await waitForRoute(desk, '/two-factor-setup');
    await setUpTwoFactor(desk, { username, password: CHOSEN });
    // The pages finance's roles admit: the queues, and no operators, audit log or system.
    await desk.locator('[data-testid="menu-deposits"]').waitFor();
    await desk.locator('[data-testid="menu-withdrawals"]').waitFor();
    await screenshot(desk, 'finance-signed-in-en');
    for (const page of ['operators', 'audit', 'system'])
      expect(await desk.locator(`[data-testid="menu-${page}"]`).count(), page).toBe(0);
    await desk.goto(consoleUrl('/operators'));
    await desk.locator('.ant-result', { hasText: text('gate.title') }).waitFor();
    await screenshot(desk, 'operators-forbidden-finance-en');

    // The admin sees the operator's two-factor on, and their session, and ends it.
    await admin.reload();
    await lastOperatorsPage(admin);
    await admin
      .locator(`[data-testid="two-factor-${username}"]`, {
        hasText: text('twoFactor.operators.on'),
      })
      .waitFor();
    await admin.locator(`[data-testid="sessions-${username}"]`).click();
    const drawer = admin.locator('[data-testid="sessions-drawer"]');
    await drawer.waitFor();
    const session = drawer.locator('tbody tr.ant-table-row');
    await expect.poll(() => session.count()).toBe(1);
    expect(await session.textContent()).toContain('Chrome');
    await screenshot(admin, 'operator-sessions-en');
    await session.locator('button', { hasText: text('operators.sessions.end') }).click();
    await admin.locator('[data-testid="session-end-confirm"]').click();
    await expectMessage(admin, text('operators.sessions.ended'));
    await expect.poll(() => session.count()).toBe(0);

    // The operator's next call is refused: back to the sign-in page.
    await desk.goto(consoleUrl('/withdrawals'));
    await waitForRoute(desk, '/sign-in');

    // No admin disables themselves: the server's refusal, as it words it.
    await admin.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await admin.locator('[data-testid="toggle-admin"]').click();
    await admin.locator('[data-testid="toggle-confirm"]').click();
    await expectMessage(admin, serverText('hint_operatorSelf'));
  });

  it('the audit log filters by action, target and days, and exports the filtered rows as CSV', async () => {
    expect(created).toBeDefined();
    const page = await browser.newPage('en');
    await adminAt(page, '/audit');
    const filter = page.locator('[data-testid="audit-filter"]');
    await filter.waitFor();
    // By operator, picked by name.
    await page.locator('[data-testid="audit-operator"]').click();
    await page.keyboard.type('admin');
    await page.locator('.ant-select-item-option', { hasText: 'admin (1)' }).click();
    await page.locator('[data-testid="audit-action"] input').fill('operator.create');
    await page.locator('[data-testid="audit-target-id"]').fill(String(created!.id));
    const today = new Date().toISOString().slice(0, 10);
    const days = filter.locator('.ant-picker-range input');
    await days.nth(0).click();
    await days.nth(0).fill(today);
    await days.nth(0).press('Enter');
    await days.nth(1).fill(today);
    await days.nth(1).press('Enter');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="audit-search"]').click();
    await expect.poll(() => rows(page, 'audit-table').count()).toBe(1);
    expect(await rows(page, 'audit-table').first().textContent()).toContain(
      actionLabel('operator.create'),
    );
    await screenshot(page, 'audit-filtered-en');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid="audit-export"]').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`audit-${today}.csv`);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(lines[0]).toEqual([
      'id',
      'time',
      'operatorId',
      'operatorName',
      'action',
      'targetType',
      'targetId',
      'ip',
      'before',
      'after',
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.slice(3, 7)).toEqual([
      'admin',
      'operator.create',
      'operator',
      String(created!.id),
    ]);
    expect(JSON.parse(lines[1]![9]!)).toMatchObject({
      username: created!.username,
      roles: ['finance'],
    });

    // The export is in the log too.
    await page.locator('[data-testid="audit-action"] input').fill('audit.export');
    await page.locator('[data-testid="audit-target-id"]').fill('');
    await page.locator('[data-testid="audit-search"]').click();
    await rows(page, 'audit-table')
      .first()
      .locator('td', { hasText: actionLabel('audit.export') })
      .waitFor();
  });

  it('shows the operators, account and audit pages in English and Chinese', async () => {
    for (const language of ['en', 'zh'] as Language[]) {
      const page = await browser.newPage(language);
      // An admin of its own for each language, who signs in once (no code waits for a step).
      await adminAt(
        page,
        '/operators',
        await createOperator(await firstAdminToken(), ['admin'], 'chief'),
      );
      await page
        .locator('[data-testid="page-title"]', { hasText: text('nav.operators', language) })
        .waitFor();
      await rows(page, 'operators-table').first().waitFor();
      await screenshot(page, `operators-page-${language}`);
      await page.locator('[data-testid="create-operator"]').click();
      await page.locator('[data-testid="create-operator-form"]').waitFor();
      await screenshot(page, `operator-create-${language}`);
      await page.keyboard.press('Escape');
      await page.locator(`[data-testid="reset-admin"]`).click();
      await page.locator('[data-testid="reset-form"]').waitFor();
      await screenshot(page, `operator-reset-${language}`);
      await page.keyboard.press('Escape');

      await page.goto(consoleUrl('/account'));
      await page
        .locator('[data-testid="account-sessions"] tbody tr.ant-table-row')
        .first()
        .waitFor();
      await page
        .locator('[data-testid="session-current"]', {
          hasText: text('operators.sessions.current', language),
        })
        .waitFor();
      await screenshot(page, `account-${language}`);

      await page.goto(consoleUrl('/audit'));
      await rows(page, 'audit-table').first().waitFor();
      await page
        .locator('[data-testid="audit-export"]', { hasText: text('audit.export', language) })
        .waitFor();
      await screenshot(page, `audit-${language}`);
    }
  });
});
