/**
 * Customer service in the app against the real server, at 390x844: a signed-in user writes, the
 * desk (an operator through /admin-api) types and answers, and the answer, the typing and the
 * read receipt reach the open chat without a reload; a picture picked in the app is compressed,
 * sent and shown from the server's re-encoded copy. A signed-out visitor chats the same way, with
 * the note that signing in keeps the chat, and the desk's external lines listed; once they sign
 * in, the guest chat is the account's. The history
 * pages back as the user scrolls up. Pictured in English and in Arabic (right to left).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCall,
  appUrl,
  operatorToken,
  registerUser,
  screenshot,
  stored,
  text,
  useBrowser,
  type RegisteredUser,
} from './browser';

const SERVICE = '/pages/service/service';
const ARABIC = { locale: 'ar' };
let operator = '';
const lineIds: number[] = [];

async function desk<T>(url: string, form: Record<string, string>) {
  const answer = await adminCall<T>(operator, `/service${url}`, form);
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return answer.data;
}

/** The conversation the user's last message is in, read from the chat's own message. */
async function conversationOf(page: Page): Promise<number> {
  const id = await page.getByTestId('service-message').last().getAttribute('data-id');
  return Number(
    await page.evaluate(
      async ({ id, token }) => {
        // The desk's newest conversations, to find the one holding the message.
        for (const state of ['new', 'mine', 'waiting']) {
          const response = await fetch(
            `/admin-api/service/conversations?state=${state}&pageSize=100`,
            {
              headers: { Authorization: `Bearer ${token}` },
            },
          );
          const page = (await response.json()) as { rows: { id: number }[] };
          for (const row of page.rows) {
            const messages = await fetch(`/admin-api/service/messages?id=${row.id}&pageSize=50`, {
              headers: { Authorization: `Bearer ${token}` },
            });
            const found = (await messages.json()) as { rows: { id: number }[] };
            if (found.rows.some((message) => String(message.id) === id)) return row.id;
          }
        }
        return 0;
      },
      { id, token: operator },
    ),
  );
}

async function picture(page: Page) {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 1600;
    canvas.height = 1200;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#f5d76e';
    context.fillRect(0, 0, 1600, 1200);
    context.fillStyle = '#1b1b23';
    context.font = 'bold 140px sans-serif';
    context.fillText('RECEIPT 42', 200, 640);
    return canvas.toDataURL('image/png');
  });
  return {
    name: 'receipt.png',
    mimeType: 'image/png',
    buffer: Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'),
  };
}

async function write(page: Page, message: string) {
  await page.getByTestId('service-input').locator('textarea:not([readonly])').fill(message);
  await page.getByTestId('service-send').click();
  await expect
    .poll(() => page.getByTestId('service-message').filter({ hasText: message }).count())
    .toBe(1);
}

beforeAll(async () => {
  operator = await operatorToken();
  for (const line of [
    { kind: 'telegram', label: 'Telegram', url: 'https://t.me/bourse_support' },
    { kind: 'whatsapp', label: 'WhatsApp', url: 'https://wa.me/15551234567' },
  ]) {
    const saved = await adminCall<{ id: number }>(operator, '/service/lines/save', line);
    expect(saved.code, JSON.stringify(saved)).toBe(200);
    lineIds.push(saved.data.id);
  }
});

afterAll(async () => {
  for (const id of lineIds) await adminCall(operator, '/service/lines/delete', { id: String(id) });
});

