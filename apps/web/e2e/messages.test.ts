/**
 * Site messages and notifications in the app against the real server: the operator sends an
 * announcement and a personal message (through the admin API, as the console does); the user
 * sees the bell's count on home, the message list with a tab per type and unread dots, opens a
 * message (rich text, marked read: the count drops), and reads the notifications. A deposit the
 * operator approves while the app is open toasts at once (pushed over /ws, not polled) and is
 * listed, leading to its deposit. The same in Arabic, right to left. Screenshots at 390x844.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  adminCall,
  apiCall,
  appUrl,
  baseUrl,
  expectToast,
  operatorToken,
  registerUser,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const ARABIC = { locale: 'ar' };

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function compose(fields: Record<string, unknown>): Promise<number> {
  const response = await fetch(new URL('/admin-api/messages/save', baseUrl()), {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${await operatorToken()}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      typeId: 2,
      kind: 1,
      title: { en: 'Maintenance tonight', ar: 'صيانة الليلة' },
      content: {
        en: '<p>Trading pauses from <strong>22:00</strong> UTC.</p><ul><li>Deposits wait</li></ul>',
        ar: '<p>يتوقف التداول من <strong>22:00</strong> بالتوقيت العالمي.</p>',
      },
      ...fields,
    }),
  });
  const result = (await response.json()) as Envelope<{ id: number }>;
  expect(result.code, JSON.stringify(result)).toBe(200);
  return result.data.id;
}

/** A deposit through the online channel, left for the operator. */
async function requestDeposit(user: RegisteredUser, amount: string): Promise<number> {
  const channels = await apiCall<{ id: number; channelType: number }[]>(
    'GET',
    '/api/rechargeChannelConfig/list',
    { token: user.token },
  );
  const online = channels.data.find((channel) => channel.channelType === 3)!;
  const deposit = await apiCall<{ id: number }>('POST', '/api/userRecharge/inMoney', {
    token: user.token,
    form: { channelId: String(online.id), amount, requestId: `e2e-msg-${Date.now()}` },
  });
  expect(deposit.code, JSON.stringify(deposit)).toBe(200);
  return deposit.data.id;
}

async function unread(user: RegisteredUser): Promise<number> {
  const count = await apiCall<{ notReadMessageCount: number }>(
    'GET',
    '/api/siteMessage/notReadMessageCount',
    { token: user.token },
  );
  return count.data.notReadMessageCount;
}

