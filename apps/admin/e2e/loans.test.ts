/**
 * Loans through the console at 1440x900, against the real server: a finance operator writes a loan
 * product (terms, an English and an Arabic name, a text field and a choice field), which users then
 * list; a verified user applies; the operator finds the application in the queue, reads its answers,
 * lends less than asked (the user's balance rises by exactly that) and sees it among the loans and
 * in the report; a second application is rejected with a reason; the product is closed. The page is
 * pictured in English and Chinese.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { add, consoleIdentityApi, identityApi, loansApi, toScale } from '@bourse/shared';
import {
  balance,
  client,
  createOperator,
  firstAdminToken,
  openSignedIn,
  registerUser,
  screenshot,
  text,
  useConsole,
  type TestOperator,
  type TestUser,
} from './console';

const run = Date.now().toString(36);
let sequence = 0;
const requestId = () => `e2e-loan-${run}-${++sequence}`;

/** A user whose basic identity an admin approved (the loan feature needs it). */
async function verifiedUser(): Promise<TestUser> {
  const user = await registerUser();
  const record = await client(user.token).call(identityApi.authApply, {
    authLevel: 0,
    realName: 'Grace Hopper',
    idType: 0,
    idNumber: '11010519491231002X',
    requestId: requestId(),
  });
  await client(await firstAdminToken()).call(consoleIdentityApi.approveIdentity, {
    id: record.id!,
  });
  return user;
}

async function expectMessage(page: Page, message: string): Promise<void> {
  await page.locator('.ant-message-notice', { hasText: message }).first().waitFor();
}

