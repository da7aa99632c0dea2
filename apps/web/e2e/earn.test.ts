/**
 * Lock mining and staking in the app against the real server: the operator opens a lock-mining
 * product (a published daily rate with a tier by amount, a 30-day term, a penalty per day left) and
 * two staking products (flexible; fixed and compounding) through the admin API, as the console does.
 * A funded user opens lock mining, picks the product, types an amount and confirms the sheet whose
 * figures (the rate of the amount, the interest over the term, the first interest day) are the
 * shared function's; the order appears active, the redemption sheet shows the penalty before
 * anything moves, and redeeming returns exactly the stake less that penalty. The same journey
 * stakes in the flexible product and opens its interest records. Arabic reads right to left.
 * Every new screen in each of the 19 languages, in its direction, with no locale key or unfilled
 * `{0}` left. The products are closed afterwards, so other tests see none open. Screenshots at
 * 390x844.
 */
import type { Page } from 'playwright-core';
import {
  LANGUAGES,
  earnAddDays,
  earnDay,
  expectedInterest,
  redemptionPenalty,
  sub,
} from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  expectOnScreen,
  fund,
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

const USD = 1;
const ARABIC = { locale: 'ar' };
const products = { lock: 0, flexible: 0, compounding: 0 };

async function product(fields: Record<string, unknown>): Promise<number> {
  return (
    await operatorPost<{ id: number }>('/earn/products/save', {
      currencyId: USD,
      minAuthLevel: -1,
      payout: 'daily',
      penaltyRate: '0',
      minAmount: '10',
      ...fields,
    })
  ).id;
}

async function fundedUser(amount = '1000'): Promise<RegisteredUser> {
  const user = await registerUser();
  await fund(user, await operatorToken(), amount);
  return user;
}

