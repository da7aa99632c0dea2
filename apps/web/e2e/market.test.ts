/**
 * The market screens through the real UI, fed by the server's simulated market: home's popular
 * products, the quotes tabs with live prices and their virtualized lists, search by code and by
 * name, the favourite star, the candle chart with its intervals, and the closed US market.
 */
import type { Locator, Page } from 'playwright-core';
import { normalize } from '@bourse/shared';
import { describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  expectOnScreen,
  expectToast,
  registerUser,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
} from './browser';

const HOME = '/pages/tabs/home/home-k';
const QUOTES = '/pages/tabs/quotes/quotes';
const SEARCH = '/pages/tabs/quotes/quoteSearch';
const FAVORITE = '/pages/tabs/favorite/favorite';
const DETAIL = '/pages/quoteDetail/quoteDetail';
const KLINE = '/pages/quoteDetail/klinePage';

const LIST_URL: Record<number, string> = {
  1: '/api/stockProduct/list',
  2: '/api/cryptocurrencyProduct/list',
  3: '/api/futuresProduct/list',
  4: '/api/forexProduct/list',
};

/** A price as the rows show it: digits with thousands separators and decimals. */
const PRICE = /^\d{1,3}(,\d{3})*(\.\d+)?$/;

interface ApiProduct {
  productCode: string;
  productName: string;
}

interface ApiCandle {
  openTime: number;
  open: string;
}

/** The codes of a product type, in the server's order. */
async function productCodes(productType: number): Promise<string[]> {
  const result = await apiCall('GET', LIST_URL[productType]!, {
    query: { pageNum: '1', pageSize: '100' },
  });
  return ((result.rows ?? []) as ApiProduct[]).map((product) => product.productCode);
}

/** The newest candle the server has for a product and interval (the list is newest first). */
async function newestCandle(
  productType: number,
  productCode: string,
  interval: string,
): Promise<ApiCandle> {
  const result = await apiCall<ApiCandle[]>('GET', '/api/kline/list', {
    query: { productType: String(productType), productCode, interval, limit: '5' },
  });
  const newest = result.data.reduce((a, b) => (b.openTime > a.openTime ? b : a));
  return newest;
}

/** A quote row by product code. */
function row(scope: Page | Locator, code: string): Locator {
  return scope.locator(`button.quote-row[data-testid="quote-${code}"]`);
}

/** The price text of every drawn quote row in scope, by its test id. */
function priceTexts(scope: Page | Locator): Promise<Record<string, string>> {
  return scope
    .locator('button.quote-row[data-testid^="quote-"]')
    .evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((element) => [
          element.getAttribute('data-testid') ?? '',
          element.querySelector('[data-testid="quote-price"]')?.textContent ?? '',
        ]),
      ),
    );
}

/** Waits until at least one of the rows' prices differs from `before` (live updates over /ws). */
async function expectLivePrices(scope: Page | Locator, before: Record<string, string>) {
  await expect
    .poll(
      async () => {
        const now = await priceTexts(scope);
        return Object.keys(before).filter((id) => now[id] !== undefined && now[id] !== before[id]);
      },
      { timeout: 8_000, interval: 250 },
    )
    .not.toEqual([]);
}

/** The rows in scope each show a price. */
async function expectPrices(scope: Page | Locator, atLeast = 1): Promise<Record<string, string>> {
  const prices = await priceTexts(scope);
  expect(Object.keys(prices).length).toBeGreaterThanOrEqual(atLeast);
  for (const [id, price] of Object.entries(prices)) expect(price, id).toMatch(PRICE);
  return prices;
}

/** The tab bar's top edge: rows must end above it to be seen. */
async function tabBarTop(page: Page): Promise<number> {
  const box = await page.locator('nav.tab-bar').boundingBox();
  return box?.y ?? page.viewportSize()?.height ?? 844;
}

/**
 * Scrolls the virtualized quote list to its end with the mouse wheel, noting every row drawn on
 * the way. Returns the codes seen, in order.
 */
