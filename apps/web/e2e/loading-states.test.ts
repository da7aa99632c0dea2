/**
 * Loading, empty, failed and refreshed, as a user on a slow or broken network meets them, in
 * English and Arabic: a list shows grey rows while its first page is on the way, the one empty
 * state when there is nothing, the one error state with a retry when the answer failed (and the
 * retry loads it), and pulling the list down reads it again. The wallet shows the same.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUrl, registerUser, screenshot, text, useBrowser, type RegisteredUser } from './browser';

const WITHDRAW_RECORDS = '/pages/user/withdrawRecord';
const WALLET = '/pages/user/accountDetail';
const LIST_CALL = '**/api/userWithdraw/list**';

/** Holds the answers of `pattern` until `release` is called. */
async function holdAnswers(page: Page, pattern: string): Promise<() => void> {
  const held: Route[] = [];
  let open = false;
  await page.route(pattern, (route) => (open ? route.continue() : void held.push(route)));
  return () => {
    open = true;
    for (const route of held.splice(0)) void route.continue();
  };
}

/** Pulls the screen down with a finger from `from` by `distance` pixels, as a phone user does. */
async function pullDown(page: Page, from: { x: number; y: number }, distance = 220) {
  const touch = await page.context().newCDPSession(page);
  const point = (y: number) => [{ x: from.x, y, id: 1 }];
  await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from.y) });
  for (let step = 1; step <= 12; step += 1) {
    await touch.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: point(from.y + (distance * step) / 12),
    });
    await page.waitForTimeout(16);
  }
  await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

describe.each(['en', 'ar'] as const)('loading states (%s)', (locale) => {
  const browser = useBrowser();
  let user: RegisteredUser;

  it('shows grey rows while the records load, then the one empty state', async () => {
    user ??= await registerUser();
    const page = await browser.newPage({ user, storage: { locale } });
    const release = await holdAnswers(page, LIST_CALL);
    await page.goto(appUrl(WITHDRAW_RECORDS));
    await page.locator('[data-testid="list-skeleton"]').waitFor();
    await screenshot(page, `loading-records-${locale}`);
    expect(
      await page.locator('[data-testid="records-empty"], [data-testid="empty-state"]').count(),
    ).toBe(0);
    release();
    const empty = page.locator('.empty-state');
    await empty.waitFor();
    expect(await page.locator('[data-testid="list-skeleton"]').count()).toBe(0);
    expect(await empty.locator('strong').textContent()).toBe(text('withdraw_empty', locale));
  });

  it('shows the error state when the records cannot load, and the retry loads them', async () => {
    user ??= await registerUser();
    const page = await browser.newPage({ user, storage: { locale } });
    let failing = true;
    await page.route(LIST_CALL, (route) =>
      failing ? route.fulfill({ status: 503, body: 'unavailable' }) : route.continue(),
    );
    await page.goto(appUrl(WITHDRAW_RECORDS));
    const failed = page.locator('[data-testid="error-state"]');
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.locator('strong').textContent()).toBe(text('common_loadFailed', locale));
    await screenshot(page, `error-records-${locale}`);
    failing = false;
    await failed.getByRole('button', { name: text('common_retry', locale) }).click();
    await page.locator('.empty-state:not(.error-state)').waitFor();
    expect(await failed.count()).toBe(0);
  });

  it('reads the wallet again when pulled down', async () => {
    user ??= await registerUser();
    const page = await browser.newPage({ user, storage: { locale }, touch: true });
    let reads = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/') && /userBalanceConvert/.test(request.url())) reads += 1;
    });
    await page.goto(appUrl(WALLET));
    const total = page.locator('[data-testid="wallet-total"]');
    await total.waitFor();
    await page.waitForLoadState('networkidle');
    const before = reads;
    const box = (await page.locator('[data-testid="wallet-assets"]').boundingBox())!;
    await pullDown(page, { x: box.x + box.width / 2, y: box.y + 10 });
    await expect.poll(() => reads, { timeout: 10_000 }).toBeGreaterThan(before);
    await expect
      .poll(() => page.locator('.adm-pull-to-refresh-head').textContent())
      .toMatch(
        new RegExp(`${text('common_refreshing', locale)}|${text('common_refreshed', locale)}|^$`),
      );
    await screenshot(page, `wallet-refreshed-${locale}`);
  });
});

describe('cold load', () => {
  const browser = useBrowser();

  it('paints the grey shapes of the home screen while the scripts are on their way', async () => {
    const page = await browser.newPage();
    const release = await holdAnswers(page, '**/assets/*.js');
    await page.goto(appUrl('/'), { waitUntil: 'commit' });
    const shapes = page.locator('.boot .boot-block');
    await shapes.first().waitFor();
    expect(await shapes.count()).toBeGreaterThanOrEqual(5);
    await screenshot(page, 'cold-load-shapes');
    release();
    await page.locator('[data-testid="home-page"]').waitFor();
    expect(await page.locator('.boot').count()).toBe(0);
  });
});
