/**
 * The home and user-centre layouts of issue 21 at 390x844, in English and Arabic: each home
 * layout shows the site header with the messages bell and its unread count, the user's total, the
 * popular products with prices and the news; each user centre shows the user, the total and the
 * entries, the messages entry with the unread count. None
 * scrolls sideways; each is saved whole as a screenshot. The operator's layout setting then moves
 * the tab bar's home and the "me" entries to the chosen layouts, while every layout's own route
 * keeps working.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCall,
  apiCall,
  appUrl,
  fund,
  operatorToken,
  registerUser,
  SCREENS_DIR,
  stored,
  text,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const HOMES = {
  'home-k': { route: '/pages/tabs/home/home-k', testId: 'home-page' },
  home: { route: '/pages/tabs/home/home', testId: 'home-default-page' },
  'home-j': { route: '/pages/tabs/home/home-j', testId: 'home-j-page' },
  'home-g': { route: '/pages/tabs/home/home-g', testId: 'home-g-page' },
  'home-h': { route: '/pages/tabs/home/home-h', testId: 'home-h-page' },
} as const;

const MES = {
  'me-k': { route: '/pages/tabs/me/me-k', testId: 'me-page' },
  me: { route: '/pages/tabs/me/me', testId: 'me-default-page' },
  'me-f': { route: '/pages/tabs/me/me-f', testId: 'me-f-page' },
  'me-j': { route: '/pages/tabs/me/me-j', testId: 'me-j-page' },
  'me-g': { route: '/pages/tabs/me/me-g', testId: 'me-g-page' },
  'me-h': { route: '/pages/tabs/me/me-h', testId: 'me-h-page' },
  'me-e': { route: '/pages/tabs/me/me-e', testId: 'me-e-page' },
} as const;

const LOCALES = ['en', 'ar'] as const;

let user: RegisteredUser;

beforeAll(async () => {
  user = await registerUser();
  // A live balance, so the totals are real figures.
  await fund(user, await operatorToken(), '2500');
});

/** The whole page as a PNG (apps/web/test-results/screens/<name>.png). */
async function fullScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENS_DIR, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
  });
}

/** The user's unread site messages and notifications (a new account has its welcome message). */
async function unreadCount(): Promise<number> {
  const answer = await apiCall<{ notReadMessageCount: number }>(
    'GET',
    '/api/siteMessage/notReadMessageCount',
    { token: user.token },
  );
  return answer.data.notReadMessageCount;
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
}

async function setLayout(layout: { home?: string; me?: string }): Promise<void> {
  const saved = await adminCall(await operatorToken(), '/layout/save', layout);
  expect(saved.code, JSON.stringify(saved)).toBe(200);
}

describe('home layouts', () => {
  const browser = useBrowser();

  for (const locale of LOCALES) {
    for (const [name, home] of Object.entries(HOMES)) {
      it(`${name} shows the header, the total, products and news (${locale})`, async () => {
        const page = await browser.newPage({ user, storage: { locale } });
        await page.goto(appUrl(home.route));
        const screen = page.getByTestId(home.testId);
        await screen.waitFor();
        expect(await page.evaluate(() => document.documentElement.dir)).toBe(
          locale === 'ar' ? 'rtl' : 'ltr',
        );
        await screen.getByTestId('message-bell').waitFor();
        const unread = await unreadCount();
        expect(unread).toBeGreaterThan(0);
        await expect
          .poll(() => screen.getByTestId('message-bell-count').textContent(), { timeout: 10_000 })
          .toBe(String(unread));
        await expect
          .poll(() => screen.getByTestId('home-balance').textContent(), { timeout: 10_000 })
          .toMatch(/2,500\.00/);
        // Popular products with their prices from the (simulated) feed.
        const firstPrice = screen.locator(
          '[data-testid="recommended"] [data-testid="quote-price"]',
        );
        await expect
          .poll(async () => (await firstPrice.count()) > 0 && firstPrice.first().textContent(), {
            timeout: 10_000,
          })
          .toMatch(/\d/);
        // The news (on home-k loaded when scrolled to).
        await expect
          .poll(
            async () => {
              await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
              return screen.getByTestId('news-block').count();
            },
            { timeout: 10_000 },
          )
          .toBe(1);
        await expect(screen.getByTestId('news-block').textContent()).resolves.toContain(
          text('content_news', locale),
        );
        // The home tab is the current one on every home layout.
        await expect(page.getByTestId('tab-home').getAttribute('aria-current')).resolves.toBe(
          'page',
        );
        if (name === 'home-g') await screen.getByTestId('market-movers').waitFor();
        await expectNoSidewaysScroll(page);
        await fullScreenshot(page, `layout-${name}-${locale}`);
      });
    }
  }

  it('offers signing in to a visitor on every home layout', async () => {
    const page = await browser.newPage();
    for (const home of Object.values(HOMES)) {
      await page.goto(appUrl(home.route));
      await page.getByTestId(home.testId).getByTestId('home-login').waitFor();
    }
    await fullScreenshot(page, 'layout-home-h-visitor-en');
  });
});

