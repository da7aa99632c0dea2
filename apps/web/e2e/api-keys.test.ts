/**
 * API keys in the security centre (issue 20) through the real screens, with the key then used by
 * the test as a bot would: a user with two-factor on creates a key (a wrong code refused under its
 * field, then a code made here from the shared secret as an authenticator app makes it), sees the
 * secret once with its QR code (which holds exactly the key and the secret) and is asked before
 * leaving it; a request signed with it as docs/api.md shows reads the account, and the key's
 * usage log lists it beside a refused one; the label and allow-list are changed, the key is
 * revoked behind a confirmation, and the same signed call is then refused. The same screens in
 * Arabic (right to left) for a user without two-factor.
 */
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import qrcode from 'qrcode-generator';
import { describe, expect, it } from 'vitest';
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
  type RegisteredUser,
} from './browser';
import { authenticator } from './authenticator';

const API_KEYS = '/pages/user/change?tab=apiKeys';
/** Three two-factor codes of successive steps may wait a step for the clock. */
const LONG_TEST_MS = 150_000;

/** Turns two-factor on through the API and answers the user's authenticator. */
async function withTwoFactor(user: RegisteredUser) {
  const setup = await apiCall<{ secret: string }>('POST', '/api/userSecurity/twoFactor/setup', {
    token: user.token,
    form: { userPwd: user.password },
  });
  expect(setup.code, JSON.stringify(setup)).toBe(200);
  const app = authenticator(setup.data.secret);
  const enabled = await apiCall('POST', '/api/userSecurity/twoFactor/enable', {
    token: user.token,
    form: { code: await app.nextCode() },
  });
  expect(enabled.code, JSON.stringify(enabled)).toBe(200);
  return app;
}

interface SignedAnswer {
  status: number;
  body: { code: number; msg: string; data?: { id?: number } };
}

/**
 * A GET signed with the key as docs/api.md shows: lower-case hex HMAC-SHA256, with the secret, of
 * timestamp + METHOD + path (+ '?' + query) + body (empty for a GET).
 */
async function signedGet(
  key: { apiKey: string; secret: string },
  pathAndQuery: string,
  options: { badSignature?: boolean } = {},
): Promise<SignedAnswer> {
  const timestamp = String(Date.now());
  let signature = createHmac('sha256', key.secret)
    .update(`${timestamp}GET${pathAndQuery}`)
    .digest('hex');
  if (options.badSignature) signature = signature.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  const response = await fetch(new URL(pathAndQuery, baseUrl()), {
    headers: {
      Accept: 'application/json',
      'X-BOURSE-APIKEY': key.apiKey,
      'X-BOURSE-TIMESTAMP': timestamp,
      'X-BOURSE-SIGNATURE': signature,
    },
  });
  return { status: response.status, body: (await response.json()) as SignedAnswer['body'] };
}