async function scrollListToEnd(page: Page, lastCode: string): Promise<string[]> {
  const list = page.locator('[data-testid="quote-list"]');
  const box = await list.boundingBox();
  expect(box, 'the quote list has a layout box').not.toBeNull();
  await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
  const seen: string[] = [];
  const note = async () => {
    const codes = await list
      .locator('button.quote-row')
      .evaluateAll((rows) =>
        rows.map((element) => (element.getAttribute('data-testid') ?? '').replace(/^quote-/, '')),
      );
    for (const code of codes) if (!seen.includes(code)) seen.push(code);
  };
  await note();
  for (let step = 0; step < 20; step++) {
    const atEnd = await list.evaluate(
      (element) => element.scrollTop + element.clientHeight >= element.scrollHeight - 1,
    );
    if (atEnd && seen.includes(lastCode)) break;
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(100);
    await note();
  }
  return seen;
}

/** The numbers of the chart's legend: open, high, low and close of the candle it describes. */
async function legendValues(page: Page): Promise<Record<string, string>> {
  const parts = await page
    .locator('[data-testid="chart-legend"] > span:not(.ma-key)')
    .allTextContents();
  const values: Record<string, string> = {};
  const labels = {
    open: text('market_open'),
    high: text('market_high'),
    low: text('market_low'),
    close: text('market_close'),
  };
  for (const [name, label] of Object.entries(labels)) {
    const part = parts.find((value) => value.startsWith(`${label} `));
    // The legend groups thousands and shows the product's decimals; compare the numbers.
    if (part) values[name] = normalize(part.slice(label.length + 1).replaceAll(',', ''));
  }
  return values;
}

/** Waits for a legend with four prices that make a candle (low ≤ open, close ≤ high). */
async function expectLegend(page: Page): Promise<Record<string, string>> {
  await expect
    .poll(async () => Object.keys(await legendValues(page)).sort())
    .toEqual(['close', 'high', 'low', 'open']);
  const values = await legendValues(page);
  for (const value of Object.values(values)) expect(value).toMatch(/^\d+(\.\d+)?$/);
  const [open, high, low, close] = ['open', 'high', 'low', 'close'].map((key) =>
    Number(values[key]),
  ) as [number, number, number, number];
  expect(low).toBeLessThanOrEqual(Math.min(open, close));
  expect(high).toBeGreaterThanOrEqual(Math.max(open, close));
  return values;
}

interface CandlePixels {
  /** Distinct pixel rows holding the rising colour (#22c55e), summed over the canvases. */
  up: number;
  /** Distinct pixel rows holding the falling colour (#ff4d4f), summed over the canvases. */
  down: number;
  /**
   * Pixel columns holding a candle: at least three pixels in a candle colour (the dashed
   * last-price line across the chart has one per column).
   */
  columns: number;
}

/** How much of the chart's canvases is painted in the candle colours. */
function candlePixels(page: Page): Promise<CandlePixels> {
  return page.locator('[data-testid="candle-chart"] canvas').evaluateAll((canvases) => {
    const found = { up: 0, down: 0, columns: 0 };
    for (const element of canvases) {
      const canvas = element as HTMLCanvasElement;
      if (canvas.width === 0 || canvas.height === 0) continue;
      const context = canvas.getContext('2d');
      if (!context) continue;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      const upRows = new Set<number>();
      const downRows = new Set<number>();
      const perColumn = new Map<number, number>();
      for (let index = 0; index < data.length; index += 4) {
        const [r, g, b] = [data[index]!, data[index + 1]!, data[index + 2]!];
        const up = Math.abs(r - 0x22) + Math.abs(g - 0xc5) + Math.abs(b - 0x5e) < 60;
        const down = Math.abs(r - 0xff) + Math.abs(g - 0x4d) + Math.abs(b - 0x4f) < 60;
        if (!up && !down) continue;
        const pixel = index / 4;
        const [x, y] = [pixel % canvas.width, Math.floor(pixel / canvas.width)];
        (up ? upRows : downRows).add(y);
        perColumn.set(x, (perColumn.get(x) ?? 0) + 1);
      }
      found.up += upRows.size;
      found.down += downRows.size;
      for (const count of perColumn.values()) if (count >= 3) found.columns += 1;
    }
    return found;
  });
}