async function bellCount(page: Page): Promise<string | null> {
  const badge = page.locator('[data-testid="message-bell-count"]');
  return (await badge.count()) > 0 ? badge.first().textContent() : null;
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('messages', () => {
  const browser = useBrowser();

  it('lists messages by type, opens one, and the unread count drops', async () => {
    const user = await registerUser();
    const announcement = await compose({});
    const personal = await compose({
      kind: 2,
      typeId: 1,
      userAccount: user.email,
      title: { en: 'Your account is verified soon' },
      content: { en: '<p>We received your documents.</p>' },
    });
    const page = await browser.newPage({ user });
    await page.goto(appUrl('/pages/tabs/home/home-k'));
    // The welcome message, the announcement and the personal message (and any announcement
    // another test file sends meanwhile).
    const before = await unread(user);
    expect(before).toBeGreaterThanOrEqual(3);
    await expect.poll(() => bellCount(page), { timeout: 10_000 }).toBe(String(before));
    await screenshot(page, 'messages-home-bell-en');
    await page.locator('[data-testid="message-bell"]').click();
    await waitForRoute(page, '/pages/msg/msg-list');
    const row = page.locator(`[data-testid="msg-row-${announcement}"]`);
    await row.waitFor();
    await expect.poll(() => row.getAttribute('data-unread')).toBe('1');
    expect(await row.textContent()).toContain('Maintenance tonight');
    expect(await row.textContent()).toContain(text('time_justNow'));
    await screenshot(page, 'messages-list-en');
    await noSidewaysScroll(page);

    // The system tab holds the personal message, not the announcement.
    await page.locator('[data-testid="msg-tab-1"]').click();
    await page.locator(`[data-testid="msg-row-${personal}"]`).waitFor();
    expect(await page.locator(`[data-testid="msg-row-${announcement}"]`).count()).toBe(0);
    await page.locator('[data-testid="msg-tab-all"]').click();

    await row.click();
    await waitForRoute(page, '/pages/msg/msg-detail');
    await expect
      .poll(() => page.locator('[data-testid="msg-title"]').textContent())
      .toBe('Maintenance tonight');
    expect(await page.locator('[data-testid="msg-content"] strong').textContent()).toBe('22:00');
    await screenshot(page, 'messages-detail-en');
    await page.goBack();
    await waitForRoute(page, '/pages/msg/msg-list');
    await expect.poll(() => row.getAttribute('data-unread')).toBe('0');
    const after = await unread(user);
    expect(after).toBeLessThan(before);
    await page.goto(appUrl('/pages/tabs/home/home-k'));
    await expect.poll(() => bellCount(page), { timeout: 10_000 }).toBe(String(after));
  });

  it('toasts a deposit the operator approves while the app is open, and lists it', async () => {
    const user = await registerUser();
    const depositId = await requestDeposit(user, '120');
    const page = await browser.newPage({ user });
    await page.goto(appUrl('/pages/tabs/home/home-k'));
    const before = await unread(user);
    await expect.poll(() => bellCount(page), { timeout: 10_000 }).toBe(String(before));
    const approved = await adminCall(await operatorToken(), '/recharges/approve', {
      id: String(depositId),
    });
    expect(approved.code).toBe(200);
    await expectToast(page, text('notify_depositApproved').split('{0}')[0]!.trim());
    await expect.poll(() => bellCount(page), { timeout: 10_000 }).toBe(String(before + 1));
    await screenshot(page, 'notifications-toast-en');

    await page.goto(appUrl('/pages/notifyList/notifyList'));
    const rows = page.locator('[data-testid^="notify-row-"][data-unread]');
    await rows.first().waitFor();
    expect(await rows.first().textContent()).toContain('USD');
    await screenshot(page, 'notifications-list-en');
    await noSidewaysScroll(page);
    await page.locator('[data-testid="notify-read-all"]').click();
    await expect.poll(() => rows.first().getAttribute('data-unread')).toBe('0');
    await rows.first().click();
    await waitForRoute(page, '/pages/user/recharge-detail');
  });

  it('reads the same in Arabic, right to left', async () => {
    const user = await registerUser();
    const announcement = await compose({});
    const depositId = await requestDeposit(user, '75');
    const page = await browser.newPage({ user, storage: ARABIC });
    await page.goto(appUrl('/pages/msg/msg-list'));
    const row = page.locator(`[data-testid="msg-row-${announcement}"]`);
    await row.waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await row.textContent()).toContain('صيانة الليلة');
    expect(await page.locator('[data-testid="msg-tab-all"]').textContent()).toBe(
      text('msg_all', 'ar'),
    );
    await screenshot(page, 'messages-list-ar');
    await noSidewaysScroll(page);
    await row.click();
    await expect
      .poll(() => page.locator('[data-testid="msg-title"]').textContent())
      .toBe('صيانة الليلة');
    await screenshot(page, 'messages-detail-ar');

    await page.goto(appUrl('/pages/notifyList/notifyList'));
    await page.locator('[data-testid="notify-list-page"]').waitFor();
    const approved = await adminCall(await operatorToken(), '/recharges/approve', {
      id: String(depositId),
    });
    expect(approved.code).toBe(200);
    const start = text('notify_depositApproved', 'ar').split('{0}')[0]!.trim();
    await expectToast(page, start);
    const rows = page.locator('[data-testid^="notify-row-"][data-unread="1"]');
    await rows.first().waitFor();
    expect(await rows.first().textContent()).toContain(start);
    // A sign-in from a client whose browser cannot be told names the kind of device, in Arabic.
    const signedIn = await apiCall('POST', '/api/userInfo/login', {
      form: { loginType: '1', userAccount: user.email, userPwd: user.password },
    });
    expect(signedIn.code, JSON.stringify(signedIn)).toBe(200);
    const unknownDevice = text('security_device_unknown', 'ar');
    const signInRow = page.locator('[data-testid^="notify-row-"]', { hasText: unknownDevice });
    await signInRow.first().waitFor();
    expect(await signInRow.first().textContent()).not.toContain('unknown');
    await screenshot(page, 'notifications-list-ar');
    await noSidewaysScroll(page);
  });
});
