/**
 * The review queues through the console, against the real server: a user deposits by bank
 * transfer with a receipt, a finance operator signs in, finds it under review, looks at the proof
 * (zoomed), approves it, and the user's balance rises by the amount; a withdrawal of that user
 * shows its destination in full, a refusal without a reason is stopped on the reason's field, and
 * a rejection returns the frozen funds; a support operator sees no finance page and the server
 * refuses the finance calls; an admin finds the approval in the audit log, with what changed.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { add, cmp, operatorsApi, type ReviewedRecharge } from '@bourse/shared';
import { ApiError } from '../src/api/client';
import {
  balance,
  client,
  consoleUrl,
  createOperator,
  firstAdminToken,
  operatorToken,
  registerUser,
  screenshot,
  serverText,
  signIn,
  submitDeposit,
  submitWithdrawal,
  text,
  useConsole,
  waitForRoute,
  type TestOperator,
  type TestUser,
  actionLabel,
} from './console';

const DEPOSIT_AMOUNT = '250';
const WITHDRAW_AMOUNT = '40';

/** The antd message (toast) with this text, shown. */
async function expectMessage(page: Page, message: string): Promise<void> {
  await page.locator('.ant-message-notice', { hasText: message }).first().waitFor();
}

/** Rows of the table on the page (antd leaves a placeholder row when empty). */
function rows(page: Page, testId: string) {
  return page.locator(`[data-testid="${testId}"] tbody tr.ant-table-row`);
}

