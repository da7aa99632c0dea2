/**
 * Figures read right in Arabic: inside right-to-left screens every signed number keeps its sign
 * before its digits on screen ("+0.04%", "-2,898.13"), as the reader of any language expects of a
 * figure. Measured where the browser draws them: the sign's box lies left of the first digit's.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  fund,
  operatorToken,
  registerUser,
  screenshot,
  useBrowser,
  type RegisteredUser,
} from './browser';

const ARABIC = { locale: 'ar' };

/**
 * Where the sign and the first digit of a figure are drawn: x of the sign's box and of the first
 * digit's box, or null while the text has no sign (a change of exactly zero).
 */
async function signAndDigit(
  figure: Locator,
): Promise<{ text: string; signX: number; digitX: number } | null> {
  return figure.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let sign: { node: Text; index: number } | undefined;
    let digit: { node: Text; index: number } | undefined;
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text) {
      const value = node.data;
      for (let index = 0; index < value.length; index += 1) {
        if (!sign && /[+\-−]/.test(value[index]!)) sign = { node, index };
        if (!digit && /\d/.test(value[index]!)) digit = { node, index };
      }
    }
    if (!sign || !digit) return null;
    const x = ({ node, index }: { node: Text; index: number }) => {
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      return range.getBoundingClientRect().x;
    };
    return { text: element.textContent ?? '', signX: x(sign), digitX: x(digit) };
  });
}

/** Waits for a figure with a sign and checks the sign is drawn before (left of) its digits. */
async function expectSignFirst(figure: Locator): Promise<string> {
  let measured: Awaited<ReturnType<typeof signAndDigit>> = null;
  await expect
    .poll(async () => (measured = await signAndDigit(figure)), { timeout: 20_000 })
    .not.toBeNull();
  expect(measured!.signX, measured!.text).toBeLessThan(measured!.digitX);
  return measured!.text;
}

async function rtl(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
}

describe('figures in Arabic', () => {
  const browser = useBrowser();
  let user: RegisteredUser;

  beforeAll(async () => {
    const operator = await operatorToken();
    user = await registerUser();
    await fund(user, operator, '5000');
    const quote = await apiCall<{ quoteId: string }>('GET', '/api/balanceConvertRecord/quote', {
      token: user.token,
      query: { fromCurrencyId: '1', toCurrencyId: '3', amount: '5000' },
    });
    await apiCall('POST', '/api/balanceConvertRecord/balanceConvert', {
      token: user.token,
      form: { quoteId: quote.data.quoteId, requestId: `e2e-ar-convert-${Date.now()}` },
    });
  });

  it('keeps the sign of the day change before its digits in the quote list', async () => {
    const page = await browser.newPage({ storage: ARABIC });
    await page.goto(appUrl('/pages/tabs/quotes/quotes'));
    await rtl(page);
    const changes = page.locator('.quote-change');
    await changes.first().waitFor();
    // The first row whose change has a sign (a change of exactly zero has none).
    let checked = 0;
    for (let index = 0; index < Math.min(await changes.count(), 8) && checked === 0; index += 1) {
      const figure = changes.nth(index);
      if (/[+\-−]/.test((await figure.textContent()) ?? '')) {
        await expectSignFirst(figure);
        checked += 1;
      }
    }
    expect(checked, 'a signed change in the first rows').toBe(1);
    await screenshot(page, 'ar-quotes-signs');
  });

  it("keeps the sign of a position's result before its digits", async () => {
    const opened = await apiCall<{ id: number }>('POST', '/api/contractPosition/open', {
      token: user.token,
      form: {
        productType: '2',
        productCode: 'BTCUSDT',
        orderDirection: '1',
        leverage: '5',
        quantity: '0.001',
        requestId: `e2e-ar-open-${Date.now()}`,
      },
    });
    expect(opened.code, JSON.stringify(opened)).toBe(200);
    const page = await browser.newPage({ user, storage: ARABIC });
    await page.goto(appUrl('/pages/position/contractPosition?tab=contract'));
    await rtl(page);
    const result = page.locator(`[data-testid="position-${opened.data.id}-pnl"]`);
    await result.waitFor();
    await expectSignFirst(result);
    await screenshot(page, 'ar-position-result');
  });

  it('keeps the sign of a balance record before its digits, and the balance after it whole', async () => {
    const page = await browser.newPage({ user, storage: ARABIC });
    await page.goto(appUrl('/pages/record/accountRecord'));
    await rtl(page);
    const amounts = page.locator('[data-testid="record-amount"]');
    await amounts.first().waitFor();
    // The deposit credited (+5,000.00) and the exchange (-5,000.00): both signs come first.
    const texts: string[] = [];
    for (let index = 0; index < (await amounts.count()); index += 1)
      texts.push(await expectSignFirst(amounts.nth(index)));
    expect(texts.some((text) => text.startsWith('+'))).toBe(true);
    expect(texts.some((text) => text.startsWith('-'))).toBe(true);
    await screenshot(page, 'ar-balance-records');
  });
});
