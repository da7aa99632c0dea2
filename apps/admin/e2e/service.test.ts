/**
 * The customer-service inbox at 1440x900 against the real server, with the user's app on a phone
 * (390x844) beside it: a user writes from the app's service page; a support operator's inbox
 * hears it live (the list, and the new-message sound counted), takes the conversation, picks a
 * canned reply of the user's language and sends it; the app shows the reply without a reload and
 * the inbox shows it read; a picture sent from the console shows in the app. The reverse: the user types (the inbox says so) and answers, and the
 * open chat shows it at once. Finance has no inbox.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { consoleServiceApi, serviceApi } from '@bourse/shared';
import {
  baseUrl,
  client,
  consoleUrl,
  createOperator,
  firstAdmin,
  firstAdminToken,
  registerUser,
  screenshot,
  serverText,
  signIn,
  text,
  useConsole,
  waitForRoute,
} from './console';

const PHONE = { width: 390, height: 844 } as const;
const SERVICE = '/pages/service/service';

async function appWrite(phone: Page, message: string) {
  await phone.getByTestId('service-input').locator('textarea:not([readonly])').fill(message);
  await phone.getByTestId('service-send').click();
  await expect
    .poll(() => phone.getByTestId('service-message').filter({ hasText: message }).count())
    .toBe(1);
}

describe('customer-service inbox', () => {
  const browser = useConsole();

  it('support takes a user’s chat and answers it live, and hears the answer back', async () => {
    const adminToken = await firstAdminToken();
    const support = await createOperator(adminToken, ['support']);
    const canned = await client(adminToken).call(consoleServiceApi.saveCannedReply, {
      title: `Welcome ${Date.now()}`,
      language: 'en',
      content: 'Thank you for waiting. Your deposit is on its way.',
    });
    const user = await registerUser();

    const page = await browser.newPage('en');
    await signIn(page, support);
    await page.goto(consoleUrl('/service'));
    await waitForRoute(page, '/service');
    await page.getByTestId('service-inbox').waitFor();
    await expect.poll(() => page.getByText(text('service.live')).isVisible()).toBe(true);

    // The user's phone: the app signed in, no launch pop-up in the way.
    const phone = await browser.newPage('en');
    await phone.setViewportSize(PHONE);
    await phone.addInitScript((token: string) => {
      localStorage.setItem('uToken', JSON.stringify(token));
      localStorage.setItem('popUpVersion', JSON.stringify(Number.MAX_SAFE_INTEGER));
    }, user.token);
    await phone.goto(`${baseUrl()}/#${SERVICE}`);
    await phone.getByTestId('service-empty').waitFor();
    await appWrite(phone, 'Hello, my deposit has not arrived.');

    // The inbox hears it: the conversation comes into New with its sound.
    const row = page
      .locator('[data-testid="service-conversation"]')
      .filter({ hasText: user.email });
    await expect.poll(() => row.count()).toBe(1);
    await expect
      .poll(async () => Number(await page.getByTestId('service-inbox').getAttribute('data-beeps')))
      .toBeGreaterThanOrEqual(1);
    await row.click();
    const chat = page.getByTestId('service-chat');
    await expect
      .poll(() =>
        chat.getByTestId('service-message').filter({ hasText: 'deposit has not' }).count(),
      )
      .toBe(1);
    await expect
      .poll(() => page.getByTestId('service-profile').textContent())
      .toContain(user.email);
    expect(await page.getByTestId('service-user-link').getAttribute('href')).toBe(
      `#/users/${user.id}`,
    );
    // Opening it read the message: the app shows the receipt.
    await expect
      .poll(() => phone.getByTestId('service-receipt').first().textContent())
      .toBe('Read');

    await page.getByTestId('service-take').click();
    await expect.poll(() => page.getByTestId('service-take').count()).toBe(0);

    // A canned reply of the user's language fills the reply.
    await page.getByTestId('service-canned').click();
    await page.locator('.ant-select-item-option').filter({ hasText: canned.title }).click();
    const reply = page.getByTestId('service-reply');
    expect(await reply.inputValue()).toBe(canned.content);
    await reply.press('Enter');
    await expect
      .poll(() =>
        phone
          .locator('[data-testid="service-message"][data-sender="operator"]')
          .filter({ hasText: 'on its way' })
          .count(),
      )
      .toBe(1);
    // The app read it: the inbox shows the receipt.
    await expect
      .poll(() =>
        chat
          .locator('[data-sender="operator"] [data-testid="service-receipt"]')
          .last()
          .textContent(),
      )
      .toBe(text('service.read'));

    // A picture from the console: stored re-encoded, shown in the app.
    await page.getByTestId('service-image-input').setInputFiles({
      name: 'steps.png',
      mimeType: 'image/png',
      buffer: await sharp({
        create: { width: 640, height: 360, channels: 3, background: '#dbeafe' },
      })
        .png()
        .toBuffer(),
    });
    await expect
      .poll(() =>
        phone.locator('[data-sender="operator"] [data-testid="service-image"] img').count(),
      )
      .toBe(1);
    await expect.poll(() => chat.locator('[data-testid="service-image"]').count()).toBe(1);

    // The reverse: the user types, then answers; the open chat shows both at once.
    await phone
      .getByTestId('service-input')
      .locator('textarea:not([readonly])')
      .fill('Thanks, one more');
    await expect.poll(() => page.getByTestId('service-typing').isVisible()).toBe(true);
    await appWrite(phone, 'Thanks, one more question: how long do withdrawals take?');
    await expect
      .poll(() =>
        chat.getByTestId('service-message').filter({ hasText: 'withdrawals take' }).count(),
      )
      .toBe(1);
    await screenshot(page, 'service-inbox');

    // Mine lists it; the server has the reply as the support operator's.
    await page.getByTestId('service-states').getByText(text('service.state.mine')).click();
    await expect.poll(() => row.count()).toBe(1);
    const history = await client(user.token).call(serviceApi.messages, { pageSize: 10 });
    // The app never reads an operator's name (a console sign-in name); the console does.
    expect(history.rows.find((m) => m.sender === 'operator')?.operatorName).toBeNull();
    const desk = await client(adminToken).call(consoleServiceApi.messages, {
      id: history.rows[0]!.conversationId,
      pageSize: 10,
    });
    expect(desk.rows.find((m) => m.sender === 'operator')?.operatorName).toBe(support.username);
  });

  it('an admin keeps the contact lines: a non-https or wrong-host address is refused', async () => {
    const adminToken = await firstAdminToken();
    const page = await browser.newPage('en');
    await signIn(page, firstAdmin());
    await page.goto(consoleUrl('/settings/service-lines'));
    await page.getByTestId('lines-page').waitFor();
    await page.getByTestId('line-add').click();
    const dialog = page.locator('.ant-modal');
    await dialog.locator('.ant-select').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Telegram' }).click();
    await dialog.locator('input[id$="label"]').fill('Telegram support');
    await page.getByTestId('line-url').fill('https://example.com/support');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect
      .poll(() => dialog.locator('.ant-form-item-explain-error').textContent())
      .toBe(serverText('hint_serviceLineUrl'));
    await page.getByTestId('line-url').fill('https://t.me/bourse_help');
    await dialog.getByRole('button', { name: 'OK' }).click();
    const row = page.locator('.ant-table-row').filter({ hasText: 'https://t.me/bourse_help' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('a').getAttribute('target')).toBe('_blank');
    await screenshot(page, 'service-lines');
    // The app's service page lists it.
    const lines = await client().call(serviceApi.lines);
    expect(lines.rows.map((line) => line.url)).toContain('https://t.me/bourse_help');
    const made = lines.rows.find((line) => line.url === 'https://t.me/bourse_help')!;
    await client(adminToken).call(consoleServiceApi.deleteLine, { id: made.id });
  });

  it('reads in Chinese: the inbox, a visitor beside the chat', async () => {
    const adminToken = await firstAdminToken();
    const support = await createOperator(adminToken, ['support']);
    const { visitorToken } = await client().call(serviceApi.visitor);
    const sent = await client().call(serviceApi.send, {
      visitorToken,
      content: '你好，我想问一下提现需要多久？',
      requestId: `zh-${Date.now()}`,
    });
    const page = await browser.newPage('zh');
    await signIn(page, support);
    await page.goto(consoleUrl('/service'));
    const row = page.locator(
      `[data-testid="service-conversation"][data-id="${sent.conversationId}"]`,
    );
    await row.click();
    await expect
      .poll(() => page.getByTestId('service-profile').textContent())
      .toContain(text('service.visitorProfile', 'zh'));
    expect(await page.getByTestId('service-take').textContent()).toBe(text('service.take', 'zh'));
    await screenshot(page, 'service-inbox-zh');
  });

  it('finance has no inbox', async () => {
    const adminToken = await firstAdminToken();
    const finance = await createOperator(adminToken, ['finance']);
    const page = await browser.newPage('en');
    await signIn(page, finance);
    expect(await page.locator('a[href="#/service"]').count()).toBe(0);
  });
});
