/**
 * Copy trading in the app (issue 25) against the real server. The operator lets anyone with a
 * closed trade apply to lead and shows current positions at once (restored afterwards). A funded
 * user applies on the lead screen, the operator approves, and they open and close a BTC contract
 * and open another: their profile shows computed statistics, the equity curve and both
 * positions. A funded follower finds them in the list, opens the profile, follows with a fixed
 * margin — the preview shows the margin of one copy as the shared `copyMargin` sizes it, the
 * confirm sheet the same — and lands on their copies. The leader opens a contract: the copy
 * appears beside the leader's entry with its own entry tick. Unfollowing with "close now" ends the
 * relation and closes the copy. Then every new screen in each of the 19 languages, in its
 * direction, with no locale key or unfilled `{0}` left and no sideways scroll. Screenshots at
 * 390x844 (en, zh, ar).
 */
import type { Page } from 'playwright-core';
import { LANGUAGES, copyMargin, normalize, type CopyTradeSettingsRow } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appUrl,
  expectOnScreen,
  operatorPost,
  screenshot,
  text,
  untranslated,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';
import {
  becomeLeader,
  closeContract,
  copies,
  fundedUser,
  openContract,
  operatorGet,
  relations,
  textOf,
} from './copy-support';

const LIST = '/pages/followOrder/followOrder';

async function noSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, what).toBeLessThanOrEqual(0);
}

let settingsBefore: CopyTradeSettingsRow | undefined;
let leaderLevelBefore: number | undefined;
let leader: RegisteredUser;
let follower: RegisteredUser;
let leaderOpen = 0;

beforeAll(async () => {
  settingsBefore = (await operatorGet<CopyTradeSettingsRow>('/copy-trade/settings')).data;
  await operatorPost('/copy-trade/settings/save', {
    maxProfitShareRate: settingsBefore.maxProfitShareRate,
    minClosedTrades: 1,
    positionDelayMinutes: 0,
  });
  const requirements = await operatorGet<unknown>('/identity/requirements');
  leaderLevelBefore = ((requirements.rows ?? []) as { feature: string; minLevel: number }[]).find(
    (row) => row.feature === 'copyLeader',
  )?.minLevel;
  await operatorPost('/identity/requirements/save', { feature: 'copyLeader', minLevel: -1 });
  [leader, follower] = await Promise.all([fundedUser(), fundedUser()]);
  // A track record of one closed trade.
  const first = await openContract(leader);
  await closeContract(leader, first.id);
});

afterAll(async () => {
  if (settingsBefore) await operatorPost('/copy-trade/settings/save', settingsBefore);
  if (leaderLevelBefore !== undefined)
    await operatorPost('/identity/requirements/save', {
      feature: 'copyLeader',
      minLevel: leaderLevelBefore,
    });
});

