/**
 * Issue 17 through the real screens at 390×844, in English and Arabic: the 1h and 4h charts hold
 * at least 300 candles on a fresh server, volume has its own pane under the candles, every figure
 * is formatted like the price, the order book shows its levels (labelled simulated), the chart
 * pages back when dragged to its left edge, and the quotes tabs scroll with the chosen one in view
 * (Russian, the longest labels).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUrl, expectOnScreen, screenshot, text, useBrowser } from './browser';

const DETAIL = '/pages/quoteDetail/quoteDetail';
const KLINE = '/pages/quoteDetail/klinePage';
const QUOTES = '/pages/tabs/quotes/quotes';

/** A figure as the app shows prices: thousands grouped, then the decimals. */
const GROUPED = /^\d{1,3}(,\d{3})*\.\d+$/;

async function chooseInterval(page: Page, interval: string): Promise<number> {
  const tab = page.locator(`[data-testid="interval-${interval}"]`);
  const answer = page.waitForResponse(
    (response) =>
      response.url().includes('/api/kline/list') &&
      new URL(response.url()).searchParams.get('interval') === interval &&
      !new URL(response.url()).searchParams.has('endTime'),
  );
  await tab.scrollIntoViewIfNeeded();
  await tab.click();
  const body = (await (await answer).json()) as { data: unknown[] };
  expect(await tab.getAttribute('aria-selected')).toBe('true');
  return body.data.length;
}

/** How many candles the chart holds (it says so on its canvas holder). */
function chartCandles(page: Page): Promise<number> {
  return page
    .locator('[data-testid="chart-canvas"]')
    .getAttribute('data-candles')
    .then((value) => Number(value ?? 0));
}

/** The chart's panes (table rows holding a canvas), top to bottom, as boxes. */
function paneBoxes(page: Page) {
  return page.locator('[data-testid="chart-canvas"]').evaluate((element) =>
    [...element.querySelectorAll('tr')]
      .filter((row) => row.querySelector('canvas') && row.getBoundingClientRect().height > 20)
      .map((row) => {
        const box = row.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom };
      }),
  );
}

