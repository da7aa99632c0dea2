/**
 * Bank cards and wallet addresses through the real screens: bind a card from the configured
 * fields, see it masked, edit and delete it; bind an address, refused before sending when its
 * format does not fit the network, then accepted and shown masked, and delete it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { UI } from '@bourse/shared';
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
} from './browser';

const BANK_CARDS = '/pages/bankCard/bankCard-list';
const BIND_BANK_CARD = '/pages/bankCard/bindBankCard';
const WALLETS = '/pages/wallets/wallets';
const BIND_ADDRESS = '/pages/wallets/bindAddress';

const ERC20 = '0x52908400098527886E0F7030069857D2E4169EE7';
const TRC20 = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

function fill(template: string, ...params: string[]): string {
  return template.replace(/\{(\d)\}/g, (_whole, index: string) => params[Number(index)] ?? '');
}

/** Confirms antd-mobile's dialog with the button reading `label`. */
async function confirmDialog(page: Page, label: string): Promise<void> {
  const dialog = page.locator('.adm-dialog .adm-center-popup-body');
  await dialog.waitFor();
  await dialog.locator('.adm-dialog-button', { hasText: label }).click();
  await dialog.waitFor({ state: 'hidden' });
}

async function waitForToastToGo(page: Page): Promise<void> {
  await page.locator('.adm-toast-main').waitFor({ state: 'detached' });
}

