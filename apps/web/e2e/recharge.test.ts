/**
 * Deposits and exchange through the real screens and the real server: a crypto deposit with a
 * payment proof compressed as the spec says (width 800, JPEG), found under review in the records
 * and its detail with the proof; the spec's compression-failure modal; the online channel's
 * confirmation opening the payment page; demo accounts told to switch; an exchange quoted,
 * counted down, expired (on the device's clock and at the server) and confirmed.
 */
import { deflateSync, crc32 } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  EXCHANGE_QUOTE_TTL_MS,
  formatMessage,
  type RechargeChannel,
  type RechargeRecord,
} from '@bourse/shared';
import {
  apiCall,
  appUrl,
  baseUrl,
  expectOnScreen,
  expectToast,
  registerUser,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const RECHARGE = '/pages/user/recharge';
const DETAIL = '/pages/user/recharge-detail';
const RECORDS = '/pages/user/rechargeRecord';
const LINE_PAY = '/pages/user/linePay';
const EXCHANGE = '/pages/user/exchange';
const CHANGE_RECORD = '/pages/record/changeRecord';

/** A PNG of `width` x `height` pixels in horizontal bands of colour, made here byte by byte. */
function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const start = y * (width * 3 + 1);
    rows[start] = 0; // no filter
    const band = Math.floor((y / height) * 4);
    const colour = [
      [46, 160, 90],
      [240, 240, 240],
      [41, 121, 255],
      [241, 168, 2],
    ][band]!;
    for (let x = 0; x < width; x++) rows.set(colour, start + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function channels(): Promise<RechargeChannel[]> {
  const result = await apiCall<RechargeChannel[]>('GET', '/api/rechargeChannelConfig/list');
  expect(result.code).toBe(200);
  return result.data;
}

async function switchToDemo(user: RegisteredUser): Promise<void> {
  const switched = await apiCall('GET', '/api/userInfo/changeLoginModel', {
    token: user.token,
    query: { accountType: '2' },
  });
  expect(switched.code).toBe(200);
}

/** The natural size of a loaded image element. */
async function imageSize(page: Page, selector: string): Promise<{ width: number; height: number }> {
  const image = page.locator(selector);
  await image.waitFor();
  await page.waitForFunction((target) => {
    const element = document.querySelector<HTMLImageElement>(target);
    return Boolean(element?.complete && element.naturalWidth > 0);
  }, selector);
  return image.evaluate((element: HTMLImageElement) => ({
    width: element.naturalWidth,
    height: element.naturalHeight,
  }));
}

/**
 * A picture once toasts are gone and dialogs stand still (antd-mobile animates them in script,
 * which the screenshot's own animation switch does not stop).
 */
async function still(page: Page, name: string): Promise<void> {
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>('.adm-center-popup-wrap > div')].every(
      (element) => element.style.opacity === '' || element.style.opacity === '1',
    ),
  );
  await screenshot(page, name);
}

function chip(page: Page, name: string) {
  return page.locator('[data-testid="recharge-currencies"]').getByRole('button', {
    name,
    exact: true,
  });
}

function channelButton(page: Page, name: string) {
  return page.locator('[data-testid="recharge-channels"] .rc-channel', { hasText: name });
}

