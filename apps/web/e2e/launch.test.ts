/**
 * Start-up: the entry route, the tab bar, the launch pop-up (over its mask, on home), unknown
 * routes and the network-error page when the launch calls fail.
 */
import { describe, expect, it } from 'vitest';
import {
  appUrl,
  currentPopUpVersion,
  currentRoute,
  expectOnScreen,
  screenshot,
  stored,
  text,
  useBrowser,
  waitForRoute,
} from './browser';

const HOME = '/pages/tabs/home/home-k';

describe('launch', () => {
  const browser = useBrowser();

  it('opens home with the four tabs, and shows the launch pop-up once', async () => {
    const page = await browser.newPage({ showPopUp: true });
    const popUpList = page.waitForResponse((response) =>
      response.url().includes('/api/popUp/list'),
    );
    await page.goto(appUrl('/'));
    await waitForRoute(page, HOME);
    await page.locator('[data-testid="home-page"]').waitFor();
    // The entry is replaced by home, not stacked under it: back does not return to it.
    expect(await page.evaluate(() => (window.history.state as { idx?: number } | null)?.idx)).toBe(
      0,
    );

    const tabs = page.locator('nav.tab-bar button.tab-bar-item');
    await expect.poll(() => tabs.count()).toBe(4);
    for (const name of ['home', 'quotes', 'quoteDetail', 'accountDetail']) {
      await expectOnScreen(page, page.locator(`[data-testid="tab-${name}"]`));
    }
    expect(await page.locator('[data-testid="tab-home"]').getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await page.locator('[data-testid="tab-home"] .tab-bar-title').textContent()).toBe(
      text('tab_home'),
    );

    // The pop-up is a real dialog on screen, one of it.
    await popUpList;
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor({ state: 'visible' });
    await expect.poll(() => page.locator('[data-testid="launch-pop-up"]').count()).toBe(1);
    await expectOnScreen(page, dialog);
    expect(await dialog.textContent()).toContain(text('popup_welcome_title'));
    await screenshot(page, 'home-launch-pop-up');

    await dialog.getByRole('button', { name: text('common_gotIt') }).click();
    await page.locator('[data-testid="launch-pop-up"]').waitFor({ state: 'detached' });
    expect(await stored(page, 'popUpVersion')).toEqual(await currentPopUpVersion());
    await screenshot(page, 'home');

    // Once seen, a restart does not show it again: the list is read, the dialog stays away.
    const again = page.waitForResponse((response) => response.url().includes('/api/popUp/list'));
    await page.reload();
    await page.locator('[data-testid="home-page"]').waitFor();
    await again;
    await page.waitForLoadState('networkidle');
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(await page.locator('[data-testid="launch-pop-up"]').count()).toBe(0);
    expect(await currentRoute(page)).toBe(HOME);
  });

  it('sends the old entry address home too', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl('/pages/index/index'));
    await waitForRoute(page, HOME);
    await page.locator('[data-testid="home-page"]').waitFor();
  });

  it('shows the not-found screen for an unknown route, with a way home', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl('/pages/nope'));
    const notFound = page.locator('[data-testid="not-found"]');
    await notFound.waitFor();
    expect(await notFound.textContent()).toContain(text('page_notFoundTitle'));
    await screenshot(page, 'not-found');

    const home = notFound.getByRole('button', { name: text('page_goHome') });
    await expectOnScreen(page, home);
    await home.click();
    await waitForRoute(page, HOME);
    await page.locator('[data-testid="home-page"]').waitFor();
  });

  it('opens the network-error page when the language pack cannot load, and retries', async () => {
    const page = await browser.newPage();
    await page.route('**/api/langMgr/list**', (route) => route.abort());
    await page.goto(appUrl('/'));
    await waitForRoute(page, '/pages/networdError/networdError');
    const errorPage = page.locator('[data-testid="network-error-page"]');
    await errorPage.waitFor();
    expect(await errorPage.textContent()).toContain(text('net_pageTitle'));
    await screenshot(page, 'network-error');

    await page.unroute('**/api/langMgr/list**');
    await page.locator('[data-testid="retry"]').click();
    await waitForRoute(page, HOME);
    await page.locator('[data-testid="home-page"]').waitFor();
    await expect.poll(() => page.locator('nav.tab-bar button.tab-bar-item').count()).toBe(4);
  });
});
