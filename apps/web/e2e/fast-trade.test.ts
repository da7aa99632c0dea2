/**
 * Fast trades on the quote detail through the real screens, against the server's simulated feed
 * (crypto is always open, a tick a second): a demo account (100,000 USDT of virtual funds) sees
 * the options, the balance and the preview; a stake below the minimum is refused with the
 * translated message (in the form, and by the server with the same key); the risk disclosure is
 * accepted once; an up trade on the shortest option counts down and settles on the first tick at
 * or after expiry, showing the result and the entry and exit ticks as evidence, which the recent
 * trades list then shows too. Visitors are invited to sign in instead.
 */
import type { Page } from 'playwright-core';
import { normalize } from '@bourse/shared';
import { describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  expectOnScreen,
  registerUser,
  screenshot,
  text,
  useBrowser,
  type RegisteredUser,
} from './browser';

const DETAIL = '/pages/quoteDetail/quoteDetail';
const BTC = `${DETAIL}?productType=2&productCode=BTCUSDT`;
const TICK_TIME = /^\d{2}:\d{2}:\d{2}\.\d{3}$/;

interface Tick {
  price: string;
  time: number;
  source: string;
  sequence: number;
}

interface Order {
  id: number;
  status: number;
  amount: string;
  result: string | null;
  expiresAt: number;
  entry: Tick;
  exit: Tick | null;
}

function fill(template: string, ...params: string[]): string {
  return template.replace(/\{(\d)\}/g, (_whole, index: string) => params[Number(index)] ?? '');
}

async function demoUser(): Promise<RegisteredUser> {
  const user = await registerUser();
  const switched = await apiCall<RegisteredUser['userInfo']>(
    'GET',
    '/api/userInfo/changeLoginModel',
    { token: user.token, query: { accountType: '2' } },
  );
  expect(switched.code, JSON.stringify(switched)).toBe(200);
  return { ...user, userInfo: switched.data };
}

async function usdtAvailable(user: RegisteredUser): Promise<string> {
  const result = await apiCall<{ amount: string }>('GET', '/api/userInfo/userBalance', {
    token: user.token,
    query: { currencyId: '3' },
  });
  return normalize(result.data.amount);
}

async function orders(user: RegisteredUser): Promise<Order[]> {
  const result = await apiCall('GET', '/api/fastTradeOrder/list', {
    token: user.token,
    query: { pageNum: '1', pageSize: '10' },
  });
  return (result.rows ?? []) as Order[];
}

/** The text of a test id inside the page. */
function textOf(page: Page, testId: string): Promise<string | null> {
  return page.locator(`[data-testid="${testId}"]`).first().textContent();
}

/**
 * Waits until an element is done appearing: fully opaque and where it was a tenth of a second
 * before (antd-mobile's dialogs and sheets animate in from script, not CSS).
 */
async function waitUntilStill(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (target) => {
      const element = document.querySelector(target);
      if (!element) return false;
      let opacity = 1;
      for (let node: Element | null = element; node; node = node.parentElement)
        opacity *= Number(getComputedStyle(node).opacity);
      const { x, y, width, height } = element.getBoundingClientRect();
      const where = `${x},${y},${width},${height}`;
      const store = window as unknown as { lastPlace?: Record<string, string> };
      store.lastPlace ??= {};
      const still = store.lastPlace[target] === where;
      store.lastPlace[target] = where;
      return still && opacity === 1;
    },
    selector,
    { polling: 100 },
  );
}