/**
 * The chart is not blank: it has painted rising and falling candles over many pixel rows (with
 * `either`, a few candles that may all go the same way).
 */
async function expectCandles(page: Page, { either = false } = {}): Promise<void> {
  const chart = page.locator('[data-testid="candle-chart"]');
  await chart.locator('canvas').first().waitFor();
  await expect
    .poll(() => candlePixels(page), { timeout: 10_000 })
    .toSatisfy(({ up, down }: CandlePixels) => (either ? up + down >= 30 : up >= 30 && down >= 30));
}

/** Chooses a chart interval and waits for its candles to be asked for and drawn. */
async function chooseInterval(
  page: Page,
  productType: number,
  productCode: string,
  interval: string,
): Promise<void> {
  const tab = page.locator(`[data-testid="interval-${interval}"]`);
  const loaded = page.waitForResponse(
    (response) =>
      response.url().includes('/api/kline/list') &&
      new URL(response.url()).searchParams.get('interval') === interval,
  );
  await tab.scrollIntoViewIfNeeded();
  await tab.click();
  await loaded;
  expect(await tab.getAttribute('aria-selected')).toBe('true');
  // The legend describes the newest candle of the chosen interval (its open does not move).
  await expect
    .poll(async () => {
      const newest = await newestCandle(productType, productCode, interval);
      return (await legendValues(page)).open === newest.open;
    })
    .toBe(true);
  await expectLegend(page);
  await expectCandles(page);
}

/**
 * Whether New York's stock market is open now (09:30–16:00, Monday to Friday; holidays are not
 * modelled by the simulated feed either).
 */
function usMarketOpen(time = Date.now()): boolean {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(time);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  const minute = Number(part('hour')) * 60 + Number(part('minute'));
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'].includes(part('weekday'));
  return weekday && minute >= 9 * 60 + 30 && minute < 16 * 60;
}