describe('review queues', () => {
  const browser = useConsole();
  let finance: TestOperator;
  let user: TestUser;
  let deposit: ReviewedRecharge | undefined;

  it('a finance operator approves a deposit with its proof, and the user balance rises', async () => {
    finance = await createOperator(await firstAdminToken(), ['finance']);
    user = await registerUser();
    const submitted = await submitDeposit(user, DEPOSIT_AMOUNT);
    expect(submitted.status).toBe(0);
    const before = await balance(user, submitted.currencyName);

    const page = await browser.newPage('en');
    await signIn(page, finance);
    // Finance starts at the dashboard; the queue, a click away, has this request under review.
    await waitForRoute(page, '/dashboard');
    await page.locator('[data-testid="menu-deposits"]').click();
    await waitForRoute(page, '/deposits');
    await page.locator('[data-testid="page-title"]', { hasText: text('nav.deposits') }).waitFor();
    const review = page.locator(`[data-testid="review-${submitted.id}"]`);
    await review.waitFor();
    const row = page.locator('tr', { has: review });
    expect(await row.textContent()).toContain(user.email);
    expect(await row.textContent()).toContain(text('status.reviewing'));
    await screenshot(page, 'deposits-queue-en');

    // The drawer: amount, user, channel, the proof as the server keeps it, the user's deposits.
    await review.click();
    const drawer = page.locator('[data-testid="review-drawer"]');
    await drawer.waitFor();
    expect(await drawer.locator('[data-testid="review-amount"]').textContent()).toBe(
      `${submitted.amount} ${submitted.currencyName}`,
    );
    const proof = drawer.locator('[data-testid="proof"] img');
    await proof.waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="proof"] img') as HTMLImageElement | null)
          ?.naturalWidth === 900,
    );
    expect(await proof.getAttribute('src')).toMatch(/^blob:/);
    await drawer.locator('[data-testid="user-history"] tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'deposit-review-en');

    // The proof zoomed in antd's preview (the mask over the picture takes the click).
    await drawer.locator('[data-testid="proof"] .ant-image').click();
    const preview = page.locator('.ant-image-preview-img');
    await preview.waitFor();
    const zoomIn = page.locator('.ant-image-preview-operations-operation', {
      has: page.locator('.anticon-zoom-in'),
    });
    await page.locator('.ant-image-preview-operations').waitFor();
    const scaleBefore = await preview.evaluate((img) => getComputedStyle(img).transform);
    await zoomIn.click();
    await zoomIn.click();
    await page.waitForFunction(
      (previous) =>
        getComputedStyle(document.querySelector('.ant-image-preview-img')!).transform !== previous,
      scaleBefore,
    );
    await page.waitForTimeout(400);
    await screenshot(page, 'deposit-proof-zoomed-en');
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'hidden' });

    // Approved once: the toast, the drawer closed, the request gone from the queue.
    await drawer.locator('[data-testid="approve"]').click();
    await page.locator('[data-testid="approve-confirm"]').click();
    await expectMessage(
      page,
      text('deposits.decision.done', 'en', {
        amount: `${submitted.amount} ${submitted.currencyName}`,
        order: submitted.orderNo,
      }),
    );
    await drawer.waitFor({ state: 'hidden' });
    await review.waitFor({ state: 'detached' });

    // The user's balance rose by the amount, read through the user API.
    const after = await balance(user, submitted.currencyName);
    expect(cmp(after, add(before, submitted.amount))).toBe(0);

    // Among the approved ones, with its status.
    await page
      .locator('[data-testid="status-filter"] .ant-segmented-item', {
        hasText: text('status.approved'),
      })
      .click();
    const approved = page.locator(`[data-testid="review-${submitted.id}"]`);
    await approved.waitFor();
    expect(await page.locator('tr', { has: approved }).textContent()).toContain(
      text('status.approved'),
    );

    // A second click elsewhere credits nothing more: the server answers "already done".
    const again = await client(await operatorToken(finance)).send(operatorsApi.approveRecharge, {
      id: submitted.id,
    });
    expect(again.msg).toBe('hint_48');
    expect(cmp(await balance(user, submitted.currencyName), after)).toBe(0);
    deposit = again.result;
  });

  it('shows a withdrawal destination in full, wants a reason, and rejecting returns the funds', async () => {
    expect(deposit, 'the first test funded the user').toBeDefined();
    const currency = deposit!.currencyName;
    const funded = await balance(user, currency);
    const requested = await submitWithdrawal(user, WITHDRAW_AMOUNT);
    expect(requested.status).toBe(0);
    expect(cmp(await balance(user, currency), funded)).toBeLessThan(0);

    const page = await browser.newPage('en');
    await signIn(page, finance);
    await page.locator('[data-testid="menu-withdrawals"]').click();
    await waitForRoute(page, '/withdrawals');
    const review = page.locator(`[data-testid="review-${requested.id}"]`);
    await review.waitFor();
    await screenshot(page, 'withdrawals-queue-en');

    await review.click();
    const drawer = page.locator('[data-testid="review-drawer"]');
    await drawer.waitFor();
    // The card number in full: the operator pays it.
    const destination = drawer.locator('[data-testid="destination"]');
    expect(await destination.textContent()).toContain('6222021234567890');
    expect(await destination.textContent()).toContain('Test Person');
    await drawer
      .locator('[data-testid="user-withdrawals"] tbody tr.ant-table-row')
      .first()
      .waitFor();
    await drawer.locator('[data-testid="user-deposits"] tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'withdrawal-review-en');

    // No reason: refused on the reason's field, in the server's words, before any call.
    await drawer.locator('[data-testid="reject"]').click();
    const dialog = page.locator('.ant-modal', { has: page.locator('[data-testid="reason"]') });
    await dialog.waitFor();
    await page.locator('[data-testid="reject-confirm"]').click();
    await dialog
      .locator('.ant-form-item-explain-error', {
        hasText: serverText('hint_paramRequired', 'en', ['reason']),
      })
      .waitFor();
    // A usual reason, then edited.
    await dialog.locator('[data-testid="reason-preset"]').click();
    const reasons = text('withdrawals.reasons.0');
    await page.locator('.ant-select-item-option', { hasText: reasons }).click();
    const reason = dialog.locator('[data-testid="reason"]');
    expect(await reason.inputValue()).toBe(reasons);
    await reason.fill(`${reasons}\nThe card number has a digit missing.`);
    await screenshot(page, 'withdrawal-reject-en');
    await page.locator('[data-testid="reject-confirm"]').click();
    await expectMessage(
      page,
      text('withdrawals.rejectedToast', 'en', { order: requested.orderNo }),
    );
    await review.waitFor({ state: 'detached' });
    // The frozen amount and fee are back at once.
    expect(cmp(await balance(user, currency), funded)).toBe(0);
  });

  it('a support operator sees no finance page, and the server refuses the finance calls', async () => {
    const admin = await firstAdminToken();
    const support = await createOperator(admin, ['support']);
    const page = await browser.newPage('en');
    await signIn(page, support);
    // Support starts at the dashboard (users and the running server, no money).
    await waitForRoute(page, '/dashboard');
    const menu = page.locator('[data-testid="side-menu"]');
    await menu.locator('[data-testid="menu-account"]').waitFor();
    for (const key of ['deposits', 'withdrawals', 'audit'])
      expect(await menu.locator(`[data-testid="menu-${key}"]`).count(), key).toBe(0);
    await screenshot(page, 'support-menu-en');

    // Opened by its address: the page says whose it is and calls nothing.
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/admin-api/recharges')) calls.push(request.url());
    });
    await page.goto(consoleUrl('/deposits'));
    await page.locator('[data-testid="page-forbidden"]').waitFor();
    expect(await page.locator('[data-testid="page-forbidden"]').textContent()).toContain(
      text('gate.title'),
    );
    expect(calls).toEqual([]);
    await screenshot(page, 'support-forbidden-en');

    // The server refuses every finance call of theirs (403 hint_forbidden).
    const api = client(await operatorToken(support));
    const attempts: (() => Promise<unknown>)[] = [
      () => api.call(operatorsApi.recharges, {}),
      () => api.call(operatorsApi.withdrawals, {}),
      () => api.call(operatorsApi.approveRecharge, { id: deposit?.id ?? 1 }),
      () => api.call(operatorsApi.rejectWithdrawal, { id: 1, reason: 'no' }),
      () => api.call(operatorsApi.payWithdrawal, { id: 1 }),
      () => api.call(operatorsApi.rechargeProof, { id: deposit?.id ?? 1 }),
      () => api.call(operatorsApi.audit, {}),
    ];
    for (const attempt of attempts) {
      const error = await attempt().then(
        () => undefined,
        (refusal: unknown) => refusal,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(403);
      expect((error as ApiError).msg).toBe('hint_forbidden');
    }
  });

  it('the audit log shows the approval, by whom, with what changed', async () => {
    expect(deposit, 'the first test approved a deposit').toBeDefined();
    const auditor = await createOperator(await firstAdminToken(), ['admin'], 'auditor');
    const page = await browser.newPage('en');
    await signIn(page, auditor);
    await page.locator('[data-testid="menu-audit"]').click();
    await waitForRoute(page, '/audit');
    await page.locator('[data-testid="audit-table"] tbody tr.ant-table-row').first().waitFor();
    await screenshot(page, 'audit-log-en');

    // Filtered by action and target, as the call takes them.
    const filter = page.locator('[data-testid="audit-filter"]');
    await filter.locator('[data-testid="audit-action"] input').fill('recharge.approve');
    await filter.locator('[data-testid="audit-target-id"]').click();
    await filter.locator('[data-testid="audit-target-id"]').fill(String(deposit!.id));
    await filter.locator('[data-testid="audit-search"]').click();
    const table = page.locator('[data-testid="audit-table"]');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="audit-table"] tbody tr.ant-table-row').length ===
        1,
    );
    const entry = rows(page, 'audit-table').first();
    const line = await entry.textContent();
    expect(line).toContain(finance.username);
    expect(line).toContain('recharge.approve');
    expect(line).toContain(actionLabel('recharge.approve'));
    expect(line).toContain(text('audit.targets.recharge'));
    expect(line).toContain(`#${deposit!.id}`);
    // What changed: the status, from under review to approved.
    await entry.locator('.ant-table-row-expand-icon').click();
    const changes = table.locator('[data-testid="audit-changes"]');
    await changes.waitFor();
    expect(await changes.textContent()).toContain('status');
    await screenshot(page, 'audit-approval-en');
  });
});