describe('payment methods', () => {
  const browser = useBrowser();

  it('sends a signed-out visitor to login from every screen', async () => {
    const page = await browser.newPage();
    for (const route of [BANK_CARDS, BIND_BANK_CARD, WALLETS, BIND_ADDRESS]) {
      await page.goto(appUrl(route));
      await waitForRoute(page, '/pages/user/login');
    }
  });

  it('binds a bank card, shows it masked, edits it and deletes it', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(BANK_CARDS));
    const empty = page.locator('[data-testid="bank-cards-empty"]');
    await empty.waitFor();
    expect(await empty.textContent()).toContain(text('bankCard_empty'));
    await screenshot(page, 'bank-cards-empty');

    await empty.getByRole('button', { name: text('bankCard_add') }).click();
    await waitForRoute(page, BIND_BANK_CARD);
    const form = page.locator('[data-testid="bank-card-form"]');
    await form.waitFor();
    // The form is built from the configured fields, labelled in the user's language.
    for (const key of ['bank_bankName', 'bank_accountName', 'bank_cardNumber']) {
      await form
        .locator('.field-label', { hasText: text(key) })
        .first()
        .waitFor();
    }
    await expect
      .poll(() => form.locator('input').count())
      .toBe(
        (await apiCall('GET', '/api/bankPropertyConfig/list', { query: { configType: '0' } })).rows!
          .length,
      );

    // Nothing filled in: the required fields say so and nothing is sent.
    await form.locator('button[type="submit"]').click();
    const bankNameError = form.locator('.field-error', {
      hasText: fill(text('hint_paramRequired'), text('bank_bankName')),
    });
    await bankNameError.waitFor();
    await expectOnScreen(page, bankNameError);
    await screenshot(page, 'bind-bank-card-errors');

    await page.locator('#bank-bankName').fill('First Test Bank');
    await page.locator('#bank-accountName').fill('Ada Lovelace');
    // Letters cannot be typed into the digits-only number; spaces may group it.
    await page.locator('#bank-cardNumber').pressSequentially('6222 0212 3456 7890x');
    expect(await page.locator('#bank-cardNumber').inputValue()).toBe('6222 0212 3456 7890');
    await bankNameError.waitFor({ state: 'detached' });
    await screenshot(page, 'bind-bank-card');
    // A second tap within the debounce window is dropped on purpose (a double tap sends once).
    await page.waitForTimeout(UI.debounceMs);
    await form.locator('button[type="submit"]').click();
    await expectToast(page, text('bankCard_saved'));
    await waitForRoute(page, BANK_CARDS);

    const card = page.locator('[data-testid="bank-card"]');
    await card.waitFor();
    expect(await card.locator('[data-testid="bank-card-number"]').textContent()).toBe(
      '6222 **** **** 7890',
    );
    expect(await card.locator('[data-testid="bank-card-bank"]').textContent()).toBe(
      'First Test Bank',
    );
    expect(await page.locator('body').textContent()).not.toContain('6222021234567890');
    await waitForToastToGo(page);
    await screenshot(page, 'bank-cards');

    // Edit: the number stays masked and is kept when left empty.
    await card.locator('[data-testid="bank-card-edit"]').click();
    await waitForRoute(page, BIND_BANK_CARD);
    const bankName = page.locator('#bank-bankName');
    await expect.poll(() => bankName.inputValue()).toBe('First Test Bank');
    expect(await page.locator('#bank-cardNumber').inputValue()).toBe('');
    expect(await page.locator('#bank-cardNumber').getAttribute('placeholder')).toBe(
      fill(text('bankCard_keepNumber'), '6222 **** **** 7890'),
    );
    await screenshot(page, 'bind-bank-card-edit');
    await bankName.fill('Second Test Bank');
    await page.locator('#bank-branchName').fill('High Street');
    await page.locator('[data-testid="bank-card-form"] button[type="submit"]').click();
    await expectToast(page, text('bankCard_saved'));
    await waitForRoute(page, BANK_CARDS);
    await expect
      .poll(() => card.locator('[data-testid="bank-card-bank"]').textContent())
      .toBe('Second Test Bank');
    expect(await card.locator('[data-testid="bank-card-number"]').textContent()).toBe(
      '6222 **** **** 7890',
    );
    const stored = await apiCall<unknown>('GET', '/api/userBank/list', { token: user.token });
    expect(stored.rows).toEqual([
      expect.objectContaining({
        bankName: 'Second Test Bank',
        accountName: 'Ada Lovelace',
        cardNumber: '6222********7890',
        properties: expect.objectContaining({ branchName: 'High Street' }),
      }),
    ]);

    // Delete, after a confirmation that can be cancelled.
    await card.locator('[data-testid="bank-card-delete"]').click();
    const dialog = page.locator('.adm-dialog .adm-center-popup-body');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      fill(text('bankCard_deleteConfirm'), 'Second Test Bank', '7890'),
    );
    await waitForToastToGo(page);
    await screenshot(page, 'bank-card-delete-confirm');
    await dialog.locator('.adm-dialog-button', { hasText: text('common_cancel') }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await card.count()).toBe(1);

    await card.locator('[data-testid="bank-card-delete"]').click();
    await confirmDialog(page, text('bankCard_delete'));
    await expectToast(page, text('bankCard_deleted'));
    await empty.waitFor();
    expect((await apiCall('GET', '/api/userBank/list', { token: user.token })).rows).toEqual([]);
  });

  it('refuses an address in the wrong format before sending, then binds and deletes one', async () => {
    const user = await registerUser();
    const page = await browser.newPage({ user });
    await page.goto(appUrl(WALLETS));
    const empty = page.locator('[data-testid="wallets-empty"]');
    await empty.waitFor();
    await screenshot(page, 'wallets-empty');

    await empty.getByRole('button', { name: text('address_add') }).click();
    await waitForRoute(page, BIND_ADDRESS);
    const form = page.locator('[data-testid="address-form"]');
    await form.waitFor();
    // Only crypto currencies are offered; USDT has three networks, none chosen for the user.
    const currencies = form.locator('[data-testid="address-currency"] button');
    await expect.poll(() => currencies.allTextContents()).toContain('USDT');
    expect(await currencies.allTextContents()).not.toContain('USD');
    await currencies.filter({ hasText: /^USDT$/ }).click();
    const networks = form.locator('[data-testid="address-network"] button');
    await expect.poll(() => networks.allTextContents()).toEqual(['ERC20', 'TRC20', 'BEP20']);
    expect(
      await form.locator('[data-testid="address-network"] [aria-pressed="true"]').count(),
    ).toBe(0);

    // A TRON address on the Ethereum network: a clear message, and nothing sent.
    await page.locator('#wallet-address').fill(TRC20);
    await form.locator('button[type="submit"]').click();
    await form.locator('.field-error', { hasText: text('address_pickNetwork') }).waitFor();
    await networks.filter({ hasText: 'ERC20' }).click();
    const formatError = form.locator('.field-error', {
      hasText: fill(text('hint_walletAddressInvalid'), 'ERC20'),
    });
    await formatError.waitFor();
    // The format the network expects is told next to the field.
    expect(await form.locator('[data-testid="address-format"]').textContent()).toBe(
      text('address_format_ERC20'),
    );
    await expectOnScreen(page, formatError);
    await screenshot(page, 'bind-address-error');
    await page.waitForTimeout(UI.debounceMs);
    await form.locator('button[type="submit"]').click();
    await formatError.waitFor();
    expect(await page.evaluate(() => window.location.hash)).toContain(BIND_ADDRESS);
    expect(
      (await apiCall('GET', '/api/userWalletAddress/list', { token: user.token })).rows,
    ).toEqual([]);

    await page.locator('#wallet-address').fill(ERC20);
    await formatError.waitFor({ state: 'detached' });
    await page.locator('#wallet-remark').fill('My exchange');
    await screenshot(page, 'bind-address');
    await page.waitForTimeout(UI.debounceMs);
    await form.locator('button[type="submit"]').click();
    await expectToast(page, text('address_saved'));
    await waitForRoute(page, WALLETS);

    const group = page.locator('[data-testid="wallet-group-USDT"]');
    await group.waitFor();
    const item = group.locator('[data-testid="wallet-address"]');
    expect(await item.locator('[data-testid="wallet-address-network"]').textContent()).toBe(
      'ERC20',
    );
    expect(await item.locator('[data-testid="wallet-address-value"]').textContent()).toBe(
      `${ERC20.slice(0, 8)}${'*'.repeat(ERC20.length - 8)}`,
    );
    expect(await item.textContent()).toContain('My exchange');
    expect(await page.locator('body').textContent()).not.toContain(ERC20);
    await waitForToastToGo(page);
    await screenshot(page, 'wallets');

    await item.locator('[data-testid="wallet-address-delete"]').click();
    const dialog = page.locator('.adm-dialog .adm-center-popup-body');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      fill(text('address_deleteConfirm'), 'USDT', 'ERC20'),
    );
    await confirmDialog(page, text('address_delete'));
    await expectToast(page, text('address_deleted'));
    await empty.waitFor();
    expect(
      (await apiCall('GET', '/api/userWalletAddress/list', { token: user.token })).rows,
    ).toEqual([]);
  });
});
