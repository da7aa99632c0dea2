/**
 * Referral through the console at 1440x900: a finance operator sets new commission terms (two
 * levels, 15 % and 5 %) that the app's public terms then show; freezes a user's commissions with a
 * reason (the user is notified), finds the user in the user tab and unfreezes them; every change
 * is in the audit log. The report and the pages are pictured in English and Chinese.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  createOperator,
  firstAdminToken,
  openSignedIn,
  registerUser,
  screenshot,
  text,
  useConsole,
  type ConsoleHarness,
  type Credentials,
  type Language,
} from './console';

let operator: Credentials;
let browser: ConsoleHarness;

const openReferral = (language: Language = 'en') =>
  openSignedIn(browser, operator, '/referral', 'referral-terms', language);

async function publicTerms(): Promise<{ levels: number; rates: string[] }> {
  const response = await fetch(new URL('/api/userTeam/commissionTerms', baseUrl()), {
    headers: { Accept: 'application/json' },
  });
  return ((await response.json()) as { data: { levels: number; rates: string[] } }).data;
}

async function notifications(token: string): Promise<{ type: string; params: string[] }[]> {
  const response = await fetch(new URL('/api/notification/list', baseUrl()), {
    headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { rows: { type: string; params: string[] }[] }).rows;
}

beforeAll(async () => {
  operator = await createOperator(await firstAdminToken(), ['finance'], 'ref');
});

describe('referral in the console', () => {
  browser = useConsole();

  it('sets commission terms from now on; the app publishes them', async () => {
    const page = await openReferral();
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(
      text('nav.referral'),
    );
    await page.locator('[data-testid="referral-levels"]').click();
    await page.locator('.ant-select-item-option[title="2"]').click();
    await page.locator('[data-testid="referral-rate-1"]').fill('15');
    await page.locator('[data-testid="referral-rate-2"]').fill('5');
    await page.locator('[data-testid="referral-terms-save"]').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await page.locator('.ant-message', { hasText: text('referral.terms.saved') }).waitFor();
    await expect
      .poll(() => page.locator('[data-testid="referral-terms-current"]').textContent())
      .toContain(text('referral.terms.levelRate', 'en', { level: 2, rate: '5%' }));
    expect(await publicTerms()).toMatchObject({ levels: 2, rates: ['0.15', '0.05'] });
    await page.waitForFunction(() => !document.querySelector('.ant-message-notice'));
    await screenshot(page, 'referral-terms');
  });

  it('freezes and unfreezes an inviter with a reason the user reads', async () => {
    const user = await registerUser();
    const page = await openReferral();
    await page.locator('.ant-tabs-tab', { hasText: text('referral.tab.freezes') }).click();
    await page.locator('[data-testid="referral-freeze-new"]').click();
    await page.locator('[data-testid="referral-freeze-user"]').fill(String(user.id));
    await page
      .locator('[data-testid="referral-freeze-reason"]')
      .fill('Invitees registered in bulk from one device');
    await page.locator('[data-testid="referral-freeze-confirm"]').click();
    await page.locator(`[data-testid="referral-unfreeze-${user.id}"]`).waitFor();
    await screenshot(page, 'referral-freezes');
    expect((await notifications(user.token))[0]).toMatchObject({
      type: 'referralFrozen',
      params: ['Invitees registered in bulk from one device'],
    });

    await page.locator('.ant-tabs-tab', { hasText: text('referral.tab.user') }).click();
    await page.locator('[data-testid="referral-user-id"]').fill(String(user.id));
    await page.locator('[data-testid="referral-user-search"]').click();
    await page.locator('[data-testid="referral-user-detail"]').waitFor();
    expect(await page.locator('[data-testid="referral-user-levels"]').textContent()).toContain(
      text('referral.levelCount', 'en', { level: 1, count: 0 }),
    );
    await screenshot(page, 'referral-user');
    await page.locator('[data-testid="referral-user-freeze"]').click();
    await page.locator('[data-testid="referral-freeze-reason"]').fill('Reviewed: genuine invitees');
    await page.locator('[data-testid="referral-freeze-confirm"]').click();
    await page
      .locator('[data-testid="referral-user-detail"] .ant-tag', {
        hasText: text('referral.freeze.notFrozen'),
      })
      .waitFor();
    expect((await notifications(user.token))[0]).toMatchObject({
      type: 'referralUnfrozen',
      params: ['Reviewed: genuine invitees'],
    });
  });

  for (const language of ['en', 'zh'] as const)
    it(`shows the report (${language})`, async () => {
      const page = await openReferral(language);
      await page
        .locator('.ant-tabs-tab', { hasText: text('referral.tab.report', language) })
        .click();
      await page.locator('[data-testid="referral-report-top"]').waitFor();
      await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
      await screenshot(page, `referral-report-${language}`);
      await page
        .locator('.ant-tabs-tab', { hasText: text('referral.tab.terms', language) })
        .click();
      await page.locator('[data-testid="referral-terms-history"]').waitFor();
      await screenshot(page, `referral-terms-${language}`);
    });
});