describe('copy trading', () => {
  const browser = useBrowser();

  it('applies to lead, is approved and shows a computed profile', async () => {
    const page = await browser.newPage({ user: leader });
    await becomeLeader(
      page,
      leader,
      { title: 'Steady BTC trend', description: 'Small positions, cut losses early.' },
      async (step) => {
        if (step === 'apply')
          expect(
            await page.locator('[data-testid="copy-lead-record"]').getAttribute('data-met'),
          ).toBe('true');
        await screenshot(
          page,
          step === 'apply'
            ? 'copy-lead-apply-en'
            : step === 'approved'
              ? 'copy-lead-en'
              : 'copy-lead-profile-en',
        );
        if (step === 'profile') await noSidewaysScroll(page, 'lead profile');
      },
    );

    leaderOpen = (await openContract(leader)).id;
    await page.goto(appUrl(`/pages/followOrder/trader?traderId=${leader.userInfo.id}`));
    await page.locator('[data-testid="copy-trader-profile"]').waitFor();
    expect(await textOf(page, 'copy-trader-profile')).toContain('Steady BTC trend');
    await page.locator('[data-testid="copy-stats-period-all"]').click();
    expect(await textOf(page, 'copy-stats-trades')).toBe('1');
    await page.locator('[data-testid="copy-equity-chart"]').waitFor();
    await page.locator(`[data-testid="copy-position-${leaderOpen}"]`).waitFor();
    expect(await page.locator('[data-testid="copy-own-profile"]').count()).toBe(1);

    // A trader who does not exist is said to be missing, not a failed connection.
    await page.goto(appUrl('/pages/followOrder/trader?traderId=999999999'));
    await page.locator('[data-testid="copy-trader-missing"]').waitFor();
    expect(await textOf(page, 'copy-trader-missing')).toContain(text('copy_traderMissing'));
  });

  it('follows with the preview the shared rule gives, sees the copy at its own tick, unfollows', async () => {
    const page = await browser.newPage({ user: follower });
    await page.goto(appUrl(LIST));
    await page.locator('[data-testid="copy-traders-page"]').waitFor();
    const card = page.locator(`[data-testid="copy-trader-${leader.userInfo.id}"]`);
    await page.locator('[data-testid="copy-period-all"]').click();
    await card.waitFor();
    expect(await card.textContent()).toContain(leader.userInfo.userAccount.slice(0, 1));
    await screenshot(page, 'copy-list-en');
    await noSidewaysScroll(page, 'list');
    await page.locator('[data-testid="copy-sort-drawdown"]').click();
    await card.waitFor();

    await card.locator(`[data-testid="copy-trader-${leader.userInfo.id}-open"]`).click();
    await waitForRoute(page, '/pages/followOrder/trader');
    await page.locator('[data-testid="copy-equity-chart"]').waitFor();
    await screenshot(page, 'copy-trader-en');
    await noSidewaysScroll(page, 'profile');
    await page.locator('[data-testid="copy-follow"]').click();

    await waitForRoute(page, '/pages/followOrder/follow');
    await page.locator('#copy-amount').fill('20');
    await page.locator('#copy-budget').fill('100');
    await page.locator('#copy-max-open').fill('3');
    await page.locator('#copy-sl').fill('50');
    const shared = copyMargin({
      mode: 1,
      amount: '20',
      leaderMargin: '0',
      budgetLeft: '100',
      available: '5000',
      scale: 2,
    });
    expect(shared.ok && shared.margin).toBe('20');
    await expect.poll(() => textOf(page, 'copy-preview-margin')).toBe('20.00 USDT');
    await page.locator('[data-testid="copy-preview-total"]').waitFor();
    await screenshot(page, 'copy-follow-en');
    await noSidewaysScroll(page, 'follow');
    await page.locator('[data-testid="copy-follow-button"]').click();
    await page.locator('[data-testid="copy-confirm"]').waitFor();
    expect(await textOf(page, 'copy-confirm-margin')).toBe('20.00 USDT');
    expect(await textOf(page, 'copy-confirm-rate')).toBe('10.00%');
    await expectOnScreen(page, page.locator('[data-testid="copy-confirm-button"]'));
    await screenshot(page, 'copy-confirm-en');
    await page.locator('[data-testid="copy-confirm-button"]').click();

    await waitForRoute(page, '/pages/followOrder/mine');
    const [relation] = await relations(follower);
    expect(relation).toMatchObject({ mode: 1, maxOpen: 3, status: 1 });
    expect(normalize(relation!.budget)).toBe('100');
    expect(normalize(relation!.slRate!)).toBe('0.5');
    await page.locator(`[data-testid="copy-relation-${relation!.id}"]`).waitFor();

    // The leader opens: the follower's copy opens at its own tick.
    const opened = await openContract(leader);
    await expect
      .poll(
        async () => (await copies(follower)).find((row) => row.leader.id === opened.id)?.status,
        {
          timeout: 20_000,
        },
      )
      .toBe(1);
    await page.locator(`[data-testid="copy-relation-${relation!.id}-copies"]`).click();
    await waitForRoute(page, '/pages/followOrder/copies');
    const copy = (await copies(follower)).find((row) => row.leader.id === opened.id)!;
    await page.locator(`[data-testid="copy-copy-${copy.id}-entry-tick"]`).waitFor();
    // Its margin: the 20 USDT asked, less what whole lots of the product leave over (the
    // server opens whole lots at the follower's own tick), as the position has it.
    const shownMargin = (await textOf(page, `copy-copy-${copy.id}-margin`)).split(' ')[0]!;
    expect(normalize(shownMargin.replace(/,/g, ''))).toBe(normalize(copy.position!.margin));
    expect(Number(copy.position!.margin)).toBeLessThanOrEqual(20);
    await screenshot(page, 'copy-copies-en');
    await noSidewaysScroll(page, 'copies');

    // Unfollow, closing the copies now.
    await page.goBack();
    await waitForRoute(page, '/pages/followOrder/mine');
    await page.locator(`[data-testid="copy-relation-${relation!.id}-unfollow"]`).click();
    await page.locator('[data-testid="copy-unfollow"]').waitFor();
    await screenshot(page, 'copy-unfollow-en');
    await page.locator('[data-testid="copy-unfollow-1"]').click();
    await page.locator('.adm-dialog-button-bold').click();
    await expect
      .poll(async () => (await relations(follower)).find((row) => row.id === relation!.id)?.status)
      .toBe(2);
    await expect
      .poll(
        async () => (await copies(follower)).find((row) => row.id === copy.id)?.position?.status,
      )
      .toBe(2);
    await page
      .locator(`[data-testid="copy-relation-${relation!.id}"] [data-testid="copy-relation-status"]`)
      .and(page.locator('[data-status="2"]'))
      .waitFor();
    await screenshot(page, 'copy-mine-en');
    await page.goto(appUrl('/pages/followOrder/settlements'));
    await page.locator('[data-testid="copy-settlements-page"]').waitFor();
    await page
      .locator('[data-testid^="copy-settlement-"], [data-testid="copy-settlements-empty"]')
      .first()
      .waitFor();
    await screenshot(page, 'copy-settlements-en');
  });

  describe('in every language', () => {
    const followerScreens = (): [string, string][] => [
      [LIST, `[data-testid="copy-trader-${leader.userInfo.id}"]`],
      [
        `/pages/followOrder/trader?traderId=${leader.userInfo.id}`,
        '[data-testid="copy-trader-stats"]',
      ],
      [`/pages/followOrder/follow?traderId=${leader.userInfo.id}`, '[data-testid="copy-preview"]'],
      ['/pages/followOrder/mine', '[data-testid^="copy-relation-"]'],
      [
        '/pages/followOrder/copies',
        '[data-testid^="copy-copy-"], [data-testid="copy-copies-empty"]',
      ],
      [
        '/pages/followOrder/settlements',
        '[data-testid^="copy-settlement-"], [data-testid="copy-settlements-empty"]',
      ],
    ];
    const leaderScreens: [string, string][] = [
      ['/pages/followOrder/lead', '[data-testid="copy-lead-trader"]'],
      ['/pages/followOrder/leadProfile', '[data-testid="copy-lead-profile-form"]'],
      ['/pages/followOrder/leadDashboard', '[data-testid="copy-dashboard-summary"]'],
    ];
    for (const { key: locale, rtl } of LANGUAGES)
      it(`shows every copy-trading screen translated (${locale})`, async () => {
        for (const [user, list] of [
          [follower, followerScreens()],
          [leader, leaderScreens],
        ] as const) {
          const page = await browser.newPage({ user, storage: { locale } });
          await page.goto(appUrl(list[0]![0]));
          for (const [route, ready] of list) {
            await page.evaluate((hash) => (window.location.hash = hash), route);
            await page.locator(ready).first().waitFor();
            expect(await page.evaluate(() => document.documentElement.dir), route).toBe(
              rtl ? 'rtl' : 'ltr',
            );
            expect(await untranslated(page), `${route} (${locale})`).toEqual([]);
            await noSidewaysScroll(page, `${route} (${locale})`);
            if (locale === 'zh' || locale === 'ar')
              await screenshot(page, `copy-${route.split('/')[3]!.split('?')[0]}-${locale}`);
          }
          await page.close();
        }
        expect(text('copy_title', locale).length).toBeGreaterThan(0);
      });
  });
});
