/**
 * Issue 19 through the real screens: an avatar picked, cropped square in the browser and shown on
 * the profile and the user centre (the server's image is a square of at most 512 pixels); the
 * demo account reset from the user centre after a confirmation, back at 100,000 USDT with its
 * position closed; the withdrawal whitelist turned on (each address saying from when it takes
 * withdrawals) and off again with the login password. In English and in Arabic (right to left).
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
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
  type RegisteredUser,
} from './browser';

const USER_INFO = '/pages/user/userInfo';
const ME = '/pages/tabs/me/me-k';
const WALLETS = '/pages/wallets/wallets';
const ARABIC = { locale: 'ar' };

function fill(template: string, ...params: string[]): string {
  return template.replace(/\{(\d)\}/g, (_whole, index: string) => params[Number(index)] ?? '');
}

/** A 900 x 600 picture: two colours side by side, so a crop shows which part was kept. */
function picture(): Promise<Buffer> {
  const half = (colour: string) =>
    sharp({ create: { width: 450, height: 600, channels: 3, background: colour } })
      .png()
      .toBuffer();
  return Promise.all([half('#2a5aa0'), half('#f1a802')]).then(([left, right]) =>
    sharp({ create: { width: 900, height: 600, channels: 3, background: '#000000' } })
      .composite([
        { input: left!, left: 0, top: 0 },
        { input: right!, left: 450, top: 0 },
      ])
      .png()
      .toBuffer(),
  );
}

/** Picks the picture, crops it (dragged a little) and saves; the crop step's screenshot. */
async function changeAvatar(page: Page, shot: string): Promise<void> {
  await page.locator('[data-testid="avatar-input"]').setInputFiles({
    name: 'portrait.png',
    mimeType: 'image/png',
    buffer: await picture(),
  });
  const cropper = page.locator('[data-testid="avatar-cropper"]');
  await cropper.waitFor();
  const area = cropper.locator('.reactEasyCrop_Container');
  await area.waitFor();
  // The sheet slides in: read the box once it stands still, or the drag lands elsewhere.
  await expectOnScreen(page, area);
  const box = (await area.boundingBox())!;
  // Drag the picture a little to the side: the crop keeps more of one colour.
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expectOnScreen(page, page.locator('[data-testid="avatar-crop-save"]'));
  await screenshot(page, shot);
  await page.locator('[data-testid="avatar-crop-save"]').click();
  await cropper.waitFor({ state: 'detached' });
}

/** The size of the avatar image the page shows, once loaded. */
async function shownSize(page: Page, testId: string) {
  const image = page.locator(`[data-testid="${testId}"] img`);
  await image.waitFor();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(512);
  return image.evaluate((img: HTMLImageElement) => ({
    width: img.naturalWidth,
    height: img.naturalHeight,
    src: img.getAttribute('src') ?? '',
  }));
}

describe('profile', () => {
  const browser = useBrowser();

  it('crops an avatar square in the browser and shows it on the profile and the user centre', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(USER_INFO));
    await page.locator('[data-testid="avatar-change"]').waitFor();
    await screenshot(page, 'avatar-none');
    await changeAvatar(page, 'avatar-crop');
    await expectToast(page, text('common_saved'));
    const shown = await shownSize(page, 'profile-avatar');
    expect(shown).toMatchObject({ width: 512, height: 512 });
    expect(shown.src).toMatch(/\/api\/userInfo\/avatar\?id=\d+&v=[0-9a-f]{64}$/);
    const info = await apiCall<{ avatar: string }>('GET', '/api/userInfo/getUserInfo', {
      token: user.token,
    });
    expect(shown.src.endsWith(info.data.avatar)).toBe(true);
    await screenshot(page, 'avatar-profile');

    await page.goto(appUrl(ME));
    expect(await shownSize(page, 'me-avatar')).toMatchObject({ width: 512, height: 512 });
    await screenshot(page, 'avatar-me');
  });

  it('crops an avatar in Arabic', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user, storage: ARABIC });
    await page.goto(appUrl(USER_INFO));
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.locator('[data-testid="avatar-change"]').waitFor();
    await changeAvatar(page, 'ar-avatar-crop');
    await expectToast(page, text('common_saved', 'ar'));
    await shownSize(page, 'profile-avatar');
    await screenshot(page, 'ar-avatar-profile');
  });
});

