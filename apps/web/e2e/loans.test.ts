/**
 * Loans in the app against the real server: a verified user reads the loan products, applies for
 * one with the product's fields (a text, a choice and a photo compressed in the browser), sees
 * before confirming the total repayment the shared function gives, waits for review; the operator
 * approves it (through the operator API, as the console does); the user sees it active with its
 * due date, repays a part (the split shown first: interest, then principal) and then all of it.
 * The same screens in Arabic, right to left, and each of the four screens in the 19 languages with
 * no locale key or unfilled `{0}` left. Screenshots at 390x844.
 */
import type { Page } from 'playwright-core';
import { LANGUAGES, loanRepaymentAtTerm, toScale, type LoanTerms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCall,
  apiCall,
  appUrl,
  baseUrl,
  operatorPost,
  operatorToken,
  registerUser,
  screenshot,
  text,
  untranslated,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const USDT = 3;
const TERMS: LoanTerms = {
  termDays: 5,
  interestFreeDays: 1,
  dailyRate: '0.002',
  overdueDailyRate: '0.01',
};
/** A 1x1 PNG, enough for the browser to compress and the server to re-encode. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let productId = 0;
let sequence = 0;
const requestId = () => `e2e-loan-${Date.now()}-${++sequence}`;

/** A JSON POST of the app's API as `user` (applications carry their answers as an object). */
async function userPost<T>(user: RegisteredUser, url: string, body: unknown): Promise<T> {
  const response = await fetch(new URL(url, baseUrl()), {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${user.token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const result = (await response.json()) as { code: number; data: T };
  expect(result.code, JSON.stringify(result)).toBe(200);
  return result.data;
}

/** A user whose basic identity the operator approved (the loan feature needs it). */
async function verifiedUser(): Promise<RegisteredUser> {
  const user = await registerUser();
  const applied = await apiCall<{ id: number }>('POST', '/api/userAuthRecord/userAuthApply', {
    token: user.token,
    form: {
      authLevel: '0',
      realName: 'Ada Lovelace',
      idType: '0',
      idNumber: '11010519491231002X',
      requestId: requestId(),
    },
  });
  expect(applied.code, JSON.stringify(applied)).toBe(200);
  const approved = await adminCall(await operatorToken(), '/identity/approve', {
    id: String(applied.data.id),
  });
  expect(approved.code, JSON.stringify(approved)).toBe(200);
  return user;
}

/** A user with an active loan of 500 (applied through the API, approved by the operator). */
async function borrower(): Promise<{ user: RegisteredUser; loanId: number }> {
  const user = await verifiedUser();
  const loan = await userPost<{ id: number }>(user, '/api/loanOrder/add', {
    loanProductId: productId,
    amount: '500',
    requestId: requestId(),
    fields: {
      purpose: 'Repairs',
      employment: 'salaried',
      idPhoto: `data:image/png;base64,${PNG.toString('base64')}`,
    },
  });
  await operatorPost('/loans/orders/approve', { id: loan.id, amount: '500' });
  return { user, loanId: loan.id };
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

beforeAll(async () => {
  const product = await operatorPost<{ id: number }>('/loans/products/save', {
    name: { en: 'Browser test loan', ar: 'قرض اختبار المتصفح' },
    description: {
      en: 'Five days, the first without interest.',
      ar: 'خمسة أيام، أولها بلا فائدة.',
    },
    currencyId: USDT,
    minAmount: '100',
    maxAmount: '2000',
    termDays: TERMS.termDays,
    interestFreeDays: TERMS.interestFreeDays,
    dailyRate: TERMS.dailyRate,
    overdueDailyRate: TERMS.overdueDailyRate,
    settlement: 2,
    maxOpenLoans: 3,
    minIdentityLevel: -1,
    fields: [
      {
        key: 'purpose',
        type: 'text',
        label: { en: 'What is it for?', ar: 'ما الغرض منه؟' },
        required: true,
      },
      {
        key: 'employment',
        type: 'choice',
        label: { en: 'Employment', ar: 'العمل' },
        required: true,
        options: [
          { value: 'salaried', label: { en: 'Salaried', ar: 'موظف' } },
          { value: 'self', label: { en: 'Self-employed', ar: 'عمل حر' } },
        ],
      },
      {
        key: 'idPhoto',
        type: 'image',
        label: { en: 'Photo of your ID', ar: 'صورة هويتك' },
        required: true,
      },
    ],
  });
  productId = product.id;
});

afterAll(async () => {
  // Closed again, so no other screen of the browser tests lists it.
  if (productId) await operatorPost('/loans/products/status', { id: productId, status: 0 });
});

describe('loans', () => {
  const browser = useBrowser();

  it('applies, is approved, repays a part and then all of it, in the browser', async () => {
    const user = await verifiedUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl('/pages/loan/loan'));
    const card = page.locator(`[data-testid="loan-product-${productId}"]`);
    await card.waitFor();
    const cardText = (await card.textContent()) ?? '';
    expect(cardText).toContain('Browser test loan');
    expect(cardText).toContain('0.2%');
    expect(cardText).toContain(text('loan_settlement2'));
    await page.locator('[data-testid="loan-panel"]').waitFor();
    await screenshot(page, 'loan-en');
    await noSidewaysScroll(page);

    await page.locator(`[data-testid="loan-product-${productId}-apply"]`).click();
    await waitForRoute(page, '/pages/loan/buy');
    await page.locator('[data-testid="loan-apply-form"]').waitFor();
    // Nothing typed: the form says what is missing and sends nothing.
    await page.locator('[data-testid="loan-apply-form"] button[type="submit"]').click();
    await page.getByText(text('loan_amountRequired')).first().waitFor();
    await page.locator('#loan-amount').fill('500');
    const shown = loanRepaymentAtTerm('500', TERMS, 4);
    const summary = page.locator('[data-testid="loan-summary"]');
    await expect
      .poll(() => page.locator('[data-testid="loan-summary-total"]').textContent())
      .toBe(`${toScale(shown.total, 2)} USDT`);
    expect(await page.locator('[data-testid="loan-summary-interest"]').textContent()).toBe(
      `${toScale(shown.interest, 2)} USDT`,
    );
    expect(await summary.textContent()).toContain(text('loan_summaryTotal'));
    await page.locator('#loan-field-purpose').fill('A new laptop for work');
    await page.locator('[data-testid="loan-choice-employment-self"]').click();
    await page
      .locator('[data-testid="loan-file-idPhoto"]')
      .setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('[data-testid="loan-preview-idPhoto"]').waitFor();
    await screenshot(page, 'loan-buy-en');
    await noSidewaysScroll(page);
    await page.locator('[data-testid="loan-apply-form"] button[type="submit"]').click();
    const confirm = page.locator('[data-testid="loan-confirm"]');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`${toScale(shown.total, 2)} USDT`);
    await page.getByRole('button', { name: text('common_confirm') }).click();

    await waitForRoute(page, '/pages/loan/detail');
    const status = page.locator('[data-testid="loan-status"]').first();
    await expect.poll(() => status.getAttribute('data-status')).toBe('s0');
    const loanId = Number(new URL(page.url().replace('#', '')).searchParams.get('id'));
    expect(loanId).toBeGreaterThan(0);

    // The operator lends it: the detail shows it active, due in five days.
    await operatorPost('/loans/orders/approve', { id: loanId, amount: '500' });
    await page.reload();
    await expect.poll(() => status.getAttribute('data-status')).toBe('s1');
    expect(await page.locator('[data-testid="loan-detail-total"]').textContent()).toBe(
      '500.00 USDT',
    );
    expect(await page.locator('[data-testid="loan-detail-due"]').textContent()).toMatch(
      /^\d{4}-\d{2}-\d{2}$/,
    );
    await page.locator('[data-testid="loan-interest-empty"]').waitFor();
    await screenshot(page, 'loan-detail-en');
    await noSidewaysScroll(page);

    // A part first: the split is shown before confirming, interest first (none is due yet).
    await page.locator('[data-testid="loan-detail-repay"]').click();
    await waitForRoute(page, '/pages/loan/rePay');
    await page.locator('[data-testid="loan-repay-mode-part"]').click();
    await page.locator('#loan-repay-amount').fill('120');
    await expect
      .poll(() => page.locator('[data-testid="loan-split-principal"]').textContent())
      .toBe('120.00 USDT');
    expect(await page.locator('[data-testid="loan-split-interest"]').textContent()).toBe(
      '0.00 USDT',
    );
    expect(await page.locator('[data-testid="loan-split-left"]').textContent()).toBe('380.00 USDT');
    await screenshot(page, 'loan-repay-en');
    await noSidewaysScroll(page);
    await page.locator('[data-testid="loan-repay-form"] button[type="submit"]').click();
    await page.locator('[data-testid="loan-repay-confirm"]').waitFor();
    await page.getByRole('button', { name: text('common_confirm') }).click();
    await waitForRoute(page, '/pages/loan/detail');
    await expect
      .poll(() => page.locator('[data-testid="loan-detail-principal"]').textContent())
      .toBe('380.00 USDT');
    await page.locator('[data-testid="loan-detail-repayments"]').waitFor();

    // Then all of it.
    await page.locator('[data-testid="loan-detail-repay"]').click();
    await waitForRoute(page, '/pages/loan/rePay');
    await expect
      .poll(() => page.locator('[data-testid="loan-repay-all"]').textContent())
      .toBe('380.00 USDT');
    await page.locator('[data-testid="loan-repay-form"] button[type="submit"]').click();
    await page.locator('[data-testid="loan-repay-confirm"]').waitFor();
    await page.getByRole('button', { name: text('common_confirm') }).click();
    await waitForRoute(page, '/pages/loan/detail');
    await expect.poll(() => status.getAttribute('data-status')).toBe('s2');

    const loan = await apiCall<{ status: number; principalRepaid: string; interestPaid: string }>(
      'GET',
      '/api/loanOrder/detail',
      { token: user.token, query: { id: String(loanId) } },
    );
    expect(loan.data).toMatchObject({
      status: 2,
      principalRepaid: '500.0000',
      interestPaid: '0.0000',
    });
  });

  it('reads the same in Arabic, right to left', async () => {
    const { user, loanId } = await borrower();
    const page = await browser.newPage({ user, storage: { locale: 'ar' } });
    await page.goto(appUrl('/pages/loan/loan'));
    const card = page.locator(`[data-testid="loan-product-${productId}"]`);
    await card.waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await card.textContent()).toContain('قرض اختبار المتصفح');
    await page.locator(`[data-testid="loan-${loanId}"]`).waitFor();
    await screenshot(page, 'loan-ar');
    await noSidewaysScroll(page);

    await page.goto(appUrl(`/pages/loan/buy?id=${productId}`));
    await page.locator('[data-testid="loan-apply-form"]').waitFor();
    await page.locator('#loan-amount').fill('800');
    await expect
      .poll(() => page.locator('[data-testid="loan-summary-total"]').textContent())
      .toBe(`${toScale(loanRepaymentAtTerm('800', TERMS, 4).total, 2)} USDT`);
    expect(await page.locator('[data-testid="loan-apply-form"]').textContent()).toContain(
      'ما الغرض منه؟',
    );
    await screenshot(page, 'loan-buy-ar');
    await noSidewaysScroll(page);

    await page.goto(appUrl(`/pages/loan/detail?id=${loanId}`));
    await page.locator('[data-testid="loan-detail-status"]').waitFor();
    expect(await page.locator('[data-testid="loan-status"]').first().textContent()).toBe(
      text('loan_status1', 'ar'),
    );
    await screenshot(page, 'loan-detail-ar');
    await noSidewaysScroll(page);

    await page.goto(appUrl(`/pages/loan/rePay?id=${loanId}`));
    await page.locator('[data-testid="loan-split"]').waitFor();
    expect(await page.locator('[data-testid="loan-split"]').textContent()).toContain(
      text('loan_splitTitle', 'ar'),
    );
    await screenshot(page, 'loan-repay-ar');
    await noSidewaysScroll(page);
  });

  describe('in every language', () => {
    let user: RegisteredUser;
    let loanId = 0;

    beforeAll(async () => {
      ({ user, loanId } = await borrower());
    });

    for (const { key: locale, rtl } of LANGUAGES)
      it(`shows the four loan screens translated (${locale})`, async () => {
        const page = await browser.newPage({ user, storage: { locale } });
        const screens: [string, string][] = [
          ['/pages/loan/loan', '[data-testid="loan-panel"]'],
          [`/pages/loan/buy?id=${productId}`, '[data-testid="loan-summary"]'],
          [`/pages/loan/detail?id=${loanId}`, '[data-testid="loan-detail-terms"]'],
          [`/pages/loan/rePay?id=${loanId}`, '[data-testid="loan-split"]'],
        ];
        await page.goto(appUrl(screens[0]![0]));
        for (const [route, ready] of screens) {
          await page.evaluate((hash) => (window.location.hash = hash), route);
          await page.locator(ready).first().waitFor();
          expect(await page.evaluate(() => document.documentElement.dir), route).toBe(
            rtl ? 'rtl' : 'ltr',
          );
          expect(await untranslated(page), `${route} (${locale})`).toEqual([]);
        }
        if (locale === 'de' || locale === 'jp') await screenshot(page, `loan-repay-${locale}`);
      });
  });
});