describe('fast trades', () => {
  const browser = useBrowser();

  it('invites visitors to sign in', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl(BTC));
    const prompt = page.locator('[data-testid="fast-sign-in"]');
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain(text('fast_signIn'));
    expect(await page.locator('[data-testid="fast-trade-panel"]').count()).toBe(0);
    // The rest of the page is still there.
    await page.locator('[data-testid="candle-chart"]').waitFor();
    await page.locator('[data-testid="simulated-label"]').waitFor();
  });

  it(
    'places an up trade on 30 s, counts down and shows the result with its evidence',
    {
      timeout: 150_000,
    },
    async () => {
      const user = await demoUser();
      const page = await browser.newPage({ user });
      await page.goto(appUrl(BTC));
      const panel = page.locator('[data-testid="fast-trade-panel"]');
      await panel.waitFor();
      await page.locator('[data-testid="simulated-label"]').waitFor();

      // Demo, the options with their payouts, the balance in USDT.
      expect(await textOf(page, 'fast-demo-badge')).toBe(text('account_demoBadge'));
      const option30 = page.locator('[data-testid="fast-option-30"]');
      expect(await option30.textContent()).toBe(
        `${fill(text('fast_seconds'), '30')}${fill(text('fast_payoutRate'), '80%')}`,
      );
      expect(await option30.getAttribute('aria-pressed')).toBe('true');
      expect(await textOf(page, 'fast-option-60')).toContain(fill(text('fast_minutes'), '1'));
      expect(await textOf(page, 'fast-option-300')).toContain(fill(text('fast_minutes'), '5'));
      await expect.poll(() => textOf(page, 'fast-available')).toBe('100,000.00 USDT');
      expect(await textOf(page, 'fast-direction-up')).toContain(text('fast_up'));
      expect(await textOf(page, 'fast-direction-down')).toContain(text('fast_down'));

      // Below the minimum: the translated refusal, and nothing is sent.
      const stake = page.locator('#fast-stake');
      await stake.fill('5');
      const error = page.locator('[data-testid="fast-trade-panel"] .field-error');
      await error.waitFor();
      expect(await error.textContent()).toBe(fill(text('hint_amountBelowMin'), '10.00', 'USDT'));
      await page.locator('[data-testid="fast-confirm"]').click();
      expect(await page.locator('[data-testid="fast-risk-dialog"]').count()).toBe(0);
      expect(await orders(user)).toEqual([]);

      // A percentage shortcut fills a share of the balance; then a stake of 100 with its preview.
      await page.locator('[data-testid="fast-share-25"]').click();
      await expect.poll(() => stake.inputValue()).toBe('10000');
      // 25% of 100,000 is capped at the option's maximum of 10,000.
      await expect.poll(() => error.count()).toBe(0);
      await stake.fill('100');
      await expect.poll(() => error.count()).toBe(0);
      expect(await textOf(page, 'fast-fee')).toBe('0.00 USDT');
      expect(await textOf(page, 'fast-total')).toBe('100.00 USDT');
      expect(await textOf(page, 'fast-if-win')).toBe('180.00 USDT (+80.00)');
      expect(await textOf(page, 'fast-if-lose')).toBe('-100.00 USDT');
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, 'fast-trade-panel');

      // The first trade asks for the risk disclosure.
      await page.locator('[data-testid="fast-confirm"]').click();
      const disclosure = page.locator('[data-testid="fast-risk-dialog"]');
      await disclosure.waitFor();
      await waitUntilStill(page, '.adm-dialog-body');
      await expectOnScreen(page, disclosure);
      expect(await disclosure.textContent()).toBe(text('tip_fastTradeRisk'));
      await page.locator('.adm-dialog-title', { hasText: text('fast_riskTitle') }).waitFor();
      await screenshot(page, 'fast-trade-risk');
      await page.locator('.adm-dialog-button', { hasText: text('fast_riskAccept') }).click();

      // The countdown.
      const countdown = page.locator('[data-testid="fast-countdown-open"]');
      await countdown.waitFor();
      await page.locator('.adm-dialog-body').waitFor({ state: 'hidden' });
      await waitUntilStill(page, '[data-testid="fast-countdown-popup"]');
      await expectOnScreen(page, page.locator('[data-testid="fast-countdown-seconds"]'));
      const seconds = Number((await textOf(page, 'fast-countdown-seconds'))?.replace(/\D/g, ''));
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(30);
      expect(await textOf(page, 'fast-countdown-direction')).toContain(text('fast_up'));
      const [placed] = await orders(user);
      expect(placed!.status).toBe(0);
      expect(normalize(placed!.amount)).toBe('100');
      expect((await textOf(page, 'fast-countdown-entry'))?.replace(/,/g, '')).toContain(
        placed!.entry.price,
      );
      expect(
        (
          await apiCall<{ accepted: boolean }>('GET', '/api/fastTradeOrder/riskStatus', {
            token: user.token,
          })
        ).data.accepted,
      ).toBe(true);
      expect(await usdtAvailable(user)).toBe('99900');
      await expect.poll(() => textOf(page, 'fast-countdown-live')).toMatch(/\d/);
      await screenshot(page, 'fast-trade-countdown');

      // It settles on the deciding tick: the result and both ticks.
      const result = page.locator('[data-testid="fast-result"]');
      await result.waitFor({ timeout: 90_000 });
      const [settled] = await orders(user);
      expect(settled!.id).toBe(placed!.id);
      expect(settled!.status).not.toBe(0);
      const statusKey = (
        { 1: 'fast_status_won', 2: 'fast_status_lost', 3: 'fast_status_tie' } as const
      )[settled!.status as 1 | 2 | 3];
      expect(await textOf(page, 'fast-result-status')).toBe(text(statusKey));
      const expected = { 1: '+80.00 USDT', 2: '-100.00 USDT', 3: '0.00 USDT' }[
        settled!.status as 1 | 2 | 3
      ];
      expect(await textOf(page, 'fast-result-amount')).toBe(expected);
      const exit = settled!.exit!;
      expect(exit.time).toBeGreaterThanOrEqual(settled!.expiresAt);
      expect(exit.sequence).toBeGreaterThan(settled!.entry.sequence);
      for (const [name, tick] of [
        ['fast-result-entry', settled!.entry],
        ['fast-result-exit', exit],
      ] as const) {
        expect(await textOf(page, `${name}-time`)).toMatch(TICK_TIME);
        expect(await textOf(page, `${name}-source`)).toBe(tick.source);
        expect(await textOf(page, `${name}-sequence`)).toBe(String(tick.sequence));
        expect((await textOf(page, `${name}-price`))?.replace(/,/g, '')).toBe(tick.price);
      }
      await expectOnScreen(page, page.locator('[data-testid="fast-result-exit"]'));
      await screenshot(page, 'fast-trade-result');

      // Closed, the recent trades show it settled, and the balance is back or changed by it.
      await page.locator('[data-testid="fast-countdown-close"]').click();
      const row = page.locator(`[data-testid="fast-trade-${settled!.id}"]`);
      await expect.poll(() => row.getAttribute('data-status')).toBe(String(settled!.status));
      expect(await row.textContent()).toContain(text(statusKey));
      await page.locator('[data-testid="fast-countdown-popup"]').waitFor({ state: 'hidden' });
      await row.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await screenshot(page, 'fast-trade-list');
      const after = { 1: '100080', 2: '99900', 3: '100000' }[settled!.status as 1 | 2 | 3];
      expect(await usdtAvailable(user)).toBe(after);

      // The server refuses a stake below the minimum with the same message key.
      const refused = await apiCall('POST', '/api/fastTradeOrder/addFastTradeOrder', {
        token: user.token,
        form: {
          productType: '2',
          productCode: 'BTCUSDT',
          optionId: String(
            (
              await apiCall<{ id: number; durationSeconds: number }[]>(
                'GET',
                '/api/fastTradeOrderOptions/list',
                { query: { productType: '2', productCode: 'BTCUSDT' } },
              )
            ).data.find((option) => option.durationSeconds === 30)!.id,
          ),
          orderDirection: '1',
          amount: '5',
          requestId: `e2e-fast-${Date.now()}`,
        },
      });
      expect(refused.msg).toBe('hint_amountBelowMin');
    },
  );
});