describe('user-centre layouts', () => {
  const browser = useBrowser();

  for (const locale of LOCALES) {
    for (const [name, me] of Object.entries(MES)) {
      it(`${name} shows the user, the total and the entries (${locale})`, async () => {
        const page = await browser.newPage({ user, storage: { locale } });
        await page.goto(appUrl(me.route));
        const screen = page.getByTestId(me.testId);
        await screen.waitFor();
        await expect(screen.getByTestId('me-name').textContent()).resolves.toBe(
          (user.userInfo.nickName as string | undefined) || user.userInfo.userAccount,
        );
        await expect
          .poll(() => screen.getByTestId('me-balance').textContent(), { timeout: 10_000 })
          .toMatch(/2,500\.00/);
        await expect(screen.getByText(text('area_recharge', locale)).count()).resolves.toBe(1);
        await expect(screen.getByText(text('page_language', locale)).count()).resolves.toBe(1);
        await screen.getByTestId('logout').waitFor();
        // The messages entry carries the unread count.
        const messages = screen.getByTestId('me-entry-messages');
        await expect(messages.textContent()).resolves.toContain(text('area_messages', locale));
        await expect
          .poll(() => messages.getByTestId('me-unread').textContent(), { timeout: 10_000 })
          .toBe(String(await unreadCount()));
        await expectNoSidewaysScroll(page);
        await fullScreenshot(page, `layout-${name}-${locale}`);
      });
    }
  }

  it('offers signing in and the device settings to a visitor on every user centre', async () => {
    const page = await browser.newPage();
    for (const me of Object.values(MES)) {
      await page.goto(appUrl(me.route));
      const screen = page.getByTestId(me.testId);
      await screen.getByTestId('me-login').waitFor();
      await expect(screen.getByText(text('page_language')).count()).resolves.toBe(1);
      await expect(screen.getByText(text('area_recharge')).count()).resolves.toBe(0);
    }
  });
});

describe('the layout setting', () => {
  const browser = useBrowser();

  afterAll(async () => {
    // The other test files expect the spec's tab routes.
    await setLayout({ home: 'home-k', me: 'me-k' });
  });

  it('moves the tab bar home and the "me" entries to the chosen layouts', async () => {
    await setLayout({ home: 'home-j', me: 'me-f' });
    const page = await browser.newPage({ user });
    // A screen with the tab bar: the launch call brings the choice to the device.
    await page.goto(appUrl('/pages/tabs/quotes/quotes'));
    await expect
      .poll(() => stored(page, 'siteInfo').then((info) => (info as any)?.layout), {
        timeout: 10_000,
      })
      .toEqual({ home: 'home-j', me: 'me-f' });
    await page.getByTestId('tab-home').click();
    await waitForRoute(page, HOMES['home-j'].route);
    await page.getByTestId('home-j-page').waitFor();
    await expect(page.getByTestId('tab-home').getAttribute('aria-current')).resolves.toBe('page');
    // The header's "me" opens the chosen user centre.
    await page.getByTestId('home-me').click();
    await waitForRoute(page, MES['me-f'].route);
    await page.getByTestId('me-f-page').waitFor();
    // The app's entry opens the chosen home.
    await page.goto(appUrl('/'));
    await waitForRoute(page, HOMES['home-j'].route);
    // Every layout still opens by its own route.
    await page.goto(appUrl(HOMES['home-k'].route));
    await page.getByTestId('home-page').waitFor();
    await page.goto(appUrl(MES['me-k'].route));
    await page.getByTestId('me-page').waitFor();

    await setLayout({ home: 'home-g', me: 'me-e' });
    const next = await browser.newPage({ user });
    await next.goto(appUrl('/pages/user/accountDetail'));
    await expect
      .poll(() => stored(next, 'siteInfo').then((info) => (info as any)?.layout?.home), {
        timeout: 10_000,
      })
      .toBe('home-g');
    await next.getByTestId('tab-home').click();
    await waitForRoute(next, HOMES['home-g'].route);
    await next.getByTestId('home-g-page').getByTestId('home-me').click();
    await waitForRoute(next, MES['me-e'].route);
  });
});

describe('component pages', () => {
  const browser = useBrowser();

  it('shows m-zichan and m-quolist as pages', async () => {
    const page = await browser.newPage({ user });
    await page.goto(appUrl('/components/m-quolist/m-quolist'));
    const list = page.getByTestId('quote-list-component-page');
    await expect
      .poll(() => list.getByTestId('quote-price').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await fullScreenshot(page, 'layout-m-quolist-en');
    await page.goto(appUrl('/components/m-zichan/m-zichan'));
    await page.getByTestId('assets-component-page').waitFor();
  });
});
