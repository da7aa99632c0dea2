/**
 * Identity verification in the app against the real server: a user fills the basic level (the
 * browser's checks first), sees it under review, reads the operator's reason when it is rejected
 * and sends it again, and sees it approved; then the advanced level with three pictures,
 * compressed in the browser, rejected with a reason that is a message key (shown translated),
 * sent again and approved. The advanced screen says what comes first while the basic level is
 * not approved. The withdraw screen names the level withdrawals need. Each state is pictured in
 * English and in Arabic (right to left).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatMessage } from '@bourse/shared';
import {
  apiCall,
  appUrl,
  baseUrl,
  operatorToken,
  registerUser,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
} from './browser';

const BASIC = '/pages/user/authentication';
const ADVANCED = '/pages/user/authentication1';
const ARABIC = { locale: 'ar' };

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

interface AuthRow {
  id: number;
  status: number;
  authLevel: number;
  idNumber: string;
}

/** A JSON POST (the identity calls' encoding), as a user or an operator. */
async function postJson<T>(url: string, token: string, body: object): Promise<Envelope<T>> {
  const response = await fetch(new URL(url, baseUrl()), {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Envelope<T>;
}

async function latest(user: RegisteredUser, level: number): Promise<AuthRow> {
  const result = await apiCall<AuthRow>('GET', '/api/userAuthRecord/detail', {
    token: user.token,
    query: { authLevel: String(level) },
  });
  expect(result.code, JSON.stringify(result)).toBe(200);
  return result.data;
}

/** The operator's decision on the user's latest request of a level, as the console sends it. */
async function decide(
  operator: string,
  user: RegisteredUser,
  level: number,
  decision: 'approve' | 'reject',
  reason?: string,
): Promise<void> {
  const record = await latest(user, level);
  expect(record.status).toBe(0);
  const result = await postJson(`/admin-api/identity/${decision}`, operator, {
    id: record.id,
    ...(reason ? { reason } : {}),
  });
  expect(result.code, JSON.stringify(result)).toBe(200);
}

let sequence = 0;
/** A basic request sent through the API (for the tests that start past it). */
async function applyBasic(user: RegisteredUser, realName: string): Promise<void> {
  const result = await postJson('/api/userAuthRecord/userAuthApply', user.token, {
    authLevel: 0,
    realName,
    idType: 2,
    idNumber: 'P1234567',
    requestId: `e2e-identity-${process.pid}-${++sequence}`,
  });
  expect(result.code, JSON.stringify(result)).toBe(200);
}

/**
 * A picture of a document as a phone would give it: a card with the name drawn on it, as a PNG
 * of `width` by `height` pixels (the browser draws it; the test needs no image library).
 */
async function documentPicture(page: Page, label: string, width = 1600, height = 1000) {
  const dataUrl = await page.evaluate(
    ({ label, width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#e8eef9';
      context.fillRect(0, 0, width, height);
      context.fillStyle = '#274690';
      context.fillRect(0, 0, width, height / 6);
      context.fillStyle = '#b8c4dc';
      context.fillRect(width / 20, height / 4, width / 4, height / 2);
      context.fillStyle = '#111111';
      context.font = `bold ${Math.round(height / 12)}px sans-serif`;
      context.fillText(label, width / 3.2, height / 2.4);
      context.fillText('ADA LOVELACE', width / 3.2, height / 1.7);
      return canvas.toDataURL('image/png');
    },
    { label, width, height },
  );
  return {
    name: `${label.toLowerCase()}.png`,
    mimeType: 'image/png',
    buffer: Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'),
  };
}

/** The three pictures picked, each previewed once compressed (800 pixels wide). */
async function pickDocuments(page: Page): Promise<void> {
  for (const [side, label] of [
    ['front', 'FRONT'],
    ['back', 'BACK'],
    ['hold', 'HOLDING'],
  ] as const) {
    await page
      .locator(`[data-testid="identity-file-${side}"]`)
      .setInputFiles(await documentPicture(page, label));
    const preview = page.locator(`[data-testid="identity-preview-${side}"]`);
    await preview.waitFor();
    await page.waitForFunction((selector) => {
      const image = document.querySelector<HTMLImageElement>(selector);
      return Boolean(image?.complete && image.naturalWidth > 0);
    }, `[data-testid="identity-preview-${side}"]`);
    expect(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(800);
  }
}

/** A picture once toasts are gone, scrolled to `element` when given. */
async function picture(page: Page, name: string, element?: string): Promise<void> {
  // Every toast (a slow machine may show two at once: compressing, then sending).
  await page.waitForFunction(() => document.querySelectorAll('.adm-toast-mask').length === 0);
  if (element) await page.locator(element).first().scrollIntoViewIfNeeded();
  await screenshot(page, name);
}

function fieldError(page: Page, message: string) {
  return page.locator('.field-error', { hasText: message });
}

describe('identity verification', () => {
  const browser = useBrowser();

  it('basic: checked before sending, under review, rejected with its reason, sent again, approved', async () => {
    const operator = await operatorToken();
    const user = await registerUser();
    const page = await browser.newPage({ user });

    // The me screen's verification state leads to the screen.
    await page.goto(appUrl('/pages/tabs/me/me-k'));
    const state = page.locator('[data-testid="me-auth-status"]');
    await state.waitFor();
    expect(await state.textContent()).toBe(text('account_authNone'));
    await state.click();
    await waitForRoute(page, BASIC);
    const form = page.locator('[data-testid="identity-form-0"]');
    await form.waitFor();
    expect(await page.locator('[data-testid="basic-status"]').getAttribute('data-status')).toBe(
      '-1',
    );
    // What each level unlocks, before the user tries (the seeded requirements).
    const unlocks = page.locator('[data-testid="identity-requirements"]');
    await unlocks.waitFor();
    expect(await unlocks.textContent()).toContain(text('identity_unlocksTitle'));
    expect(await page.locator('[data-testid="requirement-loan"]').getAttribute('data-met')).toBe(
      'false',
    );
    expect(await page.locator('[data-testid="requirement-loan"]').textContent()).toContain(
      text('identity_needs_0'),
    );
    await picture(page, 'identity-basic-form');

    // Nothing goes out until the form passes the server's own rules.
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/userAuthRecord/userAuthApply')) sent += 1;
    });
    const submit = form.locator('button[type="submit"]');
    await submit.click();
    await fieldError(
      page,
      formatMessage(text('hint_paramRequired'), [text('field_realName')]),
    ).waitFor();
    await fieldError(
      page,
      formatMessage(text('hint_paramRequired'), [text('field_idNumber')]),
    ).waitFor();
    await page.locator('#identity-real-name').fill('Ada Lovelace');
    // An identity card's number has 15 or 18 digits (the last may be X).
    await page.locator('#identity-id-number').fill('1101051949123');
    await fieldError(page, text('hint_idNumberInvalid')).waitFor();
    await picture(page, 'identity-basic-checks', '#identity-id-number');
    expect(sent).toBe(0);

    // A passport: 5 to 20 letters and digits.
    await page.locator('[data-testid="identity-id-type-2"]').click();
    expect(
      await page.locator('[data-testid="identity-id-type-2"]').getAttribute('aria-pressed'),
    ).toBe('true');
    await page.locator('#identity-id-number').fill('p1234567');
    await expect.poll(() => page.locator('.field-error').count()).toBe(0);
    await page.locator('#identity-phone').fill('+44 20 7946 0000');
    const request = page.waitForRequest('**/api/userAuthRecord/userAuthApply');
    await submit.click();
    const body = (await request).postDataJSON() as { [key: string]: unknown };
    expect(body).toMatchObject({
      authLevel: 0,
      realName: 'Ada Lovelace',
      idType: 2,
      idNumber: 'P1234567',
      phone: '+44 20 7946 0000',
    });
    expect(body.requestId).toMatch(/^auth-[0-9a-f]{32}$/);

    // Under review: what was sent, the number masked, and no form.
    await page.locator('[data-testid="auth-reviewing"]').waitFor();
    expect(await page.locator('[data-testid="identity-form-0"]').count()).toBe(0);
    const masked = await page.locator('[data-testid="auth-id-number"]').textContent();
    expect(masked).not.toBe('P1234567');
    expect(masked).toMatch(/^P.*7$/);
    expect(await page.locator('[data-testid="basic-status"]').getAttribute('data-status')).toBe(
      '0',
    );
    await picture(page, 'identity-basic-review');

    // Rejected with the operator's words: they show, and the form is back, the name kept.
    await decide(operator, user, 0, 'reject', 'The name does not match the document.');
    await page.reload();
    const rejected = page.locator('[data-testid="auth-rejected"]');
    await rejected.waitFor();
    expect(await page.locator('[data-testid="auth-reject-reason"]').textContent()).toContain(
      'The name does not match the document.',
    );
    await page.locator('[data-testid="identity-form-0"]').waitFor();
    expect(await page.locator('#identity-real-name').inputValue()).toBe('Ada Lovelace');
    expect(
      await page.locator('[data-testid="identity-id-type-2"]').getAttribute('aria-pressed'),
    ).toBe('true');
    await picture(page, 'identity-basic-rejected');

    // Sent again (a new request id), then approved.
    await page.locator('#identity-real-name').fill('Ada King Lovelace');
    await page.locator('#identity-id-number').fill('P1234567');
    const again = page.waitForRequest('**/api/userAuthRecord/userAuthApply');
    await page.locator('[data-testid="identity-form-0"] button[type="submit"]').click();
    const second = (await again).postDataJSON() as { requestId: string };
    expect(second.requestId).not.toBe(body.requestId);
    await page.locator('[data-testid="auth-reviewing"]').waitFor();
    await decide(operator, user, 0, 'approve');
    await page.reload();
    await page.locator('[data-testid="auth-approved"]').waitFor();
    expect(await page.locator('[data-testid="basic-status"]').getAttribute('data-status')).toBe(
      '1',
    );
    expect(await page.locator('[data-testid="requirement-loan"]').getAttribute('data-met')).toBe(
      'true',
    );
    await picture(page, 'identity-basic-approved');

    // The me screen follows, and the basic screen leads on to the advanced level.
    await page.goto(appUrl('/pages/tabs/me/me-k'));
    await expect
      .poll(() => page.locator('[data-testid="me-auth-status"]').textContent())
      .toBe(text('account_authVerified'));
    await picture(page, 'identity-me-verified');
    await page.locator('[data-testid="me-auth-status"]').click();
    await page.locator('[data-testid="to-advanced"]').click();
    await waitForRoute(page, ADVANCED);
    await page.locator('[data-testid="identity-form-1"]').waitFor();
  });

  it('advanced: the basic level first; three pictures, a translated reason, sent again, approved', async () => {
    const operator = await operatorToken();
    const user = await registerUser();
    const page = await browser.newPage({ user });

    // Before the basic level is approved, the screen says so and offers no form.
    await page.goto(appUrl(ADVANCED));
    const first = page.locator('[data-testid="identity-basic-first"]');
    await first.waitFor();
    expect(await first.textContent()).toContain(text('identity_basicFirstText'));
    expect(await page.locator('[data-testid="identity-form-1"]').count()).toBe(0);
    await picture(page, 'identity-advanced-basic-first');
    await applyBasic(user, 'Ada Lovelace');
    await page.reload();
    await expect.poll(() => first.textContent()).toContain(text('identity_basicFirstReviewing'));
    await decide(operator, user, 0, 'approve');

    await page.reload();
    const form = page.locator('[data-testid="identity-form-1"]');
    await form.waitFor();
    // The same name as the basic level, said before the user starts, and filled in.
    expect(await page.locator('[data-testid="identity-same-name"]').textContent()).toBe(
      formatMessage(text('identity_sameName'), ['Ada Lovelace']),
    );
    expect(await page.locator('#identity-real-name').inputValue()).toBe('Ada Lovelace');
    await picture(page, 'identity-advanced-form');

    // The pictures are asked for before anything is sent.
    await page.locator('[data-testid="identity-id-type-2"]').click();
    await page.locator('#identity-id-number').fill('P1234567');
    await form.locator('button[type="submit"]').click();
    await fieldError(
      page,
      formatMessage(text('hint_paramRequired'), [text('field_holdImage')]),
    ).waitFor();

    await pickDocuments(page);
    await picture(page, 'identity-advanced-pictures', '[data-testid="identity-preview-hold"]');
    const request = page.waitForRequest('**/api/userAuthRecord/userAuthApply');
    await form.locator('button[type="submit"]').click();
    const body = (await request).postDataJSON() as { [key: string]: string };
    for (const field of ['frontImage', 'backImage', 'holdImage'])
      expect(body[field]).toMatch(/^data:image\/jpeg;base64,/);

    // Under review, with the three pictures as the server keeps them.
    await page.locator('[data-testid="auth-reviewing"]').waitFor();
    for (const side of ['front', 'back', 'hold'])
      await page.locator(`[data-testid="auth-document-${side}"] img`).waitFor();
    await picture(page, 'identity-advanced-review');

    // A reason that is a message key reads in the user's language.
    await decide(operator, user, 1, 'reject', 'hint_idNumberInvalid');
    await page.reload();
    await page.locator('[data-testid="auth-rejected"]').waitFor();
    expect(await page.locator('[data-testid="auth-reject-reason"]').textContent()).toContain(
      text('hint_idNumberInvalid'),
    );
    await page.locator('[data-testid="identity-form-1"]').waitFor();
    await picture(page, 'identity-advanced-rejected');

    await page.locator('#identity-id-number').fill('P7654321');
    await pickDocuments(page);
    await page.locator('[data-testid="identity-form-1"] button[type="submit"]').click();
    await page.locator('[data-testid="auth-reviewing"]').waitFor();
    await decide(operator, user, 1, 'approve');
    await page.reload();
    await page.locator('[data-testid="auth-approved"]').waitFor();
    await picture(page, 'identity-advanced-approved');

    // Both levels approved on the basic screen.
    await page.goto(appUrl(BASIC));
    await page.locator('[data-testid="auth-approved"]').waitFor();
    expect(await page.locator('[data-testid="advanced-status"]').getAttribute('data-status')).toBe(
      '1',
    );
    expect(await page.locator('[data-testid="to-advanced"]').count()).toBe(0);
  });

  it('the server refuses a name other than the basic one, under the name field', async () => {
    const operator = await operatorToken();
    const user = await registerUser();
    await applyBasic(user, 'Ada Lovelace');
    await decide(operator, user, 0, 'approve');
    const page = await browser.newPage({ user });
    await page.goto(appUrl(ADVANCED));
    await page.locator('[data-testid="identity-form-1"]').waitFor();
    await page.locator('#identity-real-name').fill('Grace Hopper');
    await page.locator('[data-testid="identity-id-type-2"]').click();
    await page.locator('#identity-id-number').fill('P1234567');
    await pickDocuments(page);
    await page.locator('[data-testid="identity-form-1"] button[type="submit"]').click();
    await fieldError(page, text('hint_authNameMismatch')).waitFor();
    await expect.poll(() => latest(user, 1).then((record) => record.status)).toBe(-1);
    // Corrected, the refusal goes with it.
    await page.locator('#identity-real-name').fill('Ada Lovelace');
    await expect.poll(() => fieldError(page, text('hint_authNameMismatch')).count()).toBe(0);
  });

  it('withdrawals that need a level say so on the withdraw screen, with the way there', async () => {
    const operator = await operatorToken();
    const save = (minLevel: number) =>
      postJson('/admin-api/identity/requirements/save', operator, {
        feature: 'withdraw',
        minLevel,
      });
    expect((await save(0)).code).toBe(200);
    try {
      const user = await registerUser();
      const page = await browser.newPage({ user });
      await page.goto(appUrl('/pages/user/withdrawl'));
      const notice = page.locator('[data-testid="withdraw-identity"]');
      await notice.waitFor();
      expect(await notice.textContent()).toContain(
        formatMessage(text('withdraw_identityText'), [text('identity_basic')]),
      );
      await picture(page, 'identity-withdraw-notice');
      await notice.getByRole('button').click();
      await waitForRoute(page, BASIC);
      await page.locator('[data-testid="requirement-withdraw"][data-met="false"]').waitFor();

      const arabic = await browser.newPage({ user, storage: ARABIC });
      await arabic.goto(appUrl('/pages/user/withdrawl'));
      await arabic.locator('[data-testid="withdraw-identity"]').waitFor();
      await picture(arabic, 'identity-withdraw-notice-ar');
    } finally {
      expect((await save(-1)).code).toBe(200);
    }
  });

  it('reads right to left in Arabic', async () => {
    const operator = await operatorToken();
    const user = await registerUser();
    const page = await browser.newPage({ user, storage: ARABIC });
    await page.goto(appUrl(BASIC));
    await page.locator('[data-testid="identity-form-0"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.locator('.nav-title').textContent()).toBe(text('page_authentication', 'ar'));
    await page.locator('[data-testid="identity-form-0"] button[type="submit"]').click();
    await page.locator('.field-error').first().waitFor();
    await picture(page, 'identity-basic-form-ar');

    await applyBasic(user, 'Ada Lovelace');
    await page.reload();
    await page.locator('[data-testid="auth-reviewing"]').waitFor();
    await picture(page, 'identity-basic-review-ar');

    await decide(operator, user, 0, 'reject', 'hint_authNameMismatch');
    await page.reload();
    await page.locator('[data-testid="auth-rejected"]').waitFor();
    expect(await page.locator('[data-testid="auth-reject-reason"]').textContent()).toContain(
      text('hint_authNameMismatch', 'ar'),
    );
    await picture(page, 'identity-basic-rejected-ar');

    await applyBasic(user, 'Ada Lovelace');
    await decide(operator, user, 0, 'approve');
    await page.goto(appUrl(ADVANCED));
    await page.locator('[data-testid="identity-form-1"]').waitFor();
    await picture(page, 'identity-advanced-form-ar');
    await page.locator('[data-testid="identity-id-type-2"]').click();
    await page.locator('#identity-id-number').fill('P1234567');
    await pickDocuments(page);
    await picture(page, 'identity-advanced-pictures-ar', '[data-testid="identity-preview-hold"]');
    await page.locator('[data-testid="identity-form-1"] button[type="submit"]').click();
    await page.locator('[data-testid="auth-reviewing"]').waitFor();
    for (const side of ['front', 'back', 'hold'])
      await page.locator(`[data-testid="auth-document-${side}"] img`).waitFor();
    await picture(page, 'identity-advanced-review-ar');
  });
});