/** The SVG path the app draws for a QR code of `value` (components/qr-code.tsx). */
function qrPath(value: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(value);
  qr.make();
  let d = '';
  for (let row = 0; row < qr.getModuleCount(); row++) {
    for (let col = 0; col < qr.getModuleCount(); col++) {
      if (qr.isDark(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
    }
  }
  return d;
}

/** The new key's id and secret as the screen shows them, and its QR code holding both. */
async function readSecret(page: Page) {
  const view = page.locator('[data-testid="api-key-secret"]');
  await view.waitFor();
  const apiKey = (await view.locator('[data-testid="api-key-secret-key"]').textContent()) ?? '';
  const secret = (await view.locator('[data-testid="api-key-secret-value"]').textContent()) ?? '';
  expect(apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
  expect(secret).toMatch(/^[A-Za-z0-9]{64}$/);
  expect(await view.locator('[data-testid="api-key-secret-qr"] path').getAttribute('d')).toBe(
    qrPath(JSON.stringify({ apiKey, secret })),
  );
  return { apiKey, secret };
}

/** Nothing of the page sticks out sideways at the phone's width. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

/** Toasts gone, so that a screenshot shows the screen under them. */
async function toastsGone(page: Page) {
  await page.locator('.adm-toast-main').first().waitFor({ state: 'hidden' });
}

const keyCard = (page: Page) => page.locator('[data-testid="api-key"]').first();

describe('API keys', () => {
  const browser = useBrowser();

  it(
    'creates a key with two-factor on, shows its secret once, logs its use, edits and revokes it',
    async () => {
      const user = await registerUser();
      const app = await withTwoFactor(user);
      const page = await browser.newPage({ user });
      await page.goto(appUrl(API_KEYS));
      await page.locator('[data-testid="api-keys-empty"]').waitFor();
      expect(await page.locator('[data-testid="security-tab-apiKeys"]').textContent()).toBe(
        text('security_tab_apiKeys'),
      );
      await screenshot(page, 'api-keys-empty');

      // The form: what is missing or wrong shows under its field before anything is sent.
      await page.locator('[data-testid="api-key-new"]').click();
      const form = page.locator('[data-testid="api-key-create"]');
      await form.waitFor();
      expect(await form.locator('[data-testid="api-key-no-withdraw"]').textContent()).toBe(
        text('apiKeys_noWithdraw'),
      );
      expect(await form.locator('[data-testid="api-key-book"]').textContent()).toBe(
        text('apiKeys_bookNote_live'),
      );
      await page.locator('#api-key-addresses').fill('127.0.0.1\nexample.com');
      await form.locator('[data-testid="api-key-permission-read"]').click();
      await form.locator('button[type="submit"]').click();
      const errors = () => form.locator('.field-error').allTextContents();
      await expect
        .poll(errors)
        .toEqual([
          text('hint_paramRequired').replace('{0}', text('field_label')),
          text('hint_apiKeyPermissions').replace('{0}', text('field_permissions')),
          text('apiKeys_ipLineInvalid').replace('{0}', '2').replace('{1}', 'example.com'),
          text('twoFactor_codeRequired'),
        ]);
      await screenshot(page, 'api-keys-form-errors');

      await page.locator('#api-key-label').fill('Grid bot');
      await form.locator('[data-testid="api-key-permission-read"]').click();
      await form.locator('[data-testid="api-key-permission-trade"]').click();
      // Trade includes read: read is on, and cannot be turned off while trade is.
      const read = form.locator('[data-testid="api-key-permission-read"]');
      expect(await read.getAttribute('aria-pressed')).toBe('true');
      expect(await read.isDisabled()).toBe(true);
      await page.locator('#api-key-addresses').fill('127.0.0.1\n\n2001:db8::/32');
      await form.locator('[data-testid="api-key-expiry-30"]').click();
      // A wrong code: the server's refusal shows under the code field, and the code is cleared.
      await page.locator('#api-key-create-code').fill('000000');
      await form.locator('button[type="submit"]').click();
      await expectToast(page, text('hint_twoFactorWrong'));
      await expect.poll(errors).toEqual([text('hint_twoFactorWrong')]);
      expect(await page.locator('#api-key-create-code').inputValue()).toBe('');
      await page.locator('#api-key-create-code').fill(await app.nextCode());
      await toastsGone(page);
      await screenshot(page, 'api-keys-form');
      await form.locator('button[type="submit"]').click();

      // The secret, once: copyable, and in a QR code holding the key and the secret.
      const key = await readSecret(page);
      expect(await page.locator('[data-testid="api-key-secret-warning"]').textContent()).toBe(
        text('apiKeys_secretWarning'),
      );
      await expectOnScreen(page, page.locator('[data-testid="api-key-secret-warning"]'));
      await screenshot(page, 'api-keys-secret');
      await page.locator('[data-testid="api-key-secret-qr"]').scrollIntoViewIfNeeded();
      await screenshot(page, 'api-keys-secret-qr');
      // Leaving for another tab asks first; staying keeps the secret on screen.
      await page.locator('[data-testid="security-tab-sessions"]').click();
      // The open dialog (a closed one may stay in the page, hidden).
      const dialog = page.locator('.adm-dialog .adm-center-popup-body').filter({ visible: true });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(text('apiKeys_leaveConfirm'));
      await expectOnScreen(page, dialog.locator('.adm-dialog-footer'));
      await screenshot(page, 'api-keys-leave-confirm');
      await dialog.locator('.adm-dialog-button', { hasText: text('common_cancel') }).click();
      await page.locator('.adm-dialog-body').first().waitFor({ state: 'hidden' });
      expect(await page.locator('[data-testid="api-key-secret-value"]').textContent()).toBe(
        key.secret,
      );
      await page.locator('[data-testid="api-key-secret-done"]').click();

      // Listed without its secret, with what it may do and where from.
      const card = keyCard(page);
      await card.waitFor();
      expect(await card.getAttribute('data-status')).toBe('active');
      expect(await card.locator('[data-testid="api-key-label"]').textContent()).toBe('Grid bot');
      expect(await card.locator('[data-testid="api-key-id"]').textContent()).toBe(
        `${key.apiKey.slice(0, 8)}…`,
      );
      expect(await card.locator('[data-testid="api-key-permissions"]').textContent()).toBe(
        `${text('apiKeys_permission_read')} · ${text('apiKeys_permission_trade')}`,
      );
      expect(await card.locator('[data-testid="api-key-addresses"]').textContent()).toBe(
        '127.0.0.1, 2001:db8::/32',
      );
      expect(await page.content()).not.toContain(key.secret);
      await screenshot(page, 'api-keys-list');

      // A bot's signed read, and a request with a wrong signature: both in the usage log.
      const info = await signedGet(key, '/api/userInfo/getUserInfo');
      expect(info.status, JSON.stringify(info.body)).toBe(200);
      expect(info.body.data?.id).toBe(user.userInfo.id);
      const forged = await signedGet(key, '/api/userInfo/getUserInfo', { badSignature: true });
      expect(forged.body.msg).toBe('hint_apiKeySignature');
      await card.locator('[data-testid="api-key-usage-open"]').click();
      const uses = page.locator('[data-testid="api-key-use"]');
      await expect.poll(() => uses.count()).toBe(2);
      expect(await page.locator('[data-testid="api-key-usage"] h2').textContent()).toBe(
        text('apiKeys_usageTitle').replace('{0}', 'Grid bot'),
      );
      expect(await uses.nth(0).getAttribute('data-msg')).toBe('hint_apiKeySignature');
      expect(await uses.nth(0).locator('[data-testid="api-key-use-result"]').textContent()).toBe(
        text('apiKeys_refused'),
      );
      expect(await uses.nth(0).textContent()).toContain(text('hint_apiKeySignature'));
      expect(await uses.nth(1).getAttribute('data-status')).toBe('200');
      expect(await uses.nth(1).locator('[data-testid="api-key-use-call"]').textContent()).toBe(
        'GET /api/userInfo/getUserInfo',
      );
      expect(await uses.nth(1).locator('[data-testid="api-key-use-result"]').textContent()).toBe(
        text('apiKeys_accepted'),
      );
      expect(await uses.nth(1).textContent()).toContain('127.0.0.1');
      await screenshot(page, 'api-keys-usage');

      // Back to the list, then the label and allow-list changed with a code.
      await page.goBack();
      await card.waitFor();
      await card.locator('[data-testid="api-key-edit-open"]').click();
      const edit = page.locator('[data-testid="api-key-edit"]');
      await edit.waitFor();
      expect(await page.locator('#api-key-edit-addresses').inputValue()).toBe(
        '127.0.0.1\n2001:db8::/32',
      );
      await page.locator('#api-key-edit-label').fill('Grid bot 2');
      await page.locator('#api-key-edit-addresses').fill('127.0.0.1\n203.0.113.7');
      await page.locator('#api-key-edit-code').fill(await app.nextCode());
      await screenshot(page, 'api-keys-edit');
      await edit.locator('button[type="submit"]').click();
      await expectToast(page, text('apiKeys_saved'));
      await expect
        .poll(() => card.locator('[data-testid="api-key-label"]').textContent())
        .toBe('Grid bot 2');
      expect(await card.locator('[data-testid="api-key-addresses"]').textContent()).toBe(
        '127.0.0.1, 203.0.113.7',
      );
      expect((await signedGet(key, '/api/userInfo/getUserInfo')).status).toBe(200);

      // Revoked behind a confirmation naming it: the same signed call is refused at once.
      await toastsGone(page);
      await card.locator('[data-testid="api-key-revoke"]').click();
      await dialog.waitFor();
      await expectOnScreen(page, dialog.locator('.adm-dialog-footer'));
      expect(await dialog.textContent()).toContain(
        text('apiKeys_revokeConfirm').replace('{0}', 'Grid bot 2'),
      );
      await screenshot(page, 'api-keys-revoke-confirm');
      await dialog.locator('.adm-dialog-button', { hasText: text('apiKeys_revoke') }).click();
      await expectToast(page, text('apiKeys_revokedToast'));
      await expect.poll(() => card.getAttribute('data-status')).toBe('revoked');
      expect(await card.locator('[data-testid="api-key-edit-open"]').count()).toBe(0);
      expect(await card.locator('[data-testid="api-key-revoke"]').count()).toBe(0);
      await toastsGone(page);
      await screenshot(page, 'api-keys-revoked');
      const refused = await signedGet(key, '/api/userInfo/getUserInfo');
      expect(refused.status).toBe(401);
      expect(refused.body.msg).toBe('hint_apiKeyRevoked');
      await expectNoSidewaysScroll(page);
    },
    LONG_TEST_MS,
  );

  it('shows the key screens in Arabic, right to left, without two-factor', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user, storage: { locale: 'ar' } });
    await page.goto(appUrl(API_KEYS));
    await page.locator('[data-testid="api-keys-empty"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await screenshot(page, 'api-keys-empty-ar');
    await page.locator('[data-testid="api-key-new"]').click();
    const form = page.locator('[data-testid="api-key-create"]');
    await form.waitFor();
    // No two-factor: no code is asked.
    expect(await page.locator('#api-key-create-code').count()).toBe(0);
    await page.locator('#api-key-label').fill('روبوت القراءة');
    await page.locator('#api-key-addresses').fill('127.0.0.1');
    // Addresses read left to right inside the right-to-left page.
    expect(
      await page
        .locator('#api-key-addresses')
        .evaluate((element) => getComputedStyle(element).direction),
    ).toBe('ltr');
    await screenshot(page, 'api-keys-form-ar');
    await form.locator('button[type="submit"]').click();

    const key = await readSecret(page);
    expect(
      await page
        .locator('[data-testid="api-key-secret-value"]')
        .evaluate((element) => getComputedStyle(element).direction),
    ).toBe('ltr');
    expect(await page.locator('[data-testid="api-key-secret-warning"]').textContent()).toBe(
      text('apiKeys_secretWarning', 'ar'),
    );
    await screenshot(page, 'api-keys-secret-ar');
    await expectNoSidewaysScroll(page);
    await page.locator('[data-testid="api-key-secret-done"]').click();

    const card = keyCard(page);
    await card.waitFor();
    expect(await card.locator('[data-testid="api-key-permissions"]').textContent()).toBe(
      text('apiKeys_permission_read', 'ar'),
    );
    await screenshot(page, 'api-keys-list-ar');
    expect((await signedGet(key, '/api/userInfo/getUserInfo')).status).toBe(200);
    await card.locator('[data-testid="api-key-usage-open"]').click();
    const use = page.locator('[data-testid="api-key-use"]');
    await use.first().waitFor();
    expect(await use.first().locator('[data-testid="api-key-use-result"]').textContent()).toBe(
      text('apiKeys_accepted', 'ar'),
    );
    await screenshot(page, 'api-keys-usage-ar');
    await expectNoSidewaysScroll(page);
  });
});