describe('market', () => {
  const browser = useBrowser();

  it('shows popular products with live prices on home; its shortcuts open the quotes', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl(HOME));
    await page.locator('[data-testid="home-page"]').waitFor();
    const recommended = page.locator('[data-testid="recommended"]');
    await recommended.waitFor();
    expect(await recommended.textContent()).toContain(text('market_recommended'));
    await row(recommended, 'BTCUSDT').waitFor();
    const before = await expectPrices(recommended, 5);

    const label = recommended.locator('[data-testid="simulated-label"]');
    await label.scrollIntoViewIfNeeded();
    await expectOnScreen(page, label);
    expect(await label.textContent()).toBe(text('market_simulatedData'));

    // Crypto trades around the clock: its prices move within a few seconds.
    await expectLivePrices(recommended, before);
    await screenshot(page, 'home-popular');

    // The quotes shortcut, the list's "More" and the search shortcut.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('.grid-entry', { hasText: text('tab_quotes') }).click();
    await waitForRoute(page, QUOTES);
    await page.locator('[data-testid="quotes-page"]').waitFor();
    expect(await page.locator('[data-testid="tab-quotes"]').getAttribute('aria-current')).toBe(
      'page',
    );

    await page.goBack();
    await waitForRoute(page, HOME);
    await recommended.getByRole('button', { name: text('market_more'), exact: true }).click();
    await waitForRoute(page, QUOTES);
    await page.locator('[data-testid="quotes-page"]').waitFor();

    await page.goBack();
    await waitForRoute(page, HOME);
    await page.locator('.grid-entry', { hasText: text('market_search') }).click();
    await waitForRoute(page, SEARCH);
    await page.locator('[data-testid="search-page"]').waitFor();
  });

  it('switches the markets, updates prices live and scrolls the long lists to their end', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl(QUOTES));
    await page.locator('[data-testid="quotes-page"]').waitFor();
    // Crypto is the first market shown.
    const cryptoTab = page.locator('[data-testid="market-tab-2"]');
    expect(await cryptoTab.getAttribute('aria-selected')).toBe('true');

    const label = page.locator('[data-testid="simulated-label"]');
    await label.waitFor();
    await expectOnScreen(page, label);
    expect(await label.textContent()).toBe(text('market_simulatedData'));

    // Every market lists its products with prices.
    for (const productType of [1, 3, 4, 2]) {
      const codes = await productCodes(productType);
      const tab = page.locator(`[data-testid="market-tab-${productType}"]`);
      await tab.click();
      expect(await tab.getAttribute('aria-selected')).toBe('true');
      await row(page, codes[0]!).waitFor();
      await expectOnScreen(page, row(page, codes[0]!));
      await expectPrices(page, Math.min(codes.length, 5));
    }

    // Signed out, the favourites tab invites to sign in.
    await page.locator('[data-testid="market-tab-favorite"]').click();
    await page.getByText(text('market_signInForFavorites')).waitFor();
    expect(await page.locator('button.quote-row').count()).toBe(0);

    // Crypto again: prices move within a few seconds.
    await cryptoTab.click();
    await row(page, 'BTCUSDT').waitFor();
    await expectLivePrices(page, await expectPrices(page, 5));
    await screenshot(page, 'quotes-crypto');

    // The 26 crypto products: only the rows in view are drawn; scrolling to the end brings the
    // later ones (all in one page of 50, so no further request is needed).
    const crypto = await productCodes(2);
    expect(crypto).toHaveLength(26);
    const lastCrypto = crypto[crypto.length - 1]!;
    expect(lastCrypto).toBe('EURUSDT');
    expect(await row(page, lastCrypto).count()).toBe(0);
    const seenCrypto = await scrollListToEnd(page, lastCrypto);
    expect([...seenCrypto].sort()).toEqual([...crypto].sort());
    expect(seenCrypto).toContain('DOGEUSDT');
    await expectOnScreen(page, row(page, lastCrypto));
    // The last row ends above the tab bar (but for its 1 px bottom border: the list's height
    // leaves 56 px for the tab bar, which is 57 px with its top border).
    const lastBox = await row(page, lastCrypto).boundingBox();
    expect(lastBox!.y + lastBox!.height - 1).toBeLessThanOrEqual(await tabBarTop(page));
    expect(await row(page, 'BTCUSDT').count()).toBe(0);
    await expectPrices(page, 5);

    // The 26 US stocks the same way.
    const stocks = await productCodes(1);
    expect(stocks).toHaveLength(26);
    await page.locator('[data-testid="market-tab-1"]').click();
    await row(page, stocks[0]!).waitFor();
    const lastStock = stocks[stocks.length - 1]!;
    expect(await row(page, lastStock).count()).toBe(0);
    const seenStocks = await scrollListToEnd(page, lastStock);
    expect([...seenStocks].sort()).toEqual([...stocks].sort());
    await expectOnScreen(page, row(page, lastStock));
  });

  it('searches by code and by name, and says when nothing matches', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl(SEARCH));
    await page.locator('[data-testid="search-page"]').waitFor();
    const input = page.locator('[data-testid="search-input"] input');
    await expect
      .poll(() => input.evaluate((element) => element === document.activeElement))
      .toBe(true);

    await input.pressSequentially('btc');
    await row(page, 'BTCUSDT').waitFor();
    await expectOnScreen(page, row(page, 'BTCUSDT'));
    expect(await page.locator('.section-title').allTextContents()).toContain(text('market_crypto'));
    expect(await row(page, 'BCHUSDT').count()).toBe(0);
    await expectPrices(page);
    await screenshot(page, 'search');

    // By its Chinese name: Bitcoin (比特币) and Bitcoin Cash (比特币现金).
    await input.fill('比特币');
    await row(page, 'BCHUSDT').waitFor();
    await row(page, 'BTCUSDT').waitFor();
    expect(await page.locator('[data-testid="search-empty"]').count()).toBe(0);

    await input.fill('zzzz');
    const empty = page.locator('[data-testid="search-empty"]');
    await empty.waitFor();
    expect(await empty.textContent()).toBe(text('market_noResults'));
    expect(await page.locator('button.quote-row').count()).toBe(0);

    // A result opens its quote.
    await input.fill('btc');
    await row(page, 'BTCUSDT').click();
    await waitForRoute(page, DETAIL);
    await expect
      .poll(() => page.locator('[data-testid="detail-name"]').textContent())
      .toBe('Bitcoin');
  });

  it('adds a product to the favourites with the star and removes it again', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(`${DETAIL}?productType=2&productCode=ETHUSDT`));
    const star = page.locator('[data-testid="favorite-toggle"]');
    await expect.poll(() => star.isEnabled()).toBe(true);
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    expect(await star.getAttribute('aria-label')).toBe(text('market_addFavorite'));

    await star.click();
    await expectToast(page, text('market_favoriteAdded'));
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    expect(await star.getAttribute('aria-label')).toBe(text('market_removeFavorite'));

    // The quotes' favourites tab lists it.
    await page.locator('[data-testid="tab-quotes"]').click();
    await waitForRoute(page, QUOTES);
    await page.locator('[data-testid="market-tab-favorite"]').click();
    await row(page, 'ETHUSDT').waitFor();
    expect(await page.locator('button.quote-row').count()).toBe(1);
    await expectPrices(page);

    // So does the favourites screen.
    await page.goto(appUrl(FAVORITE));
    await page.locator('[data-testid="favorite-page"]').waitFor();
    await row(page, 'ETHUSDT').waitFor();
    await expectOnScreen(page, row(page, 'ETHUSDT'));
    expect(await page.locator('button.quote-row').count()).toBe(1);
    await page.locator('.adm-toast-main').waitFor({ state: 'detached' });
    await screenshot(page, 'favorites');

    // Opened from there, the star takes it off the list.
    await row(page, 'ETHUSDT').click();
    await waitForRoute(page, DETAIL);
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => star.isEnabled()).toBe(true);
    await star.click();
    await expectToast(page, text('market_favoriteRemoved'));
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('false');

    await page.goto(appUrl(FAVORITE));
    await page.getByText(text('market_noFavorites')).waitFor();
    expect(await page.locator('button.quote-row').count()).toBe(0);
    const listed = await apiCall('GET', '/api/userProductOption/list', {
      token: user.token,
      query: { pageNum: '1', pageSize: '50' },
    });
    expect(listed.rows).toEqual([]);
  });

  it('draws the candles on the quote detail, for each interval, and on the full chart', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl(`${DETAIL}?productType=2&productCode=ETHUSDT`));
    await page.locator('[data-testid="quote-detail-page"]').waitFor();
    await expect
      .poll(() => page.locator('[data-testid="detail-name"]').textContent())
      .toBe('Ethereum');
    await expect
      .poll(() => page.locator('[data-testid="detail-price"]').textContent())
      .toMatch(PRICE);
    await expectOnScreen(page, page.locator('[data-testid="simulated-label"]'));
    expect(await page.locator('[data-testid="market-closed"]').count()).toBe(0);

    // 15 minutes by default.
    expect(await page.locator('[data-testid="interval-15m"]').getAttribute('aria-selected')).toBe(
      'true',
    );
    await expectLegend(page);
    await expectCandles(page);
    await expectOnScreen(page, page.locator('[data-testid="candle-chart"]'));
    await screenshot(page, 'quote-detail');

    await chooseInterval(page, 2, 'ETHUSDT', '1d');
    await screenshot(page, 'quote-detail-1d');
    await chooseInterval(page, 2, 'ETHUSDT', '1h');

    // The full chart (1 hour by default), from the detail and for a US stock.
    await page.locator('[data-testid="open-kline"]').click();
    await waitForRoute(page, KLINE);
    await page.locator('[data-testid="kline-page"]').waitFor();
    await expectLegend(page);
    await expectCandles(page);

    await page.goto(appUrl(`${KLINE}?productType=1&productCode=AAPL`));
    await page.locator('[data-testid="kline-page"]').waitFor();
    // The pointer left over the chart would show its crosshair and that candle in the legend.
    await page.mouse.move(1, 1);
    await expect.poll(() => page.locator('.adm-nav-bar-title').textContent()).toBe('Apple');
    expect(await page.locator('[data-testid="interval-1h"]').getAttribute('aria-selected')).toBe(
      'true',
    );
    await expectLegend(page);
    const newest = await newestCandle(1, 'AAPL', '1h');
    await expect.poll(async () => (await legendValues(page)).open).toBe(newest.open);
    await expectCandles(page, { either: true });
    await expectOnScreen(page, page.locator('[data-testid="candle-chart"]'));
    await screenshot(page, 'kline');
  });

  it('keeps the newest candles in view when a live candle comes before the history', async () => {
    const page = await browser.newPage();
    // The newest candles answer only once the live candle is drawn, and older ones (should the
    // chart ask) only after the newest are drawn: the order a slow history request gives.
    let releaseLatest!: () => void;
    const latestReleased = new Promise<void>((resolve) => (releaseLatest = resolve));
    let releaseOlder!: () => void;
    const olderReleased = new Promise<void>((resolve) => (releaseOlder = resolve));
    await page.route('**/api/kline/list**', async (route) => {
      const older = new URL(route.request().url()).searchParams.has('endTime');
      await (older ? olderReleased : latestReleased);
      await route.continue();
    });
    await page.goto(appUrl(`${DETAIL}?productType=2&productCode=ETHUSDT`));
    await page.locator('[data-testid="quote-detail-page"]').waitFor();
    const canvas = page.locator('[data-testid="chart-canvas"]');
    // The live candle from the kline topic, alone on the chart (its legend shows it).
    await expectLegend(page);
    expect(await canvas.getAttribute('aria-busy')).toBe('true');
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    releaseLatest();
    await expect.poll(() => canvas.getAttribute('data-candles')).not.toBe(null);
    expect(Number(await canvas.getAttribute('data-candles'))).toBeGreaterThanOrEqual(100);
    releaseOlder();
    await page.waitForLoadState('networkidle');
    // Dozens of candles in view, not the newest one or two at the edge of an empty chart.
    await expect
      .poll(async () => (await candlePixels(page)).columns, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(40);
    await expectCandles(page);
    await screenshot(page, 'quote-detail-history-after-live');
  });

  it('says when the US stock market is closed, and only then', async () => {
    const page = await browser.newPage();
    const openBefore = usMarketOpen();
    await page.goto(appUrl(QUOTES));
    await page.locator('[data-testid="market-tab-1"]').click();
    const aapl = row(page, 'AAPL');
    await aapl.waitFor();
    const tagCount = await aapl.locator('.closed-tag').count();

    await aapl.click();
    await waitForRoute(page, DETAIL);
    await expect
      .poll(() => page.locator('[data-testid="detail-name"]').textContent())
      .toBe('Apple');
    // The product is loaded: the star is enabled.
    await expect.poll(() => page.locator('[data-testid="favorite-toggle"]').isEnabled()).toBe(true);
    const notice = page.locator('[data-testid="market-closed"]');
    const noticeCount = await notice.count();
    // A test that ran across the opening or closing bell proves nothing either way.
    if (usMarketOpen() !== openBefore) return;
    if (openBefore) {
      expect(tagCount).toBe(0);
      expect(noticeCount).toBe(0);
    } else {
      expect(tagCount).toBe(1);
      expect(noticeCount).toBe(1);
      await expectOnScreen(page, notice);
      expect(await notice.textContent()).toBe(text('market_closedNotice'));
      await screenshot(page, 'quote-detail-closed');
    }
  });
});