describe('demo reset', () => {
  const browser = useBrowser();

  /** A user in the demo account with an open position there. */
  async function demoTrader(): Promise<RegisteredUser> {
    const user = await registerUser();
    const switched = await apiCall<RegisteredUser['userInfo']>(
      'GET',
      '/api/userInfo/changeLoginModel',
      { token: user.token, query: { accountType: '2' } },
    );
    expect(switched.data.accountType).toBe(2);
    const opened = await apiCall('POST', '/api/contractPosition/open', {
      token: user.token,
      form: {
        productType: '2',
        productCode: 'BTCUSDT',
        orderDirection: '1',
        leverage: '10',
        quantity: '0.01',
        requestId: `e2e-demo-open-${Date.now()}`,
      },
    });
    expect(opened.code, JSON.stringify(opened)).toBe(200);
    return { ...user, userInfo: switched.data };
  }

  async function openPositions(user: RegisteredUser): Promise<number> {
    const listed = await apiCall('GET', '/api/contractPosition/list', {
      token: user.token,
      query: { status: '1' },
    });
    return (listed as unknown as { total: number }).total;
  }

  for (const locale of ['en', 'ar'] as const) {
    it(`resets the demo account after a confirmation (${locale})`, async () => {
      const user = await demoTrader();
      expect(await openPositions(user)).toBe(1);
      const page = await browser.newPage({
        user,
        storage: locale === 'ar' ? ARABIC : {},
      });
      await page.goto(appUrl(ME));
      await page.locator('[data-testid="demo-badge"]').waitFor();
      const button = page.locator('[data-testid="demo-reset"]');
      await expectOnScreen(page, button);
      await screenshot(page, `${locale === 'ar' ? 'ar-' : ''}demo-reset-button`);
      await button.click();
      const dialog = page.locator('.adm-dialog .adm-center-popup-body');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(text('demo_resetConfirm', locale));
      await expectOnScreen(page, dialog);
      await screenshot(page, `${locale === 'ar' ? 'ar-' : ''}demo-reset-confirm`);
      await dialog.locator('.adm-dialog-button', { hasText: text('demo_reset', locale) }).click();
      await expectToast(page, text('demo_resetDone', locale));
      expect(await openPositions(user)).toBe(0);
      const balance = await apiCall<{ amount: string }>('GET', '/api/userInfo/userBalance', {
        token: user.token,
        query: { currencyId: '3' },
      });
      expect(balance.data.amount).toBe('100000.0000');

      // A second reset the same day is refused, saying when the next one is allowed.
      await button.click();
      await dialog.waitFor();
      await dialog.locator('.adm-dialog-button', { hasText: text('demo_reset', locale) }).click();
      const refusal = text('hint_demoResetTooSoon', locale).split('{0}')[0]!.trim();
      await expectToast(page, refusal);
      await screenshot(page, `${locale === 'ar' ? 'ar-' : ''}demo-reset-too-soon`);
    });
  }
});

describe('withdrawal whitelist', () => {
  const browser = useBrowser();
  const TRC20 = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

  for (const locale of ['en', 'ar'] as const) {
    it(`turns the whitelist on and, with the password, off again (${locale})`, async () => {
      const user = await registerUser();
      const added = await apiCall('POST', '/api/userWalletAddress/addUserWalletAddress', {
        token: user.token,
        form: { currencyId: '3', network: 'TRC20', address: TRC20 },
      });
      expect(added.code, JSON.stringify(added)).toBe(200);
      const page = await browser.newPage({ user, storage: locale === 'ar' ? ARABIC : {} });
      await page.goto(appUrl(WALLETS));
      const toggle = page.locator('[data-testid="whitelist-switch"]');
      await toggle.waitFor();
      expect(await page.locator('[data-testid="whitelist-usable"]').count()).toBe(0);

      await toggle.click();
      await expectToast(page, text('whitelist_on', locale));
      const usable = page.locator('[data-testid="whitelist-usable"]');
      await usable.waitFor();
      // Saved just now: usable a day from now.
      expect(await usable.textContent()).toContain(
        fill(text('whitelist_usableFrom', locale), '').trim(),
      );
      await screenshot(page, `${locale === 'ar' ? 'ar-' : ''}whitelist-on`);

      await toggle.click();
      const dialog = page.locator('.adm-dialog .adm-center-popup-body');
      await dialog.waitFor();
      await page.locator('[data-testid="whitelist-password"] input').fill(user.password);
      await expectOnScreen(page, dialog);
      await screenshot(page, `${locale === 'ar' ? 'ar-' : ''}whitelist-off-confirm`);
      await dialog
        .locator('.adm-dialog-button', { hasText: text('common_confirm', locale) })
        .click();
      await expectToast(page, fill(text('whitelist_offDone', locale), '').trim().slice(0, 12));
      await usable.waitFor({ state: 'detached' });
      const status = await apiCall<{ enabled: number }>('GET', '/api/withdrawWhitelist/get', {
        token: user.token,
      });
      expect(status.data.enabled).toBe(0);
      const info = await apiCall<{ withdrawHoldUntil: string | null }>(
        'GET',
        '/api/userInfo/getUserInfo',
        { token: user.token },
      );
      expect(info.data.withdrawHoldUntil).not.toBeNull();
    });
  }
});
