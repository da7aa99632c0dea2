/**
 * Contracts, spot and coin-to-coin through the real screens, against the server's simulated feed
 * (crypto is always open, a tick a second). A live user funded through a deposit the operator
 * approves, exchanged to USDT: opens a BTCUSDT long at market from the quote detail with the
 * preview worked out as the server does, sees it on the positions screen with its live result,
 * sets a take-profit and stop-loss, closes it and finds it in the history with the exit tick as
 * evidence; rests a limit entry far from the price and cancels it (the frozen funds return); buys
 * and sells BTC spot through the panel and sees the holding and the orders; and rests a
 * coin-to-coin order on the bibi screen, shown in the user's own book, then cancels it there.
 */
import type { Page } from 'playwright-core';
import {
  isPositive,
  mul,
  normalize,
  scaleOf,
  toScale,
  contractPreview,
  closeAmounts,
} from '@bourse/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  expectOnScreen,
  expectToast,
  fund,
  operatorToken,
  registerUser,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const DETAIL = '/pages/quoteDetail/quoteDetail';
const BTC = `${DETAIL}?productType=2&productCode=BTCUSDT`;
const POSITIONS = '/pages/position/contractPosition';
const ORDERS = '/pages/position/bibiOrder';
const BIBI = '/pages/quoteDetail/bibi';
const TICK_TIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;

interface Tick {
  price: string;
  time: number;
  source: string;
  sequence: number;
}

interface Position {
  id: number;
  status: number;
  orderDirection: number;
  leverage: number;
  quantity: string;
  entryPrice: string | null;
  limitPrice: string | null;
  margin: string;
  openFee: string;
  liquidationPrice: string | null;
  takeProfit: string | null;
  stopLoss: string | null;
  closeReason: number | null;
  exitPrice: string | null;
  realizedPnl: string | null;
  closeFee: string | null;
  entry: Tick | null;
  exit: Tick | null;
}

interface SpotOrder {
  id: number;
  status: number;
  orderDirection: number;
  quantity: string;
  fillPrice: string | null;
  amount: string | null;
  fee: string;
}

/** A text as a plain decimal: no thousands separators, no unit. */
function plain(value: string | null): string {
  return (value ?? '').replace(/,/g, '').replace(/[^\d.+-]/g, '');
}

/** An amount of USDT as the app writes it (2 decimals, more when it has them, up to 4). */
function shownMoney(value: string, signed = false): string {
  const exact = normalize(value);
  const decimals = Math.min(4, Math.max(2, scaleOf(exact)));
  const text = toScale(exact, decimals);
  return signed && isPositive(exact) ? `+${text}` : text;
}

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

/** Waits until no toast covers the screen (before a screenshot). */
async function noToast(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.adm-toast-main').count(), { timeout: 5000 }).toBe(0);
}

/** A screenshot once toasts are gone. */
async function picture(page: Page, name: string): Promise<void> {
  await noToast(page);
  await screenshot(page, name);
}

async function confirmDialog(page: Page, label: string): Promise<void> {
  const button = page.locator('.adm-dialog-button', { hasText: label });
  await button.click();
  await button.waitFor({ state: 'hidden' });
}

async function usdt(user: RegisteredUser): Promise<{ amount: string; frozenAmount: string }> {
  const result = await apiCall<{ amount: string; frozenAmount: string }>(
    'GET',
    '/api/userInfo/userBalance',
    { token: user.token, query: { currencyId: '3' } },
  );
  return {
    amount: normalize(result.data.amount),
    frozenAmount: normalize(result.data.frozenAmount),
  };
}

async function positions(user: RegisteredUser, status: string): Promise<Position[]> {
  const result = await apiCall('GET', '/api/contractPosition/list', {
    token: user.token,
    query: { status, pageNum: '1', pageSize: '20' },
  });
  return (result.rows ?? []) as Position[];
}

async function spotOrders(user: RegisteredUser, kind: 'spot' | 'bibi'): Promise<SpotOrder[]> {
  const result = await apiCall(
    'GET',
    kind === 'bibi' ? '/api/bibiTradeOrder/list' : '/api/spotTradeOrder/list',
    { token: user.token, query: { pageNum: '1', pageSize: '20' } },
  );
  return (result.rows ?? []) as SpotOrder[];
}

