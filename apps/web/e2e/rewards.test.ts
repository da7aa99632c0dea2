/**
 * Welfare and awards in the app against the real server: the operator opens a campaign (an
 * identity task and a trading-volume task) and deposit reward tiers (through the admin API, as the
 * console does); the user's identity is approved, and the task centre shows the identity task done
 * and paid, the volume task to do with its reward, condition, end and progress; the award records
 * list the payment with its ledger entry; the deposit screen shows the tiers before paying. The
 * same in Arabic, right to left. The campaign is ended and the tiers retired afterwards, so the
 * other browser tests' balances are untouched. The three screens in each of the 19 languages too,
 * in their direction, with no locale key or unfilled `{0}` left. Screenshots at 390x844.
 */
import type { Page } from 'playwright-core';
import { LANGUAGES } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCall,
  apiCall,
  appUrl,
  operatorPost,
  operatorToken,
  registerUser,
  screenshot,
  text,
  untranslated,
  useBrowser,
  type RegisteredUser,
} from './browser';

const USDT = 3;
const ARABIC = { locale: 'ar' };
let campaignId = 0;
let identityTaskId = 0;
let volumeTaskId = 0;
const tierIds: number[] = [];

/** A user whose basic identity the operator approved (which completes the identity task). */
async function verifiedUser(): Promise<RegisteredUser> {
  const user = await registerUser();
  const applied = await apiCall<{ id: number }>('POST', '/api/userAuthRecord/userAuthApply', {
    token: user.token,
    form: {
      authLevel: '0',
      realName: 'Ada Lovelace',
      idType: '0',
      idNumber: '11010519491231002X',
      requestId: `e2e-rwd-${Date.now()}`,
    },
  });
  expect(applied.code, JSON.stringify(applied)).toBe(200);
  const approved = await adminCall(await operatorToken(), '/identity/approve', {
    id: String(applied.data.id),
  });
  expect(approved.code, JSON.stringify(approved)).toBe(200);
  return user;
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

beforeAll(async () => {
  const now = Date.now();
  const campaign = await operatorPost<{ id: number; tasks: { id: number; kind: string }[] }>(
    '/rewards/campaigns/save',
    {
      title: { en: 'Welcome month', ar: 'شهر الترحيب' },
      description: {
        en: 'Two tasks for new users.',
        ar: 'مهمتان للمستخدمين الجدد.',
      },
      startTime: new Date(now).toISOString(),
      endTime: new Date(now + 30 * 86_400_000).toISOString(),
      currencyId: USDT,
      budget: '1000',
      tasks: [
        { kind: 'identity0', reward: '5' },
        { kind: 'volume', threshold: '1000', reward: '8' },
      ],
    },
  );
  campaignId = campaign.id;
  identityTaskId = campaign.tasks[0]!.id;
  volumeTaskId = campaign.tasks[1]!.id;
  for (const tier of [
    { currencyId: USDT, minAmount: '100', maxAmount: '1000', rate: '0.02' },
    { currencyId: USDT, minAmount: '1000', rate: '0.03' },
  ])
    tierIds.push((await operatorPost<{ id: number }>('/rewards/tiers/save', tier)).id);
});

afterAll(async () => {
  if (campaignId)
    await operatorPost('/rewards/campaigns/end', { id: campaignId, reason: 'Browser test over' });
  for (const id of tierIds) await operatorPost('/rewards/tiers/retire', { id });
});

describe('welfare and awards', () => {
  const browser = useBrowser();

  it('shows the tasks, the paid award and the deposit tiers', async () => {
    const user = await verifiedUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl('/pages/user/welfare'));
    const campaign = page.locator(`[data-testid="campaign-${campaignId}"]`);
    await campaign.waitFor();
    expect(await campaign.textContent()).toContain('Welcome month');
    await expect
      .poll(() =>
        page.locator(`[data-testid="task-${identityTaskId}"]`).getAttribute('data-status'),
      )
      .toBe('paid');
    expect(await page.locator(`[data-testid="task-${identityTaskId}-status"]`).textContent()).toBe(
      text('taskStatus_paid'),
    );
    const volume = page.locator(`[data-testid="task-${volumeTaskId}"]`);
    expect(await volume.getAttribute('data-status')).toBe('todo');
    const volumeText = (await volume.textContent()) ?? '';
    expect(volumeText).toContain('+8.0000 USDT');
    expect(volumeText).toContain('0.0000 / 1000.0000 USDT');
    expect(await campaign.textContent()).toContain(text('welfare_noStrings'));
    await screenshot(page, 'welfare-en');
    await noSidewaysScroll(page);

    await page.locator('[data-testid="welfare-records"]').click();
    const award = page.locator('[data-testid^="award-task-"]').first();
    await award.waitFor();
    const awardText = (await award.textContent()) ?? '';
    expect(awardText).toContain('+5.0000 USDT');
    expect(awardText).toContain(text('task_identity0'));
    expect(awardText).toContain('Welcome month');
    expect(awardText).toMatch(/#\d+/);
    await screenshot(page, 'award-en');
    await noSidewaysScroll(page);

    await page.goto(appUrl(`/pages/user/recharge?currencyId=${USDT}`));
    const tiers = page.locator('[data-testid="deposit-tiers"]');
    await tiers.waitFor();
    const tiersText = (await tiers.textContent()) ?? '';
    expect(tiersText).toContain('2% of the deposit');
    expect(tiersText).toContain('1000.0000 USDT and more');
    await tiers.scrollIntoViewIfNeeded();
    await screenshot(page, 'recharge-tiers-en');
    await noSidewaysScroll(page);
  });

  it('reads the same in Arabic, right to left', async () => {
    const user = await verifiedUser();
    const page = await browser.newPage({ user, storage: ARABIC });
    await page.goto(appUrl('/pages/user/welfare'));
    const campaign = page.locator(`[data-testid="campaign-${campaignId}"]`);
    await campaign.waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await campaign.textContent()).toContain('شهر الترحيب');
    await expect
      .poll(() => page.locator(`[data-testid="task-${identityTaskId}-status"]`).textContent())
      .toBe(text('taskStatus_paid', 'ar'));
    expect(await page.locator(`[data-testid="task-${volumeTaskId}-go"]`).textContent()).toBe(
      text('welfare_go', 'ar'),
    );
    await screenshot(page, 'welfare-ar');
    await noSidewaysScroll(page);

    await page.goto(appUrl('/pages/user/award'));
    const award = page.locator('[data-testid^="award-task-"]').first();
    await award.waitFor();
    expect(await award.textContent()).toContain(text('task_identity0', 'ar'));
    await screenshot(page, 'award-ar');
    await noSidewaysScroll(page);

    await page.goto(appUrl(`/pages/user/recharge?currencyId=${USDT}`));
    const tiers = page.locator('[data-testid="deposit-tiers"]');
    await tiers.waitFor();
    expect(await tiers.textContent()).toContain(text('tiers_title', 'ar'));
    await tiers.scrollIntoViewIfNeeded();
    await screenshot(page, 'recharge-tiers-ar');
    await noSidewaysScroll(page);
  });

  describe('in every language', () => {
    let user: RegisteredUser;

    beforeAll(async () => {
      user = await verifiedUser();
    });

    for (const { key: locale, rtl } of LANGUAGES)
      it(`shows the task centre, the awards and the deposit tiers translated (${locale})`, async () => {
        const page = await browser.newPage({ user, storage: { locale } });
        const screens: [string, string][] = [
          ['/pages/user/welfare', `[data-testid="task-${volumeTaskId}-reward"]`],
          ['/pages/user/award', '[data-testid^="award-"]'],
          [`/pages/user/recharge?currencyId=${USDT}`, '[data-testid^="deposit-tier-"]'],
        ];
        await page.goto(appUrl(screens[0]![0]));
        for (const [route, ready] of screens) {
          await page.evaluate((hash) => (window.location.hash = hash), route);
          await page.locator(ready).first().waitFor();
          expect(await page.evaluate(() => document.documentElement.dir), route).toBe(
            rtl ? 'rtl' : 'ltr',
          );
          expect(await untranslated(page), `${route} (${locale})`).toEqual([]);
        }
        if (locale === 'de' || locale === 'jp') await screenshot(page, `rewards-${locale}`);
      });
  });
});
