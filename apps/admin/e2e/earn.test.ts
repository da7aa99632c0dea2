/**
 * Earn through the console at 1440x900: a finance operator creates a lock-mining product that
 * requires review (an English and an Arabic name, a daily rate with a tier by amount, a term, a
 * penalty), sees it open with nothing held; a user buys it through the API and the order waits in
 * the review queue with the stake held; the operator rejects it with a reason (the stake is back
 * in the user's balance at once) and approves the next one (it starts, interest from the next UTC
 * day); the product is closed to new orders; the report lists what it holds. The page is pictured
 * in English and Chinese.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { earnApi, operatorsApi } from '@bourse/shared';
import {
  balance,
  client,
  createOperator,
  firstAdminToken,
  openSignedIn,
  registerUser,
  screenshot,
  submitDeposit,
  text,
  useConsole,
  type ConsoleHarness,
  type Credentials,
  type Language,
} from './console';

const run = Date.now().toString(36);

let operator: Credentials;
let browser: ConsoleHarness;

const openConsole = (language: Language) =>
  openSignedIn(browser, operator, '/earn', 'earn-products', language);

beforeAll(async () => {
  operator = await createOperator(await firstAdminToken(), ['finance'], 'earn');
});

describe('earn in the console', () => {
  browser = useConsole();

  it('creates a product, rejects and approves orders waiting for review, closes it', async () => {
    const page = await openConsole('en');
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(text('nav.earn'));
    await page.locator('[data-testid="earn-new-financial"]').click();
    const editor = page.locator('[data-testid="earn-product-editor"]');
    await editor.waitFor();
    await page.locator('[data-testid="earn-product-name-en"]').fill(`Reviewed lock ${run}`);
    await page.locator('[data-testid="earn-product-currency"]').click();
    await page.locator('.ant-select-item-option', { hasText: /^USD$/ }).click();
    await page.locator('[data-testid="earn-product-term"]').fill('60');
    await page.locator('[data-testid="earn-product-rate"]').fill('0.001');
    await page.locator('[data-testid="earn-product-min"]').fill('50');
    await page.locator('[data-testid="earn-product-penalty"]').fill('0.0004');
    await page.locator('[data-testid="earn-product-review"]').click();
    await page.locator('[data-testid="earn-product-tier-add"]').click();
    await page.locator('[data-testid="earn-product-tier-min-0"]').fill('1000');
    await page.locator('[data-testid="earn-product-tier-rate-0"]').fill('0.0013');
    await screenshot(page, 'earn-editor-en');
    await page.locator('[data-testid="earn-product-tab-ar"]').click();
    await page.locator('[data-testid="earn-product-name-ar"]').fill(`قفل مع مراجعة ${run}`);
    await page.locator('[data-testid="earn-product-save"]').click();
    await editor.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid^="earn-product-row-"]', {
      hasText: `Reviewed lock ${run}`,
    });
    await row.waitFor();
    const id = Number((await row.getAttribute('data-testid'))!.replace(/\D+/g, ''));
    expect(await page.locator(`[data-testid="earn-product-rate-${id}"]`).textContent()).toBe(
      '0.1 %',
    );
    expect(await page.locator(`[data-testid="earn-product-held-${id}"]`).textContent()).toBe(
      '0.00 USD',
    );
    await screenshot(page, 'earn-products-en');

    // A user buys twice; both orders wait for review with their stakes held.
    const user = await registerUser();
    const admin = await firstAdminToken();
    const deposit = await submitDeposit(user, '500');
    await client(admin).call(operatorsApi.approveRecharge, { id: deposit.id });
    const app = client(user.token);
    const first = await app.call(earnApi.financialOrderAdd, {
      productId: id,
      amount: '120',
      requestId: `console-earn-a-${run}`,
    });
    const second = await app.call(earnApi.financialOrderAdd, {
      productId: id,
      amount: '200',
      requestId: `console-earn-b-${run}`,
    });
    expect([first.status, second.status]).toEqual([0, 0]);
    expect(await balance(user, 'USD')).toBe('180.00');

    await page.locator('[data-testid="earn-tab-queue"]').click();
    await page.locator(`[data-testid="earn-order-amount-${first.id}"]`).waitFor();
    await screenshot(page, 'earn-queue-en');
    await page.locator(`[data-testid="earn-order-reject-${first.id}"]`).click();
    await page.locator('[data-testid="reason"]').fill('The source of these funds is unclear.');
    await page.locator('[data-testid="reject-confirm"]').click();
    await page
      .locator(`[data-testid="earn-order-amount-${first.id}"]`)
      .waitFor({ state: 'detached' });
    expect(await balance(user, 'USD')).toBe('300.00');
    await page.locator(`[data-testid="earn-order-approve-${second.id}"]`).click();
    await page
      .locator(`[data-testid="earn-order-amount-${second.id}"]`)
      .waitFor({ state: 'detached' });
    const orders = await app.call(earnApi.financialOrders, { pageNum: 1, pageSize: 10 });
    const byId = new Map(orders.rows.map((order) => [order.id, order]));
    expect(byId.get(first.id)).toMatchObject({
      status: 3,
      rejectReason: 'The source of these funds is unclear.',
    });
    expect(byId.get(second.id)).toMatchObject({ status: 1, dailyRate: '0.001' });
    expect(byId.get(second.id)!.firstDay).not.toBeNull();

    await page.locator('[data-testid="earn-tab-orders"]').click();
    await expect
      .poll(() => page.locator(`[data-testid="earn-order-status-${second.id}"]`).textContent())
      .toBe(text('earn.status.1'));
    await screenshot(page, 'earn-orders-en');

    await page.locator('[data-testid="earn-tab-products"]').click();
    await page.locator(`[data-testid="earn-product-toggle-${id}"]`).click();
    await expect
      .poll(() => page.locator(`[data-testid="earn-product-status-${id}"]`).textContent())
      .toBe(text('earn.closedTag'));
    expect(await page.locator(`[data-testid="earn-product-held-${id}"]`).textContent()).toBe(
      '200.00 USD',
    );

    await page.locator('[data-testid="earn-tab-report"]').click();
    await expect
      .poll(() => page.locator(`[data-testid="earn-report-held-${id}"]`).textContent())
      .toBe('200.00 USD');
    await screenshot(page, 'earn-report-en');
  });

  it('reads in Chinese', async () => {
    const page = await openConsole('zh');
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(
      text('nav.earn', 'zh'),
    );
    await page.locator('[data-testid="earn-products-table"]').waitFor();
    await screenshot(page, 'earn-products-zh');
    await page.locator('[data-testid="earn-tab-queue"]').click();
    await page.locator('[data-testid="earn-queue-table"]').waitFor();
    await screenshot(page, 'earn-queue-zh');
  });
});
