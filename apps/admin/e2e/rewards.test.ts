/**
 * Welfare and rewards through the console at 1440x900: a finance operator writes a campaign (an
 * English and an Arabic title, a budget, an identity task), sees it running with nothing spent,
 * ends it with a reason; adds a deposit tier and retires it; the reward history tab opens. The
 * page is pictured in English and Chinese.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  firstAdminToken,
  screenshot,
  text,
  openSignedIn,
  useConsole,
  type ConsoleHarness,
  type Credentials,
  type Language,
} from './console';

const run = Date.now().toString(36);

let operator: Credentials;
let browser: ConsoleHarness;

const openConsole = (language: Language) =>
  openSignedIn(browser, operator, '/rewards', 'rewards-campaigns', language);

beforeAll(async () => {
  operator = await createOperator(await firstAdminToken(), ['finance'], 'rwd');
});

describe('welfare and rewards in the console', () => {
  browser = useConsole();

  it('writes a campaign, ends it with a reason, keeps a tier', async () => {
    const page = await openConsole('en');
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(
      text('nav.rewards'),
    );
    await page.locator('[data-testid="campaign-new"]').click();
    const editor = page.locator('[data-testid="campaign-editor"]');
    await editor.waitFor();
    await page.locator('[data-testid="campaign-title-en"]').fill(`Spring tasks ${run}`);
    await page.locator('[data-testid="campaign-budget"]').fill('100');
    await page.locator('[data-testid="campaign-task-reward-0"]').fill('2');
    await page.locator('[data-testid="campaign-tab-ar"]').click();
    await page.locator('[data-testid="campaign-title-ar"]').fill(`مهام الربيع ${run}`);
    await screenshot(page, 'rewards-editor-en');
    await page.locator('[data-testid="campaign-save"]').click();
    await editor.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid^="campaign-row-title-"]', {
      hasText: `Spring tasks ${run}`,
    });
    await row.waitFor();
    const id = Number((await row.getAttribute('data-testid'))!.replace(/\D+/g, ''));
    expect(await page.locator(`[data-testid="campaign-spent-${id}"]`).textContent()).toBe(
      '0.0000 / 100.0000 USDT',
    );
    expect(await page.locator(`[data-testid="campaign-status-${id}"]`).textContent()).toBe(
      text('rewards.status.running'),
    );
    await screenshot(page, 'rewards-campaigns-en');

    await page.locator(`[data-testid="campaign-end-${id}"]`).click();
    await page.locator('[data-testid="campaign-end-reason"]').fill('Replaced by the summer tasks');
    await page.locator('[data-testid="campaign-end-ok"]').click();
    await expect
      .poll(() => page.locator(`[data-testid="campaign-status-${id}"]`).textContent())
      .toBe(text('rewards.status.ended'));

    await page.locator('[data-testid="rewards-tab-tiers"]').click();
    await page.locator('[data-testid="tier-new"]').click();
    await page.locator('[data-testid="tier-min"]').fill('123456');
    await page.locator('[data-testid="tier-max"]').fill('234567');
    await page.locator('[data-testid="tier-rate"]').fill('0.015');
    await page.locator('[data-testid="tier-save"]').click();
    const rate = page.locator('[data-testid^="tier-rate-"]', { hasText: '1.5' });
    await rate.first().waitFor();
    const tierId = Number((await rate.first().getAttribute('data-testid'))!.replace(/\D+/g, ''));
    await screenshot(page, 'rewards-tiers-en');
    await page.locator(`[data-testid="tier-retire-${tierId}"]`).click();
    await page.locator(`[data-testid="tier-retire-${tierId}"]`).waitFor({ state: 'detached' });

    await page.locator('[data-testid="rewards-tab-records"]').click();
    await page.locator('[data-testid="rewards-records-table"]').waitFor();
  });

  it('reads in Chinese', async () => {
    const page = await openConsole('zh');
    expect(await page.locator('[data-testid="page-title"]').textContent()).toBe(
      text('nav.rewards', 'zh'),
    );
    await page.locator('[data-testid="campaigns-table"]').waitFor();
    await screenshot(page, 'rewards-campaigns-zh');
  });
});
