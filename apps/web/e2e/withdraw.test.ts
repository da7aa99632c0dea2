/**
 * Withdrawals through the real screens: demo accounts are told their funds are virtual; without
 * a withdrawal password the form sends the user to set one; amounts are checked against the
 * channel and the balance with the fee previewed; a password change holds withdrawals; and a
 * funded user (a deposit the operator approved) withdraws to a bound card with the code pad, sees
 * it under review, cancels it and gets the funds back, sees an operator's rejection with its
 * reason, and finds every change in the balance records. The funded part needs the first
 * operator's session from the harness (`inject('adminToken')`).
 */
import type { Page } from 'playwright-core';
import { isolateLtr } from '@bourse/shared';
import { describe, expect, it } from 'vitest';
import {
  apiCall,
  appUrl,
  expectOnScreen,
  expectToast,
  registerUser,
  screenshot,
  text,
  useBrowser,
  waitForRoute,
  type RegisteredUser,
  adminCall,
  fund,
  operatorToken,
} from './browser';

const WITHDRAW = '/pages/user/withdrawl';
const WITHDRAW_RECORD = '/pages/user/withdrawRecord';
const ACCOUNT_RECORD = '/pages/record/accountRecord';
const ASSETS = '/components/m-zichan/m-zichan';
const WITHDRAW_PASSWORD = '246810';

function fill(template: string, ...params: string[]): string {
  return template.replace(/\{(\d)\}/g, (_whole, index: string) => params[Number(index)] ?? '');
}

async function setWithdrawalPassword(user: RegisteredUser, password = WITHDRAW_PASSWORD) {
  const result = await apiCall('POST', '/api/userInfo/updateUserWithPwd', {
    token: user.token,
    form: { newPwd: password, userPwd: user.password },
  });
  expect(result.code, JSON.stringify(result)).toBe(200);
}

async function bindBankCard(user: RegisteredUser): Promise<number> {
  const result = await apiCall<{ id: number }>('POST', '/api/userBank/addUserBankCard', {
    token: user.token,
    form: { bankName: 'Example Bank', accountName: 'Test Person', cardNumber: '6222021234567890' },
  });
  expect(result.code, JSON.stringify(result)).toBe(200);
  return result.data.id;
}

async function usdBalance(user: RegisteredUser) {
  const result = await apiCall<{ amount: string; frozenAmount: string }>(
    'GET',
    '/api/userInfo/userBalance',
    { token: user.token, query: { currencyId: '1' } },
  );
  return { available: result.data.amount, frozen: result.data.frozenAmount };
}

async function typeOnPad(page: Page, digits: string): Promise<void> {
  const pad = page.locator('[data-testid="code-pad-popup"]');
  for (const digit of digits) await pad.locator(`button[data-key="${digit}"]`).click();
}

async function confirmDialog(page: Page, label: string): Promise<void> {
  const button = page.locator('.adm-dialog-button', { hasText: label });
  await button.click();
  await button.waitFor({ state: 'hidden' });
}

async function amountError(page: Page): Promise<string | null> {
  return page.locator('[data-testid="withdraw-form"] .field-error').first().textContent();
}

/**
 * Taps Withdraw until the code pad opens (at most three taps): on a machine shared by three test
 * lanes a tap once landed while the form was still settling and nothing opened.
 */