async function available(user: RegisteredUser): Promise<string> {
  const balance = await apiCall<{ amount: string }>('GET', '/api/userInfo/userBalance', {
    token: user.token,
    query: { currencyId: String(USD) },
  });
  return balance.data.amount;
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The text of a locator, or '' (waits for it first). */
async function textOf(page: Page, selector: string): Promise<string> {
  const locator = page.locator(selector).first();
  await locator.waitFor();
  return (await locator.textContent()) ?? '';
}

beforeAll(async () => {
  products.lock = await product({
    kind: 'financial',
    name: { en: 'USD 30-day lock', ar: 'قفل الدولار 30 يومًا' },
    description: { en: 'Fixed term, interest every day.', ar: 'مدة ثابتة وفائدة يومية.' },
    termDays: 30,
    dailyRate: '0.0012',
    rateTiers: [{ minAmount: '800', dailyRate: '0.0015' }],
    maxAmount: '5000',
    capacity: '100000',
    penaltyRate: '0.0005',
  });
  products.flexible = await product({
    kind: 'staking',
    name: { en: 'USD flexible stake', ar: 'رهن الدولار المرن' },
    dailyRate: '0.0004',
  });
  products.compounding = await product({
    kind: 'staking',
    name: { en: 'USD 90-day compounding' },
    termDays: 90,
    dailyRate: '0.0008',
    compounding: true,
    penaltyRate: '0.0002',
  });
});

afterAll(async () => {
  for (const id of Object.values(products))
    if (id) await operatorPost('/earn/products/status', { id, status: 0 });
});

describe('lock mining and staking', () => {
  const browser = useBrowser();

  it('buys lock mining with the figures shown, then redeems it with the penalty shown first', async () => {
    const user = await fundedUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl('/pages/lockMining/lockMining'));
    await page.locator('[data-testid="lock-mining-page"]').waitFor();
    await page.locator('[data-testid="earn-analysis"]').waitFor();
    const card = page.locator(`[data-testid="earn-product-${products.lock}"]`);
    await card.waitFor();
    expect(await card.textContent()).toContain('USD 30-day lock');
    expect(await textOf(page, `[data-testid="earn-product-${products.lock}-rate"]`)).toContain(
      '0.12%',
    );
    await screenshot(page, 'lock-mining-en');
    await noSidewaysScroll(page);

    await page.locator('[data-testid="earn-all-products"]').click();
    await waitForRoute(page, '/pages/lockMining/lockMiningProductList');
    await page.locator(`[data-testid="earn-product-${products.lock}"]`).waitFor();
    await screenshot(page, 'lock-mining-products-en');

    await page.locator(`[data-testid="earn-product-${products.lock}-open"]`).click();
    await waitForRoute(page, '/pages/lockMining/detail');
    const terms = await textOf(page, `[data-testid="earn-product-${products.lock}-terms"]`);
    expect(terms).toContain(text('earn_rateTiers'));
    expect(terms).toContain('0.15%');
    expect(terms).toContain('0.05%');
    // The balance arrives with the wallet's own query, after the product's terms.
    await expect
      .poll(() => textOf(page, '[data-testid="earn-available"]'), { timeout: 15_000 })
      .toContain('1,000.00 USD');
    // An amount under the minimum is refused before anything is sent.
    await page.locator('#earn-amount').fill('5');
    await page.locator('[data-testid="earn-buy-button"]').click();
    expect(await textOf(page, '.field-error')).toContain('10.00 USD');
    await page.locator('#earn-amount').fill('500');
    await page.locator('[data-testid="earn-preview"]').waitFor();
    await screenshot(page, 'lock-mining-detail-en');
    await noSidewaysScroll(page);

    await page.locator('[data-testid="earn-buy-button"]').click();
    await page.locator('[data-testid="earn-confirm"]').waitFor();
    const interest = expectedInterest({ amount: '500', dailyRate: '0.0012', days: 30, scale: 2 });
    expect(interest).toBe('18');
    expect(await textOf(page, '[data-testid="earn-confirm-interest"]')).toBe('18.00 USD');
    expect(await textOf(page, '[data-testid="earn-confirm-rate"]')).toBe('0.12%');
    const today = earnDay(new Date());
    expect(await textOf(page, '[data-testid="earn-confirm-first"]')).toBe(earnAddDays(today, 1));
    expect(await textOf(page, '[data-testid="earn-confirm-end"]')).toBe(earnAddDays(today, 30));
    await expectOnScreen(page, page.locator('[data-testid="earn-confirm-button"]'));
    await screenshot(page, 'lock-mining-confirm-en');
    await page.locator('[data-testid="earn-confirm-button"]').click();

    await waitForRoute(page, '/pages/lockMining/orders');
    const order = page.locator('[data-testid^="earn-order-"]').first();
    await order.waitFor();
    expect(await order.locator('[data-testid="earn-status"]').getAttribute('data-status')).toBe(
      '1',
    );
    expect(await order.textContent()).toContain('18.00 USD');
    expect(await available(user)).toBe('500.00');
    await screenshot(page, 'lock-mining-orders-en');
    await noSidewaysScroll(page);

    // Redeeming: the penalty first (30 days of the term left), then exactly the stake less it.
    await order.locator('[data-testid$="-redeem"]').click();
    await page.locator('[data-testid="earn-redeem-penalty"]').waitFor();
    const penalty = redemptionPenalty('500', '0.0005', 30, 2);
    expect(penalty).toBe('7.5');
    expect(await textOf(page, '[data-testid="earn-redeem-days"]')).toBe('30');
    expect(await textOf(page, '[data-testid="earn-redeem-penalty"]')).toBe('7.50 USD');
    expect(await textOf(page, '[data-testid="earn-redeem-returned"]')).toBe('492.50 USD');
    await expectOnScreen(page, page.locator('[data-testid="earn-redeem-confirm"]'));
    await screenshot(page, 'lock-mining-redeem-en');
    await page.locator('[data-testid="earn-redeem-confirm"]').click();
    await expect
      .poll(() => order.locator('[data-testid="earn-status"]').getAttribute('data-status'))
      .toBe('4');
    expect(sub('1000', penalty)).toBe('992.5');
    await expect.poll(() => available(user)).toBe('992.50');
  });

  it('stakes flexibly and shows the stake’s interest records', async () => {
    const user = await fundedUser('300');
    const page = await browser.newPage({ user });
    await page.goto(appUrl('/pages/pledge/list'));
    await page.locator('[data-testid="pledge-list-page"]').waitFor();
    await page.locator(`[data-testid="earn-product-${products.compounding}"]`).waitFor();
    await screenshot(page, 'pledge-list-en');
    await noSidewaysScroll(page);
    await page.locator(`[data-testid="earn-product-${products.flexible}-open"]`).click();
    await waitForRoute(page, '/pages/pledge/detail');
    expect(await textOf(page, `[data-testid="earn-product-${products.flexible}-terms"]`)).toContain(
      text('earn_noPenalty'),
    );
    await screenshot(page, 'pledge-detail-en');
    await page.locator('[data-testid="pledge-stake"]').click();
    await waitForRoute(page, '/pages/pledge/buy');
    await page.locator('#earn-amount').fill('250');
    await page.locator('[data-testid="earn-buy-button"]').click();
    await page.locator('[data-testid="earn-confirm"]').waitFor();
    // Flexible: the interest per day (250 × 0.0004 = 0.10), no end day.
    expect(await textOf(page, '[data-testid="earn-confirm-interest"]')).toBe('0.10 USD');
    expect(await page.locator('[data-testid="earn-confirm-end"]').count()).toBe(0);
    await expectOnScreen(page, page.locator('[data-testid="earn-confirm-button"]'));
    await screenshot(page, 'pledge-buy-en');
    await page.locator('[data-testid="earn-confirm-button"]').click();
    await waitForRoute(page, '/pages/pledge/orders');
    const order = page.locator('[data-testid^="earn-order-"]').first();
    await order.waitFor();
    expect(await available(user)).toBe('50.00');
    await screenshot(page, 'pledge-orders-en');
    await order.locator('[data-testid$="-records"]').click();
    await waitForRoute(page, '/pages/pledge/Interest');
    // The first interest is credited the day after: nothing yet (unless the run crossed midnight UTC).
    await page
      .locator('[data-testid="earn-records-empty"], [data-testid="earn-records"]')
      .waitFor();
    await screenshot(page, 'pledge-interest-en');
    await noSidewaysScroll(page);
    // A flexible stake goes back whole.
    await page.goBack();
    await order.locator('[data-testid$="-redeem"]').click();
    expect(await textOf(page, '[data-testid="earn-redeem-penalty"]')).toBe('0.00 USD');
    await page.locator('[data-testid="earn-redeem-confirm"]').click();
    await expect.poll(() => available(user)).toBe('300.00');
  });

  it('reads the same in Arabic, right to left', async () => {
    const user = await fundedUser('200');
    const page = await browser.newPage({ user, storage: ARABIC });
    await page.goto(appUrl(`/pages/lockMining/detail?id=${products.lock}`));
    await page.locator('[data-testid="earn-detail"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await textOf(page, '[data-testid="earn-detail"]')).toContain('قفل الدولار 30 يومًا');
    await page.locator('#earn-amount').fill('100');
    await page.locator('[data-testid="earn-buy-button"]').click();
    await page.locator('[data-testid="earn-confirm"]').waitFor();
    expect(await textOf(page, '[data-testid="earn-confirm"]')).toContain(
      text('earn_confirmTitle', 'ar'),
    );
    await expectOnScreen(page, page.locator('[data-testid="earn-confirm-button"]'));
    await screenshot(page, 'lock-mining-confirm-ar');
    await page.locator('[data-testid="earn-confirm-button"]').click();
    await waitForRoute(page, '/pages/lockMining/orders');
    await page.locator('[data-testid^="earn-order-"]').first().waitFor();
    expect(await untranslated(page)).toEqual([]);
    await screenshot(page, 'lock-mining-orders-ar');
    await noSidewaysScroll(page);
    await page.goto(appUrl('/pages/lockMining/lockMining'));
    await page.locator('[data-testid="earn-analysis-held"]').waitFor();
    expect(await textOf(page, '[data-testid="earn-analysis-held"]')).toContain('100.00 USD');
    await screenshot(page, 'lock-mining-ar');
    await page.goto(appUrl('/pages/pledge/list'));
    await page.locator(`[data-testid="earn-product-${products.flexible}"]`).waitFor();
    expect(await textOf(page, `[data-testid="earn-product-${products.flexible}"]`)).toContain(
      'رهن الدولار المرن',
    );
    await screenshot(page, 'pledge-list-ar');
    await noSidewaysScroll(page);
  });

  describe('in every language', () => {
    let user: RegisteredUser;
    let stakingOrder = 0;

    beforeAll(async () => {
      user = await fundedUser('500');
      for (const [path, productId, amount] of [
        ['/api/financialOrder/add', products.lock, '100'],
        ['/api/stakingOrder/add', products.compounding, '100'],
      ] as const) {
        const placed = await apiCall<{ id: number }>('POST', path, {
          token: user.token,
          form: {
            productId: String(productId),
            amount,
            requestId: `e2e-earn-${productId}-${Date.now()}`,
          },
        });
        expect(placed.code, JSON.stringify(placed)).toBe(200);
        if (path.startsWith('/api/staking')) stakingOrder = placed.data.id;
      }
    });

    for (const { key: locale, rtl } of LANGUAGES)
      it(`shows every earn screen translated (${locale})`, async () => {
        const page = await browser.newPage({ user, storage: { locale } });
        const screens: [string, string][] = [
          ['/pages/lockMining/lockMining', '[data-testid="earn-analysis-held"]'],
          [
            '/pages/lockMining/lockMiningProductList',
            `[data-testid="earn-product-${products.lock}"]`,
          ],
          [`/pages/lockMining/detail?id=${products.lock}`, '[data-testid="earn-buy"]'],
          ['/pages/lockMining/orders', '[data-testid^="earn-order-"]'],
          ['/pages/pledge/list', `[data-testid="earn-product-${products.flexible}"]`],
          [`/pages/pledge/detail?id=${products.compounding}`, '[data-testid="pledge-stake"]'],
          [`/pages/pledge/buy?id=${products.compounding}`, '[data-testid="earn-buy"]'],
          ['/pages/pledge/orders', `[data-testid="earn-order-${stakingOrder}"]`],
          [
            `/pages/pledge/Interest?stakingOrderId=${stakingOrder}`,
            '[data-testid="earn-records-empty"], [data-testid="earn-records"]',
          ],
        ];
        await page.goto(appUrl(screens[0]![0]));
        for (const [route, ready] of screens) {
          await page.evaluate((hash) => (window.location.hash = hash), route);
          await page.locator(ready).first().waitFor();
          expect(await page.evaluate(() => document.documentElement.dir), route).toBe(
            rtl ? 'rtl' : 'ltr',
          );
          expect(await untranslated(page), `${route} (${locale})`).toEqual([]);
          if (route.startsWith('/pages/lockMining/detail')) {
            // The confirm sheet's texts too.
            await page.locator('#earn-amount').fill('100');
            await page.locator('[data-testid="earn-buy-button"]').click();
            await page.locator('[data-testid="earn-confirm"]').waitFor();
            expect(await untranslated(page), `confirm (${locale})`).toEqual([]);
          }
        }
        if (locale === 'de' || locale === 'jp') await screenshot(page, `earn-${locale}`);
      });
  });
});
