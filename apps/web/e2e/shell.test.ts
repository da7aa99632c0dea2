/**
 * The shell's guards and the launch pop-up, in English and Arabic at 390×844: a protected screen
 * opened signed out calls nothing that answers 401 and shows login, signing in returns to it, a
 * signed-in user opening login goes on, and the pop-up shows with its mask on home only.
 */
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  appUrl,
  currentRoute,
  expectOnScreen,
  registerUser,
  screenshot,
  stored,
  text,
  useBrowser,
  waitForRoute,
  currentPopUpVersion,
} from './browser';

const HOME = '/pages/tabs/home/home-k';
const LOGIN = '/pages/user/login';
const WALLET = '/pages/user/accountDetail';

/** The seven screens of the issue, each of which called the API before sending to login. */
const PROTECTED = {
  wallet: WALLET,
  exchange: '/pages/user/exchange',
  rechargeRecord: '/pages/user/rechargeRecord',
  withdrawRecord: '/pages/user/withdrawRecord',
  changeRecord: '/pages/record/changeRecord',
  accountRecord: '/pages/record/accountRecord',
  assetsComponent: '/components/m-zichan/m-zichan',
};

/** Every API answer the page gets, to find the 401s. */
function recordApi(page: Page): Response[] {
  const answers: Response[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/')) answers.push(response);
  });
  return answers;
}

async function redirectParam(page: Page): Promise<string | null> {
  return page.evaluate(() =>
    new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('redirect'),
  );
}

async function signInOnLoginPage(page: Page, email: string, password: string): Promise<void> {
  const form = page.locator('[data-testid="login-page"]');
  await form.waitFor();
  await page.locator('#login-account').fill(email);
  await page.locator('#login-password').fill(password);
  await form.locator('button[type="submit"]').click();
}

for (const locale of ['en', 'ar'] as const) {
  describe(`shell (${locale})`, () => {
    const browser = useBrowser();
    const storage = { locale };

    it('sends each protected screen to login before any call, with the way back', async () => {
      for (const [name, route] of Object.entries(PROTECTED)) {
        const page = await browser.newPage({ storage });
        const answers = recordApi(page);
        await page.goto(appUrl(route));
        await waitForRoute(page, LOGIN);
        await page.locator('[data-testid="login-page"]').waitFor();
        expect(await redirectParam(page), name).toBe(route);
        await page.waitForLoadState('networkidle');
        const refused = answers.filter((answer) => answer.status() === 401);
        expect(
          refused.map((answer) => answer.url()),
          `${name}: no call answered 401`,
        ).toEqual([]);
        if (name === 'wallet') await screenshot(page, `shell-guard-login-${locale}`);
        await page.close();
      }
    });

    it('returns to the wallet tab after signing in from it', async () => {
      const user = await registerUser();
      const page = await browser.newPage({ storage });
      await page.goto(appUrl(HOME));
      await page.locator('[data-testid="home-page"]').waitFor();
      await page.locator('[data-testid="tab-accountDetail"]').click();
      await waitForRoute(page, LOGIN);
      expect(await redirectParam(page)).toBe(WALLET);
      await signInOnLoginPage(page, user.email, user.password);
      await waitForRoute(page, WALLET);
      expect(await stored(page, 'uToken')).toBeTruthy();
      // Login was replaced: going back does not show it again.
      expect(await currentRoute(page)).toBe(WALLET);
      await screenshot(page, `shell-returned-wallet-${locale}`);
    });

    it('returns to a record screen with its query after signing in', async () => {
      const user = await registerUser();
      const page = await browser.newPage({ storage });
      const route = `${PROTECTED.accountRecord}?currencyId=3`;
      await page.goto(appUrl(route));
      await waitForRoute(page, LOGIN);
      expect(await redirectParam(page)).toBe(route);
      await signInOnLoginPage(page, user.email, user.password);
      await waitForRoute(page, PROTECTED.accountRecord);
      expect(await page.evaluate(() => window.location.hash)).toBe(`#${route}`);
    });

    it('does not show login to a signed-in user', async () => {
      const user = await registerUser();
      const page = await browser.newPage({ storage, user });
      await page.goto(appUrl(LOGIN));
      await waitForRoute(page, HOME);
      await page.locator('[data-testid="home-page"]').waitFor();
      expect(await page.locator('[data-testid="login-page"]').count()).toBe(0);

      await page.goto(appUrl(`${LOGIN}?redirect=${encodeURIComponent(PROTECTED.exchange)}`));
      await waitForRoute(page, PROTECTED.exchange);
      // A return path off this app is not followed.
      await page.goto(appUrl(`${LOGIN}?redirect=${encodeURIComponent('https://example.com/')}`));
      await waitForRoute(page, HOME);
    });

    it('shows the launch pop-up with its mask on home only, not over a deep link or login', async () => {
      const page = await browser.newPage({ storage, showPopUp: true });
      const popUpList = page.waitForResponse((response) =>
        response.url().includes('/api/popUp/list'),
      );
      await page.goto(appUrl(LOGIN));
      await page.locator('[data-testid="login-page"]').waitFor();
      await popUpList;
      await page.waitForLoadState('networkidle');
      expect(await page.locator('[data-testid="launch-pop-up"]').count()).toBe(0);
      // The login form takes taps and typing.
      await page.locator('#login-account').fill('someone@example.com');
      expect(await page.locator('#login-account').inputValue()).toBe('someone@example.com');

      // Reaching home, the pop-up shows over a mask that covers the whole screen.
      await page.goto(appUrl(HOME));
      const popUp = page.locator('[data-testid="launch-pop-up"]');
      await popUp.waitFor();
      const mask = page.locator('[data-testid="launch-pop-up-mask"]');
      const box = await mask.boundingBox();
      expect(box).toEqual({ x: 0, y: 0, width: 390, height: 844 });
      const background = await mask.evaluate(
        (element) => getComputedStyle(element).backgroundColor,
      );
      expect(background).toMatch(/^rgba\(0, 0, 0, 0\.\d+\)$/);
      const dialog = page.getByRole('alertdialog');
      await expectOnScreen(page, dialog);
      expect(await dialog.textContent()).toContain(text('popup_welcome_title', locale));
      // A tap on the masked home screen reaches nothing under it.
      await page.mouse.click(195, 800);
      expect(await currentRoute(page)).toBe(HOME);
      await screenshot(page, `shell-pop-up-${locale}`);

      await dialog.getByRole('button', { name: text('common_gotIt', locale) }).click();
      await popUp.waitFor({ state: 'detached' });
      expect(await stored(page, 'popUpVersion')).toEqual(await currentPopUpVersion());
    });
  });
}