async function openCodePad(page: Page): Promise<void> {
  const pad = page.locator('[data-testid="code-pad-popup"]');
  for (let attempt = 1; ; attempt++) {
    await page.locator('[data-testid="withdraw-submit"]').click();
    try {
      await pad.waitFor({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

describe('withdraw', () => {
  const browser = useBrowser();

  it('tells a demo account its funds are virtual, and switches to the live account', async () => {
    const user = await registerUser();
    const switched = await apiCall('GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    expect(switched.code).toBe(200);
    const page = await browser.newPage({ user: { ...user, userInfo: switched.data as never } });
    await page.goto(appUrl(WITHDRAW));
    const demo = page.locator('[data-testid="withdraw-demo"]');
    await demo.waitFor();
    expect(await demo.textContent()).toContain(text('withdraw_demoText'));
    expect(await page.locator('[data-testid="withdraw-form"]').count()).toBe(0);
    await screenshot(page, 'withdraw-demo');

    await page.locator('[data-testid="withdraw-switch-live"]').click();
    await expectToast(page, text('account_nowLive'));
    await page.locator('[data-testid="withdraw-form"]').waitFor();
    // A live account without a withdrawal password is sent to set one.
    await page.locator('[data-testid="withdraw-set-password"]').waitFor();
    const submit = page.locator('[data-testid="withdraw-submit"]');
    expect(await submit.textContent()).toBe(text('withdraw_setPassword'));
    await screenshot(page, 'withdraw-no-password');
    await submit.click();
    await waitForRoute(page, '/pages/user/change');
  });

  it('checks the amount against the channel and the balance, with the fee previewed', async () => {
    const user = await registerUser();
    await setWithdrawalPassword(user);
    const page = await browser.newPage({ user });
    await page.goto(appUrl(WITHDRAW));
    await page.locator('[data-testid="withdraw-form"]').waitFor();
    expect(await page.locator('[data-testid="withdraw-set-password"]').count()).toBe(0);

    // USDT on TRC20: no address bound yet, so the form offers to add one.
    await page.locator('[data-testid="withdraw-currency-USDT"]').click();
    await page.getByRole('button', { name: /USDT \(TRC20\)/ }).click();
    const terms = page.locator('[data-testid="withdraw-terms"]');
    expect(await terms.textContent()).toContain('10.00 – 100,000.00 USDT');
    expect(await page.locator('[data-testid="withdraw-daily-remaining"]').textContent()).toBe(
      fill(
        text('withdraw_dailyRemainingValue'),
        isolateLtr('200,000.00'),
        isolateLtr('200,000.00'),
        'USDT',
      ),
    );
    const noDestination = page.locator('[data-testid="withdraw-no-destination"]');
    await noDestination.waitFor();
    expect(await noDestination.textContent()).toContain(
      fill(text('withdraw_noAddress'), 'USDT', 'TRC20'),
    );

    const amount = page.locator('#withdraw-amount');
    await amount.fill('5');
    expect(await amountError(page)).toBe(
      fill(text('withdraw_amountBelowMin'), isolateLtr('10.00'), 'USDT'),
    );
    // USDT has four decimals.
    await amount.fill('10.12345');
    expect(await amountError(page)).toBe(fill(text('withdraw_amountDecimals'), '4'));
    await amount.fill('50');
    expect(await amountError(page)).toBe(fill(text('withdraw_insufficient'), '0.00', 'USDT'));
    // The fee of this channel is a fixed 1 USDT: 51 would be frozen.
    expect(await page.locator('[data-testid="withdraw-fee"]').textContent()).toBe('1.00 USDT');
    expect(await page.locator('[data-testid="withdraw-total"]').textContent()).toBe('51.00 USDT');
    await screenshot(page, 'withdraw-validation');

    // Nothing is sent while the form is wrong: no pad opens.
    await page.locator('[data-testid="withdraw-submit"]').click();
    expect(await page.locator('[data-testid="code-pad-popup"]').count()).toBe(0);
    expect(
      await page.locator('[data-testid="withdraw-form"] .field-error').allTextContents(),
    ).toContain(text('withdraw_destinationRequired'));

    // The way to bind an address keeps the currency.
    await noDestination.locator('[data-testid="withdraw-bind"]').click();
    await waitForRoute(page, '/pages/wallets/bindAddress');
  });

  it('says until when withdrawals are held after the withdrawal password changed', async () => {
    const user = await registerUser();
    await setWithdrawalPassword(user);
    const changed = await apiCall('POST', '/api/userInfo/updateUserWithPwd', {
      token: user.token,
      form: { newPwd: '135790', oldPwd: WITHDRAW_PASSWORD },
    });
    expect(changed.code, JSON.stringify(changed)).toBe(200);
    const page = await browser.newPage({ user });
    await page.goto(appUrl(WITHDRAW));
    const held = page.locator('[data-testid="withdraw-held"]');
    await held.waitFor();
    const info = await apiCall<{ withdrawHoldUntil: string }>('GET', '/api/userInfo/getUserInfo', {
      token: user.token,
    });
    const until = await page.evaluate((iso) => {
      const date = new Date(iso);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${date.getFullYear()}/${pad(date.getMonth() + 1)}/${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
    }, info.data.withdrawHoldUntil);
    expect(await held.textContent()).toContain(fill(text('withdraw_heldUntil'), until));
    expect(await page.locator('[data-testid="withdraw-submit"]').isDisabled()).toBe(true);
    await screenshot(page, 'withdraw-held');
  });

  it('shows clear empty records and the demo grant in the balance records', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(WITHDRAW_RECORD));
    const empty = page.locator('[data-testid="withdraw-empty"]');
    await empty.waitFor();
    expect(await empty.textContent()).toContain(text('withdraw_empty'));
    await screenshot(page, 'withdraw-records-empty');

    await page.goto(appUrl(ACCOUNT_RECORD));
    const noRecords = page.locator('[data-testid="records-empty"]');
    await noRecords.waitFor();
    expect(await noRecords.textContent()).toContain(text('record_empty'));
    await screenshot(page, 'account-records-empty');

    // The demo book starts with its virtual grant.
    const switched = await apiCall('GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    expect(switched.code).toBe(200);
    await page.reload();
    const row = page.locator('[data-testid="record-row"]').first();
    await row.waitFor();
    expect(await row.getAttribute('data-type')).toBe('demo');
    expect(await row.locator('[data-testid="record-amount"]').textContent()).toBe(
      '+100,000.00 USDT',
    );
    await screenshot(page, 'account-records-demo');

    // By currency: the grant is in USDT, nothing in USD.
    await page.locator('[data-testid="record-currency"]').click();
    const usd = page.locator('.adm-popup .adm-list-item', { hasText: /^USD$/ });
    await usd.click({ trial: true });
    await screenshot(page, 'account-records-currency');
    await usd.click();
    await noRecords.waitFor();
    expect(await page.locator('[data-testid="record-currency"]').textContent()).toBe('USD');
    await noRecords.getByRole('button', { name: text('record_clearFilters') }).click();
    await row.waitFor();

    // Filtering to withdrawals leaves nothing, and says how to see everything again.
    await page.getByRole('tab', { name: text('record_type_withdraw') }).click();
    await noRecords.waitFor();
    expect(await noRecords.textContent()).toContain(text('record_emptyFiltered'));
    await noRecords.getByRole('button', { name: text('record_clearFilters') }).click();
    await row.waitFor();
  });

  it('withdraws with the code pad, cancels, is rejected with a reason, and records it all', async () => {
    const operator = await operatorToken();
    const user = await registerUser();
    await setWithdrawalPassword(user);
    await bindBankCard(user);
    await fund(user, operator, '500');
    expect(await usdBalance(user)).toEqual({ available: '500.00', frozen: '0.00' });

    const page = await browser.newPage({ user });
    await page.goto(appUrl(WITHDRAW));
    await page.locator('[data-testid="withdraw-form"]').waitFor();
    await page.locator('[data-testid="withdraw-currency-USD"]').click();
    await page.getByRole('button', { name: /Bank transfer \(USD\)/ }).click();
    const card = page.locator('[data-testid^="withdraw-destination-"]');
    await card.first().waitFor();
    // The card number is masked as the server sends it.
    expect(await card.first().textContent()).toContain('6222********7890');
    expect(await card.first().getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(() => page.locator('[data-testid="withdraw-available"]').textContent())
      .toBe('500.00 USD');

    // "All" leaves room for the fee (0.5% rounded up, + 1 USD): 496.51 + 3.49 = 500.00.
    await page.locator('[data-testid="withdraw-all"]').click();
    expect(await page.locator('#withdraw-amount').inputValue()).toBe('496.51');
    expect(await page.locator('[data-testid="withdraw-total"]').textContent()).toBe('500.00 USD');

    await page.locator('#withdraw-amount').fill('100');
    expect(await page.locator('[data-testid="withdraw-fee"]').textContent()).toBe('1.50 USD');
    expect(await page.locator('[data-testid="withdraw-total"]').textContent()).toBe('101.50 USD');
    await screenshot(page, 'withdraw-form');

    await openCodePad(page);
    const pad = page.locator('[data-testid="code-pad-popup"]');
    await pad.waitFor();
    // Once the sheet has slid in, its whole keypad is on screen.
    await pad.locator('button[data-key="0"]').click({ trial: true });
    await expectOnScreen(page, pad.locator('button[data-key="0"]'));
    await expectOnScreen(page, pad.locator('button[data-key="delete"]'));
    expect(await pad.locator('[data-testid="withdraw-summary"]').textContent()).toContain(
      '101.50 USD',
    );
    await screenshot(page, 'withdraw-code-pad');

    // A wrong password: told so, the pad stays for another try and nothing is frozen.
    await typeOnPad(page, '000000');
    const padError = pad.locator('[data-testid="code-pad-error"]');
    await expect.poll(() => padError.textContent()).toBe(text('hint_withPwdWrong'));
    await screenshot(page, 'withdraw-code-pad-wrong');
    expect(await usdBalance(user)).toEqual({ available: '500.00', frozen: '0.00' });

    await typeOnPad(page, WITHDRAW_PASSWORD);
    await waitForRoute(page, WITHDRAW_RECORD);
    const row = page.locator('[data-testid="withdraw-row"]').first();
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('0');
    expect(await row.locator('[data-testid="withdraw-status"]').textContent()).toBe(
      text('withdraw_status_reviewing'),
    );
    const rowText = (await row.textContent()) ?? '';
    expect(rowText).toContain('100.00 USD');
    expect(rowText).toContain('1.50 USD');
    expect(rowText).toContain('101.50 USD');
    expect(await row.locator('[data-testid="withdraw-destination"]').textContent()).toBe(
      'Example Bank · 6222********7890 · Test Person',
    );
    expect(await usdBalance(user)).toEqual({ available: '398.50', frozen: '101.50' });
    await screenshot(page, 'withdraw-records-pending');

    // Cancel: asked first, then the funds are available again.
    await page.locator('.adm-toast-main').waitFor({ state: 'detached' });
    await row.locator('[data-testid="withdraw-cancel"]').click();
    await page
      .locator('.adm-dialog-button', { hasText: text('withdraw_cancelYes') })
      .click({ trial: true });
    await screenshot(page, 'withdraw-cancel-confirm');
    await confirmDialog(page, text('withdraw_cancelYes'));
    await expectToast(page, text('withdraw_cancelled'));
    await expect.poll(() => row.getAttribute('data-status')).toBe('3');
    expect(await row.locator('[data-testid="withdraw-cancel"]').count()).toBe(0);
    expect(await usdBalance(user)).toEqual({ available: '500.00', frozen: '0.00' });
    await screenshot(page, 'withdraw-records-cancelled');

    // A second withdrawal, rejected by the operator with a reason the user reads.
    await page.goto(appUrl(WITHDRAW));
    await page.locator('[data-testid="withdraw-currency-USD"]').click();
    await page.locator('#withdraw-amount').fill('50');
    await openCodePad(page);
    await pad.waitFor();
    await typeOnPad(page, WITHDRAW_PASSWORD);
    await waitForRoute(page, WITHDRAW_RECORD);
    const list = await apiCall<unknown>('GET', '/api/userWithdraw/list', {
      token: user.token,
      query: { status: '0' },
    });
    const pending = (list.rows as { id: number }[])[0]!;
    const rejected = await adminCall(operator, '/withdrawals/reject', {
      id: String(pending.id),
      reason: 'The account holder name does not match',
    });
    expect(rejected.code, JSON.stringify(rejected)).toBe(200);
    await page.reload();
    await page.locator('[data-testid="withdraw-filter-2"]').click();
    const rejectedRow = page.locator('[data-testid="withdraw-row"][data-status="2"]');
    await rejectedRow.waitFor();
    expect(await page.locator('[data-testid="withdraw-row"]').count()).toBe(1);
    expect(await rejectedRow.locator('[data-testid="withdraw-reject-reason"]').textContent()).toBe(
      fill(text('withdraw_rejectReason'), 'The account holder name does not match'),
    );
    await screenshot(page, 'withdraw-records-rejected');
    expect(await usdBalance(user)).toEqual({ available: '500.00', frozen: '0.00' });

    // A third one, paid: amount and fee leave the account.
    await page.goto(appUrl(WITHDRAW));
    await page.locator('#withdraw-amount').fill('20');
    expect(await page.locator('[data-testid="withdraw-total"]').textContent()).toBe('21.10 USD');
    await openCodePad(page);
    await pad.waitFor();
    await typeOnPad(page, WITHDRAW_PASSWORD);
    await waitForRoute(page, WITHDRAW_RECORD);
    const third = await apiCall<unknown>('GET', '/api/userWithdraw/list', {
      token: user.token,
      query: { status: '0' },
    });
    const paid = await adminCall(operator, '/withdrawals/pay', {
      id: String((third.rows as { id: number }[])[0]!.id),
    });
    expect(paid.code, JSON.stringify(paid)).toBe(200);
    await page.reload();
    await page.locator('[data-testid="withdraw-filter-1"]').click();
    const paidRow = page.locator('[data-testid="withdraw-row"][data-status="1"]');
    await paidRow.waitFor();
    expect(await paidRow.locator('[data-testid="withdraw-status"]').textContent()).toBe(
      text('withdraw_status_paid'),
    );
    expect(await paidRow.locator('[data-testid="withdraw-cancel"]').count()).toBe(0);
    expect(await usdBalance(user)).toEqual({ available: '478.90', frozen: '0.00' });

    // Every change is in the balance records: the deposit, each hold, its release or payment.
    await page.goto(appUrl(ACCOUNT_RECORD));
    await page.locator('[data-testid="record-row"]').first().waitFor();
    const types = await page
      .locator('[data-testid="record-row"]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-type')));
    expect(types).toContain('recharge');
    expect(types.filter((type) => type === 'withdraw').length).toBeGreaterThanOrEqual(8);
    await screenshot(page, 'account-records');

    // And the assets component adds it up.
    await page.goto(appUrl(ASSETS));
    await page.locator('[data-testid="balance-USD"]').waitFor();
    expect(await page.locator('[data-testid="balance-USD"]').textContent()).toContain('478.90');
    await screenshot(page, 'assets-component');
  });
});