describe('customer service', () => {
  const browser = useBrowser();

  it('a signed-in user chats with the desk live: text, typing, receipts and a picture', async () => {
    const user: RegisteredUser = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(SERVICE));
    await expect.poll(() => page.getByTestId('service-empty').isVisible()).toBe(true);
    expect(await page.getByTestId('service-guest').count()).toBe(0);
    await write(page, 'Hello, where is my deposit?');
    const conversationId = await conversationOf(page);
    expect(conversationId).toBeGreaterThan(0);

    await desk('/typing', { conversationId: String(conversationId) });
    await expect.poll(() => page.getByTestId('service-typing').isVisible()).toBe(true);
    await desk('/send', {
      conversationId: String(conversationId),
      content: 'It was approved a minute ago.',
      requestId: `e2e-svc-${Date.now()}`,
    });
    const reply = page.locator('[data-testid="service-message"][data-sender="operator"]');
    await expect.poll(() => reply.textContent()).toContain('It was approved a minute ago.');
    await expect.poll(() => page.getByTestId('service-typing').count()).toBe(0);
    // The desk read the user's message when it answered.
    await expect
      .poll(() => page.getByTestId('service-receipt').first().textContent())
      .toBe(text('service_read'));

    await page.getByTestId('service-image-input').setInputFiles(await picture(page));
    const image = page.locator('[data-testid="service-image"] img');
    await expect.poll(() => image.count()).toBe(1);
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
      .toBe(800);
    // The user read the desk's reply: the desk sees the receipt.
    const conversation = await fetch(
      new URL(`/admin-api/service/conversation?id=${conversationId}`, appUrl().split('/#')[0]),
      { headers: { Authorization: `Bearer ${operator}` } },
    ).then((response) => response.json() as Promise<{ data: { personReadUpTo: number } }>);
    expect(conversation.data.personReadUpTo).toBeGreaterThan(0);
    await screenshot(page, 'service-signed-in');

    // Away and back: a reply sent meanwhile is there.
    await page.goto(appUrl('/pages/tabs/me/me-k'));
    await desk('/send', {
      conversationId: String(conversationId),
      content: 'Anything else I can help with?',
      requestId: `e2e-svc-${Date.now()}-away`,
    });
    await page.goto(appUrl(SERVICE));
    await expect
      .poll(() => page.getByTestId('service-message').filter({ hasText: 'Anything else' }).count())
      .toBe(1);
  });

  it('a signed-out visitor chats, sees the lines, in English and Arabic', async () => {
    for (const [locale, storage] of [
      ['en', {}],
      ['ar', ARABIC],
    ] as const) {
      const page = await browser.newPage({ storage });
      await page.goto(appUrl(SERVICE));
      await expect.poll(() => page.getByTestId('service-guest').isVisible()).toBe(true);
      expect(await page.getByTestId('service-guest').textContent()).toContain(
        text('service_guestNote', locale),
      );
      const lines = page.getByTestId('service-lines').locator('a');
      await expect.poll(() => lines.count()).toBe(2);
      expect(await lines.first().getAttribute('target')).toBe('_blank');
      expect(await lines.first().getAttribute('rel')).toContain('noopener');
      const question = locale === 'ar' ? 'مرحبا، لا أستطيع تسجيل الدخول' : 'Hi, I cannot sign in';
      await write(page, question);
      const conversationId = await conversationOf(page);
      const answer =
        locale === 'ar'
          ? 'أعد تعيين كلمة المرور من شاشة الدخول.'
          : 'Reset your password from the sign-in screen.';
      await desk('/send', {
        conversationId: String(conversationId),
        content: answer,
        requestId: `e2e-svc-${Date.now()}-${locale}`,
      });
      await expect
        .poll(() =>
          page.locator('[data-testid="service-message"][data-sender="operator"]').textContent(),
        )
        .toContain(answer);
      if (locale === 'ar') {
        expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
        // Own messages sit at the start of the reading direction's end: the left in Arabic.
        const own = await page.locator('[data-sender="user"] .svc-bubble').boundingBox();
        const theirs = await page.locator('[data-sender="operator"] .svc-bubble').boundingBox();
        expect(own!.x).toBeLessThan(theirs!.x);
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await screenshot(page, `service-visitor-${locale}`);
    }
  });

  it('a guest who signs in keeps the chat: it moves to the account', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl(SERVICE));
    await write(page, 'Asked before signing in');
    expect(await stored(page, 'serviceVisitor')).toEqual(expect.any(String));
    const user = await registerUser();
    // Signed in on this device (as the login screen leaves it), then back to the chat.
    await page.evaluate(
      ({ token, info }) => {
        localStorage.setItem('uToken', JSON.stringify(token));
        localStorage.setItem('userAccount', JSON.stringify(info.userAccount));
        localStorage.setItem('userInfo', JSON.stringify(info));
      },
      { token: user.token, info: user.userInfo },
    );
    await page.reload();
    await expect
      .poll(() => page.getByTestId('service-message').filter({ hasText: 'Asked before' }).count())
      .toBe(1);
    expect(await page.getByTestId('service-guest').count()).toBe(0);
    await expect.poll(() => stored(page, 'serviceVisitor')).toBeNull();
    const history = await fetch(new URL('/api/service/messages', appUrl().split('/#')[0]), {
      headers: { Authorization: `Bearer ${user.token}` },
    }).then((response) => response.json() as Promise<{ rows: { content: string }[] }>);
    expect(history.rows.map((row) => row.content)).toEqual(['Asked before signing in']);
  });

  it('pages the history back as the user scrolls up', async () => {
    const user = await registerUser();
    for (let i = 1; i <= 26; i += 1) {
      const response = await fetch(new URL('/api/service/send', appUrl().split('/#')[0]), {
        method: 'POST',
        headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: `Note ${i}`, requestId: `e2e-page-${Date.now()}-${i}` }),
      });
      expect(response.status).toBe(200);
    }
    const page = await browser.newPage({ user });
    await page.goto(appUrl(SERVICE));
    await expect.poll(() => page.getByTestId('service-message').count()).toBe(20);
    expect(await page.getByTestId('service-message').first().textContent()).toContain('Note 7');
    await page.getByTestId('service-list').evaluate((element) => (element.scrollTop = 0));
    await expect.poll(() => page.getByTestId('service-message').count()).toBe(26);
    expect(await page.getByTestId('service-message').first().textContent()).toContain('Note 1');
    expect(await page.getByTestId('service-older').count()).toBe(0);
  });
});