/** A live user with USD deposited (approved by the operator) and exchanged to USDT. */
async function fundedUser(operator: string): Promise<RegisteredUser> {
  const user = await registerUser();
  await fund(user, operator, '5000');
  const quote = await apiCall<{ quoteId: string }>('GET', '/api/balanceConvertRecord/quote', {
    token: user.token,
    query: { fromCurrencyId: '1', toCurrencyId: '3', amount: '5000' },
  });
  expect(quote.code, JSON.stringify(quote)).toBe(200);
  const converted = await apiCall('POST', '/api/balanceConvertRecord/balanceConvert', {
    token: user.token,
    form: { quoteId: quote.data.quoteId, requestId: `e2e-convert-${Date.now()}` },
  });
  expect(converted.code, JSON.stringify(converted)).toBe(200);
  return user;
}

/** Opens the quote detail of BTCUSDT in a mode and waits for its form. */
async function openPanel(page: Page, mode: 'contract' | 'spot'): Promise<void> {
  await page.goto(appUrl(BTC));
  await page.locator('[data-testid="trade-modes"]').waitFor();
  await page.locator(`[data-testid="trade-mode-${mode}"]`).click();
  await page.locator(`[data-testid="${mode}-panel"]`).waitFor();
}

describe('trading', () => {
  const browser = useBrowser();
  let operator: string;

  beforeAll(async () => {
    operator = await operatorToken();
  });

  it('offers fast, contract and spot on BTCUSDT and sends visitors to sign in', async () => {
    const page = await browser.newPage();
    // Where the modes and the links sat in each frame since they first showed (page offsets).
    await page.addInitScript(() => {
      const seen: Record<string, number[]> = {};
      (window as unknown as { seen: typeof seen }).seen = seen;
      const watch = () => {
        for (const id of ['detail-price', 'trade-modes', 'open-bibi']) {
          const element = document.querySelector(`[data-testid="${id}"]`);
          if (!element) continue;
          const top = Math.round(element.getBoundingClientRect().top + window.scrollY);
          const tops = (seen[id] ??= []);
          if (tops.at(-1) !== top) tops.push(top);
        }
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
    // A device that has opened the app before keeps the site info (the simulated feed here).
    await page.goto(appUrl('/pages/tabs/home/home-k'));
    await expect.poll(() => page.evaluate(() => localStorage.getItem('siteInfo'))).not.toBeNull();
    await page.goto(appUrl(BTC));
    const modes = page.locator('[data-testid="trade-modes"] [role="tab"]');
    await expect
      .poll(() => modes.allTextContents())
      .toEqual([text('fast_title'), text('trade_contractTitle'), text('trade_spotTitle')]);
    await page.locator('[data-testid="open-bibi"]').waitFor();
    // The modes and links stay where they are when the candles above them and the order panel
    // below them arrive: a tap aimed at them while the page loads lands where it was aimed.
    await page.locator('[data-testid="chart-legend"] .ma-key').waitFor();
    await page.locator('[data-testid="fast-sign-in"]').waitFor();
    const seen = await page.evaluate(
      () => (window as unknown as { seen: Record<string, number[]> }).seen,
    );
    expect(seen['trade-modes']).toHaveLength(1);
    expect(seen['open-bibi']).toHaveLength(1);
    // Nor does the price move when the product (and whether its price is simulated) arrives.
    expect(seen['detail-price']).toHaveLength(1);
    expect(await page.locator('[data-testid="simulated-label"]').count()).toBe(1);
    await page.locator('[data-testid="trade-mode-contract"]').click();
    await page.locator('[data-testid="contract-panel"]').waitFor();
    expect(await textOf(page, 'contract-submit')).toBe(text('account_login'));
    await page.locator('[data-testid="contract-submit"]').click();
    await waitForRoute(page, '/pages/user/login');
  });

  it(
    'opens a long at market, sets take-profit and stop-loss, closes it and shows the evidence',
    { timeout: 120_000 },
    async () => {
      const user = await fundedUser(operator);
      const before = await usdt(user);
      const page = await browser.newPage({ user });
      await openPanel(page, 'contract');
      await expect.poll(() => textOf(page, 'contract-available')).toMatch(/^[\d,]+\.\d{2,4} USDT$/);
      expect(plain(await textOf(page, 'contract-available'))).toBe(shownMoney(before.amount));

      // Long, 10×, 0.01 BTC at market: the preview is the server's arithmetic at the price shown.
      await page.locator('[data-testid="contract-side-buy"]').click();
      await page.locator('[data-testid="contract-leverage-10"]').click();
      await page.locator('#contract-size').fill('0.01');
      await expect.poll(() => textOf(page, 'contract-margin')).toMatch(/USDT/);
      const shown = await page.evaluate(() =>
        ['contract-entry', 'contract-margin', 'contract-fee', 'contract-liquidation'].map(
          (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '',
        ),
      );
      const [entryText, marginText, feeText, liquidationText] = shown.map(plain);
      const expected = contractPreview({
        direction: 1,
        leverage: 10,
        price: entryText!,
        quantity: '0.01',
        step: '0.0001',
        feeRate: '0.0005',
        maintenanceRate: '0.005',
        priceScale: 2,
        scale: 4,
      });
      expect(expected.ok).toBe(true);
      if (!expected.ok) return;
      expect(marginText).toBe(shownMoney(expected.preview.margin));
      expect(feeText).toBe(shownMoney(expected.preview.fee));
      expect(liquidationText).toBe(expected.preview.liquidationPrice);
      await page.locator('[data-testid="contract-panel"]').scrollIntoViewIfNeeded();
      await picture(page, 'trade-contract-panel');

      await page.locator('[data-testid="contract-submit"]').click();
      await page.locator('[data-testid="contract-confirm"]').waitFor();
      await waitUntilStill(page, '.adm-dialog-body');
      await expectOnScreen(page, page.locator('[data-testid="contract-confirm"]'));
      await picture(page, 'trade-contract-confirm');
      await confirmDialog(page, text('common_confirm'));
      await expectToast(page, text('trade_contractOpened'));

      const [opened] = await positions(user, '1');
      expect(opened).toMatchObject({
        status: 1,
        orderDirection: 1,
        leverage: 10,
        quantity: '0.01',
      });
      // Margin and fee as the server took them, from the entry tick's price.
      const atEntry = contractPreview({
        direction: 1,
        leverage: 10,
        price: opened!.entryPrice!,
        quantity: '0.01',
        step: '0.0001',
        feeRate: '0.0005',
        maintenanceRate: '0.005',
        priceScale: 2,
        scale: 4,
      });
      expect(atEntry.ok && atEntry.preview).toMatchObject({
        margin: opened!.margin,
        fee: opened!.openFee,
        liquidationPrice: opened!.liquidationPrice,
      });
      expect(opened!.entry!.price).toBe(opened!.entryPrice);

      // The positions screen: live mark price and unrealized result.
      await page.locator('[data-testid="open-positions"]').click();
      await waitForRoute(page, POSITIONS);
      const card = page.locator(`[data-testid="position-${opened!.id}"]`);
      await card.waitFor();
      expect(
        await page.locator('[data-testid="positions-tab-contract"]').getAttribute('aria-selected'),
      ).toBe('true');
      await expect
        .poll(() => textOf(page, `position-${opened!.id}-pnl`))
        .toMatch(/^[+-]?[\d,]+\.\d{2,4} USDT$/);
      expect(plain(await textOf(page, `position-${opened!.id}-liquidation`))).toBe(
        opened!.liquidationPrice,
      );
      expect(plain(await textOf(page, `position-${opened!.id}-mark`))).toMatch(/^\d+\.\d{2}$/);
      await picture(page, 'positions-contract-open');

      // Take-profit 20 % above the entry, stop-loss 5 % below it (above the liquidation at −9.5 %).
      const takeProfit = toScale(mul(opened!.entryPrice!, '1.2'), 2);
      const stopLoss = toScale(mul(opened!.entryPrice!, '0.95'), 2);
      await page.locator(`[data-testid="position-${opened!.id}-edit"]`).click();
      const sheet = page.locator('[data-testid="tpsl-popup"]');
      await sheet.waitFor();
      // A stop-loss above the price is refused with the server's message.
      await page.locator('#tpsl-stop-loss').fill(toScale(mul(opened!.entryPrice!, '1.5'), 2));
      await expect
        .poll(() => sheet.locator('.field-error').first().textContent())
        .toContain(text('hint_stopLossBelow').split('{0}')[0]!.trim());
      await page.locator('#tpsl-take-profit').fill(takeProfit);
      await page.locator('#tpsl-stop-loss').fill(stopLoss);
      await expect.poll(() => sheet.locator('.field-error').count()).toBe(0);
      await page.locator('[data-testid="tpsl-take-profit-outcome"]').waitFor();
      await waitUntilStill(page, '[data-testid="tpsl-popup"]');
      await picture(page, 'positions-tpsl');
      await page.locator('[data-testid="tpsl-save"]').click();
      await expectToast(page, text('position_tpSlSaved'));
      await expect
        .poll(async () => plain(await textOf(page, `position-${opened!.id}-tp`)))
        .toBe(takeProfit);
      const [withLevels] = await positions(user, '1');
      expect(withLevels).toMatchObject({ takeProfit, stopLoss });
      expect(plain(await textOf(page, `position-${opened!.id}-sl`))).toBe(stopLoss);

      // Close, confirmed; it moves to the history with the exit tick as evidence.
      await page.locator(`[data-testid="position-${opened!.id}-close"]`).click();
      await page.locator('[data-testid="close-confirm"]').waitFor();
      await waitUntilStill(page, '.adm-dialog-body');
      await picture(page, 'positions-close-confirm');
      // The close fee (the sell rate on the notional at the mark shown) and what comes back.
      const fees = (await apiCall('GET', '/api/orderFeeSetting/list')).rows as {
        productType: number;
        PositionType: number;
        exType: number;
        feeRate: string;
      }[];
      const sellRate = fees.find(
        (row) => row.productType === 2 && row.PositionType === 1 && row.exType === 2,
      )!.feeRate;
      const closing = closeAmounts(
        {
          direction: 1,
          entryPrice: opened!.entryPrice!,
          quantity: opened!.quantity,
          margin: opened!.margin,
        },
        plain(await textOf(page, 'close-mark')),
        sellRate,
        4,
      );
      expect(isPositive(closing.fee)).toBe(true);
      expect(plain(await textOf(page, 'close-fee'))).toBe(shownMoney(closing.fee));
      expect(plain(await textOf(page, 'close-returns'))).toBe(shownMoney(closing.returned));
      await confirmDialog(page, text('position_close'));
      await expect.poll(async () => (await positions(user, '2'))[0]?.id).toBe(opened!.id);
      const [closed] = await positions(user, '2');
      expect(closed).toMatchObject({ status: 2, closeReason: 1 });
      const status = page.locator(`[data-testid="position-${opened!.id}-status"]`);
      await expect.poll(() => status.textContent()).toBe(text('position_reason_manual'));
      expect(plain(await textOf(page, `position-${opened!.id}-exit`))).toBe(closed!.exitPrice);
      expect(plain(await textOf(page, `position-${opened!.id}-realized`))).toBe(
        shownMoney(closed!.realizedPnl!, true),
      );
      await page.locator(`[data-testid="position-${opened!.id}-evidence-toggle"]`).click();
      for (const [name, tick] of [
        ['entry', closed!.entry!],
        ['exit', closed!.exit!],
      ] as const) {
        const id = `position-${opened!.id}-${name}-tick`;
        expect(plain(await textOf(page, `${id}-price`))).toBe(tick.price);
        expect(await textOf(page, `${id}-time`)).toMatch(TICK_TIME);
        expect(await textOf(page, `${id}-source`)).toBe(tick.source);
        expect(await textOf(page, `${id}-sequence`)).toBe(String(tick.sequence));
      }
      expect(closed!.exit!.sequence).toBeGreaterThan(closed!.entry!.sequence);
      await page
        .locator(`[data-testid="position-${opened!.id}-exit-tick"]`)
        .evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await picture(page, 'positions-contract-history');
      expect((await usdt(user)).frozenAmount).toBe('0');

      // The fast tab shows the fast-trade list of the market feature.
      await page.locator('[data-testid="positions-tab-fast"]').click();
      // The list shows its title at once and its empty state when the user's orders arrive.
      await expect.poll(() => textOf(page, 'fast-trade-list')).toContain(text('fast_noTrades'));
      await picture(page, 'positions-fast');
    },
  );

  it('rests a limit entry far below the price with its funds frozen, then cancels it', async () => {
    const user = await fundedUser(operator);
    const page = await browser.newPage({ user });
    await openPanel(page, 'contract');
    await expect.poll(() => textOf(page, 'contract-available')).toMatch(/USDT/);
    await page.locator('[data-testid="contract-type-2"]').click();
    const limit = '50000';
    await page.locator('#contract-price').fill(limit);
    await page.locator('#contract-size').fill('0.001');
    await expect.poll(async () => plain(await textOf(page, 'contract-entry'))).toBe('50000.00');
    expect(plain(await textOf(page, 'contract-margin'))).toBe('5.00');
    await page.locator('[data-testid="contract-submit"]').click();
    await page.locator('[data-testid="contract-confirm"]').waitFor();
    await confirmDialog(page, text('common_confirm'));
    await expectToast(page, text('trade_limitPlaced'));
    const [resting] = await positions(user, '0');
    expect(resting).toMatchObject({ status: 0, limitPrice: '50000.00', margin: '5.0000' });
    // Margin 5 and fee 0.025 are frozen until it fills or is cancelled.
    expect((await usdt(user)).frozenAmount).toBe('5.025');

    await page.goto(appUrl(`${POSITIONS}?tab=contract`));
    const card = page.locator(`[data-testid="position-${resting!.id}"]`);
    await card.waitFor();
    expect(plain(await textOf(page, `position-${resting!.id}-limit`))).toBe('50000.00');
    await picture(page, 'positions-contract-pending');
    await page.locator(`[data-testid="position-${resting!.id}-cancel"]`).click();
    await expectToast(page, text('trade_orderCancelled'));
    await expect.poll(async () => (await positions(user, '3'))[0]?.id).toBe(resting!.id);
    expect((await usdt(user)).frozenAmount).toBe('0');
    await expect
      .poll(() => textOf(page, `position-${resting!.id}-status`))
      .toBe(text('position_status_cancelled'));
  });

  it('shows a position opened elsewhere at once, through the private /ws topics', async () => {
    const user = await fundedUser(operator);
    const page = await browser.newPage({ user });
    await page.goto(appUrl(`${POSITIONS}?tab=contract`));
    // Loaded, with nothing open: the screen does not poll, only a pushed message brings news.
    await page
      .locator('[data-testid="contract-positions"]')
      .getByText(text('position_noOpen'))
      .waitFor();
    await page.waitForTimeout(500);
    const opened = await apiCall<Position>('POST', '/api/contractPosition/open', {
      token: user.token,
      form: {
        productType: '2',
        productCode: 'BTCUSDT',
        orderDirection: '2',
        leverage: '5',
        quantity: '0.001',
        requestId: `e2e-push-${Date.now()}`,
      },
    });
    expect(opened.code, JSON.stringify(opened)).toBe(200);
    await page.locator(`[data-testid="position-${opened.data.id}"]`).waitFor({ timeout: 4000 });
  });

  it('buys and sells BTC spot through the panel and shows the holding and the orders', async () => {
    const user = await fundedUser(operator);
    const page = await browser.newPage({ user });
    await openPanel(page, 'spot');
    await expect.poll(() => textOf(page, 'spot-available')).toMatch(/USDT/);

    // Buy 0.002 BTC at market: the fee and the total before confirming.
    await page.locator('#spot-quantity').fill('0.002');
    await expect.poll(() => textOf(page, 'spot-total')).toMatch(/USDT/);
    await page.locator('[data-testid="spot-panel"]').scrollIntoViewIfNeeded();
    await picture(page, 'trade-spot-panel');
    await page.locator('[data-testid="spot-submit"]').click();
    await page.locator('[data-testid="spot-confirm"]').waitFor();
    await confirmDialog(page, text('common_confirm'));
    await expectToast(page, text('trade_orderFilled'));
    const [bought] = await spotOrders(user, 'spot');
    expect(bought).toMatchObject({ status: 1, orderDirection: 1, quantity: '0.002' });

    // Sell half of it with the 50 % shortcut.
    await page.locator('[data-testid="spot-side-sell"]').click();
    await expect.poll(() => textOf(page, 'spot-available')).toBe('0.002 BTC');
    await page.locator('[data-testid="spot-share-50"]').click();
    await expect.poll(() => page.locator('#spot-quantity').inputValue()).toBe('0.001');
    await page.locator('[data-testid="spot-submit"]').click();
    await page.locator('[data-testid="spot-confirm"]').waitFor();
    await confirmDialog(page, text('common_confirm'));
    await expectToast(page, text('trade_orderFilled'));
    const [sold] = await spotOrders(user, 'spot');
    expect(sold).toMatchObject({ status: 1, orderDirection: 2, quantity: '0.001' });

    // The holding on the positions screen, with the orders under it.
    await page.goto(appUrl(`${POSITIONS}?tab=spot`));
    const holding = page.locator('[data-testid="holding-BTCUSDT"]');
    await holding.waitFor();
    expect(await textOf(page, 'holding-BTCUSDT-quantity')).toBe('0.001');
    await page.locator(`[data-testid="order-${sold!.id}"]`).waitFor();
    await picture(page, 'positions-spot');
    // Its sell shortcut opens the spot form on the sell side.
    await page.locator('[data-testid="holding-BTCUSDT-sell"]').click();
    await waitForRoute(page, DETAIL);
    await page.locator('[data-testid="spot-panel"]').waitFor();
    expect(await page.locator('[data-testid="spot-side-sell"]').getAttribute('aria-pressed')).toBe(
      'true',
    );
    await expect.poll(() => textOf(page, 'spot-available')).toBe('0.001 BTC');

    // The orders screen: both filled, with the tick that filled them.
    await page.goto(appUrl(`${ORDERS}?kind=spot&status=1`));
    const row = page.locator(`[data-testid="order-${bought!.id}"]`);
    await row.waitFor();
    await page.locator(`[data-testid="order-${bought!.id}-evidence-toggle"]`).click();
    expect(plain(await textOf(page, `order-${bought!.id}-tick-price`))).toBe(bought!.fillPrice);
    await picture(page, 'orders-spot-filled');
    // Nothing rests: the open tab says so, not that there are no orders at all.
    await page.goto(appUrl(`${ORDERS}?kind=spot&status=0`));
    await expect
      .poll(() =>
        page
          .locator('[data-testid="orders-spot-0"] [data-testid="empty-state"] strong')
          .textContent(),
      )
      .toBe(text('trade_noOpenOrders'));
  });

  it('rests a coin-to-coin buy shown in the user book of the pair, and cancels it', async () => {
    const user = await fundedUser(operator);
    const page = await browser.newPage({ user });
    await page.goto(appUrl(`${BIBI}?productCode=BTCUSDT`));
    await page.locator('[data-testid="bibi-panel"]').waitFor();
    await expect.poll(() => textOf(page, 'bibi-usdt')).toMatch(/\d/);
    await expect.poll(() => textOf(page, 'bibi-price')).toMatch(/\d/);
    // '- -' until the user's coins arrive, then none.
    await expect.poll(() => textOf(page, 'bibi-coin-available')).toBe('0');
    await picture(page, 'trade-bibi-top');
    await page.locator('[data-testid="bibi-type-2"]').click();
    await page.locator('#bibi-price').fill('60000');
    await page.locator('#bibi-quantity').fill('0.001');
    await page.locator('[data-testid="bibi-submit"]').click();
    await page.locator('[data-testid="bibi-confirm"]').waitFor();
    await confirmDialog(page, text('common_confirm'));
    await expectToast(page, text('trade_limitPlaced'));
    const [resting] = await spotOrders(user, 'bibi');
    expect(resting).toMatchObject({ status: 0, orderDirection: 1, quantity: '0.001' });
    const bookRow = page.locator(`[data-testid="book-${resting!.id}"]`);
    await bookRow.waitFor();
    // A buy sits below the price line.
    const [rowBox, priceBox] = await Promise.all([
      bookRow.boundingBox(),
      page.locator('[data-testid="bibi-book-price"]').boundingBox(),
    ]);
    expect(rowBox!.y).toBeGreaterThan(priceBox!.y);
    await page.locator('[data-testid="bibi-book"]').scrollIntoViewIfNeeded();
    await picture(page, 'trade-bibi');

    await page.goto(appUrl(`${ORDERS}?kind=bibi&status=0`));
    await page.locator(`[data-testid="order-${resting!.id}"]`).waitFor();
    await picture(page, 'orders-bibi-open');
    await page.locator(`[data-testid="order-${resting!.id}-cancel"]`).click();
    await expectToast(page, text('trade_orderCancelled'));
    await expect.poll(async () => (await spotOrders(user, 'bibi'))[0]?.status).toBe(2);
    expect((await usdt(user)).frozenAmount).toBe('0');

    // A market buy coin to coin: the coins land in the wallet and show on the positions screen.
    const bought = await apiCall<SpotOrder>('POST', '/api/bibiTradeOrder/buy', {
      token: user.token,
      form: {
        productCode: 'BTCUSDT',
        orderType: '1',
        quantity: '0.001',
        requestId: `e2e-bibi-${Date.now()}`,
      },
    });
    expect(bought.data).toMatchObject({ status: 1, positionType: 3 });
    await page.goto(appUrl(POSITIONS));
    await page.locator('[data-testid="positions-tab-spot"]').click();
    await expect.poll(() => textOf(page, 'bibi-asset-BTCUSDT-available')).toBe('0.001');
    await page.locator('[data-testid="bibi-asset-BTCUSDT"]').scrollIntoViewIfNeeded();
    await picture(page, 'positions-bibi-assets');
  });
});