describe('charts, the order book and the quotes tabs', () => {
  const browser = useBrowser();

  describe.each([
    ['en', 'ltr'],
    ['ar', 'rtl'],
  ] as const)('charts in %s', (locale, direction) => {
    it('1h and 4h have 300 candles, volume in its own pane, formatted figures, an order book', async () => {
      const page = await browser.newPage({ storage: { locale } });
      await page.goto(appUrl(`${DETAIL}?productType=2&productCode=BTCUSDT`));
      await page.locator('[data-testid="quote-detail-page"]').waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(direction);
      for (const interval of ['1h', '4h']) {
        expect(await chooseInterval(page, interval), interval).toBeGreaterThanOrEqual(300);
        await expect
          .poll(() => chartCandles(page), { timeout: 10_000 })
          .toBeGreaterThanOrEqual(300);
      }
      // Volume is drawn in the second pane, under the candles, and the panes do not overlap.
      const canvas = page.locator('[data-testid="chart-canvas"]');
      expect(await canvas.getAttribute('data-candle-pane')).toBe('0');
      expect(await canvas.getAttribute('data-volume-pane')).toBe('1');
      const panes = await paneBoxes(page);
      expect(panes.length).toBeGreaterThanOrEqual(2);
      expect(panes[0]!.bottom).toBeLessThanOrEqual(panes[1]!.top + 1);
      expect(panes[1]!.bottom - panes[1]!.top).toBeGreaterThan(30);

      // Every price figure groups thousands and shows BTCUSDT's two decimals.
      const price = (await page.locator('[data-testid="detail-price"]').textContent())!.trim();
      expect(price).toMatch(/^\d{1,3}(,\d{3})+\.\d{2}$/);
      for (const key of ['market_open', 'market_high', 'market_low', 'market_prevClose']) {
        const value = (await page.locator(`[data-testid="stat-${key}"]`).textContent())!.trim();
        expect(value, key).toMatch(/^\d{1,3}(,\d{3})+\.\d{2}$/);
      }
      for (const key of ['market_volume', 'market_amount']) {
        const value = (await page.locator(`[data-testid="stat-${key}"]`).textContent())!.trim();
        expect(value, key).toMatch(GROUPED);
      }
      const legend = await page
        .locator('[data-testid="chart-legend"] > span:not(.ma-key)')
        .allTextContents();
      for (const key of ['market_open', 'market_high', 'market_low', 'market_close']) {
        const label = text(key, locale);
        const part = legend.find((value) => value.startsWith(`${label} `));
        expect(part, key).toBeDefined();
        expect(part!.slice(label.length + 1), key).toMatch(/^\d{1,3}(,\d{3})+\.\d{2}$/);
      }

      // The order book: ten levels a side, bids under asks in price, labelled simulated.
      const book = page.locator('[data-testid="order-book"]');
      await book.scrollIntoViewIfNeeded();
      await expect.poll(() => book.locator('[data-testid="book-bid"]').count()).toBe(10);
      expect(await book.locator('[data-testid="book-ask"]').count()).toBe(10);
      expect((await book.locator('[data-testid="book-simulated"]').textContent())!.trim()).toBe(
        text('market_simulatedBook', locale),
      );
      const number = (value: string | null) => Number((value ?? '').replaceAll(',', ''));
      const bestBid = await book.locator('[data-testid="book-bid"] > span').nth(1).textContent();
      const bestAsk = await book.locator('[data-testid="book-ask"] > span').nth(1).textContent();
      expect(bestBid!.trim()).toMatch(/^\d{1,3}(,\d{3})+\.\d{2}$/);
      expect(number(bestBid)).toBeLessThan(number(bestAsk));
      await screenshot(page, `charts-detail-${locale}`);
      await page.locator('[data-testid="candle-chart"]').scrollIntoViewIfNeeded();
      await screenshot(page, `charts-detail-chart-${locale}`);
    });

    it('pages back in time when the chart is scrolled to its left edge', async () => {
      const page = await browser.newPage({ storage: { locale } });
      await page.goto(appUrl(`${KLINE}?productType=2&productCode=BTCUSDT`));
      await page.locator('[data-testid="kline-page"]').waitFor();
      await expect.poll(() => chartCandles(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(300);
      const before = await chartCandles(page);
      const older = page.waitForResponse(
        (response) =>
          response.url().includes('/api/kline/list') &&
          new URL(response.url()).searchParams.has('endTime'),
      );
      const box = (await page.locator('[data-testid="chart-canvas"]').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
      // A sideways swipe (a trackpad's or a touch scroll's wheel) moves the view back in time.
      for (let swipe = 0; swipe < 20 && (await chartCandles(page)) === before; swipe++) {
        await page.mouse.wheel(-400, 0);
      }
      await older;
      // The chart draws the older candles once they are in (a loaded machine takes a while).
      await expect.poll(() => chartCandles(page), { timeout: 10_000 }).toBeGreaterThan(before);
      await screenshot(page, `charts-kline-paged-${locale}`);
    });
  });

  describe('quotes tabs', () => {
    it('scroll when they do not fit, and the chosen one is in view (Russian, 390 px)', async () => {
      const page = await browser.newPage({ storage: { locale: 'rus', quotesTab: 4 } });
      await page.goto(appUrl(QUOTES));
      await page.locator('[data-testid="quotes-page"]').waitFor();
      const forex = page.locator('[data-testid="market-tab-4"]');
      await forex.waitFor();
      expect(await forex.getAttribute('aria-selected')).toBe('true');
      expect((await forex.textContent())!.trim()).toBe(text('market_forex', 'rus'));
      const row = page.locator('[data-testid="market-tabs"] nav');
      const { scrollWidth, clientWidth } = await row.evaluate((element) => ({
        scrollWidth: element.scrollWidth,
        clientWidth: element.clientWidth,
      }));
      // The labels are wider than the phone: the row scrolls rather than cutting a tab.
      expect(scrollWidth).toBeGreaterThan(clientWidth);
      await expect
        .poll(async () => {
          const box = await forex.boundingBox();
          return box !== null && box.x >= 0 && box.x + box.width <= 390;
        })
        .toBe(true);
      await expectOnScreen(page, forex);
      await screenshot(page, 'charts-quotes-tabs-rus');
      // Another tab chosen and the screen opened again: that one is in view.
      const favourites = page.locator('[data-testid="market-tab-favorite"]');
      await favourites.click();
      await page.reload();
      await page.locator('[data-testid="quotes-page"]').waitFor();
      expect(await favourites.getAttribute('aria-selected')).toBe('true');
      await expectOnScreen(page, favourites);
    });

    it('shows the forex tab whole in English at 390 px', async () => {
      const page = await browser.newPage();
      await page.goto(appUrl(QUOTES));
      const forex = page.locator('[data-testid="market-tab-4"]');
      await forex.waitFor();
      await forex.scrollIntoViewIfNeeded();
      await forex.click();
      await expectOnScreen(page, forex);
      await screenshot(page, 'charts-quotes-tabs-en');
    });
  });
});