describe('loans in the console', () => {
  const browser = useConsole();
  let finance: TestOperator;
  let productId = 0;

  it('writes a product that users then list', async () => {
    finance = await createOperator(await firstAdminToken(), ['finance'], 'loan');
    const page = await openSignedIn(browser, finance, '/loans', 'loans-queue', 'en');
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(text('nav.loans'));
    await page.locator('[data-testid="loans-tab-products"]').click();
    await page.locator('[data-testid="loan-product-new"]').click();
    const editor = page.locator('[data-testid="loan-product-editor"]');
    await editor.waitFor();
    await page.locator('[data-testid="loan-product-min"]').fill('100');
    await page.locator('[data-testid="loan-product-max"]').fill('3000');
    await page.locator('[data-testid="loan-product-term"]').fill('14');
    await page.locator('[data-testid="loan-product-free"]').fill('2');
    await page.locator('[data-testid="loan-product-rate"]').fill('0.0008');
    await page.locator('[data-testid="loan-product-overdue-rate"]').fill('0.003');
    await page.locator('[data-testid="loan-product-max-open"]').fill('2');
    await page.locator('[data-testid="loan-product-field-add"]').click();
    await page.locator('[data-testid="loan-product-field-key-0"]').fill('purpose');
    await page.locator('[data-testid="loan-product-field-label-0"]').fill('What is it for?');
    await page.locator('[data-testid="loan-product-field-add"]').click();
    await page.locator('[data-testid="loan-product-field-key-1"]').fill('income');
    await page.locator('[data-testid="loan-product-field-type-1"]').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', {
        hasText: text('loans.editor.types.choice'),
      })
      .click();
    await page.locator('[data-testid="loan-product-field-label-1"]').fill('Monthly income');
    await page.locator('[data-testid="loan-product-choice-value-1-0"]').fill('low');
    await page.locator('[data-testid="loan-product-choice-label-1-0"]').fill('Under 1,000');
    await page.locator('[data-testid="loan-product-choice-add-1"]').click();
    await page.locator('[data-testid="loan-product-choice-value-1-1"]').fill('high');
    await page.locator('[data-testid="loan-product-choice-label-1-1"]').fill('1,000 or more');
    await page.locator('[data-testid="loan-product-name-en"]').fill(`Salary advance ${run}`);
    await screenshot(page, 'loans-product-editor-en');
    await page.locator('[data-testid="loan-product-tab-ar"]').click();
    await page.locator('[data-testid="loan-product-name-ar"]').fill(`سلفة الراتب ${run}`);
    await page.locator('[data-testid="loan-product-save"]').click();
    await editor.waitFor({ state: 'detached' });
    const name = page.locator('[data-testid^="loan-product-row-"]', {
      hasText: `Salary advance ${run}`,
    });
    await name.waitFor();
    productId = Number((await name.getAttribute('data-testid'))!.replace(/\D+/g, ''));
    expect(
      await page.locator(`[data-testid="loan-product-terms-${productId}"]`).textContent(),
    ).toBe(text('loans.termsLine', 'en', { days: 14, rate: '0.08 %', overdue: '0.3 %' }));
    await screenshot(page, 'loans-products-en');

    const listed = await client().call(loansApi.loanProducts, { pageSize: 100 });
    const product = listed.rows.find((row) => row.id === productId);
    expect(product).toMatchObject({
      name: `Salary advance ${run}`,
      termDays: 14,
      interestFreeDays: 2,
      dailyRate: '0.0008',
      maxOpenLoans: 2,
      fields: [
        { key: 'purpose', type: 'text', required: true },
        { key: 'income', type: 'choice', options: [{ value: 'low' }, { value: 'high' }] },
      ],
    });
  });

  it('reviews applications: lends less than asked, rejects another with a reason', async () => {
    const user = await verifiedUser();
    const api = client(user.token);
    const asked = await api.call(loansApi.applyLoan, {
      loanProductId: productId,
      amount: '1200',
      requestId: requestId(),
      fields: { purpose: 'Rent deposit for a new flat', income: 'high' },
    });
    const other = await api.call(loansApi.applyLoan, {
      loanProductId: productId,
      amount: '900',
      requestId: requestId(),
      fields: { purpose: 'A holiday', income: 'low' },
    });
    const before = await balance(user, 'USDT');

    const page = await openSignedIn(browser, finance, '/loans', 'loans-queue', 'en');
    const open = page.locator(`[data-testid="loan-open-${asked.id}"]`);
    await open.waitFor();
    expect(await page.locator('tr', { has: open }).textContent()).toContain(user.email);
    await screenshot(page, 'loans-queue-en');
    await open.click();
    const drawer = page.locator('[data-testid="loan-review"]');
    await drawer.waitFor();
    expect(await drawer.locator('[data-testid="loan-review-amount"]').textContent()).toBe(
      '1200.0000 USDT',
    );
    // The answers in the order the product asks them (they come with the application's detail).
    await expect
      .poll(() =>
        drawer
          .locator('[data-testid="loan-review-answers"] th')
          .evaluateAll((cells) => cells.map((cell) => cell.textContent)),
      )
      .toEqual(['What is it for?', 'Monthly income']);
    expect(await drawer.locator('[data-testid="loan-answer-purpose"]').textContent()).toBe(
      'Rent deposit for a new flat',
    );
    expect(await drawer.locator('[data-testid="loan-answer-income"]').textContent()).toBe(
      '1,000 or more (high)',
    );
    await screenshot(page, 'loans-review-en');
    await page.locator('[data-testid="loan-approve-amount"]').fill('1000');
    await page.locator('[data-testid="loan-approve"]').click();
    await page.locator('[data-testid="loan-approve-confirm"]').click();
    await expectMessage(
      page,
      text('loans.approved', 'en', { order: asked.orderNo, amount: '1000 USDT' }),
    );
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => balance(user, 'USDT')).toBe(toScale(add(before, '1000'), 4));

    await page.locator(`[data-testid="loan-open-${other.id}"]`).click();
    await drawer.waitFor();
    await page.locator('[data-testid="loan-reject"]').click();
    await page.locator('[data-testid="reason"]').fill('Only one loan at a time for new borrowers.');
    await page.locator('[data-testid="reject-confirm"]').click();
    await expectMessage(page, text('loans.rejected', 'en', { order: other.orderNo }));
    const rejected = await api.call(loansApi.loanOrder, { id: other.id });
    expect(rejected).toMatchObject({
      status: 3,
      rejectReason: 'Only one loan at a time for new borrowers.',
    });

    await page.locator('[data-testid="loans-tab-loans"]').click();
    const lent = page.locator(`[data-testid="loan-due-${asked.id}"]`);
    await lent.waitFor();
    expect(await lent.textContent()).toBe('1000.0000 USDT');
    await page.locator('[data-testid="loans-tab-report"]').click();
    await page.locator('[data-testid="loan-report-live-USDT-disbursed"]').waitFor();
    await screenshot(page, 'loans-report-en');

    await page.locator('[data-testid="loans-tab-products"]').click();
    await page.locator(`[data-testid="loan-product-close-${productId}"]`).click();
    await page.locator(`[data-testid="loan-product-close-ok-${productId}"]`).click();
    await expect
      .poll(() => page.locator(`[data-testid="loan-product-status-${productId}"]`).textContent())
      .toBe(text('loans.products.statusClosed'));
  });

  it('reads in Chinese', async () => {
    const page = await openSignedIn(browser, finance, '/loans', 'loans-queue', 'zh');
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(
      text('nav.loans', 'zh'),
    );
    await page.locator('[data-testid="loans-tab-products"]').click();
    await page.locator('[data-testid="loan-products-table"]').waitFor();
    await screenshot(page, 'loans-products-zh');
  });
});
