/**
 * One total of assets (issue 17) at a phone's size, in English and in Arabic (right to left): a
 * live user funded by a deposit the operator approves, part of it exchanged to USDT, who buys BTC
 * spot and opens a BTC contract, sees the same total on home, me and the wallet (one valuation,
 * with the time of its prices), and the wallet lists the spot BTC holding with its amount, its
 * value and the way to its orders. Prices move every second, so the screens are compared when
 * they show the valuation of the same moment (the time they show).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  fund,
  operatorToken,
  registerUser,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const HOME = '/pages/tabs/home/home-k';
const ME = '/pages/tabs/me/me-k';
const WALLET = '/pages/user/accountDetail';

let sequence = 0;
const requestId = () => `e2e-totals-${Date.now()}-${++sequence}`;

async function ok(
  user: RegisteredUser,
  url: string,
  form: Record<string, string>,
  method: 'GET' | 'POST' = 'POST',
) {
  const result = await apiCall<Record<string, unknown>>(method, url, {
    token: user.token,
    ...(method === 'GET' ? { query: form } : { form }),
  });
  expect(result.code, JSON.stringify(result)).toBe(200);
  return result.data;
}

/**
 * A live user: 5,000 USD deposited (approved by the operator), 4,000 of it exchanged to USDT,
 * 0.01 BTC bought spot and a 10× BTC long of 0.01 open.
 */
async function trader(operator: string): Promise<RegisteredUser> {
  const user = await registerUser();
  await fund(user, operator, '5000');
  const quote = await ok(
    user,
    '/api/balanceConvertRecord/quote',
    { fromCurrencyId: '1', toCurrencyId: '3', amount: '4000' },
    'GET',
  );
  await ok(user, '/api/balanceConvertRecord/balanceConvert', {
    quoteId: String(quote.quoteId),
    requestId: requestId(),
  });
  const bought = await ok(user, '/api/spotTradeOrder/addSpotTradeOrder', {
    productType: '2',
    productCode: 'BTCUSDT',
    orderType: '1',
    quantity: '0.01',
    requestId: requestId(),
  });
  expect(bought.status).toBe(1);
  const opened = await ok(user, '/api/contractPosition/open', {
    productType: '2',
    productCode: 'BTCUSDT',
    orderDirection: '1',
    leverage: '10',
    quantity: '0.01',
    requestId: requestId(),
  });
  expect(opened.status).toBe(1);
  return user;
}

interface Shown {
  total: string;
  /** The valuation's moment (ms), which the total carries (the notes show it to the second). */
  priceTime: string;
  notes: string[];
}

/** The total a screen shows and what goes with it, read at once (prices' time, unpriced assets). */
async function shown(page: Page, testId: string, scope: string): Promise<Shown> {
  const total = page.locator(`[data-testid="${testId}"]`);
  await expect.poll(() => total.getAttribute('data-price-time')).toMatch(/^\d+$/);
  return page.evaluate(
    ([selector, notes]) => {
      const element = document.querySelector<HTMLElement>(selector!)!;
      return {
        total: element.textContent ?? '',
        priceTime: element.dataset.priceTime ?? '',
        notes: [...document.querySelectorAll(notes!)].map((note) => note.textContent ?? ''),
      };
    },
    [`[data-testid="${testId}"]`, `${scope} [data-testid="total-note"]`],
  );
}

/** Moves inside the app (the same document, so the screens share what they read). */
async function go(page: Page, route: string): Promise<void> {
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, route);
  await waitForRoute(page, route);
}

describe('one total of assets', () => {
  const browser = useBrowser();
  let operator: string;

  beforeAll(async () => {
    operator = await operatorToken();
  });

  for (const locale of ['en', 'ar'] as const) {
    it(`shows the same total on home, me and the wallet, and the spot BTC in the wallet (${locale})`, async () => {
      const user = await trader(operator);
      const usdt = await ok(user, '/api/userInfo/userBalance', { currencyId: '3' }, 'GET');
      const page = await browser.newPage({ user, storage: { locale } });
      await page.goto(appUrl(HOME));
      await page.locator('[data-testid="home-page"]').waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(
        locale === 'ar' ? 'rtl' : 'ltr',
      );

      // The three screens, compared when they show the valuation of the same moment.
      let screens: [Shown, Shown, Shown] | undefined;
      for (let attempt = 0; attempt < 5 && !screens; attempt += 1) {
        await go(page, HOME);
        const home = await shown(page, 'home-balance', '[data-testid="home-page"]');
        await go(page, ME);
        const me = await shown(page, 'me-balance', '[data-testid="me-page"]');
        await go(page, WALLET);
        const wallet = await shown(page, 'wallet-total', '[data-testid="wallet-page"]');
        if (home.priceTime === me.priceTime && me.priceTime === wallet.priceTime)
          screens = [home, me, wallet];
      }
      expect(screens, 'home, me and the wallet never showed the same valuation').toBeDefined();
      const [home, me, wallet] = screens!;
      expect(me.total).toBe(home.total);
      expect(wallet.total).toBe(home.total);
      expect(me.notes).toEqual(home.notes);
      expect(wallet.notes).toEqual(home.notes);
      // The prices' time is shown with it, in the screen's language.
      const time = /\d{2}:\d{2}:\d{2}/.exec(home.notes[0]!)?.[0];
      expect(home.notes[0]).toBe(text('wallet_pricesAt', locale).replace('{0}', time ?? '?'));
      // Not the USDT balance alone (the defect): the BTC, the USD and the margin count too.
      const usdtOnly = Number(String(usdt.totalAmount));
      expect(Number(home.total.replace(/,/g, ''))).toBeGreaterThan(usdtOnly + 1000);

      // The wallet lists the spot holding with its amount and value, and opens its orders.
      const btc = page.locator('[data-testid="holding-BTCUSDT"]');
      await btc.waitFor();
      expect(await btc.locator('[data-testid="asset-available"]').textContent()).toBe('0.01');
      expect(await btc.locator('[data-testid="asset-value"]').textContent()).toMatch(
        /^≈ [\d,]+\.\d{2,} USDT$/,
      );
      expect(await btc.textContent()).toContain(text('trade_spotTitle', locale));
      const usd = page.locator('[data-testid="balance-USD"]');
      expect(await usd.locator('[data-testid="asset-available"]').textContent()).toBe('1,000.00');
      await screenshot(page, `totals-wallet-${locale}`);
      await go(page, HOME);
      await screenshot(page, `totals-home-${locale}`);
      await go(page, ME);
      await screenshot(page, `totals-me-${locale}`);

      // A currency's row opens its records on that currency; the holding's row its spot orders.
      await go(page, WALLET);
      await usd.click();
      await waitForRoute(page, '/pages/record/accountRecord');
      await expect
        .poll(() => page.locator('[data-testid="record-currency"]').textContent())
        .toBe('USD');
      await page.goBack();
      await btc.click();
      await waitForRoute(page, '/pages/position/bibiOrder');
    });
  }
});