describe('deposits', () => {
  const browser = useBrowser();

  it('deposits crypto with a compressed proof and finds it under review', async () => {
    const user = await registerUser();
    const crypto = (await channels()).find((channel) => channel.channelType === 2)!;
    const page = await browser.newPage({ user });
    await page.goto(appUrl(RECHARGE));
    await page.locator('[data-testid="recharge-channels"]').waitFor();
    await still(page, 'recharge-form');

    await chip(page, crypto.currencyName).click();
    await channelButton(page, crypto.channelName).click();
    expect(await channelButton(page, crypto.channelName).getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('[data-testid="recharge-deposit-address"]').textContent()).toBe(
      crypto.depositAddress,
    );
    // The address as a QR code to scan from a phone wallet: square, on screen, labelled.
    const qr = page.locator('[data-testid="recharge-deposit-qr"]');
    await expectOnScreen(page, qr);
    const qrBox = (await qr.boundingBox())!;
    expect(qrBox.width).toBeGreaterThanOrEqual(150);
    expect(qrBox.height).toBe(qrBox.width);
    expect(await qr.getAttribute('aria-label')).toBe(text('recharge_depositAddress'));

    // Nothing is sent until the amount fits the channel and a proof is there.
    const submit = page.locator('[data-testid="recharge-form"] button[type="submit"]');
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/userRecharge/inMoney')) sent += 1;
    });
    await submit.click();
    await page.locator('.field-error', { hasText: text('recharge_amountRequired') }).waitFor();
    await page.locator('.field-error', { hasText: text('proof_required') }).waitFor();
    await page.locator('#recharge-amount').fill('1.123456');
    await page
      .locator('.field-error', {
        hasText: formatMessage(text('recharge_amountScale'), [crypto.scale]),
      })
      .waitFor();
    await page.locator('#recharge-amount').fill('1');
    await page.locator('.field-error', { hasText: crypto.minAmount }).waitFor();
    expect(sent).toBe(0);

    // A 2000 x 1000 PNG goes out as an 800 x 400 JPEG.
    await page.locator('#recharge-amount').fill('25.5');
    await page.locator('#recharge-proof').setInputFiles({
      name: 'receipt.png',
      mimeType: 'image/png',
      buffer: makePng(2000, 1000),
    });
    expect(await imageSize(page, '[data-testid="recharge-proof-preview"]')).toEqual({
      width: 800,
      height: 400,
    });
    await page.locator('#recharge-remark').fill('Sent from my own wallet');
    await still(page, 'recharge-crypto');

    const request = page.waitForRequest('**/api/userRecharge/inMoney');
    await submit.click();
    const body = (await request).postDataJSON() as Record<string, string>;
    expect(body).toMatchObject({
      channelId: crypto.id,
      amount: '25.5',
      remark: 'Sent from my own wallet',
    });
    expect(body.proofImage).toMatch(/^data:image\/jpeg;base64,/);
    expect(body.requestId).toMatch(/^[0-9a-f]{32}$/);

    // The deposit's screen: under review, the amount, and the proof as the server keeps it.
    await waitForRoute(page, DETAIL);
    const status = page.locator('[data-testid="recharge-status"]');
    await status.waitFor();
    expect(await status.getAttribute('data-status')).toBe('0');
    expect(await status.textContent()).toBe(text('recharge_status0'));
    expect(await page.locator('[data-testid="recharge-detail-amount"]').textContent()).toBe(
      `25.5${'0'.repeat(crypto.scale - 1)} ${crypto.currencyName}`,
    );
    expect(await imageSize(page, '[data-testid="recharge-proof-image"]')).toEqual({
      width: 800,
      height: 400,
    });
    await still(page, 'recharge-detail');

    // The records list it under review; the approved filter does not.
    const list = await apiCall<never>('GET', '/api/userRecharge/list', {
      token: user.token,
      query: { pageNum: '1', pageSize: '10' },
    });
    const record = (list.rows as RechargeRecord[])[0]!;
    expect(record.status).toBe(0);
    expect(record.hasProof).toBe(true);
    await page.goto(appUrl(RECORDS));
    const row = page.locator(`[data-testid="recharge-row-${record.id}"]`);
    await row.waitFor();
    expect(await row.locator('[data-testid="recharge-status"]').textContent()).toBe(
      text('recharge_status0'),
    );
    await still(page, 'recharge-records');
    await page.locator('[data-testid="recharge-filter-1"]').click();
    await page
      .locator('[data-testid="recharge-records"]', { hasText: text('recharge_noRecords') })
      .waitFor();
    expect(await row.count()).toBe(0);
    await page.locator('[data-testid="recharge-filter-0"]').click();
    await row.click();
    await waitForRoute(page, DETAIL);
    expect(await page.evaluate(() => window.location.hash)).toContain(`id=${record.id}`);

    // Another user cannot see the proof.
    const stranger = await registerUser();
    const response = await fetch(`${baseUrl()}/api/userRecharge/proof?id=${record.id}`, {
      headers: { Authorization: `Bearer ${stranger.token}` },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type') ?? '').not.toMatch(/^image\//);
  });

  it('shows the spec modal when an image cannot be compressed', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(RECHARGE));
    const crypto = (await channels()).find((channel) => channel.channelType === 2)!;
    await chip(page, crypto.currencyName).click();
    await page.locator('#recharge-proof').setInputFiles({
      name: 'broken.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is not an image'),
    });
    const dialog = page.locator('.adm-dialog-body');
    await dialog.waitFor();
    expect(await dialog.locator('.adm-dialog-title').textContent()).toBe(
      text('img_compressFailed'),
    );
    expect(await dialog.locator('.adm-dialog-content').textContent()).toBe(
      text('img_compressFailed'),
    );
    // One button only (no cancel), and the loading toast is gone while the dialog shows.
    expect(await dialog.locator('.adm-dialog-button').count()).toBe(1);
    await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    await expectOnScreen(page, dialog);
    await still(page, 'recharge-compress-failed');
    await dialog.locator('.adm-dialog-button').click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-testid="recharge-proof-pick"]').waitFor();
  });

  it('confirms an online deposit and opens its payment page', async () => {
    const user = await registerUser();
    const online = (await channels()).find((channel) => channel.channelType === 3)!;
    const page = await browser.newPage({ user });
    await page
      .context()
      .route(`${new URL(online.payUrl!).origin}/**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<h1>Payment page</h1>' }),
      );
    await page.goto(appUrl(RECHARGE));
    await chip(page, online.currencyName).click();
    await channelButton(page, online.channelName).click();
    // No proof for the online channel.
    expect(await page.locator('#recharge-proof').count()).toBe(0);
    await page.locator('#recharge-amount').fill(online.minAmount);
    await page.locator('[data-testid="recharge-form"] button[type="submit"]').click();
    await waitForRoute(page, LINE_PAY);
    await page.locator('[data-testid="line-pay-confirm"]').waitFor();
    expect(await page.locator('[data-testid="line-pay-host"]').textContent()).toBe(
      new URL(online.payUrl!).host,
    );
    await still(page, 'line-pay');

    const popup = page.context().waitForEvent('page');
    await page.locator('[data-testid="line-pay-confirm"]').click();
    const payPage = await popup;
    await payPage.waitForURL(online.payUrl!);
    await waitForRoute(page, DETAIL);
    expect(await page.locator('[data-testid="recharge-status"]').getAttribute('data-status')).toBe(
      '0',
    );
    // The payment page can be opened again from the deposit.
    await page.locator('[data-testid="recharge-open-pay"]').waitFor();
  });

  it('tells a demo account that deposits are for the live account', async () => {
    const user = await registerUser();
    await switchToDemo(user);
    const page = await browser.newPage({ user });
    await page.goto(appUrl(RECHARGE));
    const notice = page.locator('[data-testid="recharge-demo"]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(text('recharge_demoText'));
    expect(await page.locator('[data-testid="recharge-form"]').count()).toBe(0);
    await still(page, 'recharge-demo');
    await page.locator('[data-testid="recharge-switch-live"]').click();
    await page.locator('[data-testid="recharge-channels"]').waitFor();
    const info = await apiCall<{ accountType: number }>('GET', '/api/userInfo/getUserInfo', {
      token: user.token,
    });
    expect(info.data.accountType).toBe(0);
  });
});

describe('exchange', () => {
  const browser = useBrowser();

  async function openExchange(user: RegisteredUser): Promise<Page> {
    const page = await browser.newPage({ user });
    await page.clock.install();
    await page.goto(appUrl(EXCHANGE));
    await page
      .locator('[data-testid="exchange-available"]', { hasText: '100,000.0000 USDT' })
      .waitFor();
    // The demo note comes with the account's refreshed details (the stored ones say live) and
    // moves the form down: a tap is made once it is there.
    await page.locator('[data-testid="exchange-demo"]').waitFor();
    return page;
  }

  async function quote(page: Page, amount: string) {
    await page.locator('#exchange-amount').fill(amount);
    expect(await page.locator('#exchange-amount').inputValue()).toBe(amount);
    // The server's answer is checked first, so a refusal says why rather than a missing quote.
    // A tap the page did not take (a full CI run once lost one on a loaded machine: the form
    // filled, no request sent, nothing shown) is made again, as a user would; asking twice
    // only gets another quote.
    for (let attempt = 1; ; attempt++) {
      const answer = page.waitForResponse(
        (response) => response.url().includes('/api/balanceConvertRecord/quote'),
        { timeout: 5000 },
      );
      await page.locator('[data-testid="exchange-get-quote"]').click();
      const response = await answer.catch((error: unknown) => {
        if (attempt >= 3) throw error;
        return undefined;
      });
      if (!response) {
        // An answer slower than the wait may have come since: its quote is on screen then.
        if ((await page.locator('[data-testid="exchange-quote"]').count()) > 0) break;
        continue;
      }
      const body = (await response.json()) as { code: number };
      expect(body.code, JSON.stringify(body)).toBe(200);
      break;
    }
    await page.locator('[data-testid="exchange-quote"]').waitFor();
  }

  it('quotes, counts down, refreshes an expired quote and exchanges', async () => {
    const user = await registerUser();
    await switchToDemo(user);
    const page = await openExchange(user);
    await still(page, 'exchange');
    expect(await page.locator('[data-testid="exchange-from"]').textContent()).toBe('USDT');
    const to = (await page.locator('[data-testid="exchange-to"]').textContent())!;
    expect(to).not.toBe('USDT');

    // A share of the balance fills the amount; more than the balance is refused on the spot.
    await page.locator('[data-testid="exchange-share-25"]').click();
    expect(await page.locator('#exchange-amount').inputValue()).toBe('25000');
    await page.locator('#exchange-amount').fill('100000.5');
    await page.locator('[data-testid="exchange-get-quote"]').click();
    await page
      .locator('.field-error', { hasText: formatMessage(text('exchange_insufficient'), ['USDT']) })
      .waitFor();

    await quote(page, '100');
    expect(await page.locator('[data-testid="exchange-fee"]').textContent()).toBe('0.1000 USDT');
    expect(await page.locator('[data-testid="exchange-rate"]').textContent()).toMatch(
      new RegExp(`^1 USDT ≈ [\\d,]+(\\.\\d+)? ${to}$`),
    );
    const countdown = page.locator('[data-testid="exchange-countdown"]');
    expect(await countdown.textContent()).toMatch(
      new RegExp(`^${formatMessage(text('exchange_validFor'), ['\\d+'])}$`),
    );
    await still(page, 'exchange-quote');

    // Past its 15 s the quote cannot be confirmed; a fresh one is offered.
    await page.clock.fastForward(EXCHANGE_QUOTE_TTL_MS + 1000);
    await countdown.filter({ hasText: text('exchange_expired') }).waitFor();
    expect(await page.locator('[data-testid="exchange-confirm"]').count()).toBe(0);
    await still(page, 'exchange-expired');
    await page.locator('[data-testid="exchange-refresh"]').click();
    await countdown.filter({ hasNotText: text('exchange_expired') }).waitFor();

    const receive = (await page.locator('[data-testid="exchange-receive"]').textContent())!;
    await page.locator('[data-testid="exchange-confirm"]').click();
    await expectToast(
      page,
      formatMessage(text('exchange_done'), ['100.0000', 'USDT', receive.split(' ')[0], to]),
    );
    await page
      .locator('[data-testid="exchange-available"]', { hasText: '99,900.0000 USDT' })
      .waitFor();

    // The record of it.
    await page.locator('[data-testid="exchange-records-link"]').click();
    await waitForRoute(page, CHANGE_RECORD);
    const row = page.locator('[data-testid^="convert-row-"]');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.locator('[data-testid="convert-paid"]').textContent()).toBe('100.0000 USDT');
    expect(await row.locator('[data-testid="convert-received"]').textContent()).toBe(receive);
    await still(page, 'change-record');
  });

  it('offers a fresh quote when the server says the quote expired', async () => {
    const user = await registerUser();
    await switchToDemo(user);
    const page = await openExchange(user);
    await quote(page, '10');
    const quotedAt = await page.evaluate(() => Date.now());
    // The server's clock moves on past the quote's life; the device's is set back, so the app
    // still offers the quote and learns from the server that it ran out.
    await new Promise((resolve) => setTimeout(resolve, EXCHANGE_QUOTE_TTL_MS + 1000));
    await page.clock.setSystemTime(quotedAt + 1000);
    const confirm = page.locator('[data-testid="exchange-confirm"]');
    await confirm.click();
    await expectToast(page, text('hint_quoteExpired'));
    await page
      .locator('[data-testid="exchange-countdown"]', { hasText: text('exchange_expired') })
      .waitFor();
    await page.locator('[data-testid="exchange-refresh"]').click();
    await confirm.click();
    await page
      .locator('[data-testid="exchange-available"]', { hasText: '99,990.0000 USDT' })
      .waitFor();
  });
});
