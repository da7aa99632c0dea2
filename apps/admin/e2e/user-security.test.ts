/**
 * A user's security state and an admin's reset of a lost two-factor, through the console against
 * the real server: a user turns two-factor on through the API (the code made from the secret the
 * server answered, as their app would); a support operator sees it on in the user's Security tab
 * and has no reset; an admin resets it, the dialog refusing an empty reason first; the tab then
 * shows it off, reset by an admin, and withdrawals held for 24 hours; the user's session is
 * refused, and the audit log keeps the reason. Screenshots in English and Chinese.
 */
import { TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accountApi, operatorsApi, securityApi, TWO_FACTOR } from '@bourse/shared';
import type { ApiError } from '../src/api/client';
import {
  client,
  consoleUrl,
  createOperator,
  firstAdminToken,
  registerUser,
  screenshot,
  serverText,
  signIn,
  text,
  USER_PASSWORD,
  useConsole,
  waitForRoute,
  type Language,
  type TestOperator,
  type TestUser,
} from './console';

/** Turns two-factor on for the user through the API, with a code of their app made here. */
async function turnOnTwoFactor(user: TestUser): Promise<void> {
  const { secret } = await client(user.token).call(securityApi.twoFactorSetup, {
    userPwd: USER_PASSWORD,
  });
  const code = new TOTP({
    secret,
    digits: TWO_FACTOR.digits,
    period: TWO_FACTOR.periodSeconds,
  }).generate();
  await client(user.token).call(securityApi.twoFactorEnable, { code });
}

/** Opens the user's page at its Security tab and waits for the state. */
async function openSecurity(page: Page, user: TestUser): Promise<void> {
  await page.goto(consoleUrl(`/users/${user.id}`));
  await waitForRoute(page, `/users/${user.id}`);
  await page.locator('[data-testid="tab-security"]').click();
  await page.locator('[data-testid="user-security"]').waitFor();
}

const DAY_MS = 24 * 3_600_000;

const field = (page: Page, name: string) => page.locator(`[data-testid="security-${name}"]`);

describe("a user's security state", () => {
  const browser = useConsole();
  let root: string;
  let support: TestOperator;
  let admin: TestOperator;
  let user: TestUser;

  it('support sees two-factor on and cannot reset it', async () => {
    root = await firstAdminToken();
    support = await createOperator(root, ['support']);
    admin = await createOperator(root, ['admin']);
    user = await registerUser();
    await turnOnTwoFactor(user);

    for (const language of ['en', 'zh'] as Language[]) {
      const page = await browser.newPage(language);
      await signIn(page, support);
      await openSecurity(page, user);
      await field(page, 'twoFactor')
        .getByText(text('users.security.on', language), { exact: true })
        .waitFor();
      expect(await field(page, 'twoFactor').textContent()).toContain(
        text('users.security.recoveryCodesLeft_other', language, { count: 10 }),
      );
      expect(await field(page, 'hold').textContent()).toBe(
        text('users.security.notHeld', language),
      );
      // The reset is an admin's: support has no button for it.
      expect(await page.locator('[data-testid="resetTwoFactor"]').count()).toBe(0);
      await screenshot(page, `user-security-support-${language}`);
    }
  });

  it('an admin resets it with a reason: the tab shows it off and the hold, the session is refused', async () => {
    const page = await browser.newPage('en');
    await signIn(page, admin);
    await openSecurity(page, user);
    await page.locator('[data-testid="resetTwoFactor"]').click();
    const dialog = page.locator('.ant-modal', {
      has: page.locator('[data-testid="resetTwoFactor-reason"]'),
    });
    await dialog.waitFor();
    // No reason: refused on its field, in the console's words, and nothing is reset. (A click
    // while the dialog is still coming in can go unseen on a loaded machine: an empty reason is
    // never sent, so the test clicks again until the refusal shows, three times at most.)
    const refusal = dialog.locator('.ant-form-item-explain-error', {
      hasText: serverText('hint_paramRequired', 'en', ['reason']),
    });
    for (let attempt = 1; ; attempt += 1) {
      await page.locator('[data-testid="resetTwoFactor-confirm"]').click();
      try {
        await refusal.waitFor({ timeout: 5000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    await screenshot(page, 'user-security-reset-en');
    const reason = 'Lost phone; identity checked on a video call, ticket 4411';
    await page.locator('[data-testid="resetTwoFactor-reason"]').fill(reason);
    const sent = Date.now();
    await page.locator('[data-testid="resetTwoFactor-confirm"]').click();
    await dialog.waitFor({ state: 'hidden' });
    const answered = Date.now();

    await field(page, 'twoFactor').getByText(text('users.security.off'), { exact: true }).waitFor();
    expect(await field(page, 'twoFactor').textContent()).toContain(
      text('users.security.resetAt', 'en', { time: '' }).trim(),
    );
    const hold = field(page, 'hold');
    await hold.getByText(text('users.security.cause.twoFactorReset')).waitFor();
    await page.locator('[data-testid="security-sessions"]', { hasText: /^0$/ }).waitFor();
    // The button goes with the two-factor it resets.
    expect(await page.locator('[data-testid="resetTwoFactor"]').count()).toBe(0);
    await screenshot(page, 'user-security-after-reset-en');

    // The user's session ended; signing in again takes the password alone, and withdrawals wait.
    await expect(client(user.token).call(accountApi.userInfo)).rejects.toMatchObject({
      status: 401,
    } satisfies Partial<ApiError>);
    const signedIn = await client().call(accountApi.login, {
      userAccount: user.email,
      userPwd: USER_PASSWORD,
    });
    expect('token' in signedIn).toBe(true);
    const token = (signedIn as { token: string }).token;
    const info = await client(token).call(accountApi.userInfo);
    // 24 hours from the reset, which the server made between the click and the dialog closing.
    const until = Date.parse(info.withdrawHoldUntil!);
    expect(until).toBeGreaterThanOrEqual(sent - 1000 + DAY_MS);
    expect(until).toBeLessThanOrEqual(answered + DAY_MS);

    const audit = await client(root).call(operatorsApi.audit, {
      targetType: 'user',
      targetId: String(user.id),
      pageNum: 1,
      pageSize: 20,
    });
    const entry = audit.rows.find((row) => row.action === 'user.resetTwoFactor');
    expect(entry).toMatchObject({ operatorName: admin.username });
    expect(entry?.after).toMatchObject({ twoFactor: false, reason });

    const zh = await browser.newPage('zh');
    await signIn(zh, admin);
    await openSecurity(zh, user);
    await field(zh, 'hold').getByText(text('users.security.cause.twoFactorReset', 'zh')).waitFor();
    await screenshot(zh, 'user-security-after-reset-zh');
  });
});
